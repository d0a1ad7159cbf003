//! Checkless chess (Popeye's `ChecklessChess`, German `Ohneschach`): a move that gives check is
//! illegal unless it mates. Whether it mates depends on the replies, whose checking moves are
//! in turn legal only when they mate: the test looks first for a reply that gives no check
//! (no recursion), and only when there is none at all weighs the checking replies, each by
//! the same test one level down. A chain of such forced checking replies longer than
//! [`MAX_DEPTH`] is cut: a check found that deep counts as not mating.
//!
//! Chains of forced checks can cycle (a piece captures and is reborn, checks, and the first
//! position returns), so the nested tests are kept by position and depth in a small table for
//! the duration of one outermost test: each position is weighed once per depth, and the chain
//! costs the positions it visits rather than every path through them.

use super::Hooks;
use crate::rules::fairy::{FMove, FMoveList, FairyPosition};
use std::cell::Cell;

/// Checkless chess.
pub(crate) struct Checkless;

/// Deepest nesting of the mate test.
pub(crate) const MAX_DEPTH: u32 = 16;

/// Entries of the table of nested mate tests (a power of two).
const MEMO_SIZE: usize = 1024;

/// One nested mate test: the position's key mixed with its depth, the outermost test it
/// belongs to, and its answer.
#[derive(Clone, Copy)]
struct Memo {
    key: u64,
    round: u32,
    mates: bool,
}

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// Counts the outermost tests: entries of an earlier one are stale.
    static ROUND: Cell<u32> = const { Cell::new(0) };
    static MEMO: std::cell::RefCell<Vec<Memo>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether the side to move in `pos` has a legal move: any legal move that gives no check
/// first, then the checking ones (legal only if they mate).
fn has_legal_move(pos: &FairyPosition) -> bool {
    let us = pos.side;
    let mut pseudo = FMoveList::new();
    // The legal checking moves, weighed after every other move has been tried.
    let mut checking = FMoveList::new();
    // A piece at a time, the king's first: the first legal move that gives no check answers.
    for group in pos.piece_groups(us) {
        pseudo.clear();
        pos.pseudo_moves_of(us, group, &mut pseudo);
        for &m in pseudo.iter() {
            let q = pos.make_move_unkeyed(m);
            if q.royal_attacked(us) {
                continue;
            }
            let others = pos.conditions.iter().filter(|c| !matches!(c, super::Condition::Checkless)).all(|c| c.legal_after(pos, &m, &q));
            if !others {
                continue;
            }
            if !q.royal_attacked(q.side) {
                return true;
            }
            if !checking.is_full() {
                checking.push(m);
            }
        }
    }
    checking.iter().any(|&m| mates(&pos.make_move_unkeyed(m)))
}

/// Whether `after` (the side to move being in check) is mate under checkless rules.
fn mates(after: &FairyPosition) -> bool {
    let depth = DEPTH.with(|d| d.get());
    if depth >= MAX_DEPTH {
        return false;
    }
    // The outermost test answers directly (it is met on every checking move, and its
    // position is not repeated below); a nested one is looked up first.
    let key = if depth == 0 {
        ROUND.with(|r| r.set(r.get().wrapping_add(1)));
        None
    } else {
        Some(after.compute_hash() ^ (depth as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    };
    let round = ROUND.with(|r| r.get());
    if let Some(key) = key {
        let hit =
            MEMO.with(|m| m.borrow().get(key as usize & (MEMO_SIZE - 1)).filter(|e| e.key == key && e.round == round).map(|e| e.mates));
        if let Some(r) = hit {
            return r;
        }
    }
    DEPTH.with(|d| d.set(depth + 1));
    let r = !has_legal_move(after);
    DEPTH.with(|d| d.set(depth));
    if let Some(key) = key {
        MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.is_empty() {
                m.resize(MEMO_SIZE, Memo { key: 0, round: 0, mates: false });
            }
            m[key as usize & (MEMO_SIZE - 1)] = Memo { key, round, mates: r };
        });
    }
    r
}

impl Hooks for Checkless {
    fn legal_after(&self, _before: &FairyPosition, _m: &FMove, after: &FairyPosition) -> bool {
        !after.royal_attacked(after.side) || mates(after)
    }
}
