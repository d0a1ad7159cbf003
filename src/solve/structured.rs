//! Structured stipulations ([`SStipulation`]) that are no ordinary stipulation: a plain,
//! exhaustive recursive search over the tree of branches, forks, leaves and constraints, as
//! Popeye's manual defines them (`py-engl.txt`, "sstipulation").
//!
//! - A **help** (`hh`) or **series** (`s`) branch at the root gives lines: every sequence of
//!   its moves after which one of the forks of the letter just played holds, at every length
//!   from the minimum (`m:`) to the maximum. A line goes on after a nested branch holds, and
//!   ends there when the branch begins with `>`, or at a leaf whose goal ends help play (the
//!   goals of the move, and check). The moves of a nested help, series or one-move branch are
//!   written after the line's own unless it begins with `/`.
//! - An **attack** branch (`ad`) of one half-move at the root gives keys: the attacker's moves
//!   after which a fork holds (`1a[!#]d`: every move that does not mate). A longer one gives
//!   a tree as direct play does: keys, tries (`Try`), threats or zugzwang, and variations
//!   (`4a[#=]d[#=]`, `3:3a[!#]d`, `2ad[1a[+]d{+}]`).
//! - `&` at the root plays each operand in turn, each its own phase (`3a[#]d & - 4hh[#]`).
//! - Nested branches are tests: `ad` holds when the attacker forces a fork within the length,
//!   `da` when the defender has no refutation (every defence reaches a fork of `d`, or the
//!   attacker forces one after it; a defender without a move has none); `hh` and `s` when a
//!   line exists. `-` changes the side to move (illegal where the side that would not move is
//!   in check); `!`, `&` and `|` combine the tests.
//! - **Constraints** `{…}` are tested after each move of their letter, and at the start when
//!   they follow the second letter (so that in battle play those written after `d` hold
//!   before each attacking move, the first one included), on the position there (a goal of
//!   the move on the move that led to it); a move after which one fails is not played on,
//!   and a branch whose start fails one has no solution.
//! - After a move the leaves test the side to move (mated, stalemated, in check) and the move
//!   itself (`x`, `ep`, `00`, `z`).
//!
//! Not played here (the problem is unsupported, naming the element): the conditional right
//! to move `?R?`, a defence branch (`da`) at the root that is no synonym, `|` and `!` at the
//! root, and goals feerie does not play.

use super::{Line, LineMove, Node, Phase, Role, SolveOptions, Solved};
use crate::piece::Lang;
use crate::problem::sstip::{Branch, BranchKind, Expr, Leaf, SStipulation, Step};
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Goal};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Why a structured stipulation cannot be played here, naming the element; or the ordinary
/// stipulation that stands for it in reports and in the choice of a layout (help lines, series
/// lines or keys) and whose goal is the first leaf's.
///
/// ```
/// use feerie::problem::sstip::SStipulation;
/// use feerie::solve::structured::stand_in;
/// let s = SStipulation::parse("black 6hh[/2da[#]{!+}]").unwrap();
/// assert_eq!(stand_in(&s).unwrap().to_string(), "h#3");
/// let s = SStipulation::parse("white 3:3a[!#]d").unwrap();
/// assert_eq!(stand_in(&s).unwrap().to_string(), "#2");
/// let s = SStipulation::parse("white 3d[#]a").unwrap();
/// assert!(stand_in(&s).is_err());
/// ```
pub fn stand_in(s: &SStipulation) -> Result<Stipulation, String> {
    check_expr(&s.expr, s)?;
    let goal = first_goal(&s.expr).unwrap_or(Goal::Mate);
    let b = match &s.expr {
        Expr::Branch(b) => b,
        Expr::And(..) => {
            // `&` at the root: each operand is played on its own, as a synonym or here.
            let parts = and_operands(&s.expr);
            let mut first = None;
            for part in parts {
                let sub = SStipulation { side: s.side, expr: part.clone() };
                let st = match sub.translate() {
                    Some(t) => t.stipulation,
                    None if matches!(part, Expr::Branch(_)) => stand_in(&sub)?,
                    None => return Err(format!("the structured stipulation '{s}': '{part}' under '&' at the root is not supported yet")),
                };
                first.get_or_insert(st);
            }
            return first.ok_or_else(|| format!("the structured stipulation '{s}' is empty"));
        }
        _ => return Err(format!("the structured stipulation '{s}': '|' and '!' at the root are not supported yet")),
    };
    match b.kind {
        BranchKind::Help => Ok(Stipulation::new(false, Play::Help, goal, (b.max / 2).max(1), b.max % 2 == 1)),
        BranchKind::Series => Ok(Stipulation::new(true, Play::Direct, goal, b.max.max(1), false)),
        BranchKind::AttackDefence => Ok(Stipulation::new(false, Play::Direct, goal, b.max.div_ceil(2).max(1), false)),
        BranchKind::DefenceAttack => Err(format!(
            "the structured stipulation '{s}': a defence branch ('{b}') at the root is not supported yet unless it is a synonym"
        )),
    }
}

fn first_goal(e: &Expr) -> Option<Goal> {
    match e {
        Expr::Leaf(Leaf::Goal(g)) => Some(*g),
        Expr::Leaf(Leaf::Other(_)) => None,
        Expr::Branch(b) => b.first.forks.iter().chain(&b.second.forks).find_map(first_goal),
        Expr::Not(x) => first_goal(x),
        Expr::And(x, y) | Expr::Or(x, y) => first_goal(x).or_else(|| first_goal(y)),
    }
}

