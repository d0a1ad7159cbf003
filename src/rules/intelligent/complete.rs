//! Complete stalemate pictures, for the stalemates in which the stalemating side makes one
//! move only, the last one: `ser-h=n` (the series side plays n moves, then is stalemated in
//! one) and `h=1`.
//!
//! There the stalemating side `A` stands still until its one move, so the final position
//! holds every piece of the stalemated side `M` on a square it reached by its own moves, and
//! **every one of them** must be left without a legal move. A complete picture places all of
//! `M`'s pieces, its king included (each with its kind at the end: a pawn may have
//! promoted), so that the search can count, per picture, the sum of the pieces' distances to
//! their squares against the moves left: a far tighter count than the king's flights and the
//! spare moves of the ordinary stalemate pictures (`super` module doc), which leave the
//! other pieces free.
//!
//! The pictures are a relaxation, never missing a stalemate. In the final position:
//! - `M`'s king stands on `s`. Each square `f` next to it holds a piece of `M`, or is
//!   attacked at the end (on the empty board) by a piece of `A` from where it stands now or
//!   by the piece that moves from where it ends (a promotion included), or holds a piece of
//!   `A` now (which may be protected).
//! - Any other piece `X` of `M` on `t`: for a pawn, the square in front is filled (by a
//!   piece of `M`, or by a piece of `A` standing there now or coming there with its move);
//!   for any other kind, every square of its first step on the empty board (the next
//!   square of each line of a queen, rook or bishop, each leap of a knight) holds a piece of
//!   `M`: empty, it could go there, and a piece of `A` there it could take. The exceptions:
//!   `X` may be pinned, when `s` and `t` lie on a line, with a square beyond `t` where a
//!   piece of `A` able to pin along that line may stand at the end, and the line takes all
//!   of `X`'s moves (a knight on any line, a rook on a diagonal, a bishop on a rank or file,
//!   a pawn on a rank or diagonal; never a queen): then nothing is asked of its squares. And
//!   `A`'s last move may take one piece of `M`, on a square that some piece of `A` attacks
//!   now: that piece needs only to reach such a square, and fills nothing for the others.
//! - `A` moves one piece once, so it ends on one square: the pawn it blocks by coming in
//!   front, the piece it pins by coming beyond it, the flights it attacks from there and the
//!   piece it takes all ask for that
//!   same square (a pin by a piece standing there now asks nothing of it), and a piece of
//!   `A` pins one piece only (the first one on its line).
//! - The captures a pawn of `M` could make are not asked about, nor is check, nor whether
//!   `A` has a move at all: each only drops a condition of the true position.
//!
//! Every stalemate position of such a line therefore matches one picture, with each piece's
//! moves at least its empty-board distance to its square. The pictures are found by placing
//! the king, then filling each square that must be filled with some piece of `M` (each
//! square, in turn, adds the squares its own piece needs filled), and placing the pieces no
//! square asks for anywhere they can reach in time; the sum of distances, plus the least
//! distance to each square still to fill, bounds each branch.

use super::{Aim, Builder, FAR, K_ANY, K_KING, K_PAWN, MOST_PICTURES, PROMOTED, Plan, WITHIN, assemble, attacks_of, distance_to, merge};
use crate::geometry::{Square, Squares};
use crate::piece::Color;
use crate::position::Position;
use crate::rules::chess::{king_attacks, knight_attacks, pawn_attacks};
use arrayvec::ArrayVec;
use std::collections::HashSet;

/// Most steps of the enumeration; beyond, there is no plan (the search goes without).
const MOST_STEPS: u64 = 30_000_000;

