//! Battle play: direct (`#n`), self (`s#n`) and reflex (`r#n`) stipulations.
//!
//! Popeye's meaning. Direct: the attacker (the side to move) reaches the goal in at most n
//! moves against every defence (short solutions count). Self: the attacker forces the
//! defender to reach the goal against the attacker within n moves; the defender avoids it.
//! Reflex: as self, but a side that can reach the goal in one move must do so. Semi-reflex:
//! as reflex, but only the defender is bound.
//!
//! `NonTrivial m n` (Popeye's option for long problems): a defence is *trivial* when the
//! attacker answers it by reaching the goal (`#n`, `s#n`) within n moves. Wherever more than
//! n attacker moves are left after the defence, the defender keeps at least one non-trivial
//! defence, and every non-trivial defence beyond the first is one the attacker grants: along
//! each line of play the attacker may grant m of them in all. An attacker's move that would
//! grant more fails. The budget left is part of every fact of the table (its key carries it),
//! and the search is not split between threads.
//!
//! `exact-` (Popeye's minimal length n:n): the play lasts exactly n moves. The goal reached
//! before the last move does not count (a defender of `exact-s#2` that mates at once refutes);
//! in reflex play a defender that could reach the goal early must, and so refutes. Every fact
//! of the table is then of one length only (its key carries the length).

use super::parallel::{FirstN, par_map, par_map_ordered};
use super::tree::{Node, Role};
use super::{Ctx, SolveOptions, add_self_check_goal_moves, drop_wrong_side_goal_moves, end_mark, move_mark};
use crate::piece::Lang;
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Goal};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Direct,
    SelfPlay,
    Reflex,
    SemiReflex,
}

impl Mode {
    /// Whether a defender that can reach the goal in one must (reflex and semi-reflex play).
    fn defender_bound(self) -> bool {
        matches!(self, Mode::Reflex | Mode::SemiReflex)
    }
}

const SALT_ATT: [u64; 4] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x94D0_49BB_1331_11EB];
const SALT_DEF: [u64; 4] = [0x85EB_CA77_C2B2_AE63, 0x27D4_EB2F_1656_67C5, 0xFF51_AFD7_ED55_8CCD, 0xBF58_476D_1CE4_E5B9];

fn goal_salt(g: Goal) -> u64 {
    (g.code() + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// What battle play found.
pub(crate) struct BattleResult {
    pub(crate) keys: Vec<Node>,
    pub(crate) tries: Vec<Node>,
    pub(crate) set_play: Vec<Node>,
}

/// Killer moves per depth: the last refutation (defender) and the last winning move
/// (attacker) found there, tried first; and the attacker's history table: how much each
/// move (by [`move_slot`]) has won so far, n² for a win with n moves left, by which the
/// attacker's other moves are ordered.
#[derive(Clone)]
struct Killers<M> {
    def: Vec<[Option<M>; 2]>,
    att: Vec<Option<M>>,
    history: Vec<u32>,
}

/// Slots of the history table (moves that share a slot share a score).
const HISTORY_SLOTS: usize = 1024;

impl<M: Copy> Killers<M> {
    fn new() -> Self {
        Killers { def: vec![[None; 2]; 64], att: vec![None; 64], history: vec![0; HISTORY_SLOTS] }
    }

    /// An empty set, left behind when a searcher hands its killers on.
    fn none() -> Self {
        Killers { def: Vec::new(), att: Vec::new(), history: Vec::new() }
    }
}

/// A small multiplicative hasher for [`move_slot`]: a move's fields in, a well-mixed word out.
struct SlotHasher(u64);

impl std::hash::Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64)
    }
    fn write_u16(&mut self, v: u16) {
        self.write_u64(v as u64)
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64)
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(7) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64)
    }
}

/// The history-table slot of move `m` (the search knows moves only as hashable values).
fn move_slot<M: std::hash::Hash>(m: &M) -> usize {
    let mut h = SlotHasher(0);
    m.hash(&mut h);
    (h.0 >> (64 - HISTORY_SLOTS.trailing_zeros())) as usize
}

/// Orders `moves` by their score in `history` (indexed by [`move_slot`]), best first; moves
/// of equal score keep their order, so that the order is the same on every run.
fn order_by_history<M: std::hash::Hash + Copy>(history: &[u32], moves: &mut [M]) {
    sort_moves_by(moves, |m| u64::from(u32::MAX - history[move_slot(m)]));
}

/// Sorts `moves` by `key`, smallest first, keeping the order of equal keys, each key
/// computed once: an insertion sort with the keys on the stack for the lists of up to 64
/// moves (the usual ones, most of them nearly in order already), without the allocation of
/// `sort_by_cached_key`, which the longer lists use.
fn sort_moves_by<M: Copy>(moves: &mut [M], key: impl Fn(&M) -> u64) {
    const MAX: usize = 64;
    if moves.len() < 2 {
        return;
    }
    if moves.len() > MAX {
        moves.sort_by_cached_key(key);
        return;
    }
    let mut keys = [0u64; MAX];
    for (k, m) in keys.iter_mut().zip(moves.iter()) {
        *k = key(m);
    }
    for i in 1..moves.len() {
        let (k, m) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > k {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = k;
        moves[j] = m;
    }
}

/// Killers handed from one task to the next, so that what refuted one first move is tried
/// first against the next: each task starts from a copy of the killers of the task that
/// ended last (one set for all threads; a pool of sets, one per thread, left each thread
/// with its own stale refutations: Wenda #5 on two threads, 2.0 M positions against 1.9 M).
///
/// With them, the side whose moves may leave its own king in check where they reach the goal
/// (`##`, `##!`, `!#`: the attacker in direct play, the defender in self and reflex play),
/// the same for every searcher of one solve.
///
/// And under `GoalIsEnd` in self and reflex play, the attacker, whose moves that reach the
/// goal end play and so are no moves of its.
struct KillerHome<M> {
    killers: std::sync::Mutex<Option<Killers<M>>>,
    goal_side: Option<crate::piece::Color>,
    wrong_side: Option<crate::piece::Color>,
}

struct Searcher<'a, G: Game> {
    ctx: &'a Ctx,
    mode: Mode,
    goal: Goal,
    salt: u64,
    k: Killers<G::Move>,
    home: &'a KillerHome<G::Move>,
    pool: Vec<Vec<G::Move>>,
    /// `NonTrivial`: the non-trivial defences the attacker may still grant on this line.
    nt_left: u32,
}

impl<G: Game> Drop for Searcher<'_, G> {
    fn drop(&mut self) {
        if self.mode == Mode::Direct
            && let Ok(mut h) = self.home.killers.lock()
        {
            *h = Some(std::mem::replace(&mut self.k, Killers::none()));
        }
    }
}

/// The worth of a battle entry with `n` moves left (the table's `put`): one
/// less than `n`, so that only nodes with three moves left or more make the table double
/// (`tt::GROW_WORTH`). A node with two moves left is a mate-in-two test over mate-in-one
/// tests, which are not stored: cheaper to find again than to keep in a table grown for
/// it. Measured on the 16 long battle problems of `benches/battle.yaml`, one thread, best of
/// three against worth `n`: every one as fast or faster (`co34_m7` 1.52 → 1.35 s, Wenda #6
/// 0.55 → 0.49 s, Wenda's `s#5` 0.64 → 0.58 s, `po52_m6` 0.36 → 0.31 s), in a quarter to a
/// half of the memory (`co34_m7` 134 → 38 MB), the positions searched 1–8 % more.
fn battle_worth(n: u32) -> u8 {
    n.saturating_sub(1).min(255) as u8
}

