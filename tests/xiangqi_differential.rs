//! The Xiangqi engine (`feerie::rules::xiangqi`) against the reference generator of
//! `tests/xiangqi_reference/`: first the reference itself on known perft numbers and hand-counted
//! positions, then random legal-ish positions (a general in each palace, other pieces on points
//! they can legally stand on, either side to move) and random playouts, where the engine's legal
//! moves must be the reference's as ICCS text, its check flag the reference's, and every child
//! position the one the reference plays (through FEN, which must round-trip). A coverage test
//! shows that the random positions reach every rule.

mod xiangqi_reference;

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::BTreeMap;
use xiangqi_reference::{self as reference, Board, DIAG, Kind, ORTH, Point, on_board, other};

use feerie::geometry::Square;
use feerie::piece::Color;
use feerie::rules::xiangqi::{XMove, XiangqiPosition};

/// The start position.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Positions of `../shared/corpus/perft/xiangqi.txt` with their first perft numbers (legal
/// moves; flying general and self-check illegal).
const SUITE: &[(&str, &str, &[u64])] = &[
    ("startpos", START, &[44, 1920, 79666]),
    ("cpw2", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", &[38, 1128, 43929]),
    ("cpw3", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", &[7, 281, 8620]),
    ("cpw4", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", &[25, 424, 9850]),
    ("cpw5", "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", &[28, 516, 14808]),
    ("cpw6", "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", &[21, 364, 7626]),
    ("cpw7", "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", &[28, 222, 6241, 64971]),
    ("cpw8", "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", &[23, 345, 8124]),
    ("cpw9", "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", &[21, 195, 3883, 48060]),
    ("cpw10", "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1", &[30, 830, 22787]),
    ("cpw11", "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1", &[19, 583, 11714]),
    ("FS-1", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", &[49, 2265, 100326]),
    ("FS-2", "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", &[13, 272, 3707, 92741]),
    ("folium", "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1", &[58, 1651, 90744]),
];

// ---------------------------------------------------------------------------------------------
// The reference itself.

/// The reference reproduces the published perft numbers (this proves the reference itself).
#[test]
fn reference_perft_matches_the_known_numbers() {
    for &(name, fen, counts) in SUITE {
        let b = reference::from_fen(fen).unwrap();
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(b.perft(i as u32 + 1), n, "{name} {fen} depth {}", i + 1);
        }
    }
}

/// The reference's FEN writer writes what its reader read; the reader refuses malformed FENs.
#[test]
fn reference_fen_round_trips() {
    for &(name, fen, _) in SUITE {
        let b = reference::from_fen(fen).unwrap();
        assert_eq!(b.to_fen(), fen, "{name}");
        let mut black = b.clone();
        black.side = Color::Black;
        assert_eq!(reference::from_fen(&black.to_fen()).unwrap(), black, "{name}");
    }
    // `r` for Red, `E`/`H` for elephant and horse, a missing side.
    let b = reference::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
    assert_eq!(b.to_fen(), START);
    assert_eq!(reference::from_fen(START.split(' ').next().unwrap()).unwrap().to_fen(), START);
    for bad in ["", "9/9/9", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "x8/9/9/9/9/9/9/9/9/9 w"] {
        assert!(reference::from_fen(bad).is_err(), "{bad}");
    }
}

/// The reference board of a hand-made FEN; when it is a position of a game (the side not to
/// move not in check, the generals apart), the engine's position is checked against it too.
fn hand_made(fen: &str) -> Board {
    let b = reference::from_fen(fen).unwrap();
    if valid(&b) {
        check_position(&engine(fen));
    }
    b
}

/// The moves of the piece on `point` in a position, as ICCS targets, sorted.
fn targets_of(fen: &str, point: &str) -> Vec<String> {
    let b = hand_made(fen);
    let from = reference::parse_point(point).unwrap();
    let mut v: Vec<String> = b.legal_moves().into_iter().filter(|m| m.from == from).map(|m| reference::point_name(m.to)).collect();
    v.sort();
    v
}

/// Every piece's moves, counted by hand on small positions (the engine checked on them too).
#[test]
fn reference_pieces_counted_by_hand() {
    // Red general on d0, Black general on f9 (off each other's file, unless said); one piece
    // under test.
    // Chariot on e4: 9 points on its file and 8 on its rank.
    assert_eq!(targets_of("5k3/9/9/9/9/4R4/9/9/9/3K5 w", "e4").len(), 17);
    // Horse on e4, every leg free: 8; with a piece on e5 (its forward leg) d6 and f6 are gone.
    assert_eq!(targets_of("5k3/9/9/9/9/4N4/9/9/9/3K5 w", "e4"), ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]);
    assert_eq!(targets_of("5k3/9/9/9/4p4/4N4/9/9/9/3K5 w", "e4"), ["c3", "c5", "d2", "f2", "g3", "g5"]);
    // Horse in the corner a0: b2 and c1.
    assert_eq!(targets_of("5k3/9/9/9/9/9/9/9/9/N2K5 w", "a0"), ["b2", "c1"]);
    // Elephant on e2: c0, g0, c4, g4; with its eye d3 taken, c4 is gone.
    assert_eq!(targets_of("5k3/9/9/9/9/9/9/4B4/9/3K5 w", "e2"), ["c0", "c4", "g0", "g4"]);
    assert_eq!(targets_of("5k3/9/9/9/9/9/3p5/4B4/9/3K5 w", "e2"), ["c0", "g0", "g4"]);
    // Elephant on c4 at the river: only back to a2 and e2; a Black elephant on g5 likewise.
    assert_eq!(targets_of("5k3/9/9/9/9/2B6/9/9/9/3K5 w", "c4"), ["a2", "e2"]);
    assert_eq!(targets_of("5k3/9/9/9/6b2/9/9/9/9/3K5 b", "g5"), ["e7", "i7"]);
    // Advisor on e1: the palace corners but d0, its general's; on d0: only e1.
    assert_eq!(targets_of("5k3/9/9/9/9/9/9/9/4A4/3K5 w", "e1"), ["d2", "f0", "f2"]);
    assert_eq!(targets_of("3k5/9/9/9/9/9/9/9/9/3A1K3 w", "d0"), ["e1"]);
    // General on e1: d1, e0, e2, but not f1 (it would face f9); on d0: d1, e0.
    assert_eq!(targets_of("5k3/9/9/9/9/9/9/9/4K4/9 w", "e1"), ["d1", "e0", "e2"]);
    assert_eq!(targets_of("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1", "e0"]);
    // Soldier before the river: forward only; across it: forward and sideways; on the last
    // rank: sideways only; a Black one across the river goes down and sideways.
    assert_eq!(targets_of("5k3/9/9/9/9/9/4P4/9/9/3K5 w", "e3"), ["e4"]);
    assert_eq!(targets_of("5k3/9/9/9/4P4/9/9/9/9/3K5 w", "e5"), ["d5", "e6", "f5"]);
    assert_eq!(targets_of("P4k3/9/9/9/9/9/9/9/9/3K5 w", "a9"), ["b9"]);
    assert_eq!(targets_of("5k3/9/9/9/9/4p4/9/9/9/3K5 b", "e4"), ["d4", "e3", "f4"]);
    // Cannon on b2, a screen on b5, an enemy on b8 and a friend on b9: quiet moves b0 b1 b3
    // b4, a2, c2–i2, and the capture b8 (not the screen, not the friend).
    let cannon = targets_of("1R3k3/1r7/9/9/1p7/9/9/1C7/9/3K5 w", "b2");
    assert_eq!(cannon.len(), 4 + 1 + 7 + 1);
    assert!(cannon.contains(&"b8".to_string()) && !cannon.contains(&"b5".to_string()));
    // With a second piece on b6 it takes b6, the first piece beyond the screen, never b8.
    let cannon = targets_of("1R3k3/1r7/9/1p7/1p7/9/9/1C7/9/3K5 w", "b2");
    assert!(cannon.contains(&"b6".to_string()) && !cannon.contains(&"b8".to_string()));
    // A friend beyond the screen is not taken.
    assert!(!targets_of("1R3k3/9/9/9/1p7/9/9/1C7/9/3K5 w", "b2").contains(&"b9".to_string()));
}

/// Flying general, check by a cannon, mate and stalemate on small positions (the engine
/// checked on them too).
#[test]
fn reference_legality_rules() {
    // Flying general: the only piece between the generals (a horse on e5) may not move.
    let b = hand_made("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
    assert_eq!(b.legal_iccs(), ["e0d0", "e0e1", "e0f0"]);
    assert_eq!(b.pseudo_moves().iter().filter(|m| m.from == (4, 5)).count(), 8);
    // The general may not step onto the other's open file: e0-d0 would face d9.
    let b = hand_made("3k5/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(b.legal_iccs(), ["e0e1", "e0f0"]);
    // A cannon on e7 with one screen (a horse on e3) gives check ...
    let b = hand_made("3k5/9/4c4/9/9/9/4N4/9/9/4K4 w");
    assert!(b.in_check());
    // ... with two (and an advisor on e1) it does not, and neither screen may leave the file.
    let b = hand_made("3k5/9/4c4/9/9/9/4N4/9/4A4/4K4 w");
    assert!(!b.in_check());
    assert!(b.legal_iccs().iter().all(|m| !m.starts_with("e3") && !m.starts_with("e1")));
    assert!(!b.legal_moves().is_empty());
    // Mate by two chariots (d0 faces the general on d9), and stalemate (not in check).
    let b = hand_made("3k5/9/9/9/4rr3/9/9/9/9/4K4 w");
    assert!(b.in_check() && b.legal_moves().is_empty());
    let b = hand_made("3k5/9/9/9/5r3/9/9/9/r8/4K4 w");
    assert!(!b.in_check() && b.legal_moves().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Random positions.

/// A random position before placement: the generals' points (indices into their palaces),
/// other pieces as (kind index into `Kind::ALL` without the general, Red?, choice of point),
/// and the side to move.
#[derive(Clone, Debug)]
struct Spec {
    generals: (usize, usize),
    pieces: Vec<(usize, bool, usize)>,
    black_to_move: bool,
}

prop_compose! {
    fn spec()(
        generals in (0usize..9, 0usize..9),
        pieces in prop::collection::vec((1usize..7, any::<bool>(), any::<usize>()), 0..28),
        black_to_move in any::<bool>(),
    ) -> Spec {
        Spec { generals, pieces, black_to_move }
    }
}

/// The points a piece of colour `c` and kind `k` can stand on in a game: generals and advisors
/// in their palace (advisors on its corners and centre), elephants on their seven points on
/// their side of the river, soldiers on their start rank or beyond (on the odd files only
/// across the river: a soldier leaves its file only there), others anywhere. Listed for Red
/// and turned over for Black.
fn places(c: Color, k: Kind) -> Vec<Point> {
    let red: Vec<Point> = match k {
        Kind::General => (3..=5).flat_map(|f| (0..=2).map(move |r| (f, r))).collect(),
        Kind::Advisor => vec![(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
        Kind::Elephant => vec![(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
        Kind::Soldier => (0..9).flat_map(|f| (3..10).map(move |r| (f, r))).filter(|&(f, r)| r >= 5 || f % 2 == 0).collect(),
        _ => (0..9).flat_map(|f| (0..10).map(move |r| (f, r))).collect(),
    };
    if c == Color::White { red } else { red.into_iter().map(|(f, r)| (f, 9 - r)).collect() }
}

/// How many pieces of a kind a side has at the start (not more are placed).
fn max_count(k: Kind) -> usize {
    match k {
        Kind::General => 1,
        Kind::Soldier => 5,
        _ => 2,
    }
}

/// The position a spec describes, whether or not it could arise in a game.
fn place(spec: &Spec) -> Board {
    let mut b = reference::empty();
    b.side = if spec.black_to_move { Color::Black } else { Color::White };
    for (c, i) in [(Color::White, spec.generals.0), (Color::Black, spec.generals.1)] {
        let (f, r) = places(c, Kind::General)[i];
        b.set(f, r, Some((c, Kind::General)));
    }
    for &(k, red, pick) in &spec.pieces {
        let kind = Kind::ALL[k];
        let c = if red { Color::White } else { Color::Black };
        let ps = places(c, kind);
        let (f, r) = ps[pick % ps.len()];
        let count = b.points.iter().flatten().filter(|&&p| p == Some((c, kind))).count();
        if b.at(f, r).is_none() && count < max_count(kind) {
            b.set(f, r, Some((c, kind)));
        }
    }
    b
}

/// Whether a position could arise in a game: the side not to move is not in check and the
/// generals do not face each other.
fn valid(b: &Board) -> bool {
    !b.generals_face() && !b.attacked(other(b.side))
}

/// The position a spec describes; `None` when it could not arise in a game.
fn build(spec: &Spec) -> Option<Board> {
    Some(place(spec)).filter(valid)
}

/// The rules a position exercises for the side to move, each found by brute force on the
/// reference board.
fn features(b: &Board) -> Vec<&'static str> {
    let us = b.side;
    let mut out = Vec::new();
    let mut note = |what: &'static str, yes: bool| {
        if yes {
            out.push(what)
        }
    };
    let legal = b.legal_moves();
    let pseudo = b.pseudo_moves();
    let kind_at = |p: Point| b.at(p.0, p.1).map(|(_, k)| k);
    let enemy_at = |f: i32, r: i32| on_board(f, r) && b.at(f, r).is_some_and(|(c, _)| c != us);
    let free_or_enemy = |f: i32, r: i32| on_board(f, r) && b.at(f, r).is_none_or(|(c, _)| c != us);
    let ours: Vec<(Point, Kind)> = (0..9)
        .flat_map(|f| (0..10).map(move |r| (f, r)))
        .filter_map(|(f, r)| b.at(f, r).filter(|&(c, _)| c == us).map(|(_, k)| ((f, r), k)))
        .collect();
    let of = |k: Kind| ours.iter().filter(move |&&(_, kk)| kk == k).map(|&(p, _)| p);

    note("in check", b.in_check());
    note("no legal move", legal.is_empty());
    note("mate", legal.is_empty() && b.in_check());
    note("stalemate", legal.is_empty() && !b.in_check());
    note("cannon capture over a screen", legal.iter().any(|m| kind_at(m.from) == Some(Kind::Cannon) && kind_at(m.to).is_some()));
    // An enemy behind two or more pieces on a cannon's line (a cannon may not take it).
    note(
        "cannon blocked by two screens",
        of(Kind::Cannon).any(|(f, r)| {
            ORTH.iter().any(|&(df, dr)| {
                let line: Vec<Point> = (1..10).map(|i| (f + i * df, r + i * dr)).take_while(|&(x, y)| on_board(x, y)).collect();
                let pieces: Vec<Point> = line.into_iter().filter(|&(x, y)| b.at(x, y).is_some()).collect();
                pieces.iter().skip(2).any(|&(x, y)| enemy_at(x, y))
            })
        }),
    );
    note(
        "horse leg blocked",
        of(Kind::Horse).any(|(f, r)| {
            ORTH.iter().any(|&(df, dr)| {
                let (lf, lr) = (f + df, r + dr);
                on_board(lf, lr) && b.at(lf, lr).is_some() && [1, -1].iter().any(|s| free_or_enemy(lf + df + s * dr, lr + dr + s * df))
            })
        }),
    );
    note(
        "elephant eye blocked",
        of(Kind::Elephant).any(|(f, r)| {
            DIAG.iter().any(|&(df, dr)| {
                let (x, y) = (f + 2 * df, r + 2 * dr);
                free_or_enemy(x, y) && reference::own_half(us, y) && b.at(f + df, r + dr).is_some()
            })
        }),
    );
    note(
        "elephant stopped at the river",
        of(Kind::Elephant).any(|(f, r)| {
            DIAG.iter().any(|&(df, dr)| {
                let (x, y) = (f + 2 * df, r + 2 * dr);
                free_or_enemy(x, y) && !reference::own_half(us, y) && b.at(f + df, r + dr).is_none()
            })
        }),
    );
    let out_of_palace = |k: Kind, dirs: [Point; 4]| {
        of(k).any(|(f, r)| dirs.iter().any(|&(df, dr)| free_or_enemy(f + df, r + dr) && !reference::in_palace(us, f + df, r + dr)))
    };
    note("general stopped at the palace edge", out_of_palace(Kind::General, ORTH));
    note("advisor stopped at the palace edge", out_of_palace(Kind::Advisor, DIAG));
    note("soldier sideways", legal.iter().any(|m| kind_at(m.from) == Some(Kind::Soldier) && m.from.1 == m.to.1));
    note(
        "illegal only by the flying general",
        pseudo.iter().any(|&m| {
            let q = b.play(m);
            q.generals_face() && !q.attacked(us)
        }),
    );
    note("illegal as it leaves the general attacked", pseudo.iter().any(|&m| b.play(m).attacked(us)));
    out
}

/// Counts, over `n` random specs of a deterministic runner, the valid positions and how many
/// exercise each rule; the engine is checked against the reference on each of them, so that
/// every rule counted here is also compared, whatever the random cases of the tests above.
fn coverage(n: usize) -> (usize, BTreeMap<&'static str, usize>) {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = spec();
    let mut seen = BTreeMap::new();
    let mut valid = 0;
    for _ in 0..n {
        let Some(b) = build(&strat.new_tree(&mut runner).unwrap().current()) else { continue };
        valid += 1;
        check_position(&engine(&b.to_fen()));
        for what in features(&b) {
            *seen.entry(what).or_default() += 1;
        }
    }
    (valid, seen)
}

/// The random positions are mostly valid, and they reach every rule: cannon captures and
/// cannons blocked by two screens, blocked horse legs and elephant eyes, elephants at the river,
/// generals and advisors at the palace edge, soldiers stepping sideways, moves illegal only by
/// the flying general or by leaving the general attacked, check, mate and stalemate.
#[test]
fn random_positions_cover_every_rule() {
    let (valid, seen) = coverage(4000);
    eprintln!("{valid} valid positions of 4000: {seen:#?}");
    assert!(valid > 2000, "only {valid} of 4000 random positions are valid");
    for what in [
        "in check",
        "no legal move",
        "mate",
        "stalemate",
        "cannon capture over a screen",
        "cannon blocked by two screens",
        "horse leg blocked",
        "elephant eye blocked",
        "elephant stopped at the river",
        "general stopped at the palace edge",
        "advisor stopped at the palace edge",
        "soldier sideways",
        "illegal only by the flying general",
        "illegal as it leaves the general attacked",
    ] {
        let n = seen.get(what).copied().unwrap_or(0);
        assert!(n > 0, "no random position with {what}: {seen:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The engine against the reference.

/// The engine's position for a FEN it must accept.
fn engine(fen: &str) -> XiangqiPosition {
    XiangqiPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: the engine refuses it: {e:?}"))
}

/// The ICCS name of an engine square (index rank × 9 + file), worked out here.
fn square_name(s: Square) -> String {
    reference::point_name(((s.0 % 9) as i32, (s.0 / 9) as i32))
}

/// Checks one engine position against the reference: the same legal moves as ICCS text (also
/// through the engine's counting, any-move and move-reading paths), the same check flag, a FEN
/// that round-trips, and for every move a child that is the reference's child (read back from
/// the engine's FEN) with a right incremental Zobrist key. Returns the children.
fn check_position(p: &XiangqiPosition) -> Vec<XiangqiPosition> {
    let fen = p.to_fen();
    let r = reference::from_fen(&fen).unwrap_or_else(|e| panic!("the engine writes {fen}: {e}"));
    assert_eq!(engine(&fen).to_fen(), fen, "FEN round trip");
    let moves: Vec<XMove> = p.legal_moves().iter().copied().collect();
    let mut ours: Vec<String> = moves.iter().map(|&m| p.iccs(m)).collect();
    ours.sort();
    let want = r.legal_iccs();
    if ours != want {
        let missing: Vec<_> = want.iter().filter(|m| !ours.contains(m)).collect();
        let extra: Vec<_> = ours.iter().filter(|m| !want.contains(m)).collect();
        panic!("{fen}: the engine misses {missing:?}, has {extra:?} too (its list: {ours:?})");
    }
    assert_eq!(p.in_check(), r.in_check(), "{fen}: in check");
    assert_eq!(p.perft(1), want.len() as u64, "{fen}: perft 1");
    assert_eq!(p.has_legal_move(), !want.is_empty(), "{fen}: has a legal move");
    let mut into = Vec::new();
    p.legal_moves_into(&mut into);
    assert_eq!(into, moves, "{fen}: legal_moves_into");
    assert_eq!(p.hash(), p.hash_from_scratch(), "{fen}: key");
    // Reading a move back: every legal move, and no pseudo-legal move that is illegal.
    for m in r.pseudo_moves() {
        let name = m.iccs();
        let found = p.parse_move(&name).map(|x| p.iccs(x));
        assert_eq!(found.as_deref(), want.contains(&name).then_some(name.as_str()), "{fen}: reading {name}");
    }
    moves
        .iter()
        .map(|&m| {
            let name = p.iccs(m);
            assert_eq!(format!("{}{}", square_name(m.from), square_name(m.to)), name, "{fen}: squares of {name}");
            let q = p.play(m);
            assert_eq!(q.hash(), q.hash_from_scratch(), "{fen} {name}: incremental key");
            assert_eq!(p.child_key(m), q.hash(), "{fen} {name}: child key");
            let qf = q.to_fen();
            let rq = r.play(reference::parse_iccs(&name).unwrap());
            let back = reference::from_fen(&qf).unwrap_or_else(|e| panic!("{fen} {name}: the engine writes {qf}: {e}"));
            assert!(back == rq, "{fen} {name}: the engine gives {qf}, the reference {}", rq.to_fen());
            assert_eq!(engine(&qf).to_fen(), qf, "{fen} {name}: FEN round trip");
            q
        })
        .collect()
}

/// `cases` random cases, or `PROPTEST_CASES` when set (for long soak runs).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// The engine on the perft suite: the reference's moves and children, and the known numbers.
#[test]
fn engine_perft_matches_the_reference_on_the_suite() {
    for &(name, fen, counts) in SUITE {
        let p = engine(fen);
        check_position(&p);
        for (i, &n) in counts.iter().enumerate().take(3) {
            assert_eq!(p.perft(i as u32 + 1), n, "{name} {fen} depth {}", i + 1);
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// The engine reads exactly the positions that could arise in a game (and says why not
    /// for the others).
    #[test]
    fn engine_accepts_exactly_the_valid_positions(spec in spec()) {
        let b = place(&spec);
        let fen = b.to_fen();
        match XiangqiPosition::from_fen(&fen) {
            Ok(p) => {
                prop_assert!(valid(&b), "{} is accepted: the side not to move is in check or the generals face", fen);
                prop_assert_eq!(p.to_fen(), fen);
            }
            Err(e) => prop_assert!(!valid(&b), "{} is refused: {}", fen, e),
        }
    }

    /// The legal moves, check flag and children of random positions.
    #[test]
    fn random_positions_match_the_reference(spec in spec()) {
        if let Some(b) = build(&spec) {
            check_position(&engine(&b.to_fen()));
        }
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// The same for every child of random positions, and perft to depth 3.
    #[test]
    fn random_positions_match_the_reference_at_depth_two(spec in spec()) {
        if let Some(b) = build(&spec) {
            let p = engine(&b.to_fen());
            for q in check_position(&p) {
                check_position(&q);
            }
            prop_assert_eq!(p.perft(2), b.perft(2));
            prop_assert_eq!(p.perft(3), b.perft(3));
        }
    }

    /// Every position along random games from the start position or a random position, to
    /// their end (no legal move) or 80 plies.
    #[test]
    fn random_playouts_match_the_reference(
        from_start in any::<bool>(),
        spec in spec(),
        choices in prop::collection::vec(any::<usize>(), 1..80),
    ) {
        let mut p = if from_start {
            engine(START)
        } else {
            match build(&spec) {
                Some(b) => engine(&b.to_fen()),
                None => return Ok(()),
            }
        };
        for c in choices {
            let children = check_position(&p);
            if children.is_empty() {
                break;
            }
            p = children[c % children.len()];
        }
    }
}
