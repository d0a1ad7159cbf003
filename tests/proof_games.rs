//! Proof games of Popeye's suite (`dia`, `exact-dia`, `ser-dia`, `ser-hdia`, `pser-dia`,
//! `phser-dia`, `a=>b`, `ser-ha=>b`), copied with the output Popeye recorded for them into
//! `tests/data/proof/` (`BEISPIEL/proof.inp`, `proof_se.inp`, `atob.inp`,
//! `REGRESSIONS/4_55_to_4_57.inp`). Each chosen problem must come out as Popeye printed it:
//! feerie's `--format popeye` text and Popeye's recorded output are read by the same parser and
//! compared as sets of lines (`feerie::popeye_output`), short solutions and set play included.

use feerie::popeye_output::{TwinVerdict, compare_problem, feerie_section, output_language, split_output};
use feerie::problem::{Loaded, load_path};
use feerie::record::VerdictKind;
use feerie::solve::SolveOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/proof")
}

/// Solves problems `numbers` (from 1) of `input` and compares them with `output`.
fn same_as_popeye(input: &str, output: &str, numbers: &[usize]) -> Vec<Loaded> {
    let text = std::fs::read_to_string(data().join(output)).expect("the recorded output");
    let sections = split_output(&text);
    let loaded = load_path(&data().join(input)).expect("loads");
    assert_eq!(sections.len(), loaded.len(), "{input}: one output section per problem");
    let mut failures = Vec::new();
    for &n in numbers {
        let Loaded::Ready(p) = &loaded[n - 1] else { panic!("{input} #{n}: not ready: {:?}", loaded[n - 1]) };
        let variants = p.variants().expect("variants");
        let opts = SolveOptions { timeout: Some(Duration::from_secs(60)), ..SolveOptions::default() };
        let records = feerie::verify::check_problem(p, &opts);
        assert!(records.iter().all(|r| r.verdict != VerdictKind::TimedOut), "{input} #{n} timed out");
        let ours = feerie_section(p, &variants, &records, output_language(&text));
        for (label, verdict) in compare_problem(&variants, &ours, &sections[n - 1]) {
            if verdict != TwinVerdict::Same {
                failures.push(format!("{input} #{n} twin {label}: {verdict:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    loaded
}

/// `dia n`, `dia n.5` and `exact-dia n` (Tibor Orban's `dia4` has four short solutions in
/// 3 moves besides the one in 4; `exact-dia4` only that one).
#[test]
fn proof_games_as_popeye_recorded_them() {
    let loaded = same_as_popeye("proof.inp", "proof.out", &[1, 2, 4, 6, 8, 10, 11, 12, 13]);
    let Loaded::Ready(p) = &loaded[11] else { panic!() };
    let r = feerie::verify::check_problem(p, &SolveOptions::default());
    assert_eq!(r[0].solutions.len(), 5);
    assert_eq!(r[0].short_solutions.len(), 4);
}

/// Series proof games: White alone, the last move may check.
#[test]
fn series_proof_games_as_popeye_recorded_them() {
    same_as_popeye("proof_se.inp", "proof_se.out", &(1..=11).collect::<Vec<_>>());
}

/// `a=>b` with `WhiteToPlay`: Popeye's two diagrams, the start and the position to reach.
#[test]
fn a_to_b_as_popeye_recorded_it() {
    let loaded = same_as_popeye("atob.inp", "atob.out", &[1]);
    let Loaded::Ready(p) = &loaded[0] else { panic!() };
    let start = p.proof_start.as_ref().expect("a start position");
    assert_eq!(start.to_fen().split(' ').next(), Some("4R3/2k5/bR6/8/8/1KP3r1/8/8"));
    assert_eq!(start.side_to_move(), feerie::piece::Color::White);
}

/// `ser-dia1`, `pser-dia1`, `phser-dia1`, `ser-hdia2` and `ser-ha=>b2` with their set play
/// (Popeye's regression tests 4.55 to 4.57).
#[test]
fn series_forms_and_set_play_as_popeye_recorded_them() {
    same_as_popeye("4_55_to_4_57.inp", "4_55_to_4_57.reg", &[2, 3, 4, 14, 15]);
}

/// The same proof game read from YAML: YACPDB's `PG 3.5` spelling, and `a=>b` with its
/// `start` field; the verdicts of a unique and a cooked proof game.
#[test]
fn yaml_proof_games_and_their_verdicts() {
    let yaml = "---\nstipulation: PG 3.5\nfen: rn1qkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR\n\
                ---\nstipulation: a=>b1\nstart: {white: [Kh1, Pe5], black: [Kh8, Pd7]}\nalgebraic: {white: [Kh1, Pd6], black: [Kh8]}\n";
    let docs = feerie::problem::load_str(yaml, "x.yaml");
    let verdicts: Vec<(VerdictKind, Vec<Vec<String>>)> = docs
        .iter()
        .map(|l| {
            let Loaded::Ready(p) = l else { panic!("{l:?}") };
            let r = feerie::verify::check_problem(p, &SolveOptions::default());
            (r[0].verdict, r[0].solutions.clone())
        })
        .collect();
    assert_eq!(verdicts[0].0, VerdictKind::Sound);
    assert_eq!(verdicts[0].1[0].join(" "), "e2-e3 d7-d6 Qd1-h5 Bc8-g4 e3-e4 Bg4-d1 Qh5*d1");
    // 1.d7-d5 e5*d6 ep. and 1.d7-d6 e5*d6: two ways.
    assert_eq!(verdicts[1].0, VerdictKind::Cooked);
    let mut lines: Vec<String> = verdicts[1].1.iter().map(|l| l.join(" ")).collect();
    lines.sort();
    assert_eq!(lines, vec!["d7-d5 e5*d6", "d7-d6 e5*d6"]);
}

/// `MaxSolutions 5 StopOnShortSolutions` (Popeye's regression `4_55_to_4_57.inp` #24, `dia7`
/// from a diagram one knight move from the game array): the shortest lengths are searched first,
/// each alone, so the search stops at the first five six-movers; they are the first five short
/// lines of the full search, and the verdict (cooked: short solutions) says the search stopped.
#[test]
fn max_solutions_and_stop_on_short_end_a_proof_game_early() {
    use feerie::problem::GamePosition;
    use feerie::solve::Line;
    use feerie::solve::proof::{game_array, solve_proof};
    let loaded = load_path(&data().join("4_55_to_4_57.inp")).expect("loads");
    let p = loaded
        .iter()
        .find_map(|d| match d {
            Loaded::Ready(p) if p.options.max_solutions == Some(5) && p.options.stop_on_short => Some(p),
            _ => None,
        })
        .expect("the regression problem");
    let r = feerie::verify::check_problem(p, &SolveOptions::default());
    assert_eq!(r[0].solutions.len(), 5);
    assert_eq!(r[0].short_solutions.len(), 5);
    assert!(r[0].solutions.iter().all(|s| s.len() == 12), "{:?}", r[0].solutions);
    assert_eq!(r[0].verdict, VerdictKind::Cooked, "{}", r[0].reason);
    assert!(r[0].reason.contains("MaxSolutions 5"), "{}", r[0].reason);
    assert!(r[0].tree[0].limited);
    // The full search, one length after the other or all at once, finds the same lines first.
    let v = &p.variants().expect("variants")[0];
    let text = |ls: &[Line]| ls.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>();
    let base = SolveOptions { threads: 1, hash_mb: 64, ..SolveOptions::default() };
    let GamePosition::Chess(target) = &v.position else { panic!("a chess problem") };
    let start = game_array();
    let stopped = solve_proof(&start, target, &v.stipulation, &SolveOptions { stop_on_short: true, ..base.clone() });
    let all = solve_proof(&start, target, &v.stipulation, &base);
    let shortest: Vec<String> = text(&all.phases[0].lines).into_iter().filter(|l| l.split(' ').count() == 12).collect();
    assert_eq!(text(&stopped.phases[0].lines), shortest);
    assert!(shortest.len() > 5);
    let limited = solve_proof(&start, target, &v.stipulation, &SolveOptions { stop_on_short: true, max_solutions: Some(5), ..base });
    assert_eq!(text(&limited.phases[0].lines), shortest[..5]);
}
