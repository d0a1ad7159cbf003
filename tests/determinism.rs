//! The report does not depend on how the search ran: for bundled problems (direct, self,
//! reflex, help and series play, with tries, set play, threats and variations), the JSON record
//! is identical byte for byte with one thread and several, and with the transposition table
//! off, tiny (constant replacement) and large (the time and the node count aside); chess,
//! Xiangqi and Cheskers alike.

use feerie::problem::stipulation::Play;
use feerie::problem::{Loaded, load_path};
use feerie::report::json_line;
use feerie::solve::SolveOptions;
use feerie::verify::check_problem;
use std::path::Path;

/// The records of every problem small enough for CI in `file`, as JSON lines without times.
fn records(file: &str, threads: usize, hash_mb: usize) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let opts = SolveOptions { threads, hash_mb, ..SolveOptions::default() };
    let mut out = Vec::new();
    for d in load_path(&path).unwrap_or_else(|e| panic!("{e}")) {
        let Loaded::Ready(p) = d else { continue };
        let s = &p.stipulation;
        let small = match s.play {
            _ if s.series => s.moves <= 8,
            Play::Help | Play::HelpSelf if !s.series => s.help_plies() <= 5,
            _ => s.moves <= 3,
        };
        if !small {
            continue;
        }
        for mut r in check_problem(&p, &opts) {
            r.elapsed_ms = 0;
            r.nodes = 0;
            out.push(json_line(&r));
        }
    }
    assert!(!out.is_empty(), "{file}: nothing to compare");
    out
}

fn same_for_any_search(file: &str) {
    let base = records(file, 1, 0);
    for (threads, hash) in [(2, 128), (4, 1), (3, 16)] {
        let other = records(file, threads, hash);
        assert_eq!(base.len(), other.len());
        for (a, b) in base.iter().zip(&other) {
            assert_eq!(a, b, "{file}: threads {threads}, hash {hash} MB");
        }
    }
}

#[test]
fn direct_play_reports_are_deterministic() {
    same_for_any_search("problems/direct.yaml");
}

#[test]
fn self_and_reflex_reports_are_deterministic() {
    same_for_any_search("problems/self-reflex.yaml");
}

#[test]
fn help_and_series_reports_are_deterministic() {
    same_for_any_search("problems/help.yaml");
    same_for_any_search("problems/series.yaml");
}

/// A series whose work lies mostly below one first move is split over the second series
/// move when several threads search it (tests/data/series/): the lines and their order stay
/// those of one thread.
#[test]
fn series_split_below_a_narrow_first_level_is_deterministic() {
    // With a table throughout: without one this series takes a minute.
    let file = "tests/data/series/narrow-first-level.yaml";
    let base = records(file, 1, 16);
    for threads in [2, 3, 4] {
        assert_eq!(base, records(file, threads, 16), "{file}: threads {threads}");
    }
}

#[test]
fn xiangqi_reports_are_deterministic() {
    same_for_any_search("problems/xiangqi/shiqing-yaqu.yaml");
}

#[test]
fn cheskers_reports_are_deterministic() {
    same_for_any_search("problems/cheskers/direct.yaml");
    same_for_any_search("problems/cheskers/help.yaml");
    same_for_any_search("problems/cheskers/self-series.yaml");
}
