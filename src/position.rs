//! Positions of the chess rule system: placement, side to move, castling rights, en passant,
//! reserves (Échecs Réserve) and the Zobrist key.
//!
//! An unvalidated [`Setup`] becomes a [`Position`] through [`Position::from_setup`], which
//! checks what a problem diagram must satisfy and returns a typed [`PositionError`].
//!
//! ```
//! use feerie::position::Position;
//! let p = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
//! assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
//! ```

use crate::geometry::{Bitboard, Chess8x8, Square, Squares};
use crate::piece::{Color, Kind, Piece};
use thiserror::Error;

pub mod fen;

/// Castling right bits.
pub mod castle {
    /// White king side (e1/h1).
    pub const WK: u8 = 1;
    /// White queen side (e1/a1).
    pub const WQ: u8 = 2;
    /// Black king side (e8/h8).
    pub const BK: u8 = 4;
    /// Black queen side (e8/a8).
    pub const BQ: u8 = 8;

    /// Both castling rights of one side.
    #[inline(always)]
    pub const fn of(c: crate::piece::Color) -> u8 {
        match c {
            crate::piece::Color::White => WK | WQ,
            crate::piece::Color::Black => BK | BQ,
        }
    }

    /// The bit of the pair (`white`, `black`) of castling rights (one [`WK`] or [`WQ`], one
    /// [`BK`] or [`BQ`]) in a set of mutually exclusive castlings (Popeye's option
    /// `CastlingMutuallyExclusive`); 0 when they are not one white and one black right.
    pub const fn exclusive_pair(white: u8, black: u8) -> u8 {
        let w = match white {
            WK => 0,
            WQ => 1,
            _ => return 0,
        };
        let b = match black {
            BK => 0,
            BQ => 1,
            _ => return 0,
        };
        1 << (w * 2 + b)
    }

    /// The rights that castling with `right` takes away from the other side, given the set
    /// `pairs` of mutually exclusive castlings ([`exclusive_pair`] bits): a castling played
    /// proves the right, so the castlings it excludes were never possible.
    pub const fn excluded_by(right: u8, pairs: u8) -> u8 {
        let mut out = 0;
        let mut i = 0;
        while i < 4 {
            if pairs & (1 << i) != 0 {
                let (w, b) = ([WK, WQ][i / 2], [BK, BQ][i % 2]);
                if right == w {
                    out |= b;
                } else if right == b {
                    out |= w;
                }
            }
            i += 1;
        }
        out
    }
}

/// Which sides may use the moves of Échecs Réserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ReserveRule {
    /// White may put pieces into its reserve and drop them.
    pub white: bool,
    /// Black may.
    pub black: bool,
}

