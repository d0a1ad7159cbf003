//! Cheskers, Solomon Golomb's checkers–chess hybrid (1948): positions, legal moves (draughts
//! jump chains among them), perft, notation, and the [`Game`] implementation the solver uses.
//!
//! The game is played on the 32 dark squares of the 8×8 board (`a1` is dark). Squares are
//! numbered as in chess, `a1` = 0 … `h8` = 63, and a `u64` bitboard holds one bit per square.
//!
//! ```text
//!   8  . c . k . k . b      Black
//!   7  p . p . p . p .
//!   6  . p . p . p . p
//!   5  . . . . . . . .
//!   4  . . . . . . . .
//!   3  P . P . P . P .
//!   2  . P . P . P . P
//!   1  B . K . K . C .      White
//!      a b c d e f g h
//! ```
//!
//! Rules (`shared/rules/cheskers.md`, followed exactly):
//! - a **pawn** (a draughts man) steps one square diagonally forward to an empty square and
//!   captures by jumping forward diagonally over an adjacent enemy piece of any kind to the
//!   empty square beyond; a **king** (a draughts king, royal) does the same in all four
//!   diagonal directions;
//! - jumps **chain**: after a jump, if the piece can jump again it must go on, choosing among
//!   the branches; a piece is never jumped twice; jumped pieces are removed when the chain ends
//!   and block until then; the square the piece started from counts as empty during its own
//!   chain (a king may come back through it or onto it); a pawn's chain ends when it reaches its
//!   last rank. A move is always a complete chain;
//! - the **bishop** moves as in chess and the **camel** leaps (1,3); both capture any enemy
//!   piece by landing on it;
//! - **compulsory capture**: if a pawn or king of the side to move can jump, the move must
//!   capture — a jump chain, or a bishop or camel capture. If only bishops or camels can
//!   capture, capturing is optional. There is no rule forcing the longest chain;
//! - a pawn reaching its last rank (White 8, Black 1) is promoted at once to a king, a bishop or
//!   a camel: three moves;
//! - there is no check; a player wins by capturing all the opponent's kings, or when the
//!   opponent has no legal move on his turn. A side without a king has no legal move here (its
//!   game is over), so both wins read "the side to move has no legal move", which is what
//!   [`Goal::Mate`] means in Cheskers.
//!
//! One decision the rules file leaves open: **two chains that start on the same square, end on
//! the same square and capture the same pieces are one move** (the draughts convention: a king
//! circling four pieces one way or the other makes the same move). The path kept is the first
//! found, in the fixed direction order NE, NW, SE, SW at each jump. Chains that differ in their
//! end square or captured set are distinct moves.
//!
//! ```
//! use feerie::rules::cheskers::CheskersPosition;
//! let p = CheskersPosition::startpos();
//! assert_eq!(p.legal_moves().len(), 9); // the hand count of the rules file
//! let m = p.parse_move("b8-c5").unwrap();
//! assert_eq!(p.move_text(m), "CAb8-c5");
//! ```

mod movegen;
mod notation;
mod tables;

use crate::geometry::{Chess8x8, Square};
use crate::piece::Color;
use crate::position::splitmix;
use crate::rules::{Game, Goal};
use thiserror::Error;

/// The four Cheskers piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheskersKind {
    /// The pawn (a draughts man): steps and jumps diagonally forward.
    Pawn = 0,
    /// The king (a draughts king, royal): steps and jumps diagonally in every direction.
    King = 1,
    /// The bishop, as in chess.
    Bishop = 2,
    /// The camel, a (1,3) leaper.
    Camel = 3,
}

impl CheskersKind {
    /// Every kind, in index order.
    pub const ALL: [CheskersKind; 4] = [CheskersKind::Pawn, CheskersKind::King, CheskersKind::Bishop, CheskersKind::Camel];

    /// The FEN letter, upper case: `P K B C` (C is the camel).
    pub fn fen_letter(self) -> char {
        match self {
            CheskersKind::Pawn => 'P',
            CheskersKind::King => 'K',
            CheskersKind::Bishop => 'B',
            CheskersKind::Camel => 'C',
        }
    }

