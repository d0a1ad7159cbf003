//! `feerie solve`: every solution of each problem, Popeye-like text, Popeye's own layout, JSON
//! Lines or YAML.

use crate::piece::Lang;
use crate::problem::{Loaded, load_path};
use crate::report::text::record_text;
use crate::report::{Record, json_line, yaml_doc};
use crate::rules::Notation;
use crate::solve::{Progress, SolveOptions};
use crate::verify::{check_problem, record_unsolved};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum Format {
    /// Popeye-like text with a verdict line.
    #[default]
    Text,
    /// JSON Lines: one object per problem and twin.
    Json,
    /// A YAML stream: one document per problem and twin.
    Yaml,
    /// Popeye's output layout: each problem as Popeye prints it (header with the diagram,
    /// twins, keys, tries, threats, help lines, `solution finished.`), then feerie's verdict.
    Popeye,
}

impl Format {
    /// Whether the format is text for people (its summary goes to standard output), not
    /// records for programs.
    pub fn is_human(self) -> bool {
        matches!(self, Format::Text | Format::Popeye)
    }

    /// Whether every battle problem gets its whole tree of variations: all formats but
    /// Popeye's layout, which shows the threat and variations only where a problem asks for
    /// them (`option Variation`, `PostKeyPlay`, `Threat`; see `verify::options_for`).
    pub fn shows_every_tree(self) -> bool {
        self != Format::Popeye
    }
}

/// Languages of piece letters and words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum LangArg {
    /// English.
    #[default]
    En,
    /// French.
    Fr,
    /// German.
    De,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::En => Lang::En,
            LangArg::Fr => Lang::Fr,
            LangArg::De => Lang::De,
        }
    }
}

/// Move notation of Xiangqi problems (chess problems are always written in Popeye's notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum NotationArg {
    /// ICCS coordinates: `h2e2`.
    #[default]
    Iccs,
    /// WXF: `C2.5`, `H2+3`, front and rear pieces `R+.3`.
    Wxf,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Iccs => Notation::Native,
            NotationArg::Wxf => Notation::Wxf,
        }
    }
}

/// Search limits and move notation shared by `solve`, `check` and `report`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Transposition-table budget in megabytes (0 = none); the table starts at 2 MB and grows.
    #[arg(long = "hash", default_value_t = 1024)]
    pub hash_mb: usize,
    /// Seconds per problem before giving up ("timed out" with what was found).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Move notation of Xiangqi problems: ICCS (`h2e2`) or WXF (`C2.5`); stated solutions are
    /// read in either.
    #[arg(long, value_enum, default_value_t = NotationArg::Iccs)]
    pub notation: NotationArg,
}

impl LimitArgs {
    /// The solve options these limits give.
    pub fn options(&self, cancel: Arc<AtomicBool>) -> SolveOptions {
        SolveOptions {
            threads: self.threads,
            hash_mb: self.hash_mb,
            timeout: self.timeout.filter(|t| *t > 0.0).map(Duration::from_secs_f64),
            cancel: Some(cancel),
            notation: self.notation.into(),
            ..SolveOptions::default()
        }
    }
}

/// Settings shared by `solve` and `check`: limits and output.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Threads, hash and time limit.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Language of piece letters and words.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub lang: LangArg,
    /// Plain ASCII moves: Échecs Réserve's moves into reserve and drops written `Sd4^` and
    /// `Sd4v` instead of `Sd4↑` and `Sd4↓` (in every format).
    #[arg(long)]
    pub ascii: bool,
}

impl SearchArgs {
    /// The solve options these settings give (the tree as the format shows it, see
    /// [`Format::shows_every_tree`]).
    pub fn options(&self, cancel: Arc<AtomicBool>) -> SolveOptions {
        SolveOptions { tree: self.format.shows_every_tree(), ..self.limits.options(cancel) }
    }
}

/// Arguments of `feerie solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem files: YAML (`.yaml`, `.yml`, `.olv`) or Popeye input (`.inp`, or any file whose content is Popeye's).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Search settings and output.
    #[command(flatten)]
    pub search: SearchArgs,
    /// After each problem, print the positions searched and the speed (nodes/s) on
    /// standard error.
    #[arg(long)]
    pub stats: bool,
}

/// The `--stats` line of a record: nodes, time and nodes per second.
pub fn stats_line(r: &Record) -> String {
    let secs = (r.elapsed_ms as f64 / 1000.0).max(1e-3);
    format!(
        "{} #{} twin {}: {} nodes in {:.3} s, {:.2} M nodes/s",
        r.file,
        r.document,
        r.twin,
        r.nodes,
        r.elapsed_ms as f64 / 1000.0,
        r.nodes as f64 / secs / 1e6
    )
}

#[derive(Debug)]
struct Bar(ProgressBar);

impl Progress for Bar {
    fn update(&self, done: usize, total: usize, depth: u32) {
        self.0.set_length(total as u64);
        self.0.set_position(done as u64);
        self.0.set_message(format!("depth {depth}"));
    }
}