fn check_expr(e: &Expr, s: &SStipulation) -> Result<(), String> {
    match e {
        Expr::Leaf(Leaf::Goal(_)) => Ok(()),
        Expr::Leaf(Leaf::Other(g)) => Err(format!("the structured stipulation '{s}': the goal '{g}' is not supported yet")),
        Expr::Not(x) => check_expr(x, s),
        Expr::And(x, y) | Expr::Or(x, y) => check_expr(x, s).and(check_expr(y, s)),
        Expr::Branch(b) => {
            if b.first.condition.is_some() || b.second.condition.is_some() {
                return Err(format!("the structured stipulation '{s}': the conditional right to move '?+?' in '{b}' is not supported yet"));
            }
            for x in b.first.forks.iter().chain(&b.first.constraints).chain(&b.second.forks).chain(&b.second.constraints) {
                check_expr(x, s)?;
            }
            Ok(())
        }
    }
}

/// Most nested tests kept at once (the table is emptied when full), whatever the budget.
const MEMO_ENTRIES: usize = 1 << 20;

/// The most entries a hash map of `T` may hold within `bytes` allocated, at most
/// [`MEMO_ENTRIES`]: the map keeps a power of two of buckets at most 7/8 full, each of one `T`
/// and one control byte, so `n` entries take at most `2 × 8/7 × n` buckets (just after a
/// growth), and never fewer than 4, plus a group of 16 control bytes.
fn map_entries<T>(bytes: usize) -> usize {
    let bucket = std::mem::size_of::<T>() + 1;
    let per = bucket * 16 / 7 + 1;
    (bytes.saturating_sub(16 + 4 * bucket) / per).min(MEMO_ENTRIES)
}

/// The search's state: limits and the table of nested tests already made.
struct Search<G: Game> {
    deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop.
    cancel: Option<std::sync::Arc<AtomicBool>>,
    stopped: AtomicBool,
    nodes: u64,
    /// Results of nested tests, by the test's address, the position's key and the move that
    /// led to it.
    memo: HashMap<(usize, u64, Option<G::Move>), bool>,
    /// Help and series play that has no line: by the branch's address, the position's key,
    /// the half-moves played and the letter that moves (as positions recur in other orders).
    /// Kept in a transposition table ([`super::tt::Table`]: a fixed budget, the entries of
    /// the most half-moves left kept when full) under a key mixed from these: a set
    /// emptied when full lost the deep facts of long series (Popeye's `sford.inp` #41,
    /// `9s [- 1d[x]a]`).
    dead: super::tt::Table,
    /// Lines found so far (to tell a subtree without any).
    found: u64,
    /// Most entries of `memo`: what half the search's table budget holds
    /// ([`SolveOptions::table_bytes`]; none with `--hash 0`).
    memo_cap: usize,
    /// The options nested ordinary play is solved with ([`Search::ordinary_lines`]).
    opts: SolveOptions,
}

/// Half-moves from which a nested help or series branch that is an ordinary stipulation is
/// solved by its own solver ([`Search::ordinary_lines`]), with its bound, plans and
/// transposition table, instead of by the interpreter: a solve of its own costs a table and
/// a thread pool, which pays only on long play (Popeye's `sford.inp` #36, `1h[- 14hh[#]]h`:
/// more than 300 s here, 0.3 s so).
const ORDINARY_PLIES: u32 = 6;

