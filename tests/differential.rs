//! The engine against the reference generator of `tests/reference/` on random positions:
//! random placements of orthodox and fairy pieces with castling rights, en-passant squares,
//! reserves and the three Réserve conditions where they fit, and positions reached by random
//! playouts from the start position, Kiwipete and random positions. Along the way: the
//! incremental Zobrist key against `compute_hash`, FEN round trips, and that `play` keeps a
//! valid position.

mod reference;

use feerie::geometry::Square;
use feerie::piece::{Color, Kind, Piece};
use feerie::position::{Move, Position, ReserveRule, Setup};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// A random position before validation.
#[derive(Clone, Debug)]
struct Spec {
    kings: (u8, u8),
    /// (square, kind index, white?)
    pieces: Vec<(u8, usize, bool)>,
    /// Kings on e1/e8 and rooks on the corners named by `castling`.
    castle_layout: bool,
    castling: u8,
    black_to_move: bool,
    /// An en-passant square on this file, with an enemy pawn that can take when `capturer`.
    ep: Option<(u8, bool, bool)>,
    /// Pawns one step from promotion: (file, white?).
    promoting: Vec<(u8, bool)>,
    /// (kind index, white?)
    reserves: Vec<(usize, bool)>,
    /// 0: none, 1: Reserve, 2: WhiteReserve, 3: BlackReserve.
    rule: u8,
    puts: bool,
}

fn kind_strategy(fairy: bool) -> BoxedStrategy<usize> {
    // Kind indices: 1..=5 are Q R B S P, 6.. the fairy kinds.
    if fairy { prop_oneof![3 => 1usize..=5, 2 => 6usize..Kind::CHESS_COUNT].boxed() } else { (1usize..=5).boxed() }
}

prop_compose! {
    fn spec()(fairy in prop::bool::weighted(0.7))(
        kings in (0u8..64, 0u8..64),
        pieces in prop::collection::vec((0u8..64, kind_strategy(fairy), any::<bool>()), 0..22),
        castle_layout in prop::bool::weighted(0.3),
        castling in 0u8..16,
        black_to_move in any::<bool>(),
        ep in prop::option::weighted(0.25, (0u8..8, any::<bool>(), prop::bool::weighted(0.8))),
        promoting in prop::collection::vec((0u8..8, any::<bool>()), 0..3),
        reserves in prop::collection::vec((1usize..Kind::CHESS_COUNT, any::<bool>()), 0..5),
        rule in 0u8..4,
        puts in prop::bool::weighted(0.8),
    ) -> Spec {
        Spec { kings, pieces, castle_layout, castling, black_to_move, ep, promoting, reserves, rule, puts }
    }
}

fn rule_of(n: u8) -> ReserveRule {
    match n {
        1 => ReserveRule { white: true, black: true },
        2 => ReserveRule { white: true, black: false },
        3 => ReserveRule { white: false, black: true },
        _ => ReserveRule::default(),
    }
}

