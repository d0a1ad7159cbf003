//! The helpmate bound (`Game::goal_unreachable`, `src/rules/bound.rs`) against brute force,
//! for mate and for stalemate (`the_bound_never_cuts_a_stalemate`, and the `h=` and `ser-=`,
//! `ser-h=` stipulations among those compared with plain enumeration).
//!
//! 1. `the_bound_never_cuts_a_mate`: on random orthodox positions (castling rights, en-passant
//!    squares, pawns about to promote, pieces crowded round the kings, often one weak side
//!    with knights, a bishop or pawns against a side crowding its own king, where the bound
//!    is tight) and on the positions a few random moves further, every node of the full help
//!    tree up to `k` half-moves is visited; wherever the bound says "no mate in `k`", a plain
//!    search from that node must find no line of exactly `k` half-moves ending in mate. The
//!    test also counts that the bound fired often and that mating lines through castling
//!    (either side), promotion and en passant were met (the bound was asked, and held, on
//!    those lines).
//!    The same walk checks the move filters: before the mated side's last move
//!    (`Game::retain_before_goal_in_one`), before the mating side's move that comes before
//!    it (`Game::retain_mating_moves`) and before every move of the mated side
//!    (`Game::retain_mated_moves`), no move they remove is followed by a mate in time.
//! 2. `special_moves_are_not_cut`: hand-made positions where the bound is tight and the mate
//!    needs castling, a castled rook closing a flight, a capture that promotes, a self-block.
//!    Each of them fails when the matching part of the relaxation is left out.
//! 3. `helpmates_match_the_reference`: the solver (with the bound) against a plain
//!    enumeration of help lines (`h#1`, `h#1.5`, `h#2`, `h#2.5`, `h#3`) on random orthodox
//!    positions: the same solutions.
//!
//! 4. `the_bound_never_cuts_a_series_mate`: the same brute-force check for series play, where
//!    one side makes all the moves: `ser-#` (the other side stands still: 0 moves against
//!    `k`) and `ser-h#` (`k` moves, then mated in one).
//! 5. `series_mates_match_the_reference`: the solver (with the bound) against a plain
//!    enumeration of series lines (`ser-#1` to `ser-#3`, `ser-h#1` to `ser-h#3`).
//!
//! `HELP_BOUND_CASES` sets the number of random positions (default 3000; the third test takes
//! one in 14 of that).

use feerie::geometry::Square;
use feerie::piece::{Color, Kind, Lang, Piece};
use feerie::position::{Move, Position, Setup, castle};
use feerie::problem::Stipulation;
use feerie::rules::{Game, Goal};
use feerie::solve::{SolveOptions, solve};
use std::collections::{BTreeSet, HashMap};

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn moves(p: &Position) -> Vec<Move> {
    p.legal_moves().to_vec()
}

fn mated(p: &Position) -> bool {
    p.in_check() && moves(p).is_empty()
}

/// Whether `goal` (mate or stalemate of the side to move) is reached in `p`.
fn reached(p: &Position, goal: Goal) -> bool {
    match goal {
        Goal::Mate => mated(p),
        Goal::Stalemate => !p.in_check() && !Game::has_move(p),
        _ => unreachable!("the bound knows mate and stalemate"),
    }
}

/// The mated side and the moves each side has left, for a help line of `k` half-moves from
/// `p` that ends in mate: the side to move at the last half-move mates.
fn sides(p: &Position, k: u32) -> (Color, u32, u32) {
    let mating = if k % 2 == 1 { p.side_to_move() } else { p.side_to_move().opponent() };
    (mating.opponent(), k / 2, k.div_ceil(2))
}

/// A random orthodox position, or `None` when the setup is not legal.
fn random_position(r: &mut Rng) -> Option<Position> {
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut castling = 0;
    let castle_layout = r.chance(35);
    let (wk, bk) = if castle_layout {
        (4u8, 60u8)
    } else {
        // Mostly near their own edges, where mates happen; sometimes anywhere.
        let wk = if r.chance(70) { r.below(24) } else { r.below(64) } as u8;
        let bk = if r.chance(70) { 40 + r.below(24) } else { r.below(64) } as u8;
        (wk, bk)
    };
    if wk == bk {
        return None;
    }
    board[wk as usize] = Some(Piece::new(Color::White, Kind::King));
    board[bk as usize] = Some(Piece::new(Color::Black, Kind::King));
    if castle_layout {
        for (bit, sq, color) in
            [(castle::WK, 7, Color::White), (castle::WQ, 0, Color::White), (castle::BK, 63, Color::Black), (castle::BQ, 56, Color::Black)]
        {
            if r.chance(60) {
                board[sq] = Some(Piece::new(color, Kind::Rook));
                castling |= bit;
            }
        }
    }
    let kinds = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn, Kind::Pawn];
    // Often one side is weak (knights, a bishop, pawns: where the bound is tight) and the
    // other crowds its own king (self-blocks: its pieces fill the flights).
    let weak = if r.chance(45) { Some(r.chance(50)) } else { None };
    let mut weak_pieces = 0;
    let extra = 1 + r.below(if weak.is_some() { 8 } else { 6 });
    for _ in 0..extra {
        let white = r.chance(50);
        let is_weak = weak == Some(white);
        if is_weak && weak_pieces == 2 {
            continue;
        }
        let kind = if is_weak {
            weak_pieces += 1;
            [Kind::Knight, Kind::Knight, Kind::Bishop, Kind::Pawn][r.below(4) as usize]
        } else {
            kinds[r.below(kinds.len() as u64) as usize]
        };
        let own = if white { wk } else { bk } as i32;
        let enemy = if white { bk } else { wk } as i32;
        let target = if weak.is_some() && !is_weak { own } else { enemy };
        let sq = if kind == Kind::Pawn && r.chance(50) {
            // About to promote.
            let f = r.below(8) as u8;
            if white { 48 + f } else { 8 + f }
        } else if r.chance(if weak.is_some() { 80 } else { 60 }) {
            // Within two files and ranks of the enemy king (of its own, for the strong side).
            let f = target % 8 + r.below(5) as i32 - 2;
            let rk = target / 8 + r.below(5) as i32 - 2;
            if !(0..8).contains(&f) || !(0..8).contains(&rk) {
                continue;
            }
            (rk * 8 + f) as u8
        } else {
            r.below(64) as u8
        };
        if board[sq as usize].is_some() || (kind == Kind::Pawn && !(8..56).contains(&sq)) {
            continue;
        }
        board[sq as usize] = Some(Piece::new(if white { Color::White } else { Color::Black }, kind));
    }
    let side = if r.chance(50) { Color::White } else { Color::Black };
    // En passant: the opponent's pawn has just double-stepped next to one of ours.
    let mut ep = None;
    if r.chance(30) {
        let f = r.below(8) as i32;
        let g = if f == 0 || (f < 7 && r.chance(50)) { f + 1 } else { f - 1 };
        let (rank, crossed, from, them) = match side {
            Color::White => (4, 5, 6, Color::Black),
            Color::Black => (3, 2, 1, Color::White),
        };
        let (pawn, ours, cross, start) =
            ((rank * 8 + f) as usize, (rank * 8 + g) as usize, (crossed * 8 + f) as usize, (from * 8 + f) as usize);
        if board[pawn].is_none() && board[ours].is_none() && board[cross].is_none() && board[start].is_none() {
            board[pawn] = Some(Piece::new(them, Kind::Pawn));
            board[ours] = Some(Piece::new(side, Kind::Pawn));
            ep = Some(Square(cross as u8));
        }
    }
    let pieces = (0..64u8).filter_map(|i| board[i as usize].map(|p| (Square(i), p))).collect();
    Position::from_setup(&Setup { pieces, side: Some(side), castling, ep, ..Setup::default() }).ok()
}

