//! Series play (`ser-#n`, `ser-h#n`, `ser-s#n`, `ser-r#n` and the stalemate forms).
//!
//! Series play follows Popeye: the series side plays up to n moves in a row (shorter series
//! count), none of which may give check except the last; then, for `ser-h`, the other side
//! reaches the goal in one; for `ser-s`, the other side is forced to reach it; for `ser-r`,
//! must reach it when it can.

use super::gate::Gate;
use super::help::{forced, salt};
use super::parallel::par_map;
use super::tree::{Line, LineMove};
use super::{Ctx, SolveOptions, add_self_check_goal_moves, drop_wrong_side_goal_moves, goal_moves, last_line_move, line_move};
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Goal};

const SALT_SERIES: u64 = 0x2545_F491_4F6C_DD1D;
/// For the table's entries of positions after which no reply ends the series
/// ([`Series::replies`]).
const SALT_SERIES_ENDS: u64 = 0x6A09_E667_F3BC_C909;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum SeriesEnd {
    /// `ser-#`: the series' last move reaches the goal.
    Direct,
    /// `ser-h#`: then the other side reaches it in one.
    Help,
    /// `ser-s#`: then the other side is forced to reach it.
    SelfPlay,
    /// `ser-r#`: then the other side must reach it when it can.
    Reflex,
}

pub(super) struct Series<'a, G: Game> {
    pub(super) ctx: &'a Ctx,
    /// The position the series starts from (lines are written out from it when found).
    pub(super) root: G,
    pub(super) goal: Goal,
    pub(super) end: SeriesEnd,
    /// `exact-`: only series of the full length count.
    pub(super) exact: bool,
}

thread_local! {
    /// Where asking [`Game::goal_unreachable`] pays in series play (per series moves left).
    static SERIES_GATE: std::cell::RefCell<Gate> = std::cell::RefCell::new(Gate::default());
}

/// Forgets what this thread's gate learned: each solve starts afresh, as it did on the new
/// threads of its own pool.
pub(super) fn reset_gate() {
    SERIES_GATE.with(|g| *g.borrow_mut() = Gate::default());
}