/// A progress bar on standard error when it is a terminal.
pub fn progress_bar(label: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(0);
    pb.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} first moves, {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb.set_prefix(label.to_string());
    pb.enable_steady_tick(Duration::from_millis(200));
    Some(pb)
}

/// Installs a Ctrl-C handler that sets the returned flag (once per process): the search
/// stops and what it found is reported. On Linux a second Ctrl-C ends the process at once.
pub fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let f = Arc::new(AtomicBool::new(false));
        on_interrupt(&f);
        f
    })
    .clone()
}

/// Sets `flag` on SIGINT, by a signal handler (no thread: `ctrlc`'s waiting thread cost a
/// short problem a twentieth of its run). `flag` must live as long as the process.
#[cfg(target_os = "linux")]
fn on_interrupt(flag: &Arc<AtomicBool>) {
    use std::sync::atomic::{AtomicPtr, Ordering};
    static TARGET: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
    extern "C" fn handler(_: libc::c_int) {
        // Only atomic operations and `signal`, which are safe in a signal handler.
        let p = TARGET.load(Ordering::SeqCst);
        if !p.is_null() {
            // SAFETY: `p` points into the `Arc` that `cancel_flag` keeps for the whole
            // process.
            unsafe { (*p).store(true, Ordering::SeqCst) };
        }
        // SAFETY: restoring the default action of SIGINT (the next Ctrl-C ends the process).
        unsafe { libc::signal(libc::SIGINT, libc::SIG_DFL) };
    }
    TARGET.store(Arc::as_ptr(flag).cast_mut(), Ordering::SeqCst);
    let action = handler as extern "C" fn(libc::c_int);
    // SAFETY: installs a handler that only does what is allowed in one (above).
    unsafe { libc::signal(libc::SIGINT, action as libc::sighandler_t) };
}

/// Sets `flag` on Ctrl-C (`ctrlc`'s handler).
#[cfg(not(target_os = "linux"))]
fn on_interrupt(flag: &Arc<AtomicBool>) {
    let g = flag.clone();
    let _ = ctrlc::set_handler(move || g.store(true, std::sync::atomic::Ordering::SeqCst));
}

/// Writes one record in the chosen format.
pub fn emit(out: &mut impl Write, r: &Record, stip: Option<&crate::problem::Stipulation>, a: &SearchArgs) {
    let text = render_record(r, stip, a);
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// One record in the chosen format and language, with ASCII arrows under `--ascii`. In
/// Popeye's layout a record alone is one feerie could not solve (unsupported or invalid):
/// its title and verdict ([`render_problem`] writes solved problems).
pub fn render_record(r: &Record, stip: Option<&crate::problem::Stipulation>, a: &SearchArgs) -> String {
    let text = match a.format {
        Format::Text => record_text(r, stip, a.lang.into()) + "\n",
        Format::Json => json_line(r) + "\n",
        Format::Yaml => yaml_doc(r),
        Format::Popeye => crate::report::popeye::unsolved_text(r),
    };
    if a.ascii { crate::notation::ascii_arrows(&text) } else { text }
}

/// A solved problem's records (one per twin, in the order of `variants`) in the chosen
/// format: in Popeye's layout the whole problem at once (header, twins, verdicts), in the
/// other formats the records one after the other.
pub fn render_problem(p: &crate::problem::Problem, variants: &[crate::problem::Variant], recs: &[Record], a: &SearchArgs) -> String {
    if a.format == Format::Popeye && variants.len() == recs.len() {
        let text = crate::report::popeye::problem_text(p, variants, recs, a.lang.into());
        return if a.ascii { crate::notation::ascii_arrows(&text) } else { text };
    }
    recs.iter()
        .map(|r| {
            let stip = variants.iter().find(|v| v.label == r.twin).map(|v| v.stipulation);
            render_record(r, stip.as_ref(), a)
        })
        .collect()
}

/// Runs `feerie solve`: exit 0, or 2 when a file cannot be read or holds invalid documents.
pub fn run(a: &SolveArgs) -> ExitCode {
    let cancel = cancel_flag();
    let base = a.search.options(cancel);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = 0u8;
    for f in &a.files {
        let docs = match load_path(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("feerie: {e}");
                code = 2;
                continue;
            }
        };
        for l in &docs {
            match l {
                Loaded::Ready(p) => {
                    let bar = progress_bar(&format!("{} #{}", p.file, p.document));
                    let mut opts = base.clone();
                    if let Some(b) = &bar {
                        opts.progress = Some(Arc::new(Bar(b.clone())));
                    }
                    let recs = check_problem(p, &opts);
                    if let Some(b) = bar {
                        b.finish_and_clear();
                    }
                    let variants = p.variants().unwrap_or_default();
                    let _ = out.write_all(render_problem(p, &variants, &recs, &a.search).as_bytes());
                    let _ = out.flush();
                    if a.stats {
                        for r in &recs {
                            eprintln!("{}", stats_line(r));
                        }
                    }
                }
                other => {
                    if other.is_invalid() {
                        code = 2;
                    }
                    if let Some(r) = record_unsolved(other) {
                        emit(&mut out, &r, None, &a.search);
                    }
                }
            }
        }
    }
    ExitCode::from(code)
}
