//! The Xiangqi (Chinese chess) rule system: positions, legal moves, perft, ICCS and WXF
//! notation, and the [`Game`] implementation the solver uses.
//!
//! The board has 9 files (`a`–`i`, from Red's left) and 10 ranks (`0`–`9`, from Red's back
//! rank); point `rank * 9 + file` is bit `rank * 9 + file` of a `u128` bitboard (`a0` = 0,
//! `i9` = 89). Red is [`Color::White`] and moves first in a game; Black is [`Color::Black`].
//!
//! ```text
//!   9  r n b a k a b n r      Black
//!   8  . . . . . . . . .
//!   7  . c . . . . . c .
//!   6  p . p . p . p . p
//!   5  . . . . . . . . .      ~~ river ~~
//!   4  . . . . . . . . .
//!   3  P . P . P . P . P
//!   2  . C . . . . . C .
//!   1  . . . . . . . . .
//!   0  R N B A K A B N R      Red
//!      a b c d e f g h i
//! ```
//!
//! Rules (`shared/rules/xiangqi.md`): the general and the advisors stay in their palace
//! (files d–f, ranks 0–2 for Red, 7–9 for Black); the elephant goes exactly two points
//! diagonally, blocked by a piece on the point between (its "eye"), and never lands across the
//! river; the horse goes one point orthogonally then one diagonally outward, blocked by a piece
//! on the orthogonal point next to it (its "leg"); the chariot moves as a rook; the cannon
//! moves as a rook without capturing and captures by jumping exactly one piece (of either
//! colour, the "screen") onto the first piece beyond it, if that is an enemy; the soldier goes
//! one point forward, and once across the river also one point sideways, never backwards. A
//! move may not leave the mover's general attacked, nor leave the two generals on one file with
//! nothing between them (the "flying general"). A side with no legal move has lost, whether in
//! check or not: [`Goal::Mate`] is "no legal move" here.
//!
//! The game rules against perpetual check and perpetual chasing are not modelled: they concern
//! repetitions in a played game and cannot arise inside a mate-in-n search, which only looks for
//! forced wins within a fixed number of moves.
//!
//! Positions the problem loader would reject for their placement (an elephant off its seven
//! points, a soldier behind its starting rank, extra pieces) are accepted here, and their moves
//! follow the same rules: an advisor moves only to points of its palace, an elephant only to
//! points of its own half, whatever point it stands on. Only what the move generator relies on
//! is checked ([`XiangqiError`]).
//!
//! Moves are generated legally by a pin analysis along the four lines of the general (a
//! piece standing before an enemy chariot or flying general, or one of the two screens of an
//! enemy cannon, and the legs of attacking horses): every other piece moves freely, except onto
//! the empty points between the general and an enemy cannon with no screen; the few others
//! and every move when in check are tested by a reverse attack test on the position after the
//! move. The last ply of [`XiangqiPosition::perft`] only counts the moves (a population count
//! per piece).
//!
//! ```
//! use feerie::rules::xiangqi::XiangqiPosition;
//! let p = XiangqiPosition::startpos();
//! assert_eq!(p.legal_moves().len(), 44);
//! assert_eq!(p.perft(3), 79666);
//! let m = p.parse_move("h2e2").unwrap();
//! assert_eq!(p.wxf(m), "C2.5");
//! ```

mod movegen;
mod notation;
mod tables;

use crate::geometry::{Square, Xiangqi9x10};
use crate::piece::{Color, Lang};
use crate::position::splitmix;
use crate::rules::{Game, Goal, Notation};
use arrayvec::ArrayVec;
use tables::{POINTS, TABLES, in_palace};
use thiserror::Error;

