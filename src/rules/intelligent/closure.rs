//! Closing a mate or stalemate picture: every move the mated side has with the picture's
//! pieces alone is taken away by more pieces, as Popeye's `Intelligent` mode builds its
//! target positions.
//!
//! A raw picture (`super` module doc) places the mated king, one checking piece and what
//! makes each flight no flight, the blockers as pieces of "any kind". Many raw pictures are
//! no mate at all: a blocker next to the checker takes it, a knight blocker gives check to
//! the mating king, a queen blocker steps out of the line it blocks. Each such picture keeps
//! alive every line that can reach its few squares, and with many moves to spare that is
//! most lines.
//!
//! **Closing.** Each blocker first takes each kind it may have at the end (its own; a pawn
//! may have promoted). Then, with `P` the pieces of the picture alone on the board, the
//! mated side `M` to move:
//! - for a mate, `M`'s king must be in check in `P` (else the branch is dropped); for a
//!   stalemate, each piece of `A` attacking it must have a square between to fill;
//! - no piece of `M` may attack the mating king, unless some square between them is left to
//!   fill (then a piece must stand there);
//! - every legal move of `M` in `P` (castling and en passant left aside) must be taken away.
//!
//! One of the moves with the fewest ways to take it away is picked, and the picture is
//! extended in each way, one piece more each: a piece of either side on a square the move
//! passes over (a pawn's push: on its squares), a piece of `M` on the square it goes to, or a
//! piece of the mating side `A` attacking, after the move, the square of `M`'s king (a pin, a
//! second check, a guard of the king's new square). Every piece comes from those not yet in
//! the picture, with a kind it may have at the end, within its side's moves left; the
//! mating king never stands next to `M`'s king. A picture with nothing left to take away is
//! a mate (stalemate) on its own, and is kept; so is a picture that has reached the most
//! pieces a picture holds, as it stands.
//!
//! **Why no mate is lost.** Take a mate `M*` a line can end in, and a raw picture `P₀`
//! contained in it whose checker gives the check in `M*` (the builder makes one for every
//! mate: the king, a piece checking it in `M*`, and what makes each flight no flight; for a
//! stalemate, the king and what makes each flight no flight). The
//! blockers' kinds of `M*` are among those tried. While `P ⊆ M*` has a legal move `d` of
//! `M`, `d` is no move in `M*`, and one piece of `M* \ P` alone takes it away: if a square
//! `d` passes over is filled in `M*`, that piece; if the square `d` goes to holds a piece of
//! `M` in `M*` (for a pawn's push: any piece), that piece; and otherwise `d` leaves `M`'s
//! king attacked in `M*` by some piece `W` along a line that is clear in `M*` after `d`, so
//! clear in `P` after `d`: `W` is not in `P` (else `d` were no legal move of `P`), and added
//! to `P` it attacks the king after `d`. Each of these is one of the extensions tried, so
//! some branch stays inside `M*` until no move is left, and keeps a picture contained in
//! `M*`. The branch never loses the check (the checker's line is clear in `M*`), and a
//! piece attacking a king (`M`'s in a stalemate, `A`'s always: `M*` is a legal position)
//! has a piece of `M*` between, which is one of the pieces tried there; nor are the two
//! kings side by side. A picture contained in `M*` is alive along every line
//! that ends in `M*`, as the count asks only that each of its pieces reach its square.

use super::{Builder, FAR, K_ANY, K_KING, K_PAWN, Mix, TABLES, Target, WITHIN, caps_left};
use crate::geometry::{Square, Squares};
use crate::piece::Color;
use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use arrayvec::ArrayVec;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// The pieces of one picture, with each side's moves to spare (mating side first).
pub(super) type Found = (ArrayVec<Target, 16>, i8, i8);

/// Most closing steps for the pictures of one plan; beyond, the raw pictures are kept.
const MOST_STEPS: u64 = 400_000;

/// Most closed pictures for one plan; beyond, the raw pictures are kept.
const MOST_CLOSED: usize = 1 << 18;

