//! Short solutions in help and series play (feerie's issue 23): lines with fewer moves than
//! stipulated, found as Popeye finds them (checked against Popeye built from its public source,
//! and its recorded outputs), reported first and marked `short`, counted as cooks, and
//! `StopOnShortSolutions`. The numbers are Popeye's.

use assert_cmd::Command;
use feerie::position::Position;
use feerie::problem::stipulation::Stipulation;
use feerie::problem::{Loaded, load_path};
use feerie::solve::{Line, SolveOptions, Solved, solve};
use feerie::verify::{VerdictKind, check_problem};
use serde_json::Value;

/// The issue's position: White Kf6 Rc4, Black Ke8 (Black to move in help play).
const KF6_RC4_KE8_BLACK: &str = "4k3/8/5K2/8/2R5/8/8/8 b - - 0 1";

fn solved(fen: &str, stip: &str, stop_on_short: bool) -> Solved {
    let pos = Position::from_fen(fen).expect("a legal position");
    let stip = Stipulation::parse(stip).expect("a stipulation");
    solve(&pos, &stip, &SolveOptions { threads: 1, hash_mb: 4, stop_on_short, ..SolveOptions::default() })
}

fn text(l: &Line) -> String {
    l.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_issues_helpmate_has_a_short_mate_in_one_first() {
    let s = solved(KF6_RC4_KE8_BLACK, "h#2", false);
    let ph = &s.phases[0];
    // Popeye: 1.Ke8-f8 Rc4-c8 #, then the three two-movers.
    assert_eq!(ph.lines.len(), 4);
    assert_eq!(text(&ph.lines[0]), "Ke8-f8 Rc4-c8");
    assert_eq!(ph.lines[0][1].mark, "#");
    assert_eq!(ph.short, vec![0]);
    assert!(ph.lines[1..].iter().all(|l| l.len() == 4));
    // h#3: one h#1 and three h#2 before 496 three-movers (Popeye: 500 lines).
    let s = solved(KF6_RC4_KE8_BLACK, "h#3", false);
    let ph = &s.phases[0];
    assert_eq!(ph.short.len(), 4);
    assert_eq!(ph.lines.len(), 500);
    let lengths: Vec<usize> = ph.lines.iter().map(|l| l.len()).collect();
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "shortest first");
}

#[test]
fn a_half_move_stipulation_has_short_lines_of_odd_length() {
    // h#2.5 (White begins): Popeye prints ten h#1.5 lines (1...Rc4-c1 2.Ke8-f8 Rc1-c8 # …)
    // before 66 lines of five half-moves; the h#2 lines, begun by Black, are no solution.
    let white = KF6_RC4_KE8_BLACK.replace(" b ", " w ");
    let s = solved(&white, "h#2.5", false);
    let ph = &s.phases[0];
    assert_eq!(ph.short.len(), 10);
    assert!(ph.lines[..10].iter().all(|l| l.len() == 3));
    assert_eq!(ph.lines.len() - 10, 66);
    assert_eq!(ph.lines[0][0].mv, "Rc4-c1");
}

#[test]
fn series_short_lines_and_longer_series_that_could_have_ended() {
    // ser-#3: Popeye prints 1.Kf6-e6 2.Rc4-c8 # and 22 three-movers.
    let white = KF6_RC4_KE8_BLACK.replace(" b ", " w ");
    let s = solved(&white, "ser-#3", false);
    let ph = &s.phases[0];
    assert_eq!((ph.lines.len(), ph.short.clone()), (23, vec![0]));
    assert_eq!(text(&ph.lines[0]), "Kf6-e6 Rc4-c8");
    // ser-h#3: 1.Ke8-f8 Rc4-c8 #, and four three-movers, two of them after 1.Ke8-f8.
    let s = solved(KF6_RC4_KE8_BLACK, "ser-h#3", false);
    let ph = &s.phases[0];
    assert_eq!((ph.lines.len(), ph.short.clone()), (5, vec![0]));
    assert_eq!(ph.lines.iter().filter(|l| l[0].mv == "Ke8-f8").count(), 3);
}

