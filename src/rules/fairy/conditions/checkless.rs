//! Checkless chess (Popeye's `ChecklessChess`, German `Ohneschach`): a move that gives check is
//! illegal unless it mates. Whether it mates depends on the replies, whose checking moves are
//! in turn legal only when they mate: the test looks first for a reply that gives no check
//! (no recursion), and only when there is none at all weighs the checking replies, each by
//! the same test one level down. A chain of such forced checking replies longer than
//! [`MAX_DEPTH`] is cut: a check found that deep counts as not mating.

use super::Hooks;
use crate::rules::fairy::{FMove, FMoveList, FairyPosition};
use std::cell::Cell;

/// Checkless chess.
pub(crate) struct Checkless;

/// Deepest nesting of the mate test.
pub(crate) const MAX_DEPTH: u32 = 16;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
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
    DEPTH.with(|d| d.set(depth + 1));
    let r = !has_legal_move(after);
    DEPTH.with(|d| d.set(depth));
    r
}

impl Hooks for Checkless {
    fn legal_after(&self, _before: &FairyPosition, _m: &FMove, after: &FairyPosition) -> bool {
        !after.royal_attacked(after.side) || mates(after)
    }
}
