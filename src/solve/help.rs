//! Help play (`h#n`, `h#n.5`, `hs#n`) and series play (`ser-#n`, `ser-h#n`, `ser-s#n`,
//! `ser-r#n` and the stalemate forms).
//!
//! Help play is exact: every line has exactly the stipulated number of half-moves and only
//! its last move reaches the goal. Series play follows Popeye: the series side plays up to
//! n moves in a row (shorter series count), none of which may give check except the last;
//! then, for `ser-h`, the other side reaches the goal in one; for `ser-s`, the other side is
//! forced to reach it; for `ser-r`, must reach it when it can.

use super::parallel::par_map;
use super::tree::{Line, LineMove};
use super::{Ctx, SolveOptions, line_move};
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::bound::{Gate, needs_check};
use crate::rules::{Game, Goal};

const SALT_HELP: u64 = 0x4CF5_AD43_2745_937F;
const SALT_SERIES: u64 = 0x2545_F491_4F6C_DD1D;

/// Half-moves left up to which the help search asks [`Game::goal_unreachable`]: as far as
/// the bound goes (seven moves of the mated side); the [`Gate`] stops asking where it does
/// not pay.
const MATE_BOUND_PLIES: u32 = 15;

thread_local! {
    /// Where asking [`Game::goal_unreachable`] pays, in the task running on this thread.
    static GATE: std::cell::RefCell<Gate> = std::cell::RefCell::new(Gate::default());
}

/// What must hold after the last half-move of a help line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Finish {
    /// The goal is reached.
    Goal,
    /// The side to move is forced to reach the goal in one (`hs#`).
    Forced,
}

struct Helper<'a, G: Game> {
    ctx: &'a Ctx,
    /// The position the lines start from (lines are written out from it when found).
    root: G,
    goal: Goal,
    finish: Finish,
    /// Whether lines end with a mate or a stalemate by the last move (`h#n`, `h=n`, and the
    /// `.5` forms): then [`Game::goal_unreachable`] may cut a line that can no longer reach
    /// the goal, and the move filters apply.
    bound: bool,
    salt: u64,
    _g: std::marker::PhantomData<G>,
}

