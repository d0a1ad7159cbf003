//! The search: every solution of a stipulation, generic over [`Game`].
//!
//! - [`battle`]: direct (`#n`), self (`s#n`) and reflex (`r#n`) play: keys, threats,
//!   variations, tries, set play.
//! - [`help`]: help play (`h#n`, `h#n.5`, `hs#n`): every line, short ones included.
//! - [`series`]: series play (`ser-#n`, `ser-h#n`, `ser-s#n`, `ser-r#n`): every line, short
//!   ones included.
//! - [`parry`]: parry series play (`pser-#n`, `pser-h#n`, `phser-s#n`, …): series moves may
//!   give check, the opponent parries.
//! - [`proof`]: proof games (`dia n`, `a=>b n`, `ser-dia n`, …) in orthodox chess.
//! - [`tt`]: the shared transposition table; [`tree`]: the result types; `parallel`: the
//!   rayon drivers.
//!
//! The work is split over the first moves (and the second where the first level is narrow)
//! with rayon; the results are gathered in move order, so the report is the same for every
//! thread count and hash size.
//!
//! ```
//! use feerie::position::Position;
//! use feerie::problem::stipulation::{Play, Stipulation};
//! use feerie::rules::Goal;
//! use feerie::solve::{solve, SolveOptions};
//! // Mate in 1: Ra1-a8#.
//! let p = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
//! let stip = Stipulation::new(false, Play::Direct, Goal::Mate, 1, false);
//! let r = solve(&p, &stip, &SolveOptions::default());
//! assert_eq!(r.phases[0].keys.len(), 1);
//! assert_eq!(r.phases[0].keys[0].mv, "Ra1-a8");
//! ```

pub mod battle;
pub mod gate;
pub mod help;
pub(crate) mod parallel;
pub mod parry;
pub mod proof;
pub mod series;
pub mod structured;
pub mod tree;
pub mod tt;

use crate::piece::Lang;
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Goal, Notation};
use serde::Serialize;

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use tree::{Line, LineMove, Node, Role};
use tt::Table;

