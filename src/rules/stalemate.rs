//! The stalemating move: which moves can leave the opponent without a legal move, and which
//! last moves of the opponent leave it a chance to be stalemated at once.
//!
//! A stalemate needs *every* move of the opponent gone after our move. Each legal move
//! `x → y` the opponent would have if it were to move now (a *witness*) stays legal after
//! our move `a → b` unless that move touches it, in one of these ways:
//! - `b = x`: the moving piece is taken;
//! - `b` on the way: the square a pawn steps to (or crosses with its double step), or a
//!   square between `x` and `y` for a line piece (a knight or king has no way to block);
//! - `a = y` for a pawn's capture: the piece it would take goes away (any other piece still
//!   moves to `y` when it is emptied);
//! - a pin: `b` on the line from the opponent's king through `x`, beyond `x` (a line piece
//!   arriving behind `x`), or `a` anywhere on that line (leaving the way for a line piece
//!   behind `x`); a line that does not pass through `x` and opens would give check, and a
//!   check is no stalemate;
//! - for a king move, `y` attacked after our move: only the piece arriving on `b` can attack
//!   it anew (`b` on a queen line or a knight's leap from `y`, or on `y` itself), or a line
//!   opened through `a` (`a` on a queen line from `y`); a piece taken on `b` only opens lines
//!   through `b`.
//!
//! Our move may also give check; then it is no stalemate anyway, and whether it is kept
//! does not matter. So a move that fails to touch some witness is certainly no stalemate,
//! and only moves that touch every witness are kept. Castling and en passant (ours) are kept
//! without being judged; the opponent's castling is no witness (a subset of the witnesses
//! is as sound as all of them). Only orthodox pieces on both sides: a fairy piece's lines
//! are not queen lines.
//!
//! One move earlier, the opponent's own last move takes away the witnesses of the piece it
//! moves, those whose only target it fills, and those a line opened through its departure
//! square may take away (the same lines); the witnesses left must all be taken away by one
//! move of ours ([`retain_before_stalemate`]).

use crate::geometry::Square;
use crate::piece::Kind;
use crate::position::{Move, Position};
use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use arrayvec::ArrayVec;

/// The witnesses kept; a position with more keeps the first ones, which is still sound.
const WITNESSES: usize = 32;

/// A move of the opponent (or all the moves of one of its pieces) that must be taken away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Witness {
    /// The square of the piece that moves.
    x: u64,
    /// Where it goes: all the squares it can go to when the witness stands for all its
    /// moves.
    targets: u64,
    /// The squares our move must land on, or
    to: u64,
    /// leave, one of them, to take the witness away. These are also the squares whose
    /// vacating by one of the opponent's own pieces may take it away (a line opened: a pin,
    /// or a king's square attacked).
    from: u64,
}

impl Witness {
    /// Whether our move from `a` to `b` may take the witness away.
    #[inline(always)]
    fn killed_by(&self, a: u64, b: u64) -> bool {
        self.to & b != 0 || self.from & a != 0
    }

    /// Whether a move of the opponent's own from `x0` to `y0` (not of its king) may take the
    /// witness away: the piece itself moves, its only target gets filled, or a line opens.
    #[inline(always)]
    fn killed_by_own(&self, x0: u64, y0: u64) -> bool {
        self.x == x0 || self.targets & !y0 == 0 || self.from & x0 != 0
    }
}

/// The witnesses of `p`'s side to move, from its legal moves `moves`; `None` without a king.
fn witnesses(p: &Position, moves: &[Move]) -> Option<ArrayVec<Witness, WITNESSES>> {
    let them = p.side_to_move();
    let king = p.king(them)?;
    // The witnesses that take the fewest moves to take away are enough: the moves of a
    // piece other than a pawn or the king are as many ways to take away its step to a
    // neighbouring square (a line piece that can go further can go there too, even pinned:
    // along the pin), so one witness stands for them all. A pawn's double step crosses the
    // square of its single step. The king's witnesses come last.
    let mut out: ArrayVec<Witness, WITNESSES> = ArrayVec::new();
    let mut kings: ArrayVec<Witness, 8> = ArrayVec::new();
    let mut pieces: ArrayVec<Witness, 16> = ArrayVec::new();
    for &w in moves {
        let Move::Normal { from: x, to: y, .. } = w else { continue };
        let Some(piece) = p.piece_at(x) else { continue };
        let (xb, yb) = (1u64 << x.index(), 1u64 << y.index());
        let witness = match piece.kind {
            Kind::King => {
                let lines = queen_lines(y);
                let _ = kings.try_push(Witness { x: xb, targets: yb, to: lines | knight_attacks(y) | king_attacks(y) | yb, from: lines });
                continue;
            }
            Kind::Pawn if x.index() % 8 == y.index() % 8 => {
                if x.index().abs_diff(y.index()) == 16 {
                    continue;
                }
                let (line, beyond) = line_through(king, x);
                Witness { x: xb, targets: yb, to: xb | beyond | yb, from: line }
            }
            Kind::Pawn => {
                let (line, beyond) = line_through(king, x);
                Witness { x: xb, targets: yb, to: xb | beyond, from: line | yb }
            }
            _ => {
                let step = first_step(x, y);
                match pieces.iter_mut().find(|e| e.x == xb) {
                    Some(e) => e.targets |= step,
                    None => {
                        let (line, beyond) = line_through(king, x);
                        let _ = pieces.try_push(Witness { x: xb, targets: step, to: xb | beyond, from: line });
                    }
                }
                continue;
            }
        };
        if !out.contains(&witness) && out.try_push(witness).is_err() {
            break;
        }
    }
    for w in pieces.into_iter().chain(kings) {
        if out.try_push(w).is_err() {
            break;
        }
    }
    Some(out)
}

