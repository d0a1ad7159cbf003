//! `feerie check`: solve every problem of files and folders, a verdict per problem and twin,
//! and a summary; `feerie merge`: one summary from the JSON Lines of several `check` runs.
//!
//! Parallelism: problems run side by side on `--jobs` worker threads (default: every core),
//! and each solve uses `cores / jobs` threads (at least one) unless `--threads` says otherwise,
//! so a batch keeps every core busy without oversubscribing. The transposition-table budget
//! `--hash` is shared out between the workers. Results are written in input order: a worker
//! may run ahead of the slowest problem by a bounded window only, and a result is reduced to
//! its printed text and a one-line summary as soon as it is done, so memory stays flat however
//! long the batch.

use crate::problem::{Loaded, load_path};
use crate::report::Record;
use crate::verify::{VerdictKind, check_problem, record_unsolved};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::solve::{Format, LimitArgs, SearchArgs, cancel_flag};
use crate::solve::SolveOptions;
use std::sync::atomic::AtomicBool;

/// A slice of the input: shard `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// Whether the document with this global index (from 0) belongs to the shard.
    pub fn holds(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

/// Parses `I/N` with `1 <= I <= N`.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let (i, n) = s.split_once('/').ok_or_else(|| format!("'{s}': expected I/N, e.g. 1/4"))?;
    let index: usize = i.trim().parse().map_err(|_| format!("'{i}' is not a number"))?;
    let count: usize = n.trim().parse().map_err(|_| format!("'{n}' is not a number"))?;
    if count == 0 || index == 0 || index > count {
        return Err(format!("'{s}': need 1 <= I <= N"));
    }
    Ok(Shard { index, count })
}

/// Arguments of `feerie check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Problem files or folders (searched recursively for `.yaml`, `.yml`, `.olv`, and Popeye's `.inp`).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Search settings and output.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print only the summary and the list of problems that are not sound (text output: the
    /// records of `--format json|yaml` are always printed, so that `merge` gets them all).
    #[arg(long, short)]
    pub quiet: bool,
    /// Check only a slice: document k (counted across the sorted files from 0) goes to shard
    /// k mod N + 1.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Problems solved side by side (default: every core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
}

/// Arguments of `feerie merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// JSON Lines files written by `feerie check --format json`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Whether a file name has a problem-file extension.
fn is_problem_file(p: &Path) -> bool {
    crate::problem::is_problem_path(p)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out, errors);
        } else if is_problem_file(&p) {
            out.push(p);
        }
    }
}

/// The problem files named by `paths`: files as given, folders searched recursively for
/// `.yaml`, `.yml`, `.olv` and `.inp` files; all sorted, without repeats. Paths that do not exist or
/// cannot be listed are returned as messages.
pub fn collect_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut files, &mut errors);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            errors.push(format!("{}: no such file or folder", p.display()));
        }
    }
    files.sort();
    files.dedup();
    (files, errors)
}

/// One line of the summary: a problem (or twin) and its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Brief {
    /// The file.
    pub file: String,
    /// Its document number.
    pub document: usize,
    /// The twin label.
    pub twin: String,
    /// The verdict.
    pub verdict: VerdictKind,
    /// Why.
    pub reason: String,
    /// Solve time.
    #[serde(default)]
    pub elapsed_ms: u64,
}

impl From<&crate::report::html::IndexRow> for Brief {
    fn from(r: &crate::report::html::IndexRow) -> Brief {
        Brief {
            file: r.file.clone(),
            document: r.document,
            twin: r.twin.clone(),
            verdict: r.verdict,
            reason: r.reason.clone(),
            elapsed_ms: r.elapsed_ms,
        }
    }
}

impl Brief {
    fn of(r: &Record) -> Brief {
        Brief {
            file: r.file.clone(),
            document: r.document,
            twin: r.twin.clone(),
            verdict: r.verdict,
            reason: r.reason.clone(),
            elapsed_ms: r.elapsed_ms,
        }
    }
}

/// Counts per verdict and the problems that are not sound.
#[derive(Debug, Default)]
pub struct Summary {
    /// Count per verdict, in [`VerdictKind::ALL`] order.
    pub counts: [usize; 7],
    /// Everything that is not sound.
    pub not_sound: Vec<Brief>,
    /// Sum of the solve times.
    pub solve_ms: u64,
    /// Paths or files that could not be read at all.
    pub unreadable: Vec<String>,
}