/// Builds the setup a spec describes; `None` when the engine (rightly) refuses it, for
/// instance when the side not to move is in check.
fn build(spec: &Spec) -> Option<Position> {
    let mut board: [Option<Piece>; 64] = [None; 64];
    let side = if spec.black_to_move { Color::Black } else { Color::White };
    let mut castling = 0u8;
    let (wk, bk) = if spec.castle_layout { (4u8, 60u8) } else { spec.kings };
    if wk == bk {
        return None;
    }
    board[wk as usize] = Some(Piece::new(Color::White, Kind::King));
    board[bk as usize] = Some(Piece::new(Color::Black, Kind::King));
    if spec.castle_layout {
        for (bit, sq, color) in [(1u8, 7usize, Color::White), (2, 0, Color::White), (4, 63, Color::Black), (8, 56, Color::Black)] {
            if spec.castling & bit != 0 {
                board[sq] = Some(Piece::new(color, Kind::Rook));
                castling |= bit;
            }
        }
    }
    let mut reserved = 0u64; // squares the en-passant layout needs as they are
    let mut ep = None;
    if let Some((file, capturer, left)) = spec.ep {
        let them = side.opponent();
        // The pawn that just double-stepped, the crossed square and its start square.
        let (pawn, crossed, start, cap_rank) = match side {
            Color::White => (32 + file, 40 + file, 48 + file, 4u8),
            Color::Black => (24 + file, 16 + file, 8 + file, 3u8),
        };
        if [pawn, crossed, start].iter().all(|&s| board[s as usize].is_none()) {
            board[pawn as usize] = Some(Piece::new(them, Kind::Pawn));
            reserved |= (1u64 << pawn) | (1u64 << crossed) | (1u64 << start);
            ep = Some(Square(crossed));
            let cf = if left { file as i32 - 1 } else { file as i32 + 1 };
            if capturer && (0..8).contains(&cf) {
                let cs = (cap_rank as i32 * 8 + cf) as usize;
                if board[cs].is_none() {
                    board[cs] = Some(Piece::new(side, Kind::Pawn));
                    reserved |= 1u64 << cs;
                }
            }
        }
    }
    let promoting = spec.promoting.iter().map(|&(f, white)| (if white { 48 + f } else { 8 + f }, Kind::Pawn.index(), white));
    for (s, k, white) in promoting.chain(spec.pieces.iter().copied()) {
        let kind = Kind::CHESS[k];
        if board[s as usize].is_some() || reserved & (1u64 << s) != 0 || (kind == Kind::Pawn && !(8..56).contains(&s)) {
            continue;
        }
        board[s as usize] = Some(Piece::new(if white { Color::White } else { Color::Black }, kind));
    }
    let mut reserves = [Vec::new(), Vec::new()];
    for &(k, white) in &spec.reserves {
        reserves[if white { 0 } else { 1 }].push(Kind::CHESS[k]);
    }
    let setup = Setup {
        pieces: (0..64u8).filter_map(|s| board[s as usize].map(|p| (Square(s), p))).collect(),
        side: Some(side),
        castling,
        ep,
        reserves,
        reserve_rule: rule_of(spec.rule),
        extra_promotions: vec![],
        halfmove: 0,
        fullmove: 1,
        castling_exclusive: 0,
    };
    let mut p = Position::from_setup(&setup).ok()?;
    p.set_puts_enabled(spec.puts);
    Some(p)
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

/// Checks one position against the reference and every child of it; returns the engine's
/// legal moves. `promotions` are the game's promotion choices (from its start).
fn check_position(p: &Position, promotions: &[Kind]) -> Vec<Move> {
    let fen = p.to_fen();
    let r = reference::from_engine(p, promotions.to_vec());
    let ours = sorted(p.legal_moves().to_vec());
    let want = r.legal_moves();
    if ours != want {
        let missing: Vec<_> = want.iter().filter(|m| !ours.contains(m)).collect();
        let extra: Vec<_> = ours.iter().filter(|m| !want.contains(m)).collect();
        panic!("{fen} (rule {:?}, puts {}): missing {missing:?}, extra {extra:?}", p.reserve_rule(), p.puts_enabled());
    }
    assert_eq!(p.hash(), p.compute_hash(), "{fen}");
    assert_eq!(p.in_check(), r.king_attacked(p.side_to_move()), "{fen}");
    assert_eq!(p.has_legal_move(), !ours.is_empty(), "{fen}");
    // Bulk counting (perft's last ply) counts the same moves, drops by population count.
    assert_eq!(p.count_moves(), ours.len(), "{fen} (rule {:?}, puts {})", p.reserve_rule(), p.puts_enabled());
    // The checking-move generator keeps exactly the moves after which the opponent is in check.
    let mut checks = feerie::rules::chess::MoveList::new();
    p.checking_moves(&mut checks);
    let want_checks: Vec<Move> = ours.iter().copied().filter(|&m| p.play(m).in_check()).collect();
    assert_eq!(sorted(checks.to_vec()), want_checks, "{fen}: checking moves");
    for &m in &ours {
        let q = p.play(m);
        let rq = r.play(m);
        // The same state as the reference's play.
        let mut back = reference::from_engine(&q, promotions.to_vec());
        assert_eq!(back.ep, if rq.ep_usable() { rq.ep } else { None }, "{fen} {m:?}");
        back.ep = rq.ep;
        assert!(back == rq, "{fen} {m:?}: engine {qf0}, reference {rq:?}", qf0 = q.to_fen());
        // The incremental key, and a valid position that FEN carries.
        assert_eq!(q.hash(), q.compute_hash(), "{fen} {m:?}");
        assert!(!q.king_attacked(p.side_to_move()), "{fen} {m:?}");
        let qf = q.to_fen();
        let mut q2 = Position::from_fen(&qf).unwrap_or_else(|e| panic!("{fen} {m:?} gives {qf}: {e}"));
        q2.set_reserve_rule(q.reserve_rule());
        assert!(q2 == q, "{fen} {m:?}: {qf} reads back as {}", q2.to_fen());
        assert_eq!(q2.hash(), q.hash(), "{qf}");
        assert_eq!(q2.to_fen(), qf);
        assert_eq!(p.gives_check(m), q.in_check(), "{fen} {m:?}");
    }
    ours
}

/// Playing a move found elsewhere (a killer) with `try_play`: legal exactly when generated
/// here, and then the same position as `play`.
fn check_try_play(p: &Position, ours: &[Move]) {
    let fen = p.to_fen();
    let mut froms: Vec<u8> = (0..64u8).filter(|&s| p.piece_at(Square(s)).is_some_and(|pc| pc.color == p.side_to_move())).collect();
    froms.push((0..64u8).find(|&s| p.piece_at(Square(s)).is_none()).unwrap_or(0));
    for from in froms {
        for to in 0..64u8 {
            for promotion in [None, Some(Kind::Queen)] {
                let m = Move::Normal { from: Square(from), to: Square(to), promotion };
                let legal = ours.contains(&m);
                match p.try_play(m) {
                    Some(q) => {
                        assert!(legal && q == p.play(m) && q.hash() == p.play(m).hash(), "{fen} {m:?}: try_play plays an illegal move")
                    }
                    None => assert!(!legal, "{fen} {m:?}: try_play refuses a legal move"),
                }
            }
        }
    }
}

/// The key guessed before a move (for prefetching) is the played key for every normal move
/// but a double pawn step (whose en passant square the guess leaves out), and the child key
/// (for skipping a child proven before) is given for exactly those moves and is right.
fn check_key_hint(p: &Position, ours: &[Move]) {
    for &m in ours {
        let double_step = match m {
            Move::Normal { from, to, .. } => {
                p.piece_at(from).is_some_and(|pc| pc.kind == Kind::Pawn) && from.index().abs_diff(to.index()) == 16
            }
            _ => false,
        };
        let played = p.play(m).hash();
        if let Some(key) = p.child_key(m) {
            assert_eq!(key, played, "{} {m:?}: child key", p.to_fen());
        } else {
            assert!(double_step || !matches!(m, Move::Normal { .. }), "{} {m:?}: no child key for a normal move", p.to_fen());
        }
        if matches!(m, Move::Normal { .. }) && !double_step {
            assert_eq!(p.key_hint(m), played, "{} {m:?}: key hint", p.to_fen());
        } else if !matches!(m, Move::Normal { .. }) {
            assert_eq!(p.key_hint(m), played, "{} {m:?}: key hint of a special move", p.to_fen());
        }
    }
}

/// `Position::king_escapes_after` against the position played: where it answers, it says
/// whether the opponent's king has a legal step there (the mate-in-one tests rule out the
/// checks it answers `true` for without playing them). It must answer every plain move and
/// orthodox promotion of a board of orthodox pieces. Returns how many moves it answered.
fn check_king_escapes(p: &Position, ours: &[Move]) -> usize {
    let orthodox = (0..64u8).all(|s| p.piece_at(Square(s)).is_none_or(|pc| Kind::CHESS[1..=5].contains(&pc.kind) || pc.kind == Kind::King));
    let mut answered = 0;
    for &m in ours {
        let told = p.king_escapes_after(m);
        let orthodox_move = matches!(m, Move::Normal { promotion, .. } if promotion.is_none_or(|k| k.is_orthodox()));
        if orthodox && p.king(p.side_to_move().opponent()).is_some() && orthodox_move {
            assert!(told.is_some(), "{} {m:?}: a plain move of an orthodox board not judged", p.to_fen());
        }
        let Some(told) = told else { continue };
        answered += 1;
        let q = p.play(m);
        let king = q.king(q.side_to_move());
        let steps = q.legal_moves().iter().any(|r| matches!(r, Move::Normal { from, .. } if Some(*from) == king));
        assert_eq!(told, steps, "{} {m:?}: king escapes after it", p.to_fen());
    }
    answered
}

/// `Position::free_answers` and `Position::retain_forcing_mate` against the positions
/// played: each free answer is a legal checkless move of the opponent after every move
/// said to spare it, and after each move the filter removes, the opponent has a legal move
/// that gives no check (so it is not forced to mate). Returns how many moves it removed.
fn check_forcing_mate(p: &Position, ours: &[Move]) -> usize {
    let free = p.free_answers();
    for a in &free {
        for &m in ours.iter().filter(|&&m| p.spares(a, m)) {
            let q = p.play(m);
            assert!(q.legal_moves().contains(&a.answer), "{} {m:?}: spares {:?}, which is not legal after it", p.to_fen(), a.answer);
            assert!(!q.play(a.answer).in_check(), "{} {m:?}: spares {:?}, which checks after it", p.to_fen(), a.answer);
        }
    }
    let mut kept = ours.to_vec();
    p.retain_forcing_mate(&mut kept);
    let mut removed = 0;
    for &m in ours.iter().filter(|m| !kept.contains(m)) {
        removed += 1;
        assert!(free.iter().any(|a| p.spares(a, m)), "{} {m:?}: removed, yet it spares no free answer", p.to_fen());
        let q = p.play(m);
        let free = q.legal_moves().iter().any(|&d| !q.play(d).in_check());
        assert!(free, "{} {m:?}: removed, but every answer gives check", p.to_fen());
    }
    assert!(kept.iter().all(|m| ours.contains(m)), "{}: a move added", p.to_fen());
    removed
}

/// `cases` random cases, or `PROPTEST_CASES` when set (for long soak runs).
fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    Config { cases, failure_persistence: None, ..Config::default() }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn random_positions_match_the_reference(spec in spec()) {
        if let Some(p) = build(&spec) {
            let start = reference::from_engine(&p, vec![]);
            let promotions = reference::promotion_choices(&start);
            prop_assert_eq!(p.promotion_kinds().collect::<Vec<_>>(), promotions.clone());
            let ours = check_position(&p, &promotions);
            check_try_play(&p, &ours);
            check_key_hint(&p, &ours);
            check_king_escapes(&p, &ours);
            check_forcing_mate(&p, &ours);
        }
    }
}