/// The closed pictures of the raw pictures `b.found` (module doc), each sorted, with their
/// moves to spare; `None` when they are too many, or cost too much to work out (the raw
/// pictures, a looser relaxation, then serve).
pub(super) fn close(b: &Builder) -> Option<Vec<Found>> {
    use rayon::prelude::*;
    let mut count = [0i8; 2];
    for &(c, kind, _) in &b.pieces {
        count[(c != b.mating) as usize] += (kind != K_KING) as i8;
    }
    let steps = AtomicU64::new(0);
    // The raw pictures are closed in parallel, a chunk each; the results come back in the
    // order of the raw pictures, so the plan does not depend on the number of threads.
    let close_chunk = |chunk: &[_]| {
        let mut c = Closer { b, count, out: Vec::new(), seen: Seen::default(), steps: &steps, overflow: false };
        for (raw, sa, sm) in chunk {
            c.concretise(Clone::clone(raw), 0, [b.wa - *sa as i32, b.bm - *sm as i32]);
            if c.overflow {
                return None;
            }
        }
        Some(c.out)
    };
    let parts: Vec<Option<Vec<Found>>> = if crate::solve::parallel::threads() < 2 {
        b.found.chunks(CHUNK).map(close_chunk).collect()
    } else {
        b.found.par_chunks(CHUNK).map(close_chunk).collect()
    };
    let mut seen = Seen::default();
    let mut out = Vec::new();
    for part in parts {
        for f in part? {
            if seen.insert(f.0.clone()) {
                out.push(f);
            }
        }
    }
    (out.len() <= MOST_CLOSED).then_some(out)
}

/// A set of pictures (sorted), hashed cheaply.
type Seen = HashSet<ArrayVec<Target, 16>, std::hash::BuildHasherDefault<Mix>>;

/// Raw pictures per task of the parallel closing.
const CHUNK: usize = 64;

/// One candidate piece: identity, kind at the end, square.
type Add = (u8, u8, u8);

/// What must take one move of `M` away, as candidate squares and pieces.
struct Fixes {
    /// Squares where a piece of either side takes it away.
    any: u64,
    /// Squares where a piece of `M` takes it away.
    own: u64,
    /// A piece of `A` attacking this square in this occupancy (after the move) takes it
    /// away, standing anywhere but on `not`.
    guard: Option<(usize, u64, u64)>,
}

struct Closer<'b, 'a> {
    b: &'b Builder<'a>,
    /// The pieces other than kings each side has (mating side first).
    count: [i8; 2],
    out: Vec<Found>,
    /// The closed pictures kept (sorted).
    seen: Seen,
    /// The steps of all the closers of one plan.
    steps: &'b AtomicU64,
    overflow: bool,
}

/// The picture's pieces on the board.
struct Board {
    /// Kind (table index) per square; [`super::NONE`] where empty.
    kind: [u8; 64],
    /// Squares of `M`'s and of `A`'s pieces.
    m: u64,
    a: u64,
    /// `M`'s king's square, and `A`'s king's square if placed.
    s: usize,
    a_king: Option<usize>,
}

/// The squares a piece of kind `k` (table index) and colour `c` on `q` attacks.
#[inline]
fn attacks(k: u8, c: Color, q: usize, occ: u64) -> u64 {
    let sq = Square(q as u8);
    match k {
        K_KING => king_attacks(sq),
        1 => rook_attacks(sq, occ) | bishop_attacks(sq, occ),
        2 => rook_attacks(sq, occ),
        3 => bishop_attacks(sq, occ),
        4 => knight_attacks(sq),
        _ => pawn_attacks(c, sq),
    }
}

impl Closer<'_, '_> {
    /// Each blocker of "any kind" takes each kind it may have at the end; then [`Self::extend`].
    /// `loose`: what each side needs for `pic` counted with the blockers' least distance
    /// (any kind) and pawns capturing at will, a lower bound that prunes the kinds early.
    fn concretise(&mut self, mut pic: ArrayVec<Target, 16>, from: usize, loose: [i32; 2]) {
        let Some(i) = (from..pic.len()).find(|&i| pic[i].kind == K_ANY) else {
            let need = self.need(&pic);
            if need[0] <= self.b.wa && need[1] <= self.b.bm {
                self.extend(pic, need);
            }
            return;
        };
        let t = pic[i];
        let side = (self.b.pieces[t.id as usize].0 != self.b.mating) as usize;
        let budget = if side == 0 { self.b.wa } else { self.b.bm };
        let any = self.b.dist(t.id, K_ANY, t.sq as usize);
        for k in self.b.end_kinds(t.id) {
            let d = self.b.dist(t.id, k, t.sq as usize);
            let mut l = loose;
            l[side] += d - any;
            if d >= FAR as i32 || l[side] > budget {
                continue;
            }
            pic[i].kind = k;
            self.concretise(pic.clone(), i + 1, l);
            if self.overflow {
                return;
            }
        }
    }