fn pack(win: u32, fail: u32) -> u64 {
    (1u64 << 63) | ((win.min(255) as u64) << 8) | fail.min(255) as u64
}

fn unpack(d: u64) -> (u32, u32) {
    (((d >> 8) & 255) as u32, (d & 255) as u32)
}

impl<'a, G: Game> Searcher<'a, G> {
    fn new(ctx: &'a Ctx, mode: Mode, home: &'a KillerHome<G::Move>) -> Self {
        // Direct play: a refutation of one first move often refutes the next, so the killers
        // go from task to task. Self and reflex play solved slower that way (Petkov's s#4:
        // 1.34 M positions with fresh killers, 2.1 M with handed-on ones; with the checks
        // tried first, 0.37 M against 0.40 M).
        let k = match mode {
            Mode::Direct => home.killers.lock().ok().and_then(|h| h.clone()),
            _ => None,
        }
        .unwrap_or_else(Killers::new);
        let nt_left = ctx.non_trivial.map_or(0, |(m, _)| m);
        Searcher { ctx, mode, goal: ctx.goal, salt: goal_salt(ctx.goal), k, home, pool: Vec::new(), nt_left }
    }

    /// `NonTrivial`: the budget left, as part of a table key (0 without the option).
    #[inline]
    fn nt_salt(&self) -> u64 {
        if self.ctx.non_trivial.is_some() { (self.nt_left as u64 + 1).wrapping_mul(0x9FB2_1C65_1E98_DF25) } else { 0 }
    }

    /// Direct play, defender to move in `q` (not in check) with the attacker's `n` moves left
    /// after its move: whether Popeye's `Threat t` or `MaxFlightsquares f` says that the
    /// defender has defended already: the attacker threatens no win within t moves, or the
    /// defender's king has f flight squares or more.
    fn defended_by_rule(&mut self, q: &G, n: u32) -> bool {
        if self.mode != Mode::Direct || n == 0 || (self.ctx.threat.is_none() && self.ctx.max_flights.is_none()) || q.in_check() {
            return false;
        }
        if let Some(f) = self.ctx.max_flights
            && q.flights().is_some_and(|k| k >= f)
        {
            return true;
        }
        match self.ctx.threat {
            Some(t) => !self.att(&q.pass(), t.min(n)),
            None => false,
        }
    }

    /// `NonTrivial m n`: what defender node `q` (`n` as in [`Self::def`]) costs the attacker:
    /// `Some(c)` for `c` non-trivial defences beyond the first, `None` where the option does
    /// not apply (no option, or no more than n attacker moves left after the defence).
    fn nt_cost(&mut self, q: &G, n: u32) -> Option<u32> {
        let (_, short) = self.ctx.non_trivial?;
        let after = match self.mode {
            Mode::Direct => n,
            _ => n.saturating_sub(1),
        };
        if after <= short {
            return None;
        }
        // Trivial: answered within `short` attacker moves (in self and reflex play, a defence
        // that reaches the goal at once too); the budget does not matter there.
        let budget = match self.mode {
            Mode::Direct => short,
            _ => short + 1,
        };
        let moves = self.moves(q);
        let mut count = 0u32;
        for &d in &moves {
            let r = q.play(d);
            let trivial = match self.mode {
                Mode::Direct => self.att(&r, budget),
                _ => self.goal(q, d, &r) || (budget > 1 && self.att(&r, budget - 1)),
            };
            if !trivial {
                count += 1;
            }
        }
        self.give(moves);
        Some(count.saturating_sub(1))
    }

    fn moves(&mut self, p: &G) -> Vec<G::Move> {
        let mut v = self.pool.pop().unwrap_or_default();
        p.moves(&mut v);
        if self.home.goal_side == Some(p.to_move()) {
            add_self_check_goal_moves(p, self.goal, &mut v);
        }
        if self.home.wrong_side == Some(p.to_move()) {
            drop_wrong_side_goal_moves(self.ctx, p, &mut v);
        }
        v
    }

    /// Whether the defences of `q` may be tried one at a time from [`Game::candidate_moves`]:
    /// not where the goal is asked of every defence first (reflex play), nor where
    /// [`Self::lazy_moves`] says no.
    fn lazy_defences(&self, q: &G) -> bool {
        !self.mode.defender_bound() && self.lazy_moves(q)
    }

    /// Whether the moves of `q` may be tried one at a time from [`Game::candidate_moves`]
    /// as the search asks for them: where the game tests legality that way
    /// ([`Game::lazy_legality`]), but not where [`Self::moves`] adds self-checking goal
    /// moves or drops goal moves of the wrong side.
    fn lazy_moves(&self, q: &G) -> bool {
        q.lazy_legality() && self.home.goal_side != Some(q.to_move()) && self.home.wrong_side != Some(q.to_move())
    }

    /// The candidate moves of `p` ([`Game::candidate_moves`], a pooled vector) and the
    /// hint for playing them.
    fn candidates(&mut self, p: &G) -> (Vec<G::Move>, G::Hint) {
        let mut v = self.pool.pop().unwrap_or_default();
        let hint = p.candidate_moves(&mut v);
        (v, hint)
    }

    fn give(&mut self, v: Vec<G::Move>) {
        self.pool.push(v);
    }

    /// Whether the move `m` from `p`, leading to `q`, reaches the goal.
    #[inline]
    fn goal(&self, p: &G, m: G::Move, q: &G) -> bool {
        q.goal_reached_by(p, m, self.goal)
    }

    /// Whether the move `m` from `p` reaches the goal.
    #[inline]
    fn goal_move(&self, p: &G, m: G::Move) -> bool {
        p.move_reaches_goal(m, self.goal)
    }

    /// The mark of move `m` from `p` (to `q`) in the tree: with the goal's own mark
    /// ([`end_mark`]) when it is the move that reaches the goal, the attacker's in direct
    /// play, the defender's in self and reflex play. A defence that mates the attacker in
    /// direct play is marked `+`, as Popeye marks it (`1...Re8-e1 + !`).
    fn node_mark(&self, p: &G, m: G::Move, q: &G, attacker: bool) -> String {
        let ends = if attacker { self.mode == Mode::Direct || self.quodlibet() } else { self.mode != Mode::Direct };
        if ends {
            end_mark(self.ctx, p, m, q)
        } else {
            let mark = move_mark(self.ctx, q);
            if !attacker && mark == "#" { "+".to_string() } else { mark }
        }
    }

    /// `Quodlibet` in self or reflex play: the attacker may reach the goal itself.
    #[inline]
    fn quodlibet(&self) -> bool {
        self.ctx.quodlibet && self.mode != Mode::Direct
    }

    /// Whether attacker move `m` from `p` (to `q`), with `n` attacker moves left, ends the
    /// play won under `Quodlibet`: it reaches the goal itself (in exact play only as the
    /// last move).
    #[inline]
    fn quodlibet_goal(&self, p: &G, m: G::Move, q: &G, n: u32) -> bool {
        self.quodlibet() && (n == 1 || !self.ctx.exact) && self.goal(p, m, q)
    }

