//! A lower bound for help play: can the side to be mated still be mated within the moves
//! left? Used by the helpmate search to cut lines that cannot end in mate in time.
//!
//! It knows mate and stalemate only ([`needs_check`]): for every other goal (`==`, `+`, and
//! the goals of the move: `#=`, `!=`, `~`, `x`, `%`, `ep`, `00`, `zxy`) it answers "maybe",
//! and the help and series searches do not ask it: they search those goals exhaustively.
//!
//! The bound is a relaxation on the **empty board**: every piece is assumed free to go
//! wherever its moves lead, pawns may capture whenever they like (so a pawn's diagonal step
//! is always open, which also covers en passant) and a pawn reaching its last rank may become
//! a queen, rook, bishop or knight. Every distance below is therefore a *lower* bound on the
//! moves the real game needs, and the test only says "unreachable" when even the relaxed
//! game cannot reach a mate.
//!
//! Let `M` be the side to be mated with `bm` moves left and `A` the mating side with `wa`
//! moves left (the mating move included). A mate needs `M`'s king on some square `s` with
//! 1. `d(s) ≤ bm`, `d` the king's distance (castling: the castled square in one move);
//! 2. `s` attacked by an `A` piece other than the king: some `A` piece can reach, within
//!    `wa` moves, a square from which it attacks `s` on the empty board (a discovered check
//!    needs the same, with the unmasking piece already there: distance 0);
//! 3. every square `f` next to `s` either attacked by `A` (the same test, the king included)
//!    or occupied by an `M` piece other than the king. Where no `A` piece can attack `f`
//!    within `wa` moves, an `M` piece must stand on `f`, and these are different pieces for
//!    different squares: the sum of the least `M` distances `b(f)` over those squares, plus
//!    `d(s)`, must be at most `bm`, and so must `d(s)` plus the moves of some assignment of
//!    different `M` pieces to those squares (castling moves king and rook at once: the rook
//!    is also counted as already standing on its castled square).
//!
//! When no square `s` passes all three, no line of the given length can end in mate.
//!
//! A stalemate needs the same of the flights (a flight is a legal move unless it is
//! attacked or holds one of the king's own pieces) but no check: the bound for `=` is the
//! test above without condition 2. It says nothing about the stalemated side's other
//! pieces, which must be left without a move too.
//!
//! With few mating moves left (up to `SHARED_MOVES`), the test is made again with the
//! mating moves *shared out*: each `A` piece makes some of them, together at most `wa` (a
//! castling is one king move, the rook going along for free), and what a piece attacks at
//! the end is what it can attack after its own share; every way of sharing them is tried.
//! A knight that must both give check from afar and guard a flight is then caught.
//!
//! Last comes the **picture test** (`Setting::pictures_possible`): in the final position
//! each `A` piece stands on *one* square, and attacks only what it attacks from there (on
//! the empty board). For each square `s` the king can reach, `A` pieces pick a square each
//! within their share of the `wa` moves; one of them, not the king, attacks `s` (mate);
//! each flight is attacked by one of them or filled by an `M` piece, different pieces for
//! different flights, their moves and the king's adding up to at most `bm`; an `A` king
//! next to `s` must first leave. A bishop that could attack every dark square with its two
//! moves still attacks only two diagonals at the end. What `A` can do does not depend on
//! `M`, so it is worked out once per king square, as the smallest sets of flights `M` must
//! fill, and kept per thread for the positions that follow with the same `A` pieces (the
//! mated side's moves between them, transpositions).
//!
//! The lines this is sure about, as a lower bound:
//! - a piece's moves on a board with other pieces are among its moves on the empty board
//!   (for a pawn: its pushes, its captures, en passant, each promoting on the last rank);
//! - pieces only disappear (captures) or change by promotion, which the tables follow;
//! - a king never gives check; after the mate, what attacks a flight on the board attacks
//!   it on the empty board too;
//! - different flights are filled by different pieces, and a piece's moves are its own;
//! - a piece stands on one square at the end, and kings never stand side by side.
//!
//! Asking costs about as much as visiting a few positions; the search's `Gate` (`solve/gate.rs`) lets it stop
//! asking where the bound does not cut.

use crate::geometry::Squares;
use crate::piece::{Color, Kind};
use crate::position::{Position, castle, castle_squares};
use crate::rules::Goal;
use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use arrayvec::ArrayVec;
use std::sync::LazyLock;

/// Move counts the tables distinguish; the last entry holds every square reachable at all
/// (so a count beyond it is answered generously, never wrongly).
const STEPS: usize = 16;

/// Table slots: king, queen, rook, bishop, knight, white pawn, black pawn.
const SLOTS: usize = 7;
const KING: usize = 0;
const ROOK: usize = 2;

/// The kinds of the first five slots.
const PIECES: [Kind; 5] = [Kind::King, Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// Promotion kinds of orthodox chess (the relaxation knows only these).
const PROMOTIONS: u32 = (1 << Kind::Queen as u32) | (1 << Kind::Rook as u32) | (1 << Kind::Bishop as u32) | (1 << Kind::Knight as u32);

/// Reach tables on the empty board, for each slot, square and number of moves.
struct Tables {
    /// `reach[slot][from][n]`: the squares the piece can stand on after at most `n` moves.
    reach: Vec<[u64; STEPS]>,
    /// `attack[slot][from][n]`: the squares it can attack after at most `n` moves.
    attack: Vec<[u64; STEPS]>,
}

impl Tables {
    #[inline(always)]
    fn reach(&self, slot: usize, from: usize, n: usize) -> u64 {
        self.reach[slot * 64 + from][n.min(STEPS - 1)]
    }
    #[inline(always)]
    fn attack(&self, slot: usize, from: usize, n: usize) -> u64 {
        self.attack[slot * 64 + from][n.min(STEPS - 1)]
    }
}

/// Empty-board moves (= attacks) of an orthodox piece other than the pawn.
pub(crate) fn piece_moves(k: Kind, s: usize) -> u64 {
    let sq = crate::geometry::Square(s as u8);
    match k {
        Kind::King => king_attacks(sq),
        Kind::Queen => rook_attacks(sq, 0) | bishop_attacks(sq, 0),
        Kind::Rook => rook_attacks(sq, 0),
        Kind::Bishop => bishop_attacks(sq, 0),
        Kind::Knight => knight_attacks(sq),
        _ => unreachable!("not a table piece: {k:?}"),
    }
}

/// Relaxed moves of a pawn of colour `c` on `s`: one step forward, two from its initial
/// rank, one diagonally forward (a capture, en passant included), whatever stands there.
pub(crate) fn pawn_moves(c: Color, s: usize) -> u64 {
    let rank = s / 8;
    let (last, start, up): (usize, usize, i32) = match c {
        Color::White => (7, 1, 8),
        Color::Black => (0, 6, -8),
    };
    if rank == last {
        return 0;
    }
    let fwd = (s as i32 + up) as usize;
    let mut m = 1u64 << fwd;
    if rank == start {
        m |= 1u64 << (fwd as i32 + up) as usize;
    }
    m | pawn_attacks(c, crate::geometry::Square(s as u8))
}

/// Reach and attack sets of a piece starting on `from` in table slot `slot`, by number of
/// moves: a breadth-first search over (square, form) with bitboards, where a pawn reaching
/// its last rank goes on as a queen, rook, bishop or knight (the same move). The last entry
/// is the closure: everything reachable at all.
fn layers(slot: usize, from: usize) -> ([u64; STEPS], [u64; STEPS]) {
    // Forms are table slots: 0..5 the pieces, 5 and 6 the white and black pawn.
    let pawn = match slot {
        5 => Some(Color::White),
        6 => Some(Color::Black),
        _ => None,
    };
    let last_rank = match pawn {
        Some(Color::White) => 0xFFu64 << 56,
        Some(Color::Black) => 0xFF,
        None => 0,
    };
    let moves = |form: usize, x: usize| if form >= 5 { pawn_moves(pawn.expect("pawn form"), x) } else { piece_moves(PIECES[form], x) };
    let attacks = |form: usize, x: usize| {
        if form >= 5 { pawn_attacks(pawn.expect("pawn form"), crate::geometry::Square(x as u8)) } else { piece_moves(PIECES[form], x) }
    };
    let mut at = [0u64; SLOTS];
    at[slot] = 1u64 << from;
    let mut frontier = at;
    let (mut reach, mut attack) = ([0u64; STEPS], [0u64; STEPS]);
    let (mut r, mut a) = (1u64 << from, attacks(slot, from));
    reach[0] = r;
    attack[0] = a;
    let mut n = 1;
    loop {
        let mut next = [0u64; SLOTS];
        for form in 0..SLOTS {
            for x in Squares(frontier[form]) {
                let t = moves(form, x.index());
                if form >= 5 {
                    next[form] |= t & !last_rank;
                    for promoted in 1..5 {
                        next[promoted] |= t & last_rank;
                    }
                } else {
                    next[form] |= t;
                }
            }
        }
        let mut grew = false;
        for form in 0..SLOTS {
            frontier[form] = next[form] & !at[form];
            at[form] |= frontier[form];
            grew |= frontier[form] != 0;
            r |= frontier[form];
            for x in Squares(frontier[form]) {
                a |= attacks(form, x.index());
            }
        }
        let i = n.min(STEPS - 1);
        reach[i] = r;
        attack[i] = a;
        if !grew && n >= STEPS - 1 {
            break;
        }
        n += 1;
    }
    (reach, attack)
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut reach = vec![[0u64; STEPS]; SLOTS * 64];
    let mut attack = vec![[0u64; STEPS]; SLOTS * 64];
    for slot in 0..SLOTS {
        for from in 0..64 {
            if slot >= 5 && (from / 8 == 0 || from / 8 == 7) {
                continue; // no pawn stands there
            }
            (reach[slot * 64 + from], attack[slot * 64 + from]) = layers(slot, from);
        }
    }
    Tables { reach, attack }
});

