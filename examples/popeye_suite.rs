//! Popeye's own suite as a yardstick: every problem of `input/{EXAMPLES,BEISPIEL,TESTS,REGRESSIONS}`
//! that feerie supports is solved and compared with the output Popeye recorded, as trees and
//! sets (see `feerie::popeye_output`).
//!
//! ```text
//! cargo run --release --example popeye_suite -- [--filter SUBSTRING] [--timeout SECS]
//!     [--dir ../shared/corpus/popeye] [--list all|differs|same|unsupported|invalid|timedout]
//! ```

use feerie::piece::Lang;
use feerie::popeye_output::{Judgement, OutputSection, is_orthodox, judge, output_language, split_output};
use feerie::problem::{Loaded, Problem, load_path};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const DIRS: [&str; 4] = ["EXAMPLES", "BEISPIEL", "TESTS", "REGRESSIONS"];
const CLASSES: [&str; 6] = ["same", "differs", "unsupported", "invalid", "timed out", "no output"];

struct Args {
    filter: Option<String>,
    timeout: u64,
    dir: PathBuf,
    list: Option<String>,
    /// Print both solutions of each differing problem.
    verbose: bool,
    /// Only split the outputs and compare the counts with the inputs' problems.
    split_only: bool,
    /// Only the orthodox problems: chess pieces, no fairy condition (options, goals and
    /// stipulation forms do not count).
    orthodox: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        filter: None,
        timeout: 10,
        dir: PathBuf::from("../shared/corpus/popeye"),
        list: None,
        split_only: false,
        verbose: false,
        orthodox: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--filter" => a.filter = Some(value()),
            "--timeout" => a.timeout = value().parse().expect("--timeout SECS"),
            "--dir" => a.dir = PathBuf::from(value()),
            "--list" => a.list = Some(value().replace(' ', "")),
            "--split-only" => a.split_only = true,
            "--verbose" => a.verbose = true,
            "--orthodox" => a.orthodox = true,
            "-h" | "--help" => {
                println!(
                    "popeye_suite [--filter SUBSTRING] [--timeout SECS] [--dir DIR] [--list all|differs|same|unsupported|invalid|timedout|nooutput] [--split-only] [--verbose] [--orthodox]"
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

/// The output file an input names on its `protocol` line (any prefix of `protocol` or
/// `protokoll` of 4 letters or more).
fn protocol_name(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        let k = w.next()?.to_ascii_lowercase();
        (k.len() >= 4 && ("protocol".starts_with(&k) || "protokoll".starts_with(&k))).then(|| w.next().map(str::to_string))?
    })
}

/// One problem's outcome.
struct Outcome {
    file: String,
    dir: &'static str,
    number: usize,
    class: &'static str,
    detail: String,
    kind: Option<String>,
}

/// Judges a problem in a thread of its own, abandoned when the solver does not stop in time
/// (it stops itself at the deadline of each twin; it is left a little longer to notice).
fn judge_with_limit(p: &Problem, section: &OutputSection, lang: Lang, timeout: Duration) -> Option<Option<Judgement>> {
    let (tx, rx) = mpsc::channel();
    let twins = p.twins.len() as u32 + 1;
    let (p, section) = (p.clone(), section.clone());
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| judge(&p, &section, lang, timeout)));
        let _ = tx.send(r.ok());
    });
    rx.recv_timeout(timeout * twins + Duration::from_secs(3)).ok()
}

fn run_problem(
    p: &Problem,
    section: Option<&OutputSection>,
    lang: Lang,
    timeout: Duration,
    verbose: bool,
) -> (&'static str, String, Option<String>) {
    let Some(section) = section else { return ("no output", "Popeye's output has no section for it".into(), None) };
    let judgement = match judge_with_limit(p, section, lang, timeout) {
        None => return ("timed out", "abandoned: the solver did not stop".into(), None),
        Some(None) => return ("invalid", "the solver panicked".into(), None),
        Some(Some(j)) => j,
    };
    match judgement {
        Judgement::Same => ("same", String::new(), None),
        Judgement::TimedOut(r) => ("timed out", r, None),
        Judgement::Invalid(r) => ("invalid", r, None),
        Judgement::Differs { twin, difference: d, feerie_lines } => {
            let mut s = format!("twin {twin}: {}", d.kind);
            if !d.path.is_empty() {
                s.push_str(&format!("\n      under: {}", d.path.join(" / ")));
            }
            s.push_str(&format!("\n      popeye: {}", d.popeye.as_deref().unwrap_or("—")));
            s.push_str(&format!("\n      feerie: {}", d.feerie.as_deref().unwrap_or("—")));
            if verbose {
                s.push_str("\n    --- popeye:\n");
                for l in section.twin(&twin).map(|t| t.lines.as_slice()).unwrap_or_default() {
                    s.push_str(&format!("    |{l}\n"));
                }
                s.push_str("    --- feerie:\n");
                for l in &feerie_lines {
                    s.push_str(&format!("    |{l}\n"));
                }
            }
            ("differs", s, Some(d.kind))
        }
    }
}