    /// Reflex play under `Quodlibet`: whether attacker move `m` from `p` is barred because it
    /// does not reach the goal where another move does (the attacker must then take it).
    fn quodlibet_barred(&mut self, p: &G, m: G::Move, q: &G) -> bool {
        self.quodlibet() && self.mode == Mode::Reflex && !self.goal(p, m, q) && self.has_goal_move(p)
    }

    /// `exact-`: the length a fact of the table holds for, in its key (0 otherwise: a fact
    /// "wins within n" then holds for every longer length too).
    #[inline]
    fn length_salt(&self, n: u32) -> u64 {
        if self.ctx.exact { (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D) } else { 0 }
    }

    /// Whether a defender that can reach the goal at once (so must, in reflex play) ends the
    /// play as the attacker wants, with `n` of its moves left: always, except in exact play
    /// before the last move.
    fn early_goal_ok(&self, n: u32) -> bool {
        !self.ctx.exact || n <= 1
    }

    /// Cached bound lookup: Some(result) when the table decides.
    fn probe(&self, key: u64, n: u32) -> Option<bool> {
        let (win, fail) = unpack(self.ctx.tt.get(key)?);
        if win > 0 && win <= n {
            Some(true)
        } else if fail >= n {
            Some(false)
        } else {
            None
        }
    }

    fn store(&self, key: u64, n: u32, result: bool) {
        if self.ctx.is_stopped() || !self.ctx.tt.enabled() {
            return;
        }
        let (mut win, mut fail) = self.ctx.tt.get(key).map(unpack).unwrap_or((0, 0));
        if result {
            if win == 0 || n < win {
                win = n;
            }
        } else if n > fail {
            fail = n;
        }
        self.ctx.tt.put(key, pack(win, fail), battle_worth(n));
    }

    /// Whether some move of `mover` (to move in `p`) reaches the goal at once.
    fn has_goal_move(&mut self, p: &G) -> bool {
        let moves = self.moves(p);
        let found = moves.iter().any(|&m| self.goal_move(p, m));
        self.give(moves);
        found
    }

    /// Attacker to move: can it win within `n` moves?
    fn att(&mut self, p: &G, n: u32) -> bool {
        if n == 0 || self.ctx.tick() {
            return false;
        }
        if n == 1 && self.mode == Mode::Direct {
            return self.att_compute(p, n);
        }
        let key = p.key() ^ SALT_ATT[self.mode as usize] ^ self.salt ^ self.length_salt(n) ^ self.nt_salt();
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        let r = self.att_compute(p, n);
        self.store(key, n, r);
        r
    }

    fn att_compute(&mut self, p: &G, n: u32) -> bool {
        let mut result = false;
        if self.mode == Mode::Direct && self.ctx.checks_only {
            // Only a checking move can reach the goal: those are tested first, and searched
            // first; then the other moves (generated only when needed).
            let checks = self.checks(p);
            let mate = self.goal == Goal::Mate;
            result = (n == 1 || !self.ctx.exact) && checks.iter().any(|&m| !(mate && p.king_escapes(m)) && self.goal_move(p, m));
            if !result && n > 1 {
                result = self.first_win(p, &checks, n, None) || {
                    // The other moves tried one at a time where they may be (the checks,
                    // listed in the order of the moves, left out).
                    let (mut quiet, hint) = if self.lazy_moves(p) {
                        let (v, h) = self.candidates(p);
                        (v, Some(h))
                    } else {
                        (self.moves(p), None)
                    };
                    let mut i = 0;
                    quiet.retain(|&m| {
                        if checks.get(i) == Some(&m) {
                            i += 1;
                            false
                        } else {
                            true
                        }
                    });
                    let r = self.first_win(p, &quiet, n, hint);
                    self.give(quiet);
                    r
                };
            }
            self.give(checks);
            return result;
        }
        if self.mode == Mode::SelfPlay && !self.quodlibet() && self.lazy_moves(p) {
            // Self play: the attacker's moves tried one at a time (most nodes that win, win
            // with their first or second move).
            let (mut moves, hint) = self.candidates(p);
            if n == 1 {
                p.retain_forcing_goal(self.goal, &mut moves);
            }
            let result = self.first_win(p, &moves, n, Some(hint));
            self.give(moves);
            return result;
        }
        let mut moves = self.moves(p);
        match self.mode {
            Mode::Direct => {
                result = (n == 1 || !self.ctx.exact) && moves.iter().any(|&m| self.goal_move(p, m));
                if !result && n > 1 {
                    result = self.first_win(p, &moves, n, None);
                }
            }
            Mode::SelfPlay | Mode::Reflex | Mode::SemiReflex => {
                if self.quodlibet() && (n == 1 || !self.ctx.exact) && moves.iter().any(|&m| self.goal_move(p, m)) {
                    // `Quodlibet`: the attacker reaches the goal itself.
                    result = true;
                } else {
                    let forced_goal = self.mode == Mode::Reflex && moves.iter().any(|&m| self.goal_move(p, m));
                    if self.mode == Mode::SelfPlay && n == 1 {
                        // The last move: only those after which every defence may reach the
                        // goal are worth playing.
                        p.retain_forcing_goal(self.goal, &mut moves);
                    }
                    if !forced_goal {
                        result = self.first_win(p, &moves, n, None);
                    }
                }
            }
        }
        self.give(moves);
        result
    }

    /// The attacker's checking moves (a pooled vector).
    fn checks(&mut self, p: &G) -> Vec<G::Move> {
        let mut v = self.pool.pop().unwrap_or_default();
        p.checking_moves(&mut v);
        v
    }

    /// Whether one of the attacker's `moves` (in direct play none reaching the goal at once)
    /// wins within `n`, the killer of this depth first. With a `hint`, `moves` are
    /// [`Game::candidate_moves`] (which gave the hint), each played only if legal.
    fn first_win(&mut self, p: &G, moves: &[G::Move], n: u32, hint: Option<G::Hint>) -> bool {
        let slot = (n as usize).min(63);
        let killer = self.k.att[slot].filter(|k| moves.contains(k));
        if let Some(k) = killer
            && let Some(q) = match hint {
                Some(h) => p.play_candidate(k, h),
                None => Some(p.play(k)),
            }
            && self.def(&q, self.budget_after(n))
        {
            return true;
        }
        // The others by their history, best first (a stable sort: ties keep the generation
        // order). Measured, positions on one thread without → with: Wenda #6 6.48 M → 3.99 M,
        // Johandl #5 4.62 M → 4.02 M, Petkov s#5 5.06 M → 4.51 M. (The same table for the
        // defender's moves cost positions: Wenda r#6 0.47 M → 0.64 M.)
        let mut sorted = self.pool.pop().unwrap_or_default();
        sorted.clear();
        sorted.extend(moves.iter().copied().filter(|&m| Some(m) != killer));
        self.order_by_history(&mut sorted);
        let r = match hint {
            Some(h) => self.first_win_among_candidates(p, &sorted, h, slot, n),
            None => self.first_win_in(p, &sorted, slot, n),
        };
        self.give(sorted);
        r
    }

