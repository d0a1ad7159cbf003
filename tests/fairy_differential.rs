//! The fairy rule system (`feerie::rules::fairy`) against the reference of
//! `tests/fairy_reference/` on random positions — kings and a few random pieces (orthodox and
//! fairy), either side to move, sometimes castling rights — under each condition alone and
//! under pairs of conditions. Compared: the legal moves (from, to, victim, promotion, castling
//! rook), the position after each of them (pieces, side, castling rights, en passant), and
//! the same one ply deeper; plus perft 2 on fixed positions.

mod fairy_reference;

use fairy_reference::{Board, Cond, RMove, Sq, other, promotion_choices};
use feerie::geometry::Square;
use feerie::piece::{Color, Kind, Lang};
use feerie::rules::Game;
use feerie::rules::fairy::conditions::Rebirth;
use feerie::rules::fairy::{Condition, Conditions, FMove, FPiece, FairyError, FairyPosition, FairySetup, Owner};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn fr(s: Square) -> Sq {
    ((s.0 % 8) as i32, (s.0 / 8) as i32)
}

fn name((f, r): Sq) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn engine_condition(c: Cond) -> Condition {
    match c {
        Cond::Circe(rex) => Condition::Rebirth(Rebirth::Circe { rex }),
        Cond::AntiCirce(cheylan) => Condition::Rebirth(Rebirth::Anti { cheylan }),
        Cond::Mars => Condition::Rebirth(Rebirth::Mars),
        Cond::Madrasi(rex) => Condition::Madrasi { rex },
        Cond::Maximummer(c) => Condition::Maximummer(c),
        Cond::Grid => Condition::Grid,
        Cond::Monochrome => Condition::Monochrome,
        Cond::Bichrome => Condition::Bichrome,
        Cond::Andernach => Condition::Andernach,
        Cond::AntiAndernach => Condition::AntiAndernach,
        Cond::CirceTakeMake => Condition::Rebirth(Rebirth::CirceTakeMake),
        Cond::AntiTakeMake => Condition::Rebirth(Rebirth::AntiTakeMake),
    }
}

/// Both sides' view of one diagram: the engine's position (or why it refused it) and the
/// reference board.
fn build(
    pieces: &[(Sq, Color, Kind)],
    side: Color,
    castling: u8,
    ep: Option<Sq>,
    conds: &[Cond],
) -> (Result<FairyPosition, FairyError>, Board) {
    let mut conditions = Conditions::none();
    for &c in conds {
        conditions.push(engine_condition(c)).unwrap();
    }
    let setup = FairySetup {
        pieces: pieces.iter().map(|&((f, r), c, k)| (Square((r * 8 + f) as u8), FPiece::new(Owner::of(c), k))).collect(),
        holes: 0,
        side: Some(side),
        castling,
        ep: ep.map(|(f, r)| Square((r * 8 + f) as u8)),
        conditions,
        extra_promotions: vec![],
        track_pieces: false,
    };
    let mut b = Board {
        squares: [[None; 8]; 8],
        side,
        rights: [false; 4],
        unmoved: [false; 6],
        ep: ep.map(|(f, r)| ((f, r), (f, if side == Color::White { r - 1 } else { r + 1 }))),
        promotions: promotion_choices(pieces),
        conds: conds.to_vec(),
    };
    for &(s, c, k) in pieces {
        b.squares[s.0 as usize][s.1 as usize] = Some((c, k));
    }
    for (i, (bit, color, king, rook)) in [
        (1u8, Color::White, (4, 0), (7, 0)),
        (2, Color::White, (4, 0), (0, 0)),
        (4, Color::Black, (4, 7), (7, 7)),
        (8, Color::Black, (4, 7), (0, 7)),
    ]
    .into_iter()
    .enumerate()
    {
        b.rights[i] = castling & bit != 0 && b.at(king) == Some((color, Kind::King)) && b.at(rook) == Some((color, Kind::Rook));
    }
    b.init_unmoved();
    (FairyPosition::from_setup(&setup), b)
}

/// The engine's move as the reference writes it.
fn rmove(m: &FMove) -> RMove {
    RMove {
        from: fr(m.from),
        to: fr(m.to),
        victim: m.victim.map(fr),
        promotion: m.promotion,
        rook: m.rook.map(fr),
        rebirth: None,
        reborn: None,
    }
}

