//! The command line: clap commands, progress bars and exit codes. `main.rs` only calls
//! [`run`].

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub mod check;
pub mod convert;
pub mod perft;
pub mod report;
pub mod show;
pub mod solve;

/// feerie: a chess-problem solver.
#[derive(Parser, Debug)]
#[command(name = "feerie", version, about = "A chess-problem solver: orthodox and fairy chess, Échecs Réserve")]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the move tree (move-generator check and speed).
    Perft(perft::PerftArgs),
    /// Solve problems: every solution, every cook, and a verdict on the stated solution.
    Solve(solve::SolveArgs),
    /// Show each problem of the files as a diagram, with the result of validation.
    Show(show::ShowArgs),
    /// Check a collection: solve every problem of files and folders, a verdict each, a summary.
    Check(check::CheckArgs),
    /// Join the JSON Lines of several `check --format json` runs into one summary.
    Merge(check::MergeArgs),
    /// Check a collection and write one self-contained HTML page: diagrams, solutions, verdicts.
    Report(report::ReportArgs),
    /// Convert problem files between Popeye input and YACPDB YAML, losslessly for all feerie reads.
    Convert(convert::ConvertArgs),
}

/// Parses the arguments, runs the command and returns the exit code.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Command::Perft(a) => perft::run(&a),
        Command::Solve(a) => solve::run(&a),
        Command::Show(a) => show::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Merge(a) => check::merge(&a),
        Command::Report(a) => report::run(&a),
        Command::Convert(a) => convert::run(&a),
    }
}