    /// The kind of a FEN letter in either case (`P K B C`).
    pub fn from_fen_letter(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'P' => CheskersKind::Pawn,
            'K' => CheskersKind::King,
            'B' => CheskersKind::Bishop,
            'C' => CheskersKind::Camel,
            _ => return None,
        })
    }

    /// The kind of an `algebraic` piece code (`K B CA P`; `C` is read as the camel too).
    pub fn from_code(code: &str) -> Option<Self> {
        Some(match code.to_ascii_uppercase().as_str() {
            "P" => CheskersKind::Pawn,
            "K" => CheskersKind::King,
            "B" => CheskersKind::Bishop,
            "CA" | "C" => CheskersKind::Camel,
            _ => return None,
        })
    }

    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            CheskersKind::Pawn => "pawn",
            CheskersKind::King => "king",
            CheskersKind::Bishop => "bishop",
            CheskersKind::Camel => "camel",
        }
    }

    /// The chess piece kind with the same letters in every language (pawn, king, bishop,
    /// camel), for notation and diagrams.
    pub fn chess_kind(self) -> crate::piece::Kind {
        match self {
            CheskersKind::Pawn => crate::piece::Kind::Pawn,
            CheskersKind::King => crate::piece::Kind::King,
            CheskersKind::Bishop => crate::piece::Kind::Bishop,
            CheskersKind::Camel => crate::piece::Kind::Camel,
        }
    }
}

/// A Cheskers move: a step, a bishop or camel move (capturing by landing on `to`), or a
/// complete jump chain of a pawn or king, with its path and captured set. `Copy`, 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CMove {
    /// Departure square.
    pub from: Square,
    /// Arrival square (for a chain, its last landing square; it may be `from` for a king that
    /// came back).
    pub to: Square,
    /// The squares of the captured pieces: those jumped by a chain, or `to` for a capture by
    /// landing.
    pub captured: u64,
    /// The directions of a chain's jumps, two bits each, the first jump in the lowest bits
    /// (0 NE, 1 NW, 2 SE, 3 SW).
    pub path: u64,
    /// The number of jumps (0 for every move that is not a chain).
    pub jumps: u8,
    /// The promotion of a pawn reaching its last rank.
    pub promotion: Option<CheskersKind>,
}

impl CMove {
    /// The landing squares of a chain, in order (the last is `to`); empty for other moves.
    pub fn landings(&self) -> Vec<Square> {
        let mut out = Vec::with_capacity(self.jumps as usize);
        let mut at = self.from.0;
        for i in 0..self.jumps {
            let d = ((self.path >> (2 * i)) & 3) as usize;
            at = tables::TABLES.jump[at as usize][d];
            out.push(Square(at));
        }
        out
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }
}

/// Why a FEN or a list of pieces is not a Cheskers position the engine can play.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CheskersError {
    /// The FEN is empty.
    #[error("bad Cheskers FEN: empty")]
    Empty,
    /// The FEN placement does not have 8 ranks.
    #[error("bad Cheskers FEN: {0} ranks, 8 expected")]
    RankCount(usize),
    /// A FEN rank does not have 8 squares.
    #[error("bad Cheskers FEN: rank {rank} has {squares} squares, 8 expected")]
    FileCount {
        /// The rank (1–8).
        rank: u8,
        /// How many squares the FEN gives it.
        squares: usize,
    },
    /// A character that is no piece letter nor digit in the placement.
    #[error("bad Cheskers FEN: '{0}' is no Cheskers piece (K B C P)")]
    UnknownLetter(char),
    /// The side to move is neither `w` nor `b`.
    #[error("bad Cheskers FEN: side to move '{0}', expected w or b")]
    BadSide(String),
    /// A trailing FEN field that is not `-` or a number, or too many.
    #[error("bad Cheskers FEN: unexpected field '{0}'")]
    BadField(String),
    /// A square index beyond `h8`.
    #[error("square index {0} is off the board")]
    OffBoard(u8),
    /// Two pieces on one square.
    #[error("two pieces on {0}")]
    Occupied(String),
    /// A piece on a light square.
    #[error("the piece on {0} stands on a light square (Cheskers uses the dark squares only)")]
    LightSquare(String),
    /// A pawn on its last rank (it would have been promoted).
    #[error("{side} pawn on {square}, its last rank (it would have been promoted)")]
    PawnOnLastRank {
        /// `White` or `Black`.
        side: &'static str,
        /// The square.
        square: String,
    },
}