/// `p` after fewer than `max` random legal moves.
fn random_moves(mut p: Position, r: &mut Rng, max: u64) -> Position {
    for _ in 0..r.below(max) {
        let ms = moves(&p);
        if ms.is_empty() {
            break;
        }
        p = p.play(ms[r.below(ms.len() as u64) as usize]);
    }
    p
}

/// What the brute-force walk met.
#[derive(Default, Debug)]
struct Stats {
    /// Nodes where the bound was asked.
    asked: u64,
    /// Nodes where it said "no mate" (and brute force agreed).
    cut: u64,
    /// Nodes from which a mating line exists.
    mating: u64,
    /// Moves on mating lines: castling by the mated side, by the mating side, promotions,
    /// en-passant captures.
    castle_mated: u64,
    castle_mating: u64,
    promotion: u64,
    en_passant: u64,
    /// Moves judged by the move filters, and those they removed (brute force found no mate
    /// in time after them).
    filter_asked: u64,
    filter_removed: u64,
    /// The same for the filter of the mated side's moves alone.
    mated_filter_asked: u64,
    mated_filter_removed: u64,
    /// The same for the filter of the stalemating move alone (`Game::retain_goal_moves`).
    goal_filter_asked: u64,
    goal_filter_removed: u64,
}

/// Whether a line of exactly `k` half-moves from `p` ends in mate; checks the bound at every
/// node of the tree on the way (memoised on the key and `k`).
fn walk(p: &Position, k: u32, goal: Goal, memo: &mut HashMap<(u64, u32), bool>, st: &mut Stats) -> bool {
    if let Some(&v) = memo.get(&(p.hash(), k)) {
        return v;
    }
    let mut any = false;
    // The moves the filters keep: before the mated side's last move (`k` = 2), before the
    // mating side's move that comes before it (`k` = 3), and before each move of the mated
    // side (`k` even).
    let mut kept: Vec<(&str, Vec<Move>)> = Vec::new();
    if k == 1 {
        let mut v = moves(p);
        p.retain_goal_moves(goal, &mut v);
        kept.push(("goal move", v));
    }
    if k == 2 {
        let mut v = moves(p);
        p.retain_before_goal_in_one(goal, &mut v);
        kept.push(("last move", v));
    }
    if k == 3 {
        let mut v = moves(p);
        p.retain_mating_moves(goal, &mut v, 1, 1);
        kept.push(("mating move", v));
    }
    if k.is_multiple_of(2) {
        let mut v = moves(p);
        if p.retain_mated_moves(goal, &mut v, k / 2 - 1, k / 2) {
            kept.push(("mated side's move", v));
        }
    }
    for m in moves(p) {
        let q = p.play(m);
        let reached = if k == 1 { reached(&q, goal) } else { walk(&q, k - 1, goal, memo, st) };
        for (filter, kept) in &kept {
            st.filter_asked += (*filter != "goal move") as u64;
            let mated_filter = *filter == "mated side's move";
            let goal_filter = *filter == "goal move";
            st.mated_filter_asked += mated_filter as u64;
            st.goal_filter_asked += goal_filter as u64;
            if !kept.contains(&m) {
                st.filter_removed += (*filter != "goal move") as u64;
                st.mated_filter_removed += mated_filter as u64;
                st.goal_filter_removed += goal_filter as u64;
                assert!(!reached, "the {filter} filter before move {k} removes {m:?} from {}, which a mate follows", p.to_fen());
            }
        }
        if reached {
            any = true;
            match m {
                Move::Castle { .. } if k.is_multiple_of(2) => st.castle_mated += 1,
                Move::Castle { .. } => st.castle_mating += 1,
                Move::Normal { promotion: Some(_), .. } => st.promotion += 1,
                Move::EnPassant { .. } => st.en_passant += 1,
                _ => {}
            }
        }
    }
    let (m, bm, wa) = sides(p, k);
    record(p, k, any, (goal, m, bm, wa), "help", memo, st)
}