impl<G: Game> Search<G> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)))
        {
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.stopped.load(Ordering::Relaxed)
    }

    /// The lines of a nested help or series branch `b` from `p` (after its `-`) when it is
    /// an ordinary stipulation of at least [`ORDINARY_PLIES`] half-moves, solved by
    /// [`super::solve`]; `None` for the others, which the interpreter plays.
    fn ordinary_lines(&mut self, b: &Branch, p: &G) -> Option<Vec<Line>> {
        if b.max < ORDINARY_PLIES {
            return None;
        }
        let stip = b.nested_ordinary()?;
        let now = Instant::now();
        let timeout = match self.deadline {
            Some(d) if d <= now => {
                self.stopped.store(true, Ordering::Relaxed);
                return Some(Vec::new());
            }
            Some(d) => Some(d - now),
            None => None,
        };
        let o = SolveOptions {
            timeout,
            cancel: self.cancel.clone(),
            max_solutions: None,
            set_play: false,
            duplex: false,
            half_duplex: false,
            stop_on_short: false,
            progress: None,
            notation: crate::rules::Notation::Native,
            ..self.opts.clone()
        };
        let r = super::solve(p, &stip, &o);
        self.nodes += r.nodes;
        if !r.complete {
            self.stopped.store(true, Ordering::Relaxed);
        }
        Some(r.phases.into_iter().next().map(|ph| ph.lines).unwrap_or_default())
    }

    fn moves(&mut self, pos: &G) -> Vec<G::Move> {
        let mut v = Vec::new();
        pos.moves(&mut v);
        v
    }

    /// Whether a leaf holds at `pos`, reached by `last` (the position before and the move).
    fn leaf(&self, g: Goal, pos: &G, last: Option<(&G, G::Move)>) -> bool {
        if g.by_move() { last.is_some_and(|(before, m)| pos.goal_reached_by(before, m, g)) } else { pos.goal_reached(g) }
    }

    /// Whether an expression holds at `pos`.
    fn holds(&mut self, e: &Expr, pos: &G, last: Option<(&G, G::Move)>) -> bool {
        match e {
            Expr::Leaf(Leaf::Goal(g)) => self.leaf(*g, pos, last),
            Expr::Leaf(Leaf::Other(_)) => false,
            Expr::Not(x) => !self.holds(x, pos, last),
            Expr::And(x, y) => self.holds(x, pos, last) && self.holds(y, pos, last),
            Expr::Or(x, y) => self.holds(x, pos, last) || self.holds(y, pos, last),
            Expr::Branch(b) => {
                // Branches of one or two half-moves are tested again rather than kept.
                if b.max <= 2 {
                    return self.branch_holds(b, pos, last);
                }
                let key = (b.as_ref() as *const Branch as usize, pos.key(), last.map(|l| l.1));
                if let Some(&r) = self.memo.get(&key) {
                    return r;
                }
                let r = self.branch_holds(b, pos, last);
                if !self.stopped.load(Ordering::Relaxed) && self.memo_cap > 0 {
                    if self.memo.len() >= self.memo_cap {
                        self.memo.clear();
                    }
                    self.memo.insert(key, r);
                }
                r
            }
        }
    }

    /// The position a nested branch starts from: `-` changes the side to move (`None` when
    /// that is illegal, the side that moved being in check).
    fn start(b: &Branch, pos: &G) -> Option<G> {
        if !b.flip {
            return Some(pos.clone());
        }
        (!pos.in_check()).then(|| pos.pass())
    }

    fn branch_holds(&mut self, b: &Branch, pos: &G, last: Option<(&G, G::Move)>) -> bool {
        let Some(p) = Self::start(b, pos) else { return false };
        let last = if b.flip { None } else { last };
        match b.kind {
            BranchKind::AttackDefence => self.attack(b, &p, last, 0, b.max),
            BranchKind::DefenceAttack => self.defend(b, &p, last, 0, b.max),
            BranchKind::Help | BranchKind::Series => {
                if let Some(lines) = self.ordinary_lines(b, &p) {
                    return !lines.is_empty();
                }
                let mut found = false;
                self.lines(b, &p, last, 0, 0, &mut Vec::new(), &mut |_| {
                    found = true;
                    true
                });
                found
            }
        }
    }

    /// The forks of `step` after a move: whether one holds, and whether one that holds begins
    /// with `>` (or is a leaf whose goal ends the play) so that play ends there.
    fn forks(&mut self, step: &Step, pos: &G, last: Option<(&G, G::Move)>) -> (bool, bool) {
        let mut any = false;
        let mut end = false;
        for f in &step.forks {
            if self.holds(f, pos, last) {
                any = true;
                end |= ends_play(f);
            }
        }
        (any, end)
    }

    /// Battle play, the attacker to move, `k` half-moves played: whether it forces a fork
    /// within `max` half-moves (at most the branch's length).
    fn attack(&mut self, b: &Branch, pos: &G, last: Option<(&G, G::Move)>, k: u32, max: u32) -> bool {
        let (a_step, d_step) = steps(b);
        // The defender's constraints: after its moves, and at the start (before each attacking
        // move, the first one included).
        if k >= max || self.tick() || !self.all_hold(&d_step.constraints, pos, last) {
            return false;
        }
        // At the last half-move, where a mate is the only fork of a game whose mates give
        // check, only the checking moves can reach it.
        let moves =
            if k + 1 == max && matches!(a_step.forks.as_slice(), [Expr::Leaf(Leaf::Goal(Goal::Mate))]) && pos.needs_check(Goal::Mate) {
                let mut v = Vec::new();
                pos.checking_moves(&mut v);
                v
            } else {
                self.moves(pos)
            };
        for m in moves {
            let after = pos.play(m);
            let (reached, _) = self.forks(a_step, &after, Some((pos, m)));
            if reached && k + 1 >= b.min.unwrap_or(0) {
                return true;
            }
            if k + 1 < max && self.defend(b, &after, Some((pos, m)), k + 1, max) {
                return true;
            }
        }
        false
    }

    /// Battle play, the defender to move, `k` half-moves played: true when it has no
    /// refutation within `max` half-moves.
    fn defend(&mut self, b: &Branch, pos: &G, last: Option<(&G, G::Move)>, k: u32, max: u32) -> bool {
        let (a_step, d_step) = steps(b);
        // The attacker's constraints: after its moves, and at the start of a `da` branch.
        if k >= max || self.tick() || !self.all_hold(&a_step.constraints, pos, last) {
            return false;
        }
        let moves = self.moves(pos);
        if moves.is_empty() {
            return false;
        }
        for m in moves {
            let after = pos.play(m);
            let (reached, _) = self.forks(d_step, &after, Some((pos, m)));
            let ok = (reached && k + 1 >= b.min.unwrap_or(0)) || (k + 1 < max && self.attack(b, &after, Some((pos, m)), k + 1, max));
            if !ok {
                return false;
            }
        }
        true
    }

    /// Help or series play: calls `found` with every line (the moves played so far, then the
    /// moves of the nested branches that are shown) until it returns true. `offset` is 1 when
    /// the second letter begins (set play).
    #[allow(clippy::too_many_arguments)]
    fn lines(
        &mut self,
        b: &Branch,
        pos: &G,
        last: Option<(&G, G::Move)>,
        k: u32,
        offset: u32,
        line: &mut Line,
        found: &mut dyn FnMut(&Line) -> bool,
    ) -> bool {
        // A constraint on the second letter holds at the start too (as before each attacking
        // move in battle play).
        if k >= b.max || self.tick() || (k == 0 && offset == 0 && !self.all_hold(&b.second.constraints, pos, last)) {
            return false;
        }
        // Below the start, what follows depends on the position alone.
        let dead_key = pos.key()
            ^ (b as *const Branch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (u64::from(k) + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ (u64::from((k + offset) % 2) + 1).wrapping_mul(0x94D0_49BB_1331_11EB);
        if k > 0 && self.dead.get(dead_key).is_some() {
            return false;
        }
        let found_before = self.found;
        let r = self.lines_from(b, pos, k, offset, line, found);
        if k > 0 && !r && self.found == found_before && !self.stopped.load(Ordering::Relaxed) {
            self.dead.put(dead_key, 1, (b.max - k).min(255) as u8);
        }
        r
    }

    /// [`Search::lines`] after its tests.
    #[allow(clippy::too_many_arguments)]
    fn lines_from(&mut self, b: &Branch, pos: &G, k: u32, offset: u32, line: &mut Line, found: &mut dyn FnMut(&Line) -> bool) -> bool {
        let series = b.kind == BranchKind::Series;
        let step = if series || (k + offset).is_multiple_of(2) { &b.first } else { &b.second };
        for m in self.moves(pos) {
            let after = pos.play(m);
            let reached_at = Some((pos, m));
            // The constraints of the letter hold after each of its moves.
            if !self.all_hold(&step.constraints, &after, reached_at) {
                continue;
            }
            line.push(LineMove::new(pos.move_text_in(m, Lang::En, crate::rules::Notation::Native), after.mark().to_string()));
            let mut end = false;
            if k + 1 >= b.min.unwrap_or(0) {
                for f in &step.forks {
                    let shown = self.shown_lines(f, &after, reached_at);
                    if !shown.is_empty() {
                        end |= ends_play(f);
                        // After a help move, the play of a nested help branch that begins
                        // with `-` is numbered on its own (Popeye's `sford.inp` #35, #36:
                        // `1.Df3-f8   1.Tg2-g7 Ld7-a4   2.…`): the moves before it are intro
                        // moves.
                        let restart = !series && matches!(f, Expr::Branch(nb) if nb.flip && nb.kind == BranchKind::Help && !nb.hidden);
                        for (mark, tail) in shown {
                            let mut full = line.clone();
                            if restart {
                                for m in &mut full {
                                    m.intro = true;
                                }
                            }
                            if let (Some(mark), Some(last_move)) = (mark, full.last_mut()) {
                                last_move.mark = mark;
                            }
                            // After a series, the moves of the nested play are not numbered.
                            // (A nested branch that begins with `-` goes on with the series
                            // side's own moves, numbered: `sford.inp` #41, `9.c2-c4
                            // 10.Ka6*b6 x`.)
                            let same_side = matches!(f, Expr::Branch(nb) if nb.flip);
                            full.extend(tail.into_iter().map(|m| if series && !same_side { m.as_parry() } else { m }));
                            self.found += 1;
                            if found(&full) {
                                line.pop();
                                return true;
                            }
                        }
                    }
                }
            } else {
                // Below the minimum a fork that ends the play ends it without a solution.
                let (_, e) = self.forks(step, &after, reached_at);
                end = e;
            }
            if !end && k + 1 < b.max {
                // A series move may not leave the opponent in check (it would move next).
                let next = if series { if after.in_check() { None } else { Some(after.pass()) } } else { Some(after.clone()) };
                if let Some(next) = next
                    && self.lines(b, &next, reached_at, k + 1, offset, line, found)
                {
                    line.pop();
                    return true;
                }
            }
            line.pop();
        }
        false
    }

    /// The moves of a one-move branch `b` from `p` after which a fork of its first letter
    /// holds, each with that fork's shown lines after it.
    fn one_move_lines(&mut self, b: &Branch, p: &G) -> Vec<(Option<String>, Line)> {
        let mut out = Vec::new();
        for m in self.moves(p) {
            let after = p.play(m);
            for x in &b.first.forks {
                for (mark, tail) in self.shown_lines(x, &after, Some((p, m))) {
                    let mv = LineMove::new(
                        p.move_text_in(m, Lang::En, crate::rules::Notation::Native),
                        mark.unwrap_or_else(|| after.mark().to_string()),
                    );
                    out.push((None, std::iter::once(mv).chain(tail).collect()));
                }
            }
        }
        out
    }

    /// The lines a fork adds to a line when it holds: one empty line for a leaf, a test or a
    /// hidden branch; the lines of a nested help or series branch, or the moves of a one-move
    /// attack, when shown. Empty when the fork does not hold.
    fn shown_lines(&mut self, f: &Expr, pos: &G, last: Option<(&G, G::Move)>) -> Vec<(Option<String>, Line)> {
        if let Expr::Branch(b) = f
            && !b.hidden
        {
            let Some(p) = Self::start(b, pos) else { return Vec::new() };
            let last = if b.flip { None } else { last };
            match b.kind {
                BranchKind::Help | BranchKind::Series => {
                    if let Some(lines) = self.ordinary_lines(b, &p) {
                        return lines.into_iter().map(|l| (None, l)).collect();
                    }
                    let mut out = Vec::new();
                    self.lines(b, &p, last, 0, 0, &mut Vec::new(), &mut |l| {
                        out.push((None, l.clone()));
                        false
                    });
                    return out;
                }
                BranchKind::AttackDefence if b.max == 1 => {
                    if !self.all_hold(&b.second.constraints, &p, last) {
                        return Vec::new();
                    }
                    return self.one_move_lines(b, &p);
                }
                BranchKind::DefenceAttack if b.max == 1 => {
                    // A one-move defence branch holds when every defence reaches a fork (and
                    // the defender has a move or none); the defences are shown, as Popeye
                    // writes them (`sford.inp` #41, `9s [- 1d[x]a]`: `10.Ka6*b6 x`).
                    if !self.holds(f, pos, last) {
                        return Vec::new();
                    }
                    let mut out = self.one_move_lines(b, &p);
                    if out.is_empty() {
                        out.push((None, Vec::new()));
                    }
                    return out;
                }
                _ => {}
            }
        }
        if !self.holds(f, pos, last) {
            return Vec::new();
        }
        // One line for each leaf that holds, with its mark (`4hh[x&=]`: `Kb5*b6 x` and
        // `Kb5*b6 =`, as Popeye writes them).
        let mut leaves = Vec::new();
        self.leaves_that_hold(f, pos, last, &mut leaves);
        if leaves.is_empty() {
            return vec![(None, Vec::new())];
        }
        leaves.into_iter().map(|g| (Some(leaf_mark(g, pos)), Vec::new())).collect()
    }

    /// The goals of the leaves of `f` (not under a negation) that hold.
    fn leaves_that_hold(&mut self, f: &Expr, pos: &G, last: Option<(&G, G::Move)>, out: &mut Vec<Goal>) {
        match f {
            Expr::Leaf(Leaf::Goal(g)) if self.leaf(*g, pos, last) => out.push(*g),
            Expr::And(x, y) | Expr::Or(x, y) => {
                self.leaves_that_hold(x, pos, last, out);
                self.leaves_that_hold(y, pos, last, out);
            }
            _ => {}
        }
    }

    fn all_hold(&mut self, es: &[Expr], pos: &G, last: Option<(&G, G::Move)>) -> bool {
        for e in es {
            if !self.holds(e, pos, last) {
                return false;
            }
        }
        true
    }
}

/// Battle play at the root (`3a[#]d`, `4a[#=]d[#=]`, `2ad[1a[+]d{+}]`) as a tree, in the
/// layout of the direct solver ([`super::battle`]): keys, tries with their refutations, and
/// after each attacker's move its threat (the attacker's shortest continuations after a pass)
/// or zugzwang and the defences that do not merely allow the threat, each with the
/// attacker's shortest continuations. A defender's move that reaches a fork of its letter
/// ends the play and is shown where the play ends (Popeye leaves out such short lines, as in
/// self play, but with `MatesIn1`).
impl<G: Game> Search<G> {
    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Whether the attacker's move `m` from `pos` (`k` half-moves played) forces a fork
    /// within `max` half-moves, and whether it reaches one at once.
    fn wins(&mut self, b: &Branch, pos: &G, m: G::Move, k: u32, max: u32) -> (bool, bool) {
        let (a_step, _) = steps(b);
        let after = pos.play(m);
        let reached = self.forks(a_step, &after, Some((pos, m))).0 && k + 1 >= b.min.unwrap_or(0);
        (reached || (k + 1 < max && self.defend(b, &after, Some((pos, m)), k + 1, max)), reached)
    }

    /// The node of move `m` from `pos`: when it reaches a fork of `step`, the mark of the
    /// leaf it reaches and, as its replies, the moves of a nested branch that is shown
    /// (`2ad[1a[+]d{+}]`: `1...Kh7-g6 +` then `2.Th2-h6 +`).
    fn move_node(&mut self, step: &Step, pos: &G, m: G::Move, role: Role, reached: bool, notation: crate::rules::Notation) -> Node {
        let after = pos.play(m);
        let mut node = Node::new(pos.move_text_in(m, Lang::En, notation), after.mark().to_string(), role);
        if !reached {
            return node;
        }
        let next = if role == Role::Defence { Role::Attack } else { Role::Defence };
        for f in &step.forks {
            let shown = self.shown_lines(f, &after, Some((pos, m)));
            if shown.is_empty() {
                continue;
            }
            for (mark, tail) in shown {
                if let Some(mark) = mark {
                    node.mark = mark;
                }
                node.replies.extend(chain(tail, next));
            }
            break;
        }
        node
    }

    /// The attacker's shortest continuations from `pos` (`k` half-moves played), within
    /// `lim` half-moves: the length at which they force a fork (0 for none) and their nodes.
    #[allow(clippy::too_many_arguments)]
    fn att_nodes(&mut self, b: &Branch, pos: &G, last: Option<(&G, G::Move)>, k: u32, lim: u32, opts: &SolveOptions) -> (u32, Vec<Node>) {
        let (a_step, _) = steps(b);
        let mut found = 0;
        for max in k + 1..=lim {
            if self.attack(b, pos, last, k, max) {
                found = max;
                break;
            }
        }
        if found == 0 {
            return (0, Vec::new());
        }
        let mut nodes = Vec::new();
        for m in self.moves(pos) {
            if self.is_stopped() {
                break;
            }
            let (wins, reached) = self.wins(b, pos, m, k, found);
            if !wins {
                continue;
            }
            let mut node = self.move_node(a_step, pos, m, Role::Attack, reached, opts.notation);
            if !reached {
                self.fill(&mut node, b, &pos.play(m), k + 1, found, opts);
            }
            nodes.push(node);
        }
        if nodes.len() > 1 {
            for n in &mut nodes {
                n.dual = true;
            }
        }
        (found, nodes)
    }

    /// Fills the threat (or zugzwang) and the defences shown after an attacker's move that
    /// forces a fork within `lim` half-moves, `q` the position after it (`k` half-moves
    /// played).
    fn fill(&mut self, node: &mut Node, b: &Branch, q: &G, k: u32, lim: u32, opts: &SolveOptions) {
        let (_, d_step) = steps(b);
        if k >= lim || self.is_stopped() {
            return;
        }
        let mut threat = (0, Vec::new());
        if !opts.no_threat && !q.in_check() && k + 1 < lim {
            let (len, nodes) = self.att_nodes(b, &q.pass(), None, k + 1, lim, opts);
            threat = (len, nodes.iter().map(|n| n.mv.clone()).collect::<Vec<_>>());
            node.threat = nodes;
            node.zugzwang = len == 0;
        }
        for d in self.moves(q) {
            if self.is_stopped() {
                break;
            }
            let r = q.play(d);
            if self.forks(d_step, &r, Some((q, d))).0 && k + 1 >= b.min.unwrap_or(0) {
                if k + 1 >= lim || opts.mates_in_1 {
                    let dn = self.move_node(d_step, q, d, Role::Defence, true, opts.notation);
                    node.replies.push(dn);
                }
                continue;
            }
            if k + 1 >= lim {
                continue; // a refutation
            }
            let (len, cont) = self.att_nodes(b, &r, Some((q, d)), k + 1, lim, opts);
            if len == 0 || (threat.0 > 0 && (len < threat.0 || (len == threat.0 && self.threat_works(b, &r, k + 1, &threat)))) {
                continue; // a refutation, or no defence against the threat
            }
            let mut dn = Node::new(q.move_text_in(d, Lang::En, opts.notation), r.mark().to_string(), Role::Defence);
            dn.replies = cont;
            node.replies.push(dn);
        }
    }

    /// Whether each first move of the threat (`threat.1`, forcing a fork within `threat.0`)
    /// still does so from `r` (`k` half-moves played).
    fn threat_works(&mut self, b: &Branch, r: &G, k: u32, threat: &(u32, Vec<String>)) -> bool {
        let moves = self.moves(r);
        for t in &threat.1 {
            let found = moves.iter().find(|&&m| super::battle::same_move(&r.move_text_in(m, Lang::En, crate::rules::Notation::Native), t));
            match found {
                Some(&m) if self.wins(b, r, m, k, threat.0).0 => {}
                _ => return false,
            }
        }
        !threat.1.is_empty()
    }

    /// The defences from `q` (after the attacker's move `k`) after which the attacker forces
    /// no fork within the branch.
    fn refutations(&mut self, b: &Branch, q: &G, k: u32, opts: &SolveOptions) -> Vec<Node> {
        let (a_step, d_step) = steps(b);
        let mut out = Vec::new();
        if !self.all_hold(&a_step.constraints, q, None) {
            return out;
        }
        for d in self.moves(q) {
            let r = q.play(d);
            let ok = (self.forks(d_step, &r, Some((q, d))).0 && k + 1 >= b.min.unwrap_or(0))
                || (k + 1 < b.max && self.attack(b, &r, Some((q, d)), k + 1, b.max));
            if !ok {
                out.push(Node::new(q.move_text_in(d, Lang::En, opts.notation), r.mark().to_string(), Role::Refutation));
            }
        }
        out
    }

    /// Keys and tries of a battle branch at the root, the attacker to move in `p`.
    fn battle_root(&mut self, b: &Branch, p: &G, opts: &SolveOptions, ph: &mut Phase) {
        let (a_step, d_step) = steps(b);
        if !self.all_hold(&d_step.constraints, p, None) {
            return;
        }
        for m in self.moves(p) {
            if self.is_stopped() {
                break;
            }
            let (wins, reached) = self.wins(b, p, m, 0, b.max);
            let after = p.play(m);
            if wins {
                let mut node = self.move_node(a_step, p, m, Role::Key, reached, opts.notation);
                if !reached && opts.tree {
                    self.fill(&mut node, b, &after, 1, b.max, opts);
                }
                ph.keys.push(node);
            } else if opts.tries && b.max > 1 && !(opts.trivial_tries_avoid && after.in_check()) {
                let refs = self.refutations(b, &after, 1, opts);
                if !refs.is_empty() && refs.len() <= opts.defence.max(1) as usize && !self.is_stopped() {
                    let mut node = Node::new(p.move_text_in(m, Lang::En, opts.notation), after.mark().to_string(), Role::Try);
                    if opts.tree {
                        self.fill(&mut node, b, &after, 1, b.max, opts);
                    }
                    node.refutations = refs;
                    ph.tries.push(node);
                }
            }
        }
    }
}

/// The moves of a line as a chain of nodes, the first of `role`, the roles alternating.
fn chain(line: Line, role: Role) -> Option<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut r = role;
    for m in line {
        nodes.push(Node::new(m.mv, m.mark, r));
        r = if r == Role::Defence { Role::Attack } else { Role::Defence };
    }
    let mut tail: Option<Node> = None;
    while let Some(mut n) = nodes.pop() {
        n.replies.extend(tail.take());
        tail = Some(n);
    }
    tail
}

