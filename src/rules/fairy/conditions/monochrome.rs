//! Monochrome chess (every move ends on a square of the colour it starts on) and Bichrome
//! chess (every move changes the colour). Castling obeys it with both its king's and its
//! rook's move.

use super::Hooks;
use crate::geometry::Square;
use crate::piece::Color;
use crate::rules::fairy::{FMove, FPiece, FairyPosition};

/// Monochrome (`same`) or Bichrome chess.
pub(crate) struct Chrome {
    /// Whether a move must keep the colour (Monochrome) or change it (Bichrome).
    pub same: bool,
}

fn light(s: Square) -> bool {
    (s.0 % 8 + s.0 / 8) % 2 == 1
}

impl Hooks for Chrome {
    fn allows(&self, _pos: &FairyPosition, _p: FPiece, _mover: Color, m: &FMove) -> bool {
        let ok = |a: Square, b: Square| (light(a) == light(b)) == self.same;
        if let Some(rook) = m.rook {
            let (_, rto) = crate::position::castle_squares(m.from, rook);
            return ok(m.from, m.to) && ok(rook, rto);
        }
        ok(m.from, m.to)
    }
    fn observation_allows(&self, from: Square, to: Square) -> bool {
        (light(from) == light(to)) == self.same
    }
}