/// [`rmove`] in `p`, whose rebirth rule may put the rebirth square in the move (Circe
/// Take&Make, AntiCirce Take&Make).
fn rmove_in(p: &FairyPosition, m: &FMove) -> RMove {
    let by_move = p.conditions().rebirth().is_some_and(|r| r.by_move());
    let mut r = rmove(m);
    if by_move {
        r.rebirth = m.via.map(fr);
        r.reborn = m.reborn;
    }
    r
}

fn text(m: &RMove) -> String {
    let mut s = format!("{}-{}", name(m.from), name(m.to));
    if let Some(v) = m.victim {
        s += &format!("x{}", name(v));
    }
    if let Some(k) = m.promotion {
        s += &format!("={}", k.code());
    }
    if m.rook.is_some() {
        s += "(castles)";
    }
    if let Some(r) = m.rebirth {
        s += &format!("[{}", name(r));
        if let Some(k) = m.reborn {
            s += &format!("={}", k.code());
        }
        s += "]";
    }
    s
}

/// The engine's position as a reference board (its en-passant pawn taken from `like`, which
/// FEN does not show).
fn board_of(p: &FairyPosition, like: &Board) -> Board {
    let mut b = Board { squares: [[None; 8]; 8], ..like.clone() };
    for (s, pc) in p.pieces() {
        let c = pc.owner.color().expect("no neutral pieces here");
        b.squares[fr(s).0 as usize][fr(s).1 as usize] = Some((c, pc.kind));
    }
    let fen = p.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    b.side = if fields[1] == "w" { Color::White } else { Color::Black };
    b.rights = ['K', 'Q', 'k', 'q'].map(|c| fields[2].contains(c));
    b.ep = match fields[3] {
        "-" => None,
        e => Some((((e.as_bytes()[0] - b'a') as i32, (e.as_bytes()[1] - b'1') as i32), like.ep.map_or((-1, -1), |(_, pawn)| pawn))),
    };
    b
}

