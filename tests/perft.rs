//! Perft suites as data: `tests/data/perft_chess.txt` (orthodox, from the chessprogramming
//! wiki), `tests/data/perft_drops.txt` (crazyhouse drops, of which three lines carry over to
//! Réserve with the moves into reserve switched off, to the depth where crazyhouse's pocket
//! refills cannot matter yet) and `tests/data/perft_xiangqi.txt` (Xiangqi, from the
//! chessprogramming wiki, Fairy-Stockfish, folium and wukong). Réserve's own perft numbers are
//! in `tests/reserve.rs`.
//!
//! The quick tests run every position to a depth that stays within a few seconds in the test
//! profile; `cargo test --release -- --ignored` runs the deeper depths.

use feerie::geometry::Square;
use feerie::piece::Kind;
use feerie::position::{Move, Position, ReserveRule};
use feerie::rules::xiangqi::XiangqiPosition;

/// One line of a perft file: name, FEN and the leaf counts from depth 1.
struct Case {
    name: String,
    fen: String,
    counts: Vec<u64>,
}

fn load(text: &str) -> Vec<Case> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split('|').map(str::trim);
            let name = parts.next().expect("name").to_string();
            let fen = parts.next().expect("FEN").to_string();
            let counts =
                parts.next().expect("counts").split_whitespace().map(|n| n.trim_end_matches('*').parse().expect("a count")).collect();
            Case { name, fen, counts }
        })
        .collect()
}

fn chess_cases() -> Vec<Case> {
    load(include_str!("data/perft_chess.txt"))
}

/// Checks every case from depth `min_depth` on, at each depth whose count is at most
/// `max_nodes`.
fn run(cases: &[Case], min_depth: u32, max_nodes: u64) {
    for c in cases {
        let p = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        for (i, &want) in c.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            if depth >= min_depth && want <= max_nodes {
                assert_eq!(p.perft(depth), want, "{} depth {depth}", c.name);
            }
        }
    }
}

#[test]
fn chess_suite_is_complete() {
    let cases = chess_cases();
    assert_eq!(cases.len(), 7);
    assert!(cases.iter().all(|c| c.counts.len() >= 5));
}

