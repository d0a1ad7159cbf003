//! The solver speed suite of the README: published problems that Popeye 4.104 was timed on,
//! solved with one thread and with every core. `cargo bench --bench solve`; the two slow
//! ones (Wenda #6, Ebersz h#5) run only with `FEERIE_BENCH_SLOW=1`. The group `xiangqi`
//! solves the whole of `problems/xiangqi/` (21 mates in 3 to 5 of the Shiqing Yaqu) on one
//! thread, each checked `sound`. The group `cheskers` solves a Cheskers `#6` from a random game
//! (18 keys, a full tree of about a second) on one thread and on every core, for the parallel
//! speed-up, and the whole of `problems/cheskers/` on one thread. The group `battle` solves
//! each problem of `benches/battle.yaml` (16 long direct, self and reflex problems that Popeye
//! needs seconds for: sound, cooked and without solution) on one thread and on every core;
//! `FEERIE_BENCH_BATTLE=NAME` keeps the problems whose title contains NAME. The group
//! `helpmates` solves each problem of `benches/helpmates.yaml` (the deepest helpmate-tablebase
//! problems, h#9 to h#13, and Popeye's long intelligent-mode examples, h#7, h=5, h=8,
//! ser-h=14) on one thread and on every core.
//!
//! Every iteration checks the solution against the known key or line, so a wrong result can
//! never produce a speed figure.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use feerie::problem::{Loaded, Problem, load_str};
use feerie::solve::SolveOptions;
use feerie::verify::{VerdictKind, check_problem};
use std::time::Duration;

/// (name, stipulation, white, black, slow, expected verdict).
const SUITE: [(&str, &str, &str, &str, bool, VerdictKind); 7] = [
    ("johandl_4", "#4", "Ke1 Qa4 Ra1 Ba8 Bf6", "Ke8 Rh8 Sb5 Pb6 Pc5 Pc7 Pd7 Pe5 Pf7 Ph5 Ph7", false, VerdictKind::Sound),
    ("wenda_5", "#5", "Ke1 Ra1 Rd2 Bc5 Bf5 Sg3", "Ke8 Ra4 Ba5 Bd1 Pa3 Pb4 Pb7 Pc7 Pe5 Pf7 Pg7", false, VerdictKind::NoSolution),
    ("petkov_s4", "s#4", "Kg4 Qb4 Rd2 Rd6 Be7 Sb3 Sc5 Pf3 Ph3 Ph5", "Ke5 Bd5 Sh4 Pc4 Pe6 Pf4 Pg5 Ph6", false, VerdictKind::Sound),
    ("linss_h4", "h#4", "Kh3 Bh7 Pd3", "Ke5 Rf6 Be6 Pf5 Pg5", false, VerdictKind::Sound),
    ("boros_h4", "h#4", "Kc3 Sd2", "Ka1 Qc1 Ra2 Rd1 Bd3 Be1 Sc2 Sg7 Pa3 Pa6 Pd5 Pe3 Pe4 Pe7 Pf2", false, VerdictKind::Sound),
    ("wenda_6", "#6", "Ke1 Ra1 Rd2 Bc5 Bf5 Sg3", "Ke8 Ra4 Ba5 Bd1 Pa3 Pb4 Pb7 Pc7 Pe5 Pf7 Pg7", true, VerdictKind::Sound),
    ("ebersz_h5", "h#5", "Kh8 Ba7 Sb5", "Kh6 Qh5 Pb6 Pf5", true, VerdictKind::Sound),
];