/// Compares the legal moves of `p` and `r`, the positions after each, and (with `depth` > 1)
/// the same from each of these.
fn compare(p: &FairyPosition, r: &Board, depth: u32) {
    let fen = p.to_fen();
    let fast: Vec<FMove> = p.legal_moves().to_vec();
    let mut ours: Vec<RMove> = fast.iter().map(|m| rmove_in(p, m)).collect();
    ours.sort();
    // Compared as sets: the engine lists an orphan's move once per walk that makes it
    // (see `regression_orphan_moves_are_listed_once`).
    ours.dedup();
    let want = r.legal_moves();
    // The search's own calls (`Game::moves`, `has_move`, `checking_moves`), which may take
    // another way (chess's generator under the Maximummers with orthodox pieces), give the
    // same moves.
    let mut game: Vec<FMove> = Vec::new();
    p.moves(&mut game);
    let sorted = |v: &[FMove]| {
        let mut v: Vec<RMove> = v.iter().map(|m| rmove_in(p, m)).collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(sorted(&game), ours, "{fen}: Game::moves differs from legal_moves");
    assert_eq!(p.has_move(), !fast.is_empty(), "{fen}: has_move");
    let mut checks: Vec<FMove> = Vec::new();
    p.checking_moves(&mut checks);
    let checking: Vec<FMove> = fast.iter().copied().filter(|&m| p.make_move(m).in_check()).collect();
    assert_eq!(sorted(&checks), sorted(&checking), "{fen}: checking_moves");
    if ours != want {
        let extra: Vec<String> = fast.iter().filter(|m| !want.contains(&rmove_in(p, m))).map(|&m| p.move_text(m, Lang::En)).collect();
        let missing: Vec<String> = want.iter().filter(|m| !ours.contains(m)).map(text).collect();
        panic!("{fen}: the engine has extra {extra:?}, lacks {missing:?}");
    }
    let mut seen = Vec::new();
    for m in &fast {
        if seen.contains(m) {
            continue;
        }
        seen.push(*m);
        let q = p.make_move(*m);
        let rq = r.play(&rmove_in(p, m)).expect("a legal move plays");
        let back = board_of(&q, &rq);
        assert!(back == rq, "{fen} {}: engine gives {}, reference {:?}", p.move_text(*m, Lang::En), q.to_fen(), rq);
        if depth > 1 {
            compare(&q, &rq, depth - 1);
        }
    }
}

/// A random diagram before validation.
#[derive(Clone, Debug)]
struct Spec {
    kings: (u8, u8),
    /// (square, kind index in `Kind::ALL`, white?)
    pieces: Vec<(u8, usize, bool)>,
    /// Kings on e1/e8 and rooks in the corners that `castling` names.
    castle_layout: bool,
    castling: u8,
    black_to_move: bool,
    /// The opponent's pawn has just double-stepped on this file, and a pawn of the side to
    /// move stands beside it (on the left or right) to take it en passant.
    ep: Option<(u8, bool)>,
}

prop_compose! {
    fn spec()(
        kings in (0u8..64, 0u8..64),
        pieces in prop::collection::vec((0u8..64, 1usize..Kind::COUNT, any::<bool>()), 1..7),
        castle_layout in prop::bool::weighted(0.25),
        castling in 0u8..16,
        black_to_move in any::<bool>(),
        ep in prop::option::weighted(0.25, (0u8..8, any::<bool>())),
    ) -> Spec {
        Spec { kings, pieces, castle_layout, castling, black_to_move, ep }
    }
}

fn sq_of(n: u8) -> Sq {
    ((n % 8) as i32, (n / 8) as i32)
}

/// A piece on a square.
type Placed = (Sq, Color, Kind);

/// The pieces a spec places (later pieces on taken squares and pawns on back ranks left out)
/// and the en-passant square.
fn placement(spec: &Spec, side: Color) -> Option<(Vec<Placed>, Option<Sq>)> {
    let (wk, bk) = if spec.castle_layout { (4u8, 60u8) } else { spec.kings };
    if wk == bk {
        return None;
    }
    let mut v = vec![(sq_of(wk), Color::White, Kind::King), (sq_of(bk), Color::Black, Kind::King)];
    if spec.castle_layout {
        for (bit, s, c) in [(1u8, 7u8, Color::White), (2, 0, Color::White), (4, 63, Color::Black), (8, 56, Color::Black)] {
            if spec.castling & bit != 0 {
                v.push((sq_of(s), c, Kind::Rook));
            }
        }
    }
    // Squares that must stay empty: the en-passant square and the pawn's start square.
    let mut keep_empty = vec![];
    let mut ep = None;
    if let Some((f, left)) = spec.ep {
        let f = f as i32;
        let (pawn_rank, dir) = if side == Color::White { (4, 1) } else { (3, -1) };
        let (pawn, crossed, start) = ((f, pawn_rank), (f, pawn_rank + dir), (f, pawn_rank + 2 * dir));
        let taker = (if left { f - 1 } else { f + 1 }, pawn_rank);
        if [pawn, crossed, start].iter().all(|s| v.iter().all(|p| p.0 != *s)) {
            v.push((pawn, other(side), Kind::Pawn));
            if (0..8).contains(&taker.0) && v.iter().all(|p| p.0 != taker) {
                v.push((taker, side, Kind::Pawn));
            }
            keep_empty = vec![crossed, start];
            ep = Some(crossed);
        }
    }
    for &(s, k, white) in &spec.pieces {
        let kind = Kind::ALL[k];
        let s = sq_of(s);
        if kind == Kind::King
            || v.iter().any(|p| p.0 == s)
            || keep_empty.contains(&s)
            || (matches!(kind, Kind::Pawn | Kind::BerolinaPawn) && (s.1 == 0 || s.1 == 7))
        {
            continue;
        }
        v.push((s, if white { Color::White } else { Color::Black }, kind));
    }
    Some((v, ep))
}

/// Checks one random diagram under `conds`.
fn check(spec: &Spec, conds: &[Cond]) {
    let side = if spec.black_to_move { Color::Black } else { Color::White };
    let Some((pieces, ep)) = placement(spec, side) else { return };
    let castling = if spec.castle_layout { spec.castling } else { 0 };
    let (p, r) = build(&pieces, side, castling, ep, conds);
    let illegal = r.king_capturable(other(side));
    match p {
        Ok(p) => {
            assert!(!illegal, "{}: the side not to move is in check, says the reference", p.to_fen());
            compare(&p, &r, 2);
        }
        Err(FairyError::OppositeCheck(_)) => assert!(illegal, "{pieces:?} {conds:?}: the engine sees a check the reference does not"),
        Err(e) => panic!("{pieces:?} {conds:?}: {e}"),
    }
}

/// `cases` random cases, or `PROPTEST_CASES` when set (for long soak runs).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    Config { cases, failure_persistence: None, ..Config::default() }
}

const CASES: u32 = 200;

macro_rules! differential {
    ($($name:ident: [$($c:expr),*];)*) => {
        proptest! {
            #![proptest_config(config(CASES))]
            $(
                #[test]
                fn $name(s in spec()) {
                    check(&s, &[$($c),*]);
                }
            )*
        }
    };
}

