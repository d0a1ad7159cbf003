//! `MaxSolutions n`: the search stops after n solutions (help lines, keys), keeps the first n
//! of the one-thread search whatever the number of threads, says that it stopped
//! (`Phase::limited`, Popeye's `Partial solution`), and the verdict claims only what the
//! solutions found prove.

use feerie::position::Position;
use feerie::problem::stipulation::Stipulation;
use feerie::problem::{Loaded, load_str};
use feerie::solve::{Line, SolveOptions, Solved, solve};
use feerie::verify::{VerdictKind, check_problem};

/// White Kf6 Rc4, Black Ke8, Black to move: `h#3` has 500 lines, four of them short.
const KF6_RC4_KE8_BLACK: &str = "4k3/8/5K2/8/2R5/8/8/8 b - - 0 1";

fn solved(fen: &str, stip: &str, threads: usize, max_solutions: Option<usize>) -> Solved {
    let pos = Position::from_fen(fen).expect("a legal position");
    let stip = Stipulation::parse(stip).expect("a stipulation");
    solve(&pos, &stip, &SolveOptions { threads, hash_mb: 4, max_solutions, ..SolveOptions::default() })
}

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(|l| l.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn help_play_keeps_the_first_lines_of_the_full_search() {
    let full = solved(KF6_RC4_KE8_BLACK, "h#3", 1, None);
    let all = texts(&full.phases[0].lines);
    assert_eq!(all.len(), 500);
    assert!(!full.phases[0].limited);
    for max in [1, 3, 4, 5, 77, 499, 500, 501] {
        for threads in [1, 2, 4] {
            let s = solved(KF6_RC4_KE8_BLACK, "h#3", threads, Some(max));
            let ph = &s.phases[0];
            let want = &all[..max.min(all.len())];
            assert_eq!(texts(&ph.lines), want, "MaxSolutions {max}, {threads} threads");
            assert_eq!(ph.short, (0..max.min(4)).collect::<Vec<_>>(), "MaxSolutions {max}");
            // Stopped at the n-th line: more may exist (Popeye too says `Partial solution`
            // when it stops at exactly the last one).
            assert_eq!(ph.limited, max <= 500, "MaxSolutions {max}, {threads} threads");
            assert!(s.complete);
        }
    }
}

#[test]
fn help_play_stops_searching_at_the_limit() {
    let full = solved(KF6_RC4_KE8_BLACK, "h#3", 1, None);
    let first = solved(KF6_RC4_KE8_BLACK, "h#3", 1, Some(5));
    // The four short lines and the first three-mover: the rest of the h#3 search is not done.
    assert!(first.nodes * 4 < full.nodes, "{} nodes with MaxSolutions 5, {} without", first.nodes, full.nodes);
    // The short lengths alone give the lines wanted: the full length is not searched at all.
    let short = solved(KF6_RC4_KE8_BLACK, "h#3", 1, Some(4));
    assert_eq!(short.phases[0].lines.len(), 4);
    assert!(short.nodes < first.nodes, "{} nodes for the short lines, {} with one more", short.nodes, first.nodes);
}

/// White Kf6 Qa1, Black Kh8: `#2` has four keys (`Qa1-g1`, `Qa1-a7`, `Kf6-g6`, `Kf6-f7`).
const KF6_QA1_KH8: &str = "7k/8/5K2/8/8/8/8/Q7 w - - 0 1";

#[test]
fn battle_play_keeps_the_first_keys() {
    let full = solved(KF6_QA1_KH8, "#2", 1, None);
    let keys: Vec<&str> = full.phases[0].keys.iter().map(|k| k.mv.as_str()).collect();
    assert_eq!(keys.len(), 4, "{keys:?}");
    for max in 1..=5 {
        for threads in [1, 2] {
            let s = solved(KF6_QA1_KH8, "#2", threads, Some(max));
            let got: Vec<&str> = s.phases[0].keys.iter().map(|k| k.mv.as_str()).collect();
            assert_eq!(got, keys[..max.min(4)], "MaxSolutions {max}, {threads} threads");
            assert_eq!(s.phases[0].limited, max <= 4, "MaxSolutions {max}");
        }
    }
}

fn verdict(yaml: &str) -> (VerdictKind, String) {
    let docs = load_str(yaml, "max.yaml");
    let Some(Loaded::Ready(p)) = docs.into_iter().next() else { panic!("the problem loads") };
    let r = check_problem(&p, &SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() });
    (r[0].verdict, r[0].reason.clone())
}

#[test]
fn the_verdict_claims_only_what_the_solutions_found_prove() {
    let problem = |max: u32, solution: &str| {
        format!(
            "algebraic:\n  white: [Kf6, Qa1]\n  black: [Kh8]\nstipulation: \"#2\"\noptions: [MaxSolutions {max}]\nsolution: \"{solution}\"\n"
        )
    };
    // The stated key is the first found and the search stops there: soundness is unknown.
    let (kind, reason) = verdict(&problem(1, "1.Qa1-g1!"));
    assert_eq!(kind, VerdictKind::TimedOut, "{reason}");
    assert!(reason.contains("MaxSolutions 1"), "{reason}");
    // A second key found is a cook whatever else exists.
    let (kind, reason) = verdict(&problem(2, "1.Qa1-g1!"));
    assert_eq!(kind, VerdictKind::Cooked, "{reason}");
    assert!(reason.contains("Qa1-a7") && reason.contains("more may exist"), "{reason}");
    // A stated key not among the first found: not judged missing.
    let (kind, _) = verdict(&problem(1, "1.Kf6-f7+!"));
    assert_eq!(kind, VerdictKind::Cooked);
    // A limit above the number of keys: the search ended, the verdict is exact.
    let (kind, reason) = verdict(&problem(9, "1.Qa1-g1!"));
    assert_eq!(kind, VerdictKind::Cooked, "{reason}");
    assert!(!reason.contains("MaxSolutions"), "{reason}");
}

#[test]
fn a_stated_no_solution_is_refuted_by_the_first_found() {
    let yaml =
        "algebraic:\n  white: [Kf6, Qa1]\n  black: [Kh8]\nstipulation: \"#2\"\noptions: [MaxSolutions 1]\nsolution: \"no solution\"\n";
    let (kind, reason) = verdict(yaml);
    assert_eq!(kind, VerdictKind::Differs, "{reason}");
}