/// Asks the bound at `p` (`k` moves left; `any`: whether brute force found a mating line from
/// there) and checks that it does not cut a mate; counts and memoises.
fn record(
    p: &Position,
    k: u32,
    any: bool,
    (goal, m, bm, wa): (Goal, Color, u32, u32),
    what: &str,
    memo: &mut HashMap<(u64, u32), bool>,
    st: &mut Stats,
) -> bool {
    st.asked += 1;
    if p.goal_unreachable(goal, m, bm, wa) {
        st.cut += 1;
        assert!(!any, "the bound cuts a {what} {goal:?} in {k}: {} ({m:?} mated, {bm} and {wa} moves)", p.to_fen());
    }
    if any {
        st.mating += 1;
    }
    memo.insert((p.hash(), k), any);
    any
}

/// A random position, sometimes a few random moves further (rights lost, promoted pieces,
/// captures), with a number of moves to search: deeper where the position is narrow.
fn random_case(r: &mut Rng) -> Option<(Position, u32)> {
    let p = random_moves(random_position(r)?, r, 4);
    let k = random_depth(r, &p, 4);
    Some((p, k))
}

/// A number of moves to search from `p`: from 1 or 2 up to about `spread`, deeper where
/// the position is narrow.
fn random_depth(r: &mut Rng, p: &Position, spread: u64) -> u32 {
    let width = moves(p).len().max(1) as u64;
    (match width {
        0..=12 => 2 + r.below(spread),
        13..=30 => 1 + r.below(spread),
        _ => 1 + r.below(spread - 1),
    }) as u32
}

/// Walks the help trees of `cases` random positions (and of positions a few random moves
/// further) for `goal`, checking the bound and the filters at every node.
fn help_walks(seed: u64, goal: Goal, cases: u32) -> Stats {
    let mut r = Rng(seed);
    let mut st = Stats::default();
    let mut done = 0;
    while done < cases {
        let Some((p, k)) = random_case(&mut r) else { continue };
        done += 1;
        let mut memo = HashMap::new();
        walk(&p, k, goal, &mut memo, &mut st);
    }
    eprintln!("{goal:?}: {st:?}");
    st
}

