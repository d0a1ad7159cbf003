//! Unit tests of the Xiangqi rule system.

use super::movegen::{cannon_targets, chariot_targets, elephant_targets, horse_targets};
use super::tables::TABLES;
use super::*;
use crate::rules::test_random;

fn sq(name: &str) -> Square {
    match Square::parse::<Xiangqi9x10>(name) {
        Some(s) => s,
        None => panic!("bad point {name}"),
    }
}

fn mv(text: &str) -> XMove {
    XMove { from: sq(&text[..2]), to: sq(&text[2..]) }
}

fn pos(fen: &str) -> XiangqiPosition {
    XiangqiPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves found the slow way: every target of every piece, kept when the mover's
/// general is not attacked afterwards (the flying general included, through `in_check`).
fn slow_moves(p: &XiangqiPosition) -> Vec<XMove> {
    let us = p.side.index();
    let own = p.by_color[us];
    let enemy = p.by_color[us ^ 1];
    let occ = own | enemy;
    let mut out = Vec::new();
    for (s, c, k) in p.pieces() {
        if c != p.side {
            continue;
        }
        let from = s.index();
        let targets = match k {
            XiangqiKind::General => TABLES.general[us][from],
            XiangqiKind::Advisor => TABLES.advisor[us][from],
            XiangqiKind::Elephant => elephant_targets(us, from, occ),
            XiangqiKind::Horse => horse_targets(from, occ),
            XiangqiKind::Chariot => chariot_targets(from, occ),
            XiangqiKind::Cannon => cannon_targets(from, occ, enemy),
            XiangqiKind::Soldier => TABLES.soldier[us][from],
        } & !own;
        for to in 0..90u8 {
            if targets >> to & 1 != 0 {
                let m = XMove { from: s, to: Square(to) };
                if !p.play(m).null_move().in_check() {
                    out.push(m);
                }
            }
        }
    }
    out.sort();
    out
}

const FENS: [&str; 6] = [
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
];

#[test]
fn start_position() {
    let p = XiangqiPosition::startpos();
    assert_eq!(p.to_fen(), START_FEN);
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.piece_at(sq("e0")), Some((Color::White, XiangqiKind::General)));
    assert_eq!(p.piece_at(sq("b7")), Some((Color::Black, XiangqiKind::Cannon)));
    assert_eq!(p.piece_at(sq("e5")), None);
    assert_eq!(p.pieces().len(), 32);
    assert_eq!(p.legal_moves().len(), 44);
    assert!(!p.in_check());
    assert!(p.has_legal_move());
    assert_eq!(p.perft(1), 44);
    assert_eq!(p.perft(2), 1920);
    assert_eq!(p.perft(3), 79666);
    assert_eq!(p.perft_full(3), 79666);
    let d = p.divide(2);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 1920);
}

#[test]
fn position_is_small() {
    assert!(std::mem::size_of::<XiangqiPosition>() <= 256);
}

