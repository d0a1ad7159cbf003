//! One test per rule of `shared/rules/cheskers.md`, on small hand-made positions, and the
//! engine's own invariants (incremental key, FEN round trip, notation round trip, the move
//! count of perft's last ply).

use super::*;
use crate::piece::Lang;
use crate::rules::test_random;

fn pos(fen: &str) -> CheskersPosition {
    match CheskersPosition::from_fen(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

/// The moves as text, sorted.
fn texts(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut v: Vec<String> = p.legal_moves().into_iter().map(|m| p.move_text(m)).collect();
    v.sort();
    v
}

#[test]
fn initial_position_has_the_nine_hand_counted_moves() {
    let p = CheskersPosition::startpos();
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(texts(START_FEN), ["CAb8-a5", "CAb8-c5", "b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"]);
    assert_eq!(p.count_legal(), 9);
    assert_eq!(p.to_fen(), START_FEN);
}

#[test]
fn a_chain_branches_and_every_branch_is_a_move() {
    // White pawn c3 jumps d4 to e5, then f6 to g7 or d6 to c7: two maximal chains.
    let v = texts("8/k7/3p1p2/8/3p4/2P5/8/4K3 w");
    assert_eq!(v, ["c3xe5xc7", "c3xe5xg7"]);
}

#[test]
fn a_chain_must_go_on_and_never_jumps_a_piece_twice() {
    // King d4 jumps c5 to b6 and must go on over c7 to d8; it may not stop on b6. From d8 it
    // could only jump back over c7, already jumped: the chain ends there.
    let v = texts("8/2p5/8/2p5/3K4/8/8/k7 w");
    assert_eq!(v, ["Kd4xb6xd8"]);
}

#[test]
fn a_chain_ends_on_promotion_with_three_choices() {
    // Pawn d6 jumps c7 to b8, its last rank: the chain stops there and the pawn becomes a
    // king, a bishop or a camel (three moves; no quiet move, the capture being compulsory).
    assert_eq!(texts("7k/2p5/3P4/8/8/8/8/K7 w"), ["d6xb8=B", "d6xb8=CA", "d6xb8=K"]);
    // Pawn f6 jumps e7 to d8 and stops there, although a king on d8 could jump on over c7
    // to b6: the promoted piece does not go on.
    assert_eq!(texts("7k/2p1p3/5P2/8/8/8/8/K7 w"), ["f6xd8=B", "f6xd8=CA", "f6xd8=K"]);
}

#[test]
fn a_pawn_step_onto_the_last_rank_promotes() {
    let v = texts("1k6/6P1/8/8/8/8/8/K7 w");
    assert!(v.iter().any(|m| m == "g7-h8=K") && v.iter().any(|m| m == "g7-f8=CA"));
    assert_eq!(v.iter().filter(|m| m.starts_with("g7")).count(), 6);
}

#[test]
fn capture_is_compulsory_and_a_bishop_capture_satisfies_it() {
    // White pawn c3 can jump d4, and the bishop h2 can take the pawn on f4.
    let v = texts("7k/8/8/8/3p1p2/2P5/7B/K7 w");
    // Moves: the jump c3xe5 and the bishop capture Bh2xf4, no quiet move.
    assert_eq!(v, ["Bh2xf4", "c3xe5"]);
}

#[test]
fn capture_is_optional_when_only_a_camel_or_bishop_can_capture() {
    // Camel g1 can take f4; no pawn or king can jump: every move is legal.
    let p = pos("7k/8/8/8/5p2/8/8/K5C1 w");
    let v: Vec<String> = p.legal_moves().into_iter().map(|m| p.move_text(m)).collect();
    assert!(v.contains(&"CAg1xf4".to_string()));
    assert!(v.contains(&"Ka1-b2".to_string()));
    assert!(v.contains(&"CAg1-d2".to_string()));
}

#[test]
fn a_king_captures_backwards_and_pawns_do_not() {
    // White king e5 jumps d4 (behind it) to c3; a White pawn on e5 could not.
    assert_eq!(texts("7k/8/8/4K3/3p4/8/8/8 w"), ["Ke5xc3"]);
    let v = texts("7k/8/8/4P3/3p4/8/8/K7 w");
    assert!(!v.iter().any(|m| m.contains('x')), "{v:?}");
}

#[test]
fn the_start_square_is_empty_during_the_chain() {
    // King c3 around the four pieces d4, d6, b6, b4 comes back to c3 (either way round is the
    // same move: one move with four captures).
    let p = pos("7k/8/1p1p4/8/1p1p4/2K5/8/8 w");
    let v: Vec<CMove> = p.legal_moves();
    let loops: Vec<&CMove> = v.iter().filter(|m| m.from == m.to).collect();
    assert_eq!(loops.len(), 1, "{:?}", v.iter().map(|&m| p.move_text(m)).collect::<Vec<_>>());
    assert_eq!(loops[0].captured.count_ones(), 4);
    // Written along either path, it reads as that move.
    assert_eq!(p.move_text(*loops[0]), "Kc3xe5xc7xa5xc3");
    assert_eq!(p.parse_move("Kc3xa5xc7xe5xc3"), Some(*loops[0]));
    assert_eq!(p.parse_move("Kc3xe5xc7xa5xc3"), Some(*loops[0]));
    assert_eq!(p.parse_move("Kc3xa5xc7xe5"), None);
    let after = p.play(*loops[0]);
    assert_eq!(after.to_fen(), "7k/8/8/8/8/2K5/8/8 b");
}

#[test]
fn capturing_the_last_king_wins() {
    // White pawn e3 jumps the Black king on f4: Black has no king and no move.
    let p = pos("8/8/8/8/5k2/4P3/8/K7 w");
    let m = p.parse_move("e3xg5").unwrap();
    let q = p.play(m);
    assert!(!q.has_king(Color::Black));
    assert!(q.legal_moves().is_empty() && !q.has_legal_move());
    assert!(q.goal_reached(Goal::Mate));
    assert_eq!(q.mark(), "#");
}

#[test]
fn no_legal_move_loses() {
    // The Black king on a1 steps only to b2, where a White pawn stands, protected from the
    // jump by the pawn on c3: Black has no move, and has lost.
    let p = pos("7K/8/8/8/8/2P5/1P6/k7 b");
    assert!(p.legal_moves().is_empty());
    assert!(p.goal_reached(Goal::Mate));
    assert!(!p.in_check());
    // With c3 empty the king must jump b2.
    assert_eq!(texts("7K/8/8/8/8/8/1P6/k7 b"), ["Ka1xc3"]);
}

#[test]
fn fen_errors_are_typed() {
    assert_eq!(CheskersPosition::from_fen(""), Err(CheskersError::Empty));
    assert_eq!(CheskersPosition::from_fen("8/8/8 w"), Err(CheskersError::RankCount(3)));
    assert!(matches!(CheskersPosition::from_fen("K7/8/8/8/8/8/8/k7 w"), Err(CheskersError::LightSquare(s)) if s == "a8"));
    assert!(matches!(CheskersPosition::from_fen("1P6/8/8/8/8/8/8/K7 w"), Err(CheskersError::PawnOnLastRank { .. })));
    assert!(matches!(CheskersPosition::from_fen("8/8/8/8/8/8/8/K5x1 w"), Err(CheskersError::UnknownLetter('x'))));
    assert!(matches!(CheskersPosition::from_fen("7k/8/8/8/8/8/8/K7 q"), Err(CheskersError::BadSide(_))));
    assert!(CheskersPosition::from_fen("7k/8/8/8/8/8/8/K7 w - - 0 1").is_ok());
}

/// Random play from the initial position: the incremental key equals the key from scratch,
/// the FEN round-trips, each move's text reads back as the move, and the last ply's count
/// equals the generated moves.
#[test]
fn random_play_keeps_the_invariants() {
    let mut rnd = test_random(7);
    for _ in 0..60 {
        let mut p = CheskersPosition::startpos();
        for _ in 0..80 {
            let moves = p.legal_moves();
            assert_eq!(p.count_legal(), moves.len(), "{}", p.to_fen());
            assert_eq!(p.has_legal_move(), !moves.is_empty());
            assert_eq!(p.hash(), p.hash_from_scratch());
            assert_eq!(pos(&p.to_fen()), p);
            for &m in &moves {
                for lang in Lang::ALL {
                    let t = p.move_text_lang(m, lang);
                    assert_eq!(p.parse_move(&t), Some(m), "{t} in {}", p.to_fen());
                }
            }
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rnd(moves.len() as u64) as usize]);
        }
    }
}