fn problem(stip: &str, white: &str, black: &str) -> Problem {
    let list = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(", ");
    // Without a stated solution the verdict is about the count: one key or line = sound.
    let yaml = format!("stipulation: '{stip}'\nalgebraic:\n  white: [{}]\n  black: [{}]\n", list(white), list(black));
    match load_str(&yaml, "bench").into_iter().next() {
        Some(Loaded::Ready(p)) => *p,
        other => panic!("{stip}: {other:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let slow = std::env::var("FEERIE_BENCH_SLOW").is_ok_and(|v| v == "1");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut g = c.benchmark_group("solve");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_millis(500));
    for (name, stip, white, black, is_slow, expected) in SUITE {
        if is_slow && !slow {
            continue;
        }
        let p = problem(stip, white, black);
        bench_threads(&mut g, name, &p, expected, cores);
    }
    g.finish();
    let text = include_str!("../problems/xiangqi/shiqing-yaqu.yaml");
    let mates: Vec<Problem> = load_str(text, "shiqing-yaqu.yaml")
        .into_iter()
        .map(|d| match d {
            Loaded::Ready(p) => *p,
            other => panic!("{other:?}"),
        })
        .collect();
    let mut g = c.benchmark_group("xiangqi");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_millis(500));
    let opts = SolveOptions { threads: 1, ..SolveOptions::default() };
    g.bench_function("shiqing_yaqu_21_mates/1 thread", |b| {
        b.iter(|| {
            for p in &mates {
                let r = check_problem(p, &opts);
                assert_eq!(r[0].verdict, VerdictKind::Sound, "{}: {}", p.document, r[0].reason);
            }
        })
    });
    g.finish();
}

/// A Cheskers position 24 plies into a random game from the initial position; `#6` has 18 keys.
const CHESKERS_MID: &str = "rules: cheskers\nfen: 3k1B2/p7/1p3k1p/6p1/3B4/8/3K1P1P/2K3C1 w\nstipulation: '#6'\n";

fn bench_cheskers(c: &mut Criterion) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(Loaded::Ready(mid)) = load_str(CHESKERS_MID, "cheskers-mid").into_iter().next() else { panic!("the Cheskers #6 loads") };
    let mut g = c.benchmark_group("cheskers");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_millis(500));
    for threads in [1, cores] {
        let opts = SolveOptions { threads, ..SolveOptions::default() };
        g.bench_with_input(BenchmarkId::new("mid_6", format!("{threads} threads")), &opts, |b, o| {
            b.iter(|| {
                let r = check_problem(&mid, o);
                assert_eq!(r[0].solutions.len(), 18, "Cheskers #6: {}", r[0].reason);
            })
        });
    }
    let mut collection = Vec::new();
    for text in [
        include_str!("../problems/cheskers/direct.yaml"),
        include_str!("../problems/cheskers/help.yaml"),
        include_str!("../problems/cheskers/self-series.yaml"),
    ] {
        for d in load_str(text, "problems/cheskers") {
            match d {
                Loaded::Ready(p) => collection.push(*p),
                other => panic!("{other:?}"),
            }
        }
    }
    let opts = SolveOptions { threads: 1, ..SolveOptions::default() };
    g.bench_function(format!("problems_cheskers_{}/1 thread", collection.len()), |b| {
        b.iter(|| {
            for p in &collection {
                let r = check_problem(p, &opts);
                assert_eq!(r[0].verdict, VerdictKind::Sound, "{}: {}", p.document, r[0].reason);
            }
        })
    });
    g.finish();
}

/// What the comment of a problem of `benches/battle.yaml` that starts with `what: ` says.
fn comment<'a>(p: &'a Problem, what: &str) -> &'a str {
    let prefix = format!("{what}: ");
    p.meta.comments.iter().find_map(|c| c.strip_prefix(&prefix)).unwrap_or_else(|| panic!("document {}: no '{what}' comment", p.document))
}

/// The verdict a problem of `benches/battle.yaml` or `benches/helpmates.yaml` must get: its
/// comment `verdict: …`.
fn stated_verdict(p: &Problem) -> VerdictKind {
    match comment(p, "verdict") {
        "sound" => VerdictKind::Sound,
        "cooked" => VerdictKind::Cooked,
        "no solution" => VerdictKind::NoSolution,
        other => panic!("{}: unknown verdict {other}", comment(p, "bench")),
    }
}

/// The long battle problems of `benches/battle.yaml` (group `battle`), on one thread and on
/// every core; `FEERIE_BENCH_BATTLE=NAME` keeps those whose name contains NAME.
fn bench_battle(c: &mut Criterion) {
    bench_file(c, "battle", include_str!("battle.yaml"), "benches/battle.yaml", "FEERIE_BENCH_BATTLE", 10);
}

/// The long helpmates of `benches/helpmates.yaml` (group `helpmates`): the deepest
/// helpmate-tablebase problems and Popeye's longest intelligent-mode examples, on one thread
/// and on every core; `FEERIE_BENCH_HELP=NAME` keeps those whose name contains NAME.
fn bench_helpmates(c: &mut Criterion) {
    bench_file(c, "helpmates", include_str!("helpmates.yaml"), "benches/helpmates.yaml", "FEERIE_BENCH_HELP", 5);
}

/// Benches each problem of a bench file (`text`, named `file`) in group `group`: its name and
/// verdict from its comments (`bench: …`, `verdict: …`), those whose name contains the value of
/// the environment variable `only` kept, `seconds` of measurement each.
fn bench_file(c: &mut Criterion, group: &str, text: &str, file: &str, only: &str, seconds: u64) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let only = std::env::var(only).unwrap_or_default();
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(seconds)).warm_up_time(Duration::from_millis(500));
    for d in load_str(text, file) {
        let Loaded::Ready(p) = d else { panic!("{d:?}") };
        let name = comment(&p, "bench");
        if !name.contains(&only) {
            continue;
        }
        let expected = stated_verdict(&p);
        bench_threads(&mut g, name, &p, expected, cores);
    }
    g.finish();
}

/// Benches `p` on one thread and on `cores`, each run checking the verdict.
fn bench_threads(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    p: &Problem,
    expected: VerdictKind,
    cores: usize,
) {
    for threads in [1, cores] {
        let opts = SolveOptions { threads, ..SolveOptions::default() };
        g.bench_with_input(BenchmarkId::new(name, format!("{threads} threads")), &opts, |b, o| {
            b.iter(|| {
                let r = check_problem(p, o);
                assert_eq!(r[0].verdict, expected, "{name}: {}", r[0].reason);
            })
        });
    }
}

criterion_group!(benches, bench, bench_cheskers, bench_battle, bench_helpmates);
criterion_main!(benches);