fn main() {
    let args = parse_args();
    let start = Instant::now();
    let timeout = Duration::from_secs(args.timeout);
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut split_warnings = Vec::new();
    for dir in DIRS {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(args.dir.join("input").join(dir)) {
            Ok(rd) => rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "inp")).collect(),
            Err(e) => {
                eprintln!("{dir}: {e}");
                continue;
            }
        };
        files.sort();
        for path in files {
            let shown = path.strip_prefix(&args.dir).unwrap_or(&path).display().to_string();
            if args.filter.as_ref().is_some_and(|f| !shown.contains(f.as_str())) {
                continue;
            }
            run_file(&path, &shown, dir, &args, timeout, &mut outcomes, &mut reasons, &mut split_warnings);
        }
    }
    let want = args.list.as_deref();
    for o in &outcomes {
        if want.is_some_and(|w| w == "all" || w == o.class.replace(' ', "")) {
            println!(
                "{} #{}: {}{}",
                o.file,
                o.number,
                o.class,
                if o.detail.is_empty() { String::new() } else { format!(": {}", o.detail) }
            );
        }
    }
    for w in &split_warnings {
        println!("warning: {w}");
    }
    println!();
    println!(
        "{:<12} {:>8} {:>8} {:>8} {:>12} {:>8} {:>10} {:>10}",
        "directory", "problems", "same", "differs", "unsupported", "invalid", "timed out", "no output"
    );
    let mut totals = [0usize; 6];
    for dir in DIRS.iter().copied().chain(std::iter::once("total")) {
        let rows: Vec<&Outcome> = outcomes.iter().filter(|o| dir == "total" || o.dir == dir).collect();
        let counts: Vec<usize> = CLASSES.iter().map(|c| rows.iter().filter(|o| o.class == *c).count()).collect();
        if dir != "total" {
            for (t, c) in totals.iter_mut().zip(&counts) {
                *t += c;
            }
        }
        println!(
            "{:<12} {:>8} {:>8} {:>8} {:>12} {:>8} {:>10} {:>10}",
            dir,
            rows.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4],
            counts[5]
        );
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for o in &outcomes {
        if let Some(k) = &o.kind {
            *kinds.entry(k.as_str()).or_default() += 1;
        }
    }
    let mut kinds: Vec<_> = kinds.into_iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    println!("\nfirst differences by kind:");
    for (k, n) in &kinds {
        println!("{n:>6}  {k}");
    }
    let mut reasons: Vec<_> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("\nunsupported elements (top 40 of {}; each problem counts every element the loader names):", reasons.len());
    for (r, n) in reasons.iter().take(40) {
        println!("{n:>6}  {r}");
    }
    println!("\ntotal wall time: {:.1} s", start.elapsed().as_secs_f64());
}

#[allow(clippy::too_many_arguments)]
fn run_file(
    path: &Path,
    shown: &str,
    dir: &'static str,
    args: &Args,
    timeout: Duration,
    outcomes: &mut Vec<Outcome>,
    reasons: &mut BTreeMap<String, usize>,
    warnings: &mut Vec<String>,
) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text: String = String::from_utf8(bytes.clone()).unwrap_or_else(|_| bytes.iter().map(|&b| b as char).collect());
    let loaded = match load_path(path) {
        Ok(l) => l,
        Err(e) => {
            warnings.push(format!("{shown}: {e}"));
            return;
        }
    };
    let (sections, lang) = match protocol_name(&text) {
        Some(name) => {
            let out_path = args.dir.join("output").join(&name);
            match std::fs::read(&out_path) {
                Ok(b) => {
                    let t: String = String::from_utf8(b.clone()).unwrap_or_else(|_| b.iter().map(|&c| c as char).collect());
                    (split_output(&t), output_language(&t))
                }
                Err(e) => {
                    warnings.push(format!("{shown}: output {name}: {e}"));
                    (Vec::new(), Lang::En)
                }
            }
        }
        None => {
            warnings.push(format!("{shown}: no protocol line"));
            (Vec::new(), Lang::En)
        }
    };
    // Popeye stops at `end` and after an aborted run; when the input has more problems than
    // the output has sections, the sections are taken to be those of the first problems.
    let matched = sections.len() <= loaded.len();
    if args.split_only {
        let twins_ok = loaded.iter().zip(&sections).all(|(l, s)| match l {
            Loaded::Ready(p) => p.variants().map_or(true, |v| v.len() == s.twins.len() || (v.len() == 1 && s.twins.len() == 1)),
            _ => true,
        });
        println!(
            "{shown}: {} problems, {} sections{}{}",
            loaded.len(),
            sections.len(),
            if sections.len() == loaded.len() { "" } else { "  MISMATCH" },
            if twins_ok { "" } else { "  TWIN MISMATCH" }
        );
        return;
    }
    if sections.len() != loaded.len() && !sections.is_empty() {
        let what = if matched { "the first ones compared" } else { "not compared" };
        warnings.push(format!("{shown}: {} problems but {} output sections; {what}", loaded.len(), sections.len()));
    }
    for (i, l) in loaded.iter().enumerate() {
        let number = i + 1;
        if args.orthodox && !is_orthodox(l) {
            continue;
        }
        let (class, detail, kind) = match l {
            Loaded::Unsupported { reason, .. } => {
                for r in reason.split("; ") {
                    *reasons.entry(r.to_string()).or_default() += 1;
                }
                ("unsupported", reason.clone(), None)
            }
            Loaded::Invalid(e) => ("invalid", e.to_string(), None),
            Loaded::Ready(p) => {
                let section = if matched { sections.get(i) } else { None };
                let t0 = Instant::now();
                let r = run_problem(p, section, lang, timeout, args.verbose);
                eprintln!("{shown} #{number}: {} ({:.2} s)", r.0, t0.elapsed().as_secs_f64());
                r
            }
        };
        outcomes.push(Outcome { file: shown.to_string(), dir, number, class, detail, kind });
    }
}