use Cond::*;
differential! {
    no_condition: [];
    circe: [Circe(false)];
    circe_rex_inclusive: [Circe(true)];
    anticirce_calvet: [AntiCirce(false)];
    anticirce_cheylan: [AntiCirce(true)];
    mars_circe: [Mars];
    madrasi: [Madrasi(false)];
    madrasi_rex_inclusive: [Madrasi(true)];
    white_maximummer: [Maximummer(Color::White)];
    black_maximummer: [Maximummer(Color::Black)];
    grid: [Grid];
    monochrome: [Monochrome];
    bichrome: [Bichrome];
    andernach: [Andernach];
    anti_andernach: [AntiAndernach];
    circe_and_madrasi: [Circe(false), Madrasi(false)];
    anticirce_and_maximummer: [AntiCirce(false), Maximummer(Color::Black)];
    grid_and_andernach: [Grid, Andernach];
    circe_rex_inclusive_and_anti_andernach: [Circe(true), AntiAndernach];
    mars_and_monochrome: [Mars, Monochrome];
    bichrome_and_madrasi: [Bichrome, Madrasi(true)];
    grid_and_madrasi: [Grid, Madrasi(false)];
    monochrome_and_madrasi: [Monochrome, Madrasi(true)];
    andernach_and_anticirce: [Andernach, AntiCirce(false)];
    circe_take_make: [CirceTakeMake];
    anticirce_take_make: [AntiTakeMake];
    circe_take_make_and_madrasi: [CirceTakeMake, Madrasi(false)];
    anticirce_take_make_and_andernach: [AntiTakeMake, Andernach];
}

/// Reads `wKe1 bLIc3 …` (colour, Popeye code, square).
fn diagram(text: &str) -> Vec<(Sq, Color, Kind)> {
    text.split_whitespace()
        .map(|t| {
            let color = if t.starts_with('w') { Color::White } else { Color::Black };
            let (code, square) = t[1..].split_at(t.len() - 3);
            let b = square.as_bytes();
            ((((b[0] - b'a') as i32), (b[1] - b'1') as i32), color, Kind::from_code(code).unwrap_or_else(|| panic!("{code}")))
        })
        .collect()
}

#[test]
fn perft_2_on_fixed_positions() {
    let cases: &[(&str, Color, u8, &[Cond])] = &[
        ("wKe1 wRh1 wRa1 wPb2 wLd4 wSIc2 bKe8 bRa8 bOd6 bMf5 bPg7", Color::White, 15, &[Circe(false)]),
        ("wKe1 wRh1 wEQc3 wROd2 bKe8 bRh8 bKAe5 bNAb6 bPd7", Color::Black, 5, &[AntiCirce(false)]),
        ("wKe1 wRa1 wLIb3 wEAf4 wBPc2 bKg8 bSWd5 bTRh4 bNDc7 bPe7", Color::White, 2, &[Mars]),
        ("wKd1 wQd4 wRLh2 wBLa6 wDUe4 bKf8 bQd6 bRLh5 bBLe2 bPa3", Color::Black, 0, &[Madrasi(false)]),
        ("wKe1 wRh1 wLb1 wGg3 wPf2 bKe8 bRa8 bGc6 bMOh5 bPb7", Color::White, 9, &[Grid, Andernach]),
        ("wKc1 wMAd3 wVAe3 wLEf4 bKh8 bPAh6 bMOb6 bZa5 bGIg5 bPc4", Color::Black, 0, &[Circe(false), Madrasi(false)]),
        ("wKe1 wRh1 wCAb4 wEMc3 wPRd5 bKe8 bAMg6 bNf6 bPe7 bSh3", Color::White, 1, &[AntiCirce(true), Maximummer(Color::White)]),
        // Nine orphans lending each other walks (Popeye's `orphan.inp` #8, StrateGems 1998),
        // after the check test that works out only the walks that reach the king.
        ("wKa3 wOe7 wOg3 wOh6 bKe1 bRh3 bBf8 bSa8 bPa6 bPg7 bPh4 bOb8 bOd1 bOe6 bOf1 bOg5", Color::Black, 0, &[]),
        ("wKa3 wOe7 wOg3 wOh6 bKe1 bRh3 bBf8 bSa8 bPa6 bPg7 bPh4 bOb8 bOd1 bOe6 bOf1 bOg5", Color::White, 0, &[Circe(false)]),
        // Screen pieces and Naos everywhere (`chinese.inp` #4, Nastran and Gvozdjak 1998),
        // passed over in the check test by their spans; and under Maximummer, which tests
        // the longest moves first.
        (
            "wPAh8 wQh7 wNAa6 wLEb6 wLEf6 wNAg6 wPc4 wPc3 wLEg3 wNAa1 wKd1 wNAh1 bRa8 bKe8 bVAf8 bVAg8 bVAa7 bVAb7 bLEa5 bPc5 bLEe5 bPh5 bVAb4 bPe4 bPd2 bPAg2 bVAf1 bNAg1",
            Color::White,
            0,
            &[],
        ),
        (
            "wPAh8 wQh7 wNAa6 wLEb6 wLEf6 wNAg6 wPc4 wPc3 wLEg3 wNAa1 wKd1 wNAh1 bRa8 bKe8 bVAf8 bVAg8 bVAa7 bVAb7 bLEa5 bPc5 bLEe5 bPh5 bVAb4 bPe4 bPd2 bPAg2 bVAf1 bNAg1",
            Color::White,
            0,
            &[Maximummer(Color::Black)],
        ),
    ];
    for &(text, side, castling, conds) in cases {
        let pieces = diagram(text);
        let (p, r) = build(&pieces, side, castling, None, conds);
        let p = p.unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.perft(2), r.perft(2), "{text} {conds:?}");
    }
}

