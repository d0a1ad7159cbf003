//! The chess rule system: orthodox chess with fairy pieces and the Échecs Réserve moves.
//!
//! Move generation is legal by construction (checkers, check mask, pins) whenever the
//! opponent has only orthodox pieces, since then pins are reliable; when the opponent has
//! fairy pieces (a grasshopper's hurdle or a pao's screen may be the piece that moves), moves
//! are generated pseudo-legally and each is tested by playing it (make-then-test).
//!
//! ```
//! use feerie::position::Position;
//! let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert_eq!(p.legal_moves().len(), 20);
//! assert_eq!(p.perft(3), 8902);
//! ```

use crate::geometry::{Chess8x8, Square, Squares};
use crate::piece::{Color, Kind, Piece, reach};
use crate::position::{MAX_MOVES, MAX_RESERVE, Move, Position, ZOBRIST, castle, castle_squares};
use arrayvec::ArrayVec;

/// A list of moves with a fixed capacity (no allocation in the search).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A move of the opponent of the side to move that is legal (were it the opponent's turn)
/// and gives no check, with the squares where a move of ours may start or land to spoil
/// that ([`Position::free_answers`]).
#[derive(Clone, Copy, Debug)]
pub struct FreeAnswer {
    /// The opponent's move.
    pub answer: Move,
    starts: u64,
    targets: u64,
}

impl FreeAnswer {
    /// Whether a plain move of ours from `from` to `to` neither starts nor lands where it
    /// could spoil this answer.
    #[inline]
    fn clear_of(&self, from: Square, to: Square) -> bool {
        self.starts & (1u64 << from.0) == 0 && self.targets & (1u64 << to.0) == 0
    }
}

/// Where the generator puts the moves it finds: a [`MoveList`], or a [`MoveCount`] that only
/// counts them (bulk counting, with a population count per piece instead of a move each).
trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);
    /// A normal move without promotion from `from` to each square of `targets`.
    fn push_targets(&mut self, from: Square, targets: u64);
    /// A pawn move from `from` to each square of `targets`, once per promotion kind of `pos`.
    fn push_promotions(&mut self, pos: &Position, from: Square, targets: u64);
    /// Échecs Réserve: a drop of `kind` on each square of `targets`, once per promotion kind
    /// of `pos` on the squares of `promo_rank` (a pawn dropped on its last rank promotes).
    fn push_drops(&mut self, pos: &Position, kind: Kind, targets: u64, promo_rank: u64);
    /// The squares a plain move from `from` may go to and still be kept (all by default):
    /// the generator leaves the others out before testing them for legality.
    #[inline(always)]
    fn wanted(&self, _from: Square) -> u64 {
        !0
    }
}

/// A list the generator appends moves to one by one (see [`MoveSink`]).
trait MovePush {
    fn put(&mut self, m: Move);
    fn reset(&mut self);
    /// [`MoveSink::wanted`]: all squares unless the list says otherwise.
    #[inline(always)]
    fn wanted(&self, _from: Square) -> u64 {
        !0
    }
}

impl MovePush for MoveList {
    #[inline(always)]
    fn put(&mut self, m: Move) {
        ArrayVec::push(self, m);
    }
    fn reset(&mut self) {
        self.clear();
    }
}

impl MovePush for Vec<Move> {
    #[inline(always)]
    fn put(&mut self, m: Move) {
        Vec::push(self, m);
    }
    fn reset(&mut self) {
        self.clear();
    }
}

impl<L: MovePush> MoveSink for L {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.put(m);
    }
    #[inline(always)]
    fn wanted(&self, from: Square) -> u64 {
        MovePush::wanted(self, from)
    }
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: u64) {
        for to in Squares(targets) {
            self.put(Move::Normal { from, to, promotion: None });
        }
    }
    #[inline(always)]
    fn push_promotions(&mut self, pos: &Position, from: Square, targets: u64) {
        for to in Squares(targets) {
            for k in pos.promotion_kinds() {
                self.put(Move::Normal { from, to, promotion: Some(k) });
            }
        }
    }
    #[inline(always)]
    fn push_drops(&mut self, pos: &Position, kind: Kind, targets: u64, promo_rank: u64) {
        for to in Squares(targets) {
            if (1u64 << to.0) & promo_rank != 0 {
                for p in pos.promotion_kinds() {
                    self.put(Move::Drop { kind, to, promotion: Some(p) });
                }
            } else {
                self.put(Move::Drop { kind, to, promotion: None });
            }
        }
    }
}

/// A move counter (see [`MoveSink`]).
struct MoveCount(usize);

impl MoveSink for MoveCount {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_targets(&mut self, _: Square, targets: u64) {
        self.0 += targets.count_ones() as usize;
    }
    #[inline(always)]
    fn push_promotions(&mut self, pos: &Position, _: Square, targets: u64) {
        self.0 += targets.count_ones() as usize * pos.promotions.count_ones() as usize;
    }
    #[inline(always)]
    fn push_drops(&mut self, pos: &Position, _: Kind, targets: u64, promo_rank: u64) {
        self.0 += (targets & !promo_rank).count_ones() as usize
            + (targets & promo_rank).count_ones() as usize * pos.promotions.count_ones() as usize;
    }
}

/// A sink that keeps only the longest moves found so far ([`Move::length2`], see
/// [`Position::longest_moves`]). A king's step is at most √2 long: once a longer move is
/// found, the king's steps are not tested for safety at all.
struct LongestSink<'a> {
    out: &'a mut MoveList,
    best: i32,
}

impl MovePush for LongestSink<'_> {
    #[inline(always)]
    fn put(&mut self, m: Move) {
        let l = m.length2();
        if l > self.best {
            self.best = l;
            self.out.clear();
        }
        if l == self.best {
            self.out.push(m);
        }
    }
    fn reset(&mut self) {
        self.out.clear();
        self.best = -1;
    }
    /// The king's steps (length² 1 or 2) only while no longer move is known.
    #[inline(always)]
    fn wanted(&self, _from: Square) -> u64 {
        if self.best > 2 { 0 } else { !0 }
    }
}

/// Where the side to move gives check (orthodox boards, `Position::check_squares_at`):
/// the squares from which each kind checks the enemy king, and the pieces whose leaving the
/// line to it uncovers a check. With them, whether a plain move without promotion gives
/// check is two bit tests.
struct CheckSquares {
    /// Enemy king square.
    ksq: Square,
    /// Squares from which a piece of each orthodox kind gives check (pawn, knight, bishop,
    /// rook, queen; the king never checks directly).
    direct: [u64; 6],
    /// Our pieces that are the only piece between the enemy king and one of our sliders.
    discoverers: u64,
}

impl CheckSquares {
    /// The targets from which the piece of `pos` on `from` would give check by a plain move.
    #[inline(always)]
    fn allowed(&self, pos: &Position, from: Square) -> u64 {
        let kind = pos.mailbox.get(from.index()).map_or(Kind::King, |p| p.kind);
        let direct = match kind {
            Kind::Pawn => self.direct[0],
            Kind::Knight => self.direct[1],
            Kind::Bishop => self.direct[2],
            Kind::Rook => self.direct[3],
            Kind::Queen => self.direct[4],
            _ => 0,
        };
        if self.discoverers & (1u64 << from.0) != 0 { direct | !tables().line[self.ksq.index()][from.index()] } else { direct }
    }
}

/// A sink that keeps only the moves giving check (see [`Position::checking_moves`]): the
/// [`CheckSquares`] are computed once per position, so most moves are kept or dropped by two
/// bit tests. Promotions, en passant and castling (rare) ask [`Position::gives_check`].
struct CheckSink<'a, L: MovePush> {
    pos: &'a Position,
    out: &'a mut L,
    checks: CheckSquares,
}

impl<L: MovePush> CheckSink<'_, L> {
    #[inline(always)]
    fn allowed(&self, from: Square) -> u64 {
        self.checks.allowed(self.pos, from)
    }
}

impl<L: MovePush> MoveSink for CheckSink<'_, L> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        let keep = match m {
            Move::Normal { from, to, promotion: None } => self.allowed(from) & (1u64 << to.0) != 0,
            _ => self.pos.gives_check(m),
        };
        if keep {
            self.out.put(m);
        }
    }
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: u64) {
        let t = targets & self.allowed(from);
        self.out.push_targets(from, t);
    }
    /// A king's steps check only by discovery: the others are not tested for safety.
    #[inline(always)]
    fn wanted(&self, from: Square) -> u64 {
        self.allowed(from)
    }
    #[inline(always)]
    fn push_promotions(&mut self, pos: &Position, from: Square, targets: u64) {
        for to in Squares(targets) {
            for k in pos.promotion_kinds() {
                let m = Move::Normal { from, to, promotion: Some(k) };
                if pos.gives_check(m) {
                    self.out.put(m);
                }
            }
        }
    }
    #[inline(always)]
    fn push_drops(&mut self, pos: &Position, kind: Kind, targets: u64, promo_rank: u64) {
        let mut all = MoveList::new();
        all.push_drops(pos, kind, targets, promo_rank);
        for m in all {
            if pos.gives_check(m) {
                self.out.put(m);
            }
        }
    }
}

include!("magics.rs");

// The attack table of both sliders (the rook's squares, then the bishop's), filled by
// `build.rs` with `fill_magics`: `MAGIC_ATTACKS`.
include!(concat!(env!("OUT_DIR"), "/magic_attacks.rs"));

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// The fixed tables of chess move generation, all filled at compile time (no lazy
/// initialisation to test on every access, no pointer to follow).
struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    leap: [[u64; 64]; Kind::COUNT],
    rook: [Magic; 64],
    bishop: [Magic; 64],
    between: [[u64; 64]; 64],
    line: [[u64; 64]; 64],
}

