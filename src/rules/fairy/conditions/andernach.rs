//! Andernach chess (a capturing piece other than a king changes colour) and Anti-Andernach
//! chess (a piece other than a king that moves without capturing changes colour). A neutral
//! piece stays neutral; a castling move changes nothing.

use super::Hooks;
use crate::piece::Kind;
use crate::rules::fairy::{FMove, FairyPosition};

/// Andernach (`on_capture`) or Anti-Andernach chess.
pub(crate) struct Andernach {
    /// Whether captures (Andernach) or non-captures (Anti-Andernach) change the colour.
    pub on_capture: bool,
}

impl Hooks for Andernach {
    fn after(&self, _before: &FairyPosition, m: &FMove, after: &mut FairyPosition) {
        if m.is_castling() || m.is_capture() != self.on_capture {
            return;
        }
        if let Some(p) = after.piece_at(m.to)
            && p.kind != Kind::King
            && let Some(mut q) = after.take(m.to)
        {
            q.owner = q.owner.flipped();
            after.put(m.to, q);
        }
    }

    fn note(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition, out: &mut String) {
        if let Some(b) = before.piece_at(m.from)
            && !m.is_castling()
            && m.is_capture() == self.on_capture
            && b.kind != Kind::King
            && b.owner != crate::rules::fairy::Owner::Neutral
            // A capturer Anticirce took elsewhere has its change written with its rebirth.
            && after.piece_at(m.to).is_some_and(|a| a.owner != b.owner)
        {
            out.push('=');
            out.push(b.owner.flipped().letter());
        }
    }
}
