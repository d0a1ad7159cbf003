use super::*;
use crate::piece::Lang;
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
        track_pieces: false,
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

const W: Owner = Owner::White;
const B: Owner = Owner::Black;

/// A position from its pieces (kings may stand next to each other).
fn place(pieces: &[(&str, Owner, Kind)], side: Color, conditions: Conditions) -> FairyPosition {
    let pieces = pieces.iter().map(|&(s, o, k)| (parse_sq(s).unwrap(), FPiece::new(o, k))).collect();
    FairyPosition::from_setup(&FairySetup { pieces, side: Some(side), conditions, ..FairySetup::default() }).unwrap()
}

fn with(c: Condition) -> Conditions {
    let mut cs = Conditions::none();
    cs.push(c).unwrap();
    cs
}

#[test]
fn isardam_check_is_an_isardam_legal_king_capture() {
    // 4_67_to_4_69.reg#1 after 1.Kh1-g2: bK×g2 would open the d1–h5 diagonal between the
    // bishops, so White is not in check; wK×f3 keeps it closed, so Black is.
    let p = place(
        &[("h5", W, Kind::Bishop), ("g2", W, Kind::King), ("f3", B, Kind::King), ("d1", B, Kind::Bishop)],
        Color::Black,
        with(Condition::Isardam { rex: false }),
    );
    assert!(p.royal_attacked(Color::Black));
    assert!(!p.royal_attacked(Color::White));
    // With kings included, the kings may not observe each other at all.
    let diagram = [("h5", W, Kind::Bishop), ("h1", W, Kind::King), ("f3", B, Kind::King), ("d1", B, Kind::Bishop)];
    let t = texts(&place(&diagram, Color::White, with(Condition::Isardam { rex: false })));
    assert!(t.contains(&"Kh1-g2".to_string()), "{t:?}");
    let t = texts(&place(&diagram, Color::White, with(Condition::Isardam { rex: true })));
    assert!(!t.contains(&"Kh1-g2".to_string()), "{t:?}");
}

#[test]
fn isardam_forbids_mutual_observation_and_en_passant_observation() {
    // isardam.out#17: d2-d3 lets the pawns observe each other, d2-d4 lets e4 take en passant.
    let t = texts(&from_fen("7k/8/8/8/4p3/8/3P4/K7 w - - 0 1", with(Condition::Isardam { rex: false })));
    assert!(!t.iter().any(|m| m.starts_with("d2")), "{t:?}");
    // Two rooks on one file with nothing between: the move that unblocks is illegal.
    let t = texts(&from_fen("k2r4/8/8/3N4/8/8/8/K2R4 w - - 0 1", with(Condition::Isardam { rex: false })));
    assert!(!t.iter().any(|m| m.starts_with("Sd5")), "{t:?}");
}

#[test]
fn patrol_captures_only_under_guard() {
    let lone = texts(&from_fen("4k3/8/8/8/3p4/2B5/8/4K3 w - - 0 1", with(Condition::Patrol)));
    assert!(!lone.contains(&"Bc3*d4".to_string()), "{lone:?}");
    let guarded = texts(&from_fen("4k3/8/8/8/3p4/2B5/8/1N2K3 w - - 0 1", with(Condition::Patrol)));
    assert!(guarded.contains(&"Bc3*d4".to_string()), "{guarded:?}");
    // An unguarded rook gives no check.
    let p = from_fen("4k3/8/8/8/8/8/8/K3R3 b - - 0 1", with(Condition::Patrol));
    assert!(!p.royal_attacked(Color::Black));
}

#[test]
fn koeko_moves_end_in_contact_and_so_does_check() {
    // 4_69_to_4_71.reg#6 after 1...Kc5-d6: wK×d7 touches Rd8 (check on Black); bK×d6 touches
    // nothing (no check on White).
    let p = place(&[("d8", W, Kind::Rook), ("d6", W, Kind::King), ("d7", B, Kind::King)], Color::Black, with(Condition::KoeKo));
    assert!(p.royal_attacked(Color::Black));
    assert!(!p.royal_attacked(Color::White));
    let t = texts(&from_fen("7k/8/8/8/8/8/8/R6K w - - 0 1", with(Condition::KoeKo)));
    assert!(t.contains(&"Ra1-g1".to_string()) && !t.contains(&"Ra1-a5".to_string()), "{t:?}");
}

#[test]
fn koeko_quiet_move_next_to_the_king_may_let_a_check_through() {
    // The rook on e8 takes nothing on e1 while nothing touches e1; the knight arriving on
    // d2 opens no line, yet makes the capture of the king legal: so it is no legal move
    // (the quiet-move shortcut, `quiet_safe`, must leave KoeKo to the full test).
    let p = from_fen("4r2k/8/8/8/8/8/8/1N2K3 w - - 0 1", with(Condition::KoeKo));
    assert!(!p.royal_attacked(Color::White));
    let t = texts(&p);
    assert!(!t.contains(&"Sb1-d2".to_string()), "{t:?}");
    // Without the rook, the same move is legal.
    let t = texts(&from_fen("7k/8/8/8/8/8/8/1N2K3 w - - 0 1", with(Condition::KoeKo)));
    assert!(t.contains(&"Sb1-d2".to_string()), "{t:?}");
}

