//! The Circe family: Circe (the captured piece is reborn), AntiCirce (the capturing piece is
//! reborn), MarsCirce (a piece captures from its rebirth square) and ParrainCirce (the
//! captured piece is reborn after the next move, shifted by it).
//!
//! Circe Take&Make and AntiCirce Take&Make (Popeye's `Take&Make` option of the family): the
//! captured piece (Circe) or the capturing piece (AntiCirce, after its promotion) is reborn
//! by a move from the capture square, without capturing, with its own walk and a pawn going
//! the captured side's way (the capturer's pawn backwards); a pawn reborn on its last rank
//! is promoted, each kind a move. A capture with no such move is illegal, except a king's
//! under Circe (kings are not reborn: check is as in chess); under AntiCirce the capture of
//! a king needs the move too. Each rebirth square is a move ([`FMove::via`]): Popeye writes
//! `Qe6*c4[+bPc3]` and `d4*e5[wPe5->e4]`.
//!
//! Rebirth squares ([`rebirth_square`]): a king on e1/e8, a queen on d1/d8, a rook, bishop
//! or knight on its game-array square of the colour of the capture square, a pawn on its
//! second rank in the capture file, a fairy piece on its promotion rank in the capture file;
//! a promoted piece as what it is now. The capture square of a locust is its victim's square.

use super::{ExpandList, Hooks, expand_each};
use crate::geometry::Square;
use crate::piece::{Color, Kind};
use crate::position::sq_name;
use crate::rules::fairy::{FMove, FPiece, FairyPosition};

/// A rebirth rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rebirth {
    /// Circe: the captured piece is reborn on its rebirth square if it is empty, else lost.
    Circe {
        /// `RexInclusive`: kings are reborn too, so a king is in check only when its
        /// rebirth square is taken.
        rex: bool,
    },
    /// AntiCirce: the capturing piece is reborn on its rebirth square; a capture is
    /// illegal when that square is taken.
    Anti {
        /// Cheylan type: a capture on the capturer's own rebirth square is illegal (Calvet,
        /// the default, allows it).
        cheylan: bool,
    },
    /// MarsCirce: a piece captures from its rebirth square (when empty, or when it stands
    /// there), as if it stood there.
    Mars,
    /// ParrainCirce: the captured piece is reborn after the next move, on its capture square
    /// shifted by that move.
    Parrain,
    /// Circe Take&Make: the captured piece is reborn by a move of its own from the capture
    /// square (kings are not reborn).
    CirceTakeMake,
    /// AntiCirce Take&Make: the capturing piece is reborn by a move of its own from the
    /// capture square, a pawn going the captured side's way (kings too).
    AntiTakeMake,
}

impl Rebirth {
    /// Popeye's name.
    pub fn name(&self) -> String {
        match self {
            Rebirth::Circe { rex: false } => "Circe".into(),
            Rebirth::Circe { rex: true } => "Circe RexInclusive".into(),
            Rebirth::Anti { cheylan: false } => "AntiCirce".into(),
            Rebirth::Anti { cheylan: true } => "AntiCirce Cheylan".into(),
            Rebirth::Mars => "MarsCirce".into(),
            Rebirth::Parrain => "ParrainCirce".into(),
            Rebirth::CirceTakeMake => "Circe Take&Make".into(),
            Rebirth::AntiTakeMake => "AntiCirce Take&Make".into(),
        }
    }

    /// Whether the rebirth is a move from the capture square, chosen with the capture
    /// ([`FMove::via`] is the rebirth square).
    pub fn by_move(&self) -> bool {
        matches!(self, Rebirth::CirceTakeMake | Rebirth::AntiTakeMake)
    }
}

/// The Circe rebirth square of a piece of kind `kind` and colour `color` captured on
/// `capture`.
pub fn rebirth_square(kind: Kind, color: Color, capture: Square) -> Square {
    let file = capture.0 % 8;
    let rank = capture.0 / 8;
    let light = (file + rank) % 2 == 1;
    let base = |f: u8| match color {
        Color::White => Square(f),
        Color::Black => Square(56 + f),
    };
    match kind {
        Kind::King => base(4),
        Kind::Queen => base(3),
        // a1 and h8 are dark, h1 and a8 light.
        Kind::Rook => base(match (color, light) {
            (Color::White, true) | (Color::Black, false) => 7,
            _ => 0,
        }),
        // c1 and f8 are dark, f1 and c8 light.
        Kind::Bishop => base(match (color, light) {
            (Color::White, true) | (Color::Black, false) => 5,
            _ => 2,
        }),
        // b1 and g8 are light, g1 and b8 dark.
        Kind::Knight => base(match (color, light) {
            (Color::White, true) | (Color::Black, false) => 1,
            _ => 6,
        }),
        Kind::Pawn | Kind::BerolinaPawn => match color {
            Color::White => Square(8 + file),
            Color::Black => Square(48 + file),
        },
        _ => match color {
            Color::White => Square(56 + file),
            Color::Black => Square(file),
        },
    }
}

