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
//! - a pin: with nothing between the opponent's king and `x`, `b` beyond `x` on their line
//!   no further than the first piece there (a line piece arriving behind `x`, or taking the
//!   first piece); or `a` the one square between them, or the first square beyond, with a
//!   line piece of ours next behind (leaving the way); a pawn of ours one step from
//!   promotion that stands first on the line may also step along it as a line piece; a line
//!   that does not pass through `x` and opens would give check, and a check is no stalemate;
//! - for a king move, `y` attacked after our move: only the piece arriving on `b` can attack
//!   it anew (`b` on a queen line from `y` no further than its first piece, a knight's leap
//!   or a king's step from `y`, or `y` itself), or a line opened through `a` (`a` the first
//!   piece on a queen line from `y`, with a line piece of ours next behind, or a pawn of
//!   ours about to promote); a piece taken on `b` only opens lines through `b`.
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
//! square may take away (any square of the pin line or of a queen line from a flight: our
//! move that follows may use what it opens). The piece that moved brings the witnesses of
//! its new square; a king that moved brings its new flights, and the pins are counted from
//! its new square. The witnesses left must all be taken away by one move of ours
//! ([`retain_before_stalemate`]). The tests check both steps on random positions: every
//! witness that no move touched is still a legal move after them.

use crate::geometry::Square;
use crate::piece::Kind;
use crate::position::{Move, Position};
use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
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
    /// leave, one of them, to take the witness away (for our one move, in the position the
    /// witness was found in: [`Board`]).
    from: u64,
    /// The squares whose vacating by one of the opponent's own pieces may take it away (a
    /// line opened: a pin, or a king's square attacked); our move that follows may then
    /// use the open line.
    own: u64,
    /// The part of `to` and of `from` that is not about a pin (taking the piece, blocking a
    /// pawn's step, the piece a pawn would take leaving), kept to count the pins again from
    /// another king square.
    fixed: (u64, u64),
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
        self.x == x0 || self.targets & !y0 == 0 || self.own & x0 != 0
    }
}

/// What our one move can do to the lines of the position a witness is found in: the
/// occupied squares and our line pieces.
struct Board {
    occ: u64,
    ours: u64,
    /// Our queens and rooks; our queens and bishops.
    straight: u64,
    diagonal: u64,
    /// Our pawns one step from promotion: such a pawn that leaves the first square of a
    /// line may stand further along it at once, as a line piece.
    promoting: u64,
}

impl Board {
    /// `ours` the side that makes the one move (the opponent of `p`'s side to move when
    /// `p` is the position the witnesses are found in).
    fn new(p: &Position, ours: crate::piece::Color) -> Board {
        let mine = p.color_bb(ours);
        let queens = p.pieces(ours, Kind::Queen);
        let seventh = if ours == crate::piece::Color::White { 0x00FF_0000_0000_0000 } else { 0xFF00 };
        Board {
            occ: p.occupied(),
            ours: mine,
            straight: queens | p.pieces(ours, Kind::Rook),
            diagonal: queens | p.pieces(ours, Kind::Bishop),
            promoting: p.pieces(ours, Kind::Pawn) & seventh,
        }
    }

    /// The board after a move of the other side from `gone` to `came` (taking what of ours
    /// stood there).
    fn after(&self, gone: u64, came: u64) -> Board {
        Board {
            occ: (self.occ & !gone) | came,
            ours: self.ours & !came,
            straight: self.straight & !came,
            diagonal: self.diagonal & !came,
            promoting: self.promoting & !came,
        }
    }

