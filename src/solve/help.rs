//! Help play (`h#n`, `h#n.5`, `hs#n`, `reci-h#n` and the stalemate forms).
//!
//! Help play is exact for the goals of the position (`#`, `=`, `==`, `+`): every line has
//! exactly the stipulated number of half-moves and only its last move reaches the goal. For
//! the goals of the move (`x`, `~`, `z`, `ep`, `00`, `%`, `#=`, `!=`), as Popeye plays them, a
//! line ends where its goal is reached: a side that reaches it earlier ends a shorter solution
//! (`hx1.5`: `1...Rh2*h1 x`; `hsx2`: `1.h3-h4 a5*b4 x`, Black forced at once), and a line in
//! which the other side reaches it on the way (`hs`) is no solution. Under `exact-` a line in
//! which the goal is reached before its last move is no solution (`exact-hx2`).
//!
//! Reciprocal help play (`reci-h#n`, `reci-h(=)#n`): after n-1 moves of help play, Black
//! (to move) can both reach its own goal in one move (the goal in brackets, else the same) and
//! play a move after which White reaches the goal in one; both endings are written, as Popeye
//! does (`1.… 2.X Y #` and `1.… 2.Z #`).

use super::gate::Gate;
use super::parallel::{FirstN, par_map};
use super::tree::{Line, LineMove, NULL_MOVE};
use super::{Ctx, SolveOptions, add_self_check_goal_moves, drop_wrong_side_goal_moves, goal_moves, last_line_move, line_move};
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Goal};

const SALT_HELP: u64 = 0x4CF5_AD43_2745_937F;

/// Half-moves left up to which the help search asks [`Game::goal_unreachable`]: as far as
/// the bound goes (seven moves of the mated side); the [`Gate`] stops asking where it does
/// not pay.
const MATE_BOUND_PLIES: u32 = 15;

/// Half-moves from which a stalemate help search follows the stalemate pictures
/// ([`Game::plan`]): shorter ones are covered by the bound and the move filters near the
/// goal, and the pictures' upkeep cost more than they cut there (measured on the
/// Popeye-regression h=2 to h=3.5: up to 4× slower; h=4 to h=8 2 to 18× faster).
const STALEMATE_PLAN_PLIES: u32 = 8;

thread_local! {
    /// Where asking [`Game::goal_unreachable`] pays, in the task running on this thread.
    static GATE: std::cell::RefCell<Gate> = std::cell::RefCell::new(Gate::default());
}

/// Forgets what this thread's gate learned: each solve starts afresh, as it did on the new
/// threads of its own pool.
pub(super) fn reset_gate() {
    GATE.with(|g| *g.borrow_mut() = Gate::default());
}

/// What must hold after the last half-move of a help line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Finish {
    /// The goal is reached.
    Goal,
    /// The side to move is forced to reach the goal in one (`hs#`).
    Forced,
    /// `reci-h`: the side to move can reach this goal in one, and can also play a move after
    /// which the other side reaches the help goal in one.
    Reci(Goal),
    /// `hr#`: the side to move can reach the goal in one, and so must; on the way, a side
    /// that can reach it in one must too ([`Helper::early_end`]).
    Reflex,
}

impl Finish {
    /// A number for the table's keys.
    fn tag(self) -> u64 {
        match self {
            Finish::Goal => 0,
            Finish::Forced => 1,
            // Reciprocal play takes the goals of the position only (codes 0 to 3): below 16.
            Finish::Reci(g) => 2 + g.code(),
            Finish::Reflex => 6,
        }
    }
}