fn cases() -> u32 {
    std::env::var("HELP_BOUND_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000)
}

#[test]
fn the_bound_never_cuts_a_mate() {
    let st = help_walks(0x00B0_0DED_5EED_0001, Goal::Mate, cases());
    // Not vacuous: the bound fires, mates exist, and the special moves occur on mating lines.
    assert!(st.cut * 5 > st.asked, "{st:?}");
    assert!(st.filter_removed * 5 > st.filter_asked, "{st:?}");
    assert!(st.mated_filter_removed * 10 > st.mated_filter_asked, "{st:?}");
    assert!(st.mating > 1000, "{st:?}");
    if cases() >= 3000 {
        assert!(st.castle_mated > 0 && st.castle_mating > 0 && st.promotion > 0 && st.en_passant > 0, "{st:?}");
    }
}

/// The same for stalemate (`h=`): the bound without the check, the filter before the
/// stalemating side's move.
#[test]
fn the_bound_never_cuts_a_stalemate() {
    let st = help_walks(0x00B0_0DED_5EED_0005, Goal::Stalemate, cases() / 5);
    assert!(st.cut * 5 > st.asked, "{st:?}");
    // The stalemating move's filter removes most moves.
    assert!(st.goal_filter_removed * 2 > st.goal_filter_asked, "{st:?}");
    assert!(st.filter_removed * 5 > st.filter_asked, "{st:?}");
    assert!(st.mated_filter_removed * 10 > st.mated_filter_asked, "{st:?}");
    assert!(st.mating > 500, "{st:?}");
}

/// Whether a line of exactly `k` half-moves from `p` ends in `goal` (plain search, memoised).
fn reaches_in(p: &Position, k: u32, goal: Goal, memo: &mut HashMap<(u64, u32), bool>) -> bool {
    if let Some(&v) = memo.get(&(p.hash(), k)) {
        return v;
    }
    let v = moves(p).into_iter().any(|m| {
        let q = p.play(m);
        if k == 1 { reached(&q, goal) } else { reaches_in(&q, k - 1, goal, memo) }
    });
    memo.insert((p.hash(), k), v);
    v
}

/// What following the plans met: moves judged, moves the plan cut, moves on lines that
/// reach the goal (each kept), and the special ones among them.
#[derive(Default, Debug)]
struct PlanStats {
    plans: u64,
    judged: u64,
    cut: u64,
    on_lines: u64,
    castle_mated: u64,
    castle_mating: u64,
    promotion: u64,
    en_passant: u64,
    capture: u64,
}

/// Follows the plan of `p` (`k` half-moves left) along every line that reaches the goal,
/// checking at each of their positions every move: the plan may cut a move only when no
/// line through it reaches the goal.
fn follow_plan(
    p: &Position,
    k: u32,
    plan: &<Position as Game>::Plan,
    goal: Goal,
    memo: &mut HashMap<(u64, u32), bool>,
    st: &mut PlanStats,
) {
    for m in moves(p) {
        let q = p.play(m);
        let good = if k == 1 { reached(&q, goal) } else { reaches_in(&q, k - 1, goal, memo) };
        let next = p.plan_after(plan, m);
        st.judged += 1;
        match next {
            None => {
                st.cut += 1;
                assert!(!good, "the plan of {} ({k} half-moves) cuts {m:?}, which a {goal:?} follows", p.to_fen());
            }
            Some(next) if good => {
                st.on_lines += 1;
                match m {
                    Move::Castle { .. } if k.is_multiple_of(2) => st.castle_mated += 1,
                    Move::Castle { .. } => st.castle_mating += 1,
                    Move::Normal { promotion: Some(_), .. } => st.promotion += 1,
                    Move::EnPassant { .. } => st.en_passant += 1,
                    Move::Normal { to, .. } if p.piece_at(to).is_some() => st.capture += 1,
                    _ => {}
                }
                if k > 1 {
                    follow_plan(&q, k - 1, &next, goal, memo, st);
                }
            }
            Some(_) => {}
        }
    }
}

/// Follows the plans for `goal` of `count` cases drawn by `draw` (a position and its
/// half-moves left; `None` to draw again) with [`follow_plan`].
fn plan_walks(goal: Goal, r: &mut Rng, count: u64, draw: impl Fn(&mut Rng) -> Option<(Position, u32)>) -> PlanStats {
    let mut st = PlanStats::default();
    while st.plans < count {
        let Some((p, k)) = draw(r) else { continue };
        let (mated, bm, wa) = sides(&p, k);
        let Some(plan) = p.plan(goal, mated, bm, wa) else { continue };
        st.plans += 1;
        let mut memo = HashMap::new();
        follow_plan(&p, k, &plan, goal, &mut memo, &mut st);
    }
    eprintln!("{goal:?}: {st:?}");
    st
}

/// The intelligent mode's plans (`Game::plan`, `src/rules/intelligent.rs`) against brute
/// force on random positions and depths: along every line that ends in mate, no move of it
/// is cut, and every other move the plan cuts is followed by no mate in time. Mating lines
/// through castling (both sides), promotion, en passant and captures are met.
#[test]
fn the_plan_never_cuts_a_mate() {
    let st = plan_walks(Goal::Mate, &mut Rng(0x00B0_0DED_5EED_0021), cases() as u64, random_case);
    // Not vacuous: the plans cut most moves, and lines of every special kind were followed.
    assert!(st.cut * 2 > st.judged && st.on_lines > 1000, "{st:?}");
    if cases() >= 3000 {
        assert!(st.castle_mated > 0 && st.castle_mating > 0 && st.promotion > 0 && st.en_passant > 0 && st.capture > 0, "{st:?}");
    }
}

/// The same for the stalemate plans: along every line that ends in stalemate no move is cut,
/// on random positions and on sparse ones where stalemates are common.
#[test]
fn the_plan_never_cuts_a_stalemate() {
    let st = plan_walks(Goal::Stalemate, &mut Rng(0x5EED_57A1_E3A7_0011), cases() as u64, |r| {
        if r.chance(50) {
            return random_case(r);
        }
        let to_move = if r.chance(50) { Color::White } else { Color::Black };
        let k = 1 + r.below(5) as u32;
        // The side to move at the last half-move stalemates the other.
        let lone = if k % 2 == 1 { to_move.opponent() } else { to_move };
        sparse_position(r, to_move, lone, 4).map(|p| (p, k))
    });
    // Not vacuous: the plans cut moves, and stalemating lines were followed through captures
    // and promotions.
    assert!(st.cut * 5 > st.judged && st.on_lines > 300, "{st:?}");
    if cases() >= 3000 {
        assert!(st.promotion > 0 && st.capture > 0, "{st:?}");
    }
}

/// The stalemate plans where the stalemated side has many pieces besides its king, each of
/// which the plans account for (it must be taken, pinned, or left without a move: `Fates`
/// in `src/rules/intelligent.rs`): along every line that ends in stalemate no move is cut.
#[test]
fn the_plan_never_cuts_a_stalemate_of_many_pieces() {
    let st = plan_walks(Goal::Stalemate, &mut Rng(0x5EED_57A1_E3A7_0023), (cases() / 6).max(50) as u64, |r| {
        let to_move = if r.chance(50) { Color::White } else { Color::Black };
        let k = 2 + r.below(3) as u32;
        let lone = if k % 2 == 1 { to_move.opponent() } else { to_move };
        let p = sparse_position(r, to_move, lone, 9)?;
        // Not too wide for the brute force.
        (moves(&p).len() <= 24).then_some((p, k))
    });
    assert!(st.cut * 5 > st.judged && st.on_lines > 50, "{st:?}");
}

/// The mate plans on sparse positions, the mated side's king crowded by its own pieces and
/// the mating side's few pieces often on its lines (pins, self-blocks, blockers that could
/// take the checker or give check): there the pictures are closed into mates of their own
/// (`src/rules/intelligent/closure.rs`), each legal move of the mated side taken away by one
/// more piece, and the closing must lose no mate. Along every line that ends in mate no move
/// is cut.
#[test]
fn the_closed_mate_pictures_never_cut_a_mate() {
    let st = plan_walks(Goal::Mate, &mut Rng(0x00C1_05ED_3A7E_0001), (cases() / 15).max(50) as u64, |r| {
        let to_move = if r.chance(50) { Color::White } else { Color::Black };
        let k = 3 + r.below(4) as u32;
        let lone = if k % 2 == 1 { to_move.opponent() } else { to_move };
        let p = sparse_position(r, to_move, lone, 7)?;
        let width = moves(&p).len();
        // Not too wide for the brute force at the greater depths.
        (width <= if k >= 5 { 14 } else { 28 }).then_some((p, k))
    });
    assert!(st.cut * 2 > st.judged && st.on_lines > 200, "{st:?}");
    if cases() >= 3000 {
        assert!(st.promotion > 0 && st.capture > 0, "{st:?}");
    }
}

/// A random sparse position where stalemates are common: the side `lone` has its king and
/// fewer than `most` pieces near it, the other side its king and up to four pieces anywhere
/// (lines along the lone king's lines more often than chance: pins).
fn sparse_position(r: &mut Rng, to_move: Color, lone: Color, most: u64) -> Option<Position> {
    let mut board: [Option<Piece>; 64] = [None; 64];
    let k = r.below(64) as i32;
    board[k as usize] = Some(Piece::new(lone, Kind::King));
    let other = r.below(64) as usize;
    if board[other].is_some() {
        return None;
    }
    board[other] = Some(Piece::new(lone.opponent(), Kind::King));
    let near = |r: &mut Rng| {
        let f = k % 8 + r.below(5) as i32 - 2;
        let rk = k / 8 + r.below(5) as i32 - 2;
        ((0..8).contains(&f) && (0..8).contains(&rk)).then_some((rk * 8 + f) as usize)
    };
    for _ in 0..r.below(most) {
        let kind = [Kind::Pawn, Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen][r.below(6) as usize];
        if let Some(s) = near(r)
            && board[s].is_none()
            && (kind != Kind::Pawn || (8..56).contains(&s))
        {
            board[s] = Some(Piece::new(lone, kind));
        }
    }
    for _ in 0..1 + r.below(4) {
        let kind = [Kind::Queen, Kind::Rook, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn][r.below(6) as usize];
        let s = if r.chance(40) {
            // On a line of the lone king.
            let (df, dr) = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)][r.below(8) as usize];
            let n = 1 + r.below(7) as i32;
            let (f, rk) = (k % 8 + df * n, k / 8 + dr * n);
            if !(0..8).contains(&f) || !(0..8).contains(&rk) {
                continue;
            }
            (rk * 8 + f) as usize
        } else {
            r.below(64) as usize
        };
        if board[s].is_none() && (kind != Kind::Pawn || (8..56).contains(&s)) {
            board[s] = Some(Piece::new(lone.opponent(), kind));
        }
    }
    let pieces = (0..64u8).filter_map(|i| board[i as usize].map(|p| (Square(i), p))).collect();
    Position::from_setup(&Setup { pieces, side: Some(to_move), ..Setup::default() }).ok()
}

