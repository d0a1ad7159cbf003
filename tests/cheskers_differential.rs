//! The Cheskers engine (`feerie::rules::cheskers`) against the reference generator of
//! `tests/cheskers_reference/`: first the reference itself on the hand-checked initial position
//! and hand-counted small positions, one or more for each rule; then perft of the initial
//! position, random positions (1–3 kings a side, pawns, bishops and camels on dark squares,
//! either side to move) and random playouts, where the engine's children (as FENs, a sorted
//! multiset) must be the reference's, its move names must read back to the same move and name
//! a reference move with the same child, its FENs must round-trip, and "mate" (the side to move
//! has no legal move) must be the reference's. A coverage test shows that the random positions
//! reach every rule.

mod cheskers_reference;

use cheskers_reference::{self as reference, Board, Kind, RMove, Sq};
use feerie::geometry::Square;
use feerie::piece::Color;
use feerie::rules::cheskers::{CMove, CheskersKind, CheskersPosition};
use feerie::rules::{Game, Goal};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------------------
// The reference itself.

/// A reference board from piece lists such as `"Kc1 Pd4 Ba1 CAg1"` (White) and `"Kh8"`
/// (Black), with `side` to move.
fn board(white: &str, black: &str, side: Color) -> Board {
    let mut b = reference::empty();
    b.side = side;
    for (c, list) in [(Color::White, white), (Color::Black, black)] {
        for tok in list.split_whitespace() {
            let (kind, sq) = match tok.split_at(tok.len() - 2) {
                ("K", s) => (Kind::King, s),
                ("B", s) => (Kind::Bishop, s),
                ("CA", s) => (Kind::Camel, s),
                ("P", s) => (Kind::Pawn, s),
                _ => panic!("bad piece {tok}"),
            };
            let s = reference::parse_square(sq).unwrap_or_else(|| panic!("bad square in {tok}"));
            assert!(reference::is_dark(s) && b.at(s).is_none(), "{tok}");
            b.set(s, Some((c, kind)));
        }
    }
    // Through the reader, which refuses light squares and pawns on their last rank.
    reference::from_fen(&b.to_fen()).unwrap_or_else(|e| panic!("{}: {e}", b.to_fen()))
}

/// The names of the legal moves of a hand-made position, sorted (the engine is checked on the
/// position too).
fn texts(b: &Board) -> Vec<String> {
    hand_made(b);
    b.legal_texts()
}