fn salt(base: u64, goal: Goal, k: u32, kind: u64) -> u64 {
    base ^ (goal as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (k as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        ^ kind.wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// Whether the side to move in `q` is forced to reach `goal` with its next move: it has a
/// move, and every move reaches it.
fn forced<G: Game>(q: &G, goal: Goal) -> bool {
    let mut v = Vec::new();
    q.moves(&mut v);
    !v.is_empty() && v.iter().all(|&d| q.play(d).goal_reached(goal))
}

impl<G: Game> Helper<'_, G> {
    fn finished(&self, q: &G) -> bool {
        match self.finish {
            Finish::Goal => q.goal_reached(self.goal),
            Finish::Forced => forced(q, self.goal),
        }
    }

    /// Appends to `out` every line of exactly `k` half-moves from `p`; returns whether any.
    /// `prefix` holds the moves so far, from the root.
    /// `judged`: the bound was already asked of `p`, by its parent's move filter.
    fn search(&self, p: &G, k: u32, judged: bool, prefix: &mut Vec<G::Move>, out: &mut Vec<Line>) -> bool {
        if self.ctx.tick() {
            return false;
        }
        let key = p.key() ^ salt(SALT_HELP, self.goal, k, self.finish as u64 + self.salt);
        if self.ctx.tt.get(key).is_some() {
            return false; // proven: no solution
        }
        if self.bound && !judged && k <= MATE_BOUND_PLIES && GATE.with_borrow_mut(|g| g.ask(k)) {
            // The side to move at k = 1 mates: it has ⌈k/2⌉ moves left, the mated side ⌊k/2⌋.
            let mating = if k % 2 == 1 { p.to_move() } else { p.to_move().opponent() };
            let cut = p.goal_unreachable(self.goal, mating.opponent(), k / 2, k.div_ceil(2));
            GATE.with_borrow_mut(|g| g.record(k, cut));
            if cut {
                return false;
            }
        }
        let mut moves = Vec::new();
        let mut children_judged = false;
        // At the last half-move of a mate or check goal only checking moves can reach it.
        if k == 1 && self.finish == Finish::Goal && matches!(self.goal, Goal::Mate | Goal::Check) {
            p.checking_moves(&mut moves);
        } else {
            p.moves(&mut moves);
            if k == 1 && self.bound {
                // The stalemating move: only those that take away every move of the opponent.
                p.retain_goal_moves(self.goal, &mut moves);
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
        let mut found = false;
        if k >= 2 && self.ctx.tt.enabled() {
            // The children's table slots prefetched first, so that the cache misses of
            // their probes overlap instead of coming one after the other.
            let child_salt = salt(SALT_HELP, self.goal, k - 1, self.finish as u64 + self.salt);
            for &m in &moves {
                self.ctx.tt.prefetch(p.key_hint(m) ^ child_salt);
            }
        }
        for &m in &moves {
            let q = p.play(m);
            if k == 1 {
                if self.finished(&q) {
                    prefix.push(m);
                    self.emit(prefix, &q, out);
                    prefix.pop();
                    found = true;
                }
            } else {
                prefix.push(m);
                if self.search(&q, k - 1, children_judged, prefix, out) {
                    found = true;
                }
                prefix.pop();
            }
        }
        if !found && !self.ctx.is_stopped() {
            self.ctx.tt.put(key, 1);
        }
        found
    }

    /// Writes a finished line (`last` = the position after its last move).
    fn emit(&self, prefix: &[G::Move], last: &G, out: &mut Vec<Line>) {
        let mut line: Line = Vec::with_capacity(prefix.len() + 1);
        let mut p = self.root.clone();
        for &m in prefix {
            line.push(line_move(&p, m));
            p = p.play(m);
        }
        if self.finish == Finish::Forced {
            // The forced last move(s) complete the line.
            let mut v = Vec::new();
            last.moves(&mut v);
            for &d in &v {
                let mut l = line.clone();
                l.push(line_move(last, d));
                out.push(l);
            }
        } else {
            out.push(line);
        }
    }
}

/// Every help line of `plies` half-moves from `pos`.
pub(crate) fn help<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, plies: u32, opts: &SolveOptions) -> Vec<Line> {
    let finish = if stip.play == Play::HelpSelf { Finish::Forced } else { Finish::Goal };
    let bound = finish == Finish::Goal && needs_check(stip.goal).is_some();
    let h = Helper::<G> { ctx, root: pos.clone(), goal: stip.goal, finish, bound, salt: 0, _g: std::marker::PhantomData };
    if plies == 0 {
        return Vec::new();
    }
    // Split over the first two half-moves when the first level is narrow.
    let mut first = Vec::new();
    pos.moves(&mut first);
    let threads = rayon::current_num_threads();
    let mut prefixes: Vec<Vec<G::Move>> = first.iter().map(|&m| vec![m]).collect();
    if plies > 3 || (plies > 2 && prefixes.len() < 4 * threads) {
        let mut deeper = Vec::new();
        for &m in &first {
            let q = pos.play(m);
            let mut second = Vec::new();
            q.moves(&mut second);
            for &m2 in &second {
                deeper.push(vec![m, m2]);
            }
        }
        prefixes = deeper;
    }
    let total = prefixes.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<Line>> = par_map(&prefixes, |pre| {
        GATE.set(Gate::default());
        let mut out = Vec::new();
        let mut line: Vec<G::Move> = Vec::new();
        let mut p = pos.clone();
        let mut ok = true;
        for (i, &m) in pre.iter().enumerate() {
            let q = p.play(m);
            line.push(m);
            if i as u32 + 1 == plies {
                if h.finished(&q) {
                    h.emit(&line, &q, &mut out);
                }
                ok = false;
                break;
            }
            p = q;
        }
        if ok {
            h.search(&p, plies - pre.len() as u32, false, &mut line, &mut out);
        }
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(pr) = &opts.progress {
            pr.update(d, total, plies);
        }
        out
    });
    parts.into_iter().flatten().collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum SeriesEnd {
    /// `ser-#`: the series' last move reaches the goal.
    Direct,
    /// `ser-h#`: then the other side reaches it in one.
    Help,
    /// `ser-s#`: then the other side is forced to reach it.
    SelfPlay,
    /// `ser-r#`: then the other side must reach it when it can.
    Reflex,
}

struct Series<'a, G: Game> {
    ctx: &'a Ctx,
    /// The position the series starts from (lines are written out from it when found).
    root: G,
    goal: Goal,
    end: SeriesEnd,
}

thread_local! {
    /// Where asking [`Game::goal_unreachable`] pays in series play (per series moves left).
    static SERIES_GATE: std::cell::RefCell<Gate> = std::cell::RefCell::new(Gate::default());
}

impl<G: Game> Series<'_, G> {
    /// Whether a move reaching the goal must give check (mate and check goals): the other
    /// moves need not be played to be ruled out.
    fn needs_check(&self) -> bool {
        matches!(self.goal, Goal::Mate | Goal::Check)
    }

    /// The replies that end a series after the series side's move (other side to move in
    /// `q`); `None` when the series does not end there.
    fn endings(&self, q: &G) -> Option<Vec<LineMove>> {
        match self.end {
            SeriesEnd::Direct => q.goal_reached(self.goal).then(Vec::new),
            SeriesEnd::Help => {
                let mut v = Vec::new();
                if self.needs_check() {
                    q.checking_moves(&mut v);
                } else {
                    q.moves(&mut v);
                    q.retain_goal_moves(self.goal, &mut v);
                }
                let r: Vec<LineMove> = v.iter().filter(|&&d| q.play(d).goal_reached(self.goal)).map(|&d| line_move(q, d)).collect();
                (!r.is_empty()).then_some(r)
            }
            SeriesEnd::SelfPlay => {
                if forced(q, self.goal) {
                    let mut v = Vec::new();
                    q.moves(&mut v);
                    Some(v.iter().map(|&d| line_move(q, d)).collect())
                } else {
                    None
                }
            }
            SeriesEnd::Reflex => {
                let mut v = Vec::new();
                q.moves(&mut v);
                let r: Vec<LineMove> = v
                    .iter()
                    .filter(|&&d| (!self.needs_check() || q.gives_check(d)) && q.play(d).goal_reached(self.goal))
                    .map(|&d| line_move(q, d))
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
            line.push(line_move(&p, m));
            p = p.play(m);
            if i + 1 < prefix.len() {
                p = p.pass();
            }
        }
        if ends.is_empty() {
            out.push(line);
        } else {
            for e in ends {
                let mut l = line.clone();
                l.push(e);
                out.push(l);
            }
        }
    }

    /// Whether no series of up to `k` moves from `p` (series side to move) can end in mate
    /// (or stalemate), by [`Game::goal_unreachable`]: in `ser-#` the other side stands still
    /// while the series side has `k` moves to mate; in `ser-h#` the series side has `k`
    /// moves and is then mated in one. `false` for the other stipulations.
    fn goal_unreachable(&self, p: &G, k: u32) -> bool {
        if needs_check(self.goal).is_none() {
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

    /// Series side to move in `p`, up to `k` moves left.
    fn search(&self, p: &G, k: u32, prefix: &mut Vec<G::Move>, out: &mut Vec<Line>) -> bool {
        if k == 0 || self.ctx.tick() || self.goal_unreachable(p, k) {
            return false;
        }
        let key = p.key() ^ salt(SALT_SERIES, self.goal, k, self.end as u64);
        if self.ctx.tt.get(key).is_some() {
            return false;
        }
        let mut moves = Vec::new();
        p.moves(&mut moves);
        // Reflex: a series side that can reach the goal itself must (and so fails).
        if self.end == SeriesEnd::Reflex && moves.iter().any(|&m| p.play(m).goal_reached(self.goal)) {
            self.ctx.tt.put(key, 1);
            return false;
        }
        // In `ser-h#` (`ser-h=`), the moves after which no mate (stalemate) in one can follow
        // (in the same order).
        let mateable = (self.end == SeriesEnd::Help && needs_check(self.goal).is_some()).then(|| {
            let mut v = moves.clone();
            p.retain_before_goal_in_one(self.goal, &mut v);
            v
        });
        let mut next_mateable = 0;
        let mut found = false;
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
            let q = p.play(m);
            prefix.push(m);
            if let Some(ends) = if may_end { self.endings(&q) } else { None } {
                self.push_endings(prefix, ends, out);
                found = true;
            } else if k > 1 && !q.in_check() && q.has_move() {
                let next = q.pass();
                if self.search(&next, k - 1, prefix, out) {
                    found = true;
                }
            }
            prefix.pop();
        }
        if !found && !self.ctx.is_stopped() {
            self.ctx.tt.put(key, 1);
        }
        found
    }
}

fn series_end(stip: &Stipulation) -> SeriesEnd {
    match stip.play {
        Play::Direct => SeriesEnd::Direct,
        Play::Help => SeriesEnd::Help,
        Play::SelfPlay | Play::HelpSelf => SeriesEnd::SelfPlay,
        Play::Reflex => SeriesEnd::Reflex,
    }
}

/// Every series line from `pos` (series side to move).
pub(crate) fn series<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Vec<Line> {
    let s = Series { ctx, root: pos.clone(), goal: stip.goal, end: series_end(stip) };
    let k = stip.moves;
    let mut first = Vec::new();
    pos.moves(&mut first);
    if k == 0 {
        return Vec::new();
    }
    if s.end == SeriesEnd::Reflex && first.iter().any(|&m| pos.play(m).goal_reached(stip.goal)) {
        return Vec::new();
    }
    let total = first.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<Line>> = par_map(&first, |&m| {
        SERIES_GATE.set(Gate::default());
        let mut out = Vec::new();
        let q = pos.play(m);
        let mut prefix = vec![m];
        if let Some(ends) = s.endings(&q) {
            s.push_endings(&prefix, ends, &mut out);
        } else if k > 1 && !q.in_check() && q.has_move() {
            s.search(&q.pass(), k - 1, &mut prefix, &mut out);
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

/// Set play of a series problem: the other side's closing move(s) at once.
pub(crate) fn series_set_play<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation) -> Vec<Line> {
    let s = Series { ctx, root: pos.clone(), goal: stip.goal, end: series_end(stip) };
    if s.end == SeriesEnd::Direct || pos.in_check() {
        return Vec::new();
    }
    // The series side passes; the diagram as it would be after its (empty) series.
    let q = pos.pass();
    match s.endings(&q) {
        Some(ends) => ends.into_iter().map(|e| vec![e]).collect(),
        None => Vec::new(),
    }
}