/// The two stalemate filters alone, on many random positions (and a few random moves
/// further): no move the stalemating move's filter removes stalemates, and no last move the
/// filter before it removes is followed by a stalemate in one.
#[test]
fn the_stalemate_filters_never_remove_a_stalemate() {
    let mut r = Rng(0x00B0_0DED_5EED_0017);
    let (mut stalemates, mut removed, mut asked, mut before_removed, mut before_asked, mut followed) = (0, 0, 0, 0, 0, 0);
    let mut done = 0;
    while done < cases() * 20 {
        // Half of them sparse, the lone side to be stalemated: either to move (its last
        // move first) or not (the stalemating move).
        let position = if r.chance(50) {
            let lone = if r.chance(50) { Color::White } else { Color::Black };
            let to_move = if r.chance(50) { lone } else { lone.opponent() };
            sparse_position(&mut r, to_move, lone, 4)
        } else {
            random_position(&mut r)
        };
        let Some(p) = position else { continue };
        let p = random_moves(p, &mut r, 3);
        done += 1;
        let all = moves(&p);
        let mut kept = all.clone();
        p.retain_goal_moves(Goal::Stalemate, &mut kept);
        let mut before = all.clone();
        p.retain_before_goal_in_one(Goal::Stalemate, &mut before);
        for &m in &all {
            let q = p.play(m);
            let stalemate = reached(&q, Goal::Stalemate);
            stalemates += stalemate as u64;
            asked += 1;
            if !kept.contains(&m) {
                removed += 1;
                assert!(!stalemate, "the stalemating move's filter removes {m:?} from {}", p.to_fen());
            }
            let next = moves(&q).into_iter().any(|d| reached(&q.play(d), Goal::Stalemate));
            followed += next as u64;
            before_asked += 1;
            if !before.contains(&m) {
                before_removed += 1;
                assert!(!next, "the filter before the stalemating move removes {m:?} from {}, which a stalemate follows", p.to_fen());
            }
        }
    }
    eprintln!(
        "stalemates {stalemates}, removed {removed} of {asked}; followed by one {followed}, removed {before_removed} of {before_asked}"
    );
    assert!(stalemates > 50 && followed > 50, "too few stalemates met: {stalemates}, {followed}");
    assert!(removed * 10 > asked * 9 && before_removed * 5 > before_asked, "the filters remove too little");
}

/// Hand-made positions where a special move is part of the only way to mate in time, each
/// tight for the bound: leaving the special move out of the relaxation would cut the mate.
#[test]
fn special_moves_are_not_cut() {
    let check = |fen: &str, k: u32| {
        let p = Position::from_fen(fen).expect(fen);
        let mut st = Stats::default();
        assert!(walk(&p, k, Goal::Mate, &mut HashMap::new(), &mut st), "{fen}: no mate in {k}");
    };
    // The mated side castles long and its rook closes d8: 1...0-0-0 2.Sf5-e7#. No white piece
    // can attack d8 in one move, and the king needs the castling to reach c8 in one: both the
    // castling king step and the rook standing on d8 at no extra cost are needed.
    check("r3k3/1ppp4/N7/5N2/8/8/8/7K b q - 0 1", 2);
    // The same with the king's castling step alone needed (found by a search against the
    // bound with castling left out of the king's reach).
    check("r3k3/P2b4/Np6/8/8/8/8/2K2N2 b q - 0 1", 2);
    // Self-blocks: the mated side's last move fills the flight no white piece can reach in
    // time. 1...Rb8-g8 2.Sg5-f7#; 1...Rh2-h7 2.c7-c8=Q#.
    check("1r5k/6pp/8/6N1/8/8/8/K7 b - - 0 1", 2);
    check("7k/2P5/5K2/8/8/8/7r/8 b - - 0 1", 2);
    // White castles and mates: 0-0 puts the rook on f1 (see tests/solver_reference.rs).
    check("8/8/8/3Q3B/5k2/8/7P/3NK2R w K - 0 1", 1);
    // A capture with promotion mates: h2*g1=Q or =R.
    check("8/1P6/8/8/8/k3b3/1N5p/6RK b - - 0 1", 1);
    // Promotion with check and mate: f7-f8=Q.
    check("7k/5Ppp/8/8/8/8/8/K7 w - - 0 1", 1);
    // En passant opens the fifth rank for the rook on a5.
    check("6N1/8/5K2/RPp4k/8/4N3/5B2/8 w - c6 0 1", 1);
}

