//! Parry series play (`pser-#n`, `pser-s#n`, `pser-r#n`, `pser-h#n`, `phser-…`, and the
//! stalemate goals), with Popeye's meaning.
//!
//! The series side plays up to n moves in a row, as in series play, but a series move may give
//! check: the opponent then parries it with one move before the series goes on (a move that
//! does not give check is not answered). The series ends as in series play: with the goal
//! (`pser-#`), the opponent forced to reach it (`pser-s#`), obliged to reach it when it can
//! (`pser-r#`), or reaching it in one (`pser-h#`).
//!
//! Two kinds of parry (Popeye's structured stipulations `white 15a[#]?+?d` for `pser-#8` and
//! `white 7h[#]?+?h` for `phser-#4`):
//! - [`Parry::Defence`] (`pser-#`, `pser-s#`, `pser-r#`): every parry must be answered, as the
//!   defences of direct play; in `pser-s#` a parry that reaches the goal ends the play, as
//!   Popeye writes it. A line is written for each first move that solves within n, then
//!   for each parry, followed by the series side's *shortest* continuations only (Popeye:
//!   `pser-#4` writes after `1.Qh3-c3 + Qg8-g7` only the continuations in two moves).
//! - [`Parry::Help`] (`phser-`, and `pser-h#`): the parry is a help move; every line of up to n
//!   series moves is written, as in series play (a parry that reaches the goal ends nothing:
//!   Popeye's `phser-s=2` has no `1.Qg6-c6 + Kc7*c6 =`).

use super::gate::Gate;
use super::help::{forced, salt};
use super::parallel::par_map;
use super::series::{Series, SeriesEnd, push_with_ends, series_end};
use super::tree::{Line, LineMove};
use super::{Ctx, SolveOptions, line_move};
use crate::problem::stipulation::{Parry, Stipulation};
use crate::rules::{Game, Goal};

const SALT_PARRY_HELP: u64 = 0x6A09_E667_F3BC_C908;
const SALT_PARRY_WIN: u64 = 0xBB67_AE85_84CA_A73B;

thread_local! {
    /// Where asking [`Game::goal_unreachable`] pays in parry series (per series moves left).
    static PARRY_GATE: std::cell::RefCell<Gate> = std::cell::RefCell::new(Gate::default());
}

/// Forgets what this thread's gate learned: each solve starts afresh, as it did on the new
/// threads of its own pool.
pub(super) fn reset_gate() {
    PARRY_GATE.with(|g| *g.borrow_mut() = Gate::default());
}

/// One step of a line: a move, and whether it is a parry.
type Step<M> = (M, bool);

struct ParrySeries<'a, G: Game> {
    /// The series endings (the position the lines start from, the goal, the end).
    s: Series<'a, G>,
    parry: Parry,
}

/// A proven fact in the table: the series side wins within `win` moves (0: not known) and
/// does not within `fail`.
fn pack(win: u32, fail: u32) -> u64 {
    (1u64 << 63) | ((win.min(255) as u64) << 8) | fail.min(255) as u64
}

fn unpack(d: u64) -> (u32, u32) {
    (((d >> 8) & 255) as u32, (d & 255) as u32)
}