impl<G: Game> Series<'_, G> {
    /// Whether a move reaching the goal must give check (mate and check goals): the other
    /// moves need not be played to be ruled out.
    fn needs_check(&self) -> bool {
        self.ctx.checks_only
    }

    /// The replies that end a series after the series side's move `m` from `p` (other side
    /// to move in `q`); `None` when the series does not end there.
    fn endings(&self, p: &G, m: G::Move, q: &G) -> Option<Vec<LineMove>> {
        match self.end {
            SeriesEnd::Direct => q.goal_reached_by(p, m, self.goal).then(Vec::new),
            _ => self.replies(q),
        }
    }

    /// The replies that end a series after a move into `q`, for the goals of the position
    /// (parry series, which take no goal of the move); `None` when the series does not end
    /// there.
    pub(super) fn endings_at(&self, q: &G) -> Option<Vec<LineMove>> {
        match self.end {
            SeriesEnd::Direct => q.goal_reached(self.goal).then(Vec::new),
            _ => self.replies(q),
        }
    }

    /// The other side's replies that end the series (other side to move in `q`), for the
    /// stipulations where the other side ends it (`None` in `ser-#` and when none does).
    /// A position with none is kept in the table: the same position comes back with other
    /// numbers of series moves left (Circe `ser-h=16` of `stip.inp` #43: 21,502 positions
    /// searched, each asking every reply of White for a stalemate).
    fn replies(&self, q: &G) -> Option<Vec<LineMove>> {
        if self.end == SeriesEnd::Direct {
            return None;
        }
        let key = q.key() ^ salt(SALT_SERIES_ENDS, self.goal, 0, self.end as u64 + 8 * self.needs_check() as u64);
        if self.ctx.tt.get(key).is_some() {
            return None;
        }
        let r = self.replies_unkept(q);
        if r.is_none() && !self.ctx.is_stopped() {
            // Worth 2: the test went through every reply (an entry that counts towards the
            // table's growth, see `super::tt`).
            self.ctx.tt.put(key, 1, 2);
        }
        r
    }

    /// [`Series::replies`] without the table.
    fn replies_unkept(&self, q: &G) -> Option<Vec<LineMove>> {
        match self.end {
            SeriesEnd::Direct => None,
            SeriesEnd::Help => {
                let mut v = Vec::new();
                if self.needs_check() {
                    q.checking_moves(&mut v);
                } else {
                    goal_moves(q, self.goal, &mut v);
                    q.retain_goal_moves(self.goal, &mut v);
                }
                // A check the king steps out of is ruled out without being played.
                let mate = self.goal == Goal::Mate && self.needs_check();
                let r: Vec<LineMove> = v
                    .iter()
                    .filter(|&&d| !(mate && q.king_escapes(d)) && q.move_reaches_goal(d, self.goal))
                    .map(|&d| last_line_move(self.ctx, q, d))
                    .collect();
                (!r.is_empty()).then_some(r)
            }
            SeriesEnd::SelfPlay => {
                if forced(q, self.goal) {
                    let mut v = Vec::new();
                    goal_moves(q, self.goal, &mut v);
                    Some(v.iter().map(|&d| last_line_move(self.ctx, q, d)).collect())
                } else {
                    None
                }
            }
            SeriesEnd::Reflex => {
                let mut v = Vec::new();
                goal_moves(q, self.goal, &mut v);
                let r: Vec<LineMove> = v
                    .iter()
                    .filter(|&&d| (!self.needs_check() || q.gives_check(d)) && q.move_reaches_goal(d, self.goal))
                    .map(|&d| last_line_move(self.ctx, q, d))
                    .collect();
                (!r.is_empty()).then_some(r)
            }
        }
    }

    /// Writes the lines of a finished series: the series moves (`prefix`, from the root, the
    /// other side passing in between), then each ending.
    fn push_endings(&self, prefix: &[G::Move], ends: Vec<LineMove>, out: &mut Vec<Line>) {
        let mut line: Line = Vec::with_capacity(prefix.len() + 1);
        let mut p = self.root.clone();
        for (i, &m) in prefix.iter().enumerate() {
            // In `ser-#` the series' last move reaches the goal: with the goal's mark.
            let goal_move = ends.is_empty() && i + 1 == prefix.len();
            line.push(if goal_move { last_line_move(self.ctx, &p, m) } else { self.series_move(&p, m) });
            p = p.play(m);
            if i + 1 < prefix.len() {
                p = p.pass();
            }
        }
        push_with_ends(out, line, ends);
    }

    /// Whether no series of up to `k` moves from `p` (series side to move) can end in mate
    /// (or stalemate), by [`Game::goal_unreachable`]: in `ser-#` the other side stands still
    /// while the series side has `k` moves to mate; in `ser-h#` the series side has `k`
    /// moves and is then mated in one. `false` for the other stipulations.
    fn goal_unreachable(&self, p: &G, k: u32) -> bool {
        if !matches!(self.goal, Goal::Mate | Goal::Stalemate) {
            return false;
        }
        let (mated, mated_moves, mating_moves) = match self.end {
            SeriesEnd::Direct => (p.to_move().opponent(), 0, k),
            SeriesEnd::Help => (p.to_move(), k, 1),
            _ => return false,
        };
        if !SERIES_GATE.with_borrow_mut(|g| g.ask(k)) {
            return false;
        }
        let cut = p.goal_unreachable(self.goal, mated, mated_moves, mating_moves);
        SERIES_GATE.with_borrow_mut(|g| g.record(k, cut));
        cut
    }

    /// The plan ([`Game::plan`]) of `p` (series side to move, up to `k` moves left): as
    /// [`Series::goal_unreachable`] sees the sides.
    fn plan(&self, p: &G, k: u32) -> Option<G::Plan> {
        // Stalemate: only in `ser-h=`, where the pictures place every stalemated piece (the
        // ordinary stalemate pictures, the king's flights only, made ser-h= slower:
        // Popeye-regression #107 ser-h=8 0.5 s -> 4.3 s); not in `ser-=`.
        if self.goal != Goal::Mate && !(self.goal == Goal::Stalemate && self.end == SeriesEnd::Help) {
            return None;
        }
        let (mated, mated_moves, mating_moves) = match self.end {
            SeriesEnd::Direct => (p.to_move().opponent(), 0, k),
            SeriesEnd::Help => (p.to_move(), k, 1),
            _ => return None,
        };
        p.plan(self.goal, mated, mated_moves, mating_moves)
    }

    /// Whether the series goes on past `q` (the other side to move, not in check): in `ser-h`
    /// the other side makes no move until the end, so that it may stand stalemated on the
    /// way (Popeye's pser-h#7 of `pseries.inp`: `4.Kb3-a2` leaves White without a move, its
    /// rook pinned); in the other series a side without a move ends the play there.
    pub(super) fn may_pass(&self, q: &G) -> bool {
        self.end == SeriesEnd::Help || q.has_move()
    }

    /// A series move that does not end the series, as written in a line: without the mark of
    /// the other side's stalemate on the way, which Popeye does not write (`ser-h`, and
    /// `ser-#`: `stip.inp` #43, ser-#13 under KoeKo, `12.Kd4-c3   13.Ld3-c4 #`).
    pub(super) fn series_move(&self, p: &G, m: G::Move) -> LineMove {
        let mut lm = line_move(self.ctx, p, m);
        if matches!(lm.mark.as_str(), "=" | "==") {
            lm.mark.clear();
        }
        lm
    }

    /// Whether a series goes on after a move that could end it (`ended`): always in `ser-h`
    /// and `ser-s` (the longer series is a solution of its own), never in `ser-r` (the other
    /// side must reach the goal at once). In `ser-#` and `ser-=` a move that ends the series
    /// gives mate or stalemate, after which it cannot go on anyway.
    fn goes_on(&self, ended: bool) -> bool {
        // The goals of the move end play where they are reached (Popeye's "stop solving when
        // the goal is reached"); the others may go on to a longer series.
        !ended || (self.end != SeriesEnd::Reflex && !self.goal.by_move())
    }

    /// Series side to move in `p`, up to `k` moves left; `plan`: its plan, if any.
    fn search(&self, p: &G, k: u32, plan: Option<&G::Plan>, prefix: &mut Vec<G::Move>, out: &mut Vec<Line>) -> bool {
        let Some((key, moves)) = self.children(p, k, plan) else { return false };
        let mut found = false;
        for (m, may_end) in moves {
            found |= self.step(p, k, m, may_end, plan, prefix, out);
        }
        if !found && !self.ctx.is_stopped() {
            self.ctx.tt.put(key, k as u64, series_worth(k));
        }
        found
    }

    /// The table key of `p` with up to `k` moves left, and whether the table already knows
    /// that no line starts there. A series that may end at any of its moves has no line of
    /// up to `k` moves wherever it has none of up to `k' >= k` moves: the key leaves `k`
    /// out and the entry holds the most moves proven fruitless (a position reached again with
    /// fewer moves left is cut at once). `exact-` series end only at their last move: their
    /// key holds `k`.
    fn known_fruitless(&self, p: &G, k: u32) -> (u64, bool) {
        let in_key = if self.exact { k } else { 0 };
        let key = p.key() ^ salt(SALT_SERIES, self.goal, in_key, self.end as u64 + 8 * self.exact as u64);
        (key, self.ctx.tt.get(key).is_some_and(|d| d >= k as u64))
    }

    /// The moves [`Series::search`] tries from `p` (series side to move, up to `k` moves left),
    /// in order, each with whether the series may end with it (in `ser-h#` and `ser-h=`, only
    /// where a mate or stalemate in one can follow), and the table key of `p`; `None` when
    /// `p` is known to lead to no line (the table, the bound where `plan` is `None`, a
    /// reflex goal the series side must take).
    fn children(&self, p: &G, k: u32, plan: Option<&G::Plan>) -> Option<(u64, Children<G::Move>)> {
        if k == 0 || self.ctx.tick() {
            return None;
        }
        // The table first: a probe costs less than the bound.
        let (key, known) = self.known_fruitless(p, k);
        if known || (plan.is_none() && self.goal_unreachable(p, k)) {
            return None;
        }
        let mut moves = Vec::new();
        if k == 1 && self.end == SeriesEnd::Direct && self.needs_check() {
            // The last move of `ser-#`: only a checking move can end the series, and none
            // goes on.
            p.checking_moves(&mut moves);
        } else {
            p.moves(&mut moves);
        }
        if self.end == SeriesEnd::Direct {
            // `ser-##`, `ser-!#`: the series' last move may leave its own king in check.
            add_self_check_goal_moves(p, self.goal, &mut moves);
        } else {
            // `GoalIsEnd`: the series side of `ser-h`, `ser-s`, `ser-r` may not reach the goal.
            drop_wrong_side_goal_moves(self.ctx, p, &mut moves);
        }
        // Reflex: a series side that can reach the goal itself must (and so fails).
        if self.end == SeriesEnd::Reflex && moves.iter().any(|&m| p.move_reaches_goal(m, self.goal)) {
            self.ctx.tt.put(key, k as u64, series_worth(k));
            return None;
        }
        // In `ser-h#` (`ser-h=`), the moves after which no mate (stalemate) in one can follow
        // (in the same order).
        let mateable = (self.end == SeriesEnd::Help && matches!(self.goal, Goal::Mate | Goal::Stalemate)).then(|| {
            let mut v = moves.clone();
            p.retain_before_goal_in_one(self.goal, &mut v);
            v
        });
        let mut next_mateable = 0;
        let mut out = Vec::with_capacity(moves.len());
        for &m in &moves {
            let may_end = match &mateable {
                Some(v) if v.get(next_mateable) == Some(&m) => {
                    next_mateable += 1;
                    true
                }
                Some(_) => false,
                None => true,
            };
            if !may_end && k == 1 {
                continue;
            }
            out.push((m, may_end));
        }
        Some((key, out))
    }

    /// One move `m` of [`Series::search`] from `p` (`k` moves left, `may_end` as
    /// [`Series::children`] gives it): the lines it ends and those that go on from it.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        p: &G,
        k: u32,
        m: G::Move,
        may_end: bool,
        plan: Option<&G::Plan>,
        prefix: &mut Vec<G::Move>,
        out: &mut Vec<Line>,
    ) -> bool {
        let child_plan = match plan {
            Some(pl) => match p.plan_after(pl, m) {
                Some(c) => Some(c),
                None => return false, // no picture can be reached in time
            },
            None => None,
        };
        let q = p.play(m);
        prefix.push(m);
        // `exact-`: only the last series move may end the series.
        let may_end = may_end && (!self.exact || k == 1);
        let mut found = false;
        // Whether the other side stands in check, asked once: in `ser-#` (a goal that needs
        // check) a move that gives none ends nothing, and a series goes on only without it.
        let mut check = None;
        let mut in_check = |q: &G| *check.get_or_insert_with(|| q.in_check());
        let may_end = may_end && !(self.end == SeriesEnd::Direct && self.needs_check() && !in_check(&q));
        let ended = match if may_end { self.endings(p, m, &q) } else { None } {
            Some(ends) => {
                self.push_endings(prefix, ends, out);
                found = true;
                true
            }
            None => false,
        };
        // The other side may stand stalemated on the way, where that is not the goal
        // reached: it never moves in the series (Popeye: ser-#2 1.Qc1-c7 2.Qc7-d8 # with
        // wKb6 bKa8).
        if self.goes_on(ended) && k > 1 && !in_check(&q) && (!ended || self.may_pass(&q)) {
            let next = q.pass();
            if self.search(&next, k - 1, child_plan.as_ref(), prefix, out) {
                found = true;
            }
        }
        prefix.pop();
        found
    }
}