/// Every help line of exactly `plies` half-moves ending in mate, by plain enumeration
/// (`root` and `prefix` to write the moves out); gives up (returns false) after `budget`
/// positions.
fn help_lines(
    root: &Position,
    p: &Position,
    plies: u32,
    goal: Goal,
    prefix: &mut Vec<Move>,
    out: &mut BTreeSet<Vec<String>>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    for m in moves(p) {
        let q = p.play(m);
        prefix.push(m);
        if plies == 1 {
            if reached(&q, goal) {
                out.insert(texts(root, prefix, false));
            }
        } else if !help_lines(root, &q, plies - 1, goal, prefix, out, budget) {
            return false;
        }
        prefix.pop();
    }
    true
}

#[test]
fn helpmates_match_the_reference() {
    let mut r = Rng(0x00B0_0DED_5EED_0002);
    let cases: u32 = std::env::var("HELP_BOUND_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000) / 14;
    let mut done = 0;
    let (mut solutions, mut compared) = (0, 0);
    while done < cases {
        let Some(p) = random_position(&mut r) else { continue };
        if moves(&p).is_empty() {
            continue;
        }
        done += 1;
        let stips = ["h#1", "h#1.5", "h#2", "h#2.5", "h#3", "h=1", "h=1.5", "h=2"];
        for stip in stips {
            let s: Stipulation = stip.parse().expect(stip);
            // The stipulation's first mover is the side to move in these tests.
            // The lines of exactly the stipulated length and the short ones: whole moves fewer,
            // the same side beginning (Popeye's rule, see `solve::help_with_short`).
            let mut want = BTreeSet::new();
            let plies = s.help_plies();
            let lengths = (1..=plies).filter(|k| k % 2 == plies % 2);
            if !lengths.into_iter().all(|k| help_lines(&p, &p, k, s.goal, &mut Vec::new(), &mut want, &mut 20_000)) || want.len() > 200 {
                continue; // too big a tree, or too many lines, for a quick reference
            }
            assert_eq!(solver_lines(&p, &s), want, "{} {stip}", p.to_fen());
            solutions += want.len();
            compared += 1;
        }
    }
    eprintln!("{cases} positions, {compared} stipulations compared, {solutions} solutions");
    assert!(solutions > 100 && compared > cases, "{compared} compared, {solutions} solutions");
}

/// How a series ends: `ser-#` (the series' last move mates) or `ser-h#` (then the other side
/// mates in one).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SeriesEnd {
    Direct,
    Help,
}

/// The other side's mating replies that end a series after a series move (`q`: the other
/// side to move), as moves; `Some(vec![])` for `ser-#` when the series move mated; `None`
/// when the series does not end there.
fn series_ending(q: &Position, end: SeriesEnd, goal: Goal) -> Option<Vec<Move>> {
    match end {
        SeriesEnd::Direct => reached(q, goal).then(Vec::new),
        SeriesEnd::Help => {
            let replies: Vec<Move> = moves(q).into_iter().filter(|&d| reached(&q.play(d), goal)).collect();
            (!replies.is_empty()).then_some(replies)
        }
    }
}

/// Whether the series goes on after a series move: Popeye's rules, no check before the last
/// move; the other side (which passes) may stand stalemated on the way, but not where the
/// move reached the series' end (`ended`).
fn series_goes_on(q: &Position, ended: bool) -> bool {
    !q.in_check() && (!ended || !moves(q).is_empty())
}

/// The bound's question for a series of up to `k` moves from `p` (series side to move).
fn series_sides(p: &Position, k: u32, end: SeriesEnd) -> (Color, u32, u32) {
    match end {
        SeriesEnd::Direct => (p.side_to_move().opponent(), 0, k),
        SeriesEnd::Help => (p.side_to_move(), k, 1),
    }
}

/// Whether a series of up to `k` moves from `p` ends in mate; checks the bound at every node
/// of the series tree on the way (memoised).
fn series_walk(p: &Position, k: u32, end: SeriesEnd, goal: Goal, memo: &mut HashMap<(u64, u32), bool>, st: &mut Stats) -> bool {
    if let Some(&v) = memo.get(&(p.hash(), k)) {
        return v;
    }
    let mut any = false;
    for m in moves(p) {
        let q = p.play(m);
        let reached = if series_ending(&q, end, goal).is_some() {
            true
        } else {
            k > 1 && series_goes_on(&q, false) && series_walk(&Game::pass(&q), k - 1, end, goal, memo, st)
        };
        any |= reached;
        if reached {
            match m {
                Move::Castle { .. } => st.castle_mating += 1,
                Move::Normal { promotion: Some(_), .. } => st.promotion += 1,
                Move::EnPassant { .. } => st.en_passant += 1,
                _ => {}
            }
        }
    }
    let (m, bm, wa) = series_sides(p, k, end);
    record(p, k, any, (goal, m, bm, wa), &format!("{end:?} series"), memo, st)
}