impl ReserveRule {
    /// Whether `c` may make reserve moves.
    #[inline(always)]
    pub fn allows(self, c: Color) -> bool {
        match c {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
    /// Whether any side may.
    pub fn any(self) -> bool {
        self.white || self.black
    }
}

/// An unvalidated description of a position, as read from a problem file or FEN.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// Pieces on the board.
    pub pieces: Vec<(Square, Piece)>,
    /// Side to move (`None` = White).
    pub side: Option<Color>,
    /// Castling rights as [`castle`] bits.
    pub castling: u8,
    /// En-passant target square (the square the pawn crossed).
    pub ep: Option<Square>,
    /// Reserves per side, as a list of kinds (repeats allowed).
    pub reserves: [Vec<Kind>; 2],
    /// Réserve condition.
    pub reserve_rule: ReserveRule,
    /// Extra kinds a pawn may promote to, besides Q, R, B, S.
    pub extra_promotions: Vec<Kind>,
    /// Half-move clock, for FEN round trips.
    pub halfmove: u16,
    /// Move number, for FEN round trips.
    pub fullmove: u16,
    /// Pairs of mutually exclusive castlings ([`castle::exclusive_pair`] bits): Popeye's
    /// option `CastlingMutuallyExclusive`.
    pub castling_exclusive: u8,
}

/// Why a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Two pieces on one square.
    #[error("two pieces on {0}")]
    Occupied(String),
    /// A side has no king.
    #[error("{0} has no king")]
    NoKing(&'static str),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    ExtraKing(&'static str),
    /// A pawn on its first or last rank.
    #[error("{0} pawn on {1}, its first or last rank")]
    PawnOnBackRank(&'static str, String),
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    /// The en-passant square does not fit.
    #[error("en-passant square {0} does not fit the position")]
    BadEnPassant(String),
    /// A castling right without the king and rook on their squares.
    #[error("castling right '{0}' without king and rook on their initial squares")]
    BadCastling(char),
    /// Too many pieces or too big a reserve for the move list.
    #[error("position too rich: up to {0} moves in one position, more than feerie handles ({MAX_MOVES})")]
    TooRich(usize),
    /// More pieces of one kind in a reserve than a reserve holds ([`MAX_RESERVE`]).
    #[error("{0}: more than {MAX_RESERVE} of one kind in reserve")]
    ReserveFull(String),
    /// Malformed FEN.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// A piece kind the chess rule system does not play (the fairy rule system does).
    #[error("the {0} is played by the fairy rules, not by the chess position")]
    FairyKind(String),
}

/// Most moves one position can have (move list capacity).
pub const MAX_MOVES: usize = 1024;

/// A move of the chess rule system (orthodox, fairy, Réserve).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece goes from `from` to `to`, capturing what stands there, maybe promoting.
    Normal {
        /// Departure.
        from: Square,
        /// Arrival.
        to: Square,
        /// Promotion kind for a pawn reaching its last rank.
        promotion: Option<Kind>,
    },
    /// A pawn captures en passant.
    EnPassant {
        /// Departure.
        from: Square,
        /// Arrival (the crossed square).
        to: Square,
    },
    /// Castling; the king goes two squares toward the rook, the rook to the square crossed.
    Castle {
        /// The king's square.
        king: Square,
        /// The rook's square.
        rook: Square,
    },
    /// Échecs Réserve: a piece goes into its side's reserve (`↑`).
    Put {
        /// Its square.
        from: Square,
    },
    /// Échecs Réserve: a piece from the reserve is parachuted onto an empty square (`↓`).
    Drop {
        /// Kind taken from the reserve.
        kind: Kind,
        /// Target square.
        to: Square,
        /// For a pawn dropped on its promotion rank, the kind it becomes.
        promotion: Option<Kind>,
    },
}

impl Move {
    /// The square of the move's length, the Euclidean distance from its start to its end on
    /// the 8×8 board (the Maximummer's measure): castling adds the king's and the rook's
    /// paths along the rank as one line, (2 + 2)² = 16 for `0-0` and (2 + 3)² = 25 for
    /// `0-0-0`; puts and drops have no length (0).
    ///
    /// ```
    /// use feerie::geometry::Square;
    /// use feerie::position::Move;
    /// let knight = Move::Normal { from: Square(1), to: Square(18), promotion: None };
    /// assert_eq!(knight.length2(), 5);
    /// assert_eq!(Move::Castle { king: Square(4), rook: Square(0) }.length2(), 25);
    /// ```
    #[inline]
    pub fn length2(self) -> i32 {
        let file = |s: Square| (s.0 % 8) as i32;
        let rank = |s: Square| (s.0 / 8) as i32;
        match self {
            Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
                let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
                df * df + dr * dr
            }
            Move::Castle { king, rook } => {
                let (kto, rto) = castle_squares(king, rook);
                let d = (file(kto) - file(king)).abs() + (file(rto) - file(rook)).abs();
                d * d
            }
            Move::Put { .. } | Move::Drop { .. } => 0,
        }
    }

    /// The arrival square of the moving piece, if it has one (`Put` has none; castling
    /// gives the king's).
    pub fn to(self) -> Option<Square> {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Drop { to, .. } => Some(to),
            Move::Castle { king, rook } => Some(castle_squares(king, rook).0),
            Move::Put { .. } => None,
        }
    }
    /// The departure square, if any (`Drop` has none).
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } | Move::Put { from } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } => None,
        }
    }
}

/// King and rook destinations of a castling move, from their start squares.
#[inline(always)]
pub fn castle_squares(king: Square, rook: Square) -> (Square, Square) {
    if rook.0 > king.0 { (Square(king.0 + 2), Square(king.0 + 1)) } else { (Square(king.0 - 2), Square(king.0 - 1)) }
}

/// Number of orthodox kinds (king, queen, rook, bishop, knight, pawn: the first six kinds).
pub(crate) const ORTHODOX_KINDS: usize = 6;

/// The pieces by square, one byte a square (64 bytes, where `[Option<Piece>; 64]` takes 128:
/// the position is copied at every move): 0 for an empty square, else the kind's index plus
/// one, with the colour in the top bit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mailbox([u8; 64]);