/// The colour a piece is reborn as: its own, or for a neutral piece the colour opposite its
/// capturer.
pub(crate) fn reborn_color(p: FPiece, capturer: Color) -> Color {
    p.owner.color().unwrap_or(capturer.opponent())
}

/// The capturing piece of `m` as it stands after the move (promoted), and its colour.
fn capturer(pos: &FairyPosition, m: &FMove) -> Option<(FPiece, Color)> {
    let p = pos.piece_at(m.from)?;
    let kind = m.promotion.unwrap_or(p.kind);
    Some((FPiece::new(p.owner, kind), p.owner.color().unwrap_or(pos.side)))
}

impl Rebirth {
    /// AntiCirce: the capturer's rebirth square for capture `m` made by `mover`.
    fn anti_square(pos: &FairyPosition, m: &FMove, mover: Color) -> Option<(FPiece, Square)> {
        let v = m.victim?;
        let (p, _) = capturer(pos, m)?;
        Some((p, rebirth_square(p.kind, p.owner.color().unwrap_or(mover), v)))
    }
}

/// Parrain Circe: the piece waiting since the last capture, and the square it is reborn on
/// after `m` (its capture square shifted by the vector of `m`; for castling, the king's), if
/// that square is on the board and free once `m` is made (`after`).
pub(crate) fn parrain_rebirth(before: &FairyPosition, m: &FMove, after: &FairyPosition) -> Option<(FPiece, Square)> {
    let (p, t) = parrain_target(before, m)?;
    (after.piece_at(t).is_none() && after.holes & (1u64 << t.0) == 0).then_some((p, t))
}

/// Parrain Circe: the waiting piece and its capture square shifted by the vector of `m`,
/// when that is on the board.
fn parrain_target(before: &FairyPosition, m: &FMove) -> Option<(FPiece, Square)> {
    let (p, s) = before.pending?;
    let to = match m.rook {
        Some(rook) if m.victim.is_none() => crate::position::castle_squares(m.from, rook).0,
        _ => m.to,
    };
    let (df, dr) = ((to.0 % 8) as i32 - (m.from.0 % 8) as i32, (to.0 / 8) as i32 - (m.from.0 / 8) as i32);
    let (f, r) = ((s.0 % 8) as i32 + df, (s.0 / 8) as i32 + dr);
    if !(0..8).contains(&f) || !(0..8).contains(&r) {
        return None;
    }
    Some((p, Square((r * 8 + f) as u8)))
}

/// Parrain Circe: whether the waiting piece is a pawn that the move `m` would bring back on
/// its last rank, where it is promoted (the mover choosing what it becomes, one move per
/// choice, as Popeye lists them: `b7-b8=Q[+wPe8=B]`).
fn parrain_promotes(before: &FairyPosition, m: &FMove) -> bool {
    let Some((p, t)) = parrain_target(before, m) else { return false };
    let last = match p.owner.color() {
        Some(Color::White) => 7,
        Some(Color::Black) => 0,
        // A neutral pawn: on the last rank of the side that moves (Popeye's
        // 4_69_to_4_71.inp #23: `Ba4-e8[+nPf8=nB]`, but `Ba4-d1[+nPe1]`).
        None => match before.side {
            Color::White => 7,
            Color::Black => 0,
        },
    };
    p.is_pawn() && t.0 / 8 == last
}

/// Circe Take&Make and AntiCirce Take&Make: each of the captures in `moves` (made by `p`)
/// becomes one move per rebirth square, and per kind when a reborn pawn is promoted; a
/// capture without a rebirth move goes. Circe: the victim moves from its square; AntiCirce:
/// the capturer (promoted) from where it landed.
fn expand_by_move(anti: bool, pos: &FairyPosition, p: FPiece, mover: Color, moves: &mut ExpandList) {
    expand_each(moves, |m, moves| {
        let (Some(v), false) = (m.victim, m.is_castling()) else {
            if !moves.is_full() {
                moves.push(m);
            }
            return;
        };
        let Some(victim) = pos.piece_at(v) else { return };
        let (reborn, at) = if anti {
            (FPiece::new(p.owner, m.promotion.unwrap_or(p.kind)), m.to)
        } else if victim.kind == Kind::King {
            // Kings are not reborn: the capture stays (check).
            if !moves.is_full() {
                moves.push(m);
            }
            return;
        } else {
            (victim, v)
        };
        // The walk goes the captured side's way.
        let color = victim.owner.color().unwrap_or(mover.opponent());
        let occ = (pos.occupied() & !(1u64 << m.from.0) & !(1u64 << v.0)) | (1u64 << m.to.0);
        let last = if color == Color::White { 7 } else { 0 };
        let mut squares = 0u64;
        pos.walk_moves(at, reborn.kind, color, occ, &mut |t, c| {
            if c.is_none() {
                squares |= 1u64 << t.0;
            }
        });
        for t in crate::geometry::Squares(squares) {
            let base = FMove { via: Some(t), ..m };
            if !anti && reborn.is_pawn() && t.0 / 8 == last {
                for k in pos.promotion_kinds() {
                    if !moves.is_full() {
                        moves.push(FMove { reborn: Some(k), ..base });
                    }
                }
            } else if !moves.is_full() {
                moves.push(base);
            }
        }
    });
}