/// The enumeration of [`plan`].
struct Complete<'a> {
    b: Builder<'a>,
    /// `M`'s pieces, king excluded (identities as a mask).
    others: u64,
    /// Squares of `A`'s pieces now, and of its king.
    a_occ: u64,
    a_king: u64,
    /// Squares `A`'s pieces attack from where they stand now (on the empty board).
    a_guard: u64,
    /// Per square, where `A`'s one move may end to attack it from there.
    guard_dest: [u64; 64],
    /// The king's flights that the piece of `A` that moves may attack instead of a piece
    /// of `M` standing there (no other piece of the picture needs them filled).
    soft: u64,
    /// Squares `A` may take a piece on with its one move.
    a_cap: u64,
    /// Squares any piece of `A` may end on with its one move.
    a_reach: u64,
    /// Squares where a piece of `A` able to pin along ranks and files (`[0]`) or diagonals
    /// (`[1]`) stands now, and where one may end with its one move.
    pin_now: [u64; 2],
    pin_moved: [u64; 2],
    /// Where `A`'s one move may end, as the picture asks so far.
    dest: u64,
    /// The squares of the pieces of `A` that pin a piece of the picture.
    pins: u64,
    // The picture being built: the king's square, the squares of its pieces, the squares
    // that must hold a piece of `M`, the pieces placed, their aims and distances, whether a
    // piece is taken by the last move; the steps so far.
    ks: usize,
    occ: u64,
    need: u64,
    assigned: u64,
    aims: Vec<Aim>,
    spent: i32,
    taken: bool,
    steps: u64,
    found: HashSet<Vec<Aim>>,
    overflow: bool,
}

/// Complete stalemate pictures of `p` for a stalemate of `mated` after `mated_moves` of its
/// moves and then one move of its opponent (module doc); `None` when the builder does not
/// apply (see [`super::plan`]) or the pictures are too many to enumerate.
pub(super) fn plan(p: &Position, mated: Color, mated_moves: u32) -> Option<Plan> {
    let b = Builder::new(p, mated, mated_moves as i32, 1, false)?;
    let mating = mated.opponent();
    let mut c = Complete {
        others: 0,
        a_occ: 0,
        a_king: 0,
        a_guard: 0,
        guard_dest: [0; 64],
        soft: 0,
        a_cap: 0,
        a_reach: 0,
        pin_now: [0; 2],
        pin_moved: [0; 2],
        dest: !0,
        pins: 0,
        ks: 0,
        occ: 0,
        need: 0,
        assigned: 0,
        aims: Vec::new(),
        spent: 0,
        taken: false,
        steps: 0,
        found: HashSet::new(),
        overflow: false,
        b,
    };
    for (id, &(col, kind, sq)) in c.b.pieces.iter().enumerate() {
        let sq = sq as usize;
        if col == mated {
            if id as u8 != c.b.king {
                c.others |= 1u64 << id;
            }
            continue;
        }
        c.a_occ |= 1u64 << sq;
        c.a_cap |= if kind == K_PAWN { pawn_attacks(mating, Square(sq as u8)) } else { attacks_of(kind, sq) };
        if kind == K_KING {
            c.a_king |= 1u64 << sq;
        }
        // Where it may stand at the end, with its kind there.
        let mut ends: Vec<(u8, usize)> = vec![(kind, sq)];
        if kind == K_PAWN {
            let (up, start, last): (i32, usize, usize) = if mating == Color::White { (8, 1, 7) } else { (-8, 6, 0) };
            let mut to = pawn_attacks(mating, Square(sq as u8));
            let one = sq as i32 + up;
            if (0..64).contains(&one) {
                to |= 1u64 << one;
                if sq / 8 == start {
                    to |= 1u64 << (one + up);
                }
            }
            // En passant: the pawn beside it may be taken.
            c.a_cap |= (king_attacks(Square(sq as u8)) & 0xFFu64 << (sq / 8 * 8)) & !(1u64 << sq);
            for t in Squares(to) {
                let t = t.index();
                if t / 8 == last {
                    ends.extend(PROMOTED.iter().map(|&k| (k, t)));
                } else {
                    ends.push((K_PAWN, t));
                }
            }
        } else {
            ends.extend(Squares(attacks_of(kind, sq)).map(|t| (kind, t.index())));
        }
        for (k, t) in ends {
            let moved = t != sq;
            if moved {
                c.a_reach |= 1u64 << t;
            }
            let hits = if k == K_PAWN { pawn_attacks(mating, Square(t as u8)) } else { attacks_of(k, t) };
            if moved {
                for f in Squares(hits) {
                    c.guard_dest[f.index()] |= 1u64 << t;
                }
            } else {
                c.a_guard |= hits;
            }
            let pins = if moved { &mut c.pin_moved } else { &mut c.pin_now };
            if matches!(k, 1 | 2) {
                pins[0] |= 1u64 << t;
            }
            if matches!(k, 1 | 3) {
                pins[1] |= 1u64 << t;
            }
        }
    }
    c.run();
    if c.overflow {
        return None;
    }
    // In a fixed order, whatever the set's.
    let mut found: Vec<Vec<Aim>> = c.found.into_iter().collect();
    found.sort_unstable_by_key(|pic| pic.iter().map(|a| (a.id, a.kind, a.squares)).collect::<Vec<_>>());
    // The piece the last move takes is the one aimed at with any kind (at the squares it may
    // be taken on). `stalemate: false`: every piece of `M` is in each picture, none is left
    // for the accounting of the other pieces.
    let takeable: fn(&[Aim]) -> u64 = |aims| aims.iter().filter(|a| a.kind == K_ANY).fold(0, |m, a| m | 1u64 << a.id);
    Some(assemble(&c.b, &merge(found, c.b.pieces.len()), takeable, false))
}