/// What each byte of a [`Mailbox`] holds.
static MAILBOX_DECODE: [Option<Piece>; 256] = {
    assert!(Kind::COUNT < 127, "a kind's index plus one fits in seven bits");
    let mut t = [None; 256];
    let mut i = 0;
    while i < Kind::COUNT {
        t[i + 1] = Some(Piece::new(Color::White, Kind::ALL[i]));
        t[(i + 1) | 0x80] = Some(Piece::new(Color::Black, Kind::ALL[i]));
        i += 1;
    }
    t
};

impl Mailbox {
    /// No piece on the board.
    pub(crate) const EMPTY: Mailbox = Mailbox([0; 64]);

    /// The piece on square `i` (below 64).
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<Piece> {
        MAILBOX_DECODE[self.0[i & 63] as usize]
    }

    /// Puts `p` (or nothing) on square `i`.
    #[inline(always)]
    pub(crate) fn set(&mut self, i: usize, p: Option<Piece>) {
        self.0[i & 63] = match p {
            None => 0,
            Some(p) => (p.kind as u8 + 1) | ((p.color as u8) << 7),
        };
    }

    /// Empties square `i`, returning what stood there.
    #[inline(always)]
    pub(crate) fn take(&mut self, i: usize) -> Option<Piece> {
        let p = self.get(i);
        self.0[i & 63] = 0;
        p
    }

    /// The squares' contents in square order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Option<Piece>> + '_ {
        self.0.iter().map(|&b| MAILBOX_DECODE[b as usize])
    }
}

impl std::fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter().enumerate().filter_map(|(i, p)| p.map(|p| (i, p)))).finish()
    }
}

/// A chess position. `Copy`, so that the search can copy-make.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct Position {
    pub(crate) mailbox: Mailbox,
    pub(crate) by_color: [u64; 2],
    /// Bitboards of the six orthodox kinds (fairy pieces are found through `fairy` and the
    /// mailbox: keeping the position small keeps copy-make cheap).
    pub(crate) by_kind: [u64; ORTHODOX_KINDS],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// Pairs of mutually exclusive castlings ([`castle::exclusive_pair`] bits): fixed for a
    /// problem, so left out of the key; playing one castling of a pair takes the other right.
    pub(crate) castling_exclusive: u8,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) reserves: Reserves,
    pub(crate) reserve_rule: ReserveRule,
    /// Whether the Réserve moves into reserve (`Put`) are generated (see
    /// [`Position::set_puts_enabled`]).
    pub(crate) puts: bool,
    /// Bit per kind a pawn may promote to.
    pub(crate) promotions: u32,
    /// Pieces of kinds beyond the orthodox six, both colours.
    pub(crate) fairy: u64,
    pub(crate) hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.mailbox == o.mailbox && self.side == o.side && self.castling == o.castling && self.ep == o.ep && self.reserves == o.reserves
    }
}
impl Eq for Position {}

/// The squares from which a pawn of `c` attacks `s` (the squares a pawn of the other colour
/// on `s` would attack): diagonally behind `s` from `c`'s side.
#[inline]
fn pawn_attackers(c: Color, s: Square) -> u64 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let b = 1u64 << s.0;
    match c {
        Color::White => ((b >> 9) & !FILE_H) | ((b >> 7) & !FILE_A),
        Color::Black => ((b << 7) & !FILE_H) | ((b << 9) & !FILE_A),
    }
}

/// Zobrist keys, built once.
pub(crate) struct Zobrist {
    pub(crate) piece: [[[u64; 64]; Kind::COUNT]; 2],
    pub(crate) side: u64,
    pub(crate) castling: [u64; 16],
    pub(crate) ep: [u64; 8],
    pub(crate) reserve: [[[u64; 32]; Kind::COUNT]; 2],
}