/// A sorted list of names.
fn names(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// From the initial position Black has exactly the nine moves of the rule text.
#[test]
fn reference_initial_position_has_the_nine_moves() {
    let b = reference::from_fen(reference::START).unwrap();
    assert_eq!(b.side, Color::Black);
    assert_eq!(b.to_fen(), reference::START);
    let want = names(&["b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5", "CAb8-a5", "CAb8-c5"]);
    assert_eq!(texts(&b), want);
    // White, were it to move, would have the mirror moves.
    let mut w = b.clone();
    w.side = Color::White;
    let want = names(&["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "CAg1-h4", "CAg1-f4"]);
    assert_eq!(texts(&w), want);
}

/// The reference's FEN writer writes what its reader read; the reader refuses malformed FENs,
/// pieces on light squares and pawns on their own last rank, and accepts a pawn on its own first
/// rank and a side without a king.
#[test]
fn reference_fen_reader() {
    let b = reference::from_fen(reference::START).unwrap();
    assert_eq!(reference::from_fen(&b.to_fen()).unwrap(), b);
    // Further fields ignored; no side means White.
    let w = reference::from_fen("1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 w - - 0 1").unwrap();
    assert_eq!(w.side, Color::White);
    assert_eq!(reference::from_fen("1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1").unwrap(), w);
    for bad in [
        "",
        "8/8/8 w",
        "8/8/8/8/8/8/8/1K6 w",  // b1 is light
        "8/8/8/8/8/8/8/K6 w",   // 7 squares
        "8/8/8/8/8/8/8/K8 w",   // 9 squares
        "1P6/8/8/8/8/8/8/K7 w", // a White pawn on rank 8
        "1k6/8/8/8/8/8/8/p7 w", // a Black pawn on rank 1
        "8/8/8/8/8/8/8/Q7 w",   // no queen
        "8/8/8/8/8/8/8/K7 x",
    ] {
        assert!(reference::from_fen(bad).is_err(), "{bad}");
    }
    // A White pawn on rank 1, a Black one on rank 8, and no Black king: accepted.
    let b = reference::from_fen("1p6/8/8/8/8/8/8/K1P5 w").unwrap();
    assert_eq!(b.to_fen(), "1p6/8/8/8/8/8/8/K1P5 w");
    assert_eq!(texts(&b), names(&["Ka1-b2", "c1-b2", "c1-d2"]));
}

/// A pawn's jump chain branches after its first jump: two moves, both maximal (the pawn may not
/// stop on e5).
#[test]
fn reference_branching_chain() {
    let b = board("Kh2 Pc3", "Ka7 Pd4 Bd6 CAf6", Color::White);
    assert_eq!(texts(&b), names(&["c3xe5xc7", "c3xe5xg7"]));
    // Black's pawn chains run down the board: b6 over c5 to d4, then over c3 to b2 or e3 to f2.
    let b = board("Kh8 Pc5 Pc3 Be3", "Ka1 Pb6", Color::Black);
    assert_eq!(texts(&b), names(&["b6xd4xb2", "b6xd4xf2"]));
}

/// A king may not jump the same piece twice, though it could land on its start square again:
/// it jumps d2 and stops on e3.
#[test]
fn reference_no_piece_is_jumped_twice() {
    let b = board("Kc1", "Kh8 Pd2", Color::White);
    assert_eq!(texts(&b), names(&["Kc1xe3"]));
    // Nor in a longer chain: from e3 the king goes on over f4 to g5 and stops there (jumping
    // back over f4 is refused).
    let b = board("Kc1", "Kh8 Pd2 Bf4", Color::White);
    assert_eq!(texts(&b), names(&["Kc1xe3xg5"]));
}

/// A chain that reaches the last rank ends there with a promotion (three moves), even where a
/// king would jump on (over g7 to h6).
#[test]
fn reference_chain_ends_with_a_promotion() {
    let b = board("Ka1 Pb4", "Ka7 Pc5 CAe7 Bg7", Color::White);
    assert_eq!(texts(&b), names(&["b4xd6xf8=K", "b4xd6xf8=B", "b4xd6xf8=CA"]));
    // The pieces jumped are gone and the new piece stands on f8.
    let m = b.legal_moves().into_iter().find(|m| m.promotion == Some(Kind::King)).unwrap();
    assert_eq!(b.play(&m).to_fen(), "5K2/k5b1/8/8/8/8/8/K7 b");
    // A quiet step to the last rank is promoted too.
    let b = board("Ka1 Pg7", "Ka7", Color::White);
    assert_eq!(texts(&b), names(&["Ka1-b2", "g7-f8=K", "g7-f8=B", "g7-f8=CA", "g7-h8=K", "g7-h8=B", "g7-h8=CA"]));
}

/// When a pawn can jump, capturing is compulsory, and a bishop's or camel's capture satisfies
/// it: the pawn's jump, the bishop's and the camel's captures, no quiet move.
#[test]
fn reference_compulsory_capture_by_bishop_or_camel() {
    let b = board("Ka1 Pc3 Bg1 CAe1", "Kh8 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["c3xe5", "Bg1xd4", "CAe1xd4"]));
    // The bishop blocked by its own pawn: the jump and the camel's capture.
    let b = board("Ka1 Pc3 Pf2 Bg1 CAe1", "Kh8 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["c3xe5", "CAe1xd4"]));
}

/// When only a camel or a bishop can capture, capturing is optional: every move is legal.
#[test]
fn reference_capture_optional_for_camels_and_bishops() {
    let b = board("Ka1 CAe1", "Kh8 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["Ka1-b2", "CAe1-b2", "CAe1-f4", "CAe1-h2", "CAe1xd4"]));
    let b = board("Ka1 Bc1", "Kh8 Pg5", Color::White);
    assert_eq!(texts(&b), names(&["Ka1-b2", "Bc1-b2", "Bc1-a3", "Bc1-d2", "Bc1-e3", "Bc1-f4", "Bc1xg5"]));
    // A bishop is blocked by its own pieces and by the first enemy it meets.
    let b = board("Kg1 Bc1 Pe3", "Kh8 Pb2", Color::White);
    assert_eq!(texts(&b), names(&["Bc1-d2", "Bc1xb2", "e3-d4", "e3-f4", "Kg1-f2", "Kg1-h2"]));
}

/// A king jumps backwards (a pawn does not); Black's king jumps up the board, backwards for it.
#[test]
fn reference_king_captures_backwards() {
    let b = board("Ke5", "Kh8 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["Ke5xc3"]));
    let b = board("Ka1 Pe5", "Kh8 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["Ka1-b2", "e5-d6", "e5-f6"]));
    let b = board("Ka1 Pe5", "Kd4", Color::Black);
    assert_eq!(texts(&b), names(&["Kd4xf6"]));
}

/// The king's start square is empty during its own chain: a king circling four pieces comes
/// back onto it (both ways round are one move: same start, end and captured set), or through
/// it and on (a different captured set from the short chain to the same square: two moves).
#[test]
fn reference_king_comes_back_onto_and_through_its_start_square() {
    let b = board("Kc3", "Kh8 Pd4 Bd6 CAb6 Pb4", Color::White);
    let all = b.legal_moves_all_paths();
    assert_eq!(all.len(), 2, "two paths: {all:?}");
    assert_eq!(all[0].identity(), all[1].identity());
    assert_eq!(texts(&b), names(&["Kc3xa5xc7xe5xc3"]));
    assert_eq!(b.play(&b.legal_moves()[0]).to_fen(), "7k/8/8/8/8/2K5/8/8 b");
    // Either path names the move.
    assert!(b.move_named("Kc3xe5xc7xa5xc3").is_some() && b.move_named("Kc3xa5xc7xe5xc3").is_some());
    // With a fifth piece on d2 the king goes through c3 and on to e1; jumping d2 first it
    // stops on e1 at once.
    let b = board("Kc3", "Kh8 Pd4 Bd6 CAb6 Pb4 Pd2", Color::White);
    assert_eq!(texts(&b), names(&["Kc3xa5xc7xe5xc3xe1", "Kc3xe1"]));
    assert_eq!(b.legal_moves_all_paths().len(), 3);
}

/// Two paths over the same pieces to the same square are one move; paths over different
/// pieces to the same square are two.
#[test]
fn reference_chains_counted_by_captured_set() {
    // King a1: over b2 to c3, then over d4 to e5 or over b4 to a5; two different moves.
    let b = board("Ka1", "Kh8 Pb2 Pd4 Pb4", Color::White);
    assert_eq!(texts(&b), names(&["Ka1xc3xa5", "Ka1xc3xe5"]));
    // King g1 over f2 to e3, then over d4 to c5 or over d2 to c1 (where it stops: f2 is not
    // jumped twice): two moves; the pawn on h4 is out of reach.
    let b = board("Kg1", "Kh8 Pf2 Ph4 Pd2 Pd4", Color::White);
    assert_eq!(texts(&b), names(&["Kg1xe3xc1", "Kg1xe3xc5"]));
}

/// A side without a king has no move; a king walled in has none either.
#[test]
fn reference_positions_without_a_move() {
    let b = board("Pc3 Bg1", "Kh8", Color::White);
    assert!(texts(&b).is_empty());
    // Black's king is taken: Black, to move, has none.
    let b = board("Ka1 Bc1", "Kh6", Color::White);
    let m = b.move_named("Bc1xh6").expect("the bishop takes the king");
    let after = b.play(&m);
    assert_eq!(after.to_fen(), "8/8/7B/8/8/8/8/K7 b");
    assert!(after.legal_moves().is_empty());
    hand_made(&after);
    // A king on a1 behind b2 and c3: no step, no jump.
    let b = board("Ka1", "Kh8 Pb2 Pc3", Color::White);
    assert!(texts(&b).is_empty());
    // The same with a pawn that cannot move.
    let b = board("Ka1 Pg7", "Kh8 Pb2 Pc3 Bf8", Color::White);
    // g7's squares ahead hold the bishop and the king, with the board's edge behind them.
    assert!(texts(&b).is_empty());
}

// ---------------------------------------------------------------------------------------------
// The engine against the reference.

/// The engine's position for a FEN it must accept.
fn engine(fen: &str) -> CheskersPosition {
    CheskersPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: the engine refuses it: {e}"))
}

/// Checks the engine on a hand-made position (all of them are positions it must accept).
fn hand_made(b: &Board) {
    check_position(&engine(&b.to_fen()));
}

/// An engine square (index rank × 8 + file) as a reference square, worked out here.
fn sq(s: Square) -> Sq {
    ((s.0 % 8) as i32, (s.0 / 8) as i32)
}

/// The reference's kind for the engine's.
fn kind(k: CheskersKind) -> Kind {
    match k {
        CheskersKind::King => Kind::King,
        CheskersKind::Bishop => Kind::Bishop,
        CheskersKind::Camel => Kind::Camel,
        CheskersKind::Pawn => Kind::Pawn,
    }
}

/// The squares of a bitboard, as reference squares, sorted as the reference sorts them.
fn squares_of(bits: u64) -> Vec<Sq> {
    let mut v: Vec<Sq> = (0..64u8).filter(|i| bits >> i & 1 == 1).map(|i| sq(Square(i))).collect();
    v.sort();
    v
}

/// Checks one engine position against the reference:
///
/// - its FEN is read by both, and the engine reads back the same position (key included), whose
///   incremental key is the key from scratch;
/// - its children (as FENs, a sorted multiset) are the reference's, also through the engine's
///   counting, any-move and [`Game`] paths, and `#` (the side to move has no move) is "the
///   reference has no legal move";
/// - every engine move's name reads back to the same move, names a reference move (by one of its
///   paths) with the same start, end, captured set, promotion and child, and the move's own
///   fields agree with it; every reference name, along any path of a chain, reads as its move.
///
/// Returns the children.
fn check_position(p: &CheskersPosition) -> Vec<CheskersPosition> {
    let fen = p.to_fen();
    let r = reference::from_fen(&fen).unwrap_or_else(|e| panic!("the engine writes {fen}: {e}"));
    assert_eq!(r.to_fen(), fen, "the engine's FEN is written as the reference writes it");
    assert_eq!(engine(&fen), *p, "{fen}: FEN round trip");
    assert_eq!(p.hash(), p.hash_from_scratch(), "{fen}: key");
    assert_eq!(p.side_to_move(), r.side, "{fen}: side to move");
    let moves: Vec<CMove> = p.legal_moves();
    let want = r.children_fens();
    let mut ours: Vec<String> = moves.iter().map(|&m| p.play(m).to_fen()).collect();
    ours.sort();
    if ours != want {
        let texts = |m: &CMove| format!("{} -> {}", p.move_text(*m), p.play(*m).to_fen());
        let missing: Vec<String> = r
            .legal_moves()
            .iter()
            .filter(|m| !ours.contains(&r.play(m).to_fen()))
            .map(|m| format!("{} -> {}", m.text(), r.play(m).to_fen()))
            .collect();
        let extra: Vec<String> = moves.iter().filter(|&&m| !want.contains(&p.play(m).to_fen())).map(texts).collect();
        panic!(
            "{fen}: the engine misses {missing:?}, has {extra:?} too ({} moves, the reference {}; its list: {:?})",
            moves.len(),
            want.len(),
            moves.iter().map(|&m| p.move_text(m)).collect::<Vec<_>>()
        );
    }
    let none = want.is_empty();
    assert_eq!(p.goal_reached(Goal::Mate), none, "{fen}: # (no legal move)");
    assert_eq!(Game::has_move(p), !none, "{fen}: has a move");
    assert_eq!(p.has_legal_move(), !none, "{fen}: has_legal_move");
    assert_eq!(p.count_legal(), want.len(), "{fen}: count_legal");
    assert_eq!(p.perft(1), want.len() as u64, "{fen}: perft 1");
    let mut via_game = Vec::new();
    Game::moves(p, &mut via_game);
    assert_eq!(via_game, moves, "{fen}: Game::moves");
    for m in &moves {
        let name = p.move_text(*m);
        assert_eq!(p.parse_move(&name), Some(*m), "{fen}: {name} reads back");
        let rm = r
            .move_named(&name)
            .unwrap_or_else(|| panic!("{fen}: the engine's {name} names no reference move (its moves: {:?})", r.legal_texts()));
        let q = p.play(*m);
        let qf = q.to_fen();
        assert_eq!(r.play(&rm).to_fen(), qf, "{fen}: {name}");
        assert_eq!((sq(m.from), sq(m.to)), (rm.from, rm.to()), "{fen}: {name}: from and to");
        assert_eq!(squares_of(m.captured), rm.captured, "{fen}: {name}: captured set");
        assert_eq!(m.promotion.map(kind), rm.promotion, "{fen}: {name}: promotion");
        let landings: Vec<Sq> = m.landings().into_iter().map(sq).collect();
        if rm.is_jump() {
            assert_eq!(landings, rm.path, "{fen}: {name}: landings");
        } else {
            assert!(landings.is_empty(), "{fen}: {name}: landings of a move that is no chain");
        }
        assert_eq!(q.hash(), q.hash_from_scratch(), "{fen} {name}: incremental key");
        assert_eq!(p.try_play(*m), Some(q), "{fen} {name}: try_play");
    }
    // The reference's names, with every path of each chain: each reads as the move with the
    // reference's child (a stated solution may write a chain along any of its paths).
    for rm in r.legal_moves_all_paths() {
        let name = rm.text();
        match p.parse_move(&name) {
            Some(m) => assert_eq!(p.play(m).to_fen(), r.play(&rm).to_fen(), "{fen}: the engine reads {name} as {}", p.move_text(m)),
            None => panic!("{fen}: the engine does not read {name}"),
        }
    }
    moves.iter().map(|&m| p.play(m)).collect()
}

/// `cases` random cases, or `PROPTEST_CASES` when set (for long soak runs).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// The perft numbers of the initial position, depths 1–7, as the reference counts them (the
/// engine, written apart, counts the same).
const START_PERFT: [u64; 7] = [9, 81, 652, 4395, 30239, 209816, 1474381];

/// The engine's and the reference's perft of the initial position, depths `depths`.
fn perft_both(depths: std::ops::RangeInclusive<u32>) {
    let e = CheskersPosition::startpos();
    let r = reference::from_fen(reference::START).unwrap();
    assert_eq!(e.to_fen(), reference::START);
    for d in depths {
        let t = std::time::Instant::now();
        let want = r.perft(d);
        let tr = t.elapsed();
        let t = std::time::Instant::now();
        let got = e.perft(d);
        let te = t.elapsed();
        eprintln!("perft {d}: reference {want} ({tr:?}), engine {got} ({te:?})");
        assert_eq!(got, want, "perft {d} of the initial position");
        assert_eq!(e.perft_full(d), want, "perft {d} of the initial position, every leaf played");
        assert_eq!(want, START_PERFT[d as usize - 1], "the reference's perft {d}");
    }
}

/// Perft of the initial position to depth 5: the engine and the reference agree.
#[test]
fn perft_of_the_initial_position() {
    check_position(&CheskersPosition::startpos());
    perft_both(1..=5);
}

/// Perft of the initial position to depths 6 and 7 (slow in debug builds).
#[test]
#[ignore]
fn perft_of_the_initial_position_deep() {
    perft_both(6..=7);
}

// ---------------------------------------------------------------------------------------------
// Random positions.

/// A random position before placement: the kings of each side (indices into the dark squares),
/// other pieces as (kind: 0 bishop, 1 camel, 2–4 pawn; White?; index into the dark squares),
/// the side to move, and sometimes a crowd: pawns on the free squares whose bit of a seed is set
/// (or on every free square), so that sides without a move occur.
#[derive(Clone, Debug)]
struct Spec {
    white_kings: Vec<usize>,
    black_kings: Vec<usize>,
    pieces: Vec<(u8, bool, usize)>,
    black_to_move: bool,
    crowd: Option<(u64, bool)>,
}

prop_compose! {
    fn spec()(
        white_kings in prop::collection::vec(0usize..32, 1..=3),
        black_kings in prop::collection::vec(0usize..32, 1..=3),
        pieces in prop::collection::vec((0u8..5, any::<bool>(), 0usize..32), 0..24),
        black_to_move in any::<bool>(),
        crowd in prop_oneof![4 => Just(None), 1 => any::<(u64, bool)>().prop_map(Some)],
    ) -> Spec {
        Spec { white_kings, black_kings, pieces, black_to_move, crowd }
    }
}

/// The position a spec describes: kings first, then the other pieces where their square is
/// free (a pawn never on its last rank; it may stand on its first).
fn place(spec: &Spec) -> Board {
    let dark = reference::dark_squares();
    let mut b = reference::empty();
    b.side = if spec.black_to_move { Color::Black } else { Color::White };
    let kings = spec
        .white_kings
        .iter()
        .map(|&i| (Color::White, Kind::King, i))
        .chain(spec.black_kings.iter().map(|&i| (Color::Black, Kind::King, i)));
    let others = spec.pieces.iter().map(|&(k, white, i)| {
        let kind = [Kind::Bishop, Kind::Camel, Kind::Pawn, Kind::Pawn, Kind::Pawn][k as usize];
        (if white { Color::White } else { Color::Black }, kind, i)
    });
    for (c, k, i) in kings.chain(others) {
        let s = dark[i];
        if b.at(s).is_none() && !(k == Kind::Pawn && s.1 == reference::last_rank(c)) {
            b.set(s, Some((c, k)));
        }
    }
    if let Some((seed, full)) = spec.crowd {
        for (i, &s) in dark.iter().enumerate() {
            // Bit i places a pawn, bit 32 + i says whose.
            let c = if seed >> (32 + i) & 1 == 1 { Color::White } else { Color::Black };
            if b.at(s).is_none() && (full || seed >> i & 1 == 1) && s.1 != reference::last_rank(c) {
                b.set(s, Some((c, Kind::Pawn)));
            }
        }
    }
    b
}

/// The rules a position exercises for the side to move, found on the reference board.
fn features(b: &Board) -> Vec<&'static str> {
    let mut events = BTreeSet::new();
    let all = b.legal_moves_all_paths_traced(&mut events);
    let legal = b.legal_moves();
    let mut out: Vec<&'static str> = events.into_iter().collect();
    let mut note = |what: &'static str, yes: bool| {
        if yes {
            out.push(what)
        }
    };
    let jumps: Vec<&RMove> = all.iter().filter(|m| m.is_jump()).collect();
    let bc_capture = legal.iter().any(|m| m.is_capture() && matches!(m.kind, Kind::Bishop | Kind::Camel));
    note("no king", !b.has_king(b.side));
    note("no legal move with a king", b.has_king(b.side) && legal.is_empty());
    note("capture compulsory", b.capture_compulsory());
    note("chain of two jumps or more", jumps.iter().any(|m| m.path.len() >= 2));
    note("chain of three jumps or more", jumps.iter().any(|m| m.path.len() >= 3));
    note("two chains from one square", jumps.iter().any(|m| jumps.iter().any(|x| x.from == m.from && x.identity() != m.identity())));
    note(
        "chain branching after a jump",
        jumps.iter().any(|m| jumps.iter().any(|x| x.from == m.from && x.path[0] == m.path[0] && x.path != m.path)),
    );
    note("one move by two paths", jumps.iter().any(|m| jumps.iter().any(|x| x.identity() == m.identity() && x.path != m.path)));
    note(
        "two chains to one square over different pieces",
        jumps.iter().any(|m| jumps.iter().any(|x| x.from == m.from && x.to() == m.to() && x.captured != m.captured)),
    );
    note("promotion ending a jump", jumps.iter().any(|m| m.promotion.is_some()));
    note("promotion ending a chain of two jumps or more", jumps.iter().any(|m| m.promotion.is_some() && m.path.len() >= 2));
    note("promotion by a step", legal.iter().any(|m| m.promotion.is_some() && !m.is_capture()));
    note("king chain", jumps.iter().any(|m| m.kind == Kind::King));
    note("king chain through its start square", jumps.iter().any(|m| m.kind == Kind::King && m.path[..m.path.len() - 1].contains(&m.from)));
    note("compulsory capture met by a bishop or camel capture", b.capture_compulsory() && bc_capture);
    note(
        "capture optional: only bishops or camels can capture",
        !b.capture_compulsory() && bc_capture && legal.iter().any(|m| !m.is_capture()),
    );
    note("a king can be captured", legal.iter().any(|m| m.captured.iter().any(|&s| b.at(s).is_some_and(|(_, k)| k == Kind::King))));
    note("the last king can be captured", legal.iter().any(|m| !b.play(m).has_king(reference::other(b.side))));
    out
}

/// Counts, over `n` random specs of a deterministic runner and their children, the positions
/// and how many exercise each rule; the engine is checked against the reference on each of them,
/// so that every rule counted here is also compared, whatever the random cases of the tests
/// below.
fn coverage(n: usize) -> (usize, BTreeMap<&'static str, usize>) {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = spec();
    let mut seen = BTreeMap::new();
    let mut positions = 0;
    for _ in 0..n {
        let b = place(&strat.new_tree(&mut runner).unwrap().current());
        let children = check_position(&engine(&b.to_fen()));
        let boards = std::iter::once(b).chain(children.iter().map(|q| {
            check_position(q);
            reference::from_fen(&q.to_fen()).unwrap()
        }));
        for b in boards {
            positions += 1;
            for what in features(&b) {
                *seen.entry(what).or_default() += 1;
            }
        }
    }
    (positions, seen)
}

/// The random positions (and their children) reach every rule: chains of several jumps, with
/// branches, a promotion ending a chain, kings jumping backwards, compulsory capture met by a
/// bishop or camel capture, capture optional when only bishops or camels can capture, pieces not
/// jumped twice, one move by two paths, kings captured, sides without a king or without a move.
#[test]
fn random_positions_cover_every_rule() {
    let (positions, seen) = coverage(3000);
    eprintln!("{positions} positions: {seen:#?}");
    for what in [
        "no king",
        "no legal move with a king",
        "capture compulsory",
        "chain of two jumps or more",
        "chain of three jumps or more",
        "two chains from one square",
        "chain branching after a jump",
        "two chains to one square over different pieces",
        "promotion ending a jump",
        "promotion ending a chain of two jumps or more",
        "promotion by a step",
        "pawn stops on its last rank where a king would jump on",
        "king chain",
        "king jumps backwards",
        "jump straight back over the piece just jumped refused",
        "jump over a piece jumped earlier in the chain refused",
        "king lands on its own start square in its chain",
        "king chain through its start square",
        "one move by two paths",
        "compulsory capture met by a bishop or camel capture",
        "capture optional: only bishops or camels can capture",
        "a king can be captured",
        "the last king can be captured",
    ] {
        let n = seen.get(what).copied().unwrap_or(0);
        assert!(n > 0, "no random position with {what}: {seen:?}");
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// The children of random positions and of their children.
    #[test]
    fn random_positions_match_the_reference(spec in spec()) {
        let b = place(&spec);
        for q in check_position(&engine(&b.to_fen())) {
            check_position(&q);
        }
    }

    /// Every position along random games from the initial position or a random position, to
    /// their end (no legal move) or 100 plies.
    #[test]
    fn random_playouts_match_the_reference(
        from_start in any::<bool>(),
        spec in spec(),
        choices in prop::collection::vec(any::<usize>(), 1..100),
    ) {
        let mut p = if from_start { CheskersPosition::startpos() } else { engine(&place(&spec).to_fen()) };
        for c in choices {
            let children = check_position(&p);
            if children.is_empty() {
                break;
            }
            p = children[c % children.len()];
        }
    }

    /// Random positions where one side has no king (as after its last king's capture): the
    /// engine reads them, and the side to move has no move exactly when it has no king.
    #[test]
    fn positions_without_a_king(spec in spec(), white_without in any::<bool>()) {
        let mut b = place(&spec);
        let c = if white_without { Color::White } else { Color::Black };
        for s in reference::dark_squares() {
            if b.at(s) == Some((c, Kind::King)) {
                b.set(s, None);
            }
        }
        let p = engine(&b.to_fen());
        check_position(&p);
        prop_assert_eq!(p.goal_reached(Goal::Mate), b.side == c || b.legal_moves().is_empty());
    }

    /// The engine's FEN reader accepts exactly what the reference's accepts (pieces on light
    /// squares and pawns on their last rank refused), and writes it back the same.
    #[test]
    fn engine_reads_the_fens_the_reference_reads(
        pieces in prop::collection::vec((0usize..4, any::<bool>(), 0usize..64), 0..12),
        side in prop::option::of(any::<bool>()),
    ) {
        let mut rows = vec![vec!['.'; 8]; 8];
        for (k, white, i) in pieces {
            let letter = Kind::ALL[k].fen_letter();
            rows[i / 8][i % 8] = if white { letter } else { letter.to_ascii_lowercase() };
        }
        let placement: Vec<String> = rows.iter().rev().map(|row| {
            let mut s = String::new();
            let mut gap = 0;
            for &c in row {
                if c == '.' {
                    gap += 1;
                } else {
                    if gap > 0 { s.push_str(&gap.to_string()); gap = 0; }
                    s.push(c);
                }
            }
            if gap > 0 { s.push_str(&gap.to_string()); }
            s
        }).collect();
        let mut fen = placement.join("/");
        match side {
            Some(true) => fen.push_str(" w"),
            Some(false) => fen.push_str(" b"),
            None => {}
        }
        match (reference::from_fen(&fen), CheskersPosition::from_fen(&fen)) {
            (Ok(b), Ok(p)) => prop_assert_eq!(p.to_fen(), b.to_fen()),
            (Err(_), Err(_)) => {}
            (Ok(_), Err(e)) => prop_assert!(false, "{}: the engine refuses it: {}", fen, e),
            (Err(e), Ok(_)) => prop_assert!(false, "{}: the engine reads it, the reference refuses it: {}", fen, e),
        }
    }
}
