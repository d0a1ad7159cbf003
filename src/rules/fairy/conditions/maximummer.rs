//! Maximummer: the side must choose among its legal moves one of the longest, the length of
//! a move being the Euclidean distance from its start to its end (castling: the king's and
//! the rook's steps added, see [`length2`]).

use super::Hooks;
use crate::piece::Color;
use crate::rules::fairy::{FMove, FMoveList, FairyPosition};

/// Maximummer for one side.
pub(crate) struct Maximummer(pub Color);

/// The squared length of a move. Castling counts the king's and the rook's paths together,
/// as one line: (2 + 2)² = 16 for `0-0`, (2 + 3)² = 25 for `0-0-0` (Popeye's measure, found
/// by letting its Maximummer choose between castling and rook moves of 9, 16 and 25).
pub(crate) fn length2(m: &FMove) -> i32 {
    let file = |s: crate::geometry::Square| (s.0 % 8) as i32;
    if let Some(rook) = m.rook
        && m.victim.is_none()
    {
        let king = (file(m.to) - file(m.from)).abs();
        let rook_to = (file(m.from) + file(m.to)) / 2;
        let d = king + (rook_to - file(rook)).abs();
        return d * d;
    }
    let (df, dr) = (file(m.to) - file(m.from), (m.to.0 / 8) as i32 - (m.from.0 / 8) as i32);
    df * df + dr * dr
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
