//! The solver against a reference solver written here from the stipulations' definitions
//! (`../shared/rules/orthodox-and-stipulations.md`): plain recursion over every legal move, no
//! transposition table, no move ordering, no pruning, no threats. On random positions with a
//! few pieces (orthodox and fairy, castling, en passant, promotions) both must give the same
//! keys (`#n`, `s#n`, `r#n`, `=n`, `s=n`, `+n`, `s+n`) and the same lines (`h#n`, `h#n.5`, `h=n`,
//! `h+n`), with
//! one thread and several, with the table on and off.
//!
//! The move generator itself is proven in `tests/differential.rs`; here only the search is
//! under test, so the reference uses the engine's moves.

use feerie::geometry::Square;
use feerie::piece::{Color, Kind, Lang, Piece};
use feerie::position::{Move, Position, Setup};
use feerie::problem::Stipulation;
use feerie::rules::Game;
use feerie::solve::{SolveOptions, solve};
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::collections::BTreeSet;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum G {
    Mate,
    Stalemate,
    /// `+`: the side to move is in check (mated or not).
    Check,
    /// `==`: the side to move is stalemated, and so would its opponent be if it were to move.
    DoubleStalemate,
}

fn moves(p: &Position) -> Vec<Move> {
    p.legal_moves().to_vec()
}

/// The side to move has reached the goal's end: mated, stalemated, or (`+`) in check.
fn goal(p: &Position, g: G) -> bool {
    match g {
        G::Check => p.in_check(),
        G::DoubleStalemate => goal(p, G::Stalemate) && other_side(p).is_some_and(|o| goal(&o, G::Stalemate)),
        G::Mate | G::Stalemate => moves(p).is_empty() && (p.in_check() == (g == G::Mate)),
    }
}

/// The same placement with the other side to move, read from the FEN (not the engine's null
/// move); `None` when that position is not legal (the side not to move in check).
fn other_side(p: &Position) -> Option<Position> {
    let fen = p.to_fen();
    let mut f: Vec<&str> = fen.split(' ').collect();
    f[1] = if f[1] == "w" { "b" } else { "w" };
    f[3] = "-";
    Position::from_fen(&f.join(" ")).ok()
}

/// Direct play, attacker to move: can it reach the goal within `n` of its moves?
fn direct_att(p: &Position, n: u32, g: G) -> bool {
    moves(p).into_iter().any(|m| {
        let q = p.play(m);
        goal(&q, g) || (n > 1 && direct_def(&q, n - 1, g))
    })
}

/// Direct play, defender to move (goal not reached): does every defence lose within `n`?
fn direct_def(q: &Position, n: u32, g: G) -> bool {
    let ds = moves(q);
    !ds.is_empty() && ds.into_iter().all(|d| direct_att(&q.play(d), n, g))
}

/// Self play (`reflex`: either side that can reach the goal in one move must), White to move:
/// can White force Black to reach the goal against White within `n` Black moves?
fn self_att(p: &Position, n: u32, g: G, reflex: bool) -> bool {
    let ms = moves(p);
    if reflex && ms.iter().any(|&m| goal(&p.play(m), g)) {
        return false;
    }
    ms.into_iter().any(|m| self_def(&p.play(m), n, g, reflex))
}

/// Self play, Black to move: is Black forced to reach the goal within `n` of its moves?
fn self_def(q: &Position, n: u32, g: G, reflex: bool) -> bool {
    let ds = moves(q);
    if ds.is_empty() {
        return false;
    }
    if reflex && ds.iter().any(|&d| goal(&q.play(d), g)) {
        return true;
    }
    ds.into_iter().all(|d| {
        let r = q.play(d);
        (!reflex && goal(&r, g)) || (n > 1 && self_att(&r, n - 1, g, reflex))
    })
}

/// Keys of a battle stipulation.
fn battle_keys(p: &Position, s: &Stipulation, g: G) -> BTreeSet<String> {
    use feerie::problem::stipulation::Play;
    let n = s.moves;
    let ms = moves(p);
    let reflex_forced = s.play == Play::Reflex && ms.iter().any(|&m| goal(&p.play(m), g));
    ms.into_iter()
        .filter(|&m| {
            let q = p.play(m);
            match s.play {
                Play::Direct => goal(&q, g) || (n > 1 && direct_def(&q, n - 1, g)),
                Play::SelfPlay => self_def(&q, n, g, false),
                Play::Reflex => !reflex_forced && self_def(&q, n, g, true),
                _ => unreachable!(),
            }
        })
        .map(|m| p.move_text(m, Lang::En))
        .collect()
}