/// The attacker's and the defender's steps of a battle branch.
fn steps(b: &Branch) -> (&Step, &Step) {
    if b.kind == BranchKind::DefenceAttack { (&b.second, &b.first) } else { (&b.first, &b.second) }
}

/// Whether a fork that holds ends the play of its branch: a branch beginning with `>`, or a
/// leaf whose goal ends help play ([`Goal::ends_help_play`]).
fn ends_play(f: &Expr) -> bool {
    match f {
        Expr::Branch(b) => b.ends_play,
        Expr::Leaf(Leaf::Goal(g)) => g.ends_help_play(),
        _ => false,
    }
}

/// The mark after the move that reaches a leaf's goal, `pos` the position after it: the
/// position's own (`#`, `=`, `+`) for the goals of the position, the check and the goal's
/// mark for the goals of the move (`x`, `+ x`).
fn leaf_mark<G: Game>(g: Goal, pos: &G) -> String {
    if g.by_move() { end_mark(if pos.in_check() { "+" } else { "" }, g) } else { pos.mark().to_string() }
}

/// The mark of a move that reaches a goal of the move: its own check mark, then the goal's.
fn end_mark(own: &str, g: Goal) -> String {
    let goal = g.end_mark();
    let own = if matches!(own, "#" | "=" | "==") { "" } else { own };
    match (own.is_empty(), goal.is_empty()) {
        (_, true) => own.to_string(),
        (true, false) => goal.to_string(),
        (false, false) if g == Goal::MateOrStalemate => goal.to_string(),
        _ => format!("{own} {goal}"),
    }
}