/// A castling still allowed: the king's square after it, the rook's square before and after.
#[derive(Clone, Copy)]
pub(crate) struct Castling {
    pub(crate) king_to: usize,
    pub(crate) rook_from: usize,
    pub(crate) rook_to: usize,
}

/// The castlings `c` still has a right to, its king on `king`.
pub(crate) fn castlings(p: &Position, c: Color, king: usize) -> ArrayVec<Castling, 2> {
    castlings_with(p.castling(), c, king)
}

/// The castlings `c` has a right to under the castling rights `rights`, its king on `king`.
pub(crate) fn castlings_with(rights: u8, c: Color, king: usize) -> ArrayVec<Castling, 2> {
    let (base, bits) = match c {
        Color::White => (0u8, [castle::WK, castle::WQ]),
        Color::Black => (56, [castle::BK, castle::BQ]),
    };
    let mut out = ArrayVec::new();
    if king / 8 != base as usize / 8 {
        return out;
    }
    for (bit, rook) in [(bits[0], base + 7), (bits[1], base)] {
        if rights & bit != 0 {
            let (k, r) = castle_squares(crate::geometry::Square(king as u8), crate::geometry::Square(rook));
            out.push(Castling { king_to: k.index(), rook_from: rook as usize, rook_to: r.index() });
        }
    }
    out
}

/// Most mating moves for which the moves are shared out among the mating pieces (beyond,
/// each piece is given them all).
const SHARED_MOVES: usize = 3;
/// Most ways of sharing them out that are tried.
const SHARED_WAYS: usize = 64;

/// The squares next to one of `b` (a square of `b` only when next to another one).
fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let v = b | h;
    h | (v << 8) | (v >> 8)
}

/// `n + k - 1` choose `k`: the ways of sharing `k` moves among `n` pieces (capped).
fn ways(n: usize, k: usize) -> usize {
    let mut w = 1usize;
    for i in 1..=k {
        w = w.saturating_mul(n + i - 1) / i;
    }
    w
}

/// The kinds of the mated side's pieces other than the king, in the order of
/// [`MatedSide::pieces`].
const MATED_KINDS: [Kind; 5] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn];

/// Most moves of the mated side the bound handles (beyond, it does not apply).
const MATED_MOVES: usize = 7;

/// The mated side: where its king and other pieces can be within the moves left.
struct MatedSide<'a> {
    p: &'a Position,
    mated: Color,
    bm: usize,
    /// `king_reach[j]`: squares the king can stand on after at most `j` moves.
    king_reach: [u64; MATED_MOVES + 1],
    /// `stand[j]`: squares another piece can stand on within `j` moves (computed for
    /// `j < stand_done`).
    stand: [u64; MATED_MOVES + 1],
    stand_done: usize,
    /// Whether the goal needs the king in check (mate); a stalemate needs only the flights.
    needs_check: bool,
    /// Where the castlings still allowed take the rooks: `(rook_from, rook_to)`.
    castling_rooks: ArrayVec<(usize, usize), 2>,
    /// Per piece other than the king, `reach[j]`: where it can stand within `j` moves
    /// (computed on first use).
    pieces: Option<ArrayVec<[u64; MATED_MOVES + 1], 16>>,
}

impl MatedSide<'_> {
    /// `stand`, computed up to `n` moves (at most `bm`): the union of [`Self::pieces`].
    fn stand(&mut self, n: usize) -> &[u64; MATED_MOVES + 1] {
        if self.stand_done <= n {
            let from = self.stand_done;
            let mut stand = self.stand;
            for r in self.pieces() {
                for j in from..=n {
                    stand[j] |= r[j];
                }
            }
            self.stand = stand;
            self.stand_done = n + 1;
        }
        &self.stand
    }

    /// The mated side's pieces other than the king, each with where it can stand within
    /// `j` moves (a rook that may castle also where castling takes it, at no move).
    fn pieces(&mut self) -> &[[u64; MATED_MOVES + 1]] {
        if self.pieces.is_none() {
            let mut v = ArrayVec::new();
            for kind in MATED_KINDS {
                for s in Squares(self.p.pieces(self.mated, kind)) {
                    if v.try_push(self.piece_reach(kind, s.index())).is_err() {
                        break;
                    }
                }
            }
            self.pieces = Some(v);
        }
        self.pieces.as_deref().unwrap_or(&[])
    }

    /// The mated side's pieces other than the king, kind and square, in the order of
    /// [`Self::pieces`].
    fn piece_squares(&self) -> impl Iterator<Item = (Kind, usize)> + '_ {
        MATED_KINDS.into_iter().flat_map(move |kind| Squares(self.p.pieces(self.mated, kind)).map(move |s| (kind, s.index())))
    }

    /// Where a piece of the mated side (`kind`, on `s`) can stand within each number of
    /// moves up to `bm` (a rook that may castle also where castling takes it, at no move).
    #[inline(always)]
    fn piece_reach(&self, kind: Kind, s: usize) -> [u64; MATED_MOVES + 1] {
        let t = &*TABLES;
        let sl = match kind {
            Kind::Pawn => 5 + self.mated.index(),
            Kind::Queen => 1,
            Kind::Rook => ROOK,
            Kind::Bishop => 3,
            _ => 4, // the knight (the bound knows only orthodox pieces)
        };
        let castled = if kind == Kind::Rook { self.castling_rooks.iter().find(|c| c.0 == s).map(|c| c.1) } else { None };
        let mut r = [0u64; MATED_MOVES + 1];
        for (j, e) in r.iter_mut().enumerate().take(self.bm + 1) {
            *e = t.reach(sl, s, j) | castled.map_or(0, |to| t.reach(ROOK, to, j));
        }
        r
    }

    /// The mated side after one of its moves: its king can then reach `king_reach`, its
    /// other pieces `pieces` (the rest as before).
    fn after(&self, king_reach: [u64; MATED_MOVES + 1], pieces: ArrayVec<[u64; MATED_MOVES + 1], 16>) -> Self {
        MatedSide {
            king_reach,
            stand: [0; MATED_MOVES + 1],
            stand_done: 0,
            castling_rooks: self.castling_rooks.clone(),
            pieces: Some(pieces),
            ..*self
        }
    }

    /// Whether different pieces of the mated side can stand on every square of `needed`
    /// with at most `budget` moves in all (each piece on at most one square).
    fn blocks_fit(&mut self, needed: u64, budget: usize) -> bool {
        blocks_fit(self.pieces(), needed, budget)
    }

    /// Whether some king square passes the test when the mating side can attack `cover`
    /// (king included) and `check` (king excluded). For a stalemate the king need not be in
    /// check: every square passes the second condition.
    fn mate_possible(&mut self, cover: u64, check: u64) -> bool {
        let check = if self.needs_check { check } else { !0 };
        let bm = self.bm;
        let squares = self.king_reach[bm] & check;
        if squares == 0 {
            return false;
        }
        // A square whose flights are all attacked.
        let open = !cover;
        if squares & !neighbours(open) != 0 {
            return true;
        }
        // The others need the mated side's pieces on the open flights.
        let mut seen = 0u64;
        for j in 0..=bm {
            let ring = self.king_reach[j] & !seen;
            seen |= ring;
            let budget = bm - j;
            let stand = *self.stand(budget);
            // Flights no piece can reach in time rule their neighbours out.
            let fit = ring & check & !neighbours(open & !stand[budget]);
            if fit != 0 && budget == 0 {
                return true; // every open flight already occupied
            }
            for s in Squares(fit) {
                let needed = king_attacks(s) & open;
                // Σ b(f) over the needed flights: b(f) = the least i with f in stand[i].
                let cost: u32 = (0..budget).map(|i| (needed & !stand[i]).count_ones()).sum();
                if cost as usize <= budget && self.blocks_fit(needed, budget) {
                    return true;
                }
            }
        }
        false
    }
}

