//! The `feerie` binary: everything is in the library's `cli` module.
fn main() -> std::process::ExitCode {
    feerie::cli::run()
}