/// Solves a structured stipulation from `pos` (whose side to move makes the first move).
/// [`stand_in`] must have accepted it. `&` at the root gives one phase for each operand, in
/// order, labelled with it: an operand that is a synonym of an ordinary stipulation is solved
/// as that one ([`super::solve`]), the others here.
pub fn solve<G: Game>(pos: &G, s: &SStipulation, opts: &SolveOptions) -> Solved {
    // Where nested ordinary play has a solve of its own, the memos keep a quarter of the
    // budget each and that solve the other half.
    let (memo_bytes, opts_nested) = if has_ordinary(&s.expr, true) {
        (opts.table_bytes() / 4, SolveOptions { hash_share: opts.hash_share.max(1) * 2, ..opts.clone() })
    } else {
        (opts.table_bytes() / 2, opts.clone())
    };
    let mut search: Search<G> = Search {
        deadline: opts.timeout.map(|t| Instant::now() + t),
        cancel: opts.cancel.clone(),
        stopped: AtomicBool::new(false),
        nodes: 0,
        memo: HashMap::new(),
        dead: super::tt::Table::with_bytes(memo_bytes),
        found: 0,
        memo_cap: map_entries::<((usize, u64, Option<G::Move>), bool)>(memo_bytes),
        opts: opts_nested,
    };
    let mut phases = Vec::new();
    let mut complete = true;
    match &s.expr {
        Expr::Branch(b) => phases.push(search.root(b, pos, opts)),
        e => {
            for part in and_operands(e) {
                let sub = SStipulation { side: s.side, expr: part.clone() };
                // The operand's first mover moves first (`3a[#]d & - 4hh[#]`).
                let p = if sub.first_mover() == pos.to_move() {
                    pos.clone()
                } else if pos.in_check() {
                    phases.push(Phase { label: Some(part.to_string()), ..Phase::default() });
                    continue;
                } else {
                    pos.pass()
                };
                let mut ph = match (sub.translate(), part) {
                    (Some(t), _) => {
                        let o = SolveOptions { post_key: t.post_key_play, duplex: false, half_duplex: false, ..opts.clone() };
                        let r = super::solve(&p, &t.stipulation, &o);
                        search.nodes += r.nodes;
                        complete &= r.complete;
                        r.phases.into_iter().next().unwrap_or_default()
                    }
                    (None, Expr::Branch(b)) => search.root(b, &p, opts),
                    (None, _) => Phase::default(),
                };
                ph.label = Some(part.to_string());
                phases.push(ph);
            }
        }
    }
    let stopped = search.stopped.load(Ordering::Relaxed);
    Solved { phases, complete: complete && !stopped, nodes: search.nodes }
}