    /// [`Self::first_win_in`] over candidate moves ([`Game::candidate_moves`]): each played
    /// only if legal (no slot prefetched ahead: the games whose legality is tested as they
    /// play spend far longer on a node than a cache miss takes).
    fn first_win_among_candidates(&mut self, p: &G, moves: &[G::Move], hint: G::Hint, slot: usize, n: u32) -> bool {
        for &m in moves {
            let Some(q) = p.play_candidate(m, hint) else { continue };
            if self.def(&q, self.budget_after(n)) {
                self.note_win(slot, m, n);
                return true;
            }
        }
        false
    }

    /// Remembers attacker move `m`, which wins with `n` moves left, as the killer of its
    /// depth and in the history table.
    fn note_win(&mut self, slot: usize, m: G::Move, n: u32) {
        self.k.att[slot] = Some(m);
        let h = &mut self.k.history[move_slot(&m)];
        *h = h.saturating_add(n * n);
    }

    /// Orders attacker moves by their history score, best first, ties in their order.
    fn order_by_history(&self, moves: &mut [G::Move]) {
        order_by_history(&self.k.history, moves);
    }

    /// [`Self::first_win`] over `moves` in their order (the killer left out).
    fn first_win_in(&mut self, p: &G, moves: &[G::Move], slot: usize, n: u32) -> bool {
        // Each child is played one step ahead and its table slot prefetched, so that the
        // cache miss of its probe overlaps the search of the child before it.
        let mut rest = moves.iter().copied().peekable();
        let Some(&first) = rest.peek() else { return false };
        let salt = SALT_DEF[self.mode as usize] ^ self.salt ^ self.length_salt(self.budget_after(n));
        let mut bufs = [p.play(first), p.clone()];
        self.ctx.tt.prefetch(bufs[0].key() ^ salt);
        let mut i = 0;
        while let Some(m) = rest.next() {
            if let Some(&next) = rest.peek() {
                bufs[(i + 1) & 1] = p.play(next);
                self.ctx.tt.prefetch(bufs[(i + 1) & 1].key() ^ salt);
            }
            if self.def(&bufs[i & 1], self.budget_after(n)) {
                self.note_win(slot, m, n);
                return true;
            }
            i += 1;
        }
        false
    }

    /// Defender to move. Direct: can the attacker win within `n` more moves whatever the
    /// defence? Self/reflex: is the defender forced to reach the goal within `n` of its
    /// own moves (this one included)?
    fn def(&mut self, q: &G, n: u32) -> bool {
        if self.ctx.tick() {
            return false;
        }
        let key = q.key() ^ SALT_DEF[self.mode as usize] ^ self.salt ^ self.length_salt(n) ^ self.nt_salt();
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        if self.defended_by_rule(q, n) {
            self.store(key, n, false);
            return false;
        }
        let r = match self.nt_cost(q, n) {
            // `NonTrivial`: more non-trivial defences than the attacker may still grant.
            Some(c) if c > self.nt_left => false,
            Some(c) => {
                self.nt_left -= c;
                let r = self.def_compute(q, n);
                self.nt_left += c;
                r
            }
            None => self.def_compute(q, n),
        };
        self.store(key, n, r);
        r
    }