    /// The pin of the opponent's piece on `x` (its king on `k`) by our one move:
    /// `(to, from, own)`. Our move pins it by landing beyond it on the line from the king,
    /// no further than the first piece there, when nothing stands between king and piece;
    /// or by leaving the one square between them, or the first square beyond, when a line
    /// piece of ours stands next behind. The opponent's own move may pin it by leaving any
    /// square of the line (with ours following): `own` is the whole line.
    fn pin(&self, k: Square, x: Square) -> (u64, u64, u64) {
        let (line, beyond) = line_through(k, x);
        if line == 0 {
            return (0, 0, 0);
        }
        let straight = k.index() % 8 == x.index() % 8 || k.index() / 8 == x.index() / 8;
        let sliders = if straight { self.straight } else { self.diagonal };
        let between = line & !beyond & self.occ;
        let up = x.index() > k.index();
        let nearest = |b: u64| -> u64 {
            if b == 0 {
                0
            } else if up {
                b & b.wrapping_neg()
            } else {
                1u64 << (63 - b.leading_zeros())
            }
        };
        let first = nearest(beyond & self.occ);
        let second = nearest(beyond & self.occ & !first);
        let mut to = 0;
        if between == 0 {
            // Up to the first piece beyond, that one included (taken).
            to = if first == 0 {
                beyond
            } else if up {
                beyond & (first | (first - 1))
            } else {
                beyond & !(first - 1)
            };
        }
        let mut from = 0;
        if between.count_ones() == 1 && between & self.ours != 0 && first & sliders != 0 {
            from |= between;
        }
        if between == 0 && first & self.ours != 0 && (second & sliders != 0 || first & self.promoting != 0) {
            from |= first;
        }
        (to, from, line)
    }

    /// Whether the opponent's piece on `x` is pinned to its king on `k` by a line piece of
    /// ours (it may still move along the line).
    fn pinned(&self, k: Square, x: Square) -> bool {
        let (line, beyond) = line_through(k, x);
        if line == 0 || line & !beyond & self.occ != 0 {
            return false;
        }
        let near = beyond & self.occ;
        let first = if near == 0 {
            0
        } else if x.index() > k.index() {
            near & near.wrapping_neg()
        } else {
            1u64 << (63 - near.leading_zeros())
        };
        let straight = k.index() % 8 == x.index() % 8 || k.index() / 8 == x.index() / 8;
        first & if straight { self.straight } else { self.diagonal } != 0
    }

    /// Whether a piece of ours (`c`, those of `p` still on the board) attacks `f`, the
    /// opponent's king on `k` taken off the board (lines through its square open).
    fn attacks(&self, p: &Position, c: crate::piece::Color, f: Square, k: u64) -> bool {
        let occ = self.occ & !k;
        let of = |kind: Kind| p.pieces(c, kind) & self.ours;
        knight_attacks(f) & of(Kind::Knight) != 0
            || king_attacks(f) & of(Kind::King) != 0
            || pawn_attacks(c.opponent(), f) & of(Kind::Pawn) != 0
            || rook_attacks(f, occ) & self.straight != 0
            || bishop_attacks(f, occ) & self.diagonal != 0
    }

    /// The flight `y` of the opponent's king on `k`, attacked after our one move:
    /// `(to, from, own)`. Our move attacks it by landing where it attacks `y` (a leap, a
    /// king's or pawn's step, or a queen line from `y` no further than its first piece), or
    /// by leaving the first square of a line from `y` when a line piece of ours stands
    /// next behind; the opponent's own move may open any of those lines (`own`).
    fn flight(&self, k: Square, y: Square) -> (u64, u64, u64) {
        let occ = self.occ & !(1u64 << k.index());
        let (r, b) = (rook_attacks(y, occ), bishop_attacks(y, occ));
        let mut from = (r | b) & self.promoting;
        let (rx, bx) = (rook_attacks(y, 0) & self.straight != 0, bishop_attacks(y, 0) & self.diagonal != 0);
        for o in crate::geometry::Squares(if rx { r & self.ours } else { 0 }) {
            if rook_attacks(y, occ & !(1u64 << o.index())) & !r & self.straight != 0 {
                from |= 1u64 << o.index();
            }
        }
        for o in crate::geometry::Squares(if bx { b & self.ours } else { 0 }) {
            if bishop_attacks(y, occ & !(1u64 << o.index())) & !b & self.diagonal != 0 {
                from |= 1u64 << o.index();
            }
        }
        let yb = 1u64 << y.index();
        (r | b | knight_attacks(y) | king_attacks(y) | yb, from, queen_lines(y))
    }
}