/// Whether `e` has a nested branch that [`Search::ordinary_lines`] solves on its own (`root`:
/// `e` is the stipulation itself, whose root branches are played here).
fn has_ordinary(e: &Expr, root: bool) -> bool {
    match e {
        Expr::Leaf(_) => false,
        Expr::Not(x) => has_ordinary(x, false),
        Expr::And(x, y) | Expr::Or(x, y) => has_ordinary(x, root) || has_ordinary(y, root),
        Expr::Branch(b) => {
            (!root && b.max >= ORDINARY_PLIES && b.nested_ordinary().is_some())
                || b.first
                    .forks
                    .iter()
                    .chain(&b.first.constraints)
                    .chain(&b.second.forks)
                    .chain(&b.second.constraints)
                    .any(|x| has_ordinary(x, false))
        }
    }
}

/// The operands of `&` at the root, left to right (`a & b & c`).
pub fn and_operands(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(x, y) => {
            let mut v = and_operands(x);
            v.extend(and_operands(y));
            v
        }
        _ => vec![e],
    }
}

impl<G: Game> Search<G> {
    /// The phase of a branch at the root, its first mover to move in `p`.
    fn root(&mut self, b: &Branch, p: &G, opts: &SolveOptions) -> Phase {
        let mut ph = Phase::default();
        match b.kind {
            BranchKind::Help if plain_help(b).is_some() => {
                let (goal, lengths) = plain_help(b).unwrap_or((Goal::Mate, Vec::new()));
                let (lines, nodes, complete) = help_lengths(p, goal, &lengths, opts);
                ph.lines = lines;
                self.nodes += nodes;
                if !complete {
                    self.stopped.store(true, Ordering::Relaxed);
                }
            }
            BranchKind::Help | BranchKind::Series => {
                ph.lines = collect(self, b, p, 0, opts);
                if opts.set_play && b.kind == BranchKind::Help && b.max > 1 && !p.in_check() {
                    let shorter = Branch { max: b.max - 1, min: b.min.map(|m| m.saturating_sub(1)), ..b.clone() };
                    ph.set_lines = collect(self, &shorter, &p.pass(), 1, opts);
                }
            }
            BranchKind::AttackDefence if b.max == 1 => {
                if self.all_hold(&b.second.constraints, p, None) {
                    for m in self.moves(p) {
                        let after = p.play(m);
                        let (reached, _) = self.forks(&b.first, &after, Some((p, m)));
                        if reached {
                            let mark = after.mark().to_string();
                            ph.keys.push(Node::new(p.move_text_in(m, Lang::En, opts.notation), mark, Role::Key));
                        }
                    }
                }
            }
            BranchKind::AttackDefence => self.battle_root(b, p, opts, &mut ph),
            BranchKind::DefenceAttack => {}
        }
        ph
    }
}