/// Longer runs: `cargo test --release --test fairy_differential -- --ignored`.
#[test]
#[ignore]
fn soak_every_condition() {
    let confs: &[&[Cond]] = &[
        &[Circe(false)],
        &[Circe(true)],
        &[AntiCirce(false)],
        &[AntiCirce(true)],
        &[Mars],
        &[Madrasi(false)],
        &[Maximummer(Color::White)],
        &[Grid],
        &[Monochrome],
        &[Bichrome],
        &[Andernach],
        &[AntiAndernach],
        &[Circe(false), Andernach],
    ];
    for conds in confs {
        let mut runner = proptest::test_runner::TestRunner::new(config(1000));
        runner
            .run(&spec(), |s| {
                check(&s, conds);
                Ok(())
            })
            .unwrap();
    }
}

/// Regression (engine bug found by `grid_and_andernach` and most other conditions): an orphan
/// attacked by pieces of two kinds whose walks share moves (here a rook and a queen: the
/// orphan moves as both) gets each shared move listed once per walk, so `legal_moves` repeats
/// moves and `perft` counts them twice. The fast generator removes repeats per walk only
/// (`FairyPosition::pseudo_moves`).
#[test]
fn regression_orphan_moves_are_listed_once() {
    let pieces = diagram("wKa2 wRd1 wQa4 bKh8 bOd4");
    let (p, r) = build(&pieces, Color::Black, 0, None, &[]);
    let p = p.unwrap();
    let mut moves: Vec<RMove> = p.legal_moves().iter().map(rmove).collect();
    let n = moves.len();
    moves.sort();
    moves.dedup();
    assert_eq!(n, moves.len(), "repeated moves");
    assert_eq!(p.perft(1), r.perft(1));
}

/// Regression (engine bug found by the random cases of AntiCirce Cheylan + Andernach): with
/// AntiCirce listed before Andernach, the capturer is first put on its rebirth square, then
/// Andernach looks for it on the arrival square and changes nothing; the capturing rook
/// must turn black on a1 whatever the order of the conditions. (With Andernach listed first
/// the engine gets it right; `andernach_and_anticirce` runs that order.)
#[test]
fn regression_anticirce_then_andernach_changes_the_colour() {
    for conds in [[AntiCirce(false), Andernach], [Andernach, AntiCirce(false)]] {
        let pieces = diagram("wKh2 wRd4 bKh8 bPd6");
        let (p, r) = build(&pieces, Color::White, 0, None, &conds);
        let p = p.unwrap();
        let m = *p.legal_moves().iter().find(|m| fr(m.from) == (3, 3) && fr(m.to) == (3, 5)).unwrap();
        let q = p.make_move(m);
        assert_eq!(board_of(&q, &r).at((0, 0)), Some((Color::Black, Kind::Rook)), "{conds:?}: {}", q.to_fen());
    }
}

