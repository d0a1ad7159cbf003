//! `--format popeye`: feerie's solutions in Popeye's output layout, line by line against the
//! output Popeye printed for the same problems. `tests/data/cli/popeye/` holds each problem as
//! `NAME.inp` with Popeye's output `NAME.out`: the output Popeye recorded in its suite for the
//! problem (see the README there), or, for the French one, what Popeye 4.104 printed with
//! `-regression`.
//!
//! Both texts are compared after dropping Popeye's counters (`play_move: …`, which feerie does
//! not write) and trailing spaces, with a run of blank lines read as one; feerie's verdict
//! lines after the end line (`feerie: sound (…)`) are checked apart.

use assert_cmd::Command;
use std::path::Path;

const DIR: &str = "tests/data/cli/popeye";

const COUNTERS: [&str; 4] =
    ["add_to_move_generation_stack:", "play_move:", "is_white_king_square_attacked:", "is_black_king_square_attacked:"];

/// The lines of a text without counters and trailing spaces, blank runs made one, without
/// blank lines at the start and the end.
fn lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in text.lines() {
        if COUNTERS.iter().any(|c| l.contains(c)) {
            continue;
        }
        let l = l.trim_end();
        if l.is_empty() && out.last().is_none_or(|p| p.is_empty()) {
            continue;
        }
        out.push(l.to_string());
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// Popeye's output for a problem (its files are Latin-1).
fn popeye(name: &str) -> Vec<String> {
    let bytes = std::fs::read(Path::new(DIR).join(format!("{name}.out"))).expect("the recorded output");
    lines(&bytes.iter().map(|&b| b as char).collect::<String>())
}

/// Feerie's `solve --format popeye` of a problem: the Popeye-layout lines and feerie's verdict
/// lines.
fn feerie(name: &str, lang: &str) -> (Vec<String>, Vec<String>) {
    let path = format!("{DIR}/{name}.inp");
    let out = Command::cargo_bin("feerie")
        .expect("the feerie binary")
        .args(["solve", "--format", "popeye", "--lang", lang, "--threads", "1", &path])
        .output()
        .expect("run feerie");
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let (verdicts, rest): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with("feerie:"));
    (lines(&rest.join("\n")), verdicts.iter().map(|s| s.to_string()).collect())
}

/// Asserts that two texts are equal line by line, naming the first line that differs.
fn assert_same(name: &str, popeye: &[String], feerie: &[String]) {
    for (i, (p, f)) in popeye.iter().zip(feerie).enumerate() {
        assert_eq!(p, f, "{name}: line {} differs\npopeye:\n{}\nfeerie:\n{}", i + 1, popeye.join("\n"), feerie.join("\n"));
    }
    assert_eq!(popeye.len(), feerie.len(), "{name}: line counts\npopeye:\n{}\nfeerie:\n{}", popeye.join("\n"), feerie.join("\n"));
}

/// A German #3 with a threat and variations (a zugzwang and castling inside them): Fritz Karge,
/// STERN 1979, from Popeye's BEISPIEL/castling.inp.
#[test]
fn direct_mate_with_threat_and_variations_in_german() {
    let (text, verdicts) = feerie("karge-de", "de");
    assert_same("karge-de", &popeye("karge-de"), &text);
    assert!(text.iter().any(|l| l == "   1.Df8-e7 ! Drohung:"));
    assert!(text.iter().any(|l| l == "          2.Ta1-a3 Zugzwang."));
    assert_eq!(verdicts, ["feerie: sound (1 solution as intended)"]);
}

/// A German h#2 with set play, the set line as Popeye writes it (`1...Lg4-e2   2.0-0-0 …`):
/// Tivadar Kardos, from BEISPIEL/castling.inp.
#[test]
fn help_play_with_set_play_in_german() {
    let (text, _) = feerie("kardos-de", "de");
    assert_same("kardos-de", &popeye("kardos-de"), &text);
    assert!(text.iter().any(|l| l == "  1...Lg4-e2   2.0-0-0 Le2-a6 #"));
}

/// An h#2.5: the line starts `1...` (TESTS/intell.inp, problem 1).
#[test]
fn help_play_with_half_a_move() {
    let (text, verdicts) = feerie("help-half", "en");
    assert_same("help-half", &popeye("help-half"), &text);
    assert!(text.iter().any(|l| l == "  1...e7-e8=B   2.Kd3-e2 Be8-h5   3.Bh7-d3 Rg4-e4 #"));
    assert_eq!(verdicts.len(), 1);
}

