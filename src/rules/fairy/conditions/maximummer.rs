//! Maximummer: the side must choose among its legal moves one of the longest, the length of
//! a move being the Euclidean distance from its start to its end (castling: at least the
//! king's two steps, counted as 4 squared).

use super::Hooks;
use crate::piece::Color;
use crate::rules::fairy::{FMove, FMoveList, FairyPosition};

/// Maximummer for one side.
pub(crate) struct Maximummer(pub Color);

/// The squared length of a move.
pub(crate) fn length2(m: &FMove) -> i32 {
    let (df, dr) = ((m.to.0 % 8) as i32 - (m.from.0 % 8) as i32, (m.to.0 / 8) as i32 - (m.from.0 / 8) as i32);
    let d = df * df + dr * dr;
    if m.rook.is_some() { d.max(4) } else { d }
}

impl Hooks for Maximummer {
    fn choose(&self, pos: &FairyPosition, moves: &mut FMoveList) {
        if pos.side != self.0 {
            return;
        }
        let Some(best) = moves.iter().map(length2).max() else { return };
        moves.retain(|m| length2(m) == best);
    }
}