#[test]
fn fen_forms() {
    let short = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
    assert_eq!(short, XiangqiPosition::startpos());
    let r = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r");
    assert_eq!(r, short);
    let e = pos("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w");
    assert_eq!(e, short);
    let b = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(b.side_to_move(), Color::Black);
    assert_ne!(b.hash(), short.hash());
    assert_eq!(b.hash(), short.null_move().hash());
    assert_eq!(b.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    for fen in FENS {
        assert_eq!(pos(fen).to_fen(), fen);
    }
}

#[test]
fn fen_errors() {
    use XiangqiError as E;
    let err = |fen: &str| XiangqiPosition::from_fen(fen).err();
    assert_eq!(err(""), Some(E::Empty));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR"), Some(E::RankCount(9)));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN"), Some(E::FileCount { rank: 0, points: 8 }));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR"), Some(E::FileCount { rank: 0, points: 10 }));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ"), Some(E::UnknownLetter('Q')));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"), Some(E::BadSide("x".into())));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ"), Some(E::BadField("KQ".into())));
    assert_eq!(err("rnbaaabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), Some(E::GeneralCount { side: "Black", count: 0 }));
    assert_eq!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR"), Some(E::GeneralCount { side: "Red", count: 2 }));
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/K8 w"), Some(E::GeneralOutsidePalace { side: "Red", point: "a0".into() }));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), Some(E::GeneralsFacing));
    // Red to move, Black's general attacked by the red chariot: not a legal position.
    assert!(err("4k4/9/9/9/9/9/9/9/9/3K1R3 w").is_none());
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/3K4R w"), None);
    assert_eq!(err("3k4R/9/9/9/9/9/9/9/9/4K4 w"), Some(E::OppositeCheck("Black")));
    let pieces = [
        (sq("e0"), Color::White, XiangqiKind::General),
        (sq("e0"), Color::White, XiangqiKind::Chariot),
        (sq("d9"), Color::Black, XiangqiKind::General),
    ];
    assert_eq!(XiangqiPosition::from_pieces(&pieces, Color::White).err(), Some(E::Occupied("e0".into())));
    let pieces = [(Square(90), Color::White, XiangqiKind::General)];
    assert_eq!(XiangqiPosition::from_pieces(&pieces, Color::White).err(), Some(E::OffBoard(90)));
    // Twenty chariots a side: too many moves for the list.
    let mut many = vec![(sq("e0"), Color::White, XiangqiKind::General), (sq("d9"), Color::Black, XiangqiKind::General)];
    for i in 0..16u8 {
        many.push((Square(27 + i), Color::White, XiangqiKind::Chariot));
    }
    assert!(matches!(XiangqiPosition::from_pieces(&many, Color::White), Err(E::TooRich { side: "Red", .. })));
}

#[test]
fn pieces_round_trip() {
    for fen in FENS {
        let p = pos(fen);
        let q = XiangqiPosition::from_pieces(&p.pieces(), p.side_to_move()).unwrap();
        assert_eq!(p, q);
    }
}

#[test]
fn moves_of_each_piece() {
    // Horse blocked by its leg, elephant by its eye, cannon screens, flying general.
    let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w");
    let mut ms: Vec<String> = p.legal_moves().iter().map(|&m| p.iccs(m)).collect();
    ms.sort();
    // e0d0 would face the general on d9: illegal.
    assert_eq!(ms, ["e0e1", "e0f0"]);
    // A cannon captures over exactly one screen.
    let p = pos("3k5/9/9/9/4p4/9/4P4/9/4C4/5K3 w");
    let caps: Vec<String> = p.legal_moves().iter().filter(|m| p.piece_at(m.to).is_some()).map(|&m| p.iccs(m)).collect();
    assert_eq!(caps, ["e1e5"]);
    // A horse with its leg blocked.
    let p = pos("3k5/9/9/9/9/9/9/9/4P4/4NK3 w");
    let horse: Vec<String> = p.legal_moves().iter().filter(|m| m.from == sq("e0")).map(|&m| p.iccs(m)).collect();
    // The leg e1 blocks d2 and f2, the general on the leg f0 blocks g1: c1 only.
    assert_eq!(horse, ["e0c1"]);
    // Soldiers: forward only before the river, sideways after.
    let p = pos("3k5/9/9/9/4P4/9/P8/9/9/5K3 w");
    let mut soldier: Vec<String> = p.legal_moves().iter().filter(|m| m.from != sq("f0")).map(|&m| p.iccs(m)).collect();
    soldier.sort();
    assert_eq!(soldier, ["a3a4", "e5d5", "e5e6", "e5f5"]);
}

#[test]
fn no_legal_move_is_a_loss_even_without_check() {
    // Black's general on d9 cannot move: e9 faces Red's general on the e file, d8 is held by
    // the red chariot on a8... and Black is not in check.
    let p = pos("3k5/R8/9/9/9/9/9/9/9/4K4 b");
    assert!(!p.in_check());
    assert!(!p.has_legal_move());
    assert_eq!(p.legal_moves().len(), 0);
    assert!(Game::goal_reached(&p, Goal::Mate));
    assert!(!Game::goal_reached(&p, Goal::Stalemate));
    assert!(!Game::goal_reached(&p, Goal::DoubleStalemate));
    assert!(!Game::goal_reached(&p, Goal::Check));
    // The start position: no goal.
    let s = XiangqiPosition::startpos();
    assert!(!Game::goal_reached(&s, Goal::Mate));
}

#[test]
fn checks_of_each_attacker() {
    // Chariot, cannon (with one screen), horse (leg free), soldier, flying general.
    assert!(!pos("3k5/9/9/9/9/9/9/9/9/R3K4 b").null_move().in_check());
    assert!(pos("3k5/9/9/9/9/9/9/9/9/3RK4 b").in_check());
    assert!(pos("3k5/9/9/3P5/9/9/9/3C5/9/4K4 b").in_check());
    assert!(!pos("3k5/9/9/3P5/3P5/9/9/3C5/9/4K4 b").in_check());
    assert!(pos("3k5/9/4N4/9/9/9/9/9/9/4K4 b").in_check());
    assert!(!pos("3k5/4P4/4N4/9/9/9/9/9/9/5K3 b").in_check());
    assert!(pos("3k5/3P5/9/9/9/9/9/9/9/4K4 b").in_check());
    assert!(pos("3k5/9/9/9/9/9/9/9/9/4K4 b").null_move().play(mv("e0d0")).in_check());
}

#[test]
fn moves_agree_with_the_slow_generator_on_random_games() {
    let mut rnd = test_random(7);
    for fen in FENS {
        for _game in 0..30 {
            let mut p = pos(fen);
            for _ply in 0..80 {
                let mut fast: Vec<XMove> = p.legal_moves().to_vec();
                fast.sort();
                assert_eq!(fast, slow_moves(&p), "{}", p.to_fen());
                assert_eq!(p.count_legal() as usize, fast.len());
                assert_eq!(p.has_legal_move(), !fast.is_empty());
                assert_eq!(p.hash(), p.hash_from_scratch());
                if fast.is_empty() {
                    break;
                }
                let m = fast[rnd(fast.len() as u64) as usize];
                assert_eq!(p.child_key(m), p.play(m).hash());
                assert_eq!(p.gives_check(m), p.play(m).in_check());
                p = p.play(m);
            }
        }
    }
}

#[test]
fn iccs_and_wxf() {
    let p = XiangqiPosition::startpos();
    for (iccs, wxf) in [
        ("h2e2", "C2.5"),
        ("h0g2", "H2+3"),
        ("b0c2", "H8+7"),
        ("a0a2", "R9+2"),
        ("e3e4", "P5+1"),
        ("f0e1", "A4+5"),
        ("c0e2", "E7+5"),
        ("e0e1", "K5+1"),
    ] {
        let m = mv(iccs);
        assert_eq!(p.iccs(m), iccs);
        assert_eq!(p.wxf(m), wxf, "{iccs}");
        assert_eq!(p.parse_move(iccs), Some(m));
        assert_eq!(p.parse_move(wxf), Some(m), "{wxf}");
    }
    assert_eq!(p.parse_move("h2-e2"), Some(mv("h2e2")));
    assert_eq!(p.parse_move("C2=5"), Some(mv("h2e2")));
    assert_eq!(p.parse_move("h2+3"), Some(mv("h0g2")));
    assert_eq!(p.parse_move("E7+5"), Some(mv("c0e2")));
    assert_eq!(p.parse_move("h2e3"), None);
    assert_eq!(p.parse_move("C2.9"), None);
    assert_eq!(p.parse_move("xyz"), None);
    assert_eq!(p.parse_move(""), None);
    // Black counts its files from its own right (file a is Black's 1).
    let b = p.play(mv("h2e2"));
    for (iccs, wxf) in [("b7e7", "C2.5"), ("b9c7", "H2+3"), ("h7e7", "C8.5"), ("h9g7", "H8+7"), ("i9i8", "R9+1"), ("a6a5", "P1+1")] {
        let m = mv(iccs);
        assert_eq!(b.wxf(m), wxf, "{iccs}");
        assert_eq!(b.parse_move(wxf), Some(m), "{wxf}");
    }
}

#[test]
fn wxf_tandem_pieces() {
    // Two red chariots on the e file: e5 is the front one.
    let p = pos("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w");
    assert_eq!(p.wxf(mv("e5e4")), "R+-1");
    assert_eq!(p.wxf(mv("e5c5")), "R+.7");
    assert_eq!(p.wxf(mv("e2c2")), "R-.7");
    assert_eq!(p.wxf(mv("e2e1")), "R--1");
    assert_eq!(p.parse_move("R+.7"), Some(mv("e5c5")));
    // Black: the front chariot is the lower one.
    let p = pos("3k5/9/4r4/9/9/4r4/9/9/9/5K3 b");
    assert_eq!(p.wxf(mv("e4d4")), "R+.4");
    assert_eq!(p.wxf(mv("e7e8")), "R--1");
    // Three soldiers on the g file (Red's 3rd), crossed the river.
    let p = pos("3k5/6P2/6P2/6P2/9/9/9/9/9/5K3 w");
    assert_eq!(p.wxf(mv("g8f8")), "P+.4");
    assert_eq!(p.wxf(mv("g7f7")), "P3.4");
    assert_eq!(p.wxf(mv("g6f6")), "P-.4");
    // Four and five.
    let p = pos("3k5/6P2/6P2/6P2/6P2/9/9/9/9/5K3 w");
    assert_eq!(p.wxf(mv("g8f8")), "++.4");
    assert_eq!(p.wxf(mv("g7f7")), "P+.4");
    assert_eq!(p.wxf(mv("g6f6")), "P-.4");
    assert_eq!(p.wxf(mv("g5f5")), "--.4");
    assert_eq!(p.parse_move("--.4"), Some(mv("g5f5")));
    let p = pos("3k5/6P2/6P2/6P2/6P2/6P2/9/9/9/5K3 w");
    assert_eq!(p.wxf(mv("g8f8")), "++.4");
    assert_eq!(p.wxf(mv("g7f7")), "P+.4");
    assert_eq!(p.wxf(mv("g6f6")), "P3.4");
    assert_eq!(p.wxf(mv("g5f5")), "P-.4");
    // Tandem soldiers on two files: the file digit replaces the letter.
    let p = pos("3k5/2P3P2/2P3P2/6P2/9/9/9/9/9/5K3 w");
    assert_eq!(p.wxf(mv("g8f8")), "3+.4");
    assert_eq!(p.wxf(mv("g7f7")), "33.4");
    assert_eq!(p.wxf(mv("g6f6")), "3-.4");
    assert_eq!(p.wxf(mv("c8d8")), "7+.6");
    assert_eq!(p.wxf(mv("c7d7")), "7-.6");
    assert_eq!(p.parse_move("33.4"), Some(mv("g7f7")));
    // Every legal move of many positions reads back from its WXF text.
    let mut rnd = test_random(3);
    for fen in FENS {
        let mut p = pos(fen);
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                assert_eq!(p.parse_move(&p.wxf(m)), Some(m), "{} {}", p.to_fen(), p.wxf(m));
                assert_eq!(p.parse_move(&p.iccs(m)), Some(m));
            }
            p = p.play(moves[rnd(moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn game_trait() {
    let p = XiangqiPosition::startpos();
    let mut v = Vec::new();
    Game::moves(&p, &mut v);
    assert_eq!(v.len(), 44);
    assert_eq!(Game::move_text(&p, mv("h2e2"), Lang::Fr), "h2e2");
    assert_eq!(Game::try_play(&p, mv("h2e2")), Some(p.play(mv("h2e2"))));
    assert_eq!(Game::try_play(&p, mv("h2e3")), None);
    assert_eq!(Game::child_key(&p, mv("h2e2")), Some(p.play(mv("h2e2")).hash()));
    assert_eq!(Game::pass(&p).to_move(), Color::Black);
    // The chariot checks along the file and along the back rank.
    let q = pos("4k4/9/9/9/9/9/9/9/9/3K1R3 w");
    let mut checks = Vec::new();
    Game::checking_moves(&q, &mut checks);
    let texts: Vec<String> = checks.iter().map(|&m| q.iccs(m)).collect();
    let mut texts = texts;
    texts.sort();
    assert_eq!(texts, ["f0e0", "f0f9"]);
    assert!(checks.iter().all(|&m| q.gives_check(m)));
}