#[test]
fn checkless_checks_must_mate() {
    // 4_73_to_4_75.reg#5: b3*c4 would give a check that does not mate.
    let t = texts(&from_fen("8/8/8/3k4/2p5/1P6/8/7K w - - 0 1", with(Condition::Checkless)));
    assert!(!t.contains(&"b3*c4".to_string()) && t.contains(&"b3-b4".to_string()), "{t:?}");
    let t = texts(&from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", with(Condition::Checkless)));
    assert!(t.contains(&"Ra1-a8".to_string()), "{t:?}");
    let t = texts(&from_fen("6k1/8/8/8/8/8/8/R3K3 w - - 0 1", with(Condition::Checkless)));
    assert!(!t.contains(&"Ra1-a8".to_string()), "{t:?}");
}

#[test]
fn take_and_make() {
    // takemake.ref#4: the pawn takes a black pawn and makes a black pawn's step.
    let t = texts(&from_fen("4k3/p7/1P6/8/8/8/8/4K3 w - - 0 1", with(Condition::TakeMake)));
    assert!(t.contains(&"b6*a7-a6".to_string()) && !t.contains(&"b6*a7".to_string()), "{t:?}");
    // takemake.ref#1: a pawn that makes to its last rank promotes; not to its first rank.
    let t = texts(&from_fen("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", with(Condition::TakeMake)));
    assert!(t.contains(&"e4*d5-d8=Q".to_string()) && !t.contains(&"e4*d5-d1".to_string()), "{t:?}");
    // The capture of a king needs no make: Sb6 checks the walled-in king.
    let p = from_fen("kb6/pp6/1N6/8/8/8/8/4K3 b - - 0 1", with(Condition::TakeMake));
    assert!(p.royal_attacked(Color::Black));
}

#[test]
fn make_and_take() {
    // The rook makes a knight's move (b3 or c2), then takes the knight; written as a capture.
    let t = texts(&from_fen("4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1", with(Condition::MakeTake)));
    assert_eq!(t.iter().filter(|m| *m == "Ra1*c3").count(), 1, "{t:?}");
    // No make (b3 and c2 taken): no capture.
    let t = texts(&from_fen("4k3/8/8/8/8/1P6/n1P5/R3K3 w - - 0 1", with(Condition::MakeTake)));
    assert!(!t.contains(&"Ra1*a2".to_string()), "{t:?}");
}

#[test]
fn annan_piece_moves_as_the_friend_behind_it() {
    // annan.ref#2: a king with its knight behind moves as a knight.
    let t = texts(&from_fen("4k3/8/8/4K3/4N3/8/8/8 w - - 0 1", with(Condition::Annan)));
    assert!(t.contains(&"Ke5-f3".to_string()) && !t.contains(&"Ke5-e6".to_string()), "{t:?}");
}

#[test]
fn haaner_leaves_holes_and_holes_block() {
    let p = from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", with(Condition::Haaner));
    let m = p.legal_moves().iter().copied().find(|m| m.rook.is_some_and(|r| r.0 == 7)).unwrap();
    let q = p.make_move(m);
    assert_eq!(q.holes(), (1 << 4) | (1 << 7));
    // A hole on c1 stops the rook and castling.
    let mut setup = FairySetup {
        pieces: vec![
            (parse_sq("a1").unwrap(), FPiece::new(Owner::White, Kind::Rook)),
            (parse_sq("e1").unwrap(), FPiece::new(Owner::White, Kind::King)),
            (parse_sq("e8").unwrap(), FPiece::new(Owner::Black, Kind::King)),
        ],
        holes: 1 << 2,
        side: Some(Color::White),
        castling: castle::WQ,
        ..FairySetup::default()
    };
    let t = texts(&FairyPosition::from_setup(&setup).unwrap());
    assert!(t.contains(&"Ra1-b1".to_string()) && !t.contains(&"Ra1-d1".to_string()) && !t.contains(&"0-0-0".to_string()), "{t:?}");
    setup.holes = 0;
    let t = texts(&FairyPosition::from_setup(&setup).unwrap());
    assert!(t.contains(&"0-0-0".to_string()), "{t:?}");
}

/// A position from piece lists (`Kd4`, codes in English, `Owner` per list), no conditions.
pub(crate) fn position(white: &[&str], black: &[&str], neutral: &[&str], side: Color) -> FairyPosition {
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

fn sorted_texts(p: &FairyPosition) -> Vec<String> {
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
    assert!(sorted_texts(&after2).contains(&"d4*e3 ep.".to_string()), "{:?}", sorted_texts(&after2));
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
    assert!(sorted_texts(&p).iter().all(|t| t.starts_with("nK")), "{:?}", sorted_texts(&p));
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
    assert!(sorted_texts(&after).contains(&"b5*c6 ep.".to_string()), "{:?}", sorted_texts(&after));
    let m = after.parse_move("b5*c6 ep.").unwrap();
    assert_eq!(after.make_move(m).piece_at(parse_sq("d5").unwrap()), None);
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

#[test]
fn maximummer_measures_castling_as_king_and_rook_steps() {
    // Popeye (v4.104), BlackMaximummer, h~1: `0-0-0` ties with two rook moves of length² 25
    // and beats all shorter ones; with a longest rook move of 16 it is the only move.
    let black = with(Condition::Maximummer(Color::Black));
    let mut t = texts(&from_fen("r3k3/p2ppp1p/2P4r/4P3/8/1P6/PP6/2K5 b q - 0 1", black));
    t.sort();
    assert_eq!(t, ["0-0-0", "Rh6*c6", "Rh6-h1"], "{t:?}");
    let t = texts(&from_fen("r3k3/p2ppp1p/8/4P2r/8/1P6/PP6/2K5 b q - 0 1", black));
    assert_eq!(t, ["0-0-0"], "{t:?}");
    // King side: (2 + 2)² = 16, the same as Ra5*e5 and Ra5-a1.
    let mut t = texts(&from_fen("4k2r/p2ppp1p/8/r3P3/8/1P6/6PP/2K5 b k - 0 1", black));
    t.sort();
    assert_eq!(t, ["0-0", "Ra5*e5", "Ra5-a1"], "{t:?}");
}

/// A position from its pieces with every castling right the squares allow (Popeye's default).
fn place_castling(pieces: &[(&str, Owner, Kind)], side: Color, conditions: Conditions) -> Result<FairyPosition, FairyError> {
    let pieces = pieces.iter().map(|&(s, o, k)| (parse_sq(s).unwrap(), FPiece::new(o, k))).collect();
    FairyPosition::from_setup(&FairySetup { pieces, side: Some(side), castling: 15, conditions, ..FairySetup::default() })
}

fn only(c: Condition) -> Conditions {
    let mut cs = Conditions::none();
    cs.push(c).unwrap();
    cs
}

/// Popeye's TESTS/maketake.inp 2 ("black is in check from se8!", recorded as `the side to play
/// can capture the king`): the knight on e8 makes as the black king, castling with black's
/// rook on a8, and takes on a7 from c8. Without the rook's right (Popeye's `NoCastling a8`)
/// there is no check.
#[test]
fn make_take_checks_by_castling_as_the_victim_king() {
    let pieces = [("a7", B, Kind::King), ("a8", B, Kind::Rook), ("e8", W, Kind::Knight), ("h1", W, Kind::King)];
    let e = place_castling(&pieces, Color::White, only(Condition::MakeTake)).unwrap_err();
    assert_eq!(e, FairyError::OppositeCheck("black"));
    assert!(place(&pieces, Color::White, only(Condition::MakeTake)).royals(Color::Black) != 0);
    // The same rook come to a8 later has no right: Rb8-a8 is legal (Popeye).
    let p = place_castling(
        &[("a7", B, Kind::King), ("b8", B, Kind::Rook), ("e8", W, Kind::Knight), ("h1", W, Kind::King)],
        Color::Black,
        only(Condition::MakeTake),
    )
    .unwrap();
    assert!(texts(&p).contains(&"Rb8-a8".to_string()), "{:?}", texts(&p));
}

/// Popeye's TESTS/maketake.inp 6 ("castling as make", Circe RexInclusive): the queen on e8
/// takes the king on e6 by a king's move, or by castling with either black rook.
#[test]
fn make_take_writes_castling_makes() {
    let mut c = only(Condition::MakeTake);
    c.push(Condition::Rebirth(conditions::Rebirth::Circe { rex: true })).unwrap();
    let p = place_castling(&[("e8", W, Kind::Queen), ("e6", B, Kind::King), ("a8", B, Kind::Rook), ("h8", B, Kind::Rook)], Color::White, c)
        .unwrap();
    let t = texts(&p);
    for m in ["Qe8*e6[+bKe8]", "0-0*e6[+bKe8]", "0-0-0*e6[+bKe8]"] {
        assert_eq!(t.iter().filter(|x| *x == m).count(), 1, "{m}: {t:?}");
    }
}

/// Popeye's TESTS/maketake.inp 3: the white pawns take en passant after a make as the black
/// pawn (h7-h5 is the black pawn's double step).
#[test]
fn make_take_en_passant_from_the_make_square() {
    let p = place(
        &[("a1", W, Kind::King), ("f6", W, Kind::Pawn), ("h7", W, Kind::Pawn), ("g7", B, Kind::Pawn), ("a8", B, Kind::King)],
        Color::Black,
        only(Condition::MakeTake),
    );
    let m = *p.legal_moves().iter().find(|m| m.from == parse_sq("g7").unwrap() && m.to == parse_sq("g5").unwrap()).unwrap();
    let q = p.make_move(m);
    let mut t = texts(&q);
    t.retain(|x| x.contains('*'));
    t.sort();
    assert_eq!(t, ["f6*g6 ep.", "h7*g6 ep."]);
}

/// Circe Take&Make (Popeye, checked move by move): the pawn taken on a2 is reborn by its move
/// to a1, promoted (queen and rook would check White's king: only the knight and the bishop);
/// the knight taken on a1 with no free square to move to cannot be taken.
#[test]
fn circe_take_make_rebirth_moves() {
    let ctm = rebirth(conditions::Rebirth::CirceTakeMake);
    let p = place(&[("h1", W, Kind::King), ("a4", W, Kind::Rook), ("h8", B, Kind::King), ("a2", B, Kind::Pawn)], Color::White, ctm);
    let mut t = texts(&p);
    t.retain(|x| x.contains('*'));
    t.sort();
    assert_eq!(t, ["Ra4*a2[+bPa1=B]", "Ra4*a2[+bPa1=S]"]);
    let p = place(
        &[
            ("h1", W, Kind::King),
            ("a4", W, Kind::Rook),
            ("h8", B, Kind::King),
            ("a1", B, Kind::Knight),
            ("b3", B, Kind::Pawn),
            ("c2", B, Kind::Pawn),
        ],
        Color::White,
        ctm,
    );
    assert!(!texts(&p).iter().any(|x| x.contains('*')), "{:?}", texts(&p));
}

/// AntiCirce Take&Make (Popeye, checked move by move): the capturer is reborn by a move of its
/// own kind from the capture square, a pawn going Black's way (a double step from c7).
#[test]
fn anticirce_take_make_rebirth_moves() {
    let atm = rebirth(conditions::Rebirth::AntiTakeMake);
    let p = place(&[("h1", W, Kind::King), ("b6", W, Kind::Pawn), ("h8", B, Kind::King), ("c7", B, Kind::Knight)], Color::White, atm);
    let mut t = texts(&p);
    t.retain(|x| x.contains('*'));
    t.sort();
    assert_eq!(t, ["b6*c7[wPc7->c5]", "b6*c7[wPc7->c6]"]);
    let p = place(
        &[("h1", W, Kind::King), ("c4", W, Kind::Rook), ("a8", B, Kind::King), ("c7", B, Kind::Pawn), ("b6", B, Kind::Pawn)],
        Color::White,
        atm,
    );
    let n = texts(&p).iter().filter(|x| x.starts_with("Rc4*c7[wRc7->")).count();
    assert_eq!(n, 14);
}

/// The check test that passes the move generator by (`plainly_attacked`, for the conditions
/// that leave check plain) answers as the generator does, on random boards: every kind of
/// piece (orphans it leaves to the generator), neutral pieces, holes, each such condition
/// alone and two together.
#[test]
fn the_plain_check_test_agrees_with_the_generator() {
    use conditions::Rebirth;
    let plain = [
        Condition::Rebirth(Rebirth::Circe { rex: false }),
        Condition::Rebirth(Rebirth::Parrain),
        Condition::Rebirth(Rebirth::CirceTakeMake),
        Condition::Maximummer(Color::White),
        Condition::Andernach,
        Condition::AntiAndernach,
        Condition::Checkless,
        Condition::TakeMake,
        Condition::Haaner,
        Condition::Annan,
        Condition::Madrasi { rex: false },
        Condition::Madrasi { rex: true },
        Condition::Rebirth(Rebirth::Anti { cheylan: false }),
        Condition::Rebirth(Rebirth::Anti { cheylan: true }),
        Condition::Grid,
        Condition::Monochrome,
        Condition::Bichrome,
        Condition::KoeKo,
    ];
    assert!(plain.iter().all(|c| c.plain_checks()));
    let mut rnd = crate::rules::test_random(0x5eed_c4ec);
    let (mut asked, mut checks) = (0, 0);
    for case in 0..30_000 {
        let mut conds = Conditions::none();
        conds.push(plain[case % plain.len()]).unwrap();
        if rnd(2) == 0 {
            // A second one, where the two combine.
            let _ = conds.push(plain[rnd(plain.len() as u64) as usize]);
        }
        // (Where the two do not combine, the position is refused: the case is passed.)
        let Ok(mut p) = FairyPosition::from_setup(&FairySetup { side: Some(Color::White), conditions: conds, ..FairySetup::default() })
        else {
            continue;
        };
        for _ in 0..2 + rnd(14) {
            let s = Square(rnd(64) as u8);
            let owners = if rnd(4) == 0 { 3 } else { 2 };
            let owner = [W, B, Owner::Neutral][rnd(owners) as usize];
            // Kings half the time, so that most boards have royal pieces.
            let kind = if rnd(4) == 0 { Kind::King } else { Kind::ALL[rnd(Kind::ALL.len() as u64) as usize] };
            p.take(s);
            p.put(s, FPiece::new(owner, kind));
        }
        if rnd(5) == 0 {
            p.holes = (0..3).fold(0u64, |h, _| h | 1u64 << rnd(64)) & !p.occupied();
        }
        for c in [Color::White, Color::Black] {
            let royals = p.royals(c);
            if royals == 0 {
                continue;
            }
            if let Some(fast) = p.plainly_attacked(royals, c.opponent()) {
                let slow = p.royal_attacked_generated(royals, c.opponent());
                assert_eq!(fast, slow, "{c:?}'s royals under {:?}: {}", conds, p.to_fen());
                asked += 1;
                checks += fast as u32;
            }
        }
    }
    // Most boards were asked, and both answers came often.
    assert!(asked > 25_000 && checks > 5000 && asked - checks > 5000, "{asked} asked, {checks} in check");
}

/// Orphans without conditions: the plain check test answers for them too (by the walks
/// they borrow, worked out only for the kinds that would take the royal piece) and agrees
/// with the generator on random boards with one to three orphans of each side, chains of
/// orphans lending to each other included; checks given by an orphan come often.
#[test]
fn the_plain_check_test_answers_for_orphans() {
    let mut rnd = crate::rules::test_random(0x0e9_4a75);
    let (mut asked, mut checks, mut by_orphans) = (0, 0, 0);
    for _ in 0..20_000 {
        let Ok(mut p) = FairyPosition::from_setup(&FairySetup { side: Some(Color::White), ..FairySetup::default() }) else {
            panic!("an empty board is a position");
        };
        for owner in [W, B] {
            p.put(Square(rnd(64) as u8), FPiece::new(owner, Kind::King));
            for _ in 0..1 + rnd(3) {
                p.take(Square(rnd(64) as u8));
                p.put(Square(rnd(64) as u8), FPiece::new(owner, Kind::Orphan));
            }
        }
        for _ in 0..2 + rnd(10) {
            let s = Square(rnd(64) as u8);
            let owner = if rnd(8) == 0 { Owner::Neutral } else { [W, B][rnd(2) as usize] };
            let kind = Kind::ALL[rnd(Kind::ALL.len() as u64) as usize];
            p.take(s);
            p.put(s, FPiece::new(owner, kind));
        }
        if rnd(5) == 0 {
            p.holes = (0..3).fold(0u64, |h, _| h | 1u64 << rnd(64)) & !p.occupied();
        }
        for c in [Color::White, Color::Black] {
            let royals = p.royals(c);
            if royals == 0 {
                continue;
            }
            let them = c.opponent();
            let fast = p.plainly_attacked(royals, them).expect("no condition: the plain test answers");
            let slow = p.royal_attacked_generated(royals, them);
            assert_eq!(fast, slow, "{c:?}'s royals: {}", p.to_fen());
            asked += 1;
            checks += fast as u32;
            let orphans = Squares(p.movable(them))
                .filter(|s| p.piece_at(*s).is_some_and(|q| q.kind == Kind::Orphan))
                .fold(0u64, |a, s| a | 1u64 << s.0);
            if p.plain_attackers::<false>(royals, them, p.occupied(), true).is_some_and(|a| a & orphans != 0) {
                by_orphans += 1;
            }
        }
    }
    assert!(
        asked > 30_000 && checks > 5000 && asked - checks > 5000 && by_orphans > 1000,
        "{asked} asked, {checks} in check, {by_orphans} by orphans"
    );
}

/// The capture spans as first written (a lazy table built by the move walker), against which
/// the compile-time [`SPANS`] is checked.
fn spans_by_walker() -> Vec<[u64; 64]> {
    use crate::piece::{Component, images};
    Kind::ALL
        .iter()
        .map(|&k| {
            std::array::from_fn(|i| {
                let (f, r) = fr(Square(i as u8));
                let comps = k.components();
                if comps.is_empty() {
                    return u64::MAX;
                }
                let line = |dx: i32, dy: i32| {
                    let mut b = 0u64;
                    let (mut x, mut y) = (f + dx, r + dy);
                    while let Some(t) = sq(x, y) {
                        b |= 1u64 << t.0;
                        x += dx;
                        y += dy;
                    }
                    b
                };
                let lines = |l: crate::piece::Lines| l.steps().iter().fold(0u64, |b, &(dx, dy)| b | line(dx as i32, dy as i32));
                comps.iter().fold(0u64, |b, c| {
                    b | match *c {
                        Component::Leap(a, c2) | Component::Lame { a, b: c2, .. } => {
                            images(a, c2).iter().filter_map(|&(dx, dy)| sq(f + dx as i32, r + dy as i32)).fold(0u64, |b, t| b | 1u64 << t.0)
                        }
                        Component::Ride(a, c2) | Component::ScreenRide(a, c2) => {
                            images(a, c2).iter().fold(0u64, |b, &(dx, dy)| b | line(dx as i32, dy as i32))
                        }
                        Component::Hop(l) | Component::Screen(l) | Component::LongHop(l) | Component::Locust(l) => lines(l),
                        Component::Kangaroo => lines(crate::piece::Lines::Both),
                        Component::QuietRide(_) => 0,
                        Component::Rose => {
                            let mut b = 0u64;
                            walk::<Chess8x8>(&[Component::Rose], Square(i as u8), 0, 0, &mut |t, _| b |= 1u64 << t.0);
                            b
                        }
                        Component::Deflect(..) | Component::Equihop => u64::MAX,
                    }
                })
            })
        })
        .collect()
}

#[test]
fn spans_are_the_walks_on_an_empty_board() {
    let by_walker = spans_by_walker();
    for k in Kind::ALL {
        for i in 0..64 {
            assert_eq!(SPANS[k.index()][i], by_walker[k.index()][i], "{k:?} on {}", sq_name(Square(i as u8)));
        }
    }
}

#[test]
fn spans_hold_every_capture_on_random_boards() {
    // Every capture a walk makes on a random board takes a piece on its span.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let occ = next() & next();
        for k in Kind::ALL {
            if k.components().is_empty() {
                continue;
            }
            for from in Squares(!occ) {
                let o = occ & !(1u64 << from.0);
                walk::<Chess8x8>(k.components(), from, o, 0, &mut |_, v| {
                    if let Some(v) = v {
                        assert!(
                            SPANS[k.index()][from.index()] & (1u64 << v.0) != 0,
                            "{k:?} from {} takes on {}",
                            sq_name(from),
                            sq_name(v)
                        );
                    }
                });
            }
        }
    }
}

/// The moves judged without being made ([`FairyPosition::quiet_safe`],
/// [`FairyPosition::quiet_checks`]) are those the make-and-test finds, on random boards under
/// each condition that keeps quiet moves plain (alone and two together, with conditions
/// that do not too, which turn the shortcut off): the legal moves, "has a move", every legal
/// move visited, and the checking moves. The pieces are mostly of the kinds the shortcut
/// accepts, so that it is taken on most boards, and sometimes of any kind.
#[test]
fn quiet_moves_judged_unmade_are_those_made_and_tested() {
    use conditions::Rebirth;
    let quiet = [
        Condition::Rebirth(Rebirth::Circe { rex: false }),
        Condition::Rebirth(Rebirth::CirceTakeMake),
        Condition::Maximummer(Color::White),
        Condition::Maximummer(Color::Black),
        Condition::Andernach,
        Condition::TakeMake,
        Condition::Annan,
        Condition::Grid,
        Condition::Monochrome,
        Condition::Bichrome,
        Condition::Checkless,
        // AntiCirce: plain but for the rebirth squares a quiet move leaves.
        Condition::Rebirth(Rebirth::Anti { cheylan: false }),
        Condition::Rebirth(Rebirth::Anti { cheylan: true }),
    ];
    assert!(
        quiet.iter().all(|c| (c.plain_quiet_moves() || c.forbids_checks_only() || matches!(c, Condition::Rebirth(Rebirth::Anti { .. })))
            && c.plain_checks())
    );
    // Haaner among them: the test found that the hole left on a king's square cuts the line
    // of a rook it steps away from. Checkless takes the shortcut for the moves that give no
    // check.
    let others = [Condition::KoeKo, Condition::Madrasi { rex: false }, Condition::Rebirth(Rebirth::Parrain), Condition::Haaner];
    assert!(others.iter().all(|c| !c.plain_quiet_moves() && !c.forbids_checks_only()));
    let line_kinds = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
        Kind::Camel,
        Kind::Zebra,
        Kind::Amazon,
        Kind::Empress,
    ];
    assert!(line_kinds.iter().all(|k| LINE_TAKER[k.index()]));
    let mut rnd = crate::rules::test_random(0x9a1e_7e57);
    let (mut shortcut, mut in_check, mut checking, mut all_checking, mut tested) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for case in 0..48_000 {
        let mut conds = Conditions::none();
        conds.push(quiet[case % quiet.len()]).unwrap();
        match rnd(4) {
            0 => {
                let _ = conds.push(quiet[rnd(quiet.len() as u64) as usize]);
            }
            1 if rnd(3) == 0 => {
                let _ = conds.push(others[rnd(others.len() as u64) as usize]);
            }
            _ => {}
        }
        let side = if rnd(2) == 0 { Color::White } else { Color::Black };
        // One king a side, then pieces.
        let Some(mut p) = board_with_kings(side, conds, &mut rnd) else { continue };
        for _ in 0..3 + rnd(12) {
            let s = Square(rnd(64) as u8);
            if p.kings & (1u64 << s.0) != 0 {
                continue;
            }
            let owner = if rnd(30) == 0 { Owner::Neutral } else { [W, B][rnd(2) as usize] };
            let kind = if rnd(8) == 0 {
                Kind::ALL[rnd(Kind::ALL.len() as u64) as usize]
            } else {
                line_kinds[1 + rnd(line_kinds.len() as u64 - 1) as usize]
            };
            // No pawn on its first or last rank.
            if matches!(kind, Kind::Pawn | Kind::BerolinaPawn) && (s.0 < 8 || s.0 >= 56) {
                continue;
            }
            p.take(s);
            p.put(s, FPiece::new(owner, kind));
        }
        if rnd(6) == 0 {
            p.holes = (0..3).fold(0u64, |h, _| h | 1u64 << rnd(64)) & !p.occupied();
        }
        // The side not to move may not stand in check.
        if p.royal_attacked(side.opponent()) {
            continue;
        }
        p.hash = p.compute_hash();
        // A pass keeps the key exact (it is worked out from the key before it).
        let passed = Game::pass(&p);
        assert_eq!(passed.hash, passed.compute_hash(), "pass: {}", p.to_fen());
        let safe = p.quiet_safe();
        shortcut += (safe.pieces != 0) as u32;
        in_check += (safe.pieces != 0 && safe.targets != u64::MAX) as u32;
        tested += (safe.tested != 0) as u32;
        let (checks, all_check) = assert_unmade_agrees_with_made(&p);
        all_checking += all_check as u32;
        checking += checks as u32;
    }
    // The shortcut was taken on most boards, in check on some, and checks were found; the
    // plain test on the squares after the move judged the moves of some boards' pieces.
    assert!(
        shortcut > 2_500 && in_check > 300 && checking > 1_000 && all_checking > 0 && tested > 1_000,
        "{shortcut} boards with the shortcut, {in_check} in check, {checking} with checks, {all_checking} with checks only, {tested} tested by the plain test"
    );
}

/// An empty board with `side` to move under `conditions` (`None` where they do not
/// combine), then a king of each side on a random square (one king where both fall on one
/// square), for the random-board tests.
fn board_with_kings(side: Color, conditions: Conditions, rnd: &mut impl FnMut(u64) -> u64) -> Option<FairyPosition> {
    let mut p = FairyPosition::from_setup(&FairySetup { side: Some(side), conditions, ..FairySetup::default() }).ok()?;
    for owner in [W, B] {
        let s = Square(rnd(64) as u8);
        p.take(s);
        p.put(s, FPiece::new(owner, Kind::King));
    }
    Some(p)
}

/// The checks of [`quiet_moves_judged_unmade_are_those_made_and_tested`] on one board:
/// the legal moves, "has a move", every legal move visited, the moves that all check, the
/// checking moves, each against the make-and-test. Answers whether some move checks and
/// whether every legal move does.
fn assert_unmade_agrees_with_made(p: &FairyPosition) -> (bool, bool) {
    let side = p.side;
    let mut fast = FMoveList::new();
    p.legal_unchosen(&mut fast);
    let mut pseudo = FMoveList::new();
    p.pseudo_moves(side, None, &mut pseudo);
    let slow: Vec<FMove> = pseudo.iter().copied().filter(|&m| p.is_legal_pseudo(m)).collect();
    let mut fast: Vec<FMove> = fast.to_vec();
    fast.sort();
    let mut slow_sorted = slow.clone();
    slow_sorted.sort();
    assert_eq!(fast, slow_sorted, "legal moves under {:?}: {}", p.conditions, p.to_fen());
    assert_eq!(p.has_move(), !p.legal_moves().is_empty(), "has_move under {:?}: {}", p.conditions, p.to_fen());
    let mut visited = 0usize;
    p.every_move(&mut |_, _| {
        visited += 1;
        true
    });
    let chosen = p.legal_moves().len();
    assert_eq!(visited, chosen, "every_move under {:?}: {}", p.conditions, p.to_fen());
    // Every legal move gives check: some moves seen to give none unmade.
    let all_check = chosen > 0 && p.legal_moves().iter().all(|&m| p.make_move(m).royal_attacked(side.opponent()));
    assert_eq!(p.every_move_checks(&mut |_, _| true), all_check, "every_move_checks under {:?}: {}", p.conditions, p.to_fen());
    let mut checks = Vec::new();
    Game::checking_moves(p, &mut checks);
    checks.sort();
    let mut slow_checks: Vec<FMove> = p.legal_moves().iter().copied().filter(|&m| p.make_move(m).royal_attacked(side.opponent())).collect();
    slow_checks.sort();
    assert_eq!(checks, slow_checks, "checking moves under {:?}: {}", p.conditions, p.to_fen());
    (!checks.is_empty(), all_check)
}

/// [`quiet_moves_judged_unmade_are_those_made_and_tested`] on boards full of hoppers,
/// screen pieces and riders on other lines than the queen's ([`BETWEEN_TAKER`]s: whether
/// they take a royal piece depends on the squares between alone,
/// [`FairyPosition::quiet_safe_between`], [`FairyPosition::quiet_checks`]), without
/// conditions on half of them (Chinese pieces in an orthodox problem) and under one that
/// keeps quiet moves plain, or Madrasi, on the others.
#[test]
fn quiet_moves_judged_unmade_with_hoppers_are_those_made_and_tested() {
    use conditions::Rebirth;
    let quiet = [
        Condition::Rebirth(Rebirth::Circe { rex: false }),
        Condition::Maximummer(Color::White),
        Condition::Andernach,
        Condition::TakeMake,
        Condition::Annan,
        Condition::Grid,
        Condition::Monochrome,
        Condition::Checkless,
        Condition::Madrasi { rex: false },
        Condition::Madrasi { rex: true },
    ];
    let kinds = [
        Kind::Leo,
        Kind::Pao,
        Kind::Vao,
        Kind::Nao,
        Kind::Grasshopper,
        Kind::Lion,
        Kind::RookLion,
        Kind::BishopLion,
        Kind::Kangaroo,
        Kind::Nightrider,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];
    assert!(kinds.iter().all(|k| BETWEEN_TAKER[k.index()]));
    let mut rnd = crate::rules::test_random(0x40b_be75);
    let (mut between, mut in_check, mut hurdles, mut checking, mut madrasi) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for case in 0..24_000 {
        let mut conds = Conditions::none();
        if case % 2 == 1 {
            conds.push(quiet[rnd(quiet.len() as u64) as usize]).unwrap();
        }
        let side = if rnd(2) == 0 { Color::White } else { Color::Black };
        let Some(mut p) = board_with_kings(side, conds, &mut rnd) else { continue };
        for _ in 0..4 + rnd(14) {
            let s = Square(rnd(64) as u8);
            if p.kings & (1u64 << s.0) != 0 {
                continue;
            }
            let owner = [W, B][rnd(2) as usize];
            let kind = if rnd(16) == 0 { Kind::ALL[rnd(Kind::ALL.len() as u64) as usize] } else { kinds[rnd(kinds.len() as u64) as usize] };
            if matches!(kind, Kind::Pawn | Kind::BerolinaPawn) && (s.0 < 8 || s.0 >= 56) {
                continue;
            }
            p.take(s);
            p.put(s, FPiece::new(owner, kind));
        }
        if p.royal_attacked(side.opponent()) {
            continue;
        }
        p.hash = p.compute_hash();
        let safe = p.quiet_safe();
        between += (safe.hurdles != 0 || safe.evasions.is_some()) as u32;
        in_check += safe.evasions.is_some() as u32;
        hurdles += (safe.hurdles != 0) as u32;
        madrasi += (p.conditions.any(prop::PARALYSES) && p.quiet_checks().is_some_and(|q| q.arrivals != 0)) as u32;
        let (checks, _) = assert_unmade_agrees_with_made(&p);
        checking += checks as u32;
    }
    assert!(
        between > 4_000 && in_check > 500 && hurdles > 2_000 && checking > 2_000 && madrasi > 300,
        "{between} boards judged by the hoppers' lines, {in_check} in check, {hurdles} with hurdle squares, {checking} with checks, \
         {madrasi} under Madrasi with squares where a piece arriving may free a checking piece"
    );
}

/// A chain of forced checks that cycles under Checkless chess and Circe Take&Make (found by the
/// random-board test past its 12,000 cases): the black king stands in check from the amazon,
/// and the interpositions and captures that answer it all check, back and forth. Weighed path
/// by path to the depth limit, the mate test did not finish in ten minutes; kept by position
/// and depth, it takes milliseconds. Only the king's steps out of the c-file give no check.
#[test]
fn checkless_cycling_checks_are_weighed_once_per_position() {
    use conditions::Rebirth;
    let mut cs = with(Condition::Checkless);
    cs.push(Condition::Rebirth(Rebirth::CirceTakeMake)).unwrap();
    let p = place(
        &[
            ("a8", B, Kind::Grasshopper),
            ("c8", W, Kind::Bishop),
            ("d8", W, Kind::Vao),
            ("c7", W, Kind::Knight),
            ("c6", W, Kind::Amazon),
            ("h6", B, Kind::Knight),
            ("f5", Owner::Neutral, Kind::Bishop),
            ("d4", W, Kind::Lion),
            ("e4", B, Kind::Empress),
            ("d3", W, Kind::King),
            ("c1", B, Kind::King),
        ],
        Color::Black,
        cs,
    );
    assert_eq!(texts(&p), ["Kc1-b1", "Kc1-b2"]);
}

/// A position from its pieces, put one by one on an empty board: a side may have two kings,
/// which no problem has (its setup is refused) but the random boards of these tests do.
fn place_freely(pieces: &[(&str, Owner, Kind)], side: Color, conditions: Conditions) -> FairyPosition {
    let mut p = FairyPosition::from_setup(&FairySetup { side: Some(side), conditions, ..FairySetup::default() }).unwrap();
    for &(s, o, k) in pieces {
        p.put(parse_sq(s).unwrap(), FPiece::new(o, k));
    }
    p.hash = p.compute_hash();
    p
}

/// Two black kings, each in check from its own piece (under Annan chess the camel on a3 moves
/// as the empress behind it): one move between both checks answers them, so being checked by
/// two pieces does not leave only the royal pieces' moves (found by the random-board test).
#[test]
fn two_royal_pieces_in_check_may_both_be_covered_by_one_move() {
    let p = place_freely(
        &[
            ("a5", W, Kind::King),
            ("b5", W, Kind::Bishop),
            ("f5", B, Kind::Zebra),
            ("a3", W, Kind::Camel),
            ("h3", W, Kind::Zebra),
            ("a2", W, Kind::Empress),
            ("b2", W, Kind::Bishop),
            ("g7", B, Kind::King),
            ("g3", B, Kind::King),
            ("d1", B, Kind::Knight),
        ],
        Color::Black,
        with(Condition::Annan),
    );
    assert_eq!(texts(&p), ["Sd1-c3", "Zf5-c3"]);
}

/// A Take&Make capture leaves both its departure and its victim's square: the king on f4 takes
/// the queen on f3 and makes a queen's move off the f-file, opening it for the queen on f1
/// (found by the random-board test).
#[test]
fn take_make_capture_checks_by_vacating_two_squares_of_a_line() {
    let p = place(
        &[("f7", B, Kind::King), ("f4", W, Kind::King), ("f3", B, Kind::Queen), ("f1", W, Kind::Queen), ("c1", B, Kind::Rook)],
        Color::White,
        with(Condition::TakeMake),
    );
    let mut checks = Vec::new();
    Game::checking_moves(&p, &mut checks);
    let mut slow: Vec<FMove> = p.legal_moves().iter().copied().filter(|&m| p.make_move(m).royal_attacked(Color::Black)).collect();
    checks.sort();
    slow.sort();
    assert!(slow.iter().any(|m| m.from == parse_sq("f4").unwrap() && m.victim == parse_sq("f3")));
    assert_eq!(checks, slow);
}

/// Two white kings under a Maximummer: the chess generator, which knows one king a side, is
/// not used, and the bishop's checks of the second king are found (found by the
/// random-board test).
#[test]
fn maximummer_checks_reach_a_second_king() {
    let p = place_freely(
        &[("c5", B, Kind::Queen), ("a4", B, Kind::Bishop), ("e4", W, Kind::King), ("b2", W, Kind::King), ("g1", B, Kind::King)],
        Color::Black,
        with(Condition::Maximummer(Color::White)),
    );
    let mut checks = Vec::new();
    Game::checking_moves(&p, &mut checks);
    let texts: Vec<String> = checks.iter().map(|&m| p.move_text(m, crate::piece::Lang::En)).collect();
    assert!(texts.contains(&"Ba4-c2".to_string()) && texts.contains(&"Ba4-c6".to_string()), "{texts:?}");
}

/// The property bits `Conditions` keeps as conditions are pushed answer "some condition has
/// it" and "every condition has it" as asking each condition in the list does, for every
/// condition alone, every pair and some triples (and, without conditions, "every" holds).
#[test]
fn condition_property_bits_agree_with_the_list() {
    use conditions::prop;
    let all = every_condition();
    type Ask = fn(&Condition) -> bool;
    let props: [(u16, Ask); 14] = [
        (prop::NEVER_EMPTIES_CHOICE, |c| c.never_empties_choice()),
        (prop::CHOOSES, |c| c.chooses()),
        (prop::SHAPES_MOVES, |c| c.shapes_moves()),
        (prop::SHAPES_QUIET_MOVES, |c| c.shapes_quiet_moves()),
        (prop::PLAIN_CHECKS, |c| c.plain_checks()),
        (prop::PLAIN_QUIET_MOVES, |c| c.plain_quiet_moves()),
        (prop::FORBIDS_CHECKS_ONLY, |c| c.forbids_checks_only()),
        (prop::FILTERS_MOVES, |c| c.filters_moves()),
        (prop::PARALYSES, |c| c.paralyses()),
        (prop::LENDS_WALKS, |c| c.lends_walks()),
        (prop::PLAIN_CAPTURES, |c| Hooks::plain_captures(c)),
        (prop::ADDS_MOVES, |c| c.adds_moves()),
        (prop::EXPANDS_MOVES, |c| c.expands_moves()),
        (prop::LIMITS_CAPTURES, |c| c.limits_captures()),
    ];
    let mut sets: Vec<Vec<Condition>> = vec![vec![]];
    for (i, a) in all.iter().enumerate() {
        sets.push(vec![*a]);
        for (j, b) in all.iter().enumerate().skip(i + 1) {
            sets.push(vec![*a, *b]);
            sets.push(vec![*b, *a, all[(i + j) % all.len()]]);
        }
    }
    let (mut some_true, mut all_false) = (0, 0);
    for set in &sets {
        let mut cs = Conditions::none();
        for c in set {
            let _ = cs.push(*c);
        }
        for &(bit, ask) in &props {
            assert_eq!(cs.any(bit), cs.iter().any(ask), "any {bit:#x} under {set:?}");
            assert_eq!(cs.all(bit), cs.iter().all(ask), "all {bit:#x} under {set:?}");
            some_true += cs.any(bit) as u32;
            all_false += !cs.all(bit) as u32;
        }
    }
    // Properties were both found and found lacking.
    assert!(some_true > 0 && all_false > 0);
}

/// Every condition, in each of its forms.
fn every_condition() -> [Condition; 26] {
    [
        Condition::Rebirth(conditions::Rebirth::Circe { rex: false }),
        Condition::Rebirth(conditions::Rebirth::Circe { rex: true }),
        Condition::Rebirth(conditions::Rebirth::Anti { cheylan: false }),
        Condition::Rebirth(conditions::Rebirth::Anti { cheylan: true }),
        Condition::Rebirth(conditions::Rebirth::Mars),
        Condition::Rebirth(conditions::Rebirth::Parrain),
        Condition::Rebirth(conditions::Rebirth::CirceTakeMake),
        Condition::Rebirth(conditions::Rebirth::AntiTakeMake),
        Condition::Madrasi { rex: false },
        Condition::Madrasi { rex: true },
        Condition::Maximummer(Color::White),
        Condition::Maximummer(Color::Black),
        Condition::Grid,
        Condition::Monochrome,
        Condition::Bichrome,
        Condition::Andernach,
        Condition::AntiAndernach,
        Condition::Isardam { rex: false },
        Condition::Isardam { rex: true },
        Condition::Patrol,
        Condition::KoeKo,
        Condition::Checkless,
        Condition::TakeMake,
        Condition::MakeTake,
        Condition::Annan,
        Condition::Haaner,
    ]
}

/// The defences tried one at a time ([`Game::candidate_moves`], [`Game::play_candidate`])
/// and the killers tried in another position ([`Game::try_play`]) are exactly the legal
/// moves, in their order, and lead to the positions [`Game::play`] makes (keys included),
/// on random boards under each condition, alone and with a second one (a choosing
/// condition among them: then the candidates are the legal moves). The killers come from
/// the same board with one piece fewer, and from the board itself.
#[test]
fn candidate_and_killer_moves_are_the_legal_moves() {
    let all = every_condition();
    let mut rnd = crate::rules::test_random(0xc0de_4a11);
    let (mut illegal_candidates, mut killers_legal, mut killers_refused) = (0u32, 0u32, 0u32);
    for case in 0..6_000 {
        let mut conds = Conditions::none();
        conds.push(all[case % all.len()]).unwrap();
        if rnd(2) == 0 {
            let _ = conds.push(all[rnd(all.len() as u64) as usize]);
        }
        let side = if rnd(2) == 0 { Color::White } else { Color::Black };
        let Ok(mut p) = FairyPosition::from_setup(&FairySetup { side: Some(side), conditions: conds, ..FairySetup::default() }) else {
            continue;
        };
        for _ in 0..3 + rnd(12) {
            let s = Square(rnd(64) as u8);
            let owner = [W, B, Owner::Neutral][if rnd(6) == 0 { 2 } else { rnd(2) } as usize];
            let kind = if rnd(4) == 0 { Kind::King } else { Kind::ALL[rnd(Kind::ALL.len() as u64) as usize] };
            p.take(s);
            p.put(s, FPiece::new(owner, kind));
        }
        p.hash = p.compute_hash();
        let mut legal = Vec::new();
        Game::moves(&p, &mut legal);
        let mut candidates = Vec::new();
        let hint = Game::candidate_moves(&p, &mut candidates);
        let mut played = Vec::new();
        for &m in &candidates {
            match Game::play_candidate(&p, m, hint) {
                Some(q) => {
                    let r = Game::play(&p, m);
                    assert!(q == r && Game::key(&q) == Game::key(&r), "{m:?} under {conds:?}: {}", p.to_fen());
                    played.push(m);
                }
                None => illegal_candidates += 1,
            }
        }
        assert_eq!(played, legal, "candidates under {conds:?}: {}", p.to_fen());
        // Killers: this board's moves and those of the board with one of its pieces gone.
        let mut fewer = p;
        if let Some(s) = Squares(p.occupied()).nth(rnd(p.occupied().count_ones().max(1) as u64) as usize) {
            fewer.take(s);
        }
        fewer.hash = fewer.compute_hash();
        let mut others = Vec::new();
        Game::moves(&fewer, &mut others);
        for &m in others.iter().chain(&legal) {
            match Game::try_play(&p, m) {
                Some(q) => {
                    assert!(legal.contains(&m), "{m:?} taken under {conds:?}: {}", p.to_fen());
                    assert!(q == Game::play(&p, m) && Game::key(&q) == Game::key(&Game::play(&p, m)));
                    killers_legal += 1;
                }
                None => {
                    assert!(!legal.contains(&m), "{m:?} refused under {conds:?}: {}", p.to_fen());
                    killers_refused += 1;
                }
            }
        }
    }
    // Candidates found illegal, and killers both taken and refused, came often.
    assert!(
        illegal_candidates > 1000 && killers_legal > 1000 && killers_refused > 1000,
        "{illegal_candidates} {killers_legal} {killers_refused}"
    );
}

/// [`Game::try_play`] on boards that play as chess under the Maximummers (orthodox pieces,
/// one king a side: [`FairyPosition::chess_board`]), where a killer is tested on the chess
/// board: taken exactly when it is among the legal moves, which are the longest under the
/// side's own Maximummer, and leading to the position (and key) [`Game::play`] makes.
#[test]
fn killers_under_the_maximummers_are_the_longest_legal_moves() {
    let orthodox = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn];
    let mut rnd = crate::rules::test_random(0x3a41_0b1e);
    let (mut taken, mut refused, mut shorter) = (0u32, 0u32, 0u32);
    for case in 0..12_000 {
        let mut conds = Conditions::none();
        match case % 3 {
            0 => conds.push(Condition::Maximummer(Color::White)).unwrap(),
            1 => conds.push(Condition::Maximummer(Color::Black)).unwrap(),
            _ => {
                conds.push(Condition::Maximummer(Color::White)).unwrap();
                conds.push(Condition::Maximummer(Color::Black)).unwrap();
            }
        }
        let side = if rnd(2) == 0 { Color::White } else { Color::Black };
        let Some(mut p) = board_with_kings(side, conds, &mut rnd) else { continue };
        for _ in 0..2 + rnd(12) {
            let s = Square(rnd(64) as u8);
            let kind = orthodox[rnd(orthodox.len() as u64) as usize];
            if p.kings & (1u64 << s.0) != 0 || (kind == Kind::Pawn && (s.0 < 8 || s.0 >= 56)) {
                continue;
            }
            p.take(s);
            p.put(s, FPiece::new([W, B][rnd(2) as usize], kind));
        }
        if p.royal_attacked(side.opponent()) || p.chess_board().is_none() {
            continue;
        }
        p.hash = p.compute_hash();
        let mut legal = Vec::new();
        Game::moves(&p, &mut legal);
        // Killers: the moves of the board without the side's Maximummer, and of the board
        // with one piece fewer.
        let mut all = Vec::new();
        let mut free = p;
        free.conditions = Conditions::none();
        Game::moves(&free, &mut all);
        let mut fewer = p;
        if let Some(s) = Squares(p.occupied() & !p.kings).nth(rnd(p.occupied().count_ones().max(1) as u64) as usize) {
            fewer.take(s);
        }
        fewer.hash = fewer.compute_hash();
        Game::moves(&fewer, &mut all);
        for &m in &all {
            match Game::try_play(&p, m) {
                Some(q) => {
                    assert!(legal.contains(&m), "{m:?} taken under {conds:?}: {}", p.to_fen());
                    let r = Game::play(&p, m);
                    assert!(q == r && Game::key(&q) == Game::key(&r), "{m:?} under {conds:?}: {}", p.to_fen());
                    taken += 1;
                }
                None => {
                    assert!(!legal.contains(&m), "{m:?} refused under {conds:?}: {}", p.to_fen());
                    refused += 1;
                    shorter += free.legal_moves().contains(&m) as u32;
                }
            }
        }
    }
    assert!(taken > 20_000 && refused > 2_500 && shorter > 400, "{taken} taken, {refused} refused, {shorter} legal but too short");
}

