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

/// The conditions holding one rebirth rule.
fn rebirth(r: conditions::Rebirth) -> Conditions {
    let mut c = Conditions::none();
    c.push(Condition::Rebirth(r)).unwrap();
    c
}

/// The legal moves as Popeye writes them (English).
fn texts(p: &FairyPosition) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_text(m, crate::piece::Lang::En)).collect()
}

/// The position after the legal move written `text`.
fn after(p: &FairyPosition, text: &str) -> FairyPosition {
    let m = p.legal_moves().iter().copied().find(|&m| p.move_text(m, crate::piece::Lang::En) == text);
    p.make_move(m.unwrap_or_else(|| panic!("{text} not in {:?}", texts(p))))
}

#[test]
fn circe_rebirth_squares_of_fairy_pieces_and_colours() {
    let s = |n: &str| parse_sq(n).unwrap();
    use conditions::rebirth_square as r;
    // Fairy pieces: the capture file, on the promotion rank of their own colour.
    assert_eq!(r(Kind::Grasshopper, Color::White, s("c3")), s("c8"));
    assert_eq!(r(Kind::Grasshopper, Color::Black, s("g8")), s("g1"));
    // Bishops and knights by the colour of the capture square.
    assert_eq!(r(Kind::Bishop, Color::Black, s("d5")), s("c8"));
    assert_eq!(r(Kind::Knight, Color::White, s("d4")), s("g1"));
    assert_eq!(r(Kind::King, Color::Black, s("a1")), s("e8"));
    assert_eq!(r(Kind::Pawn, Color::White, s("h7")), s("h2"));
}

#[test]
fn circe_occupied_rebirth_square_loses_the_piece() {
    // The black knight taken on e5 would be reborn on b8, where a black rook stands.
    let p = from_fen("1r2k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1", rebirth(conditions::Rebirth::Circe { rex: false }));
    let q = after(&p, "d4*e5");
    assert_eq!(q.piece_at(parse_sq("b8").unwrap()), Some(FPiece::new(Owner::Black, Kind::Rook)));
    assert_eq!(q.occ[Owner::Black.index()].count_ones(), 2);
    // En passant: the pawn is reborn on its own second rank (Black's seventh).
    let p = from_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", rebirth(conditions::Rebirth::Circe { rex: false }));
    assert!(texts(&p).contains(&"d5*e6 ep.[+bPe7]".to_string()), "{:?}", texts(&p));
}

#[test]
fn circe_rex_inclusive_check_needs_the_kings_rebirth_square_taken() {
    // Popeye's circe.out#8: the kings may stand side by side; only the one whose rebirth
    // square is taken (e8, by the white rook) is in check.
    let p = from_fen("4R3/8/8/8/8/k1K5/8/8 w - - 0 1", rebirth(conditions::Rebirth::Circe { rex: true }));
    let q = after(&p, "Kc3-b3");
    assert!(q.in_check());
    // Without the rook on e8, Kb3 is no check; the black king takes the white one, which is
    // reborn on e1.
    let p = from_fen("8/8/8/8/8/k1K5/8/8 w - - 0 1", rebirth(conditions::Rebirth::Circe { rex: true }));
    let q = after(&p, "Kc3-b3");
    assert!(!q.in_check());
    assert!(texts(&q).contains(&"Ka3*b3[+wKe1]".to_string()), "{:?}", texts(&q));
}

#[test]
fn anticirce_capture_rules_calvet_and_cheylan() {
    let calvet = rebirth(conditions::Rebirth::Anti { cheylan: false });
    let cheylan = rebirth(conditions::Rebirth::Anti { cheylan: true });
    // A knight taking on b1, its own rebirth square: it stays (Calvet), illegal (Cheylan).
    let fen = "4k3/8/8/8/8/2N5/8/1b2K3 w - - 0 1";
    assert!(texts(&from_fen(fen, calvet)).contains(&"Sc3*b1[wSb1->b1]".to_string()));
    assert!(!texts(&from_fen(fen, cheylan)).iter().any(|t| t.starts_with("Sc3*b1")));
    // The rebirth square b1 taken by a white rook: the capture on d5 is illegal.
    let p = from_fen("4k3/8/8/3p4/8/2N5/8/1R2K3 w - - 0 1", calvet);
    assert!(!texts(&p).iter().any(|t| t.starts_with("Sc3*d5")), "{:?}", texts(&p));
    // Promotion with capture: the promoted piece goes to its own rebirth square.
    let p = from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", calvet);
    assert!(texts(&p).contains(&"a7*b8=Q[wQb8->d1]".to_string()), "{:?}", texts(&p));
    // Check is a legal AntiCirce capture of the king: the black king on e7 takes the queen
    // on d7 and goes to e8, so the queen gives no check when e8 is taken.
    let p = from_fen("4r3/3Qk3/8/8/8/8/8/4K3 b - - 0 1", calvet);
    assert!(!texts(&p).iter().any(|t| t.starts_with("Ke7*d7")), "{:?}", texts(&p));
}

#[test]
fn marscirce_captures_and_checks_from_the_rebirth_square() {
    let mars = rebirth(conditions::Rebirth::Mars);
    // The rook on a3 (a dark square) captures from a1 along the first rank.
    let p = from_fen("4k3/8/8/8/8/R7/8/3n2K1 w - - 0 1", mars);
    let t = texts(&p);
    assert!(t.contains(&"Ra3-a1*d1".to_string()), "{t:?}");
    // ... and so it gives check from a1.
    let p = from_fen("8/8/8/8/8/R7/8/3k2K1 b - - 0 1", mars);
    assert!(p.in_check());
    // Its rebirth square taken: no capture from there.
    let p = from_fen("4k3/8/8/8/8/R7/8/N2n2K1 w - - 0 1", mars);
    assert!(!texts(&p).iter().any(|t| t.starts_with("Ra3-a1*")));
}

#[test]
fn parrain_circe_rebirth_after_the_next_move() {
    let parrain = rebirth(conditions::Rebirth::Parrain);
    // The black knight taken on d4 is reborn after Black's next move, shifted by it.
    let p = from_fen("4k3/8/8/8/3n4/8/8/3QK3 w - - 0 1", parrain);
    let q = after(&p, "Qd1*d4");
    assert!(q.pending.is_some());
    let r = after(&q, "Ke8-f8[+bSe4]");
    assert_eq!(r.piece_at(parse_sq("e4").unwrap()), Some(FPiece::new(Owner::Black, Kind::Knight)));
    assert!(r.pending.is_none());
    // Off the board (a4 shifted one file left): lost.
    let p = from_fen("4k3/8/8/8/n7/8/8/Q3K3 w - - 0 1", parrain);
    let q = after(&p, "Qa1*a4");
    let r = after(&q, "Ke8-d8");
    assert_eq!(r.occ[Owner::Black.index()].count_ones(), 1);
    // Its square taken: the knight taken on d6, Kd8-e8 shifts it to e6, where a white
    // pawn stands: lost; Kd8-c8 shifts it to c6: reborn.
    let p = from_fen("3k4/8/3nP3/8/8/8/8/3QK3 w - - 0 1", parrain);
    let q = after(&p, "Qd1*d6");
    let r = after(&q, "Kd8-e8");
    assert_eq!(r.piece_at(parse_sq("e6").unwrap()), Some(FPiece::new(Owner::White, Kind::Pawn)));
    assert_eq!(r.occ[Owner::Black.index()].count_ones(), 1);
    let r = after(&q, "Kd8-c8[+bSc6]");
    assert_eq!(r.piece_at(parse_sq("c6").unwrap()), Some(FPiece::new(Owner::Black, Kind::Knight)));
}