    /// The moves each side needs for the picture (mating side first), each pawn capturing
    /// no more than the other side has pieces outside the picture ([`caps_left`]).
    fn need(&self, pic: &[Target]) -> [i32; 2] {
        let side = |id: u8| (self.b.pieces[id as usize].0 != self.b.mating) as usize;
        let count = self.count;
        let mut inpic = [0i8; 2];
        for t in pic {
            inpic[side(t.id)] += (self.b.pieces[t.id as usize].1 != K_KING) as i8;
        }
        let mut need = [0; 2];
        for t in pic {
            let caps = caps_left(count, inpic, side(t.id));
            need[side(t.id)] += self.b.dist_capped(t.id, t.kind, t.sq as usize, caps);
        }
        need
    }

    fn board(&self, pic: &[Target]) -> Board {
        let mut bd = Board { kind: [super::NONE; 64], m: 0, a: 0, s: 0, a_king: None };
        for t in pic {
            let q = t.sq as usize;
            bd.kind[q] = t.kind;
            if self.b.pieces[t.id as usize].0 == self.b.mated {
                bd.m |= 1u64 << q;
                if t.id == self.b.king {
                    bd.s = q;
                }
            } else {
                bd.a |= 1u64 << q;
                if t.kind == K_KING {
                    bd.a_king = Some(q);
                }
            }
        }
        bd
    }

    /// Whether a piece of `A` other than on `gone` attacks `t` in occupancy `occ`.
    fn a_attacks(&self, bd: &Board, t: usize, occ: u64, gone: u64) -> bool {
        Squares(bd.a & !gone).any(|q| attacks(bd.kind[q.index()], self.b.mating, q.index(), occ) & (1u64 << t) != 0)
    }

    /// The ways to take away each legal move of `M` in the picture, and the squares that
    /// must be filled between a piece and the king it attacks (the mating king; in a
    /// stalemate `M`'s king too); `None` when the picture can be no mate (stalemate): no
    /// check in a mate, or a king attacked with nothing to fill between.
    fn fixes(&self, bd: &Board) -> Option<Vec<Fixes>> {
        let occ = bd.m | bd.a;
        let (mated, s) = (self.b.mated, bd.s);
        let mut out = Vec::with_capacity(32);
        if self.b.check {
            if !self.a_attacks(bd, s, occ, 0) {
                return None;
            }
        } else {
            // Stalemate: each piece of `A` attacking `M`'s king has a square between to fill.
            for x in Squares(bd.a) {
                let x = x.index();
                if attacks(bd.kind[x], self.b.mating, x, occ) & (1u64 << s) != 0 {
                    let between = if matches!(bd.kind[x], 1..=3) { TABLES.between[x][s] } else { 0 };
                    if between == 0 {
                        return None;
                    }
                    out.push(Fixes { any: between, own: 0, guard: None });
                }
            }
        }
        if let Some(wk) = bd.a_king {
            for x in Squares(bd.m) {
                let x = x.index();
                if attacks(bd.kind[x], mated, x, occ) & (1u64 << wk) != 0 {
                    let between = if matches!(bd.kind[x], 1..=3) { TABLES.between[x][wk] } else { 0 };
                    if between == 0 {
                        return None;
                    }
                    out.push(Fixes { any: between, own: 0, guard: None });
                }
            }
        }
        for x in Squares(bd.m) {
            let a = x.index();
            let k = bd.kind[a];
            let from = 1u64 << a;
            if k == K_PAWN {
                let (up, start): (i32, usize) = if mated == Color::White { (8, 1) } else { (-8, 6) };
                let one = (a as i32 + up) as usize;
                if occ & (1u64 << one) == 0 {
                    let occ2 = (occ & !from) | 1u64 << one;
                    if !self.a_attacks(bd, s, occ2, 0) {
                        out.push(Fixes { any: 1u64 << one, own: 0, guard: Some((s, occ2, 1u64 << one)) });
                    }
                    if a / 8 == start {
                        let two = (a as i32 + 2 * up) as usize;
                        if occ & (1u64 << two) == 0 {
                            let occ2 = (occ & !from) | 1u64 << two;
                            if !self.a_attacks(bd, s, occ2, 0) {
                                out.push(Fixes { any: 1u64 << one | 1u64 << two, own: 0, guard: Some((s, occ2, 1u64 << two)) });
                            }
                        }
                    }
                }
                for b in Squares(pawn_attacks(mated, x) & bd.a) {
                    let occ2 = occ & !from;
                    if !self.a_attacks(bd, s, occ2, 1u64 << b.index()) {
                        out.push(Fixes { any: 0, own: 0, guard: Some((s, occ2, 0)) });
                    }
                }
                continue;
            }
            for b in Squares(attacks(k, mated, a, occ) & !bd.m) {
                let b = b.index();
                let to = 1u64 << b;
                let occ2 = (occ & !from) | to;
                let gone = to & bd.a;
                let king = k == K_KING;
                let target = if king { b } else { s };
                if self.a_attacks(bd, target, occ2, gone) {
                    continue;
                }
                let between = if matches!(k, 1..=3) { TABLES.between[a][b] } else { 0 };
                out.push(Fixes { any: between, own: to & !occ, guard: Some((target, occ2, to)) });
            }
        }
        Some(out)
    }