/// Madrasi with Circe Take&Make (found by the random-board test at 400,000 boards): a
/// capture's victim reborn between a piece and the enemy piece of its kind that paralyses
/// it frees it, so that the capture gives check; the checking moves are found by making
/// every move there ([`FairyPosition::quiet_checks`] declines).
#[test]
fn madrasi_checking_moves_under_a_rebirth_rule_are_made_and_tested() {
    use conditions::Rebirth;
    let mut cs = with(Condition::Rebirth(Rebirth::CirceTakeMake));
    cs.push(Condition::Madrasi { rex: false }).unwrap();
    let p = place_freely(
        &[
            ("e8", B, Kind::Queen),
            ("a7", B, Kind::Zebra),
            ("e5", W, Kind::Queen),
            ("h5", B, Kind::King),
            ("b4", B, Kind::Amazon),
            ("c4", B, Kind::Amazon),
            ("d4", B, Kind::Rook),
            ("c3", W, Kind::Empress),
            ("a2", B, Kind::Bishop),
            ("c2", W, Kind::Empress),
            ("f1", W, Kind::King),
            ("g1", B, Kind::Bishop),
        ],
        Color::White,
        cs,
    );
    assert!(p.quiet_checks().is_none());
    let (checks, _) = assert_unmade_agrees_with_made(&p);
    assert!(checks);
}