/// Twins: `a) `, `b) PolishType`, each with its solution, and one verdict per twin
/// (EXAMPLES/annan.inp: an h#3 in Annan chess).
#[test]
fn twins() {
    let (text, verdicts) = feerie("twin", "en");
    assert_same("twin", &popeye("twin"), &text);
    assert!(text.iter().any(|l| l == "a)"));
    assert!(text.iter().any(|l| l == "b) PolishType"));
    assert_eq!(verdicts, ["feerie: a) sound (1 solution as intended)", "feerie: b) sound (1 solution as intended)"]);
}

/// French: `blocus.` for zugzwang, `R` for the king, `T` for the rook, `solution terminee.`;
/// set play before the key (TESTS/battle_play.inp, problem 11, written in French).
#[test]
fn set_play_in_french() {
    let (text, _) = feerie("french", "fr");
    assert_same("french", &popeye("french"), &text);
    assert!(text.iter().any(|l| l == "   1.Tc6*c5 ! blocus."));
    assert_eq!(text.last().map(String::as_str), Some("solution terminee."));
}

/// Tries: `?`, `but` and the refutation with `!`, beside the key. Popeye prints the first moves
/// in its own order of generation, which feerie does not share: the header is compared line by
/// line, the solution as blocks (a key or try with everything under it), each block line by
/// line, in any order (TESTS/battle_play.inp, problem 19).
#[test]
fn tries_and_refutations() {
    let (text, _) = feerie("tries", "en");
    let theirs = popeye("tries");
    let blocks = |ls: &[String]| -> (Vec<String>, Vec<String>) {
        let start = ls.iter().position(|l| l.starts_with("   1.")).expect("a first move");
        let mut blocks: Vec<String> = ls[start..].split(|l| l.is_empty()).map(|b| b.join("\n")).filter(|b| !b.is_empty()).collect();
        blocks.sort();
        (ls[..start].to_vec(), blocks)
    };
    let (their_head, their_blocks) = blocks(&theirs);
    let (our_head, our_blocks) = blocks(&text);
    assert_same("tries (header)", &their_head, &our_head);
    assert_eq!(their_blocks, our_blocks);
    assert!(our_blocks.iter().any(|b| b == "   1.Rc4-a4 + ?\n    but\n      1...Ka3*a4 !"));
    assert_eq!(our_blocks.iter().filter(|b| b.starts_with("   1.")).count(), 7);
    assert!(our_blocks.iter().any(|b| b == "solution finished."));
}

/// `check --format popeye` writes the problems in Popeye's layout and the summary after them.
#[test]
fn check_writes_popeye_layout_and_the_summary() {
    let out = Command::cargo_bin("feerie")
        .expect("the feerie binary")
        .args([
            "check",
            "--format",
            "popeye",
            "--lang",
            "de",
            "--jobs",
            "1",
            &format!("{DIR}/karge-de.inp"),
            &format!("{DIR}/kardos-de.inp"),
        ])
        .output()
        .expect("run feerie");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(text.matches("Loesung beendet.").count(), 2);
    assert_eq!(text.matches("feerie: sound").count(), 2);
    assert!(text.contains("summary\n"));
    assert!(text.find("Loesung beendet.") < text.find("summary\n"));
}

/// Twin lines name what the commands do, as Popeye writes them (`b) +bBh6`, `c) wKe1-->d1
/// -wPa2`, `+d) bKe8<-->bRh8` for a continued twin); each twin's help lines are the same set as
/// Popeye's (the order of help lines is Popeye's order of generation).
#[test]
fn twin_lines_name_what_the_commands_do() {
    let (text, verdicts) = feerie("twin-commands", "en");
    let theirs = popeye("twin-commands");
    let is_twin_line = |l: &&String| !l.starts_with(' ') && (l.ends_with(')') || l.contains(") "));
    let ours_twins: Vec<&String> = text.iter().filter(is_twin_line).collect();
    let their_twins: Vec<&String> = theirs.iter().filter(is_twin_line).collect();
    assert_eq!(ours_twins, their_twins);
    assert_eq!(their_twins, ["a)", "b) +bBh6", "c) wKe1-->d1  -wPa2", "+d) bKe8<-->bRh8"]);
    let sorted = |ls: &[String]| {
        let mut v = ls.to_vec();
        v.sort();
        v
    };
    assert_eq!(sorted(&text), sorted(&theirs));
    assert_eq!(verdicts.len(), 4);
}