/// The squares a leaper by `(a, b)` reaches from each square.
const fn leap_table(a: i32, b: i32) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let pairs = [(a, b), (b, a)];
        let mut i = 0;
        while i < 8 {
            let (x, y) = pairs[i / 4];
            let sx = if i & 1 == 0 { 1 } else { -1 };
            let sy = if i & 2 == 0 { 1 } else { -1 };
            let (nf, nr) = (f + x * sx, r + y * sy);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The masks, multipliers, shifts and offsets of a slider's magics, in the layout of
/// [`fill_magics`] starting at `offset` (the table itself, [`MAGIC_ATTACKS`], was filled by
/// `build.rs`).
const fn magic_entries(dirs: &[(i32, i32)], magics: &[u64; 64], mut offset: usize) -> [Magic; 64] {
    let mut out = [const { Magic { mask: 0, magic: 0, shift: 0, offset: 0 } }; 64];
    let mut s = 0;
    while s < 64 {
        let mask = relevant_mask(s as u8, dirs);
        let bits = mask.count_ones();
        out[s] = Magic { mask, magic: magics[s], shift: 64 - bits, offset };
        offset += 1usize << bits;
        s += 1;
    }
    out
}

/// The size of a slider's part of [`MAGIC_ATTACKS`].
const fn magic_table_len(dirs: &[(i32, i32)]) -> usize {
    let mut n = 0;
    let mut s = 0;
    while s < 64 {
        n += 1usize << relevant_mask(s, dirs).count_ones();
        s += 1;
    }
    n
}

/// The castling rights a move from or to each square takes away.
const CASTLE_MASK: [u8; 64] = {
    let mut m = [0u8; 64];
    m[4] = castle::WK | castle::WQ;
    m[0] = castle::WQ;
    m[7] = castle::WK;
    m[60] = castle::BK | castle::BQ;
    m[56] = castle::BQ;
    m[63] = castle::BK;
    m
};

/// `(between, line)`: the squares strictly between two squares on a queen line, and the whole
/// line through both (zero for squares on no common line).
const fn lines() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut a = 0u8;
    while a < 64 {
        let mut i = 0;
        while i < 8 {
            let (dx, dy) = dirs[i];
            let ray = slide(a, 0, &[(dx, dy)]);
            let full = ray | slide(a, 0, &[(-dx, -dy)]) | (1u64 << a);
            let mut rest = ray;
            while rest != 0 {
                let b = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                line[a as usize][b as usize] = full;
                between[a as usize][b as usize] = ray & slide(b, 0, &[(-dx, -dy)]);
            }
            i += 1;
        }
        a += 1;
    }
    (between, line)
}

const fn pawn_table() -> [[u64; 64]; 2] {
    let mut pawn = [[0u64; 64]; 2];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            if f + df >= 0 && f + df < 8 {
                if r < 7 {
                    pawn[0][s] |= 1u64 << ((r + 1) * 8 + f + df);
                }
                if r > 0 {
                    pawn[1][s] |= 1u64 << ((r - 1) * 8 + f + df);
                }
            }
            df += 2;
        }
        s += 1;
    }
    pawn
}

static TABLES: Tables = {
    let (between, line) = lines();
    let mut leap = [[0u64; 64]; Kind::COUNT];
    leap[Kind::Camel as usize] = leap_table(1, 3);
    leap[Kind::Zebra as usize] = leap_table(2, 3);
    leap[Kind::Giraffe as usize] = leap_table(1, 4);
    let a = leap_table(1, 0);
    let b = leap_table(1, 1);
    let mut king = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        king[i] = a[i] | b[i];
        i += 1;
    }
    Tables {
        knight: leap_table(1, 2),
        king,
        pawn: pawn_table(),
        leap,
        rook: magic_entries(&ROOK_DIRS, &ROOK_MAGICS, 0),
        bishop: magic_entries(&BISHOP_DIRS, &BISHOP_MAGICS, magic_table_len(&ROOK_DIRS)),
        between,
        line,
    }
};

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

