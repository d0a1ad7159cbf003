use super::*;
use crate::position::{Position, parse_sq};

/// The fairy position of an orthodox FEN, with the given conditions.
pub(crate) fn from_fen(fen: &str, conditions: Conditions) -> FairyPosition {
    let p = Position::from_fen(fen).unwrap();
    let setup = p.to_setup();
    let pieces = setup.pieces.iter().map(|&(s, pc)| (s, FPiece::new(Owner::of(pc.color), pc.kind))).collect();
    FairyPosition::from_setup(&FairySetup {
        pieces,
        holes: 0,
        side: setup.side,
        castling: setup.castling,
        ep: setup.ep,
        conditions,
        extra_promotions: Vec::new(),
    })
    .unwrap()
}

#[test]
fn without_conditions_perft_is_orthodox() {
    // Start, Kiwipete, and the en passant / promotion positions of the chess perft suite.
    for (fen, depth) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2),
    ] {
        let orth = Position::from_fen(fen).unwrap();
        let fairy = from_fen(fen, Conditions::none());
        assert_eq!(fairy.perft(depth), orth.perft(depth), "{fen}");
    }
}

#[test]
fn circe_rebirth_squares() {
    let s = |n: &str| parse_sq(n).unwrap();
    use conditions::rebirth_square as r;
    assert_eq!(r(Kind::Knight, Color::Black, s("c1")), s("b8"));
    assert_eq!(r(Kind::Rook, Color::Black, s("c1")), s("h8"));
    assert_eq!(r(Kind::Rook, Color::White, s("a1")), s("a1"));
    assert_eq!(r(Kind::Bishop, Color::White, s("d5")), s("f1"));
    assert_eq!(r(Kind::Pawn, Color::Black, s("e4")), s("e7"));
    assert_eq!(r(Kind::Sirene, Color::Black, s("e4")), s("e1"));
    assert_eq!(r(Kind::Queen, Color::White, s("a8")), s("d1"));
}

#[test]
fn circe_writes_rebirths() {
    let mut c = Conditions::none();
    c.push(Condition::Rebirth(conditions::Rebirth::Circe { rex: false })).unwrap();
    let p = from_fen("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1", c);
    let texts: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m, crate::piece::Lang::En)).collect();
    assert!(texts.contains(&"d4*e5[+bSb8]".to_string()), "{texts:?}");
}