    fn def_compute(&mut self, q: &G, n: u32) -> bool {
        let slot = (n as usize).min(63);
        // The defender's checks first (see `checks_first`).
        let checks = if self.checks_first(n) {
            let checks = self.checks(q);
            if let Some(d) = checks.iter().copied().find(|&d| !self.answered(q, d, n)) {
                self.give(checks);
                self.note_refutation(slot, d);
                return false;
            }
            Some(checks)
        } else {
            None
        };
        let checked = |d: &G::Move| checks.as_ref().is_some_and(|c| c.contains(d));
        let killers = self.k.def[slot];
        // The killers next, played without generating the other moves when they are legal
        // here: most defender nodes end with one of them (not in reflex play, where every
        // move must first be tested for the goal).
        let mut tried = [None; 2];
        let mut result = true;
        'search: {
            if !self.mode.defender_bound() {
                for (j, k) in killers.into_iter().enumerate() {
                    let Some(k) = k.filter(|k| !checked(k)) else { continue };
                    let Some(r) = q.try_play(k) else { continue };
                    if !self.answered_pos(q, k, &r, n) {
                        self.note_refutation(slot, k);
                        result = false;
                        break 'search;
                    }
                    tried[j] = Some(k);
                }
            }
            if self.lazy_defences(q) {
                // Each defence made only when its turn comes (most nodes end at the first
                // refutation): the moves that turn out illegal are passed over, and a node
                // with none legal is lost for the attacker, as with an empty list.
                let (moves, hint) = self.candidates(q);
                let mut any = tried.iter().any(Option::is_some) || checks.as_ref().is_some_and(|c| !c.is_empty());
                for &d in &moves {
                    if tried.contains(&Some(d)) || checked(&d) {
                        continue;
                    }
                    let Some(r) = q.play_candidate(d, hint) else { continue };
                    any = true;
                    if !self.answered_pos(q, d, &r, n) {
                        self.note_refutation(slot, d);
                        result = false;
                        break;
                    }
                }
                self.give(moves);
                result &= any;
                break 'search;
            }
            let moves = self.moves(q);
            if moves.is_empty() {
                self.give(moves);
                result = false;
                break 'search;
            }
            if self.mode.defender_bound() && moves.iter().any(|&d| self.goal_move(q, d)) {
                self.give(moves);
                result = self.early_goal_ok(n);
                break 'search;
            }
            for &d in &moves {
                if tried.contains(&Some(d)) || checked(&d) {
                    continue;
                }
                if !self.answered(q, d, n) {
                    self.note_refutation(slot, d);
                    result = false;
                    break;
                }
            }
            self.give(moves);
        }
        if let Some(c) = checks {
            self.give(c);
        }
        result
    }

    /// Whether a defender node with `n` moves left tries its checks before anything else:
    /// in direct and self play, when the attacker still has a move to make after the
    /// answer. A check that refutes is the cheapest refutation to prove: the attacker's
    /// answers to a check are few, and the proof that an attacker move fails is made of
    /// *all* the attacker's moves below it. Measured, positions with killers alone → with
    /// checks first: Wenda #5 1.57 M → 0.45 M, Wenda #6 38.2 M → 6.5 M, Petkov's s#4
    /// 1.33 M → 0.37 M. Not in reflex play, where the defender's duty to reach the goal is
    /// tested before any move is tried.
    fn checks_first(&self, n: u32) -> bool {
        matches!(self.mode, Mode::Direct | Mode::SelfPlay) && n >= 2
    }

    /// Remembers refutation `d` as the killer of its depth.
    fn note_refutation(&mut self, slot: usize, d: G::Move) {
        let ks = &mut self.k.def[slot];
        if ks[0] != Some(d) {
            // Two killers in direct play; one elsewhere (measured as above).
            if self.mode == Mode::Direct {
                ks[1] = ks[0];
            }
            ks[0] = Some(d);
        }
    }

    /// Whether the attacker still wins after defence `d` from `q` (`n` as in [`Self::def`]).
    #[inline]
    fn answered(&mut self, q: &G, d: G::Move, n: u32) -> bool {
        self.answered_pos(q, d, &q.play(d), n)
    }

    /// [`Self::answered`] given the position after the defence `d` from `q`.
    #[inline]
    fn answered_pos(&mut self, q: &G, d: G::Move, r: &G, n: u32) -> bool {
        match self.mode {
            // `GoalIsEnd`: a defence that reaches the goal ends play: it refutes.
            Mode::Direct if self.ctx.goal_is_end && self.goal(q, d, r) => false,
            Mode::Direct => self.att(r, n),
            Mode::SelfPlay if self.ctx.exact => {
                if n <= 1 {
                    self.goal(q, d, r)
                } else {
                    !self.goal(q, d, r) && self.att(r, n - 1)
                }
            }
            Mode::SelfPlay => self.goal(q, d, r) || (n > 1 && self.att(r, n - 1)),
            Mode::Reflex | Mode::SemiReflex => n > 1 && self.att(r, n - 1),
        }
    }

    /// [`Self::def`] with the work split over threads for `lvl` more plies, young brothers
    /// wait: the killers (usually the refutation) are searched alone first, and only when
    /// none of them refutes are the other defences searched side by side, the first
    /// refutation found stopping the rest. With one thread, or `lvl` 0, `def`.
    fn def_split(&mut self, q: &G, n: u32, lvl: u32) -> bool {
        use rayon::prelude::*;
        if lvl == 0 || super::parallel::threads() < 2 || self.ctx.non_trivial.is_some() || self.defended_by_rule(q, n) {
            return self.def(q, n);
        }
        if self.ctx.tick() {
            return false;
        }
        let key = q.key() ^ SALT_DEF[self.mode as usize] ^ self.salt ^ self.length_salt(n);
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        let moves = self.moves(q);
        let result = if moves.is_empty() {
            false
        } else if self.mode.defender_bound() && moves.iter().any(|&d| self.goal_move(q, d)) {
            self.early_goal_ok(n)
        } else {
            let slot = (n as usize).min(63);
            // The checks (see `checks_first`), then the killers, alone first.
            let mut killers = Vec::new();
            if self.checks_first(n) {
                let checks = self.checks(q);
                killers.extend_from_slice(&checks);
                self.give(checks);
            }
            for k in self.k.def[slot].into_iter().flatten() {
                if moves.contains(&k) && !killers.contains(&k) {
                    killers.push(k);
                }
            }
            let first = killers.iter().copied().find(|&k| !self.answered_split(q, k, n, lvl));
            if let Some(k) = first {
                self.note_refutation(slot, k);
                false
            } else {
                let (ctx, mode, home) = (self.ctx, self.mode, self.home);
                let rest: Vec<G::Move> = moves.iter().copied().filter(|d| !killers.contains(d)).collect();
                let refutation =
                    rest.par_iter().with_max_len(1).find_any(|&&d| !Searcher::<G>::new(ctx, mode, home).answered_split(q, d, n, lvl));
                if let Some(&d) = refutation {
                    self.note_refutation(slot, d);
                }
                refutation.is_none()
            }
        };
        self.give(moves);
        self.store(key, n, result);
        result
    }

    /// [`Self::answered`] with the attacker's reply split over threads (`lvl` as in
    /// [`Self::def_split`]).
    fn answered_split(&mut self, q: &G, d: G::Move, n: u32, lvl: u32) -> bool {
        let r = q.play(d);
        match self.mode {
            // `GoalIsEnd`: a defence that reaches the goal ends play: it refutes.
            Mode::Direct if self.ctx.goal_is_end && self.goal(q, d, &r) => false,
            Mode::Direct => self.att_split(&r, n, lvl - 1),
            Mode::SelfPlay if self.ctx.exact => {
                if n <= 1 {
                    self.goal(q, d, &r)
                } else {
                    !self.goal(q, d, &r) && self.att_split(&r, n - 1, lvl - 1)
                }
            }
            Mode::SelfPlay => self.goal(q, d, &r) || (n > 1 && self.att_split(&r, n - 1, lvl - 1)),
            Mode::Reflex | Mode::SemiReflex => n > 1 && self.att_split(&r, n - 1, lvl - 1),
        }
    }

    /// [`Self::att`] with the work split over threads for `lvl` more plies: the killer (or
    /// the first move) alone first, then the other moves side by side, the first win found
    /// stopping the rest. At a node that fails, where every move must be searched, nothing
    /// is searched in vain.
    fn att_split(&mut self, p: &G, n: u32, lvl: u32) -> bool {
        use rayon::prelude::*;
        if lvl == 0 || n < 2 || super::parallel::threads() < 2 || self.ctx.non_trivial.is_some() {
            return self.att(p, n);
        }
        if self.ctx.tick() {
            return false;
        }
        let key = p.key() ^ SALT_ATT[self.mode as usize] ^ self.salt ^ self.length_salt(n);
        if let Some(r) = self.probe(key, n) {
            return r;
        }
        let mut moves = self.moves(p);
        let goal_now = match self.mode {
            // Exact direct play: a goal before the last move does not count (here n >= 2).
            Mode::Direct if self.ctx.exact => false,
            Mode::Direct | Mode::Reflex => moves.iter().any(|&m| self.goal_move(p, m)),
            Mode::SelfPlay | Mode::SemiReflex => self.quodlibet() && !self.ctx.exact && moves.iter().any(|&m| self.goal_move(p, m)),
        };
        let result = if goal_now {
            // Direct play (and `Quodlibet`): a win at once; reflex play: the attacker must
            // take the goal, so it cannot win in the stipulated way.
            self.mode == Mode::Direct || self.quodlibet()
        } else {
            if self.mode == Mode::Direct && self.ctx.checks_only {
                // Checks first, each group by its history, as in the sequential search.
                let checks = self.checks(p);
                let h = &self.k.history;
                sort_moves_by(&mut moves, |m| u64::from(!checks.contains(m)) << 32 | u64::from(u32::MAX - h[move_slot(m)]));
                self.give(checks);
            } else {
                self.order_by_history(&mut moves);
            }
            let slot = (n as usize).min(63);
            let first = self.k.att[slot].filter(|k| moves.contains(k)).or(moves.first().copied());
            let budget = self.budget_after(n);
            match first {
                None => false,
                Some(f) if self.def_split(&p.play(f), budget, lvl - 1) => {
                    self.note_win(slot, f, n);
                    true
                }
                Some(f) => {
                    let (ctx, mode, home) = (self.ctx, self.mode, self.home);
                    let rest: Vec<G::Move> = moves.iter().copied().filter(|&m| m != f).collect();
                    let win = rest
                        .par_iter()
                        .with_max_len(1)
                        .find_any(|&&m| Searcher::<G>::new(ctx, mode, home).def_split(&p.play(m), budget, lvl - 1));
                    if let Some(&m) = win {
                        self.note_win(slot, m, n);
                    }
                    win.is_some()
                }
            }
        };
        self.give(moves);
        self.store(key, n, result);
        result
    }

    /// Whether attacker move `m` from the diagram `p` solves in `n`, the defences searched
    /// side by side.
    fn solves_root(&mut self, p: &G, m: G::Move, n: u32) -> bool {
        let q = p.play(m);
        match self.mode {
            Mode::Direct if self.ctx.exact => {
                if n == 1 {
                    self.goal(p, m, &q)
                } else {
                    self.def_split(&q, n - 1, SPLIT_PLIES)
                }
            }
            Mode::Direct => self.goal(p, m, &q) || (n > 1 && self.def_split(&q, n - 1, SPLIT_PLIES)),
            _ if self.quodlibet() => {
                self.quodlibet_goal(p, m, &q, n) || (!self.quodlibet_barred(p, m, &q) && self.def_split(&q, n, SPLIT_PLIES))
            }
            _ => self.def_split(&q, n, SPLIT_PLIES),
        }
    }

    /// Whether attacker move `m` from `p` solves in `n`.
    fn solves(&mut self, p: &G, m: G::Move, n: u32) -> bool {
        let q = p.play(m);
        match self.mode {
            Mode::Direct if self.ctx.exact => {
                if n == 1 {
                    self.goal(p, m, &q)
                } else {
                    self.def(&q, n - 1)
                }
            }
            Mode::Direct => self.goal(p, m, &q) || (n > 1 && self.def(&q, n - 1)),
            _ if self.quodlibet() => self.quodlibet_goal(p, m, &q, n) || (!self.quodlibet_barred(p, m, &q) && self.def(&q, n)),
            _ => self.def(&q, n),
        }
    }

    /// Defences refuting attacker move `m` (at most `limit + 1` are collected).
    fn refutations(&mut self, p: &G, m: G::Move, n: u32, limit: usize) -> Vec<G::Move> {
        let q = p.play(m);
        self.refutations_at(&q, self.budget_after(n), limit)
    }

    /// Defences from `q` (defender to move, `budget` as in [`Self::def`]) after which the
    /// attacker fails (at most `limit + 1` are collected).
    fn refutations_at(&mut self, q: &G, budget: u32, limit: usize) -> Vec<G::Move> {
        let mut out = Vec::new();
        let moves = self.moves(q);
        if self.mode.defender_bound() && moves.iter().any(|&d| self.goal_move(q, d)) {
            if !self.early_goal_ok(budget) {
                // Exact play: the goal it must reach too early refutes.
                out.extend(moves.iter().copied().filter(|&d| self.goal_move(q, d)).take(limit + 1));
            }
            self.give(moves);
            return out;
        }
        for &d in &moves {
            if !self.answered(q, d, budget) {
                out.push(d);
                if out.len() > limit {
                    break;
                }
            }
        }
        self.give(moves);
        out
    }

    /// The attacker's shortest winning continuations from `p` within `n`: (length, nodes).
    fn att_nodes(&mut self, p: &G, n: u32, opts: &SolveOptions) -> (u32, Vec<Node>) {
        let k = self.att_len(p, n);
        if k == 0 {
            return (0, Vec::new());
        }
        (k, self.att_nodes_of_len(p, k, opts))
    }

    /// The length of the attacker's shortest win from `p` within `n` (0: none; in exact
    /// play only `n` itself counts).
    fn att_len(&mut self, p: &G, n: u32) -> u32 {
        let shortest = if self.ctx.exact { n.max(1) } else { 1 };
        (shortest..=n).find(|&len| self.att(p, len)).unwrap_or(0)
    }

    /// The attacker's winning continuations from `p` of length `k`, its shortest win, each
    /// with the play after it.
    fn att_nodes_of_len(&mut self, p: &G, k: u32, opts: &SolveOptions) -> Vec<Node> {
        let moves = self.moves(p);
        let mut nodes = Vec::new();
        for &m in &moves {
            if self.ctx.is_stopped() {
                break;
            }
            if !self.solves(p, m, k) {
                continue;
            }
            let q = p.play(m);
            let mut node = Node::new(p.move_text_in(m, Lang::En, self.ctx.notation), self.node_mark(p, m, &q, true), Role::Attack);
            let reached = self.goal(p, m, &q);
            self.fill_after_attack(&mut node, &q, reached, k, opts, false);
            nodes.push(node);
        }
        self.give(moves);
        if nodes.len() > 1 {
            for nd in &mut nodes {
                nd.dual = true;
            }
        }
        nodes
    }

    /// Defender moves left after an attacker's move that solves in `n` (the attacker's
    /// remaining budget in this mode's terms).
    fn budget_after(&self, n: u32) -> u32 {
        match self.mode {
            Mode::Direct => n - 1,
            _ => n,
        }
    }

    /// Fills threat and defences after an attacker's move (defender to move in `q`), the
    /// move having solved within `n`; `reached`: the move reached the goal.
    fn fill_after_attack(&mut self, node: &mut Node, q: &G, reached: bool, n: u32, opts: &SolveOptions, par: bool) {
        let b = self.budget_after(n);
        if (self.mode == Mode::Direct && (b == 0 || reached)) || (reached && self.quodlibet()) {
            return;
        }
        // Threat: what the attacker does if the defender passes.
        let mut threat_len = 0;
        let threat_budget = match self.mode {
            Mode::Direct => b,
            _ => b.saturating_sub(1),
        };
        let mut threat_moves: Vec<String> = Vec::new();
        let reflex_forced = match self.mode {
            Mode::Reflex | Mode::SemiReflex => self.has_goal_move(q),
            // Self play: when every move of the defender reaches the goal, the play ends
            // there (a short solution), without threat or zugzwang; not in exact play, where
            // such a goal comes too early.
            Mode::SelfPlay => b > 1 && !self.ctx.exact && self.all_moves_reach_goal(q),
            Mode::Direct => false,
        };
        if !opts.no_threat && !q.in_check() && threat_budget > 0 && !reflex_forced {
            let t = q.pass();
            let (len, nodes) = self.att_nodes(&t, threat_budget, opts);
            threat_len = len;
            threat_moves = nodes.iter().map(|n| n.mv.clone()).collect();
            node.threat = nodes;
            node.zugzwang = len == 0;
        }
        // `NonTrivial`: the defences below cost what this node grants.
        let cost = self.nt_cost(q, b).unwrap_or(0).min(self.nt_left);
        self.nt_left -= cost;
        let moves = self.moves(q);
        let threat = Threat { len: threat_len, moves: threat_moves, reflex_forced };
        if par && super::parallel::threads() > 1 {
            let (ctx, mode, home, nt_left) = (self.ctx, self.mode, self.home, self.nt_left);
            let nodes = par_map(&moves, |&d| {
                let mut s = Searcher::<G>::new(ctx, mode, home);
                s.nt_left = nt_left;
                s.defence_node(q, d, b, &threat, opts)
            });
            node.replies.extend(nodes.into_iter().flatten());
        } else {
            for &d in &moves {
                if self.ctx.is_stopped() {
                    break;
                }
                node.replies.extend(self.defence_node(q, d, b, &threat, opts));
            }
        }
        self.give(moves);
        self.nt_left += cost;
    }

    /// The node of defence `d` from `q` in a solution's tree (`b` the attacker's budget after
    /// it), or `None` when it is not shown: a refutation, or answered by the threat alone.
    fn defence_node(&mut self, q: &G, d: G::Move, b: u32, threat: &Threat, opts: &SolveOptions) -> Option<Node> {
        if self.ctx.is_stopped() {
            return None;
        }
        let r = q.play(d);
        // The play after the defence is built only once the defence is known to be shown:
        // most defences do not defend against the threat.
        let replies = match self.mode {
            Mode::Direct => {
                if self.ctx.goal_is_end && self.goal(q, d, &r) {
                    return None; // `GoalIsEnd`: the defender ends play, a refutation
                }
                let len = self.att_len(&r, b);
                if len == 0 || self.no_defence(&r, len, threat) {
                    return None; // a refutation (not part of a key's tree), or no defence
                }
                self.att_nodes_of_len(&r, len, opts)
            }
            Mode::SelfPlay | Mode::Reflex | Mode::SemiReflex => {
                if self.goal(q, d, &r) && !self.early_goal_ok(b) {
                    return None; // exact play: the goal too early refutes
                }
                if threat.reflex_forced {
                    if !self.goal(q, d, &r) {
                        return None;
                    }
                    Vec::new()
                } else if self.goal(q, d, &r) {
                    // The defender reaches the goal before the attacker has played all its
                    // moves: a short line, which Popeye does not show after the key (but
                    // with `MatesIn1`).
                    if b > 1 && !opts.mates_in_1 {
                        return None;
                    }
                    Vec::new()
                } else {
                    if b <= 1 {
                        return None;
                    }
                    let len = self.att_len(&r, b - 1);
                    if len == 0 || self.no_defence(&r, len, threat) {
                        return None;
                    }
                    self.att_nodes_of_len(&r, len, opts)
                }
            }
        };
        let mut dn = Node::new(q.move_text_in(d, Lang::En, self.ctx.notation), self.node_mark(q, d, &r, false), Role::Defence);
        dn.replies = replies;
        Some(dn)
    }

    /// Whether the side to move in `q` has moves and every one of them reaches the goal.
    fn all_moves_reach_goal(&mut self, q: &G) -> bool {
        let moves = self.moves(q);
        let all = !moves.is_empty() && moves.iter().all(|&d| q.move_reaches_goal(d, self.goal));
        self.give(moves);
        all
    }

    /// Whether the threat still works after a defence (attacker to move in `r`): each of the
    /// threat's first moves still reaches the goal within the threat's length. Such a move
    /// does not defend, and Popeye leaves it out of the solution, even where it allows a
    /// shorter win than the threat; a move that stops one of several threats is shown.
    fn threat_works(&mut self, r: &G, threat: &Threat) -> bool {
        if threat.len == 0 || threat.moves.is_empty() {
            return false;
        }
        let moves = self.moves(r);
        let mut works = true;
        for t in &threat.moves {
            let found = moves.iter().find(|&&m| same_move(&r.move_text_in(m, Lang::En, self.ctx.notation), t)).copied();
            if !found.is_some_and(|m| self.solves(r, m, threat.len)) {
                works = false;
                break;
            }
        }
        self.give(moves);
        works
    }
}

