//! Take&Make chess: a capturing piece must at once make a move, without capturing, as the
//! piece it took would (its walk, a pawn going the victim's way) from the capture square; a
//! capture without such a move is illegal. A pawn may not make to its own first rank and
//! promotes when it makes to its last. The capture of a king needs no make (check).
//! Make&Take chess: a piece captures by first making a move, without capturing, as its
//! victim would from its own square, and then capturing the victim by its own walk from
//! there (a pawn may not make to its first rank, and nothing makes as a pawn from that
//! pawn's first rank). Popeye writes only the capture. As Popeye
//! plays it, the make may be en passant's capture (the pawn makes, then takes en passant:
//! `f6*g6 ep.`) and, when the victim is a king, castling as that king with its side's rook
//! (`0-0*e6`): so a piece on e8 may check a black king through black's rook on h8.

use super::{ExpandList, Hooks, expand_each};
use crate::geometry::{Square, Squares};
use crate::piece::{Color, Kind};
use crate::position::{castle, castle_squares};
use crate::rules::fairy::{FMove, FMoveList, FPiece, FairyPosition, Owner, RANK_1, RANK_8};
use arrayvec::ArrayVec;

/// Take&Make chess.
pub(crate) struct TakeMake;

/// Make&Take chess.
pub(crate) struct MakeTake;

/// The first and the last rank of a pawn of `c`.
fn pawn_ranks(c: Color) -> (u64, u64) {
    match c {
        Color::White => (RANK_1, RANK_8),
        Color::Black => (RANK_8, RANK_1),
    }
}

/// The colour a piece moves as: its own, or for a neutral piece the mover's (`as_victim`: the
/// colour it has when `mover` takes it).
fn color_of(p: FPiece, mover: Color, as_victim: bool) -> Color {
    p.owner.color().unwrap_or(if as_victim { mover.opponent() } else { mover })
}

/// The kinds of a set of walks (bits by [`Kind`] index).
fn kinds(mut set: u64) -> impl Iterator<Item = Kind> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let k = Kind::from_index(set.trailing_zeros() as usize);
            set &= set - 1;
            k
        })
    })
}

/// The walks (bits by [`Kind`] index) the orphan `orphan` would have on `at`, the piece on
/// `from` gone: those of the enemy pieces that attack `at`, and of enemy orphans that have
/// them, as the position's orphans have theirs.
fn orphan_walks_at(pos: &FairyPosition, from: Square, at: Square, orphan: FPiece) -> u64 {
    let mut view = *pos;
    view.take(from);
    view.take(at);
    view.put(at, orphan);
    view.orphan_walk_table()[at.index()]
}

impl Hooks for TakeMake {
    fn expand(&self, pos: &FairyPosition, p: FPiece, mover: Color, moves: &mut ExpandList) {
        let first_promo = pos.promotion_kinds().next();
        expand_each(moves, |m, moves| {
            let (Some(v), None) = (m.victim, m.rook) else {
                if !moves.is_full() {
                    moves.push(m);
                }
                return;
            };
            let Some(victim) = pos.piece_at(v) else { return };
            if victim.kind == Kind::King {
                // Check: the king is taken, no make needed.
                if !moves.is_full() {
                    moves.push(m);
                }
                return;
            }
            if m.promotion.is_some() && m.promotion != first_promo {
                return;
            }
            let occ = (pos.occupied() & !(1u64 << m.from.0) & !(1u64 << v.0)) | (1u64 << m.to.0);
            let (first, last) = pawn_ranks(color_of(p, mover, false));
            let mut makes: ArrayVec<Square, 64> = ArrayVec::new();
            let mut seen = 0u64;
            // An orphan victim lends the walks it would have on the capture square (Popeye:
            // `Kf3*g4-c8` as the black orphan that a white bishop on d1 attacks).
            let walks = if victim.kind == Kind::Orphan { orphan_walks_at(pos, m.from, m.to, victim) } else { 1u64 << victim.kind as u64 };
            for k in kinds(walks) {
                pos.walk_moves(m.to, k, color_of(victim, mover, true), occ, &mut |t, c| {
                    if c.is_none() && seen & (1u64 << t.0) == 0 && !makes.is_full() {
                        seen |= 1u64 << t.0;
                        makes.push(t);
                    }
                });
            }
            for t in makes {
                let base = FMove { to: t, promotion: None, via: Some(m.to), ..m };
                if p.is_pawn() && first & (1u64 << t.0) != 0 {
                    continue;
                }
                if p.is_pawn() && last & (1u64 << t.0) != 0 {
                    for k in pos.promotion_kinds() {
                        if !moves.is_full() {
                            moves.push(FMove { promotion: Some(k), ..base });
                        }
                    }
                } else if !moves.is_full() {
                    moves.push(base);
                }
            }
        });
    }
}

impl Hooks for MakeTake {
    fn plain_captures(&self) -> bool {
        false
    }
    fn capture_origin(&self, _pos: &FairyPosition, _from: Square, _p: FPiece, _mover: Color) -> Option<Option<Square>> {
        // Captures are made only by `extra_moves`.
        Some(None)
    }