/// The moves [`Series::children`] gives, each with whether the series may end with it.
type Children<M> = Vec<(M, bool)>;

/// A task of the split search of [`series`], below a first move.
#[derive(Clone, Copy)]
enum Part<M> {
    /// The first move's whole subtree (the search not split).
    Whole,
    /// Only the lines the first move ends.
    Ends,
    /// The subtree of one second series move, with whether the series may end with it.
    Child(M, bool),
}

pub(super) fn series_end(stip: &Stipulation) -> SeriesEnd {
    match stip.play {
        Play::Direct => SeriesEnd::Direct,
        Play::Help => SeriesEnd::Help,
        // Help-reflex series play is refused by the stipulation reader.
        Play::SelfPlay | Play::HelpSelf => SeriesEnd::SelfPlay,
        // Semi-reflex series play is refused by the stipulation reader.
        Play::Reflex | Play::SemiReflex | Play::HelpReflex => SeriesEnd::Reflex,
    }
}

/// Every series line from `pos` (series side to move).
pub(crate) fn series<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Vec<Line> {
    let s = Series { ctx, root: pos.clone(), goal: stip.goal, end: series_end(stip), exact: stip.exact };
    let k = stip.moves;
    let mut first = Vec::new();
    pos.moves(&mut first);
    if s.end == SeriesEnd::Direct {
        add_self_check_goal_moves(pos, stip.goal, &mut first);
    } else {
        drop_wrong_side_goal_moves(ctx, pos, &mut first);
    }
    if k == 0 {
        return Vec::new();
    }
    if s.end == SeriesEnd::Reflex && first.iter().any(|&m| pos.move_reaches_goal(m, stip.goal)) {
        return Vec::new();
    }
    let root_plan = s.plan(pos, k);
    // The plan after a first move: `None` without a plan, `Some(None)` when no picture can be
    // reached in time after it.
    let plan_after = |m: G::Move| root_plan.as_ref().map(|pl| pos.plan_after(pl, m));
    // The lines a first move ends (pushed to `out`), and the position after it where the
    // series goes on, if it does.
    let first_step = |m: G::Move, out: &mut Vec<Line>| -> Option<G> {
        if plan_after(m).is_some_and(|pl| pl.is_none()) {
            // No picture can be reached in time after this move.
            return None;
        }
        let q = pos.play(m);
        // `exact-`: only the last series move may end the series.
        let may_end = !s.exact || k == 1;
        let ended = match if may_end { s.endings(pos, m, &q) } else { None } {
            Some(ends) => {
                s.push_endings(&[m], ends, out);
                true
            }
            None => false,
        };
        (s.goes_on(ended) && k > 1 && !q.in_check() && (!ended || s.may_pass(&q))).then(|| q.pass())
    };
    // With several threads and a series long enough, the work is split over the first two
    // series moves, so that a narrow first level (a few first moves, or one that holds most
    // of the search) still keeps every thread busy; the lines come out in the order of the
    // one-thread search.
    let split = super::parallel::threads() > 1 && k > 2;
    let mut tasks: Vec<(G::Move, Part<G::Move>)> = Vec::new();
    for &m in &first {
        if !split {
            tasks.push((m, Part::Whole));
            continue;
        }
        tasks.push((m, Part::Ends));
        let Some(next) = first_step(m, &mut Vec::new()) else { continue };
        let child_plan = plan_after(m).flatten();
        if let Some((_, kids)) = s.children(&next, k - 1, child_plan.as_ref()) {
            tasks.extend(kids.into_iter().map(|(m2, may_end)| (m, Part::Child(m2, may_end))));
        }
    }
    let total = tasks.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<Line>> = par_map(&tasks, |&(m, part)| {
        SERIES_GATE.set(Gate::default());
        let mut out = Vec::new();
        match part {
            Part::Whole => {
                if let Some(next) = first_step(m, &mut out) {
                    let plan = plan_after(m).flatten();
                    s.search(&next, k - 1, plan.as_ref(), &mut vec![m], &mut out);
                }
            }
            Part::Ends => {
                first_step(m, &mut out);
            }
            Part::Child(m2, may_end) => {
                let next = pos.play(m).pass();
                let plan = plan_after(m).flatten();
                s.step(&next, k - 1, m2, may_end, plan.as_ref(), &mut vec![m], &mut out);
            }
        }
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(pr) = &opts.progress {
            pr.update(d, total, k);
        }
        out
    });
    let mut lines: Vec<Line> = parts.into_iter().flatten().collect();
    // Shorter series first, then move order (stable).
    lines.sort_by_key(|l| l.len());
    lines
}

