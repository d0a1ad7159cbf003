//! Patrol chess (Popeye's `Patrouille`): a piece captures, and so gives check, only when a
//! friendly piece observes it. A neutral piece is the friend of the side that moves.

use super::Hooks;
use crate::geometry::{Square, Squares};
use crate::piece::Color;
use crate::rules::fairy::{FPiece, FairyPosition};

/// Patrol chess.
pub(crate) struct Patrol;

/// Whether a piece that `mover` may move observes the square `s` (holding `p`).
pub(crate) fn guarded(pos: &FairyPosition, s: Square, mover: Color) -> bool {
    Squares(pos.movable(mover) & !(1u64 << s.0)).any(|f| pos.piece_at(f).is_some_and(|q| pos.observes_for(f, q, s, mover)))
}

impl Hooks for Patrol {
    fn may_capture(&self, pos: &FairyPosition, from: Square, _p: FPiece, mover: Color) -> bool {
        guarded(pos, from, mover)
    }
}