/// Chess under the Maximummers on the chess board ([`MaximummerChess`]: chess's generator,
/// `Position::longest_moves`, `Move::length2`) against the fairy position's own machinery
/// (its generator and the Maximummer's choice, `legal_chosen`, with the fairy measure) on
/// the positions of random games from the perft suite's positions (castling, en passant and
/// promotions included), with the Maximummer for White, Black or both: the chosen moves,
/// "has a move", the checking moves, the killer test for every legal chess move, the
/// positions and keys the moves lead to, and the marks.
#[test]
fn maximummer_chess_agrees_with_the_fairy_rules() {
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    let mut rnd = crate::rules::test_random(0x6d61_7869);
    let (mut positions, mut checks, mut refused, mut castlings, mut mates) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for game in 0..500 {
        let mut pos = Position::from_fen(starts[game % starts.len()]).unwrap();
        for _ in 0..60 {
            let conds = match rnd(3) {
                0 => with(Condition::Maximummer(Color::White)),
                1 => with(Condition::Maximummer(Color::Black)),
                _ => {
                    let mut cs = with(Condition::Maximummer(Color::White));
                    cs.push(Condition::Maximummer(Color::Black)).unwrap();
                    cs
                }
            };
            let f = from_fen(&pos.to_fen(), conds);
            let g = MaximummerChess::of(&f).expect("a chess board under the Maximummers");
            let context = format!("{conds:?}: {}", pos.to_fen());
            positions += 1;
            // The chosen moves.
            let mut fast = Vec::new();
            Game::moves(&g, &mut fast);
            let mut chosen: Vec<FMove> = fast.iter().map(|&m| fairy_move(g.position(), m)).collect();
            chosen.sort();
            let mut slow = FMoveList::new();
            f.legal_chosen(&mut slow);
            let mut slow = slow.to_vec();
            slow.sort();
            assert_eq!(chosen, slow, "moves under {context}");
            for lang in [Lang::En, Lang::De, Lang::Fr] {
                for &m in &fast {
                    let text = Game::move_text(&f, fairy_move(g.position(), m), lang);
                    assert_eq!(Game::move_text(&g, m, lang), text, "{m:?} under {context}");
                }
            }
            castlings += fast.iter().filter(|m| matches!(m, crate::position::Move::Castle { .. })).count() as u32;
            assert_eq!(Game::has_move(&g), !slow.is_empty(), "has_move under {context}");
            // The checking moves among them.
            let mut chk = Vec::new();
            Game::checking_moves(&g, &mut chk);
            let mut chk: Vec<FMove> = chk.iter().map(|&m| fairy_move(g.position(), m)).collect();
            chk.sort();
            let made: Vec<FMove> = slow.iter().copied().filter(|&m| f.make_move(m).royal_attacked(f.side.opponent())).collect();
            assert_eq!(chk, made, "checking moves under {context}");
            checks += chk.len() as u32;
            // Every legal chess move as a killer; the positions the chosen ones lead to.
            for &m in pos.legal_moves().iter() {
                match Game::try_play(&g, m) {
                    Some(q) => {
                        assert!(fast.contains(&m), "{m:?} taken under {context}");
                        let r = MaximummerChess::of(&f.make_move(fairy_move(g.position(), m))).expect("still a chess board");
                        // (The move counters aside.)
                        let board = |p: &MaximummerChess| p.position().to_fen().split(' ').take(4).collect::<Vec<_>>().join(" ");
                        assert_eq!(board(&q), board(&r), "{m:?} under {context}");
                        assert_eq!(Game::key(&q), Game::key(&r), "key after {m:?} under {context}");
                        assert_eq!(
                            Game::mark(&q),
                            Game::mark(&f.make_move(fairy_move(g.position(), m))),
                            "mark after {m:?} under {context}"
                        );
                        mates += (Game::mark(&q) == "#") as u32;
                    }
                    None => {
                        assert!(!fast.contains(&m), "{m:?} refused under {context}");
                        refused += 1;
                    }
                }
            }
            // On with a random chess move (the Maximummer's choice would end most games in
            // a few moves).
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos = pos.play(legal[rnd(legal.len() as u64) as usize]);
        }
    }
    assert!(
        positions > 20_000 && checks > 2_000 && refused > 200_000 && castlings > 50 && mates > 0,
        "{positions} positions, {checks} checks, {refused} refused, {castlings} castlings, {mates} mates"
    );
}