impl Summary {
    /// Adds one result.
    pub fn add(&mut self, b: Brief) {
        let i = VerdictKind::ALL.iter().position(|k| *k == b.verdict).unwrap_or(0);
        self.counts[i] += 1;
        self.solve_ms += b.elapsed_ms;
        if b.verdict != VerdictKind::Sound {
            self.not_sound.push(b);
        }
    }
    /// Total results.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }
    /// A short line of counts so far (for the progress bar).
    pub fn short(&self) -> String {
        VerdictKind::ALL.iter().zip(self.counts).filter(|(_, n)| *n > 0).map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
    }
    /// The table and the list of problems that are not sound.
    pub fn render(&self, wall: Option<Duration>) -> String {
        let mut s = String::new();
        s.push_str("summary\n");
        for (k, n) in VerdictKind::ALL.iter().zip(self.counts) {
            let _ = writeln!(s, "  {:<12} {n:>6}", k.as_str());
        }
        let _ = writeln!(s, "  {:<12} {:>6}", "total", self.total());
        let _ = write!(s, "time: {:.1} s solving", self.solve_ms as f64 / 1000.0);
        if let Some(w) = wall {
            let _ = write!(s, ", {:.1} s wall clock", w.as_secs_f64());
        }
        s.push('\n');
        if !self.not_sound.is_empty() {
            let mut list = self.not_sound.clone();
            list.sort_by(|a, b| (&a.file, a.document, &a.twin).cmp(&(&b.file, b.document, &b.twin)));
            s.push_str("not sound:\n");
            for b in &list {
                let _ = writeln!(s, "  {} #{} twin {}: {} ({})", b.file, b.document, b.twin, b.verdict, b.reason);
            }
        }
        for u in &self.unreadable {
            let _ = writeln!(s, "unreadable: {u}");
        }
        s
    }
    /// 0 when all are sound, 2 when something could not be read, else 1.
    pub fn exit_code(&self) -> ExitCode {
        if !self.unreadable.is_empty() {
            ExitCode::from(2)
        } else if self.not_sound.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }
}

/// One unit of a batch, as the reader hands it to the workers.
pub enum Item {
    /// A document of a problem file.
    Doc(Box<Loaded>),
    /// A file that could not be read, with the message.
    Unreadable(String),
}

/// The number of workers and the solve options of each for a batch: `jobs` workers (0 = one per
/// core), each solving with `cores / jobs` threads (at least one) unless `--threads` is given,
/// and the hash budget shared out between them.
pub fn batch_options(limits: &LimitArgs, jobs: usize, cancel: Arc<AtomicBool>) -> (usize, SolveOptions) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = if jobs == 0 { cores } else { jobs }.max(1);
    let mut opts = limits.options(cancel);
    if limits.threads == 0 {
        opts.threads = (cores / jobs).max(1);
    }
    // The jobs share the `--hash` budget: together they never take more.
    opts.hash_share = jobs;
    (jobs, opts)
}

/// The number of documents of `files` that belong to `shard` (files that cannot be read count
/// for nothing).
pub fn count_documents(files: &[PathBuf], shard: Option<Shard>) -> usize {
    let mut k = 0usize;
    let mut n = 0usize;
    for f in files {
        if let Ok(d) = load_path(f) {
            for _ in &d {
                if shard.is_none_or(|s| s.holds(k)) {
                    n += 1;
                }
                k += 1;
            }
        }
    }
    n
}

