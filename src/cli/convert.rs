//! `feerie convert FILE… --to yaml|popeye [--out DIR]`: Popeye input to YACPDB YAML and back
//! (see [`crate::problem::convert`]).
//!
//! Without `--out` every converted problem goes to standard output, one YAML stream or one
//! Popeye input; with `--out DIR` each input file gives one file in `DIR` with the new
//! extension (the files of a folder keep their place below it). A problem that cannot be
//! converted is named on standard error, with its file, number and line, and the others go
//! on. Exit code 0 when every problem was converted, 1 when one was skipped, 2 when a file
//! cannot be read or written.

use super::check::collect_files;
use crate::problem::convert::{Format, convert_str};
use crate::problem::read_problem_file;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Target formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToArg {
    /// YACPDB YAML (`.yaml`).
    Yaml,
    /// Popeye input, English keywords (`.inp`).
    Popeye,
}

impl From<ToArg> for Format {
    fn from(t: ToArg) -> Format {
        match t {
            ToArg::Yaml => Format::Yaml,
            ToArg::Popeye => Format::Popeye,
        }
    }
}

/// Arguments of `feerie convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Problem files (`.yaml`, `.yml`, `.olv`, Popeye's `.inp`) or folders holding them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: ToArg,
    /// Write one file per input into this folder (created if needed) instead of standard
    /// output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The input files, each with the path of its output below `--out` (its name, or its place
/// below the folder given).
fn inputs(paths: &[PathBuf], ext: &str) -> (Vec<(PathBuf, PathBuf)>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        let (files, errs) = collect_files(std::slice::from_ref(p));
        errors.extend(errs);
        for f in files {
            let rel =
                if p.is_dir() { f.strip_prefix(p).unwrap_or(&f).to_path_buf() } else { PathBuf::from(f.file_name().unwrap_or_default()) };
            out.push((f, rel.with_extension(ext)));
        }
    }
    (out, errors)
}

/// Runs `feerie convert`.
pub fn run(a: &ConvertArgs) -> ExitCode {
    let to: Format = a.to.into();
    let (files, errors) = inputs(&a.files, to.extension());
    let mut code = 0u8;
    for e in errors {
        eprintln!("feerie: {e}");
        code = 2;
    }
    let stdout = std::io::stdout();
    let mut converted: Vec<String> = Vec::new();
    let mut written: Vec<PathBuf> = Vec::new();
    for (file, rel) in &files {
        let (text, popeye) = match read_problem_file(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("feerie: {e}");
                code = 2;
                continue;
            }
        };
        let mut done = Vec::new();
        for r in convert_str(&text, &file.display().to_string(), popeye, to) {
            match r {
                Ok(t) => done.push(t),
                Err(e) => {
                    eprintln!("feerie: skipped: {e}");
                    code = code.max(1);
                }
            }
        }
        match &a.out {
            None => converted.extend(done),
            Some(dir) => {
                let Some(body) = to.join(&done) else {
                    eprintln!("feerie: {}: no problem converted, nothing written", file.display());
                    continue;
                };
                let path = dir.join(rel);
                if written.contains(&path) {
                    eprintln!("feerie: {}: {} is written already (two inputs of one name): skipped", file.display(), path.display());
                    code = 2;
                    continue;
                }
                if let Err(e) = write_file(&path, &body) {
                    eprintln!("feerie: {}: cannot write: {e}", path.display());
                    code = 2;
                    continue;
                }
                written.push(path);
            }
        }
    }
    if a.out.is_none()
        && let Some(body) = to.join(&converted)
    {
        let mut out = stdout.lock();
        let _ = out.write_all(body.as_bytes());
        let _ = out.flush();
    }
    ExitCode::from(code)
}

fn write_file(path: &Path, body: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, body)
}