impl<G: Game> Searcher<'_, G> {
    /// Whether a defender's move after which the attacker wins in `len` does not defend
    /// against the threat, so that Popeye leaves it out: the attacker wins sooner than the
    /// threat, or as soon with every threat move still working.
    fn no_defence(&mut self, r: &G, len: u32, threat: &Threat) -> bool {
        threat.len > 0 && (len < threat.len || (len == threat.len && self.threat_works(r, threat)))
    }
}

/// Whether two move texts name the same move as Popeye compares a threat with the
/// continuations: from the same square to the same square, whatever the piece (after
/// Andernach's `1...Qc1*d2=w` the white queen's `Qd2-d4` is the threat `d2-d4`), the
/// conditions' effects in brackets (`f2-f3[+wRe2]` after a Parrain Circe capture is the
/// threat `f2-f3`) and whether it captures (`Sc1*e2[+bPe7]` is the threat `Sc1-e2`).
pub(crate) fn same_move(a: &str, b: &str) -> bool {
    /// The text from the first square on: the piece's letters (and a neutral's `n`) left out.
    fn from_square(s: &str) -> &str {
        let b = s.as_bytes();
        (0..b.len().saturating_sub(1)).find(|&i| b[i].is_ascii_lowercase() && b[i + 1].is_ascii_digit()).map_or(s, |i| &s[i..])
    }
    fn bare(s: &str) -> impl Iterator<Item = char> + '_ {
        let mut depth = 0;
        from_square(s)
            .chars()
            .filter(move |&c| {
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        return false;
                    }
                    _ => {}
                }
                depth == 0
            })
            .map(|c| if c == '*' { '-' } else { c })
    }
    a == b || bare(a).eq(bare(b))
}