#[test]
fn the_bound_never_cuts_a_series_mate() {
    let mut r = Rng(0x00B0_0DED_5EED_0003);
    let cases: u32 = std::env::var("HELP_BOUND_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000) / 3;
    for (end, goal) in [
        (SeriesEnd::Direct, Goal::Mate),
        (SeriesEnd::Help, Goal::Mate),
        (SeriesEnd::Direct, Goal::Stalemate),
        (SeriesEnd::Help, Goal::Stalemate),
    ] {
        let mut st = Stats::default();
        let mut done = 0;
        while done < cases {
            let Some(p) = random_position(&mut r) else { continue };
            done += 1;
            let k = random_depth(&mut r, &p, 3);
            series_walk(&p, k, end, goal, &mut HashMap::new(), &mut st);
        }
        eprintln!("{end:?} {goal:?}: {st:?}");
        // Not vacuous: the bound fires and series reaching the goal exist.
        assert!(st.cut * 5 > st.asked, "{end:?} {goal:?}: {st:?}");
        assert!(st.mating > 100, "{end:?} {goal:?}: {st:?}");
    }
}

/// Every series line of up to `k` moves from `p` (series side to move) ending in the goal, as
/// move texts (`prefix` from `root`, the other side passing between series moves); a series
/// that could end goes on to the longer lengths too, as in Popeye; gives up (returns false)
/// after `budget` positions.
fn series_lines(
    root: &Position,
    p: &Position,
    k: u32,
    (end, goal): (SeriesEnd, Goal),
    prefix: &mut Vec<Move>,
    out: &mut BTreeSet<Vec<String>>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    for m in moves(p) {
        let q = p.play(m);
        prefix.push(m);
        let ending = series_ending(&q, end, goal);
        let ended = ending.is_some();
        if let Some(replies) = ending {
            let line = texts(root, prefix, true);
            if replies.is_empty() {
                out.insert(line.clone());
            }
            for d in replies {
                let mut l = line.clone();
                l.push(q.move_text(d, Lang::En));
                out.insert(l);
            }
        }
        if k > 1 && series_goes_on(&q, ended) && !series_lines(root, &Game::pass(&q), k - 1, (end, goal), prefix, out, budget) {
            return false;
        }
        prefix.pop();
    }
    true
}

/// The move texts of `prefix` played from `root` (with `passes`, the other side passing
/// between the moves, as in series play).
fn texts(root: &Position, prefix: &[Move], passes: bool) -> Vec<String> {
    let mut r = *root;
    let mut line = Vec::with_capacity(prefix.len());
    for (i, &m) in prefix.iter().enumerate() {
        line.push(r.move_text(m, Lang::En));
        r = r.play(m);
        if passes && i + 1 < prefix.len() {
            r = Game::pass(&r);
        }
    }
    line
}

/// Every line the solver finds for `stip` from `p` (one thread, a small table), as move
/// texts; the search must have finished.
fn solver_lines(p: &Position, stip: &Stipulation) -> BTreeSet<Vec<String>> {
    let opts = SolveOptions { threads: 1, hash_mb: 4, tree: false, ..SolveOptions::default() };
    let solved = solve(p, stip, &opts);
    assert!(solved.complete);
    solved.phases[0].lines.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect()).collect()
}

