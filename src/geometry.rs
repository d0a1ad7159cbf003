//! Squares, board shapes and bitboards.
//!
//! A board is a rectangle of `FILES × RANKS` squares, numbered rank by rank from the
//! bottom-left corner (`a1` is 0). A [`Shape`] fixes the size and the bitboard type: the
//! 8×8 chess board uses `u64`, the 9×10 Xiangqi board `u128`. Region masks (dark squares,
//! palaces, river halves) are computed from the shape, so no rule system needs its own
//! coordinate code.
//!
//! ```
//! use feerie::geometry::{Chess8x8, Shape, Square};
//! let e4 = Square::parse::<Chess8x8>("e4").unwrap();
//! assert_eq!(e4.file::<Chess8x8>(), 4);
//! assert_eq!(e4.rank::<Chess8x8>(), 3);
//! assert_eq!(e4.name::<Chess8x8>(), "e4");
//! assert!(Square::parse::<Chess8x8>("i9").is_none());
//! ```

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares as the bits of an unsigned integer.
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + 'static
{
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only square `index`.
    fn bit(index: u8) -> Self;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest square of a non-empty set.
    fn lowest(self) -> u8;
    /// Whether square `index` is in the set.
    fn has(self, index: u8) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// Removes and returns the lowest square, `None` when empty.
    fn pop(&mut self) -> Option<u8> {
        if self.is_empty() {
            None
        } else {
            let s = self.lowest();
            *self ^= Self::bit(s);
            Some(s)
        }
    }
}

impl Bitboard for u64 {
    const EMPTY: Self = 0;
    #[inline(always)]
    fn bit(index: u8) -> Self {
        1u64 << index
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        self.trailing_zeros() as u8
    }
}

impl Bitboard for u128 {
    const EMPTY: Self = 0;
    #[inline(always)]
    fn bit(index: u8) -> Self {
        1u128 << index
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        self.trailing_zeros() as u8
    }
}

/// Iterates over the squares of a bitboard, lowest first.
pub struct Squares<B: Bitboard>(pub B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop().map(Square)
    }
}

