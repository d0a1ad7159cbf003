//! Annan chess: a piece with a friendly piece right behind it (for White one rank lower, for
//! Black one rank higher) moves, captures and checks as that piece; kings animate and are
//! animated too.

use super::Hooks;
use crate::geometry::Square;
use crate::piece::{Color, Kind};
use crate::rules::fairy::FPiece;
use crate::rules::fairy::FairyPosition;

/// Annan chess.
pub(crate) struct Annan;

impl Hooks for Annan {
    fn plain_captures(&self) -> bool {
        false
    }
    fn walk(&self, pos: &FairyPosition, s: Square, p: FPiece, mover: Color) -> Option<Kind> {
        let c = p.owner.color().unwrap_or(mover);
        let behind = match c {
            Color::White => s.0.checked_sub(8)?,
            Color::Black => Some(s.0 + 8).filter(|&b| b < 64)?,
        };
        pos.piece_at(Square(behind)).filter(|b| b.owner.moved_by(c) && b.kind != Kind::Dummy).map(|b| b.kind)
    }
}