/// The squares of `allowed` the mated king can reach within `bm` moves (`king_reach[j]`:
/// within `j` moves), nearest first, each with the moves it leaves over.
fn king_squares(king_reach: [u64; MATED_MOVES + 1], bm: usize, allowed: u64) -> KingSquares {
    KingSquares { king_reach, bm, allowed, j: 0, ring: king_reach[0] & allowed }
}

/// The iterator of [`king_squares`].
struct KingSquares {
    king_reach: [u64; MATED_MOVES + 1],
    bm: usize,
    allowed: u64,
    /// The moves of the ring being gone through, and what is left of it.
    j: usize,
    ring: u64,
}

impl Iterator for KingSquares {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        while self.ring == 0 {
            if self.j >= self.bm {
                return None;
            }
            self.j += 1;
            self.ring = self.king_reach[self.j] & !self.king_reach[self.j - 1] & self.allowed;
        }
        let s = self.ring.trailing_zeros() as usize;
        self.ring &= self.ring - 1;
        Some((s, self.bm - self.j))
    }
}

/// Whether different pieces of `pieces` (where each can stand within each number of moves)
/// can stand on every square of `needed` with at most `budget` moves in all.
fn blocks_fit(pieces: &[[u64; MATED_MOVES + 1]], needed: u64, budget: usize) -> bool {
    fn fit(pieces: &[[u64; MATED_MOVES + 1]], needed: u64, used: u32, left: usize) -> bool {
        if needed == 0 {
            return true;
        }
        let f = needed & needed.wrapping_neg();
        let rest = needed & !f;
        // Each square still to fill needs a move unless a piece already stands there.
        pieces.iter().enumerate().any(|(i, r)| {
            used & (1 << i) == 0 && (0..=left).find(|&j| r[j] & f != 0).is_some_and(|c| fit(pieces, rest, used | (1 << i), left - c))
        })
    }
    (needed.count_ones() as usize) <= pieces.len() && fit(pieces, needed, 0, budget)
}

/// What one mating piece can attack with `b` moves, for `b` up to [`SHARED_MOVES`]:
/// `(cover, check)`, `check` empty for the king.
type Reach = [(u64, u64); SHARED_MOVES + 1];

/// Tries every way of sharing `left` moves among `pieces` (the last one takes the rest);
/// true when one passes.
fn share(side: &mut MatedSide, pieces: &[Reach], left: usize, cover: u64, check: u64) -> bool {
    match pieces {
        [] => side.mate_possible(cover, check),
        [last] => side.mate_possible(cover | last[left].0, check | last[left].1),
        [first, rest @ ..] => (0..=left).any(|b| {
            // More moves that attack nothing more are better left to the others.
            (b == 0 || first[b] != first[b - 1]) && share(side, rest, left - b, cover | first[b].0, check | first[b].1)
        }),
    }
}

/// A mating piece that matters, as the bound sees it: table slot, square, whether its
/// castlings count, and what it can attack with all the moves left.
#[derive(Clone, Copy, Debug)]
struct Mover {
    sl: u8,
    s: u8,
    castles: bool,
    all: (u64, u64),
}

/// The goals the bound and the filters judge, with whether each needs the king in check:
/// `Some(true)` for mate, `Some(false)` for stalemate, `None` for the others.
pub(crate) fn needs_check(goal: Goal) -> Option<bool> {
    match goal {
        Goal::Mate => Some(true),
        Goal::Stalemate => Some(false),
        _ => None,
    }
}

/// Whether the relaxation knows every piece and promotion of `p` (no fairy pieces, no fairy
/// promotions, no Réserve).
/// Whether the bounds apply: orthodox pieces and promotions, no Réserve.
pub(crate) fn applies(p: &Position) -> bool {
    !p.has_fairy() && !p.reserve_rule().any() && p.promotions == PROMOTIONS
}

/// The castlings the mating side `a` still has a right to.
fn mating_castlings(p: &Position, a: Color) -> ArrayVec<Castling, 2> {
    match p.king(a) {
        Some(k) if p.castling() != 0 => castlings(p, a, k.index()),
        _ => ArrayVec::new(),
    }
}

/// The orthodox kinds of side `a` with their table slots.
fn slots(a: Color) -> [(Kind, usize); 6] {
    [(Kind::King, KING), (Kind::Queen, 1), (Kind::Rook, ROOK), (Kind::Bishop, 3), (Kind::Knight, 4), (Kind::Pawn, 5 + a.index())]
}

/// What a mating piece (table slot `sl`, on `s`) can attack after at most `b` moves of its
/// own: `(cover, check)`, `check` empty for the king. `castled`: the mating side's castlings
/// still allowed (the king's castling step is one move; a rook that castles with the king
/// lands on its square at no move of its own).
fn attack_with(t: &Tables, castled: &[Castling], sl: usize, s: usize, b: usize) -> (u64, u64) {
    let mut att = t.attack(sl, s, b);
    if sl == KING {
        if b > 0 {
            for c in castled {
                att |= t.attack(KING, c.king_to, b - 1);
            }
        }
        return (att, 0);
    }
    if sl == ROOK {
        for c in castled.iter().filter(|c| c.rook_from == s) {
            att |= t.attack(ROOK, c.rook_to, b);
        }
    }
    (att, att)
}

/// Before the last move of the side to be mated, its opponent then mating in one: which of
/// its moves can still be followed by a mate, on the relaxed game of the module
/// documentation. Built once per position by [`last_move_filter`]; asked per move by
/// [`LastMoveFilter::allows`].
///
/// After the move the king stands on some square `s` (where it stood, or where it went),
/// and the mating side makes one move: one of its pieces moves (at most one move), the
/// others stand. For each choice of that piece, `s` must be attacked by a piece other than
/// the king, and every flight of `s` not attacked must hold one of the mated side's pieces
/// after its move. A capture by the mated side only takes attacks away, so the same test
/// holds for it. Before a stalemate in one the same test is made without the check, and
/// with one more choice: the last move made by a piece that attacks nothing near the king.
#[derive(Clone, Debug)]
pub struct LastMoveFilter {
    /// The mated king's square.
    king: usize,
    /// The mated side's pieces other than the king.
    occupied: u64,
    /// What the mating pieces that matter attack standing: `(cover, check)`.
    standing: (u64, u64),
    /// What each of them attacks after a move of its own (for a stalemate also `(0, 0)`:
    /// a move by another piece; its checks then count for nothing).
    one: ArrayVec<(u64, u64), 17>,
    /// Whether the goal needs the king in check (mate, not stalemate).
    needs_check: bool,
    /// For each choice of the mating piece that can check the king where it stands (any
    /// choice, for a stalemate): the flights it leaves unattacked, which the mated side must
    /// occupy.
    needs: ArrayVec<u64, 17>,
}

impl LastMoveFilter {
    /// Whether a mate in one can follow the mated side's move from `from` to `to` (a king
    /// move when `from` is the king's square; castling is not judged here).
    #[inline]
    pub fn allows(&self, from: usize, to: usize) -> bool {
        if from == self.king {
            // The king on `to`, the other pieces where they stand.
            let (cover0, check0) = self.standing;
            let flights = king_attacks(crate::geometry::Square(to as u8));
            let checked = |k1: u64| !self.needs_check || (check0 | k1) & (1u64 << to) != 0;
            return self.one.iter().any(|&(c1, k1)| checked(k1) && flights & !(cover0 | c1) & !self.occupied == 0);
        }
        let occupied = (self.occupied & !(1u64 << from)) | (1u64 << to);
        self.needs.iter().any(|&n| n & !occupied == 0)
    }
}

/// The [`LastMoveFilter`] of `p`, whose side to move is to be mated (or stalemated: `goal`)
/// in one after its move; `None` where the bound does not apply (other goals, fairy pieces,
/// fairy promotions, Réserve, a missing king).
pub fn last_move_filter(p: &Position, goal: Goal) -> Option<LastMoveFilter> {
    let needs_check = needs_check(goal)?;
    if !applies(p) {
        return None;
    }
    let mated = p.side_to_move();
    let a = mated.opponent();
    let king = p.king(mated)?.index();
    let t = &*TABLES;
    let castled = mating_castlings(p, a);
    let flights = king_attacks(crate::geometry::Square(king as u8));
    // The squares that matter: the king's now and after a king move, and their flights.
    let reach = flights | (1u64 << king);
    let near = reach | neighbours(reach);
    // What each piece that matters attacks standing and after one move.
    let (mut cover0, mut check0) = (0u64, 0u64);
    let mut one: ArrayVec<(u64, u64), 17> = ArrayVec::new();
    for (sl, s) in mating_pieces(p, a) {
        let (c1, k1) = attack_with(t, &castled, sl, s, 1);
        if c1 & near == 0 {
            continue;
        }
        let (c0, k0) = attack_with(t, &castled, sl, s, 0);
        cover0 |= c0;
        check0 |= k0;
        one.try_push((c1, k1)).ok()?;
    }
    if !needs_check {
        // A stalemating move by a piece that attacks nothing near (decisive only when no
        // piece attacks anything near: every other choice needs fewer flights filled).
        one.push((0, 0));
    }
    let mut needs = ArrayVec::new();
    for &(c1, k1) in &one {
        if !needs_check || (check0 | k1) & (1u64 << king) != 0 {
            let n = flights & !(cover0 | c1);
            if !needs.contains(&n) {
                needs.push(n);
            }
        }
    }
    let occupied = p.color_bb(mated) & !(1u64 << king);
    Some(LastMoveFilter { king, occupied, standing: (cover0, check0), one, needs, needs_check })
}

