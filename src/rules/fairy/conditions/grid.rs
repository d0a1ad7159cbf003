//! Grid chess: the board is cut into 16 cells of 2×2 squares; every move must end in
//! another cell than it starts (castling: the king's move).

use super::Hooks;
use crate::piece::Color;
use crate::rules::fairy::{FMove, FPiece, FairyPosition};

/// Grid chess.
pub(crate) struct Grid;

fn cell(s: crate::geometry::Square) -> (u8, u8) {
    (s.0 % 8 / 2, s.0 / 8 / 2)
}

impl Hooks for Grid {
    fn allows(&self, _pos: &FairyPosition, _p: FPiece, _mover: Color, m: &FMove) -> bool {
        cell(m.from) != cell(m.to)
    }
    fn observation_allows(&self, from: crate::geometry::Square, to: crate::geometry::Square) -> bool {
        cell(from) != cell(to)
    }
}