    /// The pieces that may take the move of `f` away: identity, kind, square.
    /// Calls `each` with each candidate in turn until it answers `false`.
    fn candidates(&self, bd: &Board, used: u64, need: [i32; 2], f: &Fixes, mut each: impl FnMut(Add) -> bool) {
        let free = !(bd.m | bd.a);
        let s_ring = king_attacks(Square(bd.s as u8)) | 1u64 << bd.s;
        for id in 0..self.b.pieces.len() as u8 {
            if used & (1u64 << id) != 0 {
                continue;
            }
            let (c, now, _) = self.b.pieces[id as usize];
            let side = (c != self.b.mating) as usize;
            let budget = if side == 0 { self.b.wa } else { self.b.bm } - need[side];
            let own = c == self.b.mated;
            for k in self.b.end_kinds(id) {
                let mut squares = f.any;
                if own {
                    squares |= f.own;
                } else if let Some((t, occ, not)) = f.guard {
                    let from = if k == K_PAWN { pawn_attacks(self.b.mated, Square(t as u8)) } else { attacks(k, c, t, occ) };
                    squares |= from & !not;
                }
                if budget < 0 {
                    continue;
                }
                // The squares it can reach in time, from the builder's masks (as precise as
                // the distances below the masks' limit).
                squares &= free & self.b.within[id as usize][k as usize][(budget as usize).min(WITHIN - 1)];
                if now == K_KING && !own {
                    squares &= !s_ring;
                }
                for q in Squares(squares) {
                    let d = if budget < WITHIN as i32 - 1 { 0 } else { self.b.dist(id, k, q.index()) };
                    if d < FAR as i32 && d <= budget && !each((id, k, q.0)) {
                        return;
                    }
                }
            }
        }
    }

    /// Closes `pic` (kinds all known, `need` its moves per side): see the module doc.
    fn extend(&mut self, pic: ArrayVec<Target, 16>, need: [i32; 2]) {
        if self.steps.fetch_add(1, Ordering::Relaxed) > MOST_STEPS || self.out.len() > MOST_CLOSED {
            self.overflow = true;
            return;
        }
        let bd = self.board(&pic);
        if bd.a_king.is_some_and(|wk| king_attacks(Square(bd.s as u8)) & (1u64 << wk) != 0) {
            return;
        }
        let Some(all) = self.fixes(&bd) else { return };
        if all.is_empty() || pic.is_full() {
            self.keep(pic, need);
            return;
        }
        let used = pic.iter().fold(0u64, |m, t| m | 1u64 << t.id);
        // The move with the fewest ways to take it away (each count stops at the best so
        // far); none: the picture is no mate.
        let mut best = (usize::MAX, 0);
        for (i, f) in all.iter().enumerate() {
            let mut n = 0;
            self.candidates(&bd, used, need, f, |_| {
                n += 1;
                n < best.0
            });
            if n < best.0 {
                best = (n, i);
                if n == 0 {
                    return;
                }
                if n == 1 {
                    break;
                }
            }
        }
        let mut adds: Vec<Add> = Vec::with_capacity(best.0);
        self.candidates(&bd, used, need, &all[best.1], |a| {
            adds.push(a);
            true
        });
        for (id, k, q) in adds {
            let mut next = pic.clone();
            next.push(Target { id, kind: k, sq: q });
            // One more piece that stays: the other side's pawns may capture one less.
            let n = self.need(&next);
            if n[0] > self.b.wa || n[1] > self.b.bm {
                continue;
            }
            self.extend(next, n);
            if self.overflow {
                return;
            }
        }
    }

    fn keep(&mut self, mut pic: ArrayVec<Target, 16>, need: [i32; 2]) {
        pic.sort_unstable();
        if self.seen.insert(pic.clone()) {
            self.out.push((pic, (self.b.wa - need[0]) as i8, (self.b.bm - need[1]) as i8));
        }
    }
}