/// The king-escape test on mating nets, where its answer matters most: known mates and
/// checks the king steps out of, and every move of three positions.
#[test]
fn king_escapes_tell_mates_from_checks() {
    // (position, move from, move to, the king escapes)
    let cases = [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0, 56, false),  // back-rank mate Ra8#
        ("6k1/5p1p/8/8/8/8/8/R5K1 w - - 0 1", 0, 56, true),   // g7 free
        ("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", 1, 57, false),     // Qb8#
        ("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1", 1, 57, true),      // Kh7
        ("6k1/6pp/8/8/8/8/8/5RK1 w - - 0 1", 5, 61, true),    // Rf8+ Kxf8
        ("6k1/6pp/8/2B5/8/8/8/5RK1 w - - 0 1", 5, 61, false), // Rf8#: the bishop guards f8
    ];
    for (fen, from, to, escapes) in cases {
        let p = Position::from_fen(fen).unwrap();
        let m = Move::Normal { from: Square(from), to: Square(to), promotion: None };
        assert!(p.legal_moves().contains(&m), "{fen} {m:?}");
        assert_eq!(p.king_escapes_after(m), Some(escapes), "{fen} {m:?}");
    }
    let mut answered = 0;
    for fen in [
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
        // Promotion to a leo (a hopper): where the king stands decides what it attacks
        // (found by CI's random cases).
        "rq2k3/QP6/8/8/8/8/8/4K3[(le)] w q - 0 1",
        "rn2k2r/1P5Q/3b4/2n5/1q6/2B5/8/R3K3[(g)(le)] w Qkq - 0 1",
    ] {
        let p = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
        answered += check_king_escapes(&p, &moves);
    }
    assert!(answered > 40, "only {answered} moves judged");
}