/// Whether no line can reach `goal` against `mated` (mate it, or stalemate it) when it has
/// `mated_moves` moves left and its opponent `mating_moves` (the last move included), on the
/// relaxed empty-board game of the module documentation; for a stalemate the king need not
/// be attacked, only its flights (condition 2 is dropped). `false` when the bound does not
/// apply (other goals, fairy pieces, fairy promotions, Réserve, a missing king) or when the
/// goal is not ruled out.
///
/// With few mating moves and few mating pieces that matter, the mating moves are moreover
/// shared out: the pieces' moves add up to at most `mating_moves`, and every way of sharing
/// them is tried.
pub fn goal_unreachable(p: &Position, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> bool {
    let Some(mut setting) = Setting::new(p, goal, mated, mated_moves, mating_moves) else { return false };
    let mut movers = ArrayVec::new();
    if setting.movers(p, &mut movers).is_none() {
        return false;
    }
    setting.unreachable(&movers)
}

/// The pieces of side `a` as table slots and squares.
fn mating_pieces(p: &Position, a: Color) -> impl Iterator<Item = (usize, usize)> + '_ {
    slots(a).into_iter().flat_map(move |(kind, sl)| Squares(p.pieces(a, kind)).map(move |s| (sl, s.index())))
}

/// What the bound knows of a position before looking at the mating side's pieces: where the
/// mated side can be in time, and the mating side's castlings.
struct Setting<'a> {
    side: MatedSide<'a>,
    /// The squares that matter: those the mated king can reach, and their neighbours.
    near: u64,
    /// The mating side's castlings still allowed.
    castled: ArrayVec<Castling, 2>,
    /// The mating side's moves left.
    wa: usize,
}

impl<'a> Setting<'a> {
    /// `None` where the bound does not apply (goals other than mate and stalemate, fairy
    /// pieces, fairy promotions, Réserve, a missing king, too many moves).
    fn new(p: &'a Position, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Self> {
        let needs_check = needs_check(goal)?;
        if !applies(p) || mated_moves as usize > MATED_MOVES {
            return None;
        }
        let km = p.king(mated)?.index();
        let t = &*TABLES;
        let (wa, bm) = (mating_moves as usize, mated_moves as usize);
        let a = mated.opponent();
        let rights = p.castling() != 0;

        // Where M's king can be in time.
        let castled = if rights { castlings(p, mated, km) } else { ArrayVec::new() };
        let mut side = MatedSide {
            p,
            mated,
            bm,
            king_reach: [0; MATED_MOVES + 1],
            stand: [0; MATED_MOVES + 1],
            stand_done: 0,
            needs_check,
            castling_rooks: castled.iter().map(|c| (c.rook_from, c.rook_to)).collect(),
            pieces: None,
        };
        for j in 0..=bm {
            let mut r = t.reach(KING, km, j);
            if j > 0 {
                for c in &castled {
                    r |= t.reach(KING, c.king_to, j - 1);
                }
            }
            side.king_reach[j] = r;
        }
        let near = side.king_reach[bm] | neighbours(side.king_reach[bm]);
        let castled = mating_castlings(p, a);
        Some(Setting { side, near, castled, wa })
    }

    /// The [`Mover`] of a mating piece (table slot `sl`, on `s`, `castles`: whether its
    /// castlings count); `None` when it can attack no square that matters.
    fn mover(&self, sl: usize, s: usize, castles: bool) -> Option<Mover> {
        let castled: &[Castling] = if castles { &self.castled } else { &[] };
        let all = attack_with(&TABLES, castled, sl, s, self.wa);
        (all.0 & self.near != 0).then_some(Mover { sl: sl as u8, s: s as u8, castles, all })
    }

    /// Puts in `out` the [`Mover`]s of `p`'s mating pieces; `None` when there are too many.
    fn movers(&self, p: &Position, out: &mut ArrayVec<Mover, 16>) -> Option<()> {
        for (sl, s) in mating_pieces(p, self.side.mated.opponent()) {
            if let Some(m) = self.mover(sl, s, true) {
                out.try_push(m).ok()?;
            }
        }
        Some(())
    }

    /// Whether the mating side, its pieces that matter given as `movers`, cannot mate in
    /// time.
    fn unreachable(&mut self, movers: &[Mover]) -> bool {
        let wa = self.wa;
        // Each piece with all the moves.
        let (cover, check) = movers.iter().fold((0, 0), |(c, k), m| (c | m.all.0, k | m.all.1));
        if !self.side.mate_possible(cover, check) {
            return true;
        }
        // The moves shared out.
        if wa > SHARED_MOVES || movers.len() < 2 || ways(movers.len(), wa) > SHARED_WAYS {
            return !self.pictures_possible(movers);
        }
        let t = &*TABLES;
        let mut reaches: ArrayVec<Reach, 16> = ArrayVec::new();
        for m in movers {
            let castled: &[Castling] = if m.castles { &self.castled } else { &[] };
            let mut r = [(0, 0); SHARED_MOVES + 1];
            for (b, e) in r.iter_mut().enumerate().take(wa + 1) {
                *e = attack_with(t, castled, m.sl as usize, m.s as usize, b);
            }
            reaches.push(r);
        }
        !share(&mut self.side, &reaches, wa, 0, 0) || !self.pictures_possible(movers)
    }

    /// Where a mating piece can stand after at most `b` moves of its own (castling: the
    /// king's step is one move, the rook lands at no move of its own).
    fn stand_with(&self, m: &Mover, b: usize) -> u64 {
        let t = &*TABLES;
        let (sl, s) = (m.sl as usize, m.s as usize);
        let mut r = t.reach(sl, s, b);
        if m.castles {
            for c in &self.castled {
                if sl == KING && b > 0 {
                    r |= t.reach(KING, c.king_to, b - 1);
                }
                if sl == ROOK && c.rook_from == s {
                    r |= t.reach(ROOK, c.rook_to, b);
                }
            }
        }
        r
    }

    /// The picture test: in the final position each mating piece stands on **one** square
    /// and attacks from there only. For each square `s` the mated king can reach, some
    /// mating pieces pick a square each that they can reach (their moves adding up to at
    /// most `wa`): one of them, not the king, must attack `s` (mate), and each flight of `s`
    /// must be attacked by one of them or filled by the mated side: the flights so filled
    /// take different pieces of the mated side, with the moves its king leaves over. A
    /// mating king next to `s` must leave; a pawn of the mating side (which may promote on
    /// its way) is given all it can attack with its moves.
    ///
    /// What the mating side can do does not depend on the mated side: it is worked out
    /// once per king square as the smallest sets of flights the mated side must fill
    /// ([`FillSets`]), and kept for the positions that follow with the same mating pieces
    /// (the mated side's moves between them, and transpositions).
    fn pictures_possible(&mut self, movers: &[Mover]) -> bool {
        let bm = self.side.bm;
        self.with_covers(movers, |covers, this| {
            let (cover_all, check_all) = movers.iter().fold((0, 0), |(c, k), m| (c | m.all.0, k | m.all.1));
            let check_all = if this.side.needs_check { check_all } else { !0 };
            for (s, budget) in king_squares(this.side.king_reach, bm, check_all) {
                let fill = this.side.stand(budget)[budget];
                let flights = king_attacks(crate::geometry::Square(s as u8));
                // The flights no piece can attack (to be filled by the mated side in any
                // case) first.
                if flights & !cover_all & !fill != 0 || !this.side.blocks_fit(flights & !cover_all, budget) {
                    continue;
                }
                // Compared on the flights' ranks first: only the sets the mated side's
                // pieces can stand on are expanded.
                let open = compress(fill, flights);
                for &c in covers.at(this, s) {
                    if c & !open == 0 && this.side.blocks_fit(expand(c, flights), budget) {
                        return true;
                    }
                }
            }
            false
        })
    }