/// The witnesses of `p`'s side to move, from its legal moves `moves`; `None` without a king.
fn witnesses(p: &Position, moves: &[Move]) -> Option<ArrayVec<Witness, WITNESSES>> {
    let them = p.side_to_move();
    let king = p.king(them)?;
    let board = Board::new(p, them.opponent());
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
                let (to, from, own) = board.flight(x, y);
                let _ = kings.try_push(Witness { x: xb, targets: yb, to, from, own, fixed: (to, from) });
                continue;
            }
            Kind::Pawn if x.index() % 8 == y.index() % 8 => {
                if x.index().abs_diff(y.index()) == 16 {
                    continue;
                }
                let (to, from, own) = board.pin(king, x);
                Witness { x: xb, targets: yb, to: xb | to | yb, from, own, fixed: (xb | yb, 0) }
            }
            Kind::Pawn => {
                let (to, from, own) = board.pin(king, x);
                Witness { x: xb, targets: yb, to: xb | to, from: from | yb, own, fixed: (xb, yb) }
            }
            _ => {
                let step = first_step(x, y);
                match pieces.iter_mut().find(|e| e.x == xb) {
                    Some(e) => e.targets |= step,
                    None => {
                        let (to, from, own) = board.pin(king, x);
                        let _ = pieces.try_push(Witness { x: xb, targets: step, to: xb | to, from, own, fixed: (xb, 0) });
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

/// `(all, beyond)` of [`line_through`] for every pair of squares.
type LineTable = [[(u64, u64); 64]; 64];

/// [`walk_line`] for every pair of squares, built once.
static LINES: std::sync::LazyLock<Box<LineTable>> = std::sync::LazyLock::new(|| {
    let mut t = Box::new([[(0, 0); 64]; 64]);
    for (k, row) in t.iter_mut().enumerate() {
        for (x, e) in row.iter_mut().enumerate() {
            *e = walk_line(Square(k as u8), Square(x as u8));
        }
    }
    t
});

/// The squares on the line from `k` through `x`, other than these two: `(all, beyond)`,
/// `beyond` those past `x` (both empty when `k` and `x` are not on a queen line).
#[inline]
fn line_through(k: Square, x: Square) -> (u64, u64) {
    LINES[k.index()][x.index()]
}

/// [`line_through`], walked square by square.
fn walk_line(k: Square, x: Square) -> (u64, u64) {
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

/// The witnesses of the piece our move `from → to` leaves on `to` (as `kind`), in the
/// position after the move, added to `out`: that piece must be left without a move too,
/// and one move of the opponent must take its moves away. Nothing is added for a piece
/// pinned on `to` (its moves are fewer): a witness less is as sound.
fn moved_witnesses(p: &Position, base: &Board, king: Square, from: Square, to: Square, kind: Kind, mut out: impl FnMut(&Witness)) {
    let us = p.side_to_move();
    let (xb, yb) = (1u64 << from.index(), 1u64 << to.index());
    let board = base.after(xb, yb);
    let own = board.occ & !board.ours;
    if board.pinned(king, to) {
        return;
    }
    let (pin_to, pin_from, line) = board.pin(king, to);
    let mut push = |w: Witness| out(&w);
    match kind {
        Kind::Pawn => {
            let ahead = if us == crate::piece::Color::White { to.index() + 8 } else { to.index().wrapping_sub(8) };
            if ahead < 64 && board.occ >> ahead & 1 == 0 {
                let fb = 1u64 << ahead;
                push(Witness { x: yb, targets: fb, to: yb | pin_to | fb, from: pin_from, own: line, fixed: (yb | fb, 0) });
            }
            for c in crate::geometry::Squares(pawn_attacks(us, to) & board.ours) {
                let cb = 1u64 << c.index();
                push(Witness { x: yb, targets: cb, to: yb | pin_to, from: pin_from | cb, own: line, fixed: (yb, cb) });
            }
        }
        Kind::King => {}
        _ => {
            let reach = match kind {
                Kind::Knight => knight_attacks(to),
                Kind::Bishop => bishop_attacks(to, !0),
                Kind::Rook => rook_attacks(to, !0),
                _ => queen_lines_near(to),
            };
            let targets = reach & !own;
            if targets != 0 {
                push(Witness { x: yb, targets, to: yb | pin_to, from: pin_from, own: line, fixed: (yb, 0) });
            }
        }
    }
}

/// The squares next to `s` along its queen lines (the first step of each).
fn queen_lines_near(s: Square) -> u64 {
    rook_attacks(s, !0) | bishop_attacks(s, !0)
}

/// The witnesses that stand after our own move `m` (`ws` those before it, `king` ours),
/// each handed to `out` until it answers `false` (the move is judged already): those it does not take away, with the pins counted again from our
/// king's new square when it moves, and the moves of the piece that moved; `false` when
/// `m` is not judged (castling, en passant, a double step).
fn witnesses_after(
    p: &Position,
    base: &Board,
    ws: &[Witness],
    king: Option<Square>,
    m: Move,
    mut out: impl FnMut(&Witness) -> bool,
) -> bool {
    let Move::Normal { from, to, promotion } = m else { return false };
    let them = p.side_to_move().opponent();
    let (x0, y0) = (1u64 << from.index(), 1u64 << to.index());
    let Some(pc) = p.piece_at(from) else { return false };
    if pc.kind == Kind::Pawn && from.index().abs_diff(to.index()) == 16 {
        return false;
    }
    if pc.kind == Kind::King {
        // Our king moves: the pins are counted again from its new square (a piece pinned
        // there at once has lost its witness already), and its own witnesses are those of
        // its new flights (the squares it can go to from there).
        let board = base.after(x0, y0);
        let lines = queen_lines(to);
        for w in ws.iter().filter(|w| !w.killed_by_own(x0, y0)) {
            let mut w = *w;
            if w.x & lines != 0 {
                let x = Square(w.x.trailing_zeros() as u8);
                if board.pinned(to, x) {
                    continue;
                }
                let (pin_to, pin_from, own) = board.pin(to, x);
                (w.to, w.from, w.own) = (w.fixed.0 | pin_to, w.fixed.1 | pin_from, own);
            }
            if !out(&w) {
                return true;
            }
        }
        for f in crate::geometry::Squares(king_attacks(to) & (board.ours | !board.occ)) {
            if !board.attacks(p, them, f, y0) {
                let (t, fr, own) = board.flight(to, f);
                if !out(&Witness { x: y0, targets: 1u64 << f.index(), to: t, from: fr, own, fixed: (t, fr) }) {
                    return true;
                }
            }
        }
    } else {
        for w in ws.iter().filter(|w| !w.killed_by_own(x0, y0)) {
            if !out(w) {
                return true;
            }
        }
        if let Some(king) = king {
            moved_witnesses(p, base, king, from, to, promotion.unwrap_or(pc.kind), |w| {
                out(w);
            });
        }
    }
    true
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
/// pieces it unpins or whose king square it opens to a line; the rest stand, and so do the
/// moves of the piece that moved from its new square (unless it stands pinned there), and
/// the opponent's single move must take each away. When our king moves, the pins are
/// counted from its new square and its witnesses are its new flights. The opponent's moves
/// are taken generously: every piece goes wherever it goes on the empty board (the one we
/// take, gone). Castling, en passant and double steps (after which the opponent may take en
/// passant) are kept unjudged; the opponent's castling counts as a move of both its pieces.
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
    let king = p.king(us);
    let theirs: ArrayVec<(u64, u64), 16> = match crate::geometry::Squares(p.color_bb(them))
        .map(|a| p.piece_at(a).map(|pc| (1u64 << a.index(), one_move(pc.kind, them, a))))
        .collect::<Option<ArrayVec<_, 16>>>()
    {
        Some(v) => v,
        None => return,
    };
    // The witnesses left after our move: the arrival squares common to those that no
    // departure takes away, and the others (`from`, `to`) apart.
    let board = Board::new(p, them);
    let mut special: ArrayVec<(u64, u64), WITNESSES> = ArrayVec::new();
    let mut left: ArrayVec<Witness, WITNESSES> = ArrayVec::new();
    let reach = theirs.iter().fold(0, |r, &(_, t)| r | t);
    moves.retain(|&m| {
        let Move::Normal { to, .. } = m else { return true };
        let y0 = 1u64 << to.index();
        let mut common = !0u64;
        special.clear();
        left.clear();
        let judged = witnesses_after(p, &board, &ws, king, m, |w| {
            if w.from == 0 {
                common &= w.to;
            } else {
                let _ = special.try_push((w.from, w.to));
            }
            if !castlings.is_empty() {
                let _ = left.try_push(*w);
                return true;
            }
            // Nothing of theirs can land where every witness so far is taken away.
            common & reach != 0
        });
        if !judged {
            return true;
        }
        // Some piece of theirs (not the one taken) with a square that takes away the rest,
        // or a castling that does.
        theirs.iter().any(|&(a, reach)| {
            a != y0 && special.iter().filter(|&&(from, _)| from & a == 0).fold(common & reach, |t, &(_, to)| t & to) != 0
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
    /// A random position with `mine` pieces besides the king for the side to move and
    /// `theirs` for the other side (pawns off the first and last ranks); `None` when illegal.
    fn random_position(next: &mut dyn FnMut(u64) -> u64, side: Color, mine: u64, theirs: u64) -> Option<Position> {
        let kinds = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn, Kind::Pawn, Kind::Pawn, Kind::Rook, Kind::Bishop];
        let mut pieces: Vec<(Square, crate::piece::Piece)> = Vec::new();
        let mut put = |c: Color, k: Kind, next: &mut dyn FnMut(u64) -> u64| loop {
            let q = Square(next(64) as u8);
            if !pieces.iter().any(|e| e.0 == q) && (k != Kind::Pawn || (8..56).contains(&q.index())) {
                pieces.push((q, crate::piece::Piece::new(c, k)));
                break;
            }
        };
        put(side, Kind::King, next);
        put(side.opponent(), Kind::King, next);
        for _ in 0..mine {
            let k = kinds[next(kinds.len() as u64) as usize];
            put(side, k, next);
        }
        for _ in 0..theirs {
            let k = kinds[next(kinds.len() as u64) as usize];
            put(side.opponent(), k, next);
        }
        let p = Position::from_setup(&crate::position::Setup { pieces, side: Some(side), ..Default::default() }).ok()?;
        (!p.null_move().in_check()).then_some(p)
    }

    #[test]
    fn no_move_a_stalemate_follows_is_removed() {
        let mut next = crate::rules::test_random(0x0057_A1E3_A7E5_u64);
        let (mut before, mut last, mut removed) = (0, 0, 0);
        for i in 0..20000 {
            let side = if i % 2 == 0 { Color::White } else { Color::Black };
            let mine = next(3);
            let theirs = 2 + next(6);
            let Some(p) = random_position(&mut next, side, mine, theirs) else { continue };
            let mut moves = Vec::new();
            p.legal_moves_into(&mut moves);
            // The stalemated side's last move (retain_before_stalemate) ...
            let mut kept = moves.clone();
            retain_before_stalemate(&p, &mut kept);
            for &m in &moves {
                let q = p.play(m);
                let mut replies = Vec::new();
                q.legal_moves_into(&mut replies);
                let followed = replies.iter().any(|&r| q.play(r).goal_reached(Goal::Stalemate));
                before += followed as u32;
                removed += !kept.contains(&m) as u32;
                assert!(!followed || kept.contains(&m), "{}: {m:?} removed", p.to_fen());
                // ... and the stalemating move (StalemateFilter).
                if let Some(f) = stalemate_filter(&q) {
                    for &r in &replies {
                        let stalemate = q.play(r).goal_reached(Goal::Stalemate);
                        last += stalemate as u32;
                        assert!(!stalemate || f.allows(r), "{}: {r:?} removed", q.to_fen());
                    }
                }
            }
        }
        assert!(before > 1000 && last > 3000 && removed > 50_000, "{before} {last} {removed}");
    }

    #[test]
    fn stalemates_through_a_new_pin_are_kept() {
        // The stalemating move pins by promoting on the line: a7-a8=Q (or R) pins Na4.
        let p = Position::from_fen("8/P7/8/8/n7/1K1B4/8/k7 w - - 0 1").unwrap();
        let f = stalemate_filter(&p).unwrap();
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        let stalemates: Vec<Move> = moves.iter().copied().filter(|&m| p.play(m).goal_reached(Goal::Stalemate)).collect();
        assert_eq!(stalemates.len(), 2);
        assert!(stalemates.iter().all(|&m| f.allows(m)));
        // The last move before it is a king move that lets a bishop pin the pawn: Kb1-a1,
        // then Kd2-c2 stalemates.
        let p = Position::from_fen("8/8/8/8/3b4/8/1P1k4/1Kn5 w - - 0 1").unwrap();
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        let mut kept = moves.clone();
        retain_before_stalemate(&p, &mut kept);
        let ka1 = Move::Normal { from: sq("b1"), to: sq("a1"), promotion: None };
        let q = p.play(ka1);
        assert!(q.play(Move::Normal { from: sq("d2"), to: sq("c2"), promotion: None }).goal_reached(Goal::Stalemate));
        assert!(kept.contains(&ka1));
    }

    #[test]
    fn witnesses_left_after_both_moves_stay_legal() {
        let mut next = crate::rules::test_random(0xB07E_5EED_u64);
        let (mut checked, mut kings) = (0u32, 0u32);
        for i in 0..5000 {
            let side = if i % 2 == 0 { Color::White } else { Color::Black };
            let (mine, theirs) = (next(5), 1 + next(6));
            let Some(p) = random_position(&mut next, side, mine, theirs) else { continue };
            let mut moves = Vec::new();
            p.legal_moves_into(&mut moves);
            let Some(ws) = witnesses(&p, &moves) else { continue };
            let mut left = Vec::new();
            for &m in &moves {
                left.clear();
                if !witnesses_after(&p, &Board::new(&p, side.opponent()), &ws, p.king(side), m, |w| {
                    left.push(*w);
                    true
                }) {
                    continue;
                }
                let q = p.play(m);
                let mut replies = Vec::new();
                q.legal_moves_into(&mut replies);
                for &r in &replies {
                    let (a, b) = match r {
                        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (1u64 << from.index(), 1u64 << to.index()),
                        Move::Castle { king, rook } => {
                            let (k2, r2) = crate::position::castle_squares(king, rook);
                            (1u64 << king.index() | 1u64 << rook.index(), 1u64 << k2.index() | 1u64 << r2.index())
                        }
                        _ => continue,
                    };
                    let s = q.play(r);
                    if s.in_check() {
                        continue;
                    }
                    let mut after = Vec::new();
                    s.legal_moves_into(&mut after);
                    for w in left.iter().filter(|w| !w.killed_by(a, b)) {
                        checked += 1;
                        kings += matches!(m, Move::Normal { from, .. } if p.piece_at(from).is_some_and(|pc| pc.kind == Kind::King)) as u32;
                        assert!(stands(w, &after), "{}: {w:?} taken away by {m:?} and {r:?}", p.to_fen());
                    }
                }
            }
        }
        assert!(checked > 200_000 && kings > 20_000, "{checked} {kings}");
    }

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