/// The seven Xiangqi piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum XiangqiKind {
    /// The general (`K`): one step orthogonally, inside the palace.
    General = 0,
    /// The advisor (`A`): one step diagonally, inside the palace.
    Advisor = 1,
    /// The elephant (`B`, also `E`): two steps diagonally, blocked on the point between, never
    /// across the river.
    Elephant = 2,
    /// The horse (`N`, also `H`): one step orthogonally then one diagonally outward, blocked by
    /// a piece on the orthogonal point.
    Horse = 3,
    /// The chariot (`R`): as a rook.
    Chariot = 4,
    /// The cannon (`C`): moves as a rook, captures by jumping exactly one piece.
    Cannon = 5,
    /// The soldier (`P`): one step forward, also sideways once across the river.
    Soldier = 6,
}

impl XiangqiKind {
    /// Every kind, in index order.
    pub const ALL: [XiangqiKind; 7] = [
        XiangqiKind::General,
        XiangqiKind::Advisor,
        XiangqiKind::Elephant,
        XiangqiKind::Horse,
        XiangqiKind::Chariot,
        XiangqiKind::Cannon,
        XiangqiKind::Soldier,
    ];

    /// The FEN and WXF letter, upper case: `K A B N R C P`.
    pub fn letter(self) -> char {
        match self {
            XiangqiKind::General => 'K',
            XiangqiKind::Advisor => 'A',
            XiangqiKind::Elephant => 'B',
            XiangqiKind::Horse => 'N',
            XiangqiKind::Chariot => 'R',
            XiangqiKind::Cannon => 'C',
            XiangqiKind::Soldier => 'P',
        }
    }

    /// The kind of a letter in either case: `K A B N R C P`, and `E` for the elephant and `H`
    /// for the horse (the WXF letters).
    pub fn from_letter(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'K' => XiangqiKind::General,
            'A' => XiangqiKind::Advisor,
            'B' | 'E' => XiangqiKind::Elephant,
            'N' | 'H' => XiangqiKind::Horse,
            'R' => XiangqiKind::Chariot,
            'C' => XiangqiKind::Cannon,
            'P' => XiangqiKind::Soldier,
            _ => return None,
        })
    }

    /// The WXF letter: `K A E H R C P` (the elephant is `E` and the horse `H` in WXF move
    /// text, where FEN has `B` and `N`).
    pub fn wxf_letter(self) -> char {
        match self {
            XiangqiKind::Elephant => 'E',
            XiangqiKind::Horse => 'H',
            k => k.letter(),
        }
    }

    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            XiangqiKind::General => "general",
            XiangqiKind::Advisor => "advisor",
            XiangqiKind::Elephant => "elephant",
            XiangqiKind::Horse => "horse",
            XiangqiKind::Chariot => "chariot",
            XiangqiKind::Cannon => "cannon",
            XiangqiKind::Soldier => "soldier",
        }
    }

    /// The most moves one piece of this kind can have in any position (17 for the line
    /// movers: 8 along the rank and 9 along the file).
    const fn most_moves(self) -> usize {
        match self {
            XiangqiKind::General | XiangqiKind::Advisor | XiangqiKind::Elephant => 4,
            XiangqiKind::Horse => 8,
            XiangqiKind::Chariot | XiangqiKind::Cannon => 17,
            XiangqiKind::Soldier => 3,
        }
    }
}

/// A Xiangqi move: the piece on `from` goes to `to`, capturing what stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct XMove {
    /// Departure point.
    pub from: Square,
    /// Arrival point.
    pub to: Square,
}

/// Capacity of a [`MoveList`]. The standard army (2 chariots and 2 cannons of at most 17
/// moves each, 2 horses of 8, 2 elephants, 2 advisors and the general of 4, 5 soldiers of 3)
/// has at most 119 moves; positions with extra pieces are accepted as long as the sum of the
/// most moves of each side's pieces stays within this bound ([`XiangqiError::TooRich`]).
/// Pieces never multiply in Xiangqi (no promotion, no drop), so the bound holds in every
/// position that follows.
pub const MAX_XMOVES: usize = 256;

/// A list of Xiangqi moves with a fixed capacity (no allocation in the search).
pub type MoveList = ArrayVec<XMove, MAX_XMOVES>;