/// How a solve runs and what it shows.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Show set play (the defender's moves in the diagram, or help play one half-move
    /// shorter from the other side).
    pub set_play: bool,
    /// Look for tries (first moves refuted by at most `defence` defences).
    pub tries: bool,
    /// Most refutations a try may have.
    pub defence: u32,
    /// Only keys whose threat is at most this many moves.
    pub threat: Option<u32>,
    /// Do not compute threats.
    pub no_threat: bool,
    /// Solve again with the colours swapped.
    pub duplex: bool,
    /// Solve only with the colours swapped.
    pub half_duplex: bool,
    /// `MaxSolutions`: stop after this many solutions (help lines, series lines, keys).
    /// Help and battle play stop their search there (the first ones in the order of the
    /// one-thread search, whatever the threads); series play searches in full and keeps the
    /// shortest. [`Phase::limited`] says when more may exist.
    pub max_solutions: Option<usize>,
    /// Popeye's `StopOnShortSolutions` (help and series play): when a phase has short
    /// solutions, report only those of the shortest length and solve nothing after them (no
    /// longer line, no duplex phase). See [`help`] for what is short.
    pub stop_on_short: bool,
    /// Transposition-table budget in megabytes (0 = no table).
    pub hash_mb: usize,
    /// How many searches share that budget at once (`check` solving problems side by side):
    /// each table gets `hash_mb / hash_share` megabytes, to the byte, so that the budget holds
    /// for the batch as a whole. 1 (or 0) for a lone search.
    pub hash_share: usize,
    /// Threads (0 = all cores).
    pub threads: usize,
    /// Give up after this long.
    pub timeout: Option<Duration>,
    /// Set from outside (Ctrl-C) to stop the search; what was found is kept.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Progress reports (first-level moves done of total).
    pub progress: Option<Arc<dyn Progress>>,
    /// Build the full tree of variations for battle play (threats, defences and the play
    /// after them); without it the keys and tries come bare, with their refutations. The
    /// verdict never needs it. See [`crate::verify::options_for`] for the problems that
    /// build it all the same.
    pub tree: bool,
    /// Battle play from the position after the key (defender to move): `PostKeyPlay`.
    pub post_key: bool,
    /// How the moves of the result are written (a game without that notation writes its own).
    pub notation: Notation,
    /// `NullMoves`: in help play a side not in check may pass (not at the last half-move,
    /// nor twice in a row); the pass is written [`tree::NULL_MOVE`].
    pub null_moves: bool,
    /// `Quodlibet`: in self and reflex play (`s#n`, `r#n`, `semi-r#n`) the attacker may also
    /// reach the goal itself, within its n moves, as in direct play (see [`battle`]).
    pub quodlibet: bool,
    /// `MatesIn1`: in self play, show the defences that reach the goal at once where the
    /// play would go on (after the key of `s#n`, n > 1, and in its set play), which Popeye
    /// leaves out otherwise as short lines.
    pub mates_in_1: bool,
    /// `TrivialTriesAvoid`: leave out the tries that give check.
    pub trivial_tries_avoid: bool,
    /// `NonTrivial m n` in battle play: (m, n). See [`battle`].
    pub non_trivial: Option<(u32, u32)>,
    /// `MaxFlightsquares n` in direct play: after an attacker's move that does not end the
    /// play nor give check, a defender's king with n flight squares or more has defended.
    pub max_flights: Option<u32>,
    /// Popeye's `GoalIsEnd`, for the goals of the move: play ends where the side that is not
    /// to reach the goal reaches it (a defender's such move refutes; an attacker's, or a help
    /// or series move of that side, leads nowhere).
    pub goal_is_end: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            set_play: false,
            tries: false,
            defence: 1,
            threat: None,
            no_threat: false,
            duplex: false,
            half_duplex: false,
            max_solutions: None,
            stop_on_short: false,
            hash_mb: 64,
            hash_share: 1,
            threads: 0,
            timeout: None,
            cancel: None,
            progress: None,
            tree: true,
            post_key: false,
            notation: Notation::Native,
            null_moves: false,
            quodlibet: false,
            mates_in_1: false,
            trivial_tries_avoid: false,
            non_trivial: None,
            max_flights: None,
            goal_is_end: false,
        }
    }
}

impl SolveOptions {
    /// The bytes one search may give its tables: `hash_mb` megabytes shared out among the
    /// `hash_share` searches running at once, to the byte. Every table of a search (the
    /// transposition table, and the memos of proof games and structured stipulations) is cut
    /// from it, so that a `check` run as a whole stays within `--hash`.
    pub fn table_bytes(&self) -> usize {
        self.hash_mb.saturating_mul(1 << 20) / self.hash_share.max(1)
    }
}

/// Receives progress from a running solve.
pub trait Progress: Send + Sync + std::fmt::Debug {
    /// `done` of `total` first-level moves searched at the current `depth`.
    fn update(&self, done: usize, total: usize, depth: u32);
}

/// The result of one phase (the problem as set, or its duplex).
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize, PartialEq, Eq)]
pub struct Phase {
    /// `None` for the problem as set, `Some("duplex")` for the colours swapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Set play.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_play: Vec<Node>,
    /// Set play of help and series problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_lines: Vec<Line>,
    /// Indexes into `set_lines` of the short ones (shorter than the set play's length).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub set_short: Vec<usize>,
    /// Keys with their trees (battle play).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<Node>,
    /// Tries with their refutations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tries: Vec<Node>,
    /// Lines (help and series play), the short ones first, shortest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// Indexes into `lines` of the short solutions: help lines with fewer moves than
    /// stipulated, series with fewer series moves (see [`help`] and [`series`]).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub short: Vec<usize>,
    /// Why this phase was not solved (e.g. the duplex position is illegal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `MaxSolutions` ended the search: it found that many solutions (keys in battle play),
    /// and more may exist.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub limited: bool,
}

/// The result of a solve.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Solved {
    /// One phase, two with `Duplex`.
    pub phases: Vec<Phase>,
    /// False when the search stopped early (timeout or cancel): what was found is kept.
    pub complete: bool,
    /// Positions visited.
    #[serde(skip)]
    pub nodes: u64,
}