/// The size of a rectangular board and its bitboard type.
pub trait Shape: Copy + Eq + Debug + Send + Sync + 'static {
    /// Number of files (columns), lettered from `a`.
    const FILES: u8;
    /// Number of ranks (rows), numbered from the bottom.
    const RANKS: u8;
    /// Number of squares.
    const SQUARES: usize = Self::FILES as usize * Self::RANKS as usize;
    /// Rank numbering in square names: 1 for chess (`a1`), 0 for Xiangqi ICCS (`a0`).
    const FIRST_RANK_NAME: u8;
    /// The bitboard type holding one bit per square.
    type BB: Bitboard;
    /// A short name of the shape.
    const NAME: &'static str;

    /// The square at (file, rank), if both are on the board (signed so that offsets can be
    /// added freely).
    #[inline(always)]
    fn square_at(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < Self::FILES as i32 && rank < Self::RANKS as i32 {
            Some(Square((rank * Self::FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    /// Every square of the board.
    fn all() -> Self::BB {
        let mut b = Self::BB::EMPTY;
        for i in 0..Self::SQUARES as u8 {
            b |= Self::BB::bit(i);
        }
        b
    }

    /// The squares where `f(file, rank)` holds.
    fn region(f: impl Fn(u8, u8) -> bool) -> Self::BB {
        let mut b = Self::BB::EMPTY;
        for r in 0..Self::RANKS {
            for x in 0..Self::FILES {
                if f(x, r) {
                    b |= Self::BB::bit(r * Self::FILES + x);
                }
            }
        }
        b
    }
}

/// The 8×8 chess board, `u64` bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chess8x8;

impl Shape for Chess8x8 {
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    const FIRST_RANK_NAME: u8 = 1;
    type BB = u64;
    const NAME: &'static str = "8x8";
}

/// The 9×10 Xiangqi board (points, not squares), `u128` bitboards, ICCS names `a0`–`i9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xiangqi9x10;

impl Shape for Xiangqi9x10 {
    const FILES: u8 = 9;
    const RANKS: u8 = 10;
    const FIRST_RANK_NAME: u8 = 0;
    type BB = u128;
    const NAME: &'static str = "9x10";
}

/// A square index on some board shape (rank-major from the bottom-left corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
pub struct Square(pub u8);

impl Square {
    /// The raw index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The file (0 = `a`).
    #[inline(always)]
    pub fn file<S: Shape>(self) -> u8 {
        self.0 % S::FILES
    }
    /// The rank (0 = the bottom rank).
    #[inline(always)]
    pub fn rank<S: Shape>(self) -> u8 {
        self.0 / S::FILES
    }
    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline(always)]
    pub fn offset<S: Shape>(self, df: i32, dr: i32) -> Option<Square> {
        S::square_at(self.file::<S>() as i32 + df, self.rank::<S>() as i32 + dr)
    }
    /// The square's name: `e4` on 8×8, `e0` (ICCS) on 9×10.
    pub fn name<S: Shape>(self) -> String {
        let f = (b'a' + self.file::<S>()) as char;
        format!("{}{}", f, self.rank::<S>() as u32 + S::FIRST_RANK_NAME as u32)
    }
    /// Parses a square name on shape `S`; `None` when it is malformed or off the board.
    pub fn parse<S: Shape>(text: &str) -> Option<Square> {
        let t = text.trim().as_bytes();
        if t.len() < 2 {
            return None;
        }
        let f = t[0].to_ascii_lowercase();
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = std::str::from_utf8(&t[1..]).ok()?;
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.len() > 2 {
            return None;
        }
        let r: i32 = digits.parse().ok()?;
        S::square_at((f - b'a') as i32, r - S::FIRST_RANK_NAME as i32)
    }
    /// The bitboard holding only this square.
    #[inline(always)]
    pub fn bb<B: Bitboard>(self) -> B {
        B::bit(self.0)
    }
}

/// Region masks used by rule systems.
pub mod regions {
    use super::*;

    /// The dark squares of the 8×8 board (`a1` is dark), where Cheskers is played.
    pub fn dark_squares() -> u64 {
        Chess8x8::region(|f, r| (f + r) % 2 == 0)
    }

    /// The palace of a Xiangqi side: files d–f, ranks 0–2 (Red) or 7–9 (Black).
    pub fn palace(red: bool) -> u128 {
        Xiangqi9x10::region(|f, r| (3..=5).contains(&f) && if red { r <= 2 } else { r >= 7 })
    }

    /// A side's half of the Xiangqi board, bounded by the river: ranks 0–4 (Red) or 5–9.
    pub fn own_half(red: bool) -> u128 {
        Xiangqi9x10::region(|_, r| if red { r <= 4 } else { r >= 5 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_both_shapes() {
        for i in 0..64u8 {
            let s = Square(i);
            assert_eq!(Square::parse::<Chess8x8>(&s.name::<Chess8x8>()), Some(s));
        }
        for i in 0..90u8 {
            let s = Square(i);
            assert_eq!(Square::parse::<Xiangqi9x10>(&s.name::<Xiangqi9x10>()), Some(s));
        }
        assert_eq!(Square::parse::<Xiangqi9x10>("i9"), Some(Square(89)));
        assert_eq!(Square::parse::<Chess8x8>("i9"), None);
        assert_eq!(Square::parse::<Chess8x8>("a0"), None);
        assert_eq!(Square::parse::<Chess8x8>("a9"), None);
    }

    #[test]
    fn regions_have_the_right_sizes() {
        assert_eq!(regions::dark_squares().count_ones(), 32);
        assert!(regions::dark_squares() & 1 != 0);
        assert_eq!(regions::palace(true).count_ones(), 9);
        assert_eq!(regions::palace(false).count_ones(), 9);
        assert_eq!(regions::own_half(true).count_ones(), 45);
        assert_eq!(Xiangqi9x10::all().count_ones(), 90);
        assert_eq!(Chess8x8::all(), u64::MAX);
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let h8 = Square::parse::<Chess8x8>("h8").unwrap();
        assert_eq!(h8.offset::<Chess8x8>(1, 0), None);
        assert_eq!(h8.offset::<Chess8x8>(-1, -2).map(|s| s.name::<Chess8x8>()), Some("g6".into()));
        let i9 = Square::parse::<Xiangqi9x10>("i9").unwrap();
        assert_eq!(i9.offset::<Xiangqi9x10>(0, 1), None);
    }
}