/// SplitMix64: the pseudo-random source of every game's Zobrist keys (computed at compile time).
pub(crate) const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The keys, computed at compile time (a plain `static`: no initialisation check in the hot
/// loop).
const fn zobrist_keys() -> Zobrist {
    let mut s = 0x5EED_F0E5_u64;
    let mut z =
        Zobrist { piece: [[[0; 64]; Kind::COUNT]; 2], side: 0, castling: [0; 16], ep: [0; 8], reserve: [[[0; 32]; Kind::COUNT]; 2] };
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < Kind::COUNT {
            let mut q = 0;
            while q < 64 {
                z.piece[c][k][q] = splitmix(&mut s);
                q += 1;
            }
            let mut n = 0;
            while n < 32 {
                z.reserve[c][k][n] = splitmix(&mut s);
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    z.side = splitmix(&mut s);
    let mut i = 0;
    while i < 16 {
        z.castling[i] = splitmix(&mut s);
        i += 1;
    }
    let mut f = 0;
    while f < 8 {
        z.ep[f] = splitmix(&mut s);
        f += 1;
    }
    z
}

pub(crate) static ZOBRIST: Zobrist = zobrist_keys();

/// Most pieces of one kind a reserve holds: a side has at most 15 pieces besides its king,
/// and a [`Reserves`] keeps each count in four bits.
pub const MAX_RESERVE: u8 = 15;

/// Both sides' reserves (Échecs Réserve): per kind of the chess rule system, White's count in
/// the low four bits of a byte and Black's in the high four (19 bytes where two arrays of
/// counts took 38: the position is copied at every move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reserves([u8; Kind::CHESS_COUNT]);

impl Reserves {
    /// Nothing in reserve.
    pub(crate) const EMPTY: Reserves = Reserves([0; Kind::CHESS_COUNT]);

    /// How many pieces of the kind with index `k` colour `c` (0 White, 1 Black) holds.
    #[inline(always)]
    pub(crate) fn get(&self, c: usize, k: usize) -> u8 {
        (self.0[k] >> (4 * (c & 1))) & 15
    }

    /// Sets that count to `n` (at most [`MAX_RESERVE`]).
    #[inline(always)]
    pub(crate) fn set(&mut self, c: usize, k: usize, n: u8) {
        let shift = 4 * (c & 1);
        self.0[k] = (self.0[k] & !(15 << shift)) | ((n & 15) << shift);
    }
}

const SQ_NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "a3", "b3", "c3", "d3", "e3", "f3",
    "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6",
    "e6", "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// The name of an 8×8 square (`e4`).
#[inline]
pub fn sq_name(s: Square) -> &'static str {
    SQ_NAMES[s.index() & 63]
}

/// Parses an 8×8 square name.
pub fn parse_sq(t: &str) -> Option<Square> {
    Square::parse::<Chess8x8>(t)
}

/// The most moves a piece of kind `k` (not a pawn) can have on the 8×8 board, whatever the
/// other pieces: its moves on an empty board for leapers and riders, one per line for the
/// grasshopper, the squares of its lines for the screen pieces. Used by the move bound.
pub fn max_reach(k: Kind) -> usize {
    match k {
        Kind::King => 8,
        Kind::Queen | Kind::Leo => 27,
        Kind::Rook | Kind::Pao => 14,
        Kind::Bishop | Kind::Vao => 13,
        Kind::Amazon => 35,
        Kind::Empress => 22,
        Kind::Princess => 21,
        Kind::Nightrider => 16,
        Kind::Knight | Kind::Grasshopper | Kind::Camel | Kind::Zebra | Kind::Giraffe | Kind::Mao | Kind::Moa => 8,
        // A pawn's richest move set is its promotions, counted apart.
        Kind::Pawn | Kind::BerolinaPawn => 4,
        // The kinds of the fairy rule system (upper bounds on the empty 8×8 board).
        Kind::Dummy => 0,
        Kind::Locust | Kind::Kangaroo => 8,
        Kind::Moose | Kind::Eagle | Kind::Sparrow => 16,
        Kind::RookLion => 14,
        Kind::BishopLion => 13,
        Kind::Lion => 27,
        Kind::Triton => 18,
        Kind::Nereide => 17,
        Kind::Sirene => 35,
        Kind::Nao => 24,
        Kind::Orphan | Kind::Rose | Kind::Equihopper => 63,
    }
}

impl Position {
    /// An empty board, White to move, no rights.
    pub fn empty() -> Position {
        Position {
            mailbox: Mailbox::EMPTY,
            by_color: [0; 2],
            by_kind: [0; ORTHODOX_KINDS],
            side: Color::White,
            castling: 0,
            castling_exclusive: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            reserves: Reserves::EMPTY,
            reserve_rule: ReserveRule::default(),
            puts: true,
            promotions: (1 << Kind::Queen as u32) | (1 << Kind::Rook as u32) | (1 << Kind::Bishop as u32) | (1 << Kind::Knight as u32),
            fairy: 0,
            hash: 0,
        }
    }

    /// Validates a setup. Checks one king per side, no two pieces on a square, no pawn on
    /// its first or last rank, castling rights backed by king and rook, an en-passant square
    /// behind a pawn that just double-stepped, and that the side not to move is not in check.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut p = Position::empty();
        for &(s, piece) in &setup.pieces {
            if s.index() >= 64 {
                return Err(PositionError::Occupied(format!("square #{}", s.0)));
            }
            if p.mailbox.get(s.index()).is_some() {
                return Err(PositionError::Occupied(sq_name(s).into()));
            }
            if !piece.kind.in_chess() {
                return Err(PositionError::FairyKind(format!("{:?} on {}", piece.kind, sq_name(s))));
            }
            if piece.kind == Kind::Pawn && (s.0 < 8 || s.0 >= 56) {
                return Err(PositionError::PawnOnBackRank(piece.color.name(), sq_name(s).into()));
            }
            p.put_piece(s, piece);
        }
        for c in Color::BOTH {
            let n = (p.by_kind[Kind::King as usize] & p.by_color[c.index()]).count_ones();
            if n == 0 {
                return Err(PositionError::NoKing(c.name()));
            }
            if n > 1 {
                return Err(PositionError::ExtraKing(c.name()));
            }
        }
        p.side = setup.side.unwrap_or(Color::White);
        for c in Color::BOTH {
            for &k in &setup.reserves[c.index()] {
                if !k.in_chess() {
                    return Err(PositionError::FairyKind(format!("{k:?} in reserve")));
                }
                let n = p.reserves.get(c.index(), k.index());
                if n >= MAX_RESERVE {
                    return Err(PositionError::ReserveFull(format!("{} {k:?}", c.name())));
                }
                p.reserves.set(c.index(), k.index(), n + 1);
            }
        }
        p.reserve_rule = setup.reserve_rule;
        for &k in &setup.extra_promotions {
            if k != Kind::King && k != Kind::Pawn && k.in_chess() {
                p.promotions |= 1 << k as u32;
            }
        }
        // Fairy kinds on the board or in a reserve are promotion choices too.
        for &k in Kind::CHESS {
            if !k.is_orthodox()
                && (p.pieces(Color::White, k) | p.pieces(Color::Black, k) != 0
                    || p.reserves.get(0, k.index()) + p.reserves.get(1, k.index()) > 0)
            {
                p.promotions |= 1 << k as u32;
            }
        }
        for (bit, ch, king, rook, kind_ok) in [
            (castle::WK, 'K', 4u8, 7u8, Color::White),
            (castle::WQ, 'Q', 4, 0, Color::White),
            (castle::BK, 'k', 60, 63, Color::Black),
            (castle::BQ, 'q', 60, 56, Color::Black),
        ] {
            if setup.castling & bit != 0 {
                let ok = p.mailbox.get(king as usize) == Some(Piece::new(kind_ok, Kind::King))
                    && p.mailbox.get(rook as usize) == Some(Piece::new(kind_ok, Kind::Rook));
                if !ok {
                    return Err(PositionError::BadCastling(ch));
                }
                p.castling |= bit;
            }
        }
        p.castling_exclusive = setup.castling_exclusive & 15;
        if let Some(ep) = setup.ep {
            // The pawn that just moved stands in front of the crossed square.
            let (rank, pawn_sq, from_sq) = match p.side {
                Color::White => (5, ep.0.wrapping_sub(8), ep.0 + 8),
                Color::Black => (2, ep.0 + 8, ep.0.wrapping_sub(8)),
            };
            let them = p.side.opponent();
            let ok = ep.0 < 64
                && ep.0 / 8 == rank
                && p.mailbox.get(pawn_sq as usize) == Some(Piece::new(them, Kind::Pawn))
                && p.mailbox.get(ep.index()).is_none()
                && p.mailbox.get(from_sq as usize).is_none();
            if !ok {
                return Err(PositionError::BadEnPassant(sq_name(ep).into()));
            }
            p.ep = Some(ep);
        }
        p.halfmove = setup.halfmove;
        p.fullmove = setup.fullmove.max(1);
        if p.king_attacked(p.side.opponent()) {
            return Err(PositionError::OppositeCheck(p.side.opponent().name()));
        }
        let bound = p.move_bound(p.reserve_rule);
        if bound > MAX_MOVES {
            return Err(PositionError::TooRich(bound));
        }
        p.normalize_ep();
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// An upper bound of the number of moves (pseudo-legal ones included) of either side, in
    /// this position **and in every position reachable from it**, so that a move list of
    /// [`MAX_MOVES`] never overflows later in the game.
    ///
    /// Per side, over its non-king pieces on the board and in reserve, each worth its
    /// [`max_reach`] plus one (a move into reserve), a pawn worth its richest promotion:
    /// with `B` of those pieces on the board, the board moves are at most the sum of the `B`
    /// largest values, and under Réserve the drops at most `(62 - B)` empty squares times the
    /// kinds the other pieces can form (plus 8 promotion squares times the promotion kinds for
    /// a pawn). None of these quantities grows along a game: pieces only leave, a pawn only
    /// turns into a promotion kind, a kind in reserve was a kind on the board.
    fn move_bound(&self, rule: ReserveRule) -> usize {
        let promo_kinds: Vec<Kind> = self.promotion_kinds().collect();
        let pawn_value = promo_kinds.iter().map(|&k| max_reach(k)).max().unwrap_or(0).max(3 * promo_kinds.len()).max(4);
        let mut worst = 0;
        for c in Color::BOTH {
            let mut values = Vec::new();
            let mut kinds = 0u32;
            let mut add = |k: Kind, n: usize| {
                if k != Kind::King && n > 0 {
                    let v = if k == Kind::Pawn { pawn_value } else { max_reach(k) };
                    values.extend(std::iter::repeat_n(v + 1, n));
                    kinds |= 1 << k as u32;
                }
            };
            for s in Squares(self.by_color[c.index()]) {
                if let Some(p) = self.mailbox.get(s.index()) {
                    add(p.kind, 1);
                }
            }
            for &k in Kind::CHESS {
                add(k, self.reserves.get(c.index(), k.index()) as usize);
            }
            let pawns = kinds & (1 << Kind::Pawn as u32) != 0;
            if pawns {
                kinds |= self.promotions;
            }
            let kinds = kinds.count_ones() as usize;
            values.sort_unstable_by(|a, b| b.cmp(a));
            let n = values.len();
            let mut board = 0;
            for b in 0..=n {
                if b > 0 {
                    board += values[b - 1];
                }
                let drops = if rule.allows(c) && b < n {
                    62usize.saturating_sub(b) * kinds.min(n - b) + if pawns { 8 * promo_kinds.len() } else { 0 }
                } else {
                    0
                };
                // The king: 8 steps and 2 castlings.
                worst = worst.max(board + drops + 10);
            }
        }
        worst
    }

    /// Removes an en-passant square no pawn of the side to move can use (so that equal
    /// positions hash equal).
    pub(crate) fn normalize_ep(&mut self) {
        if let Some(ep) = self.ep {
            let us = self.side;
            let attackers = pawn_attackers(us, ep) & self.pieces(us, Kind::Pawn);
            if attackers == 0 {
                self.ep = None;
            }
        }
    }

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, s: Square, p: Piece) {
        let b = 1u64 << s.0;
        self.mailbox.set(s.index(), Some(p));
        self.by_color[p.color.index()] |= b;
        if p.kind.is_orthodox() {
            self.by_kind[p.kind.index()] |= b;
        } else {
            self.fairy |= b;
        }
        self.hash ^= ZOBRIST.piece[p.color.index()][p.kind.index()][s.index()];
    }

    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, s: Square) -> Option<Piece> {
        let p = self.mailbox.take(s.index())?;
        let b = !(1u64 << s.0);
        self.by_color[p.color.index()] &= b;
        if p.kind.is_orthodox() {
            self.by_kind[p.kind.index()] &= b;
        }
        self.fairy &= b;
        self.hash ^= ZOBRIST.piece[p.color.index()][p.kind.index()][s.index()];
        Some(p)
    }

    /// The key computed from scratch (the incremental key must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let z = &ZOBRIST;
        let mut h = 0;
        for (i, p) in self.mailbox.iter().enumerate() {
            if let Some(p) = p {
                h ^= z.piece[p.color.index()][p.kind.index()][i];
            }
        }
        if self.side == Color::Black {
            h ^= z.side;
        }
        h ^= z.castling[self.castling as usize];
        if let Some(ep) = self.ep {
            h ^= z.ep[(ep.0 % 8) as usize];
        }
        for c in 0..2 {
            for k in 0..Kind::CHESS_COUNT {
                let n = self.reserves.get(c, k) as usize;
                if n > 0 {
                    h ^= z.reserve[c][k][n];
                }
            }
        }
        h
    }

    /// The Zobrist key, kept up to date incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.mailbox.get(s.index())
    }
    /// Squares of one colour's pieces.
    #[inline(always)]
    pub fn color_bb(&self, c: Color) -> u64 {
        self.by_color[c.index()]
    }
    /// Occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }
    /// Squares of the pieces of colour `c` and kind `k`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: Kind) -> u64 {
        if k.is_orthodox() {
            self.by_color[c.index()] & self.by_kind[k.index()]
        } else {
            let mut b = 0;
            for s in crate::geometry::Squares(self.by_color[c.index()] & self.fairy) {
                if self.mailbox.get(s.index()).is_some_and(|p| p.kind == k) {
                    b |= 1u64 << s.0;
                }
            }
            b
        }
    }
    /// The king square of `c`, if it has a king.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<Square> {
        let b = self.pieces(c, Kind::King);
        if b == 0 { None } else { Some(Square(b.lowest())) }
    }
    /// Castling rights as [`castle`] bits.
    pub fn castling(&self) -> u8 {
        self.castling
    }
    /// The en-passant target square, kept only when a pawn can use it.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }
    /// How many pieces of kind `k` colour `c` holds in reserve.
    pub fn reserve_count(&self, c: Color, k: Kind) -> u8 {
        if k.index() < Kind::CHESS_COUNT { self.reserves.get(c.index(), k.index()) } else { 0 }
    }
    /// The Réserve condition in force.
    pub fn reserve_rule(&self) -> ReserveRule {
        self.reserve_rule
    }
    /// Sets the Réserve condition (keeps the key: the rule is fixed for a whole problem).
    ///
    /// # Panics
    /// When the Réserve moves would make the position too rich for a move list
    /// ([`PositionError::TooRich`]); pass the rule in [`Setup::reserve_rule`] to
    /// [`Position::from_setup`] to get that as an error instead.
    pub fn set_reserve_rule(&mut self, r: ReserveRule) {
        let bound = self.move_bound(r);
        assert!(bound <= MAX_MOVES, "{}", PositionError::TooRich(bound));
        self.reserve_rule = r;
    }
    /// Switches the Réserve moves into reserve (`Put`, `↑`) on or off; they are on by
    /// default. With them off, Réserve keeps only its drops: a test and perft knob (`feerie
    /// perft --no-put`) that lets the drop generator be compared with crazyhouse perft
    /// numbers where crazyhouse's pocket refills cannot matter. Not part of the key.
    ///
    /// ```
    /// use feerie::position::{Position, ReserveRule};
    /// let mut p = Position::from_fen("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1").unwrap();
    /// p.set_reserve_rule(ReserveRule { white: true, black: true });
    /// p.set_puts_enabled(false);
    /// assert_eq!(p.perft(1), 67);
    /// ```
    pub fn set_puts_enabled(&mut self, on: bool) {
        self.puts = on;
    }
    /// Whether the Réserve moves into reserve are generated (see [`Position::set_puts_enabled`]).
    pub fn puts_enabled(&self) -> bool {
        self.puts
    }
    /// Kinds a pawn may promote to, in index order.
    pub fn promotion_kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::CHESS.iter().copied().filter(|k| self.promotions & (1 << *k as u32) != 0)
    }
    /// Whether any fairy piece stands on the board.
    pub fn has_fairy(&self) -> bool {
        self.fairy != 0
    }

    /// Turns the position back into a setup (for twins and round trips).
    pub fn to_setup(&self) -> Setup {
        let mut pieces = Vec::new();
        for i in 0..64u8 {
            if let Some(p) = self.mailbox.get(i as usize) {
                pieces.push((Square(i), p));
            }
        }
        let mut reserves = [Vec::new(), Vec::new()];
        for c in 0..2 {
            for &k in Kind::CHESS {
                for _ in 0..self.reserves.get(c, k.index()) {
                    reserves[c].push(k);
                }
            }
        }
        Setup {
            pieces,
            side: Some(self.side),
            castling: self.castling,
            ep: self.ep,
            reserves,
            reserve_rule: self.reserve_rule,
            extra_promotions: self.promotion_kinds().filter(|k| !k.is_orthodox()).collect(),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            castling_exclusive: self.castling_exclusive,
        }
    }

    /// Reads a FEN (see [`crate::notation::parse_fen`]).
    pub fn from_fen(fen: &str) -> Result<Position, PositionError> {
        let setup = fen::parse_fen(fen)?;
        Position::from_setup(&setup)
    }

    /// Writes the position as FEN (see [`crate::notation::write_fen`]).
    pub fn to_fen(&self) -> String {
        fen::write_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mailbox_and_the_reserves_keep_what_is_put_in() {
        let mut m = Mailbox::EMPTY;
        for (i, &k) in Kind::ALL.iter().enumerate() {
            for c in Color::BOTH {
                let s = (i * 2 + c.index()) % 64;
                m.set(s, Some(Piece::new(c, k)));
                assert_eq!(m.get(s), Some(Piece::new(c, k)));
                assert_eq!(m.take(s), Some(Piece::new(c, k)));
                assert_eq!(m.get(s), None);
            }
        }
        let mut r = Reserves::EMPTY;
        for k in 0..Kind::CHESS_COUNT {
            for n in 0..=MAX_RESERVE {
                r.set(0, k, n);
                r.set(1, k, MAX_RESERVE - n);
                assert_eq!((r.get(0, k), r.get(1, k)), (n, MAX_RESERVE - n));
            }
        }
        let mut setup = Setup {
            pieces: vec![(Square(4), Piece::new(Color::White, Kind::King)), (Square(60), Piece::new(Color::Black, Kind::King))],
            ..Default::default()
        };
        setup.reserves[1] = vec![Kind::Queen; MAX_RESERVE as usize + 1];
        assert!(matches!(Position::from_setup(&setup), Err(PositionError::ReserveFull(_))));
        setup.reserves[1].pop();
        assert_eq!(Position::from_setup(&setup).map(|p| p.reserve_count(Color::Black, Kind::Queen)), Ok(MAX_RESERVE));
    }

    #[test]
    fn pawn_attackers_are_the_other_colours_pawn_attacks() {
        for s in 0..64u8 {
            for c in Color::BOTH {
                assert_eq!(pawn_attackers(c, Square(s)), crate::rules::chess::pawn_attacks(c.opponent(), Square(s)), "{s} {c:?}");
            }
        }
    }

    #[test]
    fn setup_errors_are_typed() {
        assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1"), Err(PositionError::NoKing("black"))));
        assert!(matches!(Position::from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), Err(PositionError::PawnOnBackRank(..))));
        assert!(matches!(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), Err(PositionError::BadCastling('K'))));
        assert!(matches!(Position::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"), Err(PositionError::OppositeCheck("black"))));
        assert!(matches!(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1"), Err(PositionError::BadEnPassant(_))));
        assert!(Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap().ep_square().is_some());
        // No black pawn can take: the square is dropped.
        assert!(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap().ep_square().is_none());
    }

    #[test]
    fn max_reach_is_an_upper_bound() {
        use crate::geometry::Bitboard;
        use crate::piece::reach;
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for &k in Kind::CHESS.iter().filter(|&&k| k != Kind::Pawn) {
            for s in 0..64u8 {
                for round in 0..200 {
                    // The empty board, then random occupancies (hurdles and screens).
                    let occ = if round == 0 { 0 } else { splitmix(&mut rng) & splitmix(&mut rng) } & !(1u64 << s);
                    let (quiet, capture) = reach::<Chess8x8>(k.components(), Square(s), occ);
                    let n = ((quiet & !occ) | (capture & occ)).count() as usize;
                    assert!(n <= max_reach(k), "{k:?} on {} has {n} moves", sq_name(Square(s)));
                }
            }
        }
    }

    #[test]
    fn the_move_bound_holds_along_a_game() {
        // White holds one piece of every kind and may put them all into reserve: 17 kinds
        // times 62 empty squares is more drops than a move list holds. The setup is refused
        // (it used to panic in the move generator 34 plies later).
        let rich = "8/2k5/8/8/7K/Q7/(AM)(MA)(VA)(PA)(LE)(PR)(EM)(MO)/(GI)(Z)(CA)(G)(N)NBR w - - 0 1";
        let mut setup = fen::parse_fen(rich).unwrap();
        assert!(Position::from_setup(&setup).is_ok());
        setup.reserve_rule = ReserveRule { white: true, black: false };
        assert!(matches!(Position::from_setup(&setup), Err(PositionError::TooRich(_))));
        let r = std::panic::catch_unwind(|| Position::from_fen(rich).unwrap().set_reserve_rule(ReserveRule { white: true, black: false }));
        assert!(r.is_err());
        // Realistic Réserve problems stay well within: full armies, and three fairy kinds.
        let mut setup = fen::parse_fen("r(g)bqk(n)nr/pppppppp/8/8/8/8/PPPPPPPP/R(AM)BQKBNR w KQkq - 0 1").unwrap();
        setup.reserve_rule = ReserveRule { white: true, black: true };
        assert!(Position::from_setup(&setup).is_ok());
    }

    #[test]
    fn hash_matches_scratch_after_setup() {
        let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R[QSp] w KQkq - 0 1").unwrap();
        assert_eq!(p.hash(), p.compute_hash());
    }
}