/// Pieces on their squares, as a FEN or a problem lists them (unchecked).
pub type Placement = Vec<(Square, Color, CheskersKind)>;

/// Zobrist keys: one per (colour, kind, square) and one for Black to move.
struct Zobrist {
    piece: [[[u64; 64]; 4]; 2],
    side: u64,
}

const fn zobrist_keys() -> Zobrist {
    let mut s = 0xC4E5_CE25_0001_u64;
    let mut z = Zobrist { piece: [[[0; 64]; 4]; 2], side: 0 };
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 4 {
            let mut q = 0;
            while q < 64 {
                z.piece[c][k][q] = splitmix(&mut s);
                q += 1;
            }
            k += 1;
        }
        c += 1;
    }
    z.side = splitmix(&mut s);
    z
}

static ZOBRIST: Zobrist = zobrist_keys();

/// A Cheskers position: placement, side to move and Zobrist key. `Copy` (64 bytes), so that
/// the search can copy-make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheskersPosition {
    /// Squares of each colour (White, Black).
    by_color: [u64; 2],
    /// Squares of each kind, both colours together (indexed by [`CheskersKind`]).
    by_kind: [u64; 4],
    /// The Zobrist key, kept incrementally.
    key: u64,
    /// The side to move.
    side: Color,
}

/// The initial position, Black to move (the rules file's FEN).
pub const START_FEN: &str = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b";

/// `White` or `Black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The name of a square (`c3`).
pub(crate) fn square_name(s: Square) -> String {
    s.name::<Chess8x8>()
}