/// A help branch whose only fork is one leaf on the letter that ends it, without constraints
/// (`10:12hh[#]`): its goal and the lengths to search, longest first.
fn plain_help(b: &Branch) -> Option<(Goal, Vec<u32>)> {
    let (last, other) = if b.max.is_multiple_of(2) { (&b.second, &b.first) } else { (&b.first, &b.second) };
    let no_more = |st: &Step| st.constraints.is_empty() && st.condition.is_none();
    if !other.forks.is_empty() || !no_more(last) || !no_more(other) || b.max == 0 {
        return None;
    }
    let [Expr::Leaf(Leaf::Goal(g))] = last.forks.as_slice() else { return None };
    let low = b.min.unwrap_or(1).max(1);
    Some((*g, (low..=b.max).rev().filter(|l| (b.max - l).is_multiple_of(2)).collect()))
}

/// Every help line of each length, shortest first, by the help solver ([`super::help`]: its
/// exact search of each length, with its bounds and table), with the positions searched and
/// whether the search ended.
fn help_lengths<G: Game>(pos: &G, goal: Goal, lengths: &[u32], opts: &SolveOptions) -> (Vec<Line>, u64, bool) {
    let ctx = super::Ctx {
        tt: super::tt::Table::with_bytes(opts.table_bytes()),
        stop: opts.cancel.clone().unwrap_or_default(),
        deadline: opts.timeout.map(|t| Instant::now() + t),
        nodes: std::sync::atomic::AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        goal,
        notation: opts.notation,
        checks_only: pos.needs_check(goal),
        exact: true,
        // Battle play's options do not reach these searches.
        quodlibet: false,
        non_trivial: None,
        threat: None,
        max_flights: None,
        goal_is_end: false,
    };
    let mut lines = Vec::new();
    for &plies in lengths.iter().rev() {
        let stip = Stipulation { exact: true, ..Stipulation::new(false, Play::Help, goal, plies / 2, plies % 2 == 1) };
        lines.extend(super::help::help(&ctx, pos, &stip, plies, opts, None));
    }
    (lines, ctx.nodes.load(Ordering::Relaxed), !ctx.is_stopped())
}