/// Shared state of one solve.
pub(crate) struct Ctx {
    pub(crate) tt: Table,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) nodes: AtomicU64,
    pub(crate) stopped: AtomicBool,
    pub(crate) goal: Goal,
    /// How moves are written in the result.
    pub(crate) notation: Notation,
    /// Whether only checking moves can reach the goal in this game ([`Game::needs_check`]).
    pub(crate) checks_only: bool,
    /// `exact-`: play of the full length only.
    pub(crate) exact: bool,
    /// `Quodlibet` ([`SolveOptions::quodlibet`]).
    pub(crate) quodlibet: bool,
    /// `NonTrivial m n` ([`SolveOptions::non_trivial`]).
    pub(crate) non_trivial: Option<(u32, u32)>,
    /// `Threat n` in direct play ([`SolveOptions::threat`]).
    pub(crate) threat: Option<u32>,
    /// `MaxFlightsquares n` in direct play ([`SolveOptions::max_flights`]).
    pub(crate) max_flights: Option<u32>,
    /// `GoalIsEnd` ([`SolveOptions::goal_is_end`]), for a goal of the move.
    pub(crate) goal_is_end: bool,
}

thread_local! {
    static LOCAL_NODES: Cell<u64> = const { Cell::new(0) };
}

/// The nodes this thread has counted so far ([`Ctx::tick`]): the difference over a search
/// is what it cost.
#[inline]
pub(crate) fn local_nodes() -> u64 {
    LOCAL_NODES.with(|c| c.get())
}