/// Why a FEN or a list of pieces is not a Xiangqi position the engine can play.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum XiangqiError {
    /// The FEN placement does not have 10 ranks.
    #[error("bad Xiangqi FEN: {0} ranks, 10 expected")]
    RankCount(usize),
    /// A FEN rank does not have 9 points.
    #[error("bad Xiangqi FEN: rank {rank} has {points} points, 9 expected")]
    FileCount {
        /// The rank (0–9, from Red's side).
        rank: u8,
        /// How many points the FEN gives it.
        points: usize,
    },
    /// A character that is no piece letter nor digit in the placement.
    #[error("bad Xiangqi FEN: unknown piece letter '{0}'")]
    UnknownLetter(char),
    /// The side to move is none of `w`, `r`, `b`.
    #[error("bad Xiangqi FEN: side to move '{0}', expected w, r or b")]
    BadSide(String),
    /// A trailing FEN field that is not what it should be (`-` or a number), or too many.
    #[error("bad Xiangqi FEN: unexpected field '{0}'")]
    BadField(String),
    /// The FEN is empty.
    #[error("bad Xiangqi FEN: empty")]
    Empty,
    /// A point index beyond `i9` (89).
    #[error("point index {0} is off the 9×10 board")]
    OffBoard(u8),
    /// Two pieces on one point.
    #[error("two pieces on {0}")]
    Occupied(String),
    /// A side does not have exactly one general.
    #[error("{side} has {count} generals, exactly one expected")]
    GeneralCount {
        /// `Red` or `Black`.
        side: &'static str,
        /// How many it has.
        count: usize,
    },
    /// A general outside its palace.
    #[error("the {side} general on {point} is outside its palace")]
    GeneralOutsidePalace {
        /// `Red` or `Black`.
        side: &'static str,
        /// Its point (ICCS).
        point: String,
    },
    /// The two generals on one file with nothing between them.
    #[error("the generals face each other on an open file")]
    GeneralsFacing,
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    /// More pieces than the move list can hold the moves of.
    #[error("too many pieces: {side} could have up to {moves} moves, more than {max}", max = MAX_XMOVES)]
    TooRich {
        /// `Red` or `Black`.
        side: &'static str,
        /// The bound on its moves.
        moves: usize,
    },
}

/// The Xiangqi name of a side.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "Red",
        Color::Black => "Black",
    }
}

/// Zobrist keys: one per (colour, kind, point) and one for Black to move.
struct Zobrist {
    piece: [[[u64; POINTS]; 7]; 2],
    side: u64,
}