impl<G: Game> ParrySeries<'_, G> {
    fn ctx(&self) -> &Ctx {
        self.s.ctx
    }

    fn goal(&self) -> Goal {
        self.s.goal
    }

    /// Whether no line of up to `k` series moves from `p` (series side to move) can end in
    /// mate (or stalemate), by [`Game::goal_unreachable`], which counts each side's moves in
    /// any order. A parry answers a check, so the opponent makes at most one move per series
    /// move: in `pser-#` the opponent is mated after at most `k - 1` parries; in `pser-s#`
    /// the series side is mated by the opponent's parries and its forced move, at most `k`
    /// moves in all; in `pser-h#` the series side is mated by the parries and the mating
    /// move, at most `k`. `false` for reflex play and the other goals.
    fn goal_unreachable(&self, p: &G, k: u32) -> bool {
        if !matches!(self.goal(), Goal::Mate | Goal::Stalemate) {
            return false;
        }
        let side = p.to_move();
        let (mated, mated_moves, mating_moves) = match self.s.end {
            SeriesEnd::Direct => (side.opponent(), k - 1, k),
            SeriesEnd::SelfPlay | SeriesEnd::Help => (side, k, k),
            SeriesEnd::Reflex => return false,
        };
        if !PARRY_GATE.with_borrow_mut(|g| g.ask(k)) {
            return false;
        }
        let cut = p.goal_unreachable(self.goal(), mated, mated_moves, mating_moves);
        PARRY_GATE.with_borrow_mut(|g| g.record(k, cut));
        cut
    }

    /// Whether the series ends after a series move (opponent to move in `q`), as
    /// [`Series::endings_at`] says, without writing the moves.
    fn ends(&self, q: &G) -> bool {
        match self.s.end {
            SeriesEnd::Direct => q.goal_reached(self.goal()),
            SeriesEnd::SelfPlay => forced(q, self.goal()),
            SeriesEnd::Help | SeriesEnd::Reflex => {
                let mut v = Vec::new();
                q.moves(&mut v);
                v.iter().any(|&d| q.play(d).goal_reached(self.goal()))
            }
        }
    }

    /// Reflex play: whether the series side, to move in `p`, can reach the goal itself (then it
    /// must, and the series fails).
    fn bound_to_goal(&self, p: &G, moves: &[G::Move]) -> bool {
        self.s.end == SeriesEnd::Reflex && moves.iter().any(|&m| p.play(m).goal_reached(self.goal()))
    }

    /// Writes a line: the steps from the root (the opponent passing between two series moves),
    /// then each ending (none: the line as it is).
    fn write(&self, steps: &[Step<G::Move>], ends: Vec<LineMove>, out: &mut Vec<Line>) {
        let mut line: Line = Vec::with_capacity(steps.len() + 1);
        let mut p = self.s.root.clone();
        let mut after_series_move = false;
        for &(m, parry) in steps {
            if !parry && after_series_move {
                p = p.pass();
            }
            line.push(if parry { line_move(self.ctx(), &p, m).as_parry() } else { self.s.series_move(&p, m) });
            p = p.play(m);
            after_series_move = !parry;
        }
        push_with_ends(out, line, ends);
    }

    // ----- Help parries: every line. -----

    /// Series side to move in `p`, up to `k` series moves left: appends every line to `out`;
    /// returns whether any.
    fn help_lines(&self, p: &G, k: u32, steps: &mut Vec<Step<G::Move>>, out: &mut Vec<Line>) -> bool {
        if k == 0 || self.ctx().tick() {
            return false;
        }
        let key = p.key() ^ salt(SALT_PARRY_HELP, self.goal(), k, self.s.end as u64);
        if self.ctx().tt.get(key).is_some() {
            return false;
        }
        if self.goal_unreachable(p, k) {
            self.ctx().tt.put(key, 1, parry_worth(k));
            return false;
        }
        let mut moves = Vec::new();
        p.moves(&mut moves);
        if self.bound_to_goal(p, &moves) {
            self.ctx().tt.put(key, 1, parry_worth(k));
            return false;
        }
        let mut found = false;
        for &m in &moves {
            steps.push((m, false));
            if self.after_help(&p.play(m), k - 1, steps, out) {
                found = true;
            }
            steps.pop();
        }
        if !found && !self.ctx().is_stopped() {
            self.ctx().tt.put(key, 1, parry_worth(k));
        }
        found
    }

    /// After a series move (opponent to move in `q`, `rest` series moves left): the endings,
    /// else each parry of a check, else the opponent stands still.
    fn after_help(&self, q: &G, rest: u32, steps: &mut Vec<Step<G::Move>>, out: &mut Vec<Line>) -> bool {
        if let Some(ends) = self.s.endings_at(q) {
            self.write(steps, ends, out);
            return true;
        }
        if rest == 0 {
            return false;
        }
        if q.in_check() {
            let mut parries = Vec::new();
            q.moves(&mut parries);
            let mut found = false;
            for &d in &parries {
                steps.push((d, true));
                if self.help_lines(&q.play(d), rest, steps, out) {
                    found = true;
                }
                steps.pop();
            }
            found
        } else {
            self.s.may_pass(q) && self.help_lines(&q.pass(), rest, steps, out)
        }
    }

    // ----- Defence parries: every parry answered. -----

    /// Series side to move in `p`: does it win within `k` series moves against every parry?
    fn win(&self, p: &G, k: u32) -> bool {
        if k == 0 || self.ctx().tick() {
            return false;
        }
        let key = p.key() ^ salt(SALT_PARRY_WIN, self.goal(), 0, self.s.end as u64);
        if let Some((w, f)) = self.ctx().tt.get(key).map(unpack) {
            if w > 0 && w <= k {
                return true;
            }
            if f >= k {
                return false;
            }
        }
        let r = !self.goal_unreachable(p, k) && {
            let mut moves = Vec::new();
            p.moves(&mut moves);
            !self.bound_to_goal(p, &moves) && { moves.iter().any(|&m| self.after_win(&p.play(m), k - 1)) }
        };
        if !self.ctx().is_stopped() && self.ctx().tt.enabled() {
            let (mut w, mut f) = self.ctx().tt.get(key).map(unpack).unwrap_or((0, 0));
            if r {
                if w == 0 || k < w {
                    w = k;
                }
            } else if k > f {
                f = k;
            }
            self.ctx().tt.put(key, pack(w, f), parry_worth(k));
        }
        r
    }

    /// After a series move (opponent to move in `q`, `rest` series moves left): does the
    /// series side win, whatever the parry?
    fn after_win(&self, q: &G, rest: u32) -> bool {
        if self.ends(q) {
            return true;
        }
        if q.in_check() {
            let mut parries = Vec::new();
            q.moves(&mut parries);
            !parries.is_empty() && parries.iter().all(|&d| self.answered(&q.play(d), rest))
        } else {
            rest > 0 && q.has_move() && self.win(&q.pass(), rest)
        }
    }

    /// Whether the series side wins after parry `r` (series side to move): in `pser-s#` a
    /// parry that reaches the goal ends the play as the series side wants (Popeye's `pser-s=2`
    /// with a lone white queen: `1.Qg6-c6 + Kc7*c6 =`).
    fn answered(&self, r: &G, rest: u32) -> bool {
        (self.s.end == SeriesEnd::SelfPlay && r.goal_reached(self.goal())) || self.win(r, rest)
    }

    /// Writes the lines after a series move that wins within `rest` more series moves
    /// (opponent to move in `q`).
    fn defence_lines(&self, q: &G, rest: u32, steps: &mut Vec<Step<G::Move>>, out: &mut Vec<Line>) {
        if self.ctx().is_stopped() {
            return;
        }
        if let Some(ends) = self.s.endings_at(q) {
            self.write(steps, ends, out);
            return;
        }
        if q.in_check() {
            let mut parries = Vec::new();
            q.moves(&mut parries);
            for &d in &parries {
                let r = q.play(d);
                steps.push((d, true));
                if self.s.end == SeriesEnd::SelfPlay && r.goal_reached(self.goal()) {
                    self.write(steps, Vec::new(), out);
                } else {
                    self.continuations(&r, rest, steps, out);
                }
                steps.pop();
            }
        } else {
            self.continuations(&q.pass(), rest, steps, out);
        }
    }

    /// The series side's shortest continuations from `p` (series side to move), within `rest`.
    fn continuations(&self, p: &G, rest: u32, steps: &mut Vec<Step<G::Move>>, out: &mut Vec<Line>) {
        let Some(len) = (1..=rest).find(|&l| self.win(p, l)) else { return };
        let mut moves = Vec::new();
        p.moves(&mut moves);
        for &m in &moves {
            let q = p.play(m);
            if self.after_win(&q, len - 1) {
                steps.push((m, false));
                self.defence_lines(&q, len - 1, steps, out);
                steps.pop();
            }
        }
    }
}