/// Runs `work` on every document of `files` that belongs to `shard` (and on every file that
/// cannot be read), on `jobs` worker threads, and hands the results to `sink` in input order.
/// `work` gets the item's sequence number (from 0, in input order) and the item. The reader
/// stays at most a bounded window ahead of `sink`, so memory stays flat however long the batch.
pub fn run_batch<T: Send>(
    files: &[PathBuf],
    shard: Option<Shard>,
    jobs: usize,
    work: &(dyn Fn(usize, Item) -> T + Sync),
    sink: &mut dyn FnMut(T),
) {
    let jobs = jobs.max(1);
    let window = 4 * jobs + 4;
    let emitted = Arc::new((Mutex::new(0usize), Condvar::new()));
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, Item)>(jobs);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = mpsc::channel::<(usize, T)>();

    std::thread::scope(|scope| {
        // The reader: files in order, documents in order, at most `window` ahead of the output.
        let em = emitted.clone();
        scope.spawn(move || {
            let mut seq = 0usize;
            let mut k = 0usize;
            let wait = |seq: usize| {
                let (m, cv) = &*em;
                let mut g = m.lock().unwrap_or_else(|e| e.into_inner());
                while seq >= *g + window {
                    g = cv.wait(g).unwrap_or_else(|e| e.into_inner());
                }
            };
            for f in files {
                match load_path(f) {
                    Ok(docs) => {
                        for d in docs {
                            let mine = shard.is_none_or(|s| s.holds(k));
                            k += 1;
                            if !mine {
                                continue;
                            }
                            wait(seq);
                            if job_tx.send((seq, Item::Doc(Box::new(d)))).is_err() {
                                return;
                            }
                            seq += 1;
                        }
                    }
                    Err(e) => {
                        wait(seq);
                        if job_tx.send((seq, Item::Unreadable(e.to_string()))).is_err() {
                            return;
                        }
                        seq += 1;
                    }
                }
            }
        });
        for _ in 0..jobs {
            let rx = job_rx.clone();
            let tx = done_tx.clone();
            scope.spawn(move || {
                loop {
                    let job = {
                        let g = rx.lock().unwrap_or_else(|e| e.into_inner());
                        g.recv()
                    };
                    let Ok((seq, item)) = job else { break };
                    if tx.send((seq, work(seq, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The writer: results in input order.
        let mut pending: BTreeMap<usize, T> = BTreeMap::new();
        let mut next = 0usize;
        for (seq, d) in done_rx {
            pending.insert(seq, d);
            while let Some(d) = pending.remove(&next) {
                sink(d);
                next += 1;
                let (m, cv) = &*emitted;
                *m.lock().unwrap_or_else(|e| e.into_inner()) = next;
                cv.notify_all();
            }
        }
    });
}

/// What a worker hands back: the printed text and the briefs.
struct Done {
    text: String,
    briefs: Vec<Brief>,
    unreadable: Option<String>,
}

fn render(r: &Record, stip: Option<&crate::problem::Stipulation>, a: &SearchArgs) -> String {
    super::solve::render_record(r, stip, a)
}

fn work(item: Item, opts: &SolveOptions, a: &SearchArgs, quiet: bool) -> Done {
    match item {
        Item::Unreadable(msg) => Done { text: String::new(), briefs: Vec::new(), unreadable: Some(msg) },
        Item::Doc(l) => {
            let mut text = String::new();
            let mut briefs = Vec::new();
            match &*l {
                Loaded::Ready(p) => {
                    let variants = p.variants().unwrap_or_default();
                    let recs = check_problem(p, opts);
                    if !quiet {
                        text.push_str(&super::solve::render_problem(p, &variants, &recs, a));
                    }
                    briefs.extend(recs.iter().map(Brief::of));
                }
                other => {
                    if let Some(r) = record_unsolved(other) {
                        if !quiet {
                            text.push_str(&render(&r, None, a));
                        }
                        briefs.push(Brief::of(&r));
                    }
                }
            }
            Done { text, briefs, unreadable: None }
        }
    }
}

/// The batch progress bar on standard error when it is a terminal.
pub fn overall_bar(label: &str, total: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(total as u64);
    pb.set_style(
        ProgressStyle::with_template(&format!("{label} [{{bar:30}}] {{pos}}/{{len}} problems, {{elapsed}} (ETA {{eta}}) {{msg}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    Some(pb)
}

/// Runs `feerie check`.
pub fn run(a: &CheckArgs) -> ExitCode {
    let start = Instant::now();
    let (files, errors) = collect_files(&a.paths);
    let mut summary = Summary { unreadable: errors.clone(), ..Summary::default() };
    for e in &errors {
        eprintln!("feerie: {e}");
    }
    let (jobs, mut opts) = batch_options(&a.search.limits, a.jobs, cancel_flag());
    opts.tree = a.search.format.shows_every_tree();
    // The bar needs the number of problems: count them first (loading is cheap next to solving).
    let bar = if std::io::stderr().is_terminal() { overall_bar("check", count_documents(&files, a.shard)) } else { None };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut next = 0usize;
    // Quiet silences the human text only, never the records of a machine format.
    let quiet = a.quiet && a.search.format.is_human();
    let job = |_seq: usize, item: Item| work(item, &opts, &a.search, quiet);
    let mut sink = |d: Done| {
        if let Some(u) = d.unreadable {
            eprintln!("feerie: {u}");
            summary.unreadable.push(u);
        }
        if !d.text.is_empty() {
            let write = |out: &mut std::io::StdoutLock<'_>| {
                let _ = out.write_all(d.text.as_bytes());
                let _ = out.flush();
            };
            match &bar {
                Some(b) => b.suspend(|| write(&mut out)),
                None => write(&mut out),
            }
        }
        for b in d.briefs {
            summary.add(b);
        }
        next += 1;
        if let Some(b) = &bar {
            b.set_position(next as u64);
            b.set_message(summary.short());
        }
    };
    run_batch(&files, a.shard, jobs, &job, &mut sink);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print_summary(&summary, Some(start.elapsed()), a.search.format);
    summary.exit_code()
}

/// Prints the summary: on standard output with text output, else on standard error (so that
/// standard output stays JSON Lines or YAML).
pub fn print_summary(s: &Summary, wall: Option<Duration>, format: Format) {
    let text = s.render(wall);
    if format.is_human() {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(text.as_bytes());
        let _ = o.flush();
    } else {
        eprint!("{text}");
    }
}

/// Runs `feerie merge`: reads the JSON Lines of `check` runs and prints one summary.
pub fn merge(a: &MergeArgs) -> ExitCode {
    let mut summary = Summary::default();
    for f in &a.files {
        let file = match std::fs::File::open(f) {
            Ok(x) => x,
            Err(e) => {
                let m = format!("{}: {e}", f.display());
                eprintln!("feerie: {m}");
                summary.unreadable.push(m);
                continue;
            }
        };
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    let m = format!("{}: line {}: {e}", f.display(), i + 1);
                    eprintln!("feerie: {m}");
                    summary.unreadable.push(m);
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Brief>(&line) {
                Ok(b) => summary.add(b),
                Err(e) => {
                    let m = format!("{}: line {}: not a check record: {e}", f.display(), i + 1);
                    eprintln!("feerie: {m}");
                    summary.unreadable.push(m);
                }
            }
        }
    }
    print_summary(&summary, None, Format::Text);
    summary.exit_code()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--jobs N --hash M`: each of the N searches solving side by side gets M/N megabytes, to
    /// the byte, and its table never takes more, so the run as a whole stays within M.
    #[test]
    fn jobs_share_the_hash_budget() {
        let limits = |hash_mb| LimitArgs { threads: 1, hash_mb, timeout: None, notation: super::super::solve::NotationArg::Iccs };
        for (hash, jobs) in [(128, 1), (128, 3), (1, 2), (1, 16), (0, 4), (5, 7)] {
            let (n, opts) = batch_options(&limits(hash), jobs, Arc::new(AtomicBool::new(false)));
            assert_eq!(n, jobs);
            assert_eq!(opts.table_bytes(), (hash << 20) / jobs);
            let table = crate::solve::tt::Table::with_bytes(opts.table_bytes());
            assert!(n * table.capacity_bytes() <= hash << 20, "--hash {hash} --jobs {jobs}: {} bytes each", table.capacity_bytes());
            assert!(table.slots_in_use() * crate::solve::tt::SLOT_BYTES <= table.capacity_bytes());
            // Not wasted either: at least half of each share is used (a power of two of slots).
            assert!(2 * table.capacity_bytes() > opts.table_bytes() || opts.table_bytes() < crate::solve::tt::SLOT_BYTES);
        }
    }

    #[test]
    fn shards() {
        assert_eq!(parse_shard("1/2"), Ok(Shard { index: 1, count: 2 }));
        assert!(parse_shard("0/2").is_err());
        assert!(parse_shard("3/2").is_err());
        assert!(parse_shard("x").is_err());
        let s = Shard { index: 2, count: 3 };
        assert!(s.holds(1) && s.holds(4) && !s.holds(0));
    }
}