impl CheskersPosition {
    /// The initial position, Black to move.
    pub fn startpos() -> Self {
        match Self::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("the initial position is valid: {e}"),
        }
    }

    /// Reads a FEN: 8 ranks from rank 8 down, `K B C P` (C the camel; upper case White), digits
    /// for empty squares; then optionally the side to move (`w` or `b`, White when missing) and
    /// up to four more fields (`-` or numbers, ignored). The placement is checked as
    /// [`CheskersPosition::from_pieces`] does.
    pub fn from_fen(fen: &str) -> Result<Self, CheskersError> {
        let (pieces, side) = Self::read_fen(fen)?;
        Self::from_pieces(&pieces, side.unwrap_or(Color::White))
    }

    /// What a FEN says, unchecked beyond its form: the pieces on their squares and the side to
    /// move if given (the problem loader checks the placement itself, to point at the fault).
    pub fn read_fen(fen: &str) -> Result<(Placement, Option<Color>), CheskersError> {
        use crate::notation::grid::{GridFault, read_grid};
        let (pieces, side) = read_grid(fen, 8, 8, CheskersKind::from_fen_letter).map_err(|f| match f {
            GridFault::Empty => CheskersError::Empty,
            GridFault::RankCount(n) => CheskersError::RankCount(n),
            GridFault::FileCount { rank, squares } => CheskersError::FileCount { rank: rank + 1, squares },
            GridFault::Letter(c) => CheskersError::UnknownLetter(c),
            GridFault::Field(f) => CheskersError::BadField(f),
        })?;
        let side = match side.as_deref() {
            None => None,
            Some("w" | "W") => Some(Color::White),
            Some("b" | "B") => Some(Color::Black),
            Some(other) => return Err(CheskersError::BadSide(other.to_string())),
        };
        Ok((pieces.into_iter().map(|(f, r, c, k)| (Square(r * 8 + f), c, k)).collect(), side))
    }

    /// A position from a list of pieces and the side to move, checked: every square on the
    /// board, dark and used once, and no pawn on its last rank. A side may have no king (the
    /// game is then over: it has no move); the problem loader asks for one.
    pub fn from_pieces(pieces: &[(Square, Color, CheskersKind)], side: Color) -> Result<Self, CheskersError> {
        let mut p = CheskersPosition { by_color: [0; 2], by_kind: [0; 4], key: 0, side };
        for &(sq, color, kind) in pieces {
            let s = sq.index();
            if s >= 64 {
                return Err(CheskersError::OffBoard(sq.0));
            }
            let name = square_name(sq);
            if p.occupied() & (1 << s) != 0 {
                return Err(CheskersError::Occupied(name));
            }
            if tables::DARK & (1 << s) == 0 {
                return Err(CheskersError::LightSquare(name));
            }
            if kind == CheskersKind::Pawn && tables::LAST_RANK[color.index()] & (1 << s) != 0 {
                return Err(CheskersError::PawnOnLastRank { side: side_name(color), square: name });
            }
            p.put(color.index(), kind as usize, s);
        }
        if side == Color::Black {
            p.key ^= ZOBRIST.side;
        }
        Ok(p)
    }

    #[inline(always)]
    fn put(&mut self, c: usize, k: usize, s: usize) {
        self.by_color[c] |= 1 << s;
        self.by_kind[k] |= 1 << s;
        self.key ^= ZOBRIST.piece[c][k][s];
    }

    #[inline(always)]
    fn remove(&mut self, c: usize, k: usize, s: usize) {
        self.by_color[c] &= !(1 << s);
        self.by_kind[k] &= !(1 << s);
        self.key ^= ZOBRIST.piece[c][k][s];
    }

    /// The FEN of the position: placement and side (`w` or `b`).
    pub fn to_fen(&self) -> String {
        use crate::notation::grid::{cased, write_grid};
        let mut out = write_grid(8, 8, |f, r| self.piece_at(Square(r * 8 + f)).map(|(c, k)| cased(k.fen_letter(), c)));
        out.push_str(if self.side == Color::White { " w" } else { " b" });
        out
    }

    /// The piece on a square, if any (`None` also for a square off the board).
    pub fn piece_at(&self, sq: Square) -> Option<(Color, CheskersKind)> {
        let s = sq.index();
        if s >= 64 || self.occupied() & (1 << s) == 0 {
            return None;
        }
        let color = if self.by_color[0] & (1 << s) != 0 { Color::White } else { Color::Black };
        Some((color, self.kind_on(s)))
    }

    /// The kind of the piece on an occupied square.
    #[inline(always)]
    fn kind_on(&self, s: usize) -> CheskersKind {
        let b = 1u64 << s;
        if self.by_kind[0] & b != 0 {
            CheskersKind::Pawn
        } else if self.by_kind[1] & b != 0 {
            CheskersKind::King
        } else if self.by_kind[2] & b != 0 {
            CheskersKind::Bishop
        } else {
            CheskersKind::Camel
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Every piece with its square, lowest square first.
    pub fn pieces(&self) -> Placement {
        (0..64u8).filter_map(|s| self.piece_at(Square(s)).map(|(c, k)| (Square(s), c, k))).collect()
    }

    /// The squares of the pieces of one colour and kind.
    pub fn pieces_of(&self, color: Color, kind: CheskersKind) -> u64 {
        self.by_color[color.index()] & self.by_kind[kind as usize]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The Zobrist key (equal positions have equal keys).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch (for tests of the incremental key).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut k = if self.side == Color::Black { ZOBRIST.side } else { 0 };
        for (s, c, kind) in self.pieces() {
            k ^= ZOBRIST.piece[c.index()][kind as usize][s.index()];
        }
        k
    }

    /// The position after a legal move (copy-make). A move that is not legal here gives an
    /// unspecified position (never a panic for squares of the board).
    #[inline]
    pub fn play(&self, m: CMove) -> Self {
        let mut p = *self;
        let (from, to) = (m.from.index() & 63, m.to.index() & 63);
        let us = self.side.index();
        let kind = self.kind_on(from) as usize;
        p.remove(us, kind, from);
        let mut caps = m.captured & self.by_color[us ^ 1];
        while caps != 0 {
            let s = caps.trailing_zeros() as usize;
            caps &= caps - 1;
            p.remove(us ^ 1, self.kind_on(s) as usize, s);
        }
        let landed = m.promotion.map_or(kind, |k| k as usize);
        if p.occupied() & (1 << to) == 0 {
            p.put(us, landed, to);
        }
        p.side = self.side.opponent();
        p.key ^= ZOBRIST.side;
        p
    }

    /// The same position with the other side to move (a null move; the key is updated).
    pub fn null_move(&self) -> Self {
        let mut p = *self;
        p.side = p.side.opponent();
        p.key ^= ZOBRIST.side;
        p
    }

    /// Whether a side has at least one king (without one its game is lost).
    pub fn has_king(&self, color: Color) -> bool {
        self.pieces_of(color, CheskersKind::King) != 0
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<CMove> {
        let mut v = Vec::new();
        self.legal_moves_into(&mut v);
        v
    }

    /// The position after `m` when `m` is legal here, `None` otherwise.
    pub fn try_play(&self, m: CMove) -> Option<Self> {
        self.legal_moves().contains(&m).then(|| self.play(m))
    }

    /// Number of leaf nodes at `depth` (the moves of the last ply are counted, not played).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut bufs = vec![Vec::new(); depth as usize];
        self.perft_with(depth, &mut bufs, true)
    }

    /// Number of leaf nodes at `depth`, playing every leaf move (no bulk counting).
    pub fn perft_full(&self, depth: u32) -> u64 {
        let mut bufs = vec![Vec::new(); depth as usize];
        self.perft_with(depth, &mut bufs, false)
    }

    fn perft_with(&self, depth: u32, bufs: &mut [Vec<CMove>], bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let Some((buf, rest)) = bufs.split_first_mut() else { return 0 };
        if depth == 1 && bulk {
            return self.count_legal_with(buf) as u64;
        }
        self.legal_moves_into(buf);
        let mut n = 0;
        for &m in buf.iter() {
            let child = self.play(m);
            n += if depth == 1 {
                std::hint::black_box(&child);
                1
            } else {
                child.perft_with(depth - 1, rest, bulk)
            };
        }
        n
    }

    /// The perft count below each legal move (`depth` ≥ 1 counts the move itself as one ply),
    /// in move order.
    pub fn divide(&self, depth: u32) -> Vec<(CMove, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves().into_iter().map(|m| (m, self.play(m).perft(depth - 1))).collect()
    }
}

impl Game for CheskersPosition {
    type Move = CMove;
    type Hint = ();
    type Plan = ();

    fn to_move(&self) -> Color {
        self.side
    }
    fn moves(&self, out: &mut Vec<CMove>) {
        self.legal_moves_into(out);
    }
    fn play(&self, m: CMove) -> Self {
        CheskersPosition::play(self, m)
    }
    /// There is no check in Cheskers.
    fn in_check(&self) -> bool {
        false
    }
    fn has_move(&self) -> bool {
        self.has_legal_move()
    }
    fn key(&self) -> u64 {
        self.key
    }
    /// `#` is "the side to move has lost": all its kings are captured or it has no legal move
    /// (one test: a side without a king has no move). There is neither check nor stalemate.
    fn goal_reached(&self, goal: Goal) -> bool {
        match goal {
            Goal::Mate => !self.has_legal_move(),
            // Neither check nor stalemate; the goals of the move are refused when the
            // problem is loaded.
            _ => false,
        }
    }
    fn pass(&self) -> Self {
        self.null_move()
    }
    /// `c3-d4`, `Kc1xe3xc5`, `g7-h8=CA`, with the piece letters of `lang`.
    fn move_text(&self, m: CMove, lang: crate::piece::Lang) -> String {
        self.move_text_lang(m, lang)
    }
    /// The notation of [`CheskersPosition::move_text`] in any language, with `*` or `:` for
    /// `x`, with or without the piece letter, or only the first and last squares of a chain.
    fn parse_move(&self, text: &str) -> Option<CMove> {
        CheskersPosition::parse_move(self, text)
    }
    fn gives_check(&self, _m: CMove) -> bool {
        false
    }
    fn try_play(&self, m: CMove) -> Option<Self> {
        CheskersPosition::try_play(self, m)
    }
    fn checking_moves(&self, out: &mut Vec<CMove>) {
        out.clear();
    }
}

#[cfg(test)]
mod tests;