/// The threat after an attacker's move, against which the defences are written out.
struct Threat {
    /// Its length in moves (0: none).
    len: u32,
    /// Its first moves.
    moves: Vec<String>,
    /// The defender reaches the goal at once with every move it plays: in reflex play
    /// because it can and so must, in self play because it has no other move.
    reflex_forced: bool,
}

/// Solves battle play from `pos` (attacker to move).
/// Plies below a first move over which the work is split between threads: enough to keep
/// every thread busy when a few first moves are left, shallow enough that the tasks stay
/// large (measured on Wenda #5 and Petkov's s#4: 3 or more plies cost positions).
const SPLIT_PLIES: u32 = 2;

pub(crate) fn solve<G: Game>(ctx: &Ctx, pos: &G, stip: &Stipulation, opts: &SolveOptions) -> BattleResult {
    let mode = match stip.play {
        Play::Direct => Mode::Direct,
        Play::SelfPlay => Mode::SelfPlay,
        Play::SemiReflex => Mode::SemiReflex,
        _ => Mode::Reflex,
    };
    let n = stip.moves;
    // The side that reaches the goal: the attacker in direct play, else the defender.
    let attacker = if opts.post_key { pos.to_move().opponent() } else { pos.to_move() };
    let goal_side = ctx.goal.allows_self_check().then(|| if mode == Mode::Direct { attacker } else { attacker.opponent() });
    let wrong_side = (ctx.goal_is_end && mode != Mode::Direct).then_some(attacker);
    let home: KillerHome<G::Move> = KillerHome { killers: std::sync::Mutex::new(None), goal_side, wrong_side };
    if opts.post_key {
        // The diagram is the position after the key: the defender moves.
        let mut s = Searcher::<G>::new(ctx, mode, &home);
        let works = match mode {
            Mode::Direct => n > 1 && s.def(pos, n - 1),
            _ => s.def(pos, n),
        };
        let (mut keys, mut tries) = (Vec::new(), Vec::new());
        if mode != Mode::Direct || n > 1 {
            // Popeye marks the play after the key with `+` when the defender is in check.
            let mark = if pos.in_check() { "+" } else { "" };
            let mut node = Node::new("...".into(), mark.into(), Role::Key);
            // The diagram is after an unknown key: it reached no goal.
            s.fill_after_attack(&mut node, pos, false, n, opts, true);
            if works {
                keys.push(node);
            } else if !ctx.is_stopped() {
                // A defence refutes: Popeye shows the play all the same, each refutation
                // followed by `refutes.`; the diagram is then a try.
                node.role = Role::Try;
                node.refutations = s
                    .refutations_at(pos, s.budget_after(n), usize::MAX - 1)
                    .iter()
                    .map(|&d| {
                        Node::new(pos.move_text_in(d, Lang::En, ctx.notation), s.node_mark(pos, d, &pos.play(d), false), Role::Refutation)
                    })
                    .collect();
                tries.push(node);
            }
        }
        return BattleResult { keys, tries, set_play: Vec::new() };
    }
    let mut first = Vec::new();
    pos.moves(&mut first);
    if goal_side == Some(pos.to_move()) {
        add_self_check_goal_moves(pos, ctx.goal, &mut first);
    }
    if wrong_side == Some(pos.to_move()) {
        drop_wrong_side_goal_moves(ctx, pos, &mut first);
    }
    let total = first.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    // White's own obligation in reflex play: a side that can reach the goal must.
    let root_forced = mode == Mode::Reflex && !ctx.quodlibet && first.iter().any(|&m| pos.move_reaches_goal(m, ctx.goal));
    // `MaxSolutions`: the first keys in move order; the first moves after them are not tried.
    let first_n = opts.max_solutions.map(|m| FirstN::new(m, first.len()));
    let rootf = |&(i, m): &(usize, G::Move)| {
        if first_n.as_ref().is_some_and(|f| !f.needed(i)) {
            return (None, None);
        }
        let mut s = Searcher::<G>::new(ctx, mode, &home);
        let out = if root_forced {
            // The attacker must reach the goal at once, which ends play before the
            // stipulation: no solution, and the forced moves are shown as such.
            let q = pos.play(m);
            if s.goal(pos, m, &q) {
                (None, Some(Node::new(pos.move_text_in(m, Lang::En, ctx.notation), s.node_mark(pos, m, &q, true), Role::Violation)))
            } else {
                (None, None)
            }
        } else if n == 0 {
            (None, None)
        } else if s.solves_root(pos, m, n) {
            let q = pos.play(m);
            let mut node = Node::new(pos.move_text_in(m, Lang::En, ctx.notation), s.node_mark(pos, m, &q, true), Role::Key);
            if opts.tree {
                let reached = s.goal(pos, m, &q);
                s.fill_after_attack(&mut node, &q, reached, n, opts, true);
            }
            let keep = match opts.threat {
                Some(t) if !node.zugzwang => node.threat.is_empty() || threat_depth(&node) <= t,
                _ => true,
            };
            (keep.then_some(node), None)
        } else if opts.tries && !(opts.trivial_tries_avoid && pos.play(m).in_check()) {
            // (`TrivialTriesAvoid`: a first move that gives check is no try.)
            let limit = opts.defence.max(1) as usize;
            let refs = s.refutations(pos, m, n, limit);
            if !refs.is_empty() && refs.len() <= limit && !ctx.is_stopped() {
                let q = pos.play(m);
                let mut node = Node::new(pos.move_text_in(m, Lang::En, ctx.notation), s.node_mark(pos, m, &q, true), Role::Try);
                if opts.tree {
                    let reached = s.goal(pos, m, &q);
                    s.fill_after_attack(&mut node, &q, reached, n, opts, true);
                }
                node.refutations = refs
                    .iter()
                    .map(|&d| Node::new(q.move_text_in(d, Lang::En, ctx.notation), s.node_mark(&q, d, &q.play(d), false), Role::Refutation))
                    .collect();
                (None, Some(node))
            } else {
                (None, None)
            }
        } else {
            (None, None)
        };
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(p) = &opts.progress {
            p.update(d, total, n);
        }
        if let Some(f) = &first_n {
            f.finished(i, usize::from(out.0.is_some()));
        }
        out
    };
    let items: Vec<(usize, G::Move)> = first.iter().copied().enumerate().collect();
    let results: Vec<(Option<Node>, Option<Node>)> = par_map_ordered(&items, rootf);
    let mut keys = Vec::new();
    let mut tries = Vec::new();
    for (i, (k, t)) in results.into_iter().enumerate() {
        if first_n.as_ref().is_some_and(|f| !f.needed(i)) {
            break;
        }
        keys.extend(k);
        tries.extend(t);
    }
    if let Some(m) = opts.max_solutions {
        keys.truncate(m);
    }
    let mut set_play = Vec::new();
    if opts.set_play && !pos.in_check() {
        let t = pos.pass();
        let mut s = Searcher::<G>::new(ctx, mode, &home);
        let moves = s.moves(&t);
        let forced = mode.defender_bound() && moves.iter().any(|&d| t.move_reaches_goal(d, ctx.goal));
        // Self play: a set move that reaches the goal at once is a short line, which Popeye
        // shows only in `s#1`, where every set move reaches the goal, or with `MatesIn1`.
        let all_goal = mode == Mode::SelfPlay && n > 1 && !opts.mates_in_1 && s.all_moves_reach_goal(&t);
        for &d in &moves {
            let r = t.play(d);
            let mut dn = Node::new(t.move_text_in(d, Lang::En, ctx.notation), s.node_mark(&t, d, &r, false), Role::Set);
            let shown = match mode {
                Mode::Direct => {
                    if n > 1 {
                        let (len, cont) = s.att_nodes(&r, n - 1, opts);
                        dn.replies = cont;
                        len > 0
                    } else {
                        false
                    }
                }
                _ => {
                    if r.goal_reached_by(&t, d, ctx.goal) {
                        // In reflex play the defender must take it, and it is shown.
                        mode != Mode::SelfPlay || n <= 1 || opts.mates_in_1 || all_goal
                    } else if forced || n <= 1 {
                        false
                    } else {
                        let (len, cont) = s.att_nodes(&r, n - 1, opts);
                        dn.replies = cont;
                        len > 0
                    }
                }
            };
            if shown {
                set_play.push(dn);
            }
        }
    }
    BattleResult { keys, tries, set_play }
}