/// A table entry's worth ([`tt::Table::put`]) from what proving it cost: the bit length of
/// its node count, so that the proofs of big subtrees outlive those of small ones whatever
/// their depth.
#[inline]
pub(crate) fn effort_worth(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

impl Ctx {
    /// Counts a node; true when the search must stop.
    #[inline]
    pub(crate) fn tick(&self) -> bool {
        let n = LOCAL_NODES.with(|c| {
            let v = c.get() + 1;
            c.set(v);
            v
        });
        if n & 1023 == 0 {
            self.nodes.fetch_add(1024, Ordering::Relaxed);
            if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped.store(true, Ordering::Relaxed);
            }
        }
        self.stopped.load(Ordering::Relaxed)
    }
    #[inline]
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

/// The mark written after a move, as the game says ([`Game::mark`]).
pub fn mark<G: Game>(after: &G) -> String {
    after.mark().to_string()
}

/// The mark of a move that does not end the play, `after` being the position it leads to:
/// the game's ([`Game::mark`]) for the goals of the position; for the goals of the move,
/// `+` for a check and nothing else, as Popeye writes them (a move that mates or stalemates
/// is not marked `#` or `=` where that is not the goal).
pub(crate) fn move_mark<G: Game>(ctx: &Ctx, after: &G) -> String {
    if !ctx.goal.by_move() {
        mark(after)
    } else if after.in_check() {
        "+".to_string()
    } else {
        String::new()
    }
}

/// The mark of move `m` from `before` (to `after`) when it ends the play: [`move_mark`], then
/// the goal's own ([`Goal::end_mark`]: `x`, `%`, `!=`, `z`) when the move reaches the goal,
/// as Popeye writes it (`Kh1-g2 + z`); `#=` replaces the check mark.
///
/// A stalemate that is also a double stalemate is marked `=` when the goal is `=`: Popeye
/// writes the goal it tested (Haaner chess, `haan.inp` #2 and #6).
pub(crate) fn end_mark<G: Game>(ctx: &Ctx, before: &G, m: G::Move, after: &G) -> String {
    let own = move_mark(ctx, after);
    if ctx.goal == Goal::Stalemate && own == "==" {
        return "=".to_string();
    }
    let goal = ctx.goal.end_mark();
    if goal.is_empty() || !after.goal_reached_by(before, m, ctx.goal) {
        own
    } else if own.is_empty() || ctx.goal.mark_replaces_check() {
        goal.to_string()
    } else {
        format!("{own} {goal}")
    }
}

/// The moves of the side to move in `p` that may reach `goal` with this move: the legal
/// moves, and for the goals whose move may leave the mover's own king in check
/// ([`Goal::allows_self_check`]: `##`, `##!`, `!#`) the game's self-checking moves that
/// reach it ([`Game::self_check_moves`]). Written to `out` (cleared first).
pub(crate) fn goal_moves<G: Game>(p: &G, goal: Goal, out: &mut Vec<G::Move>) {
    p.moves(out);
    add_self_check_goal_moves(p, goal, out);
}

/// Appends to `moves` (the legal moves of `p`) the self-checking moves that reach `goal`,
/// for the goals that allow them ([`goal_moves`]); nothing for the others.
pub(crate) fn add_self_check_goal_moves<G: Game>(p: &G, goal: Goal, moves: &mut Vec<G::Move>) {
    if !goal.allows_self_check() {
        return;
    }
    let mut extra = Vec::new();
    p.self_check_moves(&mut extra);
    moves.extend(extra.into_iter().filter(|&m| p.move_reaches_goal(m, goal)));
}

/// Under `GoalIsEnd` ([`SolveOptions::goal_is_end`]), removes from `moves` (moves of the
/// side that is not to reach the goal, in `p`) those that reach it: play would end there,
/// the goal reached by the wrong side. Nothing otherwise.
pub(crate) fn drop_wrong_side_goal_moves<G: Game>(ctx: &Ctx, p: &G, moves: &mut Vec<G::Move>) {
    if ctx.goal_is_end {
        moves.retain(|&m| !p.move_reaches_goal(m, ctx.goal));
    }
}

/// A move as text with its mark.
pub(crate) fn line_move<G: Game>(ctx: &Ctx, pos: &G, m: G::Move) -> LineMove {
    LineMove::new(pos.move_text_in(m, Lang::En, ctx.notation), move_mark(ctx, &pos.play(m)))
}

/// The last move of a line, which reaches the goal: as [`line_move`], with the goal's mark
/// ([`end_mark`]).
pub(crate) fn last_line_move<G: Game>(ctx: &Ctx, pos: &G, m: G::Move) -> LineMove {
    LineMove::new(pos.move_text_in(m, Lang::En, ctx.notation), end_mark(ctx, pos, m, &pos.play(m)))
}

/// Solves `stip` from `pos` (whose side to move makes the first move).
pub fn solve<G: Game>(pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Solved {
    let threads = if opts.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { opts.threads };
    let run = || solve_inner(pos, stip, opts);
    if threads == 1 {
        // On this thread: no pool to start. What an earlier solve on this thread left (its
        // gates' learning, its node count, which `Solved::nodes` reads from zero) is
        // forgotten, as a new pool's thread would not know it.
        LOCAL_NODES.with(|c| c.set(0));
        help::reset_gate();
        series::reset_gate();
        parry::reset_gate();
        return parallel::alone(run);
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    match pool {
        Ok(p) => p.install(run),
        Err(_) => run(),
    }
}

fn solve_inner<G: Game>(pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Solved {
    let ctx = Ctx {
        tt: Table::with_bytes(opts.table_bytes()),
        stop: opts.cancel.clone().unwrap_or_default(),
        deadline: opts.timeout.map(|t| Instant::now() + t),
        nodes: AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        goal: stip.goal,
        notation: opts.notation,
        checks_only: pos.needs_check(stip.goal),
        exact: stip.exact,
        quodlibet: opts.quodlibet,
        non_trivial: opts.non_trivial,
        threat: opts.threat,
        max_flights: opts.max_flights,
        goal_is_end: opts.goal_is_end && stip.goal.by_move(),
    };
    let mut phases = Vec::new();
    if !opts.half_duplex {
        phases.push(solve_phase(&ctx, pos, stip, opts));
    }
    // `StopOnShortSolutions`: short solutions end the solve, the duplex part with it (as
    // Popeye does).
    let stopped_short = opts.stop_on_short && phases.iter().any(|p| !p.short.is_empty());
    if (opts.duplex || opts.half_duplex) && !stopped_short {
        let swapped = pos.pass();
        let mut ph = if swapped.pass().in_check() {
            Phase { note: Some("the duplex position is illegal: the side not to move is in check".into()), ..Phase::default() }
        } else {
            solve_phase(&ctx, &swapped, stip, opts)
        };
        ph.label = Some(if opts.half_duplex { "half-duplex" } else { "duplex" }.into());
        phases.push(ph);
    }
    let extra = LOCAL_NODES.with(|c| c.get() & 1023);
    Solved { phases, complete: !ctx.is_stopped(), nodes: ctx.nodes.load(Ordering::Relaxed) + extra }
}

fn solve_phase<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, opts: &SolveOptions) -> Phase {
    let mut ph = Phase::default();
    if stip.series {
        // Intro moves (`N->ser-…`): the series from every position they lead to.
        let run = |p: &G| {
            if stip.parry.is_some() {
                parry::parry_series(ctx, p, stip, opts)
            } else if let Some(own) = stip.reci {
                series::series_reci(ctx, p, stip, own)
            } else {
                series::series(ctx, p, stip, opts)
            }
        };
        let all = |p: &G| if stip.intro > 0 { series::with_intro(ctx, p, stip.intro, &run) } else { run(p) };
        if stip.parry.is_some() {
            // Parry series lines have no fixed length: none is short.
            let lines = all(pos);
            ph.limited = over(lines.len(), opts.max_solutions);
            ph.lines = truncate(lines, opts.max_solutions);
        } else {
            let lines = all(pos);
            // The series is searched in full: cut only when more lines exist.
            ph.limited = over(lines.len(), opts.max_solutions);
            // Reciprocal series have the full length only.
            let short =
                if stip.reci.is_some() { 0 } else { lines.iter().take_while(|l| series::series_moves(stip, l) < stip.moves).count() };
            (ph.lines, ph.short) = keep(lines, short, opts);
        }
        if opts.set_play {
            ph.set_lines = truncate(series::series_set_play(ctx, pos, stip), opts.max_solutions);
        }
        return ph;
    }
    match stip.play {
        Play::Help | Play::HelpSelf | Play::HelpReflex => {
            // Help-reflex play: a first mover that can reach the goal at once must. When it is
            // not the side that is to reach it at the end (an odd number of help half-moves:
            // White in `hr#1`), that ends play before the stipulation is met: no solution, and
            // the forced moves are shown as such (Popeye's `1.Qf6-d8 # ?!?`). The other side's
            // is a short solution (`hr#1.5`: `1...b3-b2 #`), found by the search.
            if stip.play == Play::HelpReflex && stip.reci.is_none() && stip_plies(stip) % 2 == 1 {
                let forced = help::goal_moves_in_one(pos, stip.goal);
                if !forced.is_empty() {
                    ph.tries = forced
                        .into_iter()
                        .map(|m| {
                            let l = last_line_move(ctx, pos, m);
                            Node::new(l.mv, l.mark, Role::Violation)
                        })
                        .collect();
                    return ph;
                }
            }
            let plies = stip_plies(stip);
            let (lines, short) = help_with_short(ctx, pos, stip, plies, opts);
            // The search stops at the `MaxSolutions`-th line: more may exist.
            ph.limited = opts.max_solutions.is_some_and(|m| lines.len() >= m);
            (ph.lines, ph.short) = keep(lines, short, opts);
            // Set play starts with the other side: none when the side to move is in check.
            if opts.set_play && plies > 1 && !pos.in_check() && stip.reci.is_none() {
                let (lines, short) = help_with_short(ctx, &pos.pass(), stip, plies - 1, opts);
                (ph.set_lines, ph.set_short) = keep(lines, short, opts);
            }
        }
        Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex => {
            let b = battle::solve(ctx, pos, stip, opts);
            ph.limited = opts.max_solutions.is_some_and(|m| b.keys.len() >= m);
            ph.keys = b.keys;
            ph.tries = b.tries;
            ph.set_play = b.set_play;
        }
    }
    ph
}

/// Every help line of `plies` half-moves from `pos` and, before them, the short ones: those of
/// `plies - 2`, `plies - 4`, … half-moves (down to one or two), shortest first; with the count
/// of short lines.
///
/// This is Popeye's rule, read from its outputs (the manual says only that
/// `StopOnShortSolutions` stops "after detecting of short solutions"): in help play a line
/// shorter by whole moves, begun by the same side, reaches the goal too soon and is printed
/// before the others (`h#2`, White Kf6 Rc4, Black Ke8: `1.Ke8-f8 Rc4-c8 #` before the three
/// two-movers); in `h#n.5` the shorter lines are the `h#m.5` ones, down to one half-move
/// (`h==2.5`: `1...0-0 ==`); in `hs#n` the `hs#m` ones; every goal alike (`h=`, `h==`, `h+`).
/// Each length is its own exact search, so that the bounds and plans, which assume the exact
/// length, never cut a short line; the table's entries are kept per half-moves left, so the
/// searches share them. With `StopOnShortSolutions` the first length that has lines ends the
/// search when it is short. Popeye's `Intelligent` mode prints the same short solutions (its
/// `h#3` above: the `h#1` and the three `h#2` first); the option changes nothing here.
///
/// `exact-` and reciprocal play (`reci-h#n`) have no short solutions: only the full length.
fn help_with_short<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, plies: u32, opts: &SolveOptions) -> (Vec<Line>, usize) {
    let max = opts.max_solutions;
    if stip.exact || stip.reci.is_some() {
        return (help::help(ctx, pos, stip, plies, opts, max), 0);
    }
    if stip.goal.ends_help_play() || stip.play == Play::HelpReflex {
        // The goals of the move (and check) end a line where they are reached, and in
        // help-reflex play where Black can reach the goal: the full search finds the shorter
        // lines itself. Short ones first, shortest first.
        let mut lines = help::help(ctx, pos, stip, plies, opts, max);
        lines.sort_by_key(|l| l.len());
        let short = lines.iter().take_while(|l| (l.len() as u32) < plies).count();
        if opts.stop_on_short && short > 0 {
            lines.truncate(short);
        }
        return (lines, short);
    }
    // With `MaxSolutions`, the lines still wanted after those found.
    let left = |found: usize| max.map(|m| m.saturating_sub(found));
    let mut lines = Vec::new();
    let mut k = if plies.is_multiple_of(2) { 2 } else { 1 };
    while k < plies {
        if left(lines.len()) == Some(0) {
            let short = lines.len();
            return (lines, short);
        }
        lines.extend(help::help(ctx, pos, stip, k, opts, left(lines.len())));
        if opts.stop_on_short && !lines.is_empty() {
            let short = lines.len();
            return (lines, short);
        }
        k += 2;
    }
    let short = lines.len();
    if left(lines.len()) != Some(0) {
        lines.extend(help::help(ctx, pos, stip, plies, opts, left(lines.len())));
    }
    (lines, short)
}

/// The lines to report and the indexes of the short ones among them: with
/// `StopOnShortSolutions` and short lines, only those of the shortest length; then at most
/// `max_solutions`.
fn keep(mut lines: Vec<Line>, mut short: usize, opts: &SolveOptions) -> (Vec<Line>, Vec<usize>) {
    if opts.stop_on_short && short > 0 {
        let shortest = lines[0].len();
        short = lines.iter().take_while(|l| l.len() == shortest).count();
        lines.truncate(short);
    }
    let lines = truncate(lines, opts.max_solutions);
    let short = (0..short.min(lines.len())).collect();
    (lines, short)
}

/// Half-moves of a help line: `2n` (`2n+1` for `n.5`); for `hs#n`, `2n-1` before the
/// forced last move; for `reci-h#n`, `2n-2` before the two endings.
fn stip_plies(stip: &Stipulation) -> u32 {
    if stip.reci.is_some() {
        // `reci-h#n`: the help play before Black's last move, which ends both ways.
        return (2 * stip.moves).saturating_sub(2);
    }
    match stip.play {
        Play::HelpSelf | Play::HelpReflex => (2 * stip.moves).saturating_sub(1) + stip.half as u32,
        _ => stip.help_plies(),
    }
}

/// Whether `found` solutions are more than `MaxSolutions` lets through.
fn over(found: usize, max: Option<usize>) -> bool {
    max.is_some_and(|m| found > m)
}

fn truncate(mut lines: Vec<Line>, max: Option<usize>) -> Vec<Line> {
    if let Some(m) = max {
        lines.truncate(m);
    }
    lines
}