/// Every help line of exactly `plies` half-moves ending in the goal.
fn help_lines(p: &Position, plies: u32, g: G, prefix: &mut Vec<String>, out: &mut BTreeSet<Vec<String>>) {
    for m in moves(p) {
        let q = p.play(m);
        prefix.push(p.move_text(m, Lang::En));
        if plies == 1 {
            if goal(&q, g) {
                out.insert(prefix.clone());
            }
        } else if !(g == G::Check && plies % 2 == 1 && goal(&q, g)) {
            // Check ends help play where it is given (Popeye's `h+2` has no line that checks
            // on the way): such a line is a shorter one, found at its own length.
            help_lines(&q, plies - 1, g, prefix, out);
        }
        prefix.pop();
    }
}

/// What feerie's solver finds: keys (battle) or lines (help).
fn feerie(p: &Position, s: &Stipulation, threads: usize, hash_mb: usize) -> (BTreeSet<String>, BTreeSet<Vec<String>>) {
    let opts = SolveOptions { threads, hash_mb, tree: false, ..SolveOptions::default() };
    let solved = solve(p, s, &opts);
    assert!(solved.complete);
    let ph = &solved.phases[0];
    (ph.keys.iter().map(|k| k.mv.clone()).collect(), ph.lines.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect()).collect())
}

#[derive(Clone, Debug)]
struct Spec {
    kings: (u8, u8),
    pieces: Vec<(u8, u8, bool)>,
    castle: bool,
}

const KINDS: [Kind; 9] =
    [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn, Kind::Pawn, Kind::Nightrider, Kind::Grasshopper, Kind::Pao];

/// Kings near their own edges (White on ranks 1-2, Black on 7-8, where mates happen), and
/// up to six more pieces, half of them next to the enemy king.
fn spec() -> impl Strategy<Value = Spec> {
    let near = (0u8..5, 0u8..5);
    (
        (0u8..16, 48u8..64),
        prop::collection::vec((0u8..64, prop::option::weighted(0.5, near), 0u8..KINDS.len() as u8, any::<bool>()), 1..7),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(kings, raw, castle)| {
            let pieces = raw
                .into_iter()
                .map(|(sq, near, k, white)| {
                    let sq = match near {
                        // Within two files and ranks of the enemy king.
                        Some((dx, dy)) => {
                            let target = if white { kings.1 } else { kings.0 };
                            let f = (target % 8) as i32 + dx as i32 - 2;
                            let r = (target / 8) as i32 + dy as i32 - 2;
                            if (0..8).contains(&f) && (0..8).contains(&r) { (r * 8 + f) as u8 } else { sq }
                        }
                        None => sq,
                    };
                    (sq, k, white)
                })
                .collect();
            Spec { kings, pieces, castle }
        })
}

fn position(s: &Spec, side: Color) -> Option<Position> {
    let mut pieces = Vec::new();
    let mut used = BTreeSet::new();
    let mut put = |sq: u8, piece: Piece, pieces: &mut Vec<(Square, Piece)>| {
        if used.insert(sq) {
            pieces.push((Square(sq), piece));
        }
    };
    let (wk, bk) = if s.castle { (4, 60) } else { s.kings };
    put(wk, Piece { color: Color::White, kind: Kind::King }, &mut pieces);
    put(bk, Piece { color: Color::Black, kind: Kind::King }, &mut pieces);
    let mut castling = 0;
    if s.castle {
        put(7, Piece { color: Color::White, kind: Kind::Rook }, &mut pieces);
        put(56, Piece { color: Color::Black, kind: Kind::Rook }, &mut pieces);
        castling = 0b0101;
    }
    for &(sq, k, white) in &s.pieces {
        let kind = KINDS[k as usize];
        // Pawns near promotion make the interesting cases: move them up.
        let sq = if kind == Kind::Pawn { if white { (sq % 8) + 48 } else { sq % 8 + 8 } } else { sq };
        put(sq, Piece { color: if white { Color::White } else { Color::Black }, kind }, &mut pieces);
    }
    let setup = Setup { pieces, side: Some(side), castling, ..Setup::default() };
    let p = Position::from_setup(&setup).ok()?;
    // Positions already at their end are not problems.
    (!moves(&p).is_empty()).then_some(p)
}

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn compare_battle(p: &Position, stip: &str, g: G) -> Result<(), TestCaseError> {
    let s: Stipulation = stip.parse().expect(stip);
    let want = battle_keys(p, &s, g);
    for (threads, hash) in [(1, 0), (1, 4), (3, 4)] {
        let (keys, _) = feerie(p, &s, threads, hash);
        prop_assert_eq!(&keys, &want, "{} {} threads {} hash {}", p.to_fen(), stip, threads, hash);
    }
    Ok(())
}