    /// Runs `f` with the per-thread [`Covers`] of `movers` (cleared first when it held
    /// another set of mating pieces).
    fn with_covers<R>(&mut self, movers: &[Mover], f: impl FnOnce(&mut CoversAt, &mut Self) -> R) -> R {
        let wa = self.wa.min(STEPS - 1);
        let key = CoverKey {
            pieces: movers.iter().map(|m| (m.sl, m.s, m.castles)).collect(),
            castled: self.castled.iter().map(|c| (c.king_to as u8, c.rook_from as u8, c.rook_to as u8)).collect(),
            wa: wa as u8,
            check: self.side.needs_check,
        };
        COVERS.with_borrow_mut(|cache| {
            let slot = &mut cache[(key.hash() % COVER_SLOTS as u64) as usize];
            let covers =
                slot.get_or_insert_with(|| Box::new(Covers { key: CoverKey::default(), sets: [[0; FILL_SETS]; 64], count: [UNKNOWN; 64] }));
            if covers.key != key {
                covers.key = key;
                covers.count = [UNKNOWN; 64];
            }
            f(&mut CoversAt { covers, movers }, self)
        })
    }
}

/// A [`Covers`] entry with what it takes to fill in the king squares not worked out yet.
struct CoversAt<'c> {
    covers: &'c mut Covers,
    movers: &'c [Mover],
}

impl CoversAt<'_> {
    /// The fill sets of king square `s`, compressed ([`compress`]), worked out on first
    /// need.
    fn at(&mut self, setting: &Setting, s: usize) -> &[u8] {
        if self.covers.count[s] == UNKNOWN {
            // Only the mating pieces that can do something about this square decide its
            // fill sets: those are looked up (or worked out and kept) on their own.
            let movers = setting.matter_for(self.movers, s);
            let key = SquareKey {
                pieces: movers.iter().map(|m| (m.sl, m.s, m.castles)).collect(),
                castled: self.covers.key.castled.clone(),
                s: s as u8,
                wa: self.covers.key.wa,
                check: setting.side.needs_check,
            };
            let (count, sets) = SQUARE_COVERS.with_borrow_mut(|cache| {
                let slot = &mut cache[(key.hash() % SQUARE_SLOTS as u64) as usize];
                if slot.0 != key || slot.1 == UNKNOWN {
                    let sets = setting.square_fill_sets(&movers, s);
                    let flights = king_attacks(crate::geometry::Square(s as u8));
                    slot.0 = key;
                    slot.1 = sets.len() as u8;
                    for (e, &f) in slot.2.iter_mut().zip(&sets) {
                        *e = compress(f, flights);
                    }
                }
                (slot.1, slot.2)
            });
            self.covers.count[s] = count;
            self.covers.sets[s] = sets;
        }
        &self.covers.sets[s][..self.covers.count[s] as usize]
    }
}

impl Setting<'_> {
    /// The movers of `movers` that can attack king square `s` or one of its flights with
    /// the moves left: the only ones its fill sets depend on (a mating king standing there
    /// attacks some of them).
    fn matter_for(&self, movers: &[Mover], s: usize) -> ArrayVec<Mover, 16> {
        let region = king_attacks(crate::geometry::Square(s as u8)) | 1u64 << s;
        let wa = self.wa.min(STEPS - 1);
        movers
            .iter()
            .filter(|m| {
                let castled: &[Castling] = if m.castles { &self.castled } else { &[] };
                attack_with(&TABLES, castled, m.sl as usize, m.s as usize, wa).0 & region != 0
            })
            .copied()
            .collect()
    }

    /// The fill sets of king square `s` with the mating pieces `movers`
    /// ([`Picture::fill_sets`]).
    fn square_fill_sets(&self, movers: &[Mover], s: usize) -> FillSets {
        let wa = self.wa.min(STEPS - 1);
        let stands: ArrayVec<[u64; STEPS], 16> = movers
            .iter()
            .map(|m| {
                let mut r = [0u64; STEPS];
                for (b, e) in r.iter_mut().enumerate().take(wa + 1) {
                    *e = self.stand_with(m, b);
                }
                r
            })
            .collect();
        let flights = king_attacks(crate::geometry::Square(s as u8));
        Picture { movers, stands: &stands, castled: &self.castled, s, flights }.fill_sets(wa, self.side.needs_check)
    }
}

/// What decides the fill sets of one king square: the mating pieces that can attack the
/// square or one of its flights in time ([`Setting::matter_for`]), the castlings, the square,
/// the moves, and whether the goal needs check.
#[derive(PartialEq, Eq, Default, Clone)]
struct SquareKey {
    pieces: ArrayVec<(u8, u8, bool), 16>,
    castled: ArrayVec<(u8, u8, u8), 2>,
    s: u8,
    wa: u8,
    check: bool,
}