#[test]
fn stop_on_short_solutions_keeps_the_shortest_and_stops() {
    // h#3: only the h#1 (Popeye: "1.Ke8-f8 Rc4-c8 #", "Partial solution").
    let s = solved(KF6_RC4_KE8_BLACK, "h#3", true);
    assert_eq!(s.phases[0].lines.len(), 1);
    assert_eq!(s.phases[0].short, vec![0]);
    // Without a short solution nothing changes: White Ke6 Rh1, Black Ke8 has 20 h#2 lines.
    let s = solved("4k3/8/4K3/8/8/8/8/7R b - - 0 1", "h#2", true);
    assert_eq!((s.phases[0].lines.len(), s.phases[0].short.len()), (20, 0));
}

fn loaded() -> Vec<feerie::problem::Problem> {
    load_path(std::path::Path::new("tests/data/short/h2-short.yaml"))
        .expect("the file")
        .into_iter()
        .filter_map(|l| match l {
            Loaded::Ready(p) => Some(*p),
            _ => None,
        })
        .collect()
}

#[test]
fn a_short_solution_is_a_cook() {
    let problems = loaded();
    let r = &check_problem(&problems[0], &SolveOptions { threads: 1, ..SolveOptions::default() })[0];
    assert_eq!(r.verdict, VerdictKind::Cooked);
    assert_eq!(r.reason, "short solution Ke8-f8 Rc4-c8; 4 found, 3 intended");
    assert_eq!(r.short_solutions, vec![vec!["Ke8-f8".to_string(), "Rc4-c8".to_string()]]);
    // The option is read from YAML; the verdict names the short solution.
    let r = &check_problem(&problems[1], &SolveOptions { threads: 1, ..SolveOptions::default() })[0];
    assert_eq!((r.verdict, r.solutions.len()), (VerdictKind::Cooked, 1));
    assert!(r.reason.starts_with("short solution Ke8-f8 Rc4-c8"), "{}", r.reason);
    let r = &check_problem(&problems[2], &SolveOptions { threads: 1, ..SolveOptions::default() })[0];
    assert_eq!(r.solutions, vec![vec!["g2-g4".to_string(), "g4-g5".to_string()]]);
}

#[test]
fn json_text_and_direct_play() {
    let out = Command::cargo_bin("feerie")
        .expect("the binary")
        .args(["check", "--format", "json", "--threads", "1", "tests/data/short/h2-short.yaml"])
        .output()
        .expect("runs");
    let records: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON record")).collect();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0]["short_solutions"], serde_json::json!([["Ke8-f8", "Rc4-c8"]]));
    assert_eq!(records[0]["tree"][0]["short"], serde_json::json!([0]));
    assert_eq!(records[0]["verdict"], "cooked");
    // Popeye refuses StopOnShortSolutions in direct play, and so does feerie: invalid input.
    assert_eq!(records[3]["verdict"], "invalid");
    assert!(records[3]["reason"].as_str().is_some_and(|r| r.contains("StopOnShortSolutions")));
    let out = Command::cargo_bin("feerie")
        .expect("the binary")
        .args(["solve", "--threads", "1", "tests/data/short/h2-short.yaml"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  1.Ke8-f8 Rc4-c8 # (short)\n"), "{text}");
    assert!(text.contains("verdict: cooked (short solution Ke8-f8 Rc4-c8; 4 found, 3 intended)"), "{text}");
    let out = Command::cargo_bin("feerie")
        .expect("the binary")
        .args(["report", "--threads", "1", "tests/data/short/h2-short.yaml"])
        .output()
        .expect("runs");
    let html = String::from_utf8_lossy(&out.stdout);
    assert!(html.contains("<span class=\"short\">  1.Ke8-f8 Rc4-c8 # (short)</span>"), "{html}");
}
