//! The stipulation forms (`pser-`, `phser-`, `reci-`, `exact-`, `NullMoves`) against plain
//! definitions written here, each from simpler searches or a plain recursion: no table, no
//! pruning. (Popeye's own lines for these forms are compared in `tests/popeye_suite.rs`, on
//! `tests/data/popeye-suite/stipforms.inp`.)

use feerie::position::{Move, Position};
use feerie::problem::Stipulation;
use feerie::rules::Game;
use feerie::solve::{Line, SolveOptions, solve};
use std::collections::BTreeSet;

/// Popeye's `pser-#2` example and the same position as `pser-#4` (`EXAMPLES/pseries.inp`).
const PSER: &str = "6qk/7p/8/5B2/7R/7Q/8/7K w - - 0 1";
/// Dan Meinking, StrateGems 47, 2009, no. 5: `pser-#3`.
const MEINKING: &str = "6n1/6n1/B4p2/2ppk3/4p3/p3p3/8/4Q1K1 w - - 0 1";
/// A rook that mates on the back rank in one, or later.
const BACK_RANK: &str = "7k/6pp/8/8/8/8/8/R1B3K1 w - - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect(fen)
}

fn opts(null_moves: bool) -> SolveOptions {
    SolveOptions { threads: 1, null_moves, ..SolveOptions::default() }
}

/// The lines feerie finds.
fn solved_lines(fen: &str, stip: &str, null_moves: bool) -> Vec<Line> {
    let st = Stipulation::parse(stip).expect(stip);
    let solved = solve(&pos(fen), &st, &opts(null_moves));
    assert!(solved.complete);
    solved.phases[0].lines.clone()
}

fn texts(l: &Line) -> Vec<String> {
    l.iter().map(|m| m.mv.clone()).collect()
}

/// The lines feerie finds, each as its moves' texts (parries and null moves included).
fn lines_with(fen: &str, stip: &str, null_moves: bool) -> BTreeSet<Vec<String>> {
    solved_lines(fen, stip, null_moves).iter().map(texts).collect()
}

fn lines(fen: &str, stip: &str) -> BTreeSet<Vec<String>> {
    lines_with(fen, stip, false)
}

fn moves(p: &Position) -> Vec<Move> {
    p.legal_moves().to_vec()
}

/// The same placement with the other side to move, read from the FEN (not the engine's null
/// move).
fn other_side(p: &Position) -> Position {
    let fen = p.to_fen();
    let mut f: Vec<&str> = fen.split(' ').collect();
    f[1] = if f[1] == "w" { "b" } else { "w" };
    f[3] = "-";
    Position::from_fen(&f.join(" ")).expect("the other side to move")
}

fn mated(p: &Position) -> bool {
    p.in_check() && moves(p).is_empty()
}

/// `pser-#`, plainly: the series side (to move) mates within `k` series moves, whatever the
/// parries of its checks.
fn pser_wins(p: &Position, k: u32) -> bool {
    k > 0 && moves(p).into_iter().any(|m| pser_after(&p.play(m), k - 1))
}

/// After a series move: mate; or every parry of a check answered; or, the opponent standing
/// still, the series goes on.
fn pser_after(q: &Position, rest: u32) -> bool {
    if mated(q) {
        return true;
    }
    if q.in_check() {
        let parries = moves(q);
        !parries.is_empty() && parries.iter().all(|&d| pser_wins(&q.play(d), rest))
    } else {
        rest > 0 && !moves(q).is_empty() && pser_wins(&other_side(q), rest)
    }
}