#[test]
fn series_mates_match_the_reference() {
    // Tight hand-made series first, with no shorter solution: the bound must leave the
    // series side all its moves (the king walking into the mate picture, the white king
    // coming closer).
    for (fen, stip, end) in [
        ("8/8/8/3pP3/8/3k4/5p2/1K6 w - d6 0 1", "ser-h#2", SeriesEnd::Help),
        ("7k/8/5K2/8/8/8/8/R7 w - - 0 1", "ser-#2", SeriesEnd::Direct),
        ("7k/8/8/8/4K3/8/8/R7 w - - 0 1", "ser-#3", SeriesEnd::Direct),
    ] {
        let p = Position::from_fen(fen).expect(fen);
        let s: Stipulation = stip.parse().expect(stip);
        let mut want = BTreeSet::new();
        assert!(series_lines(&p, &p, s.moves, (end, s.goal), &mut Vec::new(), &mut want, &mut 1_000_000));
        let longest = want.iter().map(Vec::len).max().unwrap_or(0);
        let shortest = want.iter().map(Vec::len).min().unwrap_or(0);
        assert!(shortest == longest && longest as u32 == s.moves + (end == SeriesEnd::Help) as u32, "{fen} {stip}: {want:?}");
        assert_eq!(solver_lines(&p, &s), want, "{fen} {stip}");
    }
    let mut r = Rng(0x00B0_0DED_5EED_0004);
    let cases: u32 = std::env::var("HELP_BOUND_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(3000) / 10;
    let mut done = 0;
    let (mut solutions, mut compared) = (0, 0);
    while done < cases {
        let Some(p) = random_position(&mut r) else { continue };
        if moves(&p).is_empty() {
            continue;
        }
        done += 1;
        for (stip, end) in [
            ("ser-#1", SeriesEnd::Direct),
            ("ser-#2", SeriesEnd::Direct),
            ("ser-#3", SeriesEnd::Direct),
            ("ser-h#1", SeriesEnd::Help),
            ("ser-h#2", SeriesEnd::Help),
            ("ser-h#3", SeriesEnd::Help),
            ("ser-=2", SeriesEnd::Direct),
            ("ser-=3", SeriesEnd::Direct),
            ("ser-h=2", SeriesEnd::Help),
            ("ser-h=3", SeriesEnd::Help),
        ] {
            let s: Stipulation = stip.parse().expect(stip);
            let mut want = BTreeSet::new();
            if !series_lines(&p, &p, s.moves, (end, s.goal), &mut Vec::new(), &mut want, &mut 20_000) || want.len() > 200 {
                continue;
            }
            assert_eq!(solver_lines(&p, &s), want, "{} {stip}", p.to_fen());
            solutions += want.len();
            compared += 1;
        }
    }
    eprintln!("{cases} positions, {compared} stipulations compared, {solutions} solutions");
    assert!(solutions > 100 && compared > cases, "{compared} compared, {solutions} solutions");
}

/// Whether a series of up to `k` moves from `p` (series side to move) ends with the other
/// side stalemating it in one (`ser-h=`), memoised.
fn series_stalemates(p: &Position, k: u32, memo: &mut HashMap<(u64, u32), bool>) -> bool {
    if let Some(&v) = memo.get(&(p.hash(), k)) {
        return v;
    }
    let v = moves(p).into_iter().any(|m| series_stalemate_through(p, m, k, memo));
    memo.insert((p.hash(), k), v);
    v
}

/// Whether some `ser-h=` line of up to `k` moves from `p` starts with `m`.
fn series_stalemate_through(p: &Position, m: Move, k: u32, memo: &mut HashMap<(u64, u32), bool>) -> bool {
    let q = p.play(m);
    series_ending(&q, SeriesEnd::Help, Goal::Stalemate).is_some()
        || (k > 1 && series_goes_on(&q, false) && series_stalemates(&Game::pass(&q), k - 1, memo))
}

/// Follows the complete stalemate plan of `p` (series side to move, `k` moves left) along
/// every `ser-h=` line: no move of such a line is cut.
fn follow_series_plan(p: &Position, k: u32, plan: &<Position as Game>::Plan, memo: &mut HashMap<(u64, u32), bool>, st: &mut PlanStats) {
    for m in moves(p) {
        let good = series_stalemate_through(p, m, k, memo);
        st.judged += 1;
        match p.plan_after(plan, m) {
            None => {
                st.cut += 1;
                assert!(!good, "the series plan of {} ({k} moves) cuts {m:?}, which a ser-h= follows", p.to_fen());
            }
            Some(next) if good => {
                st.on_lines += 1;
                match m {
                    Move::Castle { .. } => st.castle_mated += 1,
                    Move::Normal { promotion: Some(_), .. } => st.promotion += 1,
                    Move::Normal { to, .. } if p.piece_at(to).is_some() => st.capture += 1,
                    _ => {}
                }
                let q = p.play(m);
                if k > 1 && series_goes_on(&q, false) {
                    follow_series_plan(&Game::pass(&q), k - 1, &next, memo, st);
                }
            }
            Some(_) => {}
        }
    }
}

/// The complete stalemate pictures (`src/rules/intelligent/complete.rs`: the stalemating
/// side moves once, last, so every stalemated piece is placed) against brute force: on
/// sparse random positions where the series side (to be stalemated) has its king and up to
/// eight pieces near it, no move of a `ser-h=` line of up to 5 moves is cut; and the solver
/// (which follows those pictures in `ser-h=`) finds exactly the lines of a plain
/// enumeration, `ser-h=1` to `ser-h=5`.
#[test]
fn the_plan_never_cuts_a_series_stalemate() {
    let mut r = Rng(0x5EED_57A1_E3A7_0031);
    let mut st = PlanStats::default();
    let (mut compared, mut solutions) = (0, 0);
    while st.plans < cases() as u64 / 6 {
        let to_move = if r.chance(50) { Color::White } else { Color::Black };
        let Some(p) = sparse_position(&mut r, to_move, to_move, 9) else { continue };
        if moves(&p).is_empty() || moves(&p).len() > 30 || p.in_check() {
            continue;
        }
        let k = 1 + r.below(5) as u32;
        let Some(plan) = p.plan(Goal::Stalemate, to_move, k, 1) else { continue };
        st.plans += 1;
        let mut memo = HashMap::new();
        follow_series_plan(&p, k, &plan, &mut memo, &mut st);
        if st.plans % 4 == 0 {
            let s: Stipulation = format!("ser-h={k}").parse().expect("stipulation");
            let mut want = BTreeSet::new();
            if series_lines(&p, &p, k, (SeriesEnd::Help, Goal::Stalemate), &mut Vec::new(), &mut want, &mut 50_000) && want.len() <= 300 {
                assert_eq!(solver_lines(&p, &s), want, "{} ser-h={k}", p.to_fen());
                compared += 1;
                solutions += want.len();
            }
        }
    }
    eprintln!("{st:?}; {compared} solved and compared, {solutions} solutions");
    // Not vacuous: the plans cut most moves, stalemating series were followed (through
    // captures and promotions), and the solver met solutions.
    assert!(st.cut * 3 > st.judged && st.on_lines > 100 && solutions > 20, "{st:?}, {solutions} solutions");
    if cases() >= 3000 {
        assert!(st.promotion > 0 && st.capture > 0, "{st:?}");
    }
}

/// A stalemate in which a piece of the stalemated side stays where it is and another of its
/// pieces moves onto the last square it could go to (`h=2`: 1.f4-f3+ Ke2-d2 2.f3-f2 Kd2-c2,
/// after which the knight on h1 has f2 and g3 filled by its own pawns; White has no move to
/// spare, so nothing is taken on the way): the plans must
/// count that filling move (`Fates` in `src/rules/intelligent.rs`, "each hole filled")
/// and keep the line, at every depth from which it is followed.
#[test]
fn the_plan_keeps_a_stalemate_whose_last_square_is_filled() {
    let p = Position::from_fen("8/8/8/8/5p2/6p1/p3K1P1/k4N1n b - - 0 1").expect("a legal position");
    let mut memo = HashMap::new();
    assert!(reaches_in(&p, 4, Goal::Stalemate, &mut memo), "the stalemate in two exists");
    let (mated, bm, wa) = sides(&p, 4);
    let plan = p.plan(Goal::Stalemate, mated, bm, wa).expect("stalemate pictures apply");
    let mut st = PlanStats::default();
    follow_plan(&p, 4, &plan, Goal::Stalemate, &mut memo, &mut st);
    assert!(st.on_lines >= 4, "{st:?}");
}