fn compare_help(p: &Position, stip: &str, g: G) -> Result<(), TestCaseError> {
    let s: Stipulation = stip.parse().expect(stip);
    // Every length of the stipulation's parity up to its own: the short lines are solutions too.
    let mut want = BTreeSet::new();
    let plies = s.help_plies();
    for k in (1..=plies).filter(|k| k % 2 == plies % 2) {
        help_lines(p, k, g, &mut Vec::new(), &mut want);
    }
    for (threads, hash) in [(1, 0), (2, 4)] {
        let (_, lines) = feerie(p, &s, threads, hash);
        prop_assert_eq!(&lines, &want, "{} {} threads {} hash {}", p.to_fen(), stip, threads, hash);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(150))]

    #[test]
    fn direct_play_matches_the_reference(s in spec()) {
        if let Some(p) = position(&s, Color::White) {
            compare_battle(&p, "#1", G::Mate)?;
            compare_battle(&p, "#2", G::Mate)?;
            compare_battle(&p, "=2", G::Stalemate)?;
        }
    }

    #[test]
    fn self_and_reflex_play_match_the_reference(s in spec()) {
        if let Some(p) = position(&s, Color::White) {
            compare_battle(&p, "s#1", G::Mate)?;
            compare_battle(&p, "s#2", G::Mate)?;
            compare_battle(&p, "r#1", G::Mate)?;
            compare_battle(&p, "r#2", G::Mate)?;
            compare_battle(&p, "s=1", G::Stalemate)?;
        }
    }

    #[test]
    fn help_play_matches_the_reference(s in spec()) {
        if let Some(p) = position(&s, Color::Black) {
            compare_help(&p, "h#1", G::Mate)?;
            compare_help(&p, "h#2", G::Mate)?;
            compare_help(&p, "h=1", G::Stalemate)?;
        }
        if let Some(p) = position(&s, Color::White) {
            compare_help(&p, "h#1.5", G::Mate)?;
        }
    }

    /// The check goal `+` (Popeye's `+n`, `h+n`, `s+n`): the goal is "in check", mate
    /// included; a defender without a move that is not in check has escaped.
    #[test]
    fn check_goal_matches_the_reference(s in spec()) {
        if let Some(p) = position(&s, Color::White) {
            compare_battle(&p, "+1", G::Check)?;
            compare_battle(&p, "+2", G::Check)?;
            compare_battle(&p, "s+1", G::Check)?;
        }
        if let Some(p) = position(&s, Color::Black) {
            compare_help(&p, "h+1", G::Check)?;
            compare_help(&p, "h+2", G::Check)?;
        }
    }
}

