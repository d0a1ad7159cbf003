//! KoeKo: every move ends with the moved piece next to some piece (castling: the king, next
//! to its rook or another piece). So a king is in check only from a capture after which the
//! capturer touches a piece. A piece reborn by the move (Circe) counts where it is reborn.

use super::{Hooks, Rebirth};
use crate::piece::{Color, Kind};
use crate::rules::fairy::{FMove, FPiece, FairyPosition, fr, sq};

/// KoeKo.
pub(crate) struct KoeKo;

/// The squares next to `s`.
pub(crate) fn neighbours(s: crate::geometry::Square) -> u64 {
    let (f, r) = fr(s);
    let mut b = 0;
    for df in -1..=1 {
        for dr in -1..=1 {
            if (df, dr) != (0, 0)
                && let Some(t) = sq(f + df, r + dr)
            {
                b |= 1u64 << t.0;
            }
        }
    }
    b
}

impl Hooks for KoeKo {
    fn allows(&self, pos: &FairyPosition, _p: FPiece, _mover: Color, m: &FMove) -> bool {
        let mut occ = pos.occupied() & !(1u64 << m.from.0);
        if let Some(v) = m.victim {
            occ &= !(1u64 << v.0);
        }
        if let Some(rook) = m.rook {
            let (_, rto) = crate::position::castle_squares(m.from, rook);
            occ = (occ & !(1u64 << rook.0)) | (1u64 << rto.0);
        }
        if occ & neighbours(m.to) != 0 {
            return true;
        }
        // A piece reborn by the move (Circe: the victim; Parrain Circe: the piece waiting)
        // stands there once the move is made, and counts (Popeye's 4_61_to_4_63.inp #29:
        // `CAa6*d7[+bKe8]` under Circe RexInclusive).
        let reborn = match pos.conditions.rebirth() {
            // A king is reborn only under RexInclusive (its capture, a check, is otherwise
            // tested as it stands: `ep.inp` #8).
            Some(Rebirth::Circe { rex }) => m.victim.is_some_and(|v| rex || pos.piece_at(v).is_some_and(|p| p.kind != Kind::King)),
            Some(Rebirth::Parrain) => pos.pending.is_some(),
            _ => false,
        };
        reborn && {
            let after = pos.make_move_unkeyed(*m);
            after.piece_at(m.to).is_some() && after.occupied() & !(1u64 << m.to.0) & neighbours(m.to) != 0
        }
    }
}
