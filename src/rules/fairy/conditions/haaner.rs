//! Haaner chess: the square a piece leaves becomes a hole (castling: the king's and the
//! rook's squares). Holes are neither entered nor crossed.

use super::Hooks;
use crate::rules::fairy::{FMove, FairyPosition};

/// Haaner chess.
pub(crate) struct Haaner;

impl Hooks for Haaner {
    fn after(&self, _before: &FairyPosition, m: &FMove, after: &mut FairyPosition) {
        after.holes |= 1u64 << m.from.0;
        if let Some(rook) = m.rook {
            after.holes |= 1u64 << rook.0;
        }
    }
}