/// Length in moves of a node's threat (1 + deepest attacker continuation chain).
fn threat_depth(node: &Node) -> u32 {
    fn depth(n: &Node) -> u32 {
        1 + n.replies.iter().flat_map(|d| d.replies.iter()).map(depth).max().unwrap_or(0)
    }
    node.threat.iter().map(depth).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_slots_stay_in_the_table_and_spread() {
        let mut used = vec![false; HISTORY_SLOTS];
        for from in 0..64u8 {
            for to in 0..64u8 {
                let s = move_slot(&(from, to));
                assert!(s < HISTORY_SLOTS);
                used[s] = true;
            }
        }
        // 4 096 moves over 1 024 slots: a hasher that kept only a few bits would leave most
        // slots empty.
        assert!(used.iter().filter(|&&u| u).count() > HISTORY_SLOTS * 9 / 10);
    }

    #[test]
    fn history_orders_best_first_and_keeps_ties_in_order() {
        let mut history = vec![0u32; HISTORY_SLOTS];
        let moves: Vec<(u8, u8)> = (0..40).map(|i| (i, i + 8)).collect();
        history[move_slot(&moves[30])] = 9;
        history[move_slot(&moves[7])] = 4;
        let mut ordered = moves.clone();
        order_by_history(&history, &mut ordered);
        assert_eq!(ordered[0], moves[30]);
        assert_eq!(ordered[1], moves[7]);
        let rest: Vec<_> = moves.iter().filter(|&&m| m != moves[30] && m != moves[7]).copied().collect();
        // (Moves that share a slot with a scored one move up with it; none does here.)
        assert_eq!(&ordered[2..], &rest[..]);
    }

    #[test]
    fn threat_moves_are_compared_by_their_squares() {
        // Popeye's comparison: the squares, whatever the piece, the capture or the effects.
        assert!(same_move("Qd2-d4", "d2-d4"));
        assert!(same_move("Sc1*e2[+bPe7]", "Sc1-e2"));
        assert!(same_move("f2-f3[+wRe2]", "f2-f3"));
        assert!(same_move("nKa4-a5", "Ka4-a5"));
        assert!(!same_move("Qd2-d3", "d2-d4"));
        assert!(!same_move("e7-e8=Q", "e7-e8=R"));
        assert!(same_move("0-0", "0-0"));
        assert!(!same_move("0-0", "0-0-0"));
    }
}