fn collect<G: Game>(search: &mut Search<G>, b: &Branch, p: &G, offset: u32, opts: &SolveOptions) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let max = opts.max_solutions;
    search.lines(b, p, None, 0, offset, &mut Vec::new(), &mut |l| {
        lines.push(l.clone());
        max.is_some_and(|m| lines.len() >= m)
    });
    lines.sort_by_key(|l| l.len());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a hash map has allocated, from its capacity (buckets 7/8 full at most, one
    /// control byte each, and a group of control bytes).
    fn allocated<T>(capacity: usize) -> usize {
        if capacity == 0 {
            return 0;
        }
        let buckets = if capacity < 8 { capacity + 1 } else { (capacity * 8).div_ceil(7).next_power_of_two() };
        buckets * (std::mem::size_of::<T>() + 1) + 16
    }

    /// A memo filled to its most entries stays within its share of the budget, whatever the
    /// budget (the growth of a real hash map measured, not assumed).
    #[test]
    fn memos_stay_within_the_budget() {
        // The memo's entry: the test's address, the position's key, a move, the result.
        type Memo = ((usize, u64, Option<u32>), bool);
        for bytes in [0usize, 100, 1000, 4096, 65_536, 100_000, 1 << 20, 3 << 20] {
            let n = map_entries::<Memo>(bytes);
            let mut map: HashMap<(usize, u64, Option<u32>), bool> = HashMap::new();
            for i in 0..n {
                map.insert((i, i as u64, Some(0)), true);
            }
            assert!(allocated::<Memo>(map.capacity()) <= bytes, "{bytes} bytes: {n} entries took {}", allocated::<Memo>(map.capacity()));
        }
        assert_eq!(map_entries::<Memo>(0), 0);
        assert_eq!(map_entries::<Memo>(usize::MAX), MEMO_ENTRIES);
        let default = SolveOptions { hash_mb: 1, hash_share: 4, ..SolveOptions::default() };
        assert_eq!(default.table_bytes(), 1 << 18);
    }
}
