//! Haaner chess: the square a piece leaves becomes a hole (castling: the king's and the
//! rook's squares; en passant: the taken pawn's square too). Holes are neither entered nor
//! crossed.

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
        // En passant: the square of the pawn taken becomes a hole too (Popeye's
        // 4_73_to_4_75.inp #4: after `2.g4*f3 ep.` the bishop may not go to f4).
        if let Some(v) = m.victim
            && v != m.to
            && m.via.is_none()
            && after.piece_at(v).is_none()
        {
            after.holes |= 1u64 << v.0;
        }
    }
}
