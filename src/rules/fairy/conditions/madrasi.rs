//! Madrasi: a piece observed by an enemy piece of the same kind is paralysed: it neither
//! moves, captures nor gives check, but it still paralyses. Kings only with `RexInclusive`.

use super::Hooks;
use crate::geometry::{Square, Squares};
use crate::piece::Kind;
use crate::rules::fairy::{FPiece, FairyPosition, Owner};

/// Madrasi.
pub(crate) struct Madrasi {
    /// Kings included.
    pub rex: bool,
}

/// Whether the piece `p` on `s` is observed by an enemy piece of its own kind.
pub(crate) fn observed_by_twin(pos: &FairyPosition, s: Square, p: FPiece) -> bool {
    let enemies = match p.owner {
        Owner::White => pos.occ[1] | pos.occ[2],
        Owner::Black => pos.occ[0] | pos.occ[2],
        Owner::Neutral => pos.occ[0] | pos.occ[1],
    };
    // Of one kind: of one walk, as the pieces move (Annan: a pawn below a knight is a knight).
    let walk = |at: Square, q: FPiece| pos.walk_of(at, q, q.owner.color().unwrap_or(pos.side));
    let own = walk(s, p);
    Squares(enemies).any(|e| pos.board[e.index()].is_some_and(|q| walk(e, q) == own && pos.observes(e, q, s)))
}

impl Hooks for Madrasi {
    fn paralysed(&self, pos: &FairyPosition, s: Square, p: FPiece) -> bool {
        if p.kind == Kind::King && !self.rex {
            return false;
        }
        observed_by_twin(pos, s, p)
    }
}