impl Complete<'_> {
    fn run(&mut self) {
        let kid = self.b.king;
        for s in 0..64 {
            let d = self.b.dist(kid, K_KING, s);
            if d > self.b.bm || self.a_king & 1u64 << s != 0 {
                continue;
            }
            self.ks = s;
            self.occ = 1u64 << s;
            self.need = king_attacks(Square(s as u8)) & !self.a_guard & !self.a_occ;
            self.soft = self.need;
            self.assigned = 1u64 << kid;
            self.aims.clear();
            self.aims.push(Aim { id: kid, kind: K_KING, squares: 1u64 << s });
            self.spent = d;
            self.taken = false;
            self.dest = !0;
            self.pins = 0;
            self.go();
            if self.overflow {
                return;
            }
        }
    }

    /// The squares beyond `t` on the line from the king's square through `t`, with whether
    /// the line is a rank or file; `None` when `t` is on no line with it, or when the line
    /// does not take all the moves of kind `k` (module doc).
    fn pin_line(&self, k: u8, t: usize) -> Option<(u64, bool)> {
        let (s, t) = (self.ks as i32, t as i32);
        let (df, dr) = (t % 8 - s % 8, t / 8 - s / 8);
        let orth = df == 0 || dr == 0;
        if (df, dr) == (0, 0) || !(orth || df.abs() == dr.abs()) {
            return None;
        }
        let kills = match k {
            4 => true,
            2 => !orth,
            3 => orth,
            K_PAWN => dr == 0 || !orth,
            _ => false,
        };
        if !kills {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let (mut f, mut r) = (t % 8 + sf, t / 8 + sr);
        let mut beyond = 0u64;
        while (0..8).contains(&f) && (0..8).contains(&r) {
            beyond |= 1u64 << (r * 8 + f);
            f += sf;
            r += sr;
        }
        (beyond != 0).then_some((beyond, orth))
    }

    /// The ways `X` of kind `k` on `t` can be left without a move: each the squares that
    /// must then hold a piece of `M`, the squares `A`'s one move may end on (all of them
    /// where it does not matter), and the square of the piece of `A` that pins it where one
    /// standing there now does (each such piece pins one piece only).
    fn ways(&self, k: u8, t: usize) -> ArrayVec<(u64, u64, u64), 8> {
        let mut v = ArrayVec::new();
        let sq = Square(t as u8);
        let holes = match k {
            K_PAWN => {
                let f = if self.b.mated == Color::White { t + 8 } else { t.wrapping_sub(8) };
                if f >= 64 || self.a_occ & 1u64 << f != 0 {
                    0
                } else {
                    if self.a_reach & 1u64 << f != 0 {
                        // Blocked by the piece of `A` that moves last.
                        v.push((0, 1u64 << f, 0));
                    }
                    1u64 << f
                }
            }
            4 => knight_attacks(sq),
            // Queen, rook, bishop: the next square of each line.
            _ => attacks_of(k, t) & king_attacks(sq),
        };
        if holes == 0 {
            v.clear();
            v.push((0, !0, 0));
            return v;
        }
        v.push((holes, !0, 0));
        if let Some((beyond, orth)) = self.pin_line(k, t) {
            let i = !orth as usize;
            for pinner in Squares(beyond & self.pin_now[i] & !self.pins) {
                let _ = v.try_push((0, !0, 1u64 << pinner.index()));
            }
            if beyond & self.pin_moved[i] != 0 {
                let _ = v.try_push((0, beyond & self.pin_moved[i], 0));
            }
        }
        v
    }

    /// Places `X` (`id`, kind `k`) on `t`, `d` moves away, each way it can stand still in
    /// turn, and goes on.
    fn place(&mut self, id: u8, k: u8, t: usize, d: i32) {
        for (holes, dest, pinner) in self.ways(k, t) {
            let dest = self.dest & dest;
            if dest == 0 {
                continue;
            }
            let saved = (self.need, self.spent, self.dest, self.pins, self.soft);
            self.occ |= 1u64 << t;
            self.assigned |= 1u64 << id;
            self.spent += d;
            self.need |= holes;
            // A flight that is also this piece's hole must hold a piece of `M`.
            self.soft &= !holes;
            self.dest = dest;
            self.pins |= pinner;
            self.aims.push(Aim { id, kind: k, squares: 1u64 << t });
            self.go();
            self.occ &= !(1u64 << t);
            self.assigned &= !(1u64 << id);
            (self.need, self.spent, self.dest, self.pins, self.soft) = saved;
            self.aims.pop();
            if self.overflow {
                return;
            }
        }
    }

    fn go(&mut self) {
        self.steps += 1;
        if self.steps > MOST_STEPS {
            self.overflow = true;
        }
        if self.overflow {
            return;
        }
        let left = self.b.bm - self.spent;
        let open = self.need & !self.occ;
        let free = self.others & !self.assigned;
        // The flights still open that the moving piece of `A` may attack instead.
        let mut guardable = 0u64;
        for f in Squares(open & self.soft) {
            if self.guard_dest[f.index()] & self.dest != 0 {
                guardable |= 1u64 << f.index();
            }
        }
        let hard = open & !guardable;
        if hard.count_ones() > free.count_ones() {
            return;
        }
        // Each square to fill needs a different piece: at least the least distance to it.
        let mut bound = 0;
        let mut pick: Option<(usize, u32)> = None;
        for f in Squares(hard) {
            let f = f.index();
            let (mut least, mut count) = (FAR as i32, 0);
            for id in Squares(free) {
                let d = self.b.dist(id.0, K_ANY, f);
                least = least.min(d);
                count += (d <= left) as u32;
            }
            if count == 0 {
                return;
            }
            bound += least;
            if pick.is_none_or(|(_, c)| count < c) {
                pick = Some((f, count));
            }
        }
        if bound > left {
            return;
        }
        let pick = pick.map(|(f, _)| f).or_else(|| Squares(guardable).next().map(|f| f.index()));
        if let Some(f) = pick {
            for id in Squares(free) {
                let id = id.0;
                for k in self.b.end_kinds(id) {
                    let d = self.b.dist(id, k, f);
                    if d > left {
                        continue;
                    }
                    self.place(id, k, f, d);
                }
            }
            if guardable & 1u64 << f != 0 {
                // Attacked by the piece of `A` that moves.
                let saved = (self.need, self.dest);
                self.need &= !(1u64 << f);
                self.dest &= self.guard_dest[f];
                self.go();
                (self.need, self.dest) = saved;
            }
            return;
        }
        let Some(id) = Squares(free).next().map(|s| s.0) else {
            self.record();
            return;
        };
        let budget = left.clamp(0, WITHIN as i32 - 1) as usize;
        for k in self.b.end_kinds(id) {
            let reach = self.b.within[id as usize][k as usize][budget] & !self.occ & !self.a_king;
            for t in Squares(reach) {
                let t = t.index();
                let d = self.b.dist(id, k, t);
                if d > left {
                    continue;
                }
                self.place(id, k, t, d);
            }
        }
        // Taken by the last move, on a square some piece of `A` attacks now.
        if !self.taken && self.a_cap & self.dest != 0 {
            let aim = Aim { id, kind: K_ANY, squares: self.a_cap & self.dest };
            let (col, now, from) = self.b.pieces[id as usize];
            let d = distance_to(col, now, from as usize, &aim, &self.b.castles[col.index()], super::ANY_CAPS) as i32;
            if d <= left {
                let saved = self.dest;
                self.taken = true;
                self.dest &= self.a_cap;
                self.assigned |= 1u64 << id;
                self.spent += d;
                self.aims.push(aim);
                self.go();
                self.aims.pop();
                self.spent -= d;
                self.assigned &= !(1u64 << id);
                self.taken = false;
                self.dest = saved;
            }
        }
    }

    fn record(&mut self) {
        if self.found.len() >= MOST_PICTURES {
            self.overflow = true;
            return;
        }
        let mut key = self.aims.clone();
        key.sort_unstable_by_key(|a| a.id);
        self.found.insert(key);
    }
}