/// Double stalemate (`==`), on a position found by a search over 91 million random blocked
/// positions (random positions never reach one). White, in check from the pawn g2, plays
/// 1.Kh1-g1: now White's king has f1 and h1 (pawn g2), h2 (king h3) and g2 (guarded) taken,
/// and all White pawns are blocked; Black's king has g2, g4 (own pawns), h2 (king g1), g3
/// (guarded by f2) and h4 (pawn g3), and all Black pawns are blocked. Both sides are
/// stalemated. The reference agrees on `==1` and `==2` and on the stalemate `=1`.
#[test]
fn double_stalemate_keys() {
    let fen = "8/3p4/p1pP4/P1P3p1/6p1/5pPk/5Pp1/7K w - - 0 1";
    let p = Position::from_fen(fen).expect(fen);
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    let s: Stipulation = "==1".parse().unwrap();
    assert_eq!(battle_keys(&p, &s, G::DoubleStalemate), set(&["Kh1-g1"]));
    for (threads, hash) in [(1, 0), (2, 4)] {
        assert_eq!(feerie(&p, &s, threads, hash).0, set(&["Kh1-g1"]));
        let s2: Stipulation = "==2".parse().unwrap();
        assert_eq!(feerie(&p, &s2, threads, hash).0, battle_keys(&p, &s2, G::DoubleStalemate));
        let st: Stipulation = "=1".parse().unwrap();
        assert_eq!(feerie(&p, &st, threads, hash).0, battle_keys(&p, &st, G::Stalemate));
    }
    // Without the black pawn a6, White's pawn a5 could still move after 1.Kh1-g1: Black is
    // stalemated (`=1` holds) but not both sides (`==1` has no key).
    let q = Position::from_fen("8/3p4/2pP4/P1P3p1/6p1/5pPk/5Pp1/7K w - - 0 1").unwrap();
    assert_eq!(feerie(&q, &"=1".parse().unwrap(), 1, 4).0, set(&["Kh1-g1"]));
    assert_eq!(feerie(&q, &s, 1, 4).0, set(&[]));
    assert_eq!(battle_keys(&q, &s, G::DoubleStalemate), set(&[]));
    // After the key, Black is stalemated and so is White: the mark is `==`.
    let m = p.legal_moves().iter().copied().find(|&m| p.move_text(m, Lang::En) == "Kh1-g1").unwrap();
    assert_eq!(Game::mark(&p.play(m)), "==");
}

/// Fixed positions where the key is a special move, each checked by hand.
#[test]
fn special_keys() {
    let keys = |fen: &str, stip: &str| -> BTreeSet<String> {
        let p = Position::from_fen(fen).expect(fen);
        feerie(&p, &stip.parse().expect(stip), 2, 4).0
    };
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();

    // Castling mates. White Ke1 Rh1 Qd5 Bh5 Sd1 Ph2, Black Kf4. After 0-0 the rook on f1
    // checks along the f-file; the flights: e3 (Sd1), e4 and f3 (Qd5 diagonal), e5 f5 g5
    // (Qd5 along the fifth rank), g3 (Ph2), g4 (Bh5); no black piece can block or capture.
    let castle = "8/8/8/3Q3B/5k2/8/7P/3NK2R w K - 0 1";
    assert!(keys(castle, "#1").contains("0-0"));
    // Without the right, castling is no key.
    assert!(!keys("8/8/8/3Q3B/5k2/8/7P/3NK2R w - - 0 1", "#1").contains("0-0"));

    // En passant mates. Black has just played c7-c5. b5*c6 e.p. empties b5 and c5 at once,
    // so the rook on a5 checks along the fifth rank (d5-g5 empty). Flights: g4 (Se3),
    // g5 and g6 (Kf6), h4 (Bf2), h6 (Sg8). No other white move checks the king on h5
    // (knights, bishop and king cannot; the rook's rank is blocked by b5 and c5).
    let ep = "6N1/8/5K2/RPp4k/8/4N3/5B2/8 w - c6 0 1";
    assert_eq!(keys(ep, "#1"), set(&["b5*c6"]));
    // Without the e.p. right there is no mate.
    assert_eq!(keys("6N1/8/5K2/RPp4k/8/4N3/5B2/8 w - - 0 1", "#1"), set(&[]));

    // Promotions: Black Kh8 boxed by its pawns g7 and h7; f8=Q and f8=R check along the
    // eighth rank (g8 empty, out of the king's reach: f8 is two files away); f8=B and f8=S
    // give no check.
    let promo = "7k/5Ppp/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(keys(promo, "#1"), set(&["f7-f8=Q", "f7-f8=R"]));
    // Short solutions: a #2 key set holds the mates in one.
    let two = keys(promo, "#2");
    assert!(two.contains("f7-f8=Q") && two.contains("f7-f8=R"), "{two:?}");
    // Under a self-mate stipulation the same mates are failures: Black has no move left.
    assert!(!keys(promo, "s#1").contains("f7-f8=Q"));
}