#[test]
fn chess_depths_1_to_4() {
    let cases: Vec<Case> = chess_cases().into_iter().map(|c| Case { counts: c.counts[..4].to_vec(), ..c }).collect();
    run(&cases, 1, u64::MAX);
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -- --ignored`"]
fn chess_deep() {
    // Every count up to a billion leaves (a minute or so in release on two cores).
    run(&chess_cases(), 5, 1_000_000_000);
}

#[test]
fn full_perft_agrees_with_bulk_perft() {
    for c in chess_cases() {
        let p = Position::from_fen(&c.fen).unwrap();
        assert_eq!(p.perft_full(3), c.counts[2], "{}", c.name);
    }
}

#[test]
fn divide_sums_to_the_total() {
    let c = &chess_cases()[1];
    let p = Position::from_fen(&c.fen).unwrap();
    let sum: u64 = p.legal_moves().iter().map(|&m| p.play(m).perft(2)).sum();
    assert_eq!(sum, c.counts[2]);
}

fn reserve_no_put(fen: &str) -> Position {
    let mut p = Position::from_fen(fen).unwrap();
    p.set_reserve_rule(ReserveRule { white: true, black: true });
    p.set_puts_enabled(false);
    p
}

#[test]
fn drops_match_crazyhouse_where_the_rules_agree() {
    let cases = load(include_str!("data/perft_drops.txt"));
    // The line drops.txt names: no pawn in hand and no pocket refill can matter to depth 3.
    let c = cases.iter().find(|c| c.fen.starts_with("2k5/8/8/8/8/8/8/4K3[Qn] w")).expect("the [Qn] line");
    let p = reserve_no_put(&c.fen);
    for depth in 1..=3u32 {
        assert_eq!(p.perft(depth), c.counts[depth as usize - 1], "{} depth {depth}", c.fen);
    }
    // With empty pockets and no refills, crazyhouse is chess: the start position line, to
    // depth 4 (no capture is possible at the first two plies, and a capture at the third
    // fills White's pocket, which the fourth ply, Black's, cannot use).
    let c = cases.iter().find(|c| c.fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[]")).expect("startpos line");
    let p = reserve_no_put(&c.fen);
    for depth in 1..=4u32 {
        assert_eq!(p.perft(depth), c.counts[depth as usize - 1], "{} depth {depth}", c.fen);
    }
    // The middlegame line, Black to move with empty pockets, to depth 2: a capture at the
    // first ply fills Black's pocket, which only the third ply could use.
    let c =
        cases.iter().find(|c| c.fen.starts_with("r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[]")).expect("middlegame line");
    let p = reserve_no_put(&c.fen);
    for depth in 1..=2u32 {
        assert_eq!(p.perft(depth), c.counts[depth as usize - 1], "{} depth {depth}", c.fen);
    }
}

#[test]
fn moves_into_reserve_add_to_the_count() {
    let mut p = Position::from_fen("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1").unwrap();
    p.set_reserve_rule(ReserveRule { white: true, black: true });
    // White's queen, once dropped, may go back into reserve at the third ply.
    assert_eq!(p.perft(2), 3083);
    let with_puts = p.perft(3);
    p.set_puts_enabled(false);
    assert!(with_puts > p.perft(3));
    // No piece but the king on the board: no move into reserve at the first ply.
    p.set_puts_enabled(true);
    assert_eq!(p.perft(1), 67);
}

#[test]
fn reserve_worked_example_pawn_drop_on_a1() {
    // Black has a pawn in reserve, White none: Pa1↓=Q, Pa1↓=R, Pa1↓=B, Pa1↓=S.
    let mut p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1").unwrap();
    p.set_reserve_rule(ReserveRule { white: true, black: true });
    let a1 = Square(0);
    let mut drops: Vec<Move> = p.legal_moves().into_iter().filter(|m| matches!(m, Move::Drop { to, .. } if *to == a1)).collect();
    drops.sort();
    let want: Vec<Move> = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]
        .into_iter()
        .map(|k| Move::Drop { kind: Kind::Pawn, to: a1, promotion: Some(k) })
        .collect();
    let mut want = want;
    want.sort();
    assert_eq!(drops, want);
    let texts: Vec<String> = drops.iter().map(|&m| feerie::notation::move_text(&p, m, Default::default())).collect::<Vec<_>>();
    for t in ["Pa1↓=Q", "Pa1↓=R", "Pa1↓=B", "Pa1↓=S"] {
        assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
    }
    // The bishop choice: a black bishop on a1, the reserve empty.
    let q = p.play(Move::Drop { kind: Kind::Pawn, to: a1, promotion: Some(Kind::Bishop) });
    assert_eq!(q.piece_at(a1).map(|x| (x.color, x.kind)), Some((feerie::piece::Color::Black, Kind::Bishop)));
    assert_eq!(q.reserve_count(feerie::piece::Color::Black, Kind::Pawn), 0);
    // A pawn may never be dropped on its own first rank (rank 8 for Black).
    assert!(!p.legal_moves().iter().any(|m| matches!(m, Move::Drop { to, .. } if to.0 >= 56)));
}

fn xiangqi_cases() -> Vec<Case> {
    load(include_str!("data/perft_xiangqi.txt"))
}

/// Checks every Xiangqi case at the depths `depths(case, depth)` accepts.
fn run_xiangqi(cases: &[Case], depths: impl Fn(&Case, u32) -> bool) {
    for c in cases {
        let p = XiangqiPosition::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        for (i, &want) in c.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            if depths(c, depth) {
                assert_eq!(p.perft(depth), want, "{} depth {depth}", c.name);
            }
        }
    }
}

#[test]
fn xiangqi_suite_is_complete() {
    let cases = xiangqi_cases();
    assert_eq!(cases.len(), 14);
    assert!(cases.iter().all(|c| c.counts.len() >= 4));
    assert_eq!(cases[0].name, "startpos");
    assert_eq!(cases[0].fen, feerie::rules::xiangqi::START_FEN);
    for c in &cases {
        let p = XiangqiPosition::from_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(p.to_fen(), c.fen, "{}", c.name);
    }
}

#[test]
fn xiangqi_depths_1_to_3() {
    // Every position to depth 3, the start position to depth 4.
    run_xiangqi(&xiangqi_cases(), |c, d| d <= 3 || (c.name == "startpos" && d == 4));
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -- --ignored`"]
fn xiangqi_deep() {
    // Every listed count but the start position's depth 6 (5.4 billion leaves, its own test):
    // about 15 s in release on one core.
    run_xiangqi(&xiangqi_cases(), |c, d| d >= 4 && !(c.name == "startpos" && d == 6));
}

#[test]
#[ignore = "5.4 billion leaves: run with `cargo test --release -- --ignored xiangqi_start_depth_6`"]
fn xiangqi_start_depth_6() {
    run_xiangqi(&xiangqi_cases(), |c, d| c.name == "startpos" && d == 6);
}

#[test]
fn xiangqi_full_perft_agrees_with_bulk_perft() {
    for c in xiangqi_cases() {
        let p = XiangqiPosition::from_fen(&c.fen).unwrap();
        assert_eq!(p.perft_full(3), c.counts[2], "{}", c.name);
    }
}

#[test]
fn xiangqi_divide_sums_to_the_total() {
    for c in xiangqi_cases() {
        let p = XiangqiPosition::from_fen(&c.fen).unwrap();
        let d = p.divide(3);
        assert_eq!(d.len() as u64, c.counts[0], "{}", c.name);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), c.counts[2], "{}", c.name);
    }
}