/// Every line of a parry series from `pos` (series side to move).
pub(crate) fn parry_series<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Vec<Line> {
    let Some(parry) = stip.parry else { return Vec::new() };
    let s = Series { ctx, root: pos.clone(), goal: stip.goal, end: series_end(stip), exact: false };
    let ps = ParrySeries { s, parry };
    let k = stip.moves;
    let mut first = Vec::new();
    pos.moves(&mut first);
    if k == 0 || ps.bound_to_goal(pos, &first) {
        return Vec::new();
    }
    let total = first.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<Line>> = par_map(&first, |&m| {
        let mut out = Vec::new();
        let q = pos.play(m);
        let mut steps = vec![(m, false)];
        match ps.parry {
            Parry::Help => {
                ps.after_help(&q, k - 1, &mut steps, &mut out);
            }
            Parry::Defence => {
                if ps.after_win(&q, k - 1) {
                    ps.defence_lines(&q, k - 1, &mut steps, &mut out);
                }
            }
        }
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(pr) = &opts.progress {
            pr.update(d, total, k);
        }
        out
    });
    parts.into_iter().flatten().collect()
}

/// The table worth of a parry-series node with `k` series moves left: one more than `k`,
/// since even its last series move is followed by the ending's test of every reply (so that
/// the table grows for these entries too, see [`super::tt`]: `pser-s#7`, `pseries.inp` #8,
/// took 18.0 s instead of 14.9 s when its `k = 1` entries did not count).
fn parry_worth(k: u32) -> u8 {
    (k + 1).min(u8::MAX as u32) as u8
}