/// Regression (engine bug found by the random cases of `madrasi`): the only check of Black is
/// 1...Bc3xa1+, which takes the white rook paralysing bRa2 and frees it to check along the
/// second rank. The checking-move generator listed only the pieces that open a line or reach
/// a checking square, not those taking a paralyser, and missed it.
#[test]
fn regression_madrasi_check_by_taking_the_paralyser() {
    let (p, r) = build(&diagram("wKe2 wRa1 bKe8 bRh8 bQb7 bBc3 bRa2"), Color::Black, 4, None, &[Madrasi(false)]);
    let p = p.unwrap();
    let mut checks: Vec<FMove> = Vec::new();
    p.checking_moves(&mut checks);
    assert!(
        checks.iter().any(|&m| p.move_text(m, Lang::En) == "Bc3*a1"),
        "{:?}",
        checks.iter().map(|&m| p.move_text(m, Lang::En)).collect::<Vec<_>>()
    );
    compare(&p, &r, 2);
}

/// Regression (engine bug found by the random cases of `circe_take_make`): 1.c7xb8=G, the
/// rook reborn on d8, checks: the new grasshopper hops over the reborn rook to e8. The check
/// test of quiet moves and captures did not see a piece reborn elsewhere as the hurdle of a
/// pawn promoted to a hopper.
#[test]
fn regression_promoted_hopper_checks_over_a_reborn_piece() {
    let (p, r) = build(&diagram("wKe1 wRa1 wPc7 wAMa5 bKe8 bRa8 bRb8 bRh8 bGb2"), Color::White, 14, None, &[CirceTakeMake]);
    let p = p.unwrap();
    let mut checks: Vec<FMove> = Vec::new();
    p.checking_moves(&mut checks);
    assert!(
        checks.iter().any(|&m| m.promotion == Some(Kind::Grasshopper) && fr(m.to) == (1, 7)),
        "{:?}",
        checks.iter().map(|&m| p.move_text(m, Lang::En)).collect::<Vec<_>>()
    );
    compare(&p, &r, 2);
}

/// The +1 (White to check in one) of Popeye's regression suite, 4_63_to_4_65.reg#83 b
/// (Vlaicu Crisan, MatPlus.Net 2010): wKe6 Rc6 Bc5, bKe3 Ba7, Madrasi + MarsCirce. Popeye's
/// only solution is 1.Rc6-d6+: a piece observes (and so paralyses) as it captures, from its
/// rebirth square — bBa7 from f8 over e7 and d6, which the rook closes, and the freed bishop
/// checks from its rebirth square c1. (With Madrasi alone it is 1.Rc6-b6+.)
fn checking_moves_of_crisan(conds: &[Cond]) -> (Vec<String>, Vec<String>) {
    let (p, r) = build(&diagram("wKe6 wRc6 wBc5 bKe3 bBa7"), Color::White, 0, None, conds);
    let p = p.unwrap();
    let engine = p.legal_moves().iter().filter(|&&m| p.make_move(m).in_check()).map(|&m| p.move_text(m, Lang::En)).collect();
    let reference = r.legal_moves().iter().filter(|m| r.play(m).unwrap().king_capturable(Color::Black)).map(text).collect();
    (engine, reference)
}

#[test]
fn reference_checks_as_popeye_under_madrasi_and_mars_circe() {
    assert_eq!(checking_moves_of_crisan(&[Madrasi(false)]).1, ["c6-b6"]);
    assert_eq!(checking_moves_of_crisan(&[Madrasi(false), Mars]).1, ["c6-d6"]);
}

/// Regression (engine bug): under Mars Circe + Madrasi the engine observes from the piece's
/// square, not from its rebirth square, and finds 1.Rc6-b6+ instead of Popeye's 1.Rc6-d6+.
#[test]
fn regression_madrasi_observes_from_the_mars_rebirth_square() {
    assert_eq!(checking_moves_of_crisan(&[Madrasi(false), Mars]).0, ["Rc6-d6"]);
}

proptest! {
    #![proptest_config(config(CASES))]
    /// Mars Circe + Madrasi, ignored until the engine observes from the rebirth square (see
    /// `regression_madrasi_observes_from_the_mars_rebirth_square`).
    #[test]
    fn mars_circe_and_madrasi(s in spec()) {
        check(&s, &[Mars, Madrasi(false)]);
    }

    /// AntiCirce before Andernach, ignored until the engine changes the reborn capturer's
    /// colour (see `regression_anticirce_then_andernach_changes_the_colour`).
    #[test]
    fn anticirce_and_andernach(s in spec()) {
        check(&s, &[AntiCirce(true), Andernach]);
    }
}