struct Helper<'a, G: Game> {
    ctx: &'a Ctx,
    /// The position the lines start from (lines are written out from it when found).
    root: G,
    goal: Goal,
    finish: Finish,
    /// Whether lines end with a mate or a stalemate by the last move (`h#n`, `h=n`, and the
    /// `.5` forms): then [`Game::goal_unreachable`] may cut a line that can no longer reach
    /// the goal, and the move filters and the plans ([`Game::plan`]) apply. They assume a
    /// mated or stalemated side, so every other goal (`==`, `+`, `#=`, `!=`, `~`, `x`, `%`,
    /// `ep`, `00`, `zxy`) and `hs#` search exhaustively, every move played.
    bound: bool,
    /// `reci-h#n` with goals of the position that the bound knows (mate or stalemate, both
    /// endings): a position from which either ending is out of reach in the moves left is cut
    /// ([`Helper::reci_unreachable`]).
    reci_bound: bool,
    /// Whether a line ends where its goal is reached (the goals of the move:
    /// [`Helper::early_end`]).
    early: bool,
    /// `exact-`: a goal of the move reached before the end makes no solution.
    exact: bool,
    /// `NullMoves`: a side not in check may pass instead of moving, except at the last
    /// half-move and right after a pass.
    null: bool,
    salt: u64,
    /// `MaxSolutions`: the first lines wanted, over the split search's items.
    first_n: Option<FirstN>,
    _g: std::marker::PhantomData<G>,
}

