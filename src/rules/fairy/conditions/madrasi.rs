//! Madrasi: a piece observed by an enemy piece of the same kind is paralysed: it neither
//! moves, captures nor gives check, but it still paralyses. Kings only with `RexInclusive`.
//! A pawn that has just made its double step is observed by the enemy pawns that could take
//! it en passant.

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
    if !pos.conditions.any(super::prop::LENDS_WALKS) {
        // Every piece moves by its own walk: the enemies of its kind, asked first.
        let twin = |e: Square| pos.board[e.index()].is_some_and(|q| q.kind == p.kind && pos.observes(e, q, s));
        if let Some(near) = twin_squares(pos, s, p) {
            return Squares(enemies & near).any(twin);
        }
        return Squares(enemies).any(twin);
    }
    // Of one kind: of one walk, as the pieces move (Annan: a pawn below a knight is a knight).
    let walk = |at: Square, q: FPiece| pos.walk_of(at, q, q.owner.color().unwrap_or(pos.side));
    let own = walk(s, p);
    Squares(enemies).any(|e| pos.board[e.index()].is_some_and(|q| walk(e, q) == own && pos.observes(e, q, s)))
}

/// The squares from which an enemy piece of `p`'s kind could observe `s` at all, when a
/// table tells them (`None` otherwise): for a piece whose captures are symmetric (the king,
/// the knight, the riders of the chess tables and their compounds), the squares it reaches
/// from `s` itself; for a pawn, those from which an enemy pawn takes on `s`. Only a
/// prefilter: each piece found is still asked [`FairyPosition::observes`]. It does not hold
/// where a condition moves the square a piece captures from (Mars Circe), nor for neutral
/// pieces (whose pawns go either way).
fn twin_squares(pos: &FairyPosition, s: Square, p: FPiece) -> Option<u64> {
    let colour = p.owner.color()?;
    if pos.occ[2] != 0 || !pos.observes_from_own_square() {
        return None;
    }
    if p.kind == Kind::Pawn {
        return Some(crate::rules::chess::pawn_attacks(colour, s));
    }
    pos.fast_attacks(s, p.kind, pos.occupied())
}

/// Whether the pawn `p` on `s`, which has just made its double step, is observed by an enemy
/// pawn of its walk that could take it en passant (Popeye's 4_63_to_4_65.inp #25: after
/// `1.d2-d4` the black pawn on e4 paralyses d4).
fn observed_en_passant(pos: &FairyPosition, s: Square, p: FPiece) -> bool {
    let Some((e, v)) = pos.ep else { return false };
    if v != s || !p.is_pawn() {
        return false;
    }
    let walk = |at: Square, q: FPiece| pos.walk_of(at, q, q.owner.color().unwrap_or(pos.side));
    let own = walk(s, p);
    let enemies = match p.owner {
        Owner::White => pos.occ[1] | pos.occ[2],
        Owner::Black => pos.occ[0] | pos.occ[2],
        Owner::Neutral => pos.occ[0] | pos.occ[1],
    };
    Squares(enemies & !(1u64 << s.0)).any(|t| {
        pos.board[t.index()].is_some_and(|q| {
            let k = walk(t, q);
            // A pawn that takes as a pawn (Annan may lend it another walk).
            FPiece::new(q.owner, k).is_pawn() && k == own && {
                let mover = q.owner.color().unwrap_or(pos.side);
                let mut hit = false;
                pos.walk_moves(t, k, mover, pos.occupied() | (1u64 << e.0), &mut |to, victim| {
                    hit |= to == e && victim == Some(e);
                });
                hit
            }
        })
    })
}

impl Hooks for Madrasi {
    fn paralysed(&self, pos: &FairyPosition, s: Square, p: FPiece) -> bool {
        if p.kind == Kind::King && !self.rex {
            return false;
        }
        observed_by_twin(pos, s, p) || observed_en_passant(pos, s, p)
    }
}
