//! `feerie report PATH… -o report.html`: checks a collection as `feerie check` does and writes
//! one self-contained HTML page (see [`crate::report::html`]).
//!
//! The problems are solved by the batch runner of `check` (workers side by side, results in
//! input order). The summary is printed as `check` prints it (on standard error when the page
//! goes to standard output), and the exit code is `check`'s: 0 when every problem is sound, 1
//! when some are not, 2 when a path cannot be read or the page cannot be written.

use super::check::{Brief, Item, Shard, Summary, batch_options, collect_files, count_documents, overall_bar, parse_shard, run_batch};
use super::solve::{LangArg, LimitArgs, cancel_flag};
use crate::piece::Lang;
use crate::problem::Loaded;
use crate::report::html::{Report, Section, document_section};
use crate::solve::SolveOptions;
use crate::verify::{check_problem, record_unsolved};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `feerie report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Problem files or folders (searched recursively for `.yaml`, `.yml`, `.olv`, and Popeye's `.inp`).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The HTML file to write (standard output when not given or `-`).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The page title.
    #[arg(long)]
    pub title: Option<String>,
    /// Threads, hash and time limit.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Language of piece letters and words.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// Report only a slice: document k (counted across the sorted files from 0) goes to shard
    /// k mod N + 1.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Problems solved side by side (default: every core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
}

/// What a worker hands back: the document's section, or a file that could not be read.
enum Part {
    Section(Section),
    Unreadable(String),
}

fn work(seq: usize, item: Item, opts: &SolveOptions, lang: Lang) -> Part {
    match item {
        Item::Unreadable(m) => Part::Unreadable(m),
        Item::Doc(l) => {
            let records = match &*l {
                Loaded::Ready(p) => check_problem(p, opts),
                other => record_unsolved(other).into_iter().collect(),
            };
            Part::Section(document_section(seq, &l, &records, lang))
        }
    }
}

/// Runs `feerie report`.
pub fn run(a: &ReportArgs) -> ExitCode {
    let start = Instant::now();
    let lang: Lang = a.lang.into();
    let (files, errors) = collect_files(&a.paths);
    let mut summary = Summary { unreadable: errors.clone(), ..Summary::default() };
    let mut report = Report::new(lang);
    for e in errors {
        eprintln!("feerie: {e}");
        report.push_unreadable(e);
    }
    let (jobs, opts) = batch_options(&a.limits, a.jobs, cancel_flag());
    let bar = if std::io::stderr().is_terminal() { overall_bar("report", count_documents(&files, a.shard)) } else { None };
    let mut done = 0u64;
    let job = |seq: usize, item: Item| work(seq, item, &opts, lang);
    let mut sink = |p: Part| {
        match p {
            Part::Unreadable(u) => {
                eprintln!("feerie: {u}");
                summary.unreadable.push(u.clone());
                report.push_unreadable(u);
            }
            Part::Section(s) => {
                for r in &s.rows {
                    summary.add(Brief::from(r));
                }
                report.push(s);
            }
        }
        done += 1;
        if let Some(b) = &bar {
            b.set_position(done);
        }
    };
    run_batch(&files, a.shard, jobs, &job, &mut sink);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let title = a.title.clone().unwrap_or_else(|| crate::report::html::words(lang).title.to_string());
    let page = report.render(&title);
    let to_stdout = a.output.as_ref().is_none_or(|o| o.as_os_str() == "-");
    let written = if to_stdout {
        let mut o = std::io::stdout().lock();
        o.write_all(page.as_bytes()).and_then(|_| o.flush()).map_err(|e| format!("standard output: {e}"))
    } else {
        let path = a.output.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        a.output.as_ref().map_or(Ok(()), |p| std::fs::write(p, page.as_bytes())).map_err(|e| format!("{path}: {e}"))
    };
    let text = summary.render(Some(start.elapsed()));
    if to_stdout {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
    match written {
        Ok(()) => {
            if let Some(p) = a.output.as_ref().filter(|_| !to_stdout) {
                println!("report: {}", p.display());
            }
            summary.exit_code()
        }
        Err(e) => {
            eprintln!("feerie: cannot write the report: {e}");
            ExitCode::from(2)
        }
    }
}