/// Rook attacks from `s` given the occupied squares.
#[inline(always)]
pub fn rook_attacks(s: Square, occ: u64) -> u64 {
    let t = tables();
    let m = &t.rook[s.index()];
    MAGIC_ATTACKS[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Bishop attacks from `s` given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(s: Square, occ: u64) -> u64 {
    let t = tables();
    let m = &t.bishop[s.index()];
    MAGIC_ATTACKS[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// How a line hopper or screen piece uses the first piece on each of its lines
/// ([`hopper_reach`]).
#[derive(Clone, Copy)]
enum Over {
    /// Lands just beyond it (the grasshopper).
    Hop,
    /// Moves as a rider up to it, captures the next piece beyond it (Pao, Vao, Leo).
    Screen,
    /// Moves to any square beyond it up to the next piece, which it may capture (the lions).
    Long,
}

/// The quiet and capture targets, `(quiet, capture)`, of the line hoppers and screen pieces
/// of the 8×8 board (grasshopper, Leo, Pao, Vao, lion, rook-lion, bishop-lion) on `s`, from
/// the magic rider attacks, `occ` standing; `None` for the other kinds. On each family of
/// lines (files and ranks, diagonals), the rider's attacks stop at the first pieces (the
/// hurdles); without the hurdles they stop at the next pieces: what lies between is beyond
/// the hurdles. The grasshopper's landing square is the one beyond a hurdle next to it: two
/// lines of one family never bring a square beyond one hurdle next to another.
///
/// ```
/// use feerie::geometry::Square;
/// use feerie::piece::Kind;
/// use feerie::rules::chess::hopper_reach;
/// let sq = |s: &str| Square::parse::<feerie::geometry::Chess8x8>(s).unwrap();
/// let bit = |s: &str| 1u64 << sq(s).0;
/// // A Pao on a1, pieces on a4 and a7: it moves to a2, a3, captures on a7.
/// let occ = bit("a1") | bit("a4") | bit("a7");
/// let (quiet, capture) = hopper_reach(Kind::Pao, sq("a1"), occ).unwrap();
/// assert_eq!(capture, bit("a7"));
/// assert_eq!(quiet & (bit("a2") | bit("a3") | bit("a5")), bit("a2") | bit("a3"));
/// // A grasshopper on a1 lands on a5 (empty), just beyond the hurdle on a4.
/// let (quiet, capture) = hopper_reach(Kind::Grasshopper, sq("a1"), occ).unwrap();
/// assert_eq!((quiet, capture), (bit("a5"), 0));
/// ```
#[inline]
pub fn hopper_reach(k: Kind, s: Square, occ: u64) -> Option<(u64, u64)> {
    let (orth, diag, over) = match k {
        Kind::Grasshopper => (true, true, Over::Hop),
        Kind::Leo => (true, true, Over::Screen),
        Kind::Pao => (true, false, Over::Screen),
        Kind::Vao => (false, true, Over::Screen),
        Kind::Lion => (true, true, Over::Long),
        Kind::RookLion => (true, false, Over::Long),
        Kind::BishopLion => (false, true, Over::Long),
        _ => return None,
    };
    let (mut quiet, mut capture) = (0u64, 0u64);
    let mut family = |attacks: fn(Square, u64) -> u64| {
        let near = attacks(s, occ);
        let hurdles = near & occ;
        let beyond = attacks(s, occ & !hurdles) & !near;
        match over {
            Over::Hop => {
                let mut land = 0u64;
                for h in Squares(hurdles) {
                    land |= beyond & king_attacks(h);
                }
                quiet |= land & !occ;
                capture |= land & occ;
            }
            Over::Screen => {
                quiet |= near & !occ;
                capture |= beyond & occ;
            }
            Over::Long => {
                quiet |= beyond & !occ;
                capture |= beyond & occ;
            }
        }
    };
    if orth {
        family(rook_attacks);
    }
    if diag {
        family(bishop_attacks);
    }
    Some((quiet, capture))
}

/// The nightrider's lines from each square: `NIGHT_RAYS[s][d]` holds the squares of
/// direction `d` (the knight's eight steps repeated) in the order they are met, which is
/// the order of their indexes (rising for the first four directions, falling for the
/// others: each step adds the same amount to the index).
static NIGHT_RAYS: [[u64; 8]; 64] = {
    const STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (-1, -2), (-2, -1), (1, -2), (2, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = STEPS[d];
            let (mut f, mut r) = ((s % 8) as i32 + df, (s / 8) as i32 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[s][d] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            d += 1;
        }
        s += 1;
    }
    rays
};

/// The quiet and capture targets, `(quiet, capture)`, of the nightrider (`Ride(1, 2)`) and
/// the Nao (its screen piece: it moves as a nightrider up to the first piece on a line and
/// captures the next one beyond it) on `s`, `occ` standing; `None` for the other kinds.
///
/// ```
/// use feerie::geometry::{Chess8x8, Square};
/// use feerie::piece::Kind;
/// use feerie::rules::chess::nightrider_reach;
/// let sq = |s: &str| Square::parse::<Chess8x8>(s).unwrap();
/// let bit = |s: &str| 1u64 << sq(s).0;
/// // On a1 with pieces on c2 and e3: the nightrider takes c2, the Nao (over c2) takes e3.
/// let occ = bit("a1") | bit("c2") | bit("e3");
/// assert_eq!(nightrider_reach(Kind::Nightrider, sq("a1"), occ).unwrap().1 & occ, bit("c2"));
/// assert_eq!(nightrider_reach(Kind::Nao, sq("a1"), occ).unwrap().1, bit("e3"));
/// ```
#[inline]
pub fn nightrider_reach(k: Kind, s: Square, occ: u64) -> Option<(u64, u64)> {
    let screen = match k {
        Kind::Nightrider => false,
        Kind::Nao => true,
        _ => return None,
    };
    let (mut quiet, mut capture) = (0u64, 0u64);
    for (d, &ray) in NIGHT_RAYS[s.index()].iter().enumerate() {
        let blockers = ray & occ;
        // The nearest of `set` along the ray (rising or falling indexes).
        let nearest = |set: u64| if d < 4 { set & set.wrapping_neg() } else { 1u64 << (63 - set.leading_zeros()) };
        if blockers == 0 {
            quiet |= ray;
            continue;
        }
        let first = nearest(blockers);
        // The ray's squares up to the first piece, that piece included.
        let upto = if d < 4 { ray & ((first << 1).wrapping_sub(1)) } else { ray & !(first - 1) };
        if !screen {
            quiet |= upto & !first;
            capture |= first;
        } else {
            quiet |= upto & !first;
            let rest = blockers & !first;
            if rest != 0 {
                capture |= nearest(rest);
            }
        }
    }
    Some((quiet, capture))
}

/// The first and the second pieces of `occ` met on the nightrider's lines from `s`:
/// `(first, second)`. Read backwards, they are the squares from which a nightrider
/// (`first`) or a Nao (`second`, over the first as its screen) captures on `s`, since a
/// nightrider line read from either end holds the same squares.
///
/// ```
/// use feerie::geometry::{Chess8x8, Square};
/// use feerie::rules::chess::night_pieces;
/// let sq = |s: &str| Square::parse::<Chess8x8>(s).unwrap();
/// let bit = |s: &str| 1u64 << sq(s).0;
/// let occ = bit("c2") | bit("e3") | bit("g4") | bit("b3");
/// assert_eq!(night_pieces(sq("a1"), occ), (bit("c2") | bit("b3"), bit("e3")));
/// ```
#[inline]
pub fn night_pieces(s: Square, occ: u64) -> (u64, u64) {
    let (mut first, mut second) = (0u64, 0u64);
    for (d, &ray) in NIGHT_RAYS[s.index()].iter().enumerate() {
        let mut blockers = ray & occ;
        if blockers == 0 {
            continue;
        }
        let nearest = |set: u64| if d < 4 { set & set.wrapping_neg() } else { 1u64 << (63 - set.leading_zeros()) };
        let a = nearest(blockers);
        first |= a;
        blockers &= !a;
        if blockers != 0 {
            second |= nearest(blockers);
        }
    }
    (first, second)
}

/// The first and the second pieces of `occ` met on the lines of `attacks` (files and
/// ranks with [`rook_attacks`], diagonals with [`bishop_attacks`]) from `s`:
/// `(first, second)`. Read backwards, they are the squares from which a rider of those
/// lines (`first`) or a screen piece or lion of them (`second`: Pao, Vao, Leo, rook-lion,
/// bishop-lion, lion) captures on `s`.
///
/// ```
/// use feerie::geometry::{Chess8x8, Square};
/// use feerie::rules::chess::{line_pieces, rook_attacks};
/// let sq = |s: &str| Square::parse::<Chess8x8>(s).unwrap();
/// let bit = |s: &str| 1u64 << sq(s).0;
/// let occ = bit("a4") | bit("a7") | bit("a8") | bit("c1");
/// assert_eq!(line_pieces(rook_attacks, sq("a1"), occ), (bit("a4") | bit("c1"), bit("a7")));
/// ```
#[inline]
pub fn line_pieces(attacks: fn(Square, u64) -> u64, s: Square, occ: u64) -> (u64, u64) {
    let near = attacks(s, occ);
    let first = near & occ;
    (first, attacks(s, occ & !first) & !near & occ)
}

/// The piece of `occ` next after `p` on the queen line from `s` through `p`, beyond `p`
/// (`s` and `p` aligned): its square's bit, 0 when the line reaches the board's edge first.
///
/// ```
/// use feerie::geometry::Square;
/// use feerie::rules::chess::next_on_line;
/// // a1, b2, d4 and g7 taken: after b2 on the diagonal from a1 comes d4, then g7.
/// let occ = 1u64 << 0 | 1u64 << 9 | 1u64 << 27 | 1u64 << 54;
/// assert_eq!(next_on_line(Square(0), Square(9), occ), 1u64 << 27);
/// assert_eq!(next_on_line(Square(0), Square(27), occ), 1u64 << 54);
/// assert_eq!(next_on_line(Square(0), Square(54), occ), 0);
/// ```
#[inline]
pub fn next_on_line(s: Square, p: Square, occ: u64) -> u64 {
    let t = tables();
    let (s, p) = (s.index() & 63, p.index() & 63);
    let straight = s % 8 == p % 8 || s / 8 == p / 8;
    let reach = if straight { rook_attacks(Square(p as u8), occ) } else { bishop_attacks(Square(p as u8), occ) };
    // Towards `s` the reach stops on the piece before `p` (or on `s`): only what lies
    // beyond `p` is kept.
    reach & t.line[s][p] & occ & !t.between[s][p] & !(1u64 << s)
}

/// Squares a pawn of colour `c` on `s` attacks.
#[inline(always)]
pub fn pawn_attacks(c: Color, s: Square) -> u64 {
    tables().pawn[c.index()][s.index()]
}

/// Knight attacks.
#[inline(always)]
pub fn knight_attacks(s: Square) -> u64 {
    tables().knight[s.index()]
}

/// King attacks.
#[inline(always)]
pub fn king_attacks(s: Square) -> u64 {
    tables().king[s.index()]
}

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

impl Position {
    /// (quiet, capture) target candidates of a non-pawn piece of kind `k` on `s`.
    #[inline(always)]
    fn piece_reach(&self, k: Kind, s: Square, occ: u64) -> (u64, u64) {
        let t = tables();
        let a = match k {
            Kind::Knight => t.knight[s.index()],
            Kind::Bishop => bishop_attacks(s, occ),
            Kind::Rook => rook_attacks(s, occ),
            Kind::Queen => bishop_attacks(s, occ) | rook_attacks(s, occ),
            Kind::King => t.king[s.index()],
            Kind::Amazon => bishop_attacks(s, occ) | rook_attacks(s, occ) | t.knight[s.index()],
            Kind::Empress => rook_attacks(s, occ) | t.knight[s.index()],
            Kind::Princess => bishop_attacks(s, occ) | t.knight[s.index()],
            Kind::Camel | Kind::Zebra | Kind::Giraffe => t.leap[k.index()][s.index()],
            Kind::Pawn => 0,
            _ => {
                return hopper_reach(k, s, occ)
                    .or_else(|| nightrider_reach(k, s, occ))
                    .unwrap_or_else(|| reach::<Chess8x8>(k.components(), s, occ));
            }
        };
        (a, a)
    }

    /// The side to move, its opponent, their pieces and all pieces.
    #[inline(always)]
    fn sides(&self) -> (Color, Color, u64, u64, u64) {
        let us = self.side;
        let them = us.opponent();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        (us, them, own, enemy, own | enemy)
    }

    /// Whether square `s` is attacked by a piece of colour `by`, with `occ` as the occupied
    /// squares (pass a modified set to ask "after this piece has gone").
    pub fn attacked_by(&self, s: Square, by: Color, occ: u64) -> bool {
        self.attacked_by_among(s, by, occ, self.by_color[by.index()] & occ)
    }

    /// [`Position::attacked_by`] by the pieces of `by` on `them` only (those of `occ` still
    /// standing: a piece taken by a move not made is left out).
    #[inline(always)]
    fn attacked_by_among(&self, s: Square, by: Color, occ: u64, them: u64) -> bool {
        let t = tables();
        let k = &self.by_kind;
        if t.pawn[by.opponent().index()][s.index()] & them & k[Kind::Pawn as usize] != 0 {
            return true;
        }
        if t.knight[s.index()] & them & k[Kind::Knight as usize] != 0 {
            return true;
        }
        if t.king[s.index()] & them & k[Kind::King as usize] != 0 {
            return true;
        }
        if rook_attacks(s, occ) & them & (k[Kind::Rook as usize] | k[Kind::Queen as usize]) != 0 {
            return true;
        }
        if bishop_attacks(s, occ) & them & (k[Kind::Bishop as usize] | k[Kind::Queen as usize]) != 0 {
            return true;
        }
        let fairy = them & self.fairy;
        if fairy != 0 {
            let bit = 1u64 << s.0;
            for from in Squares(fairy) {
                if let Some(p) = self.mailbox.get(from.index()) {
                    // A piece off every line of its walk to `s` is passed over at once.
                    if crate::rules::fairy::capture_span(p.kind, from) & bit == 0 {
                        continue;
                    }
                    let (_, cap) = self.piece_reach(p.kind, from, occ);
                    if cap & bit != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the king of `c` is attacked (false when `c` has no king).
    #[inline]
    pub fn king_attacked(&self, c: Color) -> bool {
        match self.king(c) {
            Some(k) => self.attacked_by(k, c.opponent(), self.occupied()),
            None => false,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Pieces of colour `by` giving check to the king on `ksq` (orthodox attackers only;
    /// used on the fast path, where the attacker has no fairy pieces).
    fn checkers(&self, ksq: Square, by: Color) -> u64 {
        let t = tables();
        let them = self.by_color[by.index()];
        let k = &self.by_kind;
        let occ = self.occupied();
        (t.pawn[by.opponent().index()][ksq.index()] & k[Kind::Pawn as usize]
            | t.knight[ksq.index()] & k[Kind::Knight as usize]
            | rook_attacks(ksq, occ) & (k[Kind::Rook as usize] | k[Kind::Queen as usize])
            | bishop_attacks(ksq, occ) & (k[Kind::Bishop as usize] | k[Kind::Queen as usize]))
            & them
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.generate(&mut out);
        out
    }

    /// Replaces the content of `out` with the legal moves of the side to move (the order of
    /// [`Position::legal_moves`]), written straight into the vector.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        // Room for most positions at once: growing a vector move by move costs more.
        out.reserve(64);
        if self.needs_make_test() {
            out.extend(self.legal_moves());
        } else {
            self.gen_inner(out, true);
        }
    }

    /// Replaces the content of `out` with the moves that would be legal but for leaving the
    /// mover's own king in check (the moves that may reach Popeye's `##`, `##!` and `!#`);
    /// none without a king.
    pub fn self_check_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let us = self.side;
        if self.king(us).is_none() {
            return;
        }
        let mut pseudo = MoveList::new();
        self.gen_inner(&mut pseudo, false);
        out.extend(pseudo.into_iter().filter(|&m| !self.legal_after(m)));
    }

    /// Whether the moves must be generated pseudo-legally and each one tested by playing it
    /// (the opponent has fairy pieces, whose lines make pins unreliable, or we have no king,
    /// or the enemy king stands next to ours: a position after a self-checking move of
    /// Popeye's `##`, `##!`, `!#`, where a king gives check, which the fast path never sees).
    #[inline(always)]
    fn needs_make_test(&self) -> bool {
        self.fairy & self.by_color[self.side.opponent().index()] != 0
            || match (self.king(self.side), self.king(self.side.opponent())) {
                (None, _) => true,
                (Some(k), Some(e)) => tables().king[k.index()] & (1u64 << e.0) != 0,
                (Some(_), None) => false,
            }
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king unattacked. A move to a
    /// square or en passant is judged without making it: the king's square, the occupied
    /// squares and the enemy pieces left standing are worked out (fairy attackers read the
    /// changed board through their reach); castling, puts and drops are made.
    #[inline]
    fn legal_after(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.opponent();
        let occ = self.occupied();
        let (from, to, taken) = match m {
            Move::Normal { from, to, .. } => (from, to, 1u64 << to.0),
            Move::EnPassant { from, to } => (from, to, 1u64 << (if us == Color::White { to.0 - 8 } else { to.0 + 8 })),
            _ => return !self.play(m).king_attacked(us),
        };
        let Some(k) = self.king(us) else { return true };
        let k = if k == from { to } else { k };
        let occ = (occ & !(1u64 << from.0) & !taken) | (1u64 << to.0);
        !self.attacked_by_among(k, them, occ, self.by_color[them.index()] & occ & !taken)
    }

    /// Appends the legal moves to `out`.
    pub fn generate(&self, out: &mut MoveList) {
        if self.needs_make_test() {
            // Make-then-test (the test without making: `legal_after`).
            let mut pseudo = MoveList::new();
            self.gen_inner(&mut pseudo, false);
            for m in pseudo {
                if self.legal_after(m) {
                    out.push(m);
                }
            }
        } else {
            self.gen_inner(out, true);
        }
    }

    /// The number of legal moves: `legal_moves().len()`, counted without listing the moves
    /// whenever the generator is legal by construction (bulk counting).
    pub fn count_moves(&self) -> usize {
        if self.needs_make_test() {
            self.legal_moves().len()
        } else if self.fairy == 0 && !self.reserve_rule.allows(self.side) {
            self.count_orthodox()
        } else {
            let mut n = MoveCount(0);
            self.gen_inner(&mut n, true);
            n.0
        }
    }

    /// Calls `found` with the rook of each castling the side to move may play, its king on
    /// `k` not in check (the caller's test), `occ` the occupied squares: the rights, the
    /// squares between king and rook empty, the square the king crosses not attacked, and
    /// (`legal`; else the caller tests the move made) the one it lands on. Each square is
    /// tested with the king stepped onto it (hurdles matter for hoppers).
    #[inline(always)]
    fn castlings(&self, k: Square, occ: u64, legal: bool, mut found: impl FnMut(Square)) {
        let t = tables();
        let us = self.side;
        let them = us.opponent();
        let rights = self.castling & castle::of(us);
        if rights == 0 {
            return;
        }
        let base = if us == Color::White { 0u8 } else { 56 };
        let base_occ = occ & !(1u64 << k.0);
        for (bit, rook_file) in [(castle::WK | castle::BK, 7u8), (castle::WQ | castle::BQ, 0u8)] {
            if rights & bit == 0 {
                continue;
            }
            let rook = Square(base + rook_file);
            if t.between[k.index()][rook.index()] & occ != 0 {
                continue;
            }
            let (kto, cross) = castle_squares(k, rook);
            if self.attacked_by(cross, them, base_occ | (1u64 << cross.0)) {
                continue;
            }
            if legal && self.attacked_by(kto, them, (base_occ | (1u64 << kto.0)) & !(1u64 << rook.0) | (1u64 << cross.0)) {
                continue;
            }
            found(rook);
        }
    }

    /// [`Position::count_moves`] on a board of orthodox pieces only, without Réserve moves for
    /// the side to move and with its king on the board: the pieces are taken kind by kind
    /// from their bitboards, the pawns' pushes and captures counted for all unpinned pawns at
    /// once, and each pinned piece alone, inside the line of its pin.
    fn count_orthodox(&self) -> usize {
        const FILE_A: u64 = 0x0101_0101_0101_0101;
        const FILE_H: u64 = FILE_A << 7;
        let t = tables();
        let (us, them, own, enemy, occ) = self.sides();
        let kk = &self.by_kind;
        let Some(k) = self.king(us) else { return 0 };
        let kbit = 1u64 << k.0;
        let occ_wo = occ & !kbit;
        let mut n = 0usize;
        for to in Squares(t.king[k.index()] & !own) {
            if !self.attacked_by(to, them, occ_wo) {
                n += 1;
            }
        }
        let checkers = self.checkers(k, them);
        if checkers & (checkers.wrapping_sub(1)) != 0 {
            return n;
        }
        let mask = if checkers == 0 { !own } else { checkers | t.between[k.index()][checkers.trailing_zeros() as usize] };
        let promos = self.promotions.count_ones() as usize;
        let pawns = kk[Kind::Pawn as usize] & own;
        let diag = kk[Kind::Bishop as usize] | kk[Kind::Queen as usize];
        let orth = kk[Kind::Rook as usize] | kk[Kind::Queen as usize];
        let (promo_rank, third) = match us {
            Color::White => (RANK_8, 0xFFu64 << 16),
            Color::Black => (RANK_1, 0xFFu64 << 40),
        };
        // Pinned pieces: each moves only on the squares from its king to its pinner.
        let mut pinned = 0u64;
        let snipers = (rook_attacks(k, 0) & orth | bishop_attacks(k, 0) & diag) & enemy;
        for s in Squares(snipers) {
            let between = t.between[k.index()][s.index()];
            let b = between & occ;
            if b & b.wrapping_sub(1) != 0 || b & own == 0 {
                continue;
            }
            pinned |= b;
            let from = Square(b.trailing_zeros() as u8);
            let ray = (between | (1u64 << s.0)) & mask;
            let targets = match self.mailbox.get(from.index()).map_or(Kind::King, |p| p.kind) {
                Kind::Bishop => bishop_attacks(from, occ) & ray,
                Kind::Rook => rook_attacks(from, occ) & ray,
                Kind::Queen => (bishop_attacks(from, occ) | rook_attacks(from, occ)) & ray,
                Kind::Pawn => {
                    let mut m = t.pawn[us.index()][from.index()] & enemy;
                    let one = if us == Color::White { b << 8 } else { b >> 8 };
                    if one & occ == 0 {
                        m |= one;
                        if one & third != 0 {
                            let two = if us == Color::White { one << 8 } else { one >> 8 };
                            m |= two & !occ;
                        }
                    }
                    let m = m & ray;
                    n += (m & promo_rank).count_ones() as usize * promos;
                    m & !promo_rank
                }
                _ => 0,
            };
            n += targets.count_ones() as usize;
        }
        let free = own & !pinned;
        for from in Squares(kk[Kind::Knight as usize] & free) {
            n += (t.knight[from.index()] & mask).count_ones() as usize;
        }
        for from in Squares(diag & free) {
            n += (bishop_attacks(from, occ) & mask).count_ones() as usize;
        }
        for from in Squares(orth & free) {
            n += (rook_attacks(from, occ) & mask).count_ones() as usize;
        }
        // Unpinned pawns, all at once.
        let p = pawns & !pinned;
        let (one, two, left, right) = match us {
            Color::White => {
                let one = (p << 8) & !occ;
                (one, ((one & third) << 8) & !occ, ((p & !FILE_A) << 7) & enemy, ((p & !FILE_H) << 9) & enemy)
            }
            Color::Black => {
                let one = (p >> 8) & !occ;
                (one, ((one & third) >> 8) & !occ, ((p & !FILE_H) >> 7) & enemy, ((p & !FILE_A) >> 9) & enemy)
            }
        };
        for set in [one, two, left, right] {
            let set = set & mask;
            n += (set & !promo_rank).count_ones() as usize + (set & promo_rank).count_ones() as usize * promos;
        }
        if let Some(ep) = self.ep {
            for from in Squares(t.pawn[them.index()][ep.index()] & pawns) {
                if self.legal_after(Move::EnPassant { from, to: ep }) {
                    n += 1;
                }
            }
        }
        if checkers == 0 {
            self.castlings(k, occ, true, |_| n += 1);
        }
        n
    }

    /// Replaces the content of `out` with the longest legal moves of the side to move
    /// ([`Move::length2`]: the Maximummer's choice), in the order of
    /// [`Position::legal_moves`]. The king's steps, generated last, are tested for safety
    /// only when no longer move was found.
    ///
    /// ```
    /// use feerie::position::Position;
    /// let p = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    /// let mut out = feerie::rules::chess::MoveList::new();
    /// p.longest_moves(&mut out);
    /// // Ra1-a8+ (length² 49) is the longest.
    /// assert_eq!(out.len(), 1);
    /// ```
    pub fn longest_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.needs_make_test() {
            let mut legal = MoveList::new();
            self.generate(&mut legal);
            let mut sink = LongestSink { out, best: -1 };
            for &m in legal.iter() {
                sink.put(m);
            }
            return;
        }
        self.gen_inner(&mut LongestSink { out, best: -1 }, true);
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.needs_make_test() {
            // The first legal move answers.
            let mut pseudo = MoveList::new();
            self.gen_inner(&mut pseudo, false);
            return pseudo.iter().any(|&m| self.legal_after(m));
        }
        self.quick_has_move() || self.count_moves() > 0
    }

    /// A quick sufficient test for [`Position::has_legal_move`]: with only orthodox enemy
    /// pieces (so that pins are the ones along queen lines), any piece other than the king
    /// that is not pinned and has a target (inside the check mask when in check) has a legal
    /// move, and so has a king with a square no enemy piece attacks. `false` means "not
    /// known"; the goal tests of the solver call this at every leaf, and most positions
    /// answer here without generating (or counting) every move.
    fn quick_has_move(&self) -> bool {
        if self.needs_make_test() {
            return false;
        }
        let Some(k) = self.king(self.side) else { return false };
        let t = tables();
        let (us, them, own, enemy, occ) = self.sides();
        let checkers = self.checkers(k, them);
        let mask = match checkers.count_ones() {
            0 => !0u64,
            1 => checkers | t.between[k.index()][checkers.trailing_zeros() as usize],
            _ => 0,
        };
        let occ_wo = occ & !(1u64 << k.0);
        let flight = |to: Square| !self.attacked_by(to, them, occ_wo);
        if checkers != 0 && Squares(t.king[k.index()] & !own).any(flight) {
            // In check the king's step is the commonest answer (two in three of the checks
            // tested in the long direct mates of the battle bench): asked first.
            return true;
        }
        if mask != 0 {
            let pinned = self.lone_blockers(k, enemy, own);
            let pawns = self.pieces(us, Kind::Pawn) & !pinned;
            let pushes = match us {
                Color::White => (pawns << 8) & !occ,
                Color::Black => (pawns >> 8) & !occ,
            };
            if pushes & mask != 0 {
                return true;
            }
            for from in Squares(pawns) {
                if t.pawn[us.index()][from.index()] & enemy & mask != 0 {
                    return true;
                }
            }
            let others = own & !self.by_kind[Kind::Pawn as usize] & !self.by_kind[Kind::King as usize] & !pinned;
            for from in Squares(others) {
                if let Some(p) = self.mailbox.get(from.index()) {
                    let (quiet, cap) = self.piece_reach(p.kind, from, occ);
                    if ((quiet & !occ) | (cap & enemy)) & mask != 0 {
                        return true;
                    }
                }
            }
        }
        checkers == 0 && Squares(t.king[k.index()] & !own).any(flight)
    }

    /// Pushes a pawn's moves to `targets`: promotions on the last rank, plain moves elsewhere
    /// (a pawn's targets lie on one rank, or two for the double step, never the last, so the
    /// order is that of the squares).
    #[inline(always)]
    fn push_pawn_moves<S: MoveSink>(&self, out: &mut S, from: Square, targets: u64, promo_rank: u64) {
        out.push_targets(from, targets & !promo_rank);
        out.push_promotions(self, from, targets & promo_rank);
    }

    #[inline(always)]
    fn gen_inner<S: MoveSink>(&self, out: &mut S, legal: bool) {
        let t = tables();
        let (us, them, own, enemy, occ) = self.sides();
        let ksq = self.king(us);
        let (checkers, pinned, pinners, check_mask) = match (legal, ksq) {
            (true, Some(k)) => {
                let checkers = self.checkers(k, them);
                let mut pinned = 0u64;
                // A pinned piece must stay on the squares from its king to its own pinner,
                // pinner included: the full line is not enough (a grasshopper or a pao can
                // jump over its pinner, or over its king), nor the squares of every pin
                // together (two pins on one line, one each side of the king: a grasshopper
                // pinned on one side would hop over its king into the other's ray).
                let mut pinners = 0u64;
                let kk = &self.by_kind;
                let snipers = (rook_attacks(k, 0) & (kk[Kind::Rook as usize] | kk[Kind::Queen as usize])
                    | bishop_attacks(k, 0) & (kk[Kind::Bishop as usize] | kk[Kind::Queen as usize]))
                    & enemy;
                for s in Squares(snipers) {
                    let b = t.between[k.index()][s.index()] & occ;
                    if b.count_ones() == 1 && b & own != 0 {
                        pinned |= b;
                        pinners |= 1u64 << s.0;
                    }
                }
                let mask = match checkers.count_ones() {
                    0 => !0u64,
                    1 => checkers | t.between[k.index()][checkers.trailing_zeros() as usize],
                    _ => 0,
                };
                (checkers, pinned, pinners, mask)
            }
            _ => (0, 0, 0, !0u64),
        };
        let pin_ok = |from: Square, targets: u64| -> u64 {
            if pinned & (1u64 << from.0) != 0 {
                // ksq is Some whenever pinned is non-zero; the pinner is the one on the
                // line beyond `from`.
                let k = ksq.map_or(0, |k| k.index());
                let ray = Squares(pinners & t.line[k][from.index()])
                    .find(|s| t.between[k][s.index()] & (1u64 << from.0) != 0)
                    .map_or(0, |s| t.between[k][s.index()] | (1u64 << s.0));
                targets & ray
            } else {
                targets
            }
        };

        if check_mask != 0 {
            // Pieces other than pawns and the king.
            let others = own & !self.by_kind[Kind::Pawn as usize] & !self.by_kind[Kind::King as usize];
            for from in Squares(others) {
                let kind = match self.mailbox.get(from.index()) {
                    Some(p) => p.kind,
                    None => continue,
                };
                let (quiet, cap) = self.piece_reach(kind, from, occ);
                let targets = pin_ok(from, ((quiet & !occ) | (cap & enemy)) & check_mask);
                out.push_targets(from, targets);
            }
            // Pawns.
            let (up, start_rank, promo_rank): (i32, u64, u64) = match us {
                Color::White => (8, 0xFF00, RANK_8),
                Color::Black => (-8, 0xFF << 48, RANK_1),
            };
            for from in Squares(self.pieces(us, Kind::Pawn)) {
                let mut targets = t.pawn[us.index()][from.index()] & enemy;
                let one = (from.0 as i32 + up) as u8;
                if one < 64 && occ & (1u64 << one) == 0 {
                    targets |= 1u64 << one;
                    if (1u64 << from.0) & start_rank != 0 {
                        let two = (one as i32 + up) as u8;
                        if occ & (1u64 << two) == 0 {
                            targets |= 1u64 << two;
                        }
                    }
                }
                let targets = pin_ok(from, targets & check_mask);
                self.push_pawn_moves(out, from, targets, promo_rank);
                if let Some(ep) = self.ep
                    && t.pawn[us.index()][from.index()] & (1u64 << ep.0) != 0
                {
                    let m = Move::EnPassant { from, to: ep };
                    if !legal || !self.play(m).king_attacked(us) {
                        out.push(m);
                    }
                }
            }
        }

        // King.
        if let Some(k) = ksq {
            let targets = t.king[k.index()] & !own & out.wanted(k);
            let occ_wo = occ & !(1u64 << k.0);
            for to in Squares(targets) {
                if !legal || !self.attacked_by(to, them, occ_wo) {
                    out.push(Move::Normal { from: k, to, promotion: None });
                }
            }
            // Castling.
            if checkers == 0 && self.castling != 0 && (legal || !self.attacked_by(k, them, occ)) {
                self.castlings(k, occ, legal, |rook| out.push(Move::Castle { king: k, rook }));
            }
        }

        // Échecs Réserve.
        if self.reserve_rule.allows(us) {
            if check_mask != 0 {
                let empty = !occ & check_mask;
                let (first_rank, promo_rank) = match us {
                    Color::White => (RANK_1, RANK_8),
                    Color::Black => (RANK_8, RANK_1),
                };
                for &kind in Kind::CHESS {
                    if self.reserves.get(us.index(), kind.index()) == 0 {
                        continue;
                    }
                    if kind == Kind::Pawn {
                        // Never on its first rank; promoted at once on its last.
                        out.push_drops(self, kind, empty & !first_rank, promo_rank);
                    } else {
                        out.push_drops(self, kind, empty, 0);
                    }
                }
            }
            if checkers == 0 && self.puts {
                let movable = own & !self.by_kind[Kind::King as usize] & !pinned;
                for from in Squares(movable) {
                    let kind = self.mailbox.get(from.index()).map_or(Kind::Pawn, |p| p.kind);
                    if self.reserves.get(us.index(), kind.index()) < MAX_RESERVE {
                        out.push(Move::Put { from });
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn reserve_change(&mut self, c: Color, k: Kind, delta: i8) {
        let z = &ZOBRIST;
        let old = self.reserves.get(c.index(), k.index());
        if old > 0 {
            self.hash ^= z.reserve[c.index()][k.index()][old as usize];
        }
        let new = (old as i8 + delta) as u8;
        self.reserves.set(c.index(), k.index(), new);
        let new = new as usize;
        if new > 0 {
            self.hash ^= z.reserve[c.index()][k.index()][new];
        }
    }

    /// The key of the position after `m`, without playing it: exact for normal moves other
    /// than double pawn steps (whose en passant square it leaves out), the played key
    /// otherwise. Meant for prefetching; see [`crate::rules::Game::key_hint`].
    #[inline]
    pub fn key_hint(&self, m: Move) -> u64 {
        let Move::Normal { from, to, promotion } = m else { return self.play(m).hash };
        let (f, t) = (from.index() & 63, to.index() & 63);
        let Some(mover) = self.mailbox.get(f) else { return self.hash };
        let z = &ZOBRIST;
        let us = self.side;
        let mut hash = self.hash ^ z.side ^ z.castling[self.castling as usize & 15];
        if let Some(ep) = self.ep {
            hash ^= z.ep[(ep.0 % 8) as usize];
        }
        let placed = promotion.unwrap_or(mover.kind);
        hash ^= z.piece[us.index()][mover.kind.index()][f] ^ z.piece[us.index()][placed.index()][t];
        if let Some(v) = self.mailbox.get(t) {
            hash ^= z.piece[v.color.index()][v.kind.index()][t];
        }
        hash ^ z.castling[(self.castling & !(CASTLE_MASK[f] | CASTLE_MASK[t])) as usize & 15]
    }

    /// The key of the position after `m` where [`Position::key_hint`] is exact: a normal
    /// move of a piece of the side to move other than a double pawn step; `None` otherwise.
    #[inline]
    pub fn child_key(&self, m: Move) -> Option<u64> {
        let Move::Normal { from, to, .. } = m else { return None };
        let mover = self.mailbox.get(from.index() & 63)?;
        let double_step = mover.kind == Kind::Pawn && from.index().abs_diff(to.index()) == 16;
        let own_victim = self.mailbox.get(to.index() & 63).is_some_and(|v| v.color == self.side);
        (mover.color == self.side && !double_step && !own_victim).then(|| self.key_hint(m))
    }

    /// The castling rights after `m`, without playing it.
    #[inline]
    pub fn castling_after(&self, m: Move) -> u8 {
        match m {
            Move::Normal { from, to, .. } => self.castling & !(CASTLE_MASK[from.index() & 63] | CASTLE_MASK[to.index() & 63]),
            Move::Castle { king, rook } => {
                self.castling
                    & !CASTLE_MASK[king.index() & 63]
                    & !castle::excluded_by(CASTLE_MASK[rook.index() & 63], self.castling_exclusive)
            }
            Move::Put { from } => self.castling & !CASTLE_MASK[from.index() & 63],
            Move::EnPassant { .. } | Move::Drop { .. } => self.castling,
        }
    }

    /// The position after `m` (copy-make). `m` must be a legal move of this position.
    ///
    /// Always inlined, so that the copy lands straight in the caller's position (as a
    /// function, the position would be copied twice: into a local, then out).
    #[inline(always)]
    pub fn play(&self, m: Move) -> Position {
        if let Move::Normal { from, to, promotion } = m
            && let Some(mover) = self.mailbox.get(from.index())
            && mover.color == self.side
        {
            let victim = self.mailbox.get(to.index());
            if victim.is_none_or(|v| v.color != self.side) {
                return self.after_normal(from, to, mover.kind, victim, promotion);
            }
        }
        let mut p = *self;
        p.make(m);
        p
    }

    /// The position after a normal move of our `kind` from `from` to `to`, taking `victim`:
    /// the same result as [`Position::make`], built as one new value, each field computed
    /// from `self` and written once. Copying the position first and changing the copy (what
    /// `make` does) costs a call to `memcpy` for its 192 bytes and a store-forwarding stall
    /// when the changed fields are read back.
    #[inline]
    fn after_normal(&self, from: Square, to: Square, kind: Kind, victim: Option<Piece>, promotion: Option<Kind>) -> Position {
        let z = &ZOBRIST;
        let us = self.side;
        let them = us.opponent();
        // Squares of the 8×8 board are below 64: the masks only spare the bounds checks.
        let (f, t) = (from.index() & 63, to.index() & 63);
        let (fb, tb) = (1u64 << f, 1u64 << t);
        let placed = promotion.unwrap_or(kind);

        let mut hash = self.hash ^ z.side ^ z.castling[self.castling as usize & 15];
        if let Some(ep) = self.ep {
            hash ^= z.ep[(ep.0 % 8) as usize];
        }
        hash ^= z.piece[us.index()][kind.index()][f] ^ z.piece[us.index()][placed.index()][t];
        if let Some(v) = victim {
            hash ^= z.piece[them.index()][v.kind.index()][t];
        }
        let castling = self.castling & !(CASTLE_MASK[f] | CASTLE_MASK[t]);
        hash ^= z.castling[castling as usize & 15];
        // A double step leaves an en passant square only where an enemy pawn can use it.
        let mut ep = None;
        if kind == Kind::Pawn && f.abs_diff(t) == 16 {
            let e = Square(((f + t) / 2) as u8);
            if tables().pawn[us.index()][e.index()] & self.by_color[them.index()] & self.by_kind[Kind::Pawn as usize] != 0 {
                ep = Some(e);
                hash ^= z.ep[(e.0 % 8) as usize];
            }
        }
        let mut p = Position {
            mailbox: self.mailbox,
            by_color: self.by_color,
            by_kind: self.by_kind,
            side: them,
            castling,
            castling_exclusive: self.castling_exclusive,
            ep,
            halfmove: if victim.is_some() || kind == Kind::Pawn { 0 } else { self.halfmove.saturating_add(1) },
            fullmove: if us == Color::Black { self.fullmove.saturating_add(1) } else { self.fullmove },
            reserves: self.reserves,
            reserve_rule: self.reserve_rule,
            puts: self.puts,
            promotions: self.promotions,
            fairy: (self.fairy & !(fb | tb)) | if placed.is_orthodox() { 0 } else { tb },
            hash,
        };
        // The changed sets and squares are written into the new value, each computed from
        // `self`: a copy changed on the side and then moved would be read back right after
        // its words were stored (a store-forwarding stall). The victim's set first: the
        // mover's sets below may be the same and then win.
        p.by_color[us.index()] = self.by_color[us.index()] ^ fb ^ tb;
        if let Some(v) = victim {
            p.by_color[them.index()] = self.by_color[them.index()] ^ tb;
            if v.kind.is_orthodox() {
                p.by_kind[v.kind.index()] = self.by_kind[v.kind.index()] ^ tb;
            }
        }
        if placed == kind {
            if kind.is_orthodox() {
                p.by_kind[kind.index()] = (self.by_kind[kind.index()] & !fb) | tb;
            }
        } else {
            if kind.is_orthodox() {
                p.by_kind[kind.index()] = self.by_kind[kind.index()] & !(fb | tb);
            }
            if placed.is_orthodox() {
                p.by_kind[placed.index()] = self.by_kind[placed.index()] | tb;
            }
        }
        p.mailbox.set(f, None);
        p.mailbox.set(t, Some(Piece::new(us, placed)));
        p
    }

    /// Plays `m` in place (all moves; [`Position::play`] takes a faster path for normal
    /// moves).
    fn make(&mut self, m: Move) {
        let z = &ZOBRIST;
        let us = self.side;
        self.hash ^= z.castling[self.castling as usize];
        if let Some(ep) = self.ep.take() {
            self.hash ^= z.ep[(ep.0 % 8) as usize];
        }
        self.halfmove = self.halfmove.saturating_add(1);
        match m {
            Move::Normal { from, to, promotion } => {
                let piece = self.remove_piece(from).unwrap_or(Piece::new(us, Kind::Pawn));
                if self.remove_piece(to).is_some() || piece.kind == Kind::Pawn {
                    self.halfmove = 0;
                }
                self.put_piece(to, Piece::new(us, promotion.unwrap_or(piece.kind)));
                self.castling &= !(CASTLE_MASK[from.index()] | CASTLE_MASK[to.index()]);
                if piece.kind == Kind::Pawn && (to.0 as i32 - from.0 as i32).abs() == 16 {
                    self.ep = Some(Square((from.0 + to.0) / 2));
                }
            }
            Move::EnPassant { from, to } => {
                self.remove_piece(from);
                let victim = if us == Color::White { to.0 - 8 } else { to.0 + 8 };
                self.remove_piece(Square(victim));
                self.put_piece(to, Piece::new(us, Kind::Pawn));
                self.halfmove = 0;
            }
            Move::Castle { king, rook } => {
                let (kto, rto) = castle_squares(king, rook);
                self.remove_piece(king);
                self.remove_piece(rook);
                self.put_piece(kto, Piece::new(us, Kind::King));
                self.put_piece(rto, Piece::new(us, Kind::Rook));
                self.castling &= !CASTLE_MASK[king.index()];
                // `CastlingMutuallyExclusive`: the castling played proves its right, so the
                // castlings excluded with it were never possible.
                self.castling &= !castle::excluded_by(CASTLE_MASK[rook.index()], self.castling_exclusive);
            }
            Move::Put { from } => {
                if let Some(piece) = self.remove_piece(from) {
                    self.reserve_change(us, piece.kind, 1);
                }
                self.castling &= !CASTLE_MASK[from.index()];
            }
            Move::Drop { kind, to, promotion } => {
                self.reserve_change(us, kind, -1);
                self.put_piece(to, Piece::new(us, promotion.unwrap_or(kind)));
            }
        }
        self.side = us.opponent();
        self.hash ^= z.side;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.hash ^= z.castling[self.castling as usize];
        if self.ep.is_some() {
            self.normalize_ep();
            if let Some(ep) = self.ep {
                self.hash ^= z.ep[(ep.0 % 8) as usize];
            }
        }
    }

    /// Whether the opponent's king has a square to step to after the legal move `m`, told
    /// without playing it: `Some(true)` when one of its squares is neither held by a piece
    /// of its own nor attacked after the move (so `m` does not mate), `Some(false)` when
    /// every one is, `None` where this is not judged (fairy pieces, a move other than a
    /// plain one or a promotion, no king). Mate-in-one tests ask it of each check before
    /// playing it: most checks are answered by a step of the king.
    pub fn king_escapes_after(&self, m: Move) -> Option<bool> {
        let Move::Normal { from, to, promotion } = m else { return None };
        if self.fairy != 0 {
            return None;
        }
        let us = self.side;
        let ksq = self.king(us.opponent())?;
        let mover = self.mailbox.get(from.index())?;
        let t = tables();
        let (fb, tb, kb) = (1u64 << from.0, 1u64 << to.0, 1u64 << ksq.0);
        // After the move, the king lifted off its square (so that it cannot hide behind
        // itself from a slider).
        let occ = (self.occupied() & !fb | tb) & !kb;
        let ours = self.by_color[us.index()] & !fb;
        let kind = promotion.unwrap_or(mover.kind);
        if !kind.is_orthodox() {
            // A fairy promotion: a hopper's or a lion's reach depends on where the king
            // stands, which the lifted-king board below does not show.
            return None;
        }
        let moved = match kind {
            Kind::Pawn => t.pawn[us.index()][to.index()],
            k => self.piece_reach(k, to, occ).1,
        };
        let squares = t.king[ksq.index()] & !(self.by_color[us.opponent().index()] & !tb);
        Some(Squares(squares & !moved).any(|f| !self.attacked_by_among(f, us, occ, ours)))
    }

    /// Whether legal move `m` gives check, computed without playing it when only
    /// orthodox pieces are on the board (played and tested otherwise).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.king(us.opponent()) else { return false };
        if self.fairy != 0 {
            return self.play(m).in_check();
        }
        match m {
            Move::Normal { from, to, promotion } => {
                let Some(piece) = self.mailbox.get(from.index()) else { return false };
                let kind = promotion.unwrap_or(piece.kind);
                let occ = (self.occupied() & !(1u64 << from.0)) | (1u64 << to.0);
                let kb = 1u64 << ksq.0;
                let direct = match kind {
                    Kind::Pawn => pawn_attacks(us, to) & kb != 0,
                    Kind::Knight => knight_attacks(to) & kb != 0,
                    Kind::King => false,
                    k => self.piece_reach(k, to, occ).1 & kb != 0,
                };
                if direct {
                    return true;
                }
                let own = self.by_color[us.index()] & !(1u64 << from.0) & !(1u64 << to.0);
                let k = &self.by_kind;
                let rq = (k[Kind::Rook as usize] | k[Kind::Queen as usize]) & own;
                let bq = (k[Kind::Bishop as usize] | k[Kind::Queen as usize]) & own;
                (rook_attacks(ksq, occ) & rq) | (bishop_attacks(ksq, occ) & bq) != 0
            }
            _ => self.play(m).in_check(),
        }
    }

    /// Self play's last attacker move: removes from `moves` (moves of this position) moves
    /// after which the opponent surely has a legal move that gives no check, so that it is
    /// not forced to mate. It never removes a move after which every legal move of the
    /// opponent gives check.
    ///
    /// The proof is made without playing the moves. A few *free* moves of the opponent are
    /// listed first: plain moves of a piece other than its king, without promotion, legal
    /// here (with the opponent to move) and giving no check. A free move stays legal and
    /// checkless after our move `m` unless `m` could change that, which it can only by:
    /// - leaving or landing on a square of the free move (its start, its target, a square
    ///   it crosses): a capture of the piece, a block, a target freed or taken;
    /// - leaving or landing on the line through the opponent's king and the free move's
    ///   start (a pin made or a pinning line opened);
    /// - leaving the line through our king and the free move's start, or a square between
    ///   our king and the free move's target (a line opened for a discovered or a direct
    ///   check);
    /// - moving our king, or giving check, or being anything but a plain move or a
    ///   promotion to an orthodox piece (a fairy piece, a hopper say, acts past these
    ///   squares).
    ///
    /// `m` goes when some free move is safe from it in every one of these ways. Only with
    /// orthodox pieces, both kings on the board, neither in check, and no reserve moves;
    /// elsewhere nothing is removed.
    ///
    /// ```
    /// use feerie::geometry::{Chess8x8, Square};
    /// use feerie::position::{Move, Position};
    /// // Black's push a3-a2 gives no check whatever the queen does, unless it gives check
    /// // itself or stands in the pawn's way.
    /// let p = Position::from_fen("7k/8/8/8/8/p7/8/1Q4K1 w - - 0 1").unwrap();
    /// let sq = |s| Square::parse::<Chess8x8>(s).unwrap();
    /// let mut moves = p.legal_moves().to_vec();
    /// p.retain_forcing_mate(&mut moves);
    /// let kept = |from, to| moves.iter().any(|m| matches!(*m, Move::Normal { from: f, to: t, .. } if f == sq(from) && t == sq(to)));
    /// assert!(kept("b1", "a2")); // in the pawn's way
    /// assert!(kept("b1", "b8")); // check
    /// assert!(kept("g1", "f2")); // a king's move
    /// assert!(!kept("b1", "c2"));
    /// ```
    pub fn retain_forcing_mate(&self, moves: &mut Vec<Move>) {
        let free = self.free_answers();
        if free.is_empty() {
            return;
        }
        let Some(tk) = self.king(self.side.opponent()) else { return };
        let checks = self.check_squares_at(tk);
        moves.retain(|&m| match m {
            Move::Normal { from, to, promotion } => {
                !free.iter().any(|a| a.clear_of(from, to))
                    || match promotion {
                        None => checks.allowed(self, from) & (1u64 << to.0) != 0,
                        // A fairy piece (a hopper) acts past the squares watched.
                        Some(k) => !k.is_orthodox() || self.gives_check(m),
                    }
            }
            _ => true,
        });
    }

    /// Up to eight *free* moves of the opponent (see [`Position::retain_forcing_mate`]),
    /// none where the filter does not apply (fairy pieces, a king missing, reserve moves,
    /// either side in check).
    pub fn free_answers(&self) -> ArrayVec<FreeAnswer, 8> {
        let mut free = ArrayVec::new();
        if self.fairy != 0 || self.reserve_rule.any() {
            return free;
        }
        let us = self.side;
        let (Some(uk), Some(tk)) = (self.king(us), self.king(us.opponent())) else { return free };
        // Neither side in check: a legal position for either to move.
        let theirs = self.null_move();
        if theirs.in_check() || self.in_check() {
            return free;
        }
        let t = tables();
        let checks = theirs.check_squares_at(uk);
        let mut list = MoveList::new();
        theirs.generate(&mut list);
        for &k in list.iter() {
            let Move::Normal { from, to, promotion: None } = k else { continue };
            if from == tk || checks.allowed(&theirs, from) & (1u64 << to.0) != 0 {
                continue;
            }
            let (f, s) = (from.index(), to.index());
            let pin = t.line[tk.index()][f];
            let targets = 1u64 << f | 1u64 << s | t.between[f][s] | pin;
            let starts = 1u64 << s | 1u64 << uk.0 | pin | t.line[uk.index()][f] | t.between[uk.index()][s];
            free.push(FreeAnswer { answer: k, starts, targets });
            if free.is_full() {
                break;
            }
        }
        free
    }

    /// Whether our legal move `m` surely leaves the free answer `a` (of
    /// [`Position::free_answers`]) legal and checkless: `m` is a plain move that neither
    /// starts nor lands where it could spoil `a`, and gives no check.
    #[inline]
    pub fn spares(&self, a: &FreeAnswer, m: Move) -> bool {
        match m {
            Move::Normal { from, to, promotion } => {
                promotion.is_none_or(|k| k.is_orthodox()) && a.clear_of(from, to) && !self.gives_check(m)
            }
            _ => false,
        }
    }

    /// The position after `m` if `m` is a legal move of this position, else `None`. Plain
    /// moves of orthodox positions are checked directly (the piece is ours, the target is in
    /// its reach, our king is safe afterwards); any other move is looked up in the
    /// generated list.
    pub fn try_play(&self, m: Move) -> Option<Position> {
        if let Move::Normal { from, to, promotion: None } = m
            && self.fairy == 0
            && !self.needs_make_test()
        {
            let us = self.side;
            let mover = self.mailbox.get(from.index())?;
            if mover.color != us {
                return None;
            }
            let victim = self.mailbox.get(to.index());
            if victim.is_some_and(|v| v.color == us || v.kind == Kind::King) {
                return None;
            }
            let occ = self.occupied();
            let bit = 1u64 << to.0;
            let reach = if mover.kind == Kind::Pawn {
                let (promo_rank, up): (u64, i32) = match us {
                    Color::White => (RANK_8, 8),
                    Color::Black => (RANK_1, -8),
                };
                if bit & promo_rank != 0 {
                    return None;
                }
                let one = from.0 as i32 + up;
                let start = match us {
                    Color::White => from.0 / 8 == 1,
                    Color::Black => from.0 / 8 == 6,
                };
                if victim.is_some() {
                    tables().pawn[us.index()][from.index()] & bit != 0
                } else if to.0 as i32 == one {
                    true
                } else {
                    start && to.0 as i32 == one + up && occ & (1u64 << one) == 0
                }
            } else {
                let (quiet, cap) = self.piece_reach(mover.kind, from, occ);
                if victim.is_some() { cap & bit != 0 } else { quiet & bit != 0 }
            };
            if !reach {
                return None;
            }
            let q = self.play(m);
            return (!q.king_attacked(us)).then_some(q);
        }
        let mut all = MoveList::new();
        self.generate(&mut all);
        all.contains(&m).then(|| self.play(m))
    }

    /// The pieces of `of` that stand alone between the king square `ksq` and an orthodox
    /// slider of `sliders` on its line: pinned pieces (our pieces, enemy sliders) or
    /// discoverers of check (our pieces, our sliders, the enemy king).
    #[inline]
    fn lone_blockers(&self, ksq: Square, sliders: u64, of: u64) -> u64 {
        let t = tables();
        let kk = &self.by_kind;
        let occ = self.occupied();
        let snipers = (rook_attacks(ksq, 0) & (kk[Kind::Rook as usize] | kk[Kind::Queen as usize])
            | bishop_attacks(ksq, 0) & (kk[Kind::Bishop as usize] | kk[Kind::Queen as usize]))
            & sliders;
        let mut found = 0u64;
        for s in Squares(snipers) {
            let between = t.between[ksq.index()][s.index()] & occ;
            if between.count_ones() == 1 {
                found |= between & of;
            }
        }
        found
    }

    /// The legal moves that give check, in the order of [`Position::legal_moves`] (the
    /// same list as filtering it with [`Position::gives_check`], built faster: with only
    /// orthodox pieces, each piece's targets are masked by the squares it would check from).
    pub fn checking_moves(&self, out: &mut MoveList) {
        self.checking_into(out);
    }

    /// [`Position::checking_moves`] written straight into a vector.
    pub fn checking_moves_into(&self, out: &mut Vec<Move>) {
        out.reserve(16);
        self.checking_into(out);
    }

    fn checking_into<L: MovePush>(&self, out: &mut L) {
        out.reset();
        let them = self.side.opponent();
        let Some(ksq) = self.king(them) else { return };
        if self.fairy != 0 || self.needs_make_test() {
            let mut all = MoveList::new();
            self.generate(&mut all);
            for m in all {
                if self.gives_check(m) {
                    out.put(m);
                }
            }
            return;
        }
        let mut sink = CheckSink { pos: self, out, checks: self.check_squares_at(ksq) };
        self.gen_inner(&mut sink, true);
    }

    /// The [`CheckSquares`] of the side to move against the enemy king on `ksq`.
    #[inline(always)]
    fn check_squares_at(&self, ksq: Square) -> CheckSquares {
        let them = self.side.opponent();
        let t = tables();
        let occ = self.occupied();
        let own = self.by_color[self.side.index()];
        let b = bishop_attacks(ksq, occ);
        let r = rook_attacks(ksq, occ);
        let direct = [t.pawn[them.index()][ksq.index()], t.knight[ksq.index()], b, r, b | r, 0];
        let discoverers = self.lone_blockers(ksq, own, own);
        CheckSquares { ksq, direct, discoverers }
    }

    /// The same position with the other side to move and no en-passant square (a null
    /// move, used for double stalemate and set play).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        let z = &ZOBRIST;
        if let Some(ep) = p.ep.take() {
            p.hash ^= z.ep[(ep.0 % 8) as usize];
        }
        p.side = p.side.opponent();
        p.hash ^= z.side;
        p
    }

    /// Number of leaf nodes at `depth` (bulk-counted at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves() as u64,
            _ => {
                let mut moves = MoveList::new();
                self.generate(&mut moves);
                moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
            }
        }
    }

    /// Number of leaf nodes at `depth`, playing every leaf move (no bulk counting).
    pub fn perft_full(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        let mut n = 0;
        for &m in &moves {
            let child = self.play(m);
            n += if depth == 1 {
                std::hint::black_box(&child);
                1
            } else {
                child.perft_full(depth - 1)
            };
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn perft(fen: &str, d: u32) -> u64 {
        Position::from_fen(fen).unwrap().perft(d)
    }

    #[test]
    fn the_built_attack_table_is_the_filled_one() {
        // `build.rs` filled it; filling it again here must give the same table.
        let mut attacks = Vec::new();
        fill_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut attacks);
        fill_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut attacks);
        assert_eq!(attacks.as_slice(), &MAGIC_ATTACKS[..]);
    }

    #[test]
    fn magic_attacks_match_slides() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for s in 0..64u8 {
            for round in 0..500 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let occ = if round == 0 { 0 } else { rng & rng.rotate_left(23) };
                assert_eq!(rook_attacks(Square(s), occ), slide(s, occ, &ROOK_DIRS), "rook {s} {occ:#x}");
                assert_eq!(bishop_attacks(Square(s), occ), slide(s, occ, &BISHOP_DIRS), "bishop {s} {occ:#x}");
            }
        }
    }

    #[test]
    fn start_position_depth_3() {
        assert_eq!(perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3), 8902);
    }

    #[test]
    fn kiwipete_depth_2() {
        assert_eq!(perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2), 2039);
    }

    #[test]
    fn hash_stays_equal_to_scratch() {
        let p = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        for m in p.legal_moves() {
            let q = p.play(m);
            assert_eq!(q.hash(), q.compute_hash(), "{m:?}");
            for m2 in q.legal_moves() {
                let r = q.play(m2);
                assert_eq!(r.hash(), r.compute_hash(), "{m:?} {m2:?}");
            }
        }
    }

    #[test]
    fn fast_normal_moves_play_as_the_general_make() {
        fn same(a: &Position, b: &Position) -> bool {
            a == b
                && a.by_color == b.by_color
                && a.by_kind == b.by_kind
                && a.fairy == b.fairy
                && a.hash == b.hash
                && a.halfmove == b.halfmove
                && a.fullmove == b.fullmove
        }
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r3k2r/1P4P1/1(CA)4(G)1/2pP4/8/1(n)6/1p(AM)1(Z)2p/R3K2R w KQkq c6 0 7",
        ];
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            for m in p.legal_moves() {
                let q = p.play(m);
                for m2 in q.legal_moves() {
                    let fast = q.play(m2);
                    let mut slow = q;
                    slow.make(m2);
                    assert!(same(&fast, &slow), "{fen}: {m:?} {m2:?}: {} vs {}", fast.to_fen(), slow.to_fen());
                    assert_eq!(fast.hash(), fast.compute_hash(), "{fen}: {m:?} {m2:?}");
                }
            }
        }
    }

    #[test]
    fn pinned_hoppers_cannot_jump_over_their_pinner() {
        // The pao on b5 is pinned by the queen on b6; capturing on b8 over it would leave
        // the b-file open to the king on b1. The same for a grasshopper hopping over b6.
        for fen in ["1n4r1/8/1q6/1(PA)6/8/8/8/1K2k3 w - - 0 1", "8/8/1q6/1(G)6/8/8/8/1K2k3 w - - 0 1"] {
            let p = Position::from_fen(fen).unwrap();
            let moves = p.legal_moves();
            assert!(!moves.iter().any(|m| m.from() == Some(Square(33)) && m.to().is_some_and(|t| t.0 > 41)), "{fen}: {moves:?}");
        }
        // Along the pin line up to the pinner, the pao still moves: b2, b3, b4.
        let p = Position::from_fen("8/8/1q6/1(PA)6/8/8/8/1K2k3 w - - 0 1").unwrap();
        assert_eq!(p.legal_moves().iter().filter(|m| m.from() == Some(Square(33))).count(), 3);
    }

    #[test]
    fn pinned_hoppers_cannot_hop_over_their_king_into_another_pin() {
        // The black grasshopper on d8 is pinned by the queen on c8; the knight on g8 by the
        // rook on h8, on the same rank beyond the king. Hopping over the king to f8 (inside
        // the knight's pin, not its own) would open the rank to the queen (found by a soak of
        // the random playouts of tests/differential.rs).
        let p = Position::from_fen("2Q(g)k1nR/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        let moves = p.legal_moves();
        assert!(!moves.iter().any(|m| m.from() == Some(Square(59))), "{moves:?}");
        assert!(!moves.iter().any(|m| m.from() == Some(Square(62))), "{moves:?}");
        // Without the queen the grasshopper is free to hop to f8.
        let p = Position::from_fen("3(g)k1nR/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert!(p.legal_moves().iter().any(|m| m.from() == Some(Square(59)) && m.to() == Some(Square(61))));
    }

    #[test]
    fn reserve_worked_example() {
        // Black to move, a pawn in reserve: Pa1↓=Q/R/B/S are four distinct moves.
        let mut p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1").unwrap();
        p.set_reserve_rule(crate::position::ReserveRule { white: true, black: true });
        let a1 = Square(0);
        let drops: Vec<_> = p.legal_moves().into_iter().filter(|m| matches!(m, Move::Drop { to, .. } if *to == a1)).collect();
        assert_eq!(drops.len(), 4);
    }
}