/// Regression (found by a soak of the random playouts): Black's a2-a1=PA (a fairy
/// promotion, with no fairy piece on the board before it) makes White's free answer
/// Nc3-b1 illegal, the knight becoming the pao's screen in front of White's king on d1.
/// The filter took a promotion for a plain move whatever its piece.
#[test]
fn forcing_mate_filter_keeps_fairy_promotions() {
    let p = Position::from_fen("B2rk2r/p2pBp2/b2ppnp1/4b3/8/P1N3Rp/pPP2P1P/3K4[(CA)(PA)] b - - 3 16").unwrap();
    let ours: Vec<Move> = p.legal_moves().iter().copied().collect();
    let pao = ours.iter().copied().find(|&m| matches!(m, Move::Normal { from: Square(8), to: Square(0), promotion: Some(Kind::Pao) }));
    let pao = pao.expect("a2-a1=PA is legal");
    let mut kept = ours.clone();
    p.retain_forcing_mate(&mut kept);
    assert!(kept.contains(&pao));
    check_forcing_mate(&p, &ours);
}

/// The filter of self play's last move on positions where it matters: random games from
/// selfmate positions and endings with few answers, where every move it removes is checked
/// by playing it and every answer. It must remove many.
#[test]
fn forcing_mate_filter_removes_only_free_answers() {
    let fens = [
        "4k3/1pp2p1p/8/b3p3/rp6/p5N1/3R4/R2bK3 w Q - 0 1",
        "r3k3/2Qp3R/1p6/1b2K3/4p3/8/5p2/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/8/8/8/3k4/3p4/3K4 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        "1k6/1p6/1K6/8/8/8/8/R7 w - - 0 1",
    ];
    let mut random = {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    };
    let (mut removed, mut positions) = (0, 0);
    for fen in fens {
        for _ in 0..40 {
            let mut p = Position::from_fen(fen).unwrap();
            for _ in 0..12 {
                let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                positions += 1;
                removed += check_forcing_mate(&p, &moves);
                p = p.play(moves[random(moves.len())]);
            }
        }
    }
    assert!(positions > 2000 && removed > 20_000, "{positions} positions, {removed} removed");
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn random_positions_match_the_reference_at_depth_two(spec in spec()) {
        if let Some(p) = build(&spec) {
            let promotions = reference::promotion_choices(&reference::from_engine(&p, vec![]));
            for m in check_position(&p, &promotions) {
                check_position(&p.play(m), &promotions);
            }
        }
    }

    #[test]
    fn random_playouts_match_the_reference(
        start in 0usize..3,
        spec in spec(),
        reserves in prop::collection::vec((1usize..Kind::CHESS_COUNT, any::<bool>()), 0..4),
        rule in 0u8..4,
        choices in prop::collection::vec(any::<u16>(), 1..60),
    ) {
        let mut p = match start {
            0 => Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap(),
            1 => Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap(),
            _ => match build(&spec) {
                Some(p) => p,
                None => return Ok(()),
            },
        };
        if start < 2 {
            let mut setup = p.to_setup();
            for &(k, white) in &reserves {
                setup.reserves[if white { 0 } else { 1 }].push(Kind::CHESS[k]);
            }
            setup.reserve_rule = rule_of(rule);
            p = Position::from_setup(&setup).unwrap();
        }
        let promotions = reference::promotion_choices(&reference::from_engine(&p, vec![]));
        for c in choices {
            let moves = check_position(&p, &promotions);
            check_try_play(&p, &moves);
            check_forcing_mate(&p, &moves);
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[c as usize % moves.len()]);
        }
    }

    #[test]
    fn fen_round_trips(spec in spec(), halfmove in 0u16..200, fullmove in 1u16..500) {
        if let Some(p) = build(&spec) {
            let mut setup = p.to_setup();
            setup.halfmove = halfmove;
            setup.fullmove = fullmove;
            setup.reserve_rule = ReserveRule::default();
            let p = Position::from_setup(&setup).unwrap();
            let fen = p.to_fen();
            let q = Position::from_fen(&fen).unwrap();
            prop_assert_eq!(q.to_fen(), fen.clone());
            prop_assert_eq!(q, p);
            prop_assert_eq!(q.hash(), p.hash());
            // And through a setup.
            prop_assert_eq!(Position::from_setup(&q.to_setup()).unwrap().to_fen(), fen);
        }
    }
}