impl SquareKey {
    fn hash(&self) -> u64 {
        let mut h = ((self.s as u64) << 8 | (self.wa as u64) << 1 | self.check as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
        for &(sl, s, c) in &self.pieces {
            h = (h ^ ((sl as u64) << 8 | (s as u64) << 1 | c as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        for &(a, b, c) in &self.castled {
            h = (h ^ ((a as u64) << 16 | (b as u64) << 8 | c as u64)).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31);
        }
        h ^ h >> 32
    }
}

/// Slots of the per-thread cache of one king square's fill sets (one in the unit tests).
const SQUARE_SLOTS: usize = if cfg!(test) { 1 } else { 1 << 15 };

thread_local! {
    /// Per king square and the mating pieces that matter there: its fill sets (compressed)
    /// and how many. A second level under [`COVERS`]: a mating piece's move changes the
    /// entry of every square in [`COVERS`], but only those of the squares it matters for
    /// here.
    static SQUARE_COVERS: std::cell::RefCell<Vec<(SquareKey, u8, [u8; FILL_SETS])>> =
        std::cell::RefCell::new(vec![(SquareKey::default(), UNKNOWN, [0; FILL_SETS]); SQUARE_SLOTS]);
}

/// The flights of `flights` in `f`, as bits of their rank in `flights`.
fn compress(f: u64, flights: u64) -> u8 {
    Squares(flights).enumerate().fold(0, |acc, (i, q)| if f & (1u64 << q.index()) != 0 { acc | 1 << i } else { acc })
}

/// The inverse of [`compress`].
fn expand(c: u8, flights: u64) -> u64 {
    Squares(flights).enumerate().fold(0, |acc, (i, q)| if c & (1 << i) != 0 { acc | 1u64 << q.index() } else { acc })
}

/// A king square whose fill sets are not worked out yet.
const UNKNOWN: u8 = u8::MAX;

/// Most smallest fill sets kept per king square; beyond, the square is taken as needing
/// no filling at all (generous, so still a lower bound).
const FILL_SETS: usize = 16;
/// The smallest sets of flights the mated side must fill itself, for one king square.
type FillSets = ArrayVec<u64, FILL_SETS>;
/// Slots of the per-thread cache of [`Covers`] (one in the unit tests, so that every
/// query meets the others' entries and the key comparison is put to the test).
const COVER_SLOTS: usize = if cfg!(test) { 1 } else { 4096 };

/// What decides what the mating side can do: its pieces that matter (slot, square, whether
/// they may castle), its castlings, its moves, and whether the goal needs check.
#[derive(PartialEq, Eq, Default)]
struct CoverKey {
    pieces: ArrayVec<(u8, u8, bool), 16>,
    castled: ArrayVec<(u8, u8, u8), 2>,
    wa: u8,
    check: bool,
}

impl CoverKey {
    fn hash(&self) -> u64 {
        let mut h = (self.wa as u64) << 1 | self.check as u64;
        for &(sl, s, c) in &self.pieces {
            h = (h ^ ((sl as u64) << 8 | (s as u64) << 1 | c as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        for &(a, b, c) in &self.castled {
            h = (h ^ ((a as u64) << 16 | (b as u64) << 8 | c as u64)).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31);
        }
        h ^ h >> 32
    }
}

/// The picture test's knowledge of one set of mating pieces (see
/// [`Setting::pictures_possible`]): per king square, its fill sets, each compressed to the
/// flights' ranks ([`compress`]), and how many ([`UNKNOWN`] before they are worked out).
struct Covers {
    key: CoverKey,
    sets: [[u8; FILL_SETS]; 64],
    count: [u8; 64],
}

thread_local! {
    static COVERS: std::cell::RefCell<Vec<Option<Box<Covers>>>> =
        std::cell::RefCell::new((0..COVER_SLOTS).map(|_| None).collect());
}

/// The search of the picture test for one king square.
#[derive(Clone, Copy)]
struct Picture<'c> {
    movers: &'c [Mover],
    /// Per mover, where it can stand within each number of moves.
    stands: &'c [[u64; STEPS]],
    /// The mating side's castlings still allowed.
    castled: &'c [Castling],
    /// The king's square and its flights.
    s: usize,
    flights: u64,
}

impl Picture<'_> {
    /// Tries each way mover `i` (with at most `left` moves) attacks `target` from one
    /// square: `go` gets what it then attacks of the flights and the moves it needs.
    fn attack_from(&self, i: usize, target: usize, left: usize, mut go: impl FnMut(u64, usize) -> bool) -> bool {
        let t = &*TABLES;
        let m = &self.movers[i];
        let sl = m.sl as usize;
        let bit = 1u64 << target;
        if sl >= 5 {
            // A pawn (which may promote): all it can attack with each number of moves.
            return (0..=left).any(|b| {
                let a = t.attack(sl, m.s as usize, b);
                (b == 0 || a != t.attack(sl, m.s as usize, b - 1)) && a & bit != 0 && go(a & self.flights, b)
            });
        }
        // Other pieces attack symmetrically on the empty board.
        let mut allowed = t.attack(sl, target, 0) & !(1u64 << self.s);
        if sl == KING {
            allowed &= !self.flights; // kings never stand side by side
        }
        self.choose_square(i, allowed, 0, left, go)
    }

    /// Tries each square of `allowed` mover `i` can reach with `first` to `left` moves:
    /// `go` gets what it attacks of the flights from there and the moves it needs. A square
    /// attacking no more than one tried before (with as many moves or more) is not tried.
    fn choose_square(&self, i: usize, allowed: u64, first: usize, left: usize, mut go: impl FnMut(u64, usize) -> bool) -> bool {
        let t = &*TABLES;
        let (sl, st) = (self.movers[i].sl as usize, &self.stands[i]);
        let mut done = if first > 0 { st[first - 1] } else { 0 };
        let mut tried: ArrayVec<u64, 32> = ArrayVec::new();
        for b in first..=left {
            for q in Squares(st[b] & !done & allowed) {
                let c = t.attack(sl, q.index(), 0) & self.flights;
                if tried.iter().any(|&d| d & c == c) {
                    continue;
                }
                let _ = tried.try_push(c);
                if go(c, b) {
                    return true;
                }
            }
            done |= st[b];
        }
        false
    }

    /// The smallest sets of flights the mated side must fill, the mating side having
    /// `wa` moves (and giving check when `check` says so).
    fn fill_sets(&self, wa: usize, check: bool) -> FillSets {
        let mut out = Collected { sets: FillSets::new(), overflow: false };
        let region = self.flights | (1u64 << self.s);
        match self.movers.iter().position(|m| m.sl as usize == KING && region & (1u64 << m.s) != 0) {
            Some(i) => {
                // The mating king, standing on `s` or next to it, must leave first.
                self.choose_square(i, !region, 1, wa, |c, b| {
                    self.check_then_cover(1 << i, wa - b, self.flights & !c, check, &mut out);
                    false
                });
            }
            None => self.check_then_cover(0, wa, self.flights, check, &mut out),
        }
        if out.overflow {
            // Too many to keep: the square is taken as needing no filling.
            out.sets.clear();
            out.sets.push(0);
        }
        out.sets
    }

    /// A piece other than the king gives check (when `check`), then [`Self::cover`].
    fn check_then_cover(&self, used: u32, left: usize, need: u64, check: bool, out: &mut Collected) {
        if !check {
            return self.cover(used, left, need, 0, out);
        }
        for i in 0..self.movers.len() {
            if used & (1 << i) == 0 && self.movers[i].sl as usize != KING {
                self.attack_from(i, self.s, left, |c, b| {
                    self.cover(used | (1 << i), left - b, need & !c, 0, out);
                    false
                });
            }
        }
    }

    /// Deals with the flights `need`: mating pieces not in `used` attack them (with at most
    /// `left` moves in all), the others go to the mated side along with `filled`; each
    /// smallest set so found is kept in `out`.
    fn cover(&self, used: u32, left: usize, need: u64, filled: u64, out: &mut Collected) {
        if out.overflow || out.sets.iter().any(|&f| f & !filled == 0) {
            return; // nothing smaller down here
        }
        if need == 0 {
            out.sets.retain(|f| *f & filled != filled);
            if out.sets.try_push(filled).is_err() {
                out.overflow = true;
            }
            return;
        }
        // The flights no piece left can attack must be filled.
        let mut reach = 0u64;
        for (i, m) in self.movers.iter().enumerate() {
            if used & (1 << i) == 0 {
                let castled: &[Castling] = if m.castles { self.castled } else { &[] };
                reach |= attack_with(&TABLES, castled, m.sl as usize, m.s as usize, left).0;
            }
        }
        let must = need & !reach;
        if must != 0 {
            return self.cover(used, left, need & !must, filled | must, out);
        }
        let f = need.trailing_zeros() as usize;
        // Attacked by a mating piece.
        for i in 0..self.movers.len() {
            if used & (1 << i) == 0 {
                self.attack_from(i, f, left, |c, b| {
                    self.cover(used | (1 << i), left - b, need & !c, filled, out);
                    false
                });
            }
        }
        // Filled by the mated side.
        let f = 1u64 << f;
        self.cover(used, left, need & !f, filled | f, out)
    }
}

/// The fill sets found so far by [`Picture::cover`].
struct Collected {
    sets: FillSets,
    overflow: bool,
}

/// Before a move of the mating side in help play: which of its moves can still be followed
/// by a mate in time. What the bound learns of the mated side is learnt once, here: a move
/// of the mating side leaves it as it stands, or takes one of its pieces away, which never
/// helps it be mated (so the test made with that piece still there holds too). Each move
/// then only moves one mating piece (promoted, where it promotes; a piece that moved has no
/// castling left). Built by [`mating_move_filter`]; asked per move by
/// [`MatingMoveFilter::allows`].
pub struct MatingMoveFilter<'a> {
    p: &'a Position,
    setting: Setting<'a>,
    /// The mating pieces that matter before the move.
    movers: ArrayVec<Mover, 16>,
}

/// The [`MatingMoveFilter`] of `p`, whose side to move is to reach `goal` (mate or
/// stalemate its opponent); after its move, the opponent has `mated_moves` moves left and
/// the side to move `mating_moves` (the last move included). `None` where the bound does not
/// apply.
pub fn mating_move_filter(p: &Position, goal: Goal, mated_moves: u32, mating_moves: u32) -> Option<MatingMoveFilter<'_>> {
    let mated = p.side_to_move().opponent();
    let setting = Setting::new(p, goal, mated, mated_moves, mating_moves)?;
    let mut movers = ArrayVec::new();
    setting.movers(p, &mut movers)?;
    Some(MatingMoveFilter { p, setting, movers })
}

impl MatingMoveFilter<'_> {
    /// Whether a mate may still follow the move `m` (always true for castling, en passant
    /// and moves the filter does not judge).
    pub fn allows(&mut self, m: crate::position::Move) -> bool {
        let crate::position::Move::Normal { from, to, promotion } = m else { return true };
        let p = self.p;
        let a = p.side_to_move();
        // A capture only takes a piece of the mated side away, which never helps it be
        // mated: the test made with the piece still there holds after the capture too.
        let Some(piece) = p.piece_at(from) else { return true };
        let kind = promotion.unwrap_or(piece.kind);
        let Some(&(_, sl)) = slots(a).iter().find(|&&(k, _)| k == kind) else { return true };
        // The others as they stand, the moving piece from its new square.
        let mut movers: ArrayVec<Mover, 16> = ArrayVec::new();
        for &m in &self.movers {
            if m.s as usize != from.index() {
                movers.push(m);
            }
        }
        if let Some(m) = self.setting.mover(sl, to.index(), false)
            && movers.try_push(m).is_err()
        {
            return true;
        }
        !self.setting.unreachable(&movers)
    }
}

/// Before a move of the mated side in help play: which of its moves can still be followed
/// by a mate (stalemate) in time, by the picture test ([`Setting::pictures_possible`]). A
/// move of the mated side that captures nothing leaves the mating side as it stands, so the
/// moves of its pieces other than the king, the king staying, are judged against the same
/// fill sets, worked out once; only where the moved piece can go changes. A king move
/// changes the squares the king can reach, a capture takes a mating piece away: those are
/// judged by the whole picture test. Castling and en passant are not judged (kept). Built
/// by [`mated_move_filter`]; asked per move by [`MatedMoveFilter::allows`].
pub struct MatedMoveFilter<'a> {
    p: &'a Position,
    setting: Setting<'a>,
    /// The mating pieces that matter for any of the mated side's moves.
    movers: ArrayVec<Mover, 16>,
    /// The mated side's pieces other than the king: square, and where each can stand.
    pieces: ArrayVec<(usize, [u64; MATED_MOVES + 1]), 16>,
    /// For the moves of the other pieces (the king staying): each fill set of each square
    /// the king can reach in time, expanded, with the moves it leaves the mated side;
    /// worked out on first need.
    stays: Option<Vec<(u64, usize)>>,
}

