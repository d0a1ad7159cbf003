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

/// A position from piece lists (`Kd4`, codes in English, `Owner` per list), no conditions.
fn position(white: &[&str], black: &[&str], neutral: &[&str], side: Color) -> FairyPosition {
    let mut pieces = Vec::new();
    for (owner, list) in [(Owner::White, white), (Owner::Black, black), (Owner::Neutral, neutral)] {
        for item in list {
            let (code, sq) = item.split_at(item.len() - 2);
            let kind = if code.is_empty() { Kind::Pawn } else { Kind::from_code(code).unwrap() };
            pieces.push((parse_sq(sq).unwrap(), FPiece::new(owner, kind)));
        }
    }
    FairyPosition::from_setup(&FairySetup { pieces, side: Some(side), conditions: Conditions::none(), ..FairySetup::default() }).unwrap()
}

fn texts(p: &FairyPosition) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m, crate::piece::Lang::En)).collect();
    v.sort();
    v
}

/// The moves of the piece on `from`, as text.
fn moves_from(p: &FairyPosition, from: &str) -> Vec<String> {
    let s = parse_sq(from).unwrap();
    let mut v: Vec<String> = p.legal_moves().iter().filter(|m| m.from == s).map(|&m| p.move_text(m, crate::piece::Lang::En)).collect();
    v.sort();
    v
}

#[test]
fn neutral_pawns_go_the_movers_way_and_promote_to_neutral_pieces() {
    let w = position(&["Ka1"], &["Kh8"], &["Pe2", "Pc7"], Color::White);
    assert_eq!(moves_from(&w, "e2"), ["nPe2-e3", "nPe2-e4"]);
    assert_eq!(moves_from(&w, "c7"), ["nPc7-c8=nB", "nPc7-c8=nQ", "nPc7-c8=nR", "nPc7-c8=nS"]);
    let b = w.with_side(Color::Black);
    assert_eq!(moves_from(&b, "c7"), ["nPc7-c5", "nPc7-c6"]);
    assert_eq!(moves_from(&b, "e2"), ["nPe2-e1=nB", "nPe2-e1=nQ", "nPe2-e1=nR", "nPe2-e1=nS"]);
    let m = w.parse_move("nPc7-c8=nQ").unwrap();
    assert_eq!(w.make_move(m).piece_at(parse_sq("c8").unwrap()), Some(FPiece::new(Owner::Neutral, Kind::Queen)));
    // A neutral pawn's double step may be taken en passant by the other side.
    let after = w.make_move(w.parse_move("nPe2-e4").unwrap());
    let b2 = position(&["Ka1"], &["Kh8", "Pd4"], &["Pe2"], Color::White);
    let after2 = b2.make_move(b2.parse_move("nPe2-e4").unwrap());
    assert!(texts(&after2).contains(&"d4*e3 ep.".to_string()), "{:?}", texts(&after2));
    assert_eq!(after.to_fen(), "7k/2=P5/8/8/4=P3/8/8/K7 b - e3 0 1");
}

#[test]
fn neutral_pieces_are_captured_by_either_side() {
    let p = position(&["Ka1", "Rd1"], &["Kh8", "Rd8"], &["Bd5", "Bc1"], Color::White);
    assert!(moves_from(&p, "d1").contains(&"Rd1*d5".to_string()));
    assert!(moves_from(&p.with_side(Color::Black), "d8").contains(&"Rd8*d5".to_string()));
    // Either side moves it, but not onto a line where the other side would take a king with it.
    assert!(moves_from(&p, "d5").contains(&"nBd5-c4".to_string()));
    assert!(moves_from(&p.with_side(Color::Black), "d5").contains(&"nBd5-c4".to_string()));
    for q in [p, p.with_side(Color::Black)] {
        assert_eq!(moves_from(&q, "c1"), ["nBc1-a3", "nBc1-d2", "nBc1-e3", "nBc1-f4", "nBc1-g5", "nBc1-h6"]);
    }
}

#[test]
fn a_neutral_king_is_royal_for_both() {
    // The neutral king on e4 is attacked by Black's rook: White is in check, not Black.
    let p = position(&["Pa2"], &["Re8"], &["Ke4"], Color::White);
    assert!(p.in_check());
    assert!(!p.with_side(Color::Black).in_check());
    // White must answer the check: only king moves off the e-file (a2 stays).
    assert!(texts(&p).iter().all(|t| t.starts_with("nK")), "{:?}", texts(&p));
    assert_eq!(moves_from(&p, "e4"), ["nKe4-d3", "nKe4-d4", "nKe4-d5", "nKe4-f3", "nKe4-f4", "nKe4-f5"]);
    // Black may not put it where White attacks it.
    let q = position(&["Rd1"], &["Pa7"], &["Ke4"], Color::Black);
    assert!(!moves_from(&q, "e4").iter().any(|t| t.contains("-d")), "{:?}", moves_from(&q, "e4"));
}

#[test]
fn a_side_without_a_king_is_never_in_check() {
    // White has no king: its queen may stand anywhere, Black's pieces attack nothing royal.
    let p = position(&["Qd3"], &["Kh8", "Rd8"], &[], Color::White);
    assert!(!p.in_check());
    assert_eq!(moves_from(&p, "d3").len(), 25);
    // Black's king is in check from the queen on the long diagonal.
    let q = position(&["Qd4"], &["Kh8", "Rd8"], &[], Color::Black);
    assert!(q.in_check());
    assert_eq!(moves_from(&q, "h8"), ["Kh8-g8", "Kh8-h7"]);
    assert_eq!(q.perft(1), 2 + 1);
}