/// `pser-#n`: a first move is written exactly when it wins within n against every parry, and
/// every line starts with one; `pser-#2` in Meinking's position has none (1.Qg3+ Kd4 is not
/// answered in one).
#[test]
fn parry_series_first_moves_are_those_that_win() {
    for (fen, n) in [(PSER, 2), (PSER, 3), (MEINKING, 2), (MEINKING, 3), (BACK_RANK, 2)] {
        let p = pos(fen);
        let expected: BTreeSet<String> = moves(&p)
            .into_iter()
            .filter(|&m| pser_after(&p.play(m), n - 1))
            .map(|m| p.move_text_in(m, feerie::piece::Lang::En, feerie::rules::Notation::Native))
            .collect();
        let found: BTreeSet<String> = lines(fen, &format!("pser-#{n}")).into_iter().map(|l| l[0].clone()).collect();
        assert_eq!(found, expected, "{fen} pser-#{n}");
        assert_eq!(pser_wins(&p, n), !found.is_empty());
    }
    assert!(lines(MEINKING, "pser-#2").is_empty());
    // Popeye's pser-#3: three parries of 1.Qe1-g3+, each with its continuation.
    assert_eq!(lines(MEINKING, "pser-#3").len(), 3);
}

/// `phser-#n` (help parries): the lines without a check in them are the `ser-#n` lines (no
/// check but the last there).
#[test]
fn help_parry_series_without_checks_is_series_play() {
    for (fen, n) in [(PSER, 3), (BACK_RANK, 3), (MEINKING, 3)] {
        let ser = lines(fen, &format!("ser-#{n}"));
        let all = solved_lines(fen, &format!("phser-#{n}"), false);
        let phser: BTreeSet<Vec<String>> = all.iter().filter(|l| !l.iter().any(|m| m.parry)).map(texts).collect();
        assert_eq!(phser, ser, "{fen} n={n}");
    }
    // With checks: more lines (Popeye's phser-#3 in Meinking's position has five).
    assert_eq!(lines(MEINKING, "phser-#3").len(), 5);
}

/// `exact-ser-#n`: the `ser-#n` lines of exactly n series moves (a line of `ser-#` ends only
/// where the mate is given, so no longer line is hidden behind a shorter one).
#[test]
fn exact_series_is_the_full_length_series() {
    for (fen, n) in [(BACK_RANK, 2), (BACK_RANK, 3), (PSER, 3)] {
        let ser: BTreeSet<Vec<String>> = lines(fen, &format!("ser-#{n}")).into_iter().filter(|l| l.len() == n).collect();
        let exact = lines(fen, &format!("exact-ser-#{n}"));
        assert_eq!(exact, ser, "{fen} n={n}");
        assert!(!exact.is_empty());
    }
}

/// `reci-h#n` (and `reci-h(=)#n`): the `h#n` lines whose first 2n-2 half-moves Black can also
/// end with its own goal in one, and those endings: the lines of `h#(n-1).5` (Black to move
/// first and last) that share their first 2n-2 half-moves with an `h#n` line.
#[test]
fn reciprocal_help_play_is_help_play_and_black_s_own_goal() {
    // Geissler, Problemkiste 96 (reci-h#2, castling in the solution); Steudel, Problemkiste 92
    // t1 (reci-h(=)#3: Black stalemates, or is mated).
    for (fen, reci, help, own) in [
        ("r3k2r/1b3p1p/4p3/4B2R/N3p2P/4b1nN/3P1pKp/6RB b kq - 0 1", "reci-h#2", "h#2", "h#1.5"),
        ("8/6P1/8/8/8/4p3/8/5k1K b - - 0 1", "reci-h(=)#3", "h#3", "h=2.5"),
        ("8/6P1/8/8/8/4p3/8/5k1K b - - 0 1", "reci-h#2", "h#2", "h#1.5"),
    ] {
        let a = lines(fen, help);
        let b = lines(fen, own);
        let cut = |l: &Vec<String>, n: usize| l[..n].to_vec();
        let n = a.iter().next().map_or(2, |l| l.len() - 2);
        let a_pre: BTreeSet<Vec<String>> = a.iter().map(|l| cut(l, l.len() - 2)).collect();
        let b_pre: BTreeSet<Vec<String>> = b.iter().map(|l| cut(l, l.len() - 1)).collect();
        let mut expected: BTreeSet<Vec<String>> = a.iter().filter(|l| b_pre.contains(&cut(l, l.len() - 2))).cloned().collect();
        expected.extend(b.iter().filter(|l| a_pre.contains(&cut(l, l.len() - 1))).cloned());
        let found = lines(fen, reci);
        assert_eq!(found, expected, "{fen} {reci} (prefix {n})");
    }
    assert_eq!(lines("r3k2r/1b3p1p/4p3/4B2R/N3p2P/4b1nN/3P1pKp/6RB b kq - 0 1", "reci-h#2").len(), 2);
}