impl Hooks for Rebirth {
    fn expand(&self, pos: &FairyPosition, p: FPiece, mover: Color, moves: &mut ExpandList) {
        if self.by_move() {
            expand_by_move(*self == Rebirth::AntiTakeMake, pos, p, mover, moves);
            return;
        }
        if *self != Rebirth::Parrain || !pos.pending.is_some_and(|(w, _)| w.is_pawn()) {
            return;
        }
        expand_each(moves, |m, moves| {
            if parrain_promotes(pos, &m) {
                for k in pos.promotion_kinds() {
                    if !moves.is_full() {
                        moves.push(FMove { reborn: Some(k), ..m });
                    }
                }
            } else if !moves.is_full() {
                moves.push(m);
            }
        });
    }

    fn legal_after(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition) -> bool {
        // A choice of promotion stands only when the pawn is indeed reborn (its square free
        // once the move is made).
        m.reborn.is_none() || *self != Rebirth::Parrain || parrain_reborn(before, m, after).is_some()
    }

    fn plain_captures(&self) -> bool {
        // Mars Circe captures from the rebirth square.
        *self != Rebirth::Mars
    }
    fn capture_origin(&self, pos: &FairyPosition, from: Square, p: FPiece, mover: Color) -> Option<Option<Square>> {
        if *self != Rebirth::Mars {
            return None;
        }
        let r = rebirth_square(p.kind, p.owner.color().unwrap_or(mover), from);
        if r == from {
            return None;
        }
        Some((pos.piece_at(r).is_none() && pos.holes & (1u64 << r.0) == 0).then_some(r))
    }

    fn allows(&self, pos: &FairyPosition, _p: FPiece, mover: Color, m: &FMove) -> bool {
        let Rebirth::Anti { cheylan } = *self else { return true };
        let Some((_, r)) = Rebirth::anti_square(pos, m, mover) else { return true };
        if r == m.to {
            return !cheylan;
        }
        if r == m.from {
            return true;
        }
        pos.piece_at(r).is_none_or(|_| m.victim == Some(r)) && pos.holes & (1u64 << r.0) == 0
    }

    fn royal_capture_counts(&self, pos: &FairyPosition, m: &FMove) -> bool {
        let Rebirth::Circe { rex: true } = *self else { return true };
        let (Some(v), Some(king)) = (m.victim, m.victim.and_then(|v| pos.piece_at(v))) else { return true };
        let mover = pos.piece_at(m.from).and_then(|p| p.owner.color()).unwrap_or(pos.side);
        let r = rebirth_square(king.kind, reborn_color(king, mover), v);
        // The king is lost only when its square is taken after the capture.
        r == m.to || (r != m.from && r != v && pos.piece_at(r).is_some()) || pos.holes & (1u64 << r.0) != 0
    }

    fn after(&self, before: &FairyPosition, m: &FMove, after: &mut FairyPosition) {
        let Some(v) = m.victim else {
            if *self == Rebirth::Parrain {
                after.pending = None;
                if let Some((p, t)) = parrain_rebirth(before, m, after) {
                    after.put(t, reborn_as(p, m));
                    after.origin[t.index()] = before.pending_origin;
                    after.reborn = Some(t);
                }
            }
            return;
        };
        let mover = before.side;
        match *self {
            Rebirth::Circe { .. } => {
                let Some(victim) = before.piece_at(v) else { return };
                let color = reborn_color(victim, mover);
                let r = rebirth_square(victim.kind, color, v);
                if after.piece_at(r).is_none() && after.holes & (1u64 << r.0) == 0 {
                    after.put(r, victim);
                    after.origin[r.index()] = before.origin[v.index()];
                    after.reborn = Some(r);
                }
            }
            Rebirth::Anti { .. } => {
                if let Some((_, r)) = Rebirth::anti_square(before, m, mover)
                    && r != m.to
                    && let Some(p) = after.take(m.to)
                {
                    after.put(r, p);
                    after.origin[r.index()] = after.origin[m.to.index()];
                }
            }
            Rebirth::Parrain => {
                // The last capture's victim, first (it is reborn after this move), then
                // this move's, which waits for the next.
                after.pending = None;
                if let Some((p, t)) = parrain_rebirth(before, m, after) {
                    after.put(t, reborn_as(p, m));
                    after.origin[t.index()] = before.pending_origin;
                    after.reborn = Some(t);
                }
                if let Some(victim) = before.piece_at(v) {
                    after.pending = Some((victim, v));
                    after.pending_origin = before.origin[v.index()];
                }
            }
            Rebirth::CirceTakeMake => {
                if let (Some(r), Some(victim)) = (m.via, before.piece_at(v)) {
                    after.put(r, m.reborn.map_or(victim, |k| FPiece::new(victim.owner, k)));
                    after.origin[r.index()] = before.origin[v.index()];
                    after.reborn = Some(r);
                }
            }
            Rebirth::AntiTakeMake => {
                if let Some(r) = m.via
                    && let Some(p) = after.take(m.to)
                {
                    after.put(r, p);
                    after.origin[r.index()] = after.origin[m.to.index()];
                }
            }
            Rebirth::Mars => {}
        }
    }