/// The moves of the side to move that may stalemate the opponent; built by
/// [`stalemate_filter`], asked per move by [`StalemateFilter::allows`].
#[derive(Debug)]
pub struct StalemateFilter {
    witnesses: ArrayVec<Witness, WITNESSES>,
}

/// The empty-board queen lines from `s`.
fn queen_lines(s: Square) -> u64 {
    rook_attacks(s, 0) | bishop_attacks(s, 0)
}

/// The squares on the line from `k` through `x`, other than these two: `(all, beyond)`,
/// `beyond` those past `x` (both empty when `k` and `x` are not on a queen line).
fn line_through(k: Square, x: Square) -> (u64, u64) {
    let (kf, kr) = (k.index() as i32 % 8, k.index() as i32 / 8);
    let (xf, xr) = (x.index() as i32 % 8, x.index() as i32 / 8);
    let (df, dr) = (xf - kf, xr - kr);
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return (0, 0);
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (kf + sf, kr + sr);
    let (mut all, mut beyond, mut past) = (0, 0, false);
    while (0..8).contains(&f) && (0..8).contains(&r) {
        let s = r * 8 + f;
        if s == x.index() as i32 {
            past = true;
        } else {
            all |= 1u64 << s;
            if past {
                beyond |= 1u64 << s;
            }
        }
        f += sf;
        r += sr;
    }
    (all, beyond)
}

/// The square next to `x` on the way to `y` (`y` itself for a leap).
fn first_step(x: Square, y: Square) -> u64 {
    let (df, dr) = (y.index() as i32 % 8 - x.index() as i32 % 8, y.index() as i32 / 8 - x.index() as i32 / 8);
    if df != 0 && dr != 0 && df.abs() != dr.abs() {
        return 1u64 << y.index();
    }
    1u64 << (x.index() as i32 + dr.signum() * 8 + df.signum())
}

/// The [`StalemateFilter`] of `p`, whose side to move is to stalemate the opponent with
/// its move; `None` where it does not apply (fairy pieces or promotions, Réserve, the
/// opponent without a king).
pub fn stalemate_filter(p: &Position) -> Option<StalemateFilter> {
    if !super::bound::applies(p) {
        return None;
    }
    // The opponent's moves, were it to move now (no en passant: that needs our last move).
    let q = p.null_move();
    let mut moves = Vec::new();
    q.legal_moves_into(&mut moves);
    Some(StalemateFilter { witnesses: witnesses(&q, &moves)? })
}

impl StalemateFilter {
    /// Whether `m` may stalemate: it takes away every witness (castling and en passant are
    /// kept unjudged).
    #[inline]
    pub fn allows(&self, m: Move) -> bool {
        let Move::Normal { from, to, .. } = m else { return true };
        let (a, b) = (1u64 << from.index(), 1u64 << to.index());
        self.witnesses.iter().all(|w| w.killed_by(a, b))
    }
}

/// Where a piece on `a` can go in one move on the empty board (a pawn: its steps and its
/// captures), as the bound's relaxation has it.
fn one_move(kind: Kind, color: crate::piece::Color, a: Square) -> u64 {
    match kind {
        Kind::Pawn => super::bound::pawn_moves(color, a.index()),
        _ => super::bound::piece_moves(kind, a.index()),
    }
}