/// Reciprocal series play (`ser-reci-h#n`, `ser-reci-h(=)#n`): after a series of exactly n-1
/// moves (none giving check but the last, the other side passing, as in series play), the
/// series side can both reach its own goal `own` with its n-th move and play an n-th move
/// after which the other side reaches the goal in one; both endings are written, the help
/// ones first (`7.Td7-d8 Dh7-b7 #`, `7.Td7*h7 =`), as Popeye does. Lines in move order.
pub(crate) fn series_reci<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, own: Goal) -> Vec<Line> {
    fn walk<G: Game>(ctx: &Ctx, p: &G, left: u32, goal: Goal, own: Goal, prefix: &mut Line, out: &mut Vec<Line>) {
        if ctx.tick() {
            return;
        }
        let mut moves = Vec::new();
        p.moves(&mut moves);
        if left == 0 {
            let mut helped = Vec::new();
            let mut mine = Vec::new();
            for &b in &moves {
                let after = p.play(b);
                if after.goal_reached(own) {
                    mine.push(vec![line_move(ctx, p, b)]);
                }
                let mut w = Vec::new();
                after.moves(&mut w);
                for &m in w.iter().filter(|&&m| after.play(m).goal_reached(goal)) {
                    helped.push(vec![line_move(ctx, p, b), line_move(ctx, &after, m)]);
                }
            }
            if !helped.is_empty() && !mine.is_empty() {
                for end in helped.into_iter().chain(mine) {
                    out.push(prefix.iter().cloned().chain(end).collect());
                }
            }
            return;
        }
        for &m in &moves {
            let q = p.play(m);
            if q.in_check() || !q.has_move() {
                continue;
            }
            prefix.push(line_move(ctx, p, m));
            walk(ctx, &q.pass(), left - 1, goal, own, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    if stip.moves > 0 {
        walk(ctx, pos, stip.moves - 1, stip.goal, own, &mut Vec::new(), &mut out);
    }
    out
}

/// The number of series moves of a line of `stip` (the other side's closing move and the
/// intro moves left out).
pub(crate) fn series_moves(stip: &Stipulation, line: &Line) -> u32 {
    let reply = series_end(stip) != SeriesEnd::Direct;
    let intro = line.iter().filter(|m| m.intro).count();
    line.len().saturating_sub(reply as usize + intro) as u32
}

/// Series play after `intro` intro moves (`N->ser-…`): the side to move in `pos` makes that
/// many moves in a row, none of them giving check (the series side passing in between), and
/// `series` (the lines of the series from a position, series side to move) is solved from
/// each position they lead to, once per position. Each line of it follows the intro moves
/// that led there; shorter series first, then in move order.
pub(crate) fn with_intro<G: Game>(ctx: &Ctx, pos: &G, intro: u32, series: &dyn Fn(&G) -> Vec<Line>) -> Vec<Line> {
    /// What the walk has learnt: the series' lines after the intro (per position), and the
    /// positions with intro moves left from which no line follows (per position and moves
    /// left), so that transposed intros are searched once.
    struct Memo {
        lines: std::collections::HashMap<u64, Vec<Line>>,
        dead: std::collections::HashSet<(u64, u32)>,
    }
    fn walk<G: Game>(
        ctx: &Ctx,
        p: &G,
        left: u32,
        prefix: &mut Line,
        memo: &mut Memo,
        series: &dyn Fn(&G) -> Vec<Line>,
        out: &mut Vec<Line>,
    ) -> bool {
        if memo.dead.contains(&(p.key(), left)) {
            return false;
        }
        let mut moves = Vec::new();
        p.moves(&mut moves);
        let mut found = false;
        for &m in &moves {
            if ctx.tick() {
                return found;
            }
            let q = p.play(m);
            if q.in_check() {
                continue;
            }
            prefix.push(line_move(ctx, p, m).as_intro());
            if left > 1 {
                found |= walk(ctx, &q.pass(), left - 1, prefix, memo, series, out);
            } else {
                let lines = memo.lines.entry(q.key()).or_insert_with(|| series(&q));
                found |= !lines.is_empty();
                out.extend(lines.iter().map(|l| prefix.iter().cloned().chain(l.iter().cloned()).collect()));
            }
            prefix.pop();
        }
        if !found && !ctx.is_stopped() {
            memo.dead.insert((p.key(), left));
        }
        found
    }
    let mut out = Vec::new();
    let mut memo = Memo { lines: std::collections::HashMap::new(), dead: std::collections::HashSet::new() };
    walk(ctx, pos, intro, &mut Vec::new(), &mut memo, series, &mut out);
    out.sort_by_key(|l| l.len());
    out
}

/// Set play of a series problem: the other side's closing move(s) at once.
pub(crate) fn series_set_play<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation) -> Vec<Line> {
    let s = Series { ctx, root: pos.clone(), goal: stip.goal, end: series_end(stip), exact: false };
    if s.end == SeriesEnd::Direct || pos.in_check() {
        return Vec::new();
    }
    // The series side passes; the diagram as it would be after its (empty) series.
    let q = pos.pass();
    match s.replies(&q) {
        Some(ends) => ends.into_iter().map(|e| vec![e]).collect(),
        None => Vec::new(),
    }
}

/// Pushes a series line, once for each of the other side's replies that end it (`ends`), or
/// alone when nothing follows it.
pub(crate) fn push_with_ends(out: &mut Vec<Line>, line: Line, ends: Vec<LineMove>) {
    if ends.is_empty() {
        out.push(line);
        return;
    }
    for e in ends {
        let mut l = line.clone();
        l.push(e);
        out.push(l);
    }
}

/// The table worth of a series node with `k` moves left: one more than `k`, since its last
/// move may be followed by the ending's test of every reply (so that the table grows for
/// these entries too, see [`super::tt`]).
fn series_worth(k: u32) -> u8 {
    (k + 1).min(u8::MAX as u32) as u8
}