/// Enough random specs are valid positions, and they hold every kind of move and situation,
/// for the tests above to mean something.
#[test]
fn random_positions_cover_every_rule() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = spec();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    let mut valid = 0;
    for _ in 0..1000 {
        let Some(p) = build(&strat.new_tree(&mut runner).unwrap().current()) else { continue };
        valid += 1;
        let us = p.side_to_move();
        let fairy_them = (0..64).any(|s| p.piece_at(Square(s)).is_some_and(|x| x.color != us && reference::is_fairy(x.kind)));
        let mut note = |what: &'static str, yes: bool| *seen.entry(what).or_default() += yes as usize;
        note("in check", p.in_check());
        note("no legal move", !p.has_legal_move());
        note("fairy enemy (make-then-test)", fairy_them);
        let moves = p.legal_moves();
        note("castling", moves.iter().any(|m| matches!(m, Move::Castle { .. })));
        note("en passant", moves.iter().any(|m| matches!(m, Move::EnPassant { .. })));
        note("promotion", moves.iter().any(|m| matches!(m, Move::Normal { promotion: Some(_), .. })));
        note("fairy promotion", moves.iter().any(|m| matches!(m, Move::Normal { promotion: Some(k), .. } if reference::is_fairy(*k))));
        note("put", moves.iter().any(|m| matches!(m, Move::Put { .. })));
        note("drop", moves.iter().any(|m| matches!(m, Move::Drop { .. })));
        note("promoting drop", moves.iter().any(|m| matches!(m, Move::Drop { promotion: Some(_), .. })));
        note("drop in check", p.in_check() && moves.iter().any(|m| matches!(m, Move::Drop { .. })));
        // Each of the three conditions, with the side to move holding a reserve (and, for the
        // one-sided ones, the other side to move: no Réserve move at all, whatever it holds).
        let rule = p.reserve_rule();
        let reserve_moves = moves.iter().any(|m| matches!(m, Move::Drop { .. } | Move::Put { .. }));
        let holds = Kind::CHESS.iter().any(|&k| p.reserve_count(us, k) > 0);
        note("Reserve, drops", rule.white && rule.black && holds && reserve_moves);
        note("WhiteReserve, drops", rule.white && !rule.black && us == Color::White && holds && reserve_moves);
        note("BlackReserve, drops", !rule.white && rule.black && us == Color::Black && holds && reserve_moves);
        note("WhiteReserve, Black to move", rule.white && !rule.black && us == Color::Black && !reserve_moves);
        note("BlackReserve, White to move", !rule.white && rule.black && us == Color::White && !reserve_moves);
    }
    assert!(valid > 500, "only {valid} of 1000 random positions are valid");
    for (what, n) in &seen {
        assert!(*n >= 5, "only {n} random positions with {what}: {seen:?}");
        eprintln!("{what}: {n}");
    }
}

