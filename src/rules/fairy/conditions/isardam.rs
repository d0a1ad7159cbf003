//! Isardam: a move is illegal when, afterwards, two pieces of the same kind and of opposite
//! sides observe each other (the Madrasi situation never arises). Kings only with
//! `RexInclusive`. A pawn that has just made its double step is observed by the enemy pawns
//! that could take it en passant. Check is a capture of the king that is itself Isardam-legal.
//! (Popeye's `TypeB` is not played.)

use super::Hooks;
use crate::geometry::{Square, Squares};
use crate::piece::Kind;
use crate::rules::fairy::{FMove, FairyPosition};

/// Isardam.
pub(crate) struct Isardam {
    /// Kings included.
    pub rex: bool,
}

impl Isardam {
    /// Whether two enemy pieces of one kind observe each other in `pos`.
    fn clash(&self, pos: &FairyPosition) -> bool {
        for s in Squares(pos.occupied()) {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.kind == Kind::King && !self.rex {
                continue;
            }
            if super::madrasi::observed_by_twin(pos, s, p) {
                return true;
            }
        }
        // En passant: the pawn that has just double-stepped is observed by the enemy pawns
        // that could take it on the square it crossed.
        if let Some((e, v)) = pos.ep
            && let Some(vp) = pos.piece_at(v)
        {
            let takers = Squares(pos.movable(pos.side) & !(1u64 << v.0));
            for t in takers {
                if let Some(tp) = pos.piece_at(t)
                    && tp.kind == vp.kind
                    && tp.is_pawn()
                    && vp.owner.captured_by(pos.side)
                    && reaches_empty(pos, t, tp.kind, e)
                {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether a pawn of walk `k` on `from`, moved by the side to move, could capture on the empty
/// square `target`.
fn reaches_empty(pos: &FairyPosition, from: Square, k: Kind, target: Square) -> bool {
    let mut hit = false;
    pos.walk_moves(from, k, pos.side, pos.occupied() | (1u64 << target.0), &mut |t, v| {
        if v == Some(target) && t == target {
            hit = true;
        }
    });
    hit
}

impl Hooks for Isardam {
    fn legal_after(&self, _before: &FairyPosition, _m: &FMove, after: &FairyPosition) -> bool {
        !self.clash(after)
    }

    fn royal_capture_counts(&self, pos: &FairyPosition, m: &FMove) -> bool {
        let mut mover = *pos;
        if let Some(c) = pos.piece_at(m.from).and_then(|p| p.owner.color()) {
            mover.side = c;
        }
        !self.clash(&mover.make_move_unkeyed(*m))
    }
}