#[test]
fn the_fairy_pieces_move_as_popeye_moves_them() {
    use Color::White as W;
    // Moose and sparrow: Popeye's pieces.tst #9 and #11 (a square reached over two hurdles once).
    assert_eq!(moves_from(&position(&["Md4"], &["Pc5", "Pd5"], &[], W), "d4"), ["Md4-b5", "Md4-c6", "Md4-e6"]);
    assert_eq!(moves_from(&position(&["SWd4"], &["Pb6", "Pd7"], &[], W), "d4"), ["SWd4-b5", "SWd4-c6", "SWd4-e6"]);
    // Eagle: over d5 turned by 90° (b5 and f5 are 2 squares off: lands c5, e5... next to the hurdle).
    assert_eq!(moves_from(&position(&["EAd4"], &["Pd5"], &[], W), "d4"), ["EAd4-c5", "EAd4-e5"]);
    // Lion: over the hurdle, any distance beyond, capturing the first piece there.
    assert_eq!(moves_from(&position(&["LId1"], &["Pd4", "Rd7"], &[], W), "d1"), ["LId1*d7", "LId1-d5", "LId1-d6"]);
    assert_eq!(moves_from(&position(&["RLd1"], &["Pd4", "Pf3"], &[], W), "d1"), ["RLd1-d5", "RLd1-d6", "RLd1-d7", "RLd1-d8"]);
    assert_eq!(moves_from(&position(&["BLa1"], &["Pc3"], &[], W), "a1"), ["BLa1-d4", "BLa1-e5", "BLa1-f6", "BLa1-g7", "BLa1-h8"]);
    // Locust: captures over its victim to the empty square behind; not at the edge, not onto
    // a piece.
    assert_eq!(moves_from(&position(&["La1"], &["Pa4", "Pc3", "Rd4"], &[], W), "a1"), ["La1*a4-a5"]);
    assert!(moves_from(&position(&["La1"], &["Ra8", "Bh8"], &[], W), "a1").is_empty());
    // Marine pieces: move as riders, capture as locusts.
    assert_eq!(moves_from(&position(&["TRa1"], &["Pa4"], &[], W), "a1").len(), 2 + 7 + 1);
    assert!(moves_from(&position(&["TRa1"], &["Pa4"], &[], W), "a1").contains(&"TRa1*a4-a5".to_string()));
    assert_eq!(moves_from(&position(&["NDa1"], &["Pc3"], &[], W), "a1"), ["NDa1*c3-d4", "NDa1-b2"]);
    assert_eq!(moves_from(&position(&["SIa1"], &["Pa3", "Sc1"], &[], W), "a1").len(), 1 + 1 + 7 + 1 + 1);
    // Kangaroo: over two hurdles, just behind the second.
    assert_eq!(moves_from(&position(&["KAa1"], &["Pa3", "Pa5"], &[], W), "a1"), ["KAa1-a6"]);
    // Equihopper: to the square symmetric about the hurdle, also off the straight lines, the
    // squares between empty.
    assert_eq!(moves_from(&position(&["EQa1"], &["Pb3"], &[], W), "a1"), ["EQa1-c5"]);
    assert_eq!(moves_from(&position(&["EQa1"], &["Pa3"], &[], W), "a1"), ["EQa1-a5"]);
    assert!(moves_from(&position(&["EQa1"], &["Pa3", "Pa4"], &[], W), "a1").is_empty());
    // Nao: a nightrider that captures over a screen.
    assert_eq!(moves_from(&position(&["NAa1"], &["Pc2", "Pe3"], &[], W), "a1"), ["NAa1*e3", "NAa1-b3", "NAa1-c5", "NAa1-d7"]);
    // Dummy: no move.
    assert!(moves_from(&position(&["DUd4"], &["Pd6"], &[], W), "d4").is_empty());
    // Rose: from a1 on the empty board, every square once.
    let rose = moves_from(&position(&["ROd4"], &[], &[], W), "d4");
    let mut unique = rose.clone();
    unique.dedup();
    assert_eq!(rose, unique);
    assert!(rose.contains(&"ROd4-e6".to_string()) && rose.contains(&"ROd4-g7".to_string()), "{rose:?}");
    // Orphan: moves as the enemy rook that attacks it.
    assert_eq!(moves_from(&position(&["Od4"], &["Rd8"], &[], W), "d4").len(), 14);
    assert!(moves_from(&position(&["Od4"], &["Rd8"], &[], W), "d4").contains(&"Od4*d8".to_string()));
}

#[test]
fn berolina_pawns() {
    let p = position(&["BPe2"], &["Pe3"], &[], Color::White);
    assert_eq!(moves_from(&p, "e2"), ["BPe2*e3", "BPe2-c4", "BPe2-d3", "BPe2-f3", "BPe2-g4"]);
    // En passant of a Berolina double step: BPb7-d5 b5*c6 ep.
    let q = position(&["Pb5"], &["BPb7"], &[], Color::Black);
    let after = q.make_move(q.parse_move("BPb7-d5").unwrap());
    assert!(texts(&after).contains(&"b5*c6 ep.".to_string()), "{:?}", texts(&after));
    let m = after.parse_move("b5*c6 ep.").unwrap();
    assert_eq!(after.make_move(m).piece_at(parse_sq("d5").unwrap()), None);
}