#[test]
fn reference_perft_agrees_on_the_suite() {
    // The reference itself, on known numbers (slow, so shallow).
    for (fen, counts) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20u64, 400][..]),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[48, 2039]),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", &[6, 264]),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1486]),
    ] {
        let p = Position::from_fen(fen).unwrap();
        let r = reference::from_engine(&p, vec![Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]);
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(r.perft(i as u32 + 1), n, "{fen} depth {}", i + 1);
        }
    }
    let mut p = Position::from_fen("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1").unwrap();
    p.set_reserve_rule(ReserveRule { white: true, black: true });
    p.set_puts_enabled(false);
    let r = reference::from_engine(&p, vec![Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]);
    assert_eq!(r.perft(2), 3083);
}

#[test]
fn reference_fairy_pieces_on_an_empty_board() {
    // Move counts from d4 with both kings off its lines (a8, h1), counted on a diagram.
    let count = |kind: Kind, s: &str| {
        let mut p = Position::from_fen("k7/8/8/8/8/8/8/7K w - - 0 1").unwrap().to_setup();
        p.pieces.push((feerie::position::parse_sq(s).unwrap(), Piece::new(Color::White, kind)));
        let pos = Position::from_setup(&p).unwrap();
        let r = reference::from_engine(&pos, vec![]);
        r.legal_moves().iter().filter(|m| m.from() == feerie::position::parse_sq(s)).count()
    };
    assert_eq!(count(Kind::Camel, "d4"), 8);
    assert_eq!(count(Kind::Zebra, "d4"), 8);
    assert_eq!(count(Kind::Giraffe, "d4"), 4); // c8, e8, h3, h5
    assert_eq!(count(Kind::Nightrider, "d4"), 12);
    assert_eq!(count(Kind::Grasshopper, "d4"), 0);
    assert_eq!(count(Kind::Leo, "d4"), 27);
    assert_eq!(count(Kind::Pao, "d4"), 14);
    assert_eq!(count(Kind::Vao, "d4"), 13);
    assert_eq!(count(Kind::Mao, "d4"), 8);
    assert_eq!(count(Kind::Moa, "d4"), 8);
    assert_eq!(count(Kind::Amazon, "d4"), 35);
    assert_eq!(count(Kind::Empress, "d4"), 22);
    assert_eq!(count(Kind::Princess, "d4"), 21);
}