/// At a position whose side to move makes its last move before the opponent stalemates it
/// in one: removes from `moves` (this position's legal moves) those after which no move of
/// the opponent can take away every witness left standing. A move of ours takes away the
/// witnesses of the piece that moves, those whose only target it fills and those of the
/// pieces it unpins or whose king square it opens to a line; the rest stand, and the
/// opponent's single move must take each away. Its moves are taken generously: every piece
/// goes wherever it goes on the empty board (the one we take, gone). Our king's moves,
/// castling, en passant and double steps (after which the opponent may take en passant) are
/// kept unjudged; the opponent's castling counts as a move of both its pieces.
pub fn retain_before_stalemate(p: &Position, moves: &mut Vec<Move>) {
    if !super::bound::applies(p) {
        return;
    }
    let us = p.side_to_move();
    let them = us.opponent();
    // The opponent's castlings: both pieces' squares, before and after.
    let castlings: ArrayVec<(u64, u64), 2> = match p.king(them) {
        Some(king) => super::bound::castlings(p, them, king.index())
            .iter()
            .map(|c| (1u64 << king.index() | 1u64 << c.rook_from, 1u64 << c.king_to | 1u64 << c.rook_to))
            .collect(),
        None => ArrayVec::new(),
    };
    let Some(ws) = witnesses(p, moves) else { return };
    let theirs: ArrayVec<(u64, u64), 16> = match crate::geometry::Squares(p.color_bb(them))
        .map(|a| p.piece_at(a).map(|pc| (1u64 << a.index(), one_move(pc.kind, them, a))))
        .collect::<Option<ArrayVec<_, 16>>>()
    {
        Some(v) => v,
        None => return,
    };
    let mut left: ArrayVec<Witness, WITNESSES> = ArrayVec::new();
    moves.retain(|&m| {
        let Move::Normal { from, to, .. } = m else { return true };
        let (x0, y0) = (1u64 << from.index(), 1u64 << to.index());
        if p.piece_at(from).is_none_or(|pc| pc.kind == Kind::King || (pc.kind == Kind::Pawn && from.index().abs_diff(to.index()) == 16)) {
            return true;
        }
        left.clear();
        left.extend(ws.iter().copied().filter(|w| !w.killed_by_own(x0, y0)));
        // Some piece of theirs (not the one taken) with a square that takes away the rest,
        // or a castling that does.
        theirs.iter().any(|&(a, reach)| {
            a != y0 && {
                let to = left.iter().filter(|w| w.from & a == 0).fold(!0u64, |t, w| t & w.to);
                to & reach != 0
            }
        }) || castlings.iter().any(|&(a, b)| left.iter().all(|w| w.killed_by(a, b)))
    });
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Color;
    use crate::rules::{Game, Goal};

    fn sq(name: &str) -> Square {
        crate::position::parse_sq(name).unwrap()
    }

    #[test]
    fn lines_and_steps() {
        let bits = |names: &[&str]| names.iter().fold(0u64, |b, n| b | 1u64 << sq(n).index());
        assert_eq!(line_through(sq("e1"), sq("e3")), (bits(&["e2", "e4", "e5", "e6", "e7", "e8"]), bits(&["e4", "e5", "e6", "e7", "e8"])));
        assert_eq!(line_through(sq("a1"), sq("g7")), (bits(&["b2", "c3", "d4", "e5", "f6", "h8"]), bits(&["h8"])));
        assert_eq!(line_through(sq("a1"), sq("b3")), (0, 0));
        assert_eq!(first_step(sq("a1"), sq("a8")), bits(&["a2"]));
        assert_eq!(first_step(sq("h8"), sq("a1")), bits(&["g7"]));
        assert_eq!(first_step(sq("b1"), sq("c3")), bits(&["c3"]));
    }

    /// Every move the filter removes is no stalemate, and some are removed.
    #[test]
    fn only_moves_that_touch_every_witness_are_kept() {
        let mut stalemates = 0;
        for fen in [
            "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
            "7k/p7/P5K1/8/8/8/8/5Q2 w - - 0 1",
            "r3k2r/8/3P2b1/2N5/8/7n/8/R3K2R w KQkq - 0 1",
            "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",
            // Only Sh7-f6 stalemates: it leaves the way for Rh1 to pin Bh6.
            "7k/5K1N/7b/8/8/8/8/7R w - - 0 1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            let f = stalemate_filter(&p).unwrap();
            let mut moves = Vec::new();
            p.legal_moves_into(&mut moves);
            let kept: Vec<_> = moves.iter().copied().filter(|&m| f.allows(m)).collect();
            for &m in &moves {
                let stalemate = p.play(m).goal_reached(Goal::Stalemate);
                if !kept.contains(&m) {
                    assert!(!stalemate, "{fen}: {m:?} removed");
                }
                stalemates += stalemate as u32;
            }
            assert!(kept.len() < moves.len(), "{fen}: {} of {} kept", kept.len(), moves.len());
        }
        assert!(stalemates >= 3, "{stalemates}");
    }

    /// Before the stalemating move: g7xh6 (or a step of the pawn) leaves the way for Ba1 to
    /// pin Sf6, and Se6-f8 then stalemates. Every last move the filter removes is followed by no stalemate.
    #[test]
    fn a_last_move_that_opens_a_pin_is_kept() {
        let p = Position::from_fen("7k/5Kp1/4Nn1N/7P/8/8/8/B7 b - - 0 1").unwrap();
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        let mut kept = moves.clone();
        retain_before_stalemate(&p, &mut kept);
        let mut followed = 0;
        for &m in &moves {
            let q = p.play(m);
            let mut replies = Vec::new();
            q.legal_moves_into(&mut replies);
            let next = replies.iter().any(|&d| q.play(d).goal_reached(Goal::Stalemate));
            followed += next as u32;
            assert!(!next || kept.contains(&m), "{m:?} removed");
        }
        assert_eq!(followed, 3); // g7-g6, g7-g5 and g7xh6
    }

    /// Whether witness `w` still stands among the legal moves `moves`: its piece still
    /// goes to one of its targets.
    fn stands(w: &Witness, moves: &[Move]) -> bool {
        moves
            .iter()
            .any(|&m| matches!(m, Move::Normal { from, to, .. } if 1u64 << from.index() == w.x && w.targets & 1u64 << to.index() != 0))
    }

    /// What the witnesses claim, move by move on random positions: a witness that our move
    /// does not touch still stands after it (unless it gives check), and a witness that the
    /// opponent's own move does not take away still stands after that move.
    #[test]
    fn witnesses_left_standing_stay_legal() {
        let mut next = crate::rules::test_random(0x5EED_57A1_E3A7_u64);
        let kinds = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn, Kind::Pawn, Kind::Rook, Kind::Bishop];
        let (mut ours, mut own) = (0, 0);
        for _ in 0..3000 {
            let mut pieces: Vec<(Square, crate::piece::Piece)> = Vec::new();
            let mut put = |c: Color, k: Kind, next: &mut dyn FnMut(u64) -> u64| loop {
                let q = Square(next(64) as u8);
                if !pieces.iter().any(|e| e.0 == q) && (k != Kind::Pawn || (8..56).contains(&q.index())) {
                    pieces.push((q, crate::piece::Piece::new(c, k)));
                    break;
                }
            };
            put(Color::White, Kind::King, &mut next);
            put(Color::Black, Kind::King, &mut next);
            for _ in 0..next(7) {
                let c = if next(2) == 0 { Color::White } else { Color::Black };
                put(c, kinds[next(8) as usize], &mut next);
            }
            let side = if next(2) == 0 { Color::White } else { Color::Black };
            let Ok(p) = Position::from_setup(&crate::position::Setup { pieces, side: Some(side), ..Default::default() }) else { continue };
            let mut mine = Vec::new();
            p.legal_moves_into(&mut mine);
            // Our move against the opponent's witnesses.
            let q = p.null_move();
            let mut theirs = Vec::new();
            q.legal_moves_into(&mut theirs);
            if let Some(ws) = witnesses(&q, &theirs) {
                for &m in &mine {
                    let Move::Normal { from, to, .. } = m else { continue };
                    let r = p.play(m);
                    if r.in_check() {
                        continue;
                    }
                    let mut after = Vec::new();
                    r.legal_moves_into(&mut after);
                    for w in ws.iter().filter(|w| !w.killed_by(1u64 << from.index(), 1u64 << to.index())) {
                        ours += 1;
                        assert!(stands(w, &after), "{}: {w:?} taken away by {m:?}", p.to_fen());
                    }
                }
            }
            // The side to move's own move against its own witnesses.
            let Some(ws) = witnesses(&p, &mine) else { continue };
            for &m in &mine {
                let Move::Normal { from, to, .. } = m else { continue };
                if p.piece_at(from).is_some_and(|pc| pc.kind == Kind::King) {
                    continue;
                }
                let r = p.play(m).null_move();
                let mut after = Vec::new();
                r.legal_moves_into(&mut after);
                for w in ws.iter().filter(|w| !w.killed_by_own(1u64 << from.index(), 1u64 << to.index())) {
                    own += 1;
                    assert!(stands(w, &after), "{}: {w:?} taken away by its own {m:?}", p.to_fen());
                }
            }
        }
        assert!(ours > 10_000 && own > 10_000, "{ours} {own}");
    }
}