/// `NullMoves`: the lines without a null move are the plain ones; a null move is never the
/// last move nor follows another.
#[test]
fn null_moves_add_lines_and_keep_the_plain_ones() {
    let fen = "k7/p7/2K5/8/8/8/8/1R6 b - - 0 1";
    for stip in ["h#2", "h=2", "h#3"] {
        let plain = lines(fen, stip);
        let with = lines_with(fen, stip, true);
        let without_null: BTreeSet<Vec<String>> = with.iter().filter(|l| !l.iter().any(|m| m == "...")).cloned().collect();
        assert_eq!(without_null, plain, "{stip}");
        assert!(with.len() > plain.len(), "{stip}");
        for l in &with {
            assert_ne!(l.last().map(String::as_str), Some("..."), "{l:?}");
            assert!(!l.windows(2).any(|w| w[0] == "..." && w[1] == "..."), "{l:?}");
        }
    }
    // Popeye's h#2 with null moves in this position: eleven lines.
    assert_eq!(lines_with(fen, "h#2", true).len(), 11);
}

/// `exact-#n`, plainly: the attacker (to move) mates with its n-th move exactly, whatever the
/// defence; a mate before does not count.
fn exact_att(p: &Position, n: u32) -> bool {
    moves(p).into_iter().any(|m| {
        let q = p.play(m);
        if n == 1 {
            mated(&q)
        } else {
            let ds = moves(&q);
            !ds.is_empty() && ds.iter().all(|&d| exact_att(&q.play(d), n - 1))
        }
    })
}

/// `exact-#n` keys: those of the plain definition; Schwarzkopf's `exact-#2` (Problemkiste 71,
/// 1990) has Popeye's eleven keys, and not the mates in one (`1.Rd4-d1 #`).
#[test]
fn exact_direct_play_keys_are_those_of_the_definition() {
    let schwarzkopf = "8/8/8/8/3R4/1K6/8/k7 w - - 0 1";
    for (fen, n) in [(schwarzkopf, 2), (schwarzkopf, 3), (BACK_RANK, 2), (PSER, 2)] {
        let p = pos(fen);
        let expected: BTreeSet<String> = moves(&p)
            .into_iter()
            .filter(|&m| {
                let q = p.play(m);
                let ds = moves(&q);
                !ds.is_empty() && ds.iter().all(|&d| exact_att(&q.play(d), n - 1))
            })
            .map(|m| p.move_text_in(m, feerie::piece::Lang::En, feerie::rules::Notation::Native))
            .collect();
        let st = Stipulation::parse(&format!("exact-#{n}")).expect("exact-#n");
        let solved = solve(&p, &st, &opts(false));
        let keys: BTreeSet<String> = solved.phases[0].keys.iter().map(|k| k.mv.clone()).collect();
        assert_eq!(keys, expected, "{fen} exact-#{n}");
    }
    let st = Stipulation::parse("exact-#2").expect("exact-#2");
    let keys: BTreeSet<String> = solve(&pos(schwarzkopf), &st, &opts(false)).phases[0].keys.iter().map(|k| k.mv.clone()).collect();
    assert_eq!(keys.len(), 11);
    assert!(keys.contains("Kb3-c2") && keys.contains("Rd4-e4") && !keys.contains("Rd4-d1"));
}