/// The [`MatedMoveFilter`] of `p`, whose side to move is to be mated (stalemated: `goal`);
/// after its move it has `mated_moves` moves left and the opponent `mating_moves` (the
/// last one included). `None` where the bound does not apply.
pub fn mated_move_filter(p: &Position, goal: Goal, mated_moves: u32, mating_moves: u32) -> Option<MatedMoveFilter<'_>> {
    let mated = p.side_to_move();
    // Built for one move more, so that the mating pieces that matter are those that matter
    // wherever the king goes with its move; the tests use `mated_moves`.
    let mut setting = Setting::new(p, goal, mated, mated_moves + 1, mating_moves)?;
    let mut movers = ArrayVec::new();
    setting.movers(p, &mut movers)?;
    setting.side.bm = mated_moves as usize;
    let mut pieces = ArrayVec::new();
    for (kind, s) in setting.side.piece_squares() {
        pieces.try_push((s, setting.side.piece_reach(kind, s))).ok()?;
    }
    Some(MatedMoveFilter { p, setting, movers, pieces, stays: None })
}

impl MatedMoveFilter<'_> {
    /// Whether a mate (stalemate) may still follow the move `m` in time (always true for
    /// castling and en passant, which are not judged).
    pub fn allows(&mut self, m: crate::position::Move) -> bool {
        let crate::position::Move::Normal { from, to, promotion } = m else { return true };
        let p = self.p;
        let Some(piece) = p.piece_at(from) else { return true };
        let capture = p.piece_at(to).is_some();
        let mut pieces: ArrayVec<[u64; MATED_MOVES + 1], 16> = self.pieces.iter().map(|e| e.1).collect();
        let side = &self.setting.side;
        let bm = side.bm;
        let mut king_reach = side.king_reach;
        if piece.kind == Kind::King {
            // Castling is lost with the king's move.
            for (j, e) in king_reach.iter_mut().enumerate().take(bm + 1) {
                *e = TABLES.reach(KING, to.index(), j);
            }
        } else {
            let Some(i) = self.pieces.iter().position(|e| e.0 == from.index()) else { return true };
            pieces[i] = side.piece_reach(promotion.unwrap_or(piece.kind), to.index());
            if !capture {
                // The king stays and the mating side is unchanged: only where the moved
                // piece can go changes.
                return self.stays().iter().any(|&(f, budget)| blocks_fit(&pieces, f, budget));
            }
        }
        // A capture takes a mating piece away.
        let movers: ArrayVec<Mover, 16> = self.movers.iter().filter(|m| !capture || m.s as usize != to.index()).copied().collect();
        let mut setting = Setting { side: side.after(king_reach, pieces), castled: self.setting.castled.clone(), ..self.setting };
        setting.pictures_possible(&movers)
    }

    /// The fill sets that matter while the king stays ([`MatedMoveFilter::stays`]).
    fn stays(&mut self) -> &[(u64, usize)] {
        if self.stays.is_none() {
            let mut v = Vec::new();
            let bm = self.setting.side.bm;
            let movers = &self.movers;
            let check_all = if self.setting.side.needs_check { movers.iter().fold(0, |k, m| k | m.all.1) } else { !0 };
            self.setting.with_covers(movers, |covers, this| {
                for (s, budget) in king_squares(this.side.king_reach, bm, check_all) {
                    let flights = king_attacks(crate::geometry::Square(s as u8));
                    for &c in covers.at(this, s) {
                        v.push((expand(c, flights), budget));
                    }
                }
            });
            // The easiest first.
            v.sort_by_key(|&(f, budget)| (f.count_ones(), usize::MAX - budget));
            self.stays = Some(v);
        }
        self.stays.as_deref().unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        crate::position::parse_sq(name).unwrap().index()
    }

    fn dist(slot: usize, from: &str, to: &str) -> usize {
        (0..STEPS).find(|&n| TABLES.reach(slot, sq(from), n) & (1u64 << sq(to)) != 0).unwrap_or(usize::MAX)
    }

    #[test]
    fn empty_board_distances() {
        assert_eq!(dist(KING, "a1", "h8"), 7);
        assert_eq!(dist(4, "a1", "h8"), 6);
        assert_eq!(dist(4, "a1", "b2"), 4);
        assert_eq!(dist(3, "c1", "h6"), 1);
        assert_eq!(dist(3, "c1", "h5"), usize::MAX);
        assert_eq!(dist(ROOK, "a1", "h8"), 2);
        // A white pawn: e2-e4 in one, a capture to d3 in one, promotion on e8 in five, and
        // then a knight to f6 in one more; never backwards.
        assert_eq!(dist(5, "e2", "e4"), 1);
        assert_eq!(dist(5, "e2", "d3"), 1);
        assert_eq!(dist(5, "e2", "e8"), 5);
        assert_eq!(dist(5, "e2", "a8"), 5);
        assert_eq!(dist(5, "e2", "f6"), 3); // e4, e5, then a capture
        assert_eq!(dist(5, "e2", "e1"), 6); // promoted on e8, then back down as a rook or queen
        assert_eq!(dist(6, "e7", "e5"), 1);
        // Attacks: a pawn on e2 attacks d3/f3 at once.
        assert!(TABLES.attack(5, sq("e2"), 0) & (1u64 << sq("d3")) != 0);
    }

    /// A plain breadth-first search over (square, form) states, one state at a time.
    fn reference(slot: usize, from: usize) -> ([u64; STEPS], [u64; STEPS]) {
        let pawn = if slot == 6 { Color::Black } else { Color::White };
        let last_rank = if pawn == Color::White { 7 } else { 0 };
        let attacks =
            |f: usize, x: usize| if f >= 5 { pawn_attacks(pawn, crate::geometry::Square(x as u8)) } else { piece_moves(PIECES[f], x) };
        let mut dist = vec![usize::MAX; 64 * SLOTS];
        let mut queue = std::collections::VecDeque::from([(from, slot)]);
        dist[from * SLOTS + slot] = 0;
        while let Some((x, f)) = queue.pop_front() {
            let d = dist[x * SLOTS + f];
            let mut next = Vec::new();
            if f >= 5 {
                for t in Squares(pawn_moves(pawn, x)) {
                    let t = t.index();
                    if t / 8 == last_rank {
                        next.extend((1..5).map(|g| (t, g)));
                    } else {
                        next.push((t, f));
                    }
                }
            } else {
                next.extend(Squares(piece_moves(PIECES[f], x)).map(|t| (t.index(), f)));
            }
            for (t, g) in next {
                if dist[t * SLOTS + g] == usize::MAX {
                    dist[t * SLOTS + g] = d + 1;
                    queue.push_back((t, g));
                }
            }
        }
        let (mut reach, mut attack) = ([0u64; STEPS], [0u64; STEPS]);
        for (i, &d) in dist.iter().enumerate() {
            if d != usize::MAX {
                for n in d.min(STEPS - 1)..STEPS {
                    reach[n] |= 1u64 << (i / SLOTS);
                    attack[n] |= attacks(i % SLOTS, i / SLOTS);
                }
            }
        }
        (reach, attack)
    }

    #[test]
    fn tables_match_a_plain_search() {
        for slot in 0..SLOTS {
            for from in 0..64 {
                if slot >= 5 && (from / 8 == 0 || from / 8 == 7) {
                    continue;
                }
                let (r, a) = reference(slot, from);
                assert_eq!(TABLES.reach[slot * 64 + from], r, "reach, slot {slot} from {from}");
                assert_eq!(TABLES.attack[slot * 64 + from], a, "attack, slot {slot} from {from}");
            }
        }
    }

    #[test]
    fn the_last_step_holds_everything_reachable() {
        // Every finite distance fits the table, so its last entry is exact as well.
        for slot in 0..SLOTS {
            for from in 0..64 {
                let (r, a) = (TABLES.reach[slot * 64 + from], TABLES.attack[slot * 64 + from]);
                assert_eq!(r[STEPS - 2], r[STEPS - 1], "slot {slot} from {from}");
                assert_eq!(a[STEPS - 2], a[STEPS - 1], "slot {slot} from {from}");
            }
        }
    }

    #[test]
    fn stand_is_the_same_whatever_the_order_asked() {
        let fens = [
            "r3k2r/pp1n4/2b5/8/3Q4/8/5P2/4K3 b kq - 0 1",
            "4k3/1q6/8/8/3N4/8/p1P2B2/R3K2R w KQ - 0 1",
            "8/3k4/2p1n3/8/1B6/8/4PP2/6K1 b - - 0 1",
        ];
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            let mated = p.side_to_move();
            let km = p.king(mated).unwrap().index();
            let castled = castlings(&p, mated, km);
            let side = || MatedSide {
                p: &p,
                mated,
                bm: MATED_MOVES,
                king_reach: [0; MATED_MOVES + 1],
                stand: [0; MATED_MOVES + 1],
                stand_done: 0,
                needs_check: true,
                castling_rooks: castled.iter().map(|c| (c.rook_from, c.rook_to)).collect(),
                pieces: None,
            };
            // Straight from the tables: every piece but the king, castled rooks at no cost.
            let mut want = [0u64; MATED_MOVES + 1];
            for (j, w) in want.iter_mut().enumerate() {
                for s in Squares(p.color_bb(mated)) {
                    let piece = p.piece_at(s).unwrap();
                    let sl = match piece.kind {
                        Kind::King => continue,
                        Kind::Pawn => 5 + mated.index(),
                        k => PIECES.iter().position(|&x| x == k).unwrap(),
                    };
                    *w |= TABLES.reach(sl, s.index(), j);
                }
                for c in &castled {
                    *w |= TABLES.reach(ROOK, c.rook_to, j);
                }
            }
            for order in [[0, 1, 2, MATED_MOVES], [2, 0, MATED_MOVES, 1], [MATED_MOVES, 0, 0, 0], [1, 1, 3, 2]] {
                let mut m = side();
                for n in order {
                    let got = *m.stand(n);
                    assert_eq!(got[..=n], want[..=n], "{fen} {order:?} {n}");
                }
            }
        }
    }

    #[test]
    fn bound_on_simple_positions() {
        // White Kh1 Pa2; Black Kh8 Rg7 (g7 guarded by the king): White to mate.
        let p = Position::from_fen("7k/6r1/8/8/8/8/P7/7K w - - 0 1").unwrap();
        // One move each: no white piece can check h8 or the squares around.
        assert!(goal_unreachable(&p, Goal::Mate, Color::Black, 0, 1));
        assert!(goal_unreachable(&p, Goal::Mate, Color::Black, 1, 2));
        // The mate is reachable with a queen: a2-a4 … a8=Q: not ruled out far enough ahead.
        assert!(!goal_unreachable(&p, Goal::Mate, Color::Black, 8, 8));
        // A back-rank mate in one is not ruled out.
        let q = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert!(!goal_unreachable(&q, Goal::Mate, Color::Black, 0, 1));
        // White Kf7 Qb1; Black Kh8: Qb1-g6 stalemates.
        let s = Position::from_fen("7k/5K2/8/8/8/8/8/1Q6 w - - 0 1").unwrap();
        assert!(!goal_unreachable(&s, Goal::Stalemate, Color::Black, 0, 1));
        // A knight on a1 and a far king: no single move covers g7, g8 and h7.
        let lone = Position::from_fen("7k/8/8/8/8/8/8/N6K w - - 0 1").unwrap();
        assert!(goal_unreachable(&lone, Goal::Stalemate, Color::Black, 0, 1));
        // The other goals are not judged.
        assert!(!goal_unreachable(&p, Goal::Check, Color::Black, 0, 1));
    }

    /// The second-level cache keeps a square's fill sets under the mating pieces that
    /// matter there ([`Setting::matter_for`]): on random positions, for every king square,
    /// both colours, mate and stalemate and 1 to 4 moves, the fill sets with all the mating
    /// pieces are those with only the pieces that matter.
    #[test]
    fn only_the_pieces_that_matter_decide_a_square() {
        let mut next = crate::rules::test_random(0x005E_ED0F_F111_u64);
        let kinds = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook];
        let mut compared = 0;
        let mut dropped = 0;
        for _ in 0..60 {
            // Two kings, up to five white pieces and two black ones, anywhere legal.
            let mut pieces: Vec<(crate::geometry::Square, crate::piece::Piece)> = Vec::new();
            let mut put = |c: Color, k: Kind, next: &mut dyn FnMut(u64) -> u64| loop {
                let q = crate::geometry::Square(next(64) as u8);
                if !pieces.iter().any(|e| e.0 == q) && (k != Kind::Pawn || (8..56).contains(&q.index())) {
                    pieces.push((q, crate::piece::Piece::new(c, k)));
                    break;
                }
            };
            put(Color::White, Kind::King, &mut next);
            put(Color::Black, Kind::King, &mut next);
            for _ in 0..1 + next(5) {
                put(Color::White, kinds[next(8) as usize], &mut next);
            }
            for _ in 0..next(3) {
                put(Color::Black, kinds[next(8) as usize], &mut next);
            }
            let Ok(p) = Position::from_setup(&crate::position::Setup { pieces, ..Default::default() }) else { continue };
            let fen = p.to_fen();
            for mated in [Color::White, Color::Black] {
                for goal in [Goal::Mate, Goal::Stalemate] {
                    for wa in 1..=4 {
                        let Some(setting) = Setting::new(&p, goal, mated, 2, wa) else { continue };
                        let mut movers = ArrayVec::new();
                        if setting.movers(&p, &mut movers).is_none() {
                            continue;
                        }
                        for s in 0..64 {
                            let some = setting.matter_for(&movers, s);
                            let mut all: Vec<u64> = setting.square_fill_sets(&movers, s).to_vec();
                            let mut few: Vec<u64> = setting.square_fill_sets(&some, s).to_vec();
                            all.sort_unstable();
                            few.sort_unstable();
                            assert_eq!(all, few, "{fen} {mated:?} {goal:?} wa {wa} square {s}");
                            compared += 1;
                            dropped += movers.len() - some.len();
                        }
                    }
                }
            }
        }
        // Not vacuous: many squares compared, many pieces left out.
        assert!(compared > 10_000 && dropped > 10_000, "{compared} {dropped}");
    }

    #[test]
    fn each_mating_piece_stands_on_one_square() {
        // White Kc1 Sb1; Black Ka8: with two moves the knight can reach a square checking
        // a8 and squares covering a7, b7 and b8, but no one square does all that, and the
        // king is too far: the union of what the knight attacks would let it through.
        let p = Position::from_fen("k7/8/8/8/8/8/8/1NK5 w - - 0 1").unwrap();
        assert!(goal_unreachable(&p, Goal::Mate, Color::Black, 0, 2));
        // Black's own pieces on a7 and b7 leave b8 open: a knight checking a8 (from b6 or
        // c7) never covers b8 too.
        let q = Position::from_fen("k7/pb6/8/8/8/8/8/1NK5 w - - 0 1").unwrap();
        assert!(goal_unreachable(&q, Goal::Mate, Color::Black, 0, 3));
        // With b8 filled as well, Sb1-c3-b5-c7 (or -a3-c4-b6) smothers the king: three
        // moves are enough, two are not.
        let smothered = Position::from_fen("kr6/pb6/8/8/8/8/8/1NK5 w - - 0 1").unwrap();
        assert!(!goal_unreachable(&smothered, Goal::Mate, Color::Black, 0, 3));
        assert!(goal_unreachable(&smothered, Goal::Mate, Color::Black, 0, 2));
        // The mating king must leave the mated king's neighbourhood: White Kb6 Qc1 against
        // Ka8 mates at once (Qc8), but with the king on b7 itself it is illegal anyway; on
        // a6 it guards a7, b7 and the queen mates on c8.
        let r = Position::from_fen("k7/8/K7/8/8/8/8/2Q5 w - - 0 1").unwrap();
        assert!(!goal_unreachable(&r, Goal::Mate, Color::Black, 0, 1));
    }

    #[test]
    fn what_is_kept_of_the_mating_side_never_changes_an_answer() {
        let fens = [
            "k7/8/8/8/8/8/8/1NK5 w - - 0 1",
            "7K/8/7k/5p2/3B4/2N5/q7/8 b - - 2 4",
            "6K1/B7/1p5k/5p2/2N5/8/8/1q6 b - - 6 4",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/3PPP2/R3K2R b KQ - 0 1",
            "8/8/8/8/8/6k1/1p1n4/6K1 b - - 3 2",
        ];
        let combos = [(0, 1), (1, 1), (1, 2), (2, 2), (0, 2), (2, 3), (3, 3), (1, 3), (0, 3)];
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            for mated in [Color::White, Color::Black] {
                for goal in [Goal::Mate, Goal::Stalemate] {
                    let asked: Vec<bool> = combos.iter().map(|&(bm, wa)| goal_unreachable(&p, goal, mated, bm, wa)).collect();
                    for (&(bm, wa), &a) in combos.iter().zip(&asked) {
                        COVERS.with_borrow_mut(|c| c.iter_mut().for_each(|e| *e = None));
                        SQUARE_COVERS.with_borrow_mut(|c| c.iter_mut().for_each(|e| e.1 = UNKNOWN));
                        assert_eq!(goal_unreachable(&p, goal, mated, bm, wa), a, "{fen} {mated:?} {goal:?} {bm} {wa}");
                    }
                }
            }
        }
    }
}