    fn note(&self, before: &FairyPosition, m: &FMove, after: &FairyPosition, out: &mut String) {
        if *self == Rebirth::Parrain {
            if let Some((p, t)) = parrain_reborn(before, m, after) {
                out.push_str(&format!("[+{}{}", piece_text(p), sq_name(t)));
                if let Some(k) = m.reborn {
                    let neutral = if p.owner == crate::rules::fairy::Owner::Neutral { "n" } else { "" };
                    out.push_str(&format!("={neutral}{}", k.code()));
                }
                out.push(']');
            }
            return;
        }
        let Some(v) = m.victim else { return };
        let mover = before.side;
        match *self {
            Rebirth::Circe { .. } => {
                let Some(victim) = before.piece_at(v) else { return };
                let r = rebirth_square(victim.kind, reborn_color(victim, mover), v);
                if r != m.to && after.piece_at(r) == Some(victim) && (before.piece_at(r).is_none() || r == m.from || r == v) {
                    out.push_str(&format!("[+{}{}]", piece_text(victim), sq_name(r)));
                }
            }
            Rebirth::Anti { .. } => {
                if let Some((p, r)) = Rebirth::anti_square(before, m, mover) {
                    let now = after.piece_at(r).unwrap_or(p);
                    // A colour change on the way (Andernach) is written after the arrival,
                    // in the bracket, the piece in its colour before: `[wSc2->b1=b]`
                    // (Popeye's 4_61_to_4_63.inp #12).
                    let shown = FPiece::new(p.owner, now.kind);
                    out.push_str(&format!("[{}{}->{}", piece_text(shown), sq_name(m.to), sq_name(r)));
                    if now.owner != p.owner {
                        out.push('=');
                        out.push(now.owner.letter());
                    }
                    out.push(']');
                }
            }
            Rebirth::CirceTakeMake => {
                if let (Some(r), Some(victim)) = (m.via, before.piece_at(v)) {
                    out.push_str(&format!("[+{}{}", piece_text(victim), sq_name(r)));
                    if let Some(k) = m.reborn {
                        out.push_str(&format!("={}", k.code()));
                    }
                    out.push(']');
                }
            }
            Rebirth::AntiTakeMake => {
                if let (Some(r), Some(now)) = (m.via, m.via.and_then(|r| after.piece_at(r))) {
                    out.push_str(&format!("[{}{}->{}]", piece_text(now), sq_name(m.to), sq_name(r)));
                }
            }
            Rebirth::Mars | Rebirth::Parrain => {}
        }
    }
}

/// Parrain Circe: the piece reborn by `m` and its square, read from the position `after`
/// the move (`None` when nothing was reborn).
fn parrain_reborn(before: &FairyPosition, m: &FMove, after: &FairyPosition) -> Option<(FPiece, Square)> {
    let (p, t) = parrain_target(before, m)?;
    (t != m.to && after.piece_at(t) == Some(reborn_as(p, m)) && (before.piece_at(t).is_none() || t == m.from || m.victim == Some(t)))
        .then_some((p, t))
}

/// The piece Parrain Circe brings back after `m`: the waiting piece, promoted when `m`
/// chose what the pawn becomes on its last rank.
fn reborn_as(p: FPiece, m: &FMove) -> FPiece {
    m.reborn.map_or(p, |k| FPiece::new(p.owner, k))
}

/// A piece as Popeye writes it inside brackets: colour letter and code (`bS`, `nP`).
pub(crate) fn piece_text(p: FPiece) -> String {
    format!("{}{}", p.owner.letter(), p.kind.code())
}