pub(super) fn salt(base: u64, goal: Goal, k: u32, kind: u64) -> u64 {
    base ^ (goal.code() + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (k as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ kind.wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// The moves with which the side to move in `q` reaches `goal` at once ([`goal_moves`]).
pub(super) fn goal_moves_in_one<G: Game>(q: &G, goal: Goal) -> Vec<G::Move> {
    let mut v = Vec::new();
    goal_moves(q, goal, &mut v);
    v.retain(|&m| q.move_reaches_goal(m, goal));
    v
}

/// Whether the side to move in `q` is forced to reach `goal` with its next move: it has a
/// move, and every move reaches it (the self-checking moves that reach `##`, `##!` or `!#`
/// are moves here: [`goal_moves`]).
pub(super) fn forced<G: Game>(q: &G, goal: Goal) -> bool {
    if !goal.allows_self_check() {
        // The moves are the legal ones: the game may stop at the first that fails (where the
        // goal needs check, at the first that gives none, which it may see unmade).
        if q.needs_check(goal) {
            return q.every_move_checks(&mut |d, r| r.goal_reached_by(q, d, goal));
        }
        return q.every_move(&mut |d, r| r.goal_reached_by(q, d, goal));
    }
    let mut v = Vec::new();
    goal_moves(q, goal, &mut v);
    !v.is_empty() && v.iter().all(|&d| q.move_reaches_goal(d, goal))
}

impl<G: Game> Helper<'_, G> {
    /// Whether the line ends well with the move `m` from `p` to `q`.
    fn finished(&self, p: &G, m: G::Move, q: &G) -> bool {
        match self.finish {
            Finish::Goal => q.goal_reached_by(p, m, self.goal),
            _ => self.finished_at(q),
        }
    }

    /// Whether a line of the forced or reciprocal kind ends well at `q` (neither depends on
    /// the move that led there).
    fn finished_at(&self, q: &G) -> bool {
        match self.finish {
            Finish::Goal => false,
            Finish::Forced => forced(q, self.goal),
            Finish::Reflex => !goal_moves_in_one(q, self.goal).is_empty(),
            Finish::Reci(own) => {
                // Black's own goal first: where it needs a check, among the checking moves
                // only.
                let mut v = Vec::new();
                if q.needs_check(own) {
                    q.checking_moves(&mut v);
                } else {
                    q.moves(&mut v);
                }
                if !v.iter().any(|&b| q.play(b).goal_reached(own)) {
                    return false;
                }
                q.moves(&mut v);
                if self.reci_bound {
                    q.retain_before_goal_in_one(self.goal, &mut v);
                }
                let checks = q.needs_check(self.goal);
                v.iter().any(|&b| {
                    let r = q.play(b);
                    let mut w = Vec::new();
                    if checks {
                        r.checking_moves(&mut w);
                    } else {
                        r.moves(&mut w);
                    }
                    w.iter().any(|&m| r.play(m).goal_reached(self.goal))
                })
            }
        }
    }

    /// For the goals of the move ([`Helper::early`]): whether the move `m` from `p` to `q`, made
    /// `k` half-moves before the end (`k` > 1), ends its line early. `Some(true)`: a shorter
    /// solution (the goal reached by the side that reaches it at the end, or in `hs` play,
    /// the other side forced to reach it at once); `Some(false)`: a dead end (in `hs` play,
    /// the side to be forced reached it of its own accord); `None`: the line goes on.
    fn early_end(&self, p: &G, m: G::Move, q: &G, k: u32) -> Option<bool> {
        if self.finish == Finish::Reflex && k > 1 {
            // Help-reflex play: whoever can reach the goal in one at `q` must. Black (the side
            // to move at the end: k - 1 even) thereby ends a short solution (none under
            // `exact-`); White spoils the line.
            if goal_moves_in_one(q, self.goal).is_empty() {
                return None;
            }
            return Some((k - 1).is_multiple_of(2) && !self.exact);
        }
        if !self.early || k <= 1 {
            return None;
        }
        match self.finish {
            // Under `exact-` the goal reached early is a dead end (Popeye's `exact-hx2`).
            Finish::Goal => (k % 2 == 1 && q.goal_reached_by(p, m, self.goal)).then_some(!self.exact),
            Finish::Forced if k.is_multiple_of(2) => q.goal_reached_by(p, m, self.goal).then_some(false),
            // Under `exact-` a line with a forced goal on the way plays on to its full length.
            Finish::Forced if self.exact => None,
            Finish::Forced => forced(q, self.goal).then_some(true),
            // Reciprocal play takes the goals of the position only; help-reflex play is judged
            // above.
            Finish::Reci(_) | Finish::Reflex => None,
        }
    }

    /// `reci-h`: whether one of the two endings is out of reach from `p`, `k` half-moves of
    /// help play before the position where Black chooses between them. Black's own goal needs
    /// the k half-moves and Black's move (`k + 1`: Black moves last); the help goal needs
    /// `k + 2` (White moves last). Each count is that of an `h#` of that length, which the
    /// bound judges soundly; a line must reach both, so either one out of reach cuts it.
    fn reci_unreachable(&self, p: &G, k: u32) -> bool {
        let Finish::Reci(own) = self.finish else { return false };
        if !self.reci_bound || k + 2 > MATE_BOUND_PLIES {
            return false;
        }
        // The side to move at the end of the help play (Black), that of `p` when k is even.
        let last = if k.is_multiple_of(2) { p.to_move() } else { p.to_move().opponent() };
        let (own_plies, help_plies) = (k + 1, k + 2);
        p.goal_unreachable(own, last.opponent(), own_plies / 2, own_plies.div_ceil(2))
            || p.goal_unreachable(self.goal, last, help_plies / 2, help_plies.div_ceil(2))
    }

    /// Appends to `out` every line of exactly `k` half-moves from `p`; returns whether any.
    /// `prefix` holds the moves so far, from the root (`None`: a null move).
    /// `judged`: the bound was already asked of `p`, by its parent's move filter. `plan`:
    /// the pictures still within reach ([`Game::plan`]); where there is one, it replaces the
    /// bound and the move filters (it cuts at least as much on the suite, for less), except
    /// the stalemate's own filters at the last two half-moves (the pictures place only the
    /// king and its flights and count a lower bound for the other pieces; those filters judge
    /// exactly that every other piece is left without a move).
    fn search(&self, p: &G, k: u32, judged: bool, plan: Option<&G::Plan>, prefix: &mut Vec<Option<G::Move>>, out: &mut Vec<Line>) -> bool {
        if self.ctx.tick() || self.enough(out) {
            return false;
        }
        let start = super::local_nodes();
        // After a null move the side to move may not pass again: another fact for the table.
        let after_null = self.null && matches!(prefix.last(), Some(None));
        let key = p.key() ^ salt(SALT_HELP, self.goal, k, self.finish.tag() + self.salt + 16 * after_null as u64);
        if self.ctx.tt.get(key).is_some() {
            return false; // proven: no solution
        }
        if self.bound && plan.is_none() && !judged && k <= MATE_BOUND_PLIES && GATE.with_borrow_mut(|g| g.ask(k)) {
            // The side to move at k = 1 mates: it has ⌈k/2⌉ moves left, the mated side ⌊k/2⌋.
            let mating = if k % 2 == 1 { p.to_move() } else { p.to_move().opponent() };
            let cut = p.goal_unreachable(self.goal, mating.opponent(), k / 2, k.div_ceil(2));
            GATE.with_borrow_mut(|g| g.record(k, cut));
            if cut {
                // Proven out of reach: kept, so that another order of moves finds it.
                self.ctx.tt.put(key, 1, 1);
                return false;
            }
        }
        if self.reci_bound && !judged && GATE.with_borrow_mut(|g| g.ask(k + 2)) {
            let cut = self.reci_unreachable(p, k);
            GATE.with_borrow_mut(|g| g.record(k + 2, cut));
            if cut {
                self.ctx.tt.put(key, 1, 1);
                return false;
            }
        }
        let mut moves = Vec::new();
        let mut children_judged = false;
        // Where no filter, plan or goal rule asks for the legal moves themselves, and the
        // game tests legality as it plays ([`Game::lazy_legality`]), the candidates are
        // listed and each is tested as it is played: every legal move is played here anyway.
        let mut hint = None;
        let lazy = !self.bound
            && p.lazy_legality()
            && plan.is_none()
            && !(k == 1 && self.finish == Finish::Goal && self.ctx.checks_only)
            && !self.goal.allows_self_check()
            && !self.ctx.goal_is_end;
        // At the last half-move of a mate or check goal only checking moves can reach it.
        if lazy {
            hint = Some(p.candidate_moves(&mut moves));
        } else if k == 1 && self.finish == Finish::Goal && self.ctx.checks_only {
            p.checking_moves(&mut moves);
        } else {
            p.moves(&mut moves);
            if k == 1 && self.bound {
                // The stalemating move: only those that take away every move of the opponent.
                p.retain_goal_moves(self.goal, &mut moves);
            } else if plan.is_some() && !(k == 2 && self.goal == Goal::Stalemate) {
                // The plan judges each move as it is played (before a stalemate in one, the
                // filter below judges it too).
            } else if k == 2 && self.bound {
                // The mated side's last move: only those a mate (stalemate) in one may follow.
                p.retain_before_goal_in_one(self.goal, &mut moves);
            } else if k == 3 && self.bound {
                // The mating side's move before the mated side's last move.
                p.retain_mating_moves(self.goal, &mut moves, 1, 1);
            } else if k.is_multiple_of(2) && self.bound && k - 1 <= MATE_BOUND_PLIES && GATE.with_borrow(|g| g.is_on(k - 1)) {
                // The mated side's move, judged here for all its moves at once instead of
                // by each position that follows.
                let before = moves.len();
                if p.retain_mated_moves(self.goal, &mut moves, k / 2 - 1, k / 2) {
                    children_judged = true;
                    GATE.with_borrow_mut(|g| g.record_many(k - 1, before as u32, (before - moves.len()) as u32));
                }
            }
        }
        if k % 2 == 1 && self.finish == Finish::Goal {
            // The side that reaches the goal: its self-checking moves that reach `##`, `##!`
            // or `!#`.
            add_self_check_goal_moves(p, self.goal, &mut moves);
        } else if self.finish == Finish::Goal {
            // `GoalIsEnd`: the other side may not reach it on the way.
            drop_wrong_side_goal_moves(self.ctx, p, &mut moves);
        }
        let mut found = false;
        let probe = k >= 2 && self.ctx.tt.enabled();
        let child_salt = salt(SALT_HELP, self.goal, k - 1, self.finish.tag() + self.salt);
        if probe {
            // The children's table slots prefetched first, so that the cache misses of
            // their probes overlap instead of coming one after the other.
            for &m in &moves {
                self.ctx.tt.prefetch(p.key_hint(m) ^ child_salt);
            }
        }
        // The last move of `h#`: only checks, each asked whether the king can step out of it
        // before it is played.
        let mate_in_one = k == 1 && self.finish == Finish::Goal && self.goal == Goal::Mate && self.ctx.checks_only;
        for &m in &moves {
            if probe
                && let Some(key) = p.child_key(m)
                && self.ctx.tt.get(key ^ child_salt).is_some()
            {
                continue; // the child is proven to have no solution: not played
            }
            // The mating move (k = 1) is judged by the goal itself; the last move of
            // reciprocal help play by the plan too (two half-moves of its `h#` follow).
            let child_plan = match plan {
                Some(pl) if k > 1 || matches!(self.finish, Finish::Reci(_)) => match p.plan_after(pl, m) {
                    Some(c) => Some(c),
                    None => {
                        // No picture can be reached in time: the child has no solution, a
                        // fact of its position, kept so that the plan is not asked again
                        // where the child comes back by another order of moves.
                        if probe && let Some(key) = p.child_key(m) {
                            self.ctx.tt.put(key ^ child_salt, 1, 1);
                        }
                        continue;
                    }
                },
                _ => None,
            };
            if mate_in_one && p.king_escapes(m) {
                continue; // the king steps out of this check (told without playing it)
            }
            let q = match hint {
                Some(h) => match p.play_candidate(m, h) {
                    Some(q) => q,
                    None => continue,
                },
                None => p.play(m),
            };
            if k == 1 {
                if self.finished(p, m, &q) {
                    prefix.push(Some(m));
                    self.emit(prefix, &q, out);
                    prefix.pop();
                    found = true;
                }
            } else if let Some(short) = self.early_end(p, m, &q, k) {
                if short {
                    prefix.push(Some(m));
                    self.emit(prefix, &q, out);
                    prefix.pop();
                    found = true;
                }
            } else {
                prefix.push(Some(m));
                if self.search(&q, k - 1, children_judged, child_plan.as_ref(), prefix, out) {
                    found = true;
                }
                prefix.pop();
            }
            if self.enough(out) {
                break;
            }
        }
        if self.null && k > 1 && !after_null && !p.in_check() {
            prefix.push(None);
            if self.search(&p.pass(), k - 1, false, None, prefix, out) {
                found = true;
            }
            prefix.pop();
        }
        if !found && !self.ctx.is_stopped() && !self.enough(out) {
            self.ctx.tt.put(key, 1, super::effort_worth(super::local_nodes() - start));
        }
        found
    }

    /// Whether the search of this item may stop: `MaxSolutions` has its lines
    /// ([`FirstN::enough`]). A position left then is not proven, and goes to no table.
    #[inline]
    fn enough(&self, out: &[Line]) -> bool {
        self.first_n.as_ref().is_some_and(|f| f.enough(out.len()))
    }

    /// Writes a finished line (`last` = the position after its last move).
    fn emit(&self, prefix: &[Option<G::Move>], last: &G, out: &mut Vec<Line>) {
        let mut line: Line = Vec::with_capacity(prefix.len() + 1);
        let mut p = self.root.clone();
        for (i, &m) in prefix.iter().enumerate() {
            match m {
                Some(m) => {
                    // The goal's own mark on the move that reaches it.
                    let goal_move = self.finish == Finish::Goal && i + 1 == prefix.len();
                    line.push(if goal_move { last_line_move(self.ctx, &p, m) } else { line_move(self.ctx, &p, m) });
                    p = p.play(m);
                }
                None => {
                    line.push(LineMove::new(NULL_MOVE.into(), String::new()));
                    p = p.pass();
                }
            }
        }
        if let Finish::Reci(own) = self.finish {
            // The help play's last two half-moves, then Black's own move to its goal.
            let mut v = Vec::new();
            last.moves(&mut v);
            for &b in &v {
                let after = last.play(b);
                let mut w = Vec::new();
                after.moves(&mut w);
                for &m in w.iter().filter(|&&m| after.play(m).goal_reached(self.goal)) {
                    let mut l = line.clone();
                    l.push(line_move(self.ctx, last, b));
                    l.push(line_move(self.ctx, &after, m));
                    out.push(l);
                }
            }
            for &b in v.iter().filter(|&&b| last.play(b).goal_reached(own)) {
                let mut l = line.clone();
                l.push(line_move(self.ctx, last, b));
                out.push(l);
            }
        } else if self.finish == Finish::Reflex {
            // The goal moves, which the side to move must play.
            for d in goal_moves_in_one(last, self.goal) {
                let mut l = line.clone();
                l.push(last_line_move(self.ctx, last, d));
                out.push(l);
            }
        } else if self.finish == Finish::Forced {
            // The forced last move(s) complete the line.
            let mut v = Vec::new();
            goal_moves(last, self.goal, &mut v);
            for &d in &v {
                let mut l = line.clone();
                l.push(last_line_move(self.ctx, last, d));
                out.push(l);
            }
        } else {
            out.push(line);
        }
    }
}

/// Every help line of `plies` half-moves from `pos`; with `max` (`MaxSolutions`), the first
/// `max` of them in the order of the one-thread search, the search stopping there.
pub(crate) fn help<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, plies: u32, opts: &SolveOptions, max: Option<usize>) -> Vec<Line> {
    let finish = match (stip.play, stip.reci) {
        (_, Some(own)) => Finish::Reci(own),
        (Play::HelpSelf, None) => Finish::Forced,
        (Play::HelpReflex, None) => Finish::Reflex,
        _ => Finish::Goal,
    };
    let bound = finish == Finish::Goal && matches!(stip.goal, Goal::Mate | Goal::Stalemate);
    let reci_bound = !opts.null_moves
        && matches!(finish, Finish::Reci(Goal::Mate | Goal::Stalemate))
        && matches!(stip.goal, Goal::Mate | Goal::Stalemate);
    let early = stip.goal.ends_help_play();
    let null = opts.null_moves;
    let h = Helper::<G> {
        ctx,
        root: pos.clone(),
        goal: stip.goal,
        finish,
        bound,
        reci_bound,
        early,
        exact: stip.exact,
        null,
        // Null moves and `exact-` change what a position's search finds: facts of their own.
        salt: 32 * null as u64 + 64 * stip.exact as u64,
        first_n: None,
        _g: std::marker::PhantomData,
    };
    if plies == 0 {
        // `reci-h#1`: the diagram itself is where the two endings are tested.
        let mut out = Vec::new();
        if finish != Finish::Goal && h.finished_at(pos) {
            h.emit(&[], pos, &mut out);
        }
        return out;
    }
    if finish == Finish::Reflex && !goal_moves_in_one(pos, stip.goal).is_empty() {
        // A side that can reach the goal in one at once must: Black (to move at the end,
        // `plies` even) with its goal moves, a short solution; White spoils the play.
        let mut out = Vec::new();
        if plies.is_multiple_of(2) && !stip.exact {
            h.emit(&[], pos, &mut out);
        }
        return out;
    }
    // Split over the first two half-moves when the first level is narrow.
    let mut first = Vec::new();
    pos.moves(&mut first);
    if plies % 2 == 1 && finish == Finish::Goal {
        add_self_check_goal_moves(pos, stip.goal, &mut first);
    } else if finish == Finish::Goal {
        drop_wrong_side_goal_moves(ctx, pos, &mut first);
    }
    let threads = super::parallel::threads();
    // A null move (`None`) where `NullMoves` allows one.
    let may_pass = |p: &G, left: u32, after_null: bool| null && left > 1 && !after_null && !p.in_check();
    let mut first: Vec<Option<G::Move>> = first.into_iter().map(Some).collect();
    if may_pass(pos, plies, false) {
        first.push(None);
    }
    let mut prefixes: Vec<Vec<Option<G::Move>>> = first.iter().map(|&m| vec![m]).collect();
    if plies > 3 || (plies > 2 && prefixes.len() < 4 * threads) {
        let mut deeper = Vec::new();
        for &m in &first {
            let q = match m {
                Some(m) => pos.play(m),
                None => pos.pass(),
            };
            if let Some(m) = m
                && h.early_end(pos, m, &q, plies).is_some()
            {
                // The line ends with its first move: not split further.
                deeper.push(vec![Some(m)]);
                continue;
            }
            let mut second = Vec::new();
            q.moves(&mut second);
            if (plies - 1) % 2 == 1 && finish == Finish::Goal {
                add_self_check_goal_moves(&q, stip.goal, &mut second);
            } else if finish == Finish::Goal {
                drop_wrong_side_goal_moves(ctx, &q, &mut second);
            }
            for &m2 in &second {
                deeper.push(vec![m, Some(m2)]);
            }
            if may_pass(&q, plies - 1, m.is_none()) {
                deeper.push(vec![m, None]);
            }
        }
        prefixes = deeper;
    }
    // The pictures the lines can end in, worked out once and followed along each line.
    let mated = if plies % 2 == 1 { pos.to_move().opponent() } else { pos.to_move() };
    // The pictures follow real moves only: none with null moves.
    let planned = bound && !null && (stip.goal == Goal::Mate || plies >= STALEMATE_PLAN_PLIES);
    let root_plan = if planned {
        pos.plan(stip.goal, mated, plies / 2, plies.div_ceil(2))
    } else if reci_bound && stip.goal == Goal::Mate {
        // `reci-h#n`: the help play and its last two half-moves are an `h#n` (Black mated by
        // White's last move), whose pictures the line follows; the plan only cuts, as the
        // line's own last two half-moves are judged by [`Helper::finished_at`].
        let full = plies + 2;
        let mated = if full % 2 == 1 { pos.to_move().opponent() } else { pos.to_move() };
        pos.plan(stip.goal, mated, full / 2, full.div_ceil(2))
    } else {
        None
    };
    let total = prefixes.len();
    let h = Helper { first_n: max.map(|m| FirstN::new(m, total)), ..h };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let items: Vec<(usize, &Vec<Option<G::Move>>)> = prefixes.iter().enumerate().collect();
    let parts: Vec<Vec<Line>> = par_map(&items, |&(i, pre)| {
        let mut out = Vec::new();
        if let Some(f) = &h.first_n {
            if !f.needed(i) {
                return out;
            }
            f.enter(i);
        }
        GATE.set(Gate::default());
        let mut line: Vec<Option<G::Move>> = Vec::new();
        let mut p = pos.clone();
        let mut ok = true;
        let mut plan = root_plan.clone();
        for (i, &m) in pre.iter().enumerate() {
            if let (Some(pl), Some(m)) = (&plan, m) {
                match p.plan_after(pl, m) {
                    Some(c) => plan = Some(c),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            let q = match m {
                Some(m) => p.play(m),
                None => p.pass(),
            };
            line.push(m);
            if i as u32 + 1 == plies {
                if m.is_some_and(|m| h.finished(&p, m, &q)) {
                    h.emit(&line, &q, &mut out);
                }
                ok = false;
                break;
            }
            if let Some(short) = m.and_then(|m| h.early_end(&p, m, &q, plies - i as u32)) {
                if short {
                    h.emit(&line, &q, &mut out);
                }
                ok = false;
                break;
            }
            p = q;
        }
        if ok {
            h.search(&p, plies - pre.len() as u32, false, plan.as_ref(), &mut line, &mut out);
        }
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(pr) = &opts.progress {
            pr.update(d, total, plies);
        }
        if let Some(f) = &h.first_n {
            f.finished(i, out.len());
        }
        out
    });
    match &h.first_n {
        Some(f) => f.take(parts),
        None => parts.into_iter().flatten().collect(),
    }
}