const fn zobrist_keys() -> Zobrist {
    let mut s = 0xC419_E5EC_4E55_0001_u64;
    let mut z = Zobrist { piece: [[[0; POINTS]; 7]; 2], side: 0 };
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut q = 0;
            while q < POINTS {
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

/// Mailbox code of an empty point.
const EMPTY: u8 = 0;

/// Mailbox code of a piece: `1 + 8 * colour + kind`.
#[inline(always)]
const fn code(c: usize, k: usize) -> u8 {
    (1 + 8 * c + k) as u8
}

/// Kind index of a non-empty mailbox code.
#[inline(always)]
const fn code_kind(code: u8) -> usize {
    (code.wrapping_sub(1) & 7) as usize
}

/// Colour index of a non-empty mailbox code.
#[inline(always)]
const fn code_color(code: u8) -> usize {
    (code.wrapping_sub(1) >> 3) as usize
}

/// A Xiangqi position: placement, side to move and Zobrist key. `Copy` (256 bytes), so that
/// the search can copy-make.
///
/// The mailbox pays for its 90 bytes: without it (the kind of a piece found by scanning the
/// kind bitboards) perft of the start position to depth 5 fell from 100 to 56 M nodes/s when
/// every leaf is played, and from 285 to 260 M nodes/s bulk-counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XiangqiPosition {
    /// Points of each colour (Red, Black).
    by_color: [u128; 2],
    /// Points of each kind, both colours together (indexed by [`XiangqiKind`]).
    by_kind: [u128; 7],
    /// The piece on each point ([`code`]), [`EMPTY`] when none.
    mailbox: [u8; POINTS],
    /// The Zobrist key, kept incrementally.
    key: u64,
    /// The side to move.
    side: Color,
    /// The point of each side's general.
    general: [u8; 2],
}

/// Pieces on their points, as a FEN or a problem lists them (unchecked).
pub type Placement = Vec<(Square, Color, XiangqiKind)>;

/// The start position (WXF FEN).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl XiangqiPosition {
    /// The start position, Red to move.
    pub fn startpos() -> Self {
        match Self::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    /// Reads a WXF / UCCI FEN: 10 ranks from Black's back rank (rank 9) down to Red's, 9 points
    /// each (digits for empty points), upper case for Red; then, optionally, the side to move
    /// (`w` or `r` for Red, `b` for Black; Red when missing) and up to four more fields
    /// (`- - 0 1`: `-` or numbers, ignored).
    pub fn from_fen(fen: &str) -> Result<Self, XiangqiError> {
        let (pieces, side) = Self::read_fen(fen)?;
        Self::from_pieces(&pieces, side.unwrap_or(Color::White))
    }

    /// What a FEN says, unchecked beyond its form: the pieces on their points and the side to
    /// move if given (the problem loader checks the placement itself, to point at the fault).
    pub fn read_fen(fen: &str) -> Result<(Placement, Option<Color>), XiangqiError> {
        use crate::notation::grid::{GridFault, read_grid};
        let (pieces, side) = read_grid(fen, 9, 10, XiangqiKind::from_letter).map_err(|f| match f {
            GridFault::Empty => XiangqiError::Empty,
            GridFault::RankCount(n) => XiangqiError::RankCount(n),
            GridFault::FileCount { rank, squares } => XiangqiError::FileCount { rank, points: squares },
            GridFault::Letter(c) => XiangqiError::UnknownLetter(c),
            GridFault::Field(f) => XiangqiError::BadField(f),
        })?;
        let side = match side.as_deref() {
            None => None,
            Some("w" | "W" | "r" | "R") => Some(Color::White),
            Some("b" | "B") => Some(Color::Black),
            Some(other) => return Err(XiangqiError::BadSide(other.to_string())),
        };
        Ok((pieces.into_iter().map(|(f, r, c, k)| (Square(r * 9 + f), c, k)).collect(), side))
    }

    /// A position from a list of pieces and the side to move, checked: every point on the
    /// board and used once, one general per side inside its palace, the generals not facing
    /// each other, the side not to move not in check, and not more pieces than the move list
    /// can hold the moves of.
    pub fn from_pieces(pieces: &[(Square, Color, XiangqiKind)], side: Color) -> Result<Self, XiangqiError> {
        let mut p = XiangqiPosition { by_color: [0; 2], by_kind: [0; 7], mailbox: [EMPTY; POINTS], key: 0, side, general: [0; 2] };
        let mut generals = [0usize; 2];
        let mut richness = [0usize; 2];
        for &(sq, color, kind) in pieces {
            let s = sq.index();
            if s >= POINTS {
                return Err(XiangqiError::OffBoard(sq.0));
            }
            if p.mailbox[s] != EMPTY {
                return Err(XiangqiError::Occupied(sq.name::<Xiangqi9x10>()));
            }
            let (c, k) = (color.index(), kind as usize);
            p.mailbox[s] = code(c, k);
            p.by_color[c] |= 1u128 << s;
            p.by_kind[k] |= 1u128 << s;
            p.key ^= ZOBRIST.piece[c][k][s];
            richness[c] += kind.most_moves();
            if kind == XiangqiKind::General {
                generals[c] += 1;
                p.general[c] = sq.0;
            }
        }
        if side == Color::Black {
            p.key ^= ZOBRIST.side;
        }
        for c in Color::BOTH {
            let i = c.index();
            if generals[i] != 1 {
                return Err(XiangqiError::GeneralCount { side: side_name(c), count: generals[i] });
            }
            if !in_palace(i, p.general[i] as usize) {
                return Err(XiangqiError::GeneralOutsidePalace { side: side_name(c), point: Square(p.general[i]).name::<Xiangqi9x10>() });
            }
            if richness[i] > MAX_XMOVES {
                return Err(XiangqiError::TooRich { side: side_name(c), moves: richness[i] });
            }
        }
        if p.generals_facing() {
            return Err(XiangqiError::GeneralsFacing);
        }
        if p.null_move().in_check() {
            return Err(XiangqiError::OppositeCheck(side_name(side.opponent())));
        }
        Ok(p)
    }

    /// Whether the two generals stand on one file with nothing between them.
    fn generals_facing(&self) -> bool {
        let (r, b) = (self.general[0] as usize, self.general[1] as usize);
        if r % 9 != b % 9 {
            return false;
        }
        let (lo, hi) = (r.min(b), r.max(b));
        let between = TABLES.rays[lo][tables::NORTH] & !TABLES.rays[hi][tables::NORTH] & !(1u128 << hi);
        between & self.occupied() == 0
    }

    /// The FEN of the position: placement, side (`w` for Red, `b` for Black) and `- - 0 1`.
    pub fn to_fen(&self) -> String {
        use crate::notation::grid::{cased, write_grid};
        let mut out = write_grid(9, 10, |f, r| self.piece_at(Square(r * 9 + f)).map(|(c, k)| cased(k.letter(), c)));
        out.push_str(if self.side == Color::White { " w - - 0 1" } else { " b - - 0 1" });
        out
    }

    /// The piece on a point, if any (`None` also for a point off the board).
    pub fn piece_at(&self, sq: Square) -> Option<(Color, XiangqiKind)> {
        let code = *self.mailbox.get(sq.index())?;
        if code == EMPTY {
            return None;
        }
        let color = if code_color(code) == 0 { Color::White } else { Color::Black };
        Some((color, XiangqiKind::ALL[code_kind(code)]))
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Every piece with its point, lowest point first.
    pub fn pieces(&self) -> Vec<(Square, Color, XiangqiKind)> {
        (0..POINTS as u8).filter_map(|s| self.piece_at(Square(s)).map(|(c, k)| (Square(s), c, k))).collect()
    }

    /// The points of the pieces of one colour and kind.
    pub fn pieces_of(&self, color: Color, kind: XiangqiKind) -> u128 {
        self.by_color[color.index()] & self.by_kind[kind as usize]
    }

    /// Every occupied point.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    /// The point of a side's general.
    pub fn general_square(&self, color: Color) -> Square {
        Square(self.general[color.index()])
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
    /// unspecified position (never a panic for a move between two points of the board).
    #[inline]
    pub fn play(&self, m: XMove) -> Self {
        let mut p = *self;
        let (from, to) = (m.from.index() % POINTS, m.to.index() % POINTS);
        let us = self.side.index();
        let code = p.mailbox[from];
        debug_assert!(code != EMPTY && code_color(code) == us, "no piece of the side to move on {from}");
        let kind = code_kind(code);
        let (fb, tb) = (1u128 << from, 1u128 << to);
        let z = &ZOBRIST;
        let cap = p.mailbox[to];
        if cap != EMPTY {
            let ck = code_kind(cap);
            p.by_color[us ^ 1] &= !tb;
            p.by_kind[ck] &= !tb;
            p.key ^= z.piece[us ^ 1][ck][to];
        }
        p.by_color[us] ^= fb | tb;
        p.by_kind[kind] ^= fb | tb;
        p.mailbox[from] = EMPTY;
        p.mailbox[to] = code;
        p.key ^= z.piece[us][kind][from] ^ z.piece[us][kind][to] ^ z.side;
        if kind == XiangqiKind::General as usize {
            p.general[us] = to as u8;
        }
        p.side = self.side.opponent();
        p
    }

    /// The key of the position after `m`, computed without playing it.
    #[inline]
    pub fn child_key(&self, m: XMove) -> u64 {
        let (from, to) = (m.from.index() % POINTS, m.to.index() % POINTS);
        let us = self.side.index();
        let z = &ZOBRIST;
        let kind = code_kind(self.mailbox[from]);
        let mut k = self.key ^ z.piece[us][kind][from] ^ z.piece[us][kind][to] ^ z.side;
        let cap = self.mailbox[to];
        if cap != EMPTY {
            k ^= z.piece[us ^ 1][code_kind(cap)][to];
        }
        k
    }

    /// The same position with the other side to move (a null move; the key is updated).
    pub fn null_move(&self) -> Self {
        let mut p = *self;
        p.side = p.side.opponent();
        p.key ^= ZOBRIST.side;
        p
    }

    /// Whether the move gives check (the opponent's general attacked after it).
    pub fn gives_check(&self, m: XMove) -> bool {
        self.play(m).in_check()
    }

    /// Number of leaf nodes at `depth` (the moves of the last ply are counted, not played).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal() as u64,
            _ => {
                let moves = self.legal_moves();
                moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
            }
        }
    }

    /// Number of leaf nodes at `depth`, playing every leaf move (no bulk counting).
    pub fn perft_full(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
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

    /// The perft count below each legal move (`depth` ≥ 1 counts the move itself as one ply),
    /// in move order.
    pub fn divide(&self, depth: u32) -> Vec<(XMove, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves().iter().map(|&m| (m, self.play(m).perft(depth - 1))).collect()
    }

    /// The position after `m` when `m` is legal here, `None` otherwise.
    pub fn try_play(&self, m: XMove) -> Option<Self> {
        self.legal_moves().contains(&m).then(|| self.play(m))
    }
}

impl Game for XiangqiPosition {
    type Move = XMove;
    type Hint = ();
    type Plan = ();

    fn to_move(&self) -> Color {
        self.side
    }
    fn moves(&self, out: &mut Vec<XMove>) {
        self.legal_moves_into(out);
    }
    fn play(&self, m: XMove) -> Self {
        XiangqiPosition::play(self, m)
    }
    fn in_check(&self) -> bool {
        XiangqiPosition::in_check(self)
    }
    fn has_move(&self) -> bool {
        self.has_legal_move()
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn key_hint(&self, m: XMove) -> u64 {
        XiangqiPosition::child_key(self, m)
    }
    fn child_key(&self, m: XMove) -> Option<u64> {
        Some(XiangqiPosition::child_key(self, m))
    }
    /// `#` is "no legal move" (a loss in Xiangqi, in check or not); there is no stalemate.
    fn goal_reached(&self, goal: Goal) -> bool {
        match goal {
            Goal::Mate => !self.has_legal_move(),
            Goal::Check => XiangqiPosition::in_check(self),
            // No stalemate; the goals of the move are refused when the problem is loaded.
            _ => false,
        }
    }
    fn pass(&self) -> Self {
        self.null_move()
    }
    /// ICCS coordinates (`h2e2`); the language does not apply.
    fn move_text(&self, m: XMove, _lang: Lang) -> String {
        self.iccs(m)
    }
    /// ICCS, or WXF (`C2.5`) with [`Notation::Wxf`].
    fn move_text_in(&self, m: XMove, _lang: Lang, notation: Notation) -> String {
        match notation {
            Notation::Native => self.iccs(m),
            Notation::Wxf => self.wxf(m),
        }
    }
    /// ICCS (`h2e2`, `h2-e2`) or WXF (`C2.5`, `H2+3`, `+R.5`).
    fn parse_move(&self, text: &str) -> Option<XMove> {
        XiangqiPosition::parse_move(self, text)
    }
    fn gives_check(&self, m: XMove) -> bool {
        XiangqiPosition::gives_check(self, m)
    }
    fn try_play(&self, m: XMove) -> Option<Self> {
        XiangqiPosition::try_play(self, m)
    }
    fn checking_moves(&self, out: &mut Vec<XMove>) {
        self.legal_moves_into(out);
        out.retain(|&m| XiangqiPosition::gives_check(self, m));
    }
}

#[cfg(test)]
mod tests;