    fn extra_moves(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color, only_victim: Option<Square>, out: &mut FMoveList) {
        let own = pos.walk_of(from, p, mover);
        let (first, last) = pawn_ranks(color_of(p, mover, false));
        let victims = match only_victim {
            Some(v) => pos.capturable(mover) & (1u64 << v.0),
            None => pos.capturable(mover),
        };
        let emit = |m: FMove, out: &mut FMoveList| {
            if p.is_pawn() && last & (1u64 << m.to.0) != 0 {
                for k in pos.promotion_kinds() {
                    pos.finish(mover, p, FMove { promotion: Some(k), ..m }, out);
                }
            } else {
                pos.finish(mover, p, m, out);
            }
        };
        let mut done: ArrayVec<(Square, Square), 128> = ArrayVec::new();
        for v in Squares(victims) {
            let Some(victim) = pos.piece_at(v) else { continue };
            let occ = pos.occupied();
            let victim_color = color_of(victim, mover, true);
            // The pawn that has just crossed `e` may be taken there, en passant, from the make
            // square (Popeye: `f6*g6 ep.`).
            let ep = pos.ep.filter(|&(_, pawn)| pawn == v && p.is_pawn() && victim.is_pawn()).map(|(e, _)| e);
            // A pawn has no move from its own first rank, nor has a piece that makes as one
            // there (Popeye).
            if victim.is_pawn() && pawn_ranks(victim_color).0 & (1u64 << from.0) != 0 {
                continue;
            }
            let mut makes: ArrayVec<Square, 64> = ArrayVec::new();
            let mut seen = 0u64;
            // An orphan victim lends the walks it would have on `from` (Popeye 4.91: the wK
            // makes like the black orphan it takes).
            let make_walks =
                if victim.kind == Kind::Orphan { orphan_walks_at(pos, from, from, victim) } else { 1u64 << victim.kind as u64 };
            for k in kinds(make_walks) {
                pos.walk_moves(from, k, victim_color, occ, &mut |t, c| {
                    if c.is_none() && seen & (1u64 << t.0) == 0 && !makes.is_full() {
                        seen |= 1u64 << t.0;
                        makes.push(t);
                    }
                });
            }
            for s1 in makes {
                if p.is_pawn() && first & (1u64 << s1.0) != 0 {
                    continue;
                }
                let occ1 = (occ & !(1u64 << from.0)) | (1u64 << s1.0);
                let mut hits: ArrayVec<Square, 8> = ArrayVec::new();
                // An orphan takes with the walks it has on the make square.
                let take_walks = if own == Kind::Orphan { orphan_walks_at(pos, from, s1, p) } else { 1u64 << own as u64 };
                for k in kinds(take_walks) {
                    pos.walk_moves(s1, k, mover, occ1 | ep.map_or(0, |e| 1u64 << e.0), &mut |t, c| {
                        if (c == Some(v) || (c == Some(t) && Some(t) == ep)) && !hits.contains(&t) && !hits.is_full() {
                            hits.push(t);
                        }
                    });
                }
                for t in hits {
                    if done.contains(&(t, v)) || done.is_full() {
                        continue;
                    }
                    done.push((t, v));
                    emit(FMove { from, to: t, victim: Some(v), promotion: None, rook: None, via: Some(s1), reborn: None }, out);
                }
            }
            if victim.kind == Kind::King {
                self.castling_makes(pos, from, v, victim_color, own, mover, &emit, out);
            }
        }
    }
}

impl MakeTake {
    /// The captures of the king on `v` (of colour `c`) whose make is castling: the piece on
    /// `from`, that king's initial square, castles as that king with a rook of its side that
    /// has stood in its corner since the diagram, then takes from the king's castling square
    /// by its own walk `own` (the rook moved). Popeye asks no more: neither the squares the
    /// "king" crosses nor what stood on its square before.
    #[allow(clippy::too_many_arguments)]
    fn castling_makes(
        &self,
        pos: &FairyPosition,
        from: Square,
        v: Square,
        c: Color,
        own: Kind,
        mover: Color,
        emit: &impl Fn(FMove, &mut FMoveList),
        out: &mut FMoveList,
    ) {
        let (home, wings) = match c {
            Color::White => (Square(4), [(castle::WK, Square(7)), (castle::WQ, Square(0))]),
            Color::Black => (Square(60), [(castle::BK, Square(63)), (castle::BQ, Square(56))]),
        };
        if from != home {
            return;
        }
        let occ = pos.occupied();
        for (bit, rook) in wings {
            if pos.corner_rooks & bit == 0 || pos.piece_at(rook) != Some(FPiece::new(Owner::of(c), Kind::Rook)) {
                continue;
            }
            let (lo, hi) = if rook.0 > from.0 { (from.0 + 1, rook.0) } else { (rook.0 + 1, from.0) };
            if (lo..hi).any(|s| (occ | pos.holes) & (1u64 << s) != 0) {
                continue;
            }
            let (s1, rto) = castle_squares(from, rook);
            let occ1 = (occ & !(1u64 << from.0) & !(1u64 << rook.0)) | (1u64 << s1.0) | (1u64 << rto.0);
            let mut hit = false;
            pos.walk_moves(s1, own, mover, occ1, &mut |_, x| hit |= x == Some(v));
            if hit {
                emit(FMove { from, to: v, victim: Some(v), promotion: None, rook: Some(rook), via: Some(s1), reborn: None }, out);
            }
        }
    }
}
