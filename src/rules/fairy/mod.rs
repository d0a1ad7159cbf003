//! The fairy rule system: chess with fairy conditions, the fairy pieces that the fast chess
//! position does not play, neutral pieces and holes.
//!
//! # Design
//!
//! A problem that uses none of these is played by [`crate::position::Position`], the fast,
//! legal-by-construction orthodox generator; a problem that uses any of them is played by
//! [`FairyPosition`], picked once when the problem is loaded
//! ([`crate::problem::GamePosition::Fairy`]). Orthodox chess therefore pays nothing for the
//! machinery here: not a flag, not a branch. One family is played on the chess position
//! after all: the Maximummers alone with orthodox pieces, whose lines are chess lines in which
//! a side chooses its longest moves ([`MaximummerChess`], picked by [`crate::verify`] per
//! variant).
//!
//! A [`FairyPosition`] is a mailbox (`Copy`, copy-make) with its [`Conditions`]. Moves are
//! made in named steps of a move's life, and a condition is a set of hooks on these steps
//! ([`conditions::Hooks`]), each condition in one file of [`conditions`]:
//!
//! 1. **walk**: how a piece moves ([`conditions::Hooks::walk`]: Annan chess gives it the walk
//!    of the piece behind it; the orphan takes the walks of its attackers);
//! 2. **paralysis**: which pieces cannot move, capture or check
//!    ([`conditions::Hooks::paralysed`]: Madrasi);
//! 3. **generation**: quiet moves and captures of each walk, where captures may be made from
//!    another square (Mars Circe, [`conditions::Hooks::capture_origin`]), may need a guard
//!    (patrol, [`conditions::Hooks::may_capture`]), or are followed or preceded by a second
//!    part (Take&Make, Make&Take, [`conditions::Hooks::expand`]);
//! 4. **filter**: which of these moves a condition allows ([`conditions::Hooks::allows`]: grid,
//!    monochrome, bichrome, KoeKo, AntiCirce's occupied rebirth square);
//! 5. **effects**: what happens after the move is made ([`conditions::Hooks::after`]: rebirths,
//!    colour changes, holes);
//! 6. **legality**: a move is legal when, afterwards, no royal piece of the mover can be
//!    captured by a move of the opponent generated through steps 1–4 (so each condition's
//!    idea of check follows from its idea of capture), and when the position after it is
//!    allowed ([`conditions::Hooks::legal_after`]: Isardam). When every condition in force
//!    says its idea of check is plain ([`conditions::Condition::plain_checks`]: a royal piece
//!    is attacked when an enemy piece's walk, its own or a lent one, reaches it, the piece
//!    not paralysed and the capture allowed by step 4), the test asks exactly that of the
//!    pieces without generating their moves, reading the royal's lines backwards for the
//!    common walks (the first piece on a line is the rider that may take, the second the
//!    screen piece or lion; the leaper tables; [`FairyPosition::forward`] keeps the squares
//!    of the kinds asked forwards); orphans, without conditions, by the walks they borrow,
//!    worked out only for the kinds whose walk from the orphan would take the royal
//!    ([`FairyPosition::orphans_taking`]); the others, and orphans under a condition, go
//!    through the generator, which looks for a capture of the royal's square only where
//!    the piece's walk reaches it. The generator takes the moves of the bitboard walks as
//!    sets, and asks the conditions that only filter moves without an expansion list
//!    ([`conditions::prop::EXPANDS_MOVES`]). Where every condition also keeps quiet moves plain
//!    ([`conditions::Condition::plain_quiet_moves`]: a quiet move changes only its two
//!    squares and the check test reads the board only through the walks' lines), quiet
//!    moves are judged without being made ([`FairyPosition::quiet_safe`]): a royal piece's
//!    by the check test with it moved; against enemy pieces that take only by leaps and
//!    rook and bishop lines, another piece's is legal unless it stands pinned on a queen
//!    line (then it is made and tested), and in check only when it comes between the one
//!    checking piece and the royal one; against other enemy pieces (a hopper's hurdle, a
//!    screen piece's screen may be the piece arriving), by the check test on the squares
//!    taken after the move. The check a quiet move gives is judged alike
//!    ([`FairyPosition::quiet_checks`]);
//! 7. **choice**: which of the legal moves a side may choose ([`conditions::Hooks::choose`]:
//!    Maximummer, Checkless chess).
//!
//! Several conditions combine on one problem: each step asks every condition in force, in
//! the order they are listed. What the hot paths ask of all of them at once ("does some
//! condition lend walks?", "are every condition's checks plain?") is kept as bits when a
//! condition is pushed ([`conditions::prop`]), from the same methods. Combinations whose meaning is not settled are refused when the
//! problem is read ([`Conditions::check_combination`]).
//!
//! The legality test makes most moves it cannot judge unmade, and the search then makes
//! the legal ones it plays once more. Where the search may stop early or plays every move
//! anyway (a defender's moves, a selfmate attacker's, a help move that is not the last), it
//! asks for the pseudo-legal moves instead ([`Game::candidate_moves`], unless a condition
//! chooses among the legal moves) and tests each as it plays it
//! ([`Game::play_candidate`]: judged unmade as above, or made once and tested); a killer
//! from another position is looked for among its own piece's moves ([`Game::try_play`]).
//!
//! ## Adding a condition
//! Write `conditions/<name>.rs` with a unit or data struct implementing
//! [`conditions::Hooks`] (only the steps it changes), add its variant to
//! [`conditions::Condition`] with the one-line dispatch, and its Popeye names to the option
//! reader. Nothing else changes: the generator, the check test and the solver are generic.
//! A new condition goes through the generator's check test until it is listed among those
//! whose checks are plain ([`conditions::Condition::plain_checks`], with
//! `lends_walks`/`paralyses`/`filters_moves` where it sets those hooks), which the test
//! `the_plain_check_test_agrees_with_the_generator` then compares with the generator on
//! random boards; likewise it is left out of the unmade quiet-move test until listed in
//! `plain_quiet_moves` (`tests/fairy_differential.rs` then compares the moves with the
//! reference generator's).

pub mod conditions;
pub mod maximummer_chess;
mod notation;
#[cfg(test)]
pub(crate) mod tests;

use crate::geometry::{Chess8x8, Square, Squares};
use crate::piece::{Color, Kind, walk};
use crate::position::{castle, sq_name};
use crate::rules::{Game, Goal};
use arrayvec::ArrayVec;
use conditions::Hooks;
use conditions::prop;
pub use conditions::{Condition, Conditions};
pub use maximummer_chess::MaximummerChess;
pub use notation::translate_notes;
use std::fmt;

/// Who owns a piece: one side, or both (a neutral piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// White's.
    White,
    /// Black's.
    Black,
    /// Neutral: either side may move or capture it; its pawns go the mover's way.
    Neutral,
}

impl Owner {
    /// The owner of a side's pieces.
    pub fn of(c: Color) -> Owner {
        match c {
            Color::White => Owner::White,
            Color::Black => Owner::Black,
        }
    }
    /// Whether `c` may move a piece of this owner.
    #[inline]
    pub fn moved_by(self, c: Color) -> bool {
        self == Owner::Neutral || self == Owner::of(c)
    }
    /// Whether `c` may capture a piece of this owner.
    #[inline]
    pub fn captured_by(self, c: Color) -> bool {
        self == Owner::Neutral || self == Owner::of(c.opponent())
    }
    /// The colour, `None` for a neutral piece.
    pub fn color(self) -> Option<Color> {
        match self {
            Owner::White => Some(Color::White),
            Owner::Black => Some(Color::Black),
            Owner::Neutral => None,
        }
    }
    /// The other side's owner (neutral stays neutral).
    pub fn flipped(self) -> Owner {
        match self {
            Owner::White => Owner::Black,
            Owner::Black => Owner::White,
            Owner::Neutral => Owner::Neutral,
        }
    }
    /// Popeye's prefix: `w`, `b`, `n`.
    pub fn letter(self) -> char {
        match self {
            Owner::White => 'w',
            Owner::Black => 'b',
            Owner::Neutral => 'n',
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// A piece of the fairy rule system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FPiece {
    /// Its owner.
    pub owner: Owner,
    /// Its kind.
    pub kind: Kind,
}

impl FPiece {
    /// A piece.
    pub const fn new(owner: Owner, kind: Kind) -> FPiece {
        FPiece { owner, kind }
    }
    /// Whether it is a pawn of either kind (orthodox or Berolina).
    pub fn is_pawn(self) -> bool {
        matches!(self.kind, Kind::Pawn | Kind::BerolinaPawn)
    }
}

/// A move of the fairy rule system. `to` is always where the moving piece ends; a capture
/// names its victim's square apart (en passant and the locusts take elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FMove {
    /// Departure.
    pub from: Square,
    /// Where the moving piece ends (for castling, the king's square).
    pub to: Square,
    /// The captured piece's square.
    pub victim: Option<Square>,
    /// The kind a pawn becomes.
    pub promotion: Option<Kind>,
    /// Castling: the rook's square (it goes to the square the king crossed). With a victim:
    /// Make&Take's capture whose make, as the victim king, was castling with that rook (the
    /// rook moves as in castling, the capturer goes to the king's square `via` and takes
    /// from there).
    pub rook: Option<Square>,
    /// A second square of a two-part move: Take&Make, the capture square (the piece then
    /// makes its move to `to`); Make&Take, the square it makes to before taking on `to`;
    /// Mars Circe, the rebirth square it captures from; Circe Take&Make and AntiCirce
    /// Take&Make, the rebirth square (the captured, resp. the capturing piece's).
    pub via: Option<Square>,
    /// The kind a pawn reborn on its last rank becomes (Parrain Circe: after this move;
    /// Circe Take&Make: by this move).
    pub reborn: Option<Kind>,
}

impl FMove {
    /// A move without capture.
    pub fn quiet(from: Square, to: Square) -> FMove {
        FMove { from, to, victim: None, promotion: None, rook: None, via: None, reborn: None }
    }
    /// Whether it captures.
    pub fn is_capture(&self) -> bool {
        self.victim.is_some()
    }
    /// Whether it is castling (a king and a rook move, nothing is taken). A capture with a
    /// rook is Make&Take's capture whose make was castling (see [`FMove::rook`]).
    pub fn is_castling(&self) -> bool {
        self.rook.is_some() && self.victim.is_none()
    }
}

/// Most moves one fairy position can have.
pub const MAX_FAIRY_MOVES: usize = 2048;

/// A fixed-capacity list of fairy moves.
pub type FMoveList = ArrayVec<FMove, MAX_FAIRY_MOVES>;

/// Why a fairy setup is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairyError {
    /// Two pieces on one square, or a piece on a hole.
    #[error("two things on {0}")]
    Occupied(String),
    /// More than one royal piece of a side.
    #[error("{0} has more than one king")]
    ExtraKing(&'static str),
    /// A pawn on a rank it cannot stand on.
    #[error("{0} pawn on {1}, its first or last rank")]
    PawnOnBackRank(&'static str, String),
    /// The side not to move is in check.
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    /// Conditions that feerie cannot combine.
    #[error("{0}")]
    Combination(String),
    /// Too many moves for the move list.
    #[error("position too rich: more than {MAX_FAIRY_MOVES} moves")]
    TooRich,
}

/// A fairy problem's diagram before validation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FairySetup {
    /// Pieces on the board.
    pub pieces: Vec<(Square, FPiece)>,
    /// Holes.
    pub holes: u64,
    /// Side to move.
    pub side: Option<Color>,
    /// Castling rights ([`castle`] bits).
    pub castling: u8,
    /// En-passant square (crossed square) of the pawn that just double-stepped.
    pub ep: Option<Square>,
    /// The conditions.
    pub conditions: Conditions,
    /// Extra promotion kinds.
    pub extra_promotions: Vec<Kind>,
    /// Whether the position follows each piece from its diagram square (for the goals of
    /// [`Goal::tracks_pieces`]): where a piece started then counts in the position's key and
    /// equality, so that the search tells apart two boards whose pieces came by other ways.
    pub track_pieces: bool,
}

/// A position of the fairy rule system.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub struct FairyPosition {
    pub(crate) board: [Option<FPiece>; 64],
    pub(crate) occ: [u64; 3],
    /// The squares of the kings, whoever owns them (kept by [`Self::put`] and
    /// [`Self::take`]).
    pub(crate) kings: u64,
    /// The squares of the pieces whose kinds the plain check test does not read backwards
    /// from a royal piece by a set of its own ([`BACKWARDS`]: fairy walks but the screen
    /// pieces and lions, nightriders and Naos, dummies, orphans), whoever owns them (kept
    /// by [`Self::put`] and [`Self::take`]).
    pub(crate) forward: u64,
    pub(crate) holes: u64,
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// The castling squares whose piece has moved away or been taken ([`HOME`] order: e1,
    /// h1, a1, e8, h8, a8, one bit each): under a rebirth rule a king or rook reborn on its
    /// square brings a right back only with its partner's square untouched.
    pub(crate) lost: u8,
    /// Make&Take: the corners (h1, a1, h8, a8: [`castle`] bits of their wing) whose rook
    /// has stood there since the diagram; a piece that makes as the king of the rook's side
    /// from that king's initial square may castle with it (Popeye: only the rook's square
    /// counts, not what stands on the king's). Empty under other rules.
    pub(crate) corner_rooks: u8,
    /// En passant: (the crossed square, the square of the pawn that crossed it).
    pub(crate) ep: Option<(Square, Square)>,
    /// Parrain Circe: the piece waiting for its rebirth and the square it was taken on.
    pub(crate) pending: Option<(FPiece, Square)>,
    /// Kinds a pawn may promote to (bit per kind index).
    pub(crate) promotions: u64,
    pub(crate) conditions: Conditions,
    pub(crate) hash: u64,
    /// The diagram square of the piece on each square (meaningful on occupied squares
    /// only): a piece keeps it when it moves, promotes or is reborn.
    pub(crate) origin: [u8; 64],
    /// Parrain Circe: the diagram square of the piece waiting for its rebirth.
    pub(crate) pending_origin: u8,
    /// The square a captured piece was reborn on by the last move (Circe, Parrain Circe).
    pub(crate) reborn: Option<Square>,
    /// Whether the diagram squares count in the key and equality
    /// ([`FairySetup::track_pieces`]).
    pub(crate) track: bool,
}

impl PartialEq for FairyPosition {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.holes == o.holes
            && self.side == o.side
            && self.castling == o.castling
            && self.lost == o.lost
            && self.corner_rooks == o.corner_rooks
            && self.ep == o.ep
            && self.pending == o.pending
            && (!self.track
                || (Squares(self.occupied()).all(|s| self.origin[s.index()] == o.origin[s.index()])
                    && (self.pending.is_none() || self.pending_origin == o.pending_origin)))
    }
}

/// What one check test has worked out of the orphans' borrowed walks
/// ([`FairyPosition::orphan_takes`]).
struct OrphanWalks {
    /// The kinds on the board that an orphan may borrow.
    kinds: u64,
    /// For each kind asked, the orphans that have its walk.
    having: ArrayVec<(Kind, u64), 16>,
    /// The lines of the royal piece asked about.
    lines: RoyalLines,
}

/// One royal piece's lines as the plain check test reads them backwards
/// ([`FairyPosition::plain_attackers`]): the first and second pieces on its files, ranks and
/// diagonals and on its nightrider lines, each read when a piece that needs it is met.
struct RoyalLines {
    r: Square,
    occ: u64,
    them: Color,
    first: Option<(u64, u64)>,
    second: Option<(u64, u64)>,
    nights: Option<(u64, u64)>,
    /// [`Self::orphan_takers`], once asked.
    orphan_from: Option<u64>,
}

impl RoyalLines {
    fn new(r: Square, occ: u64, them: Color) -> RoyalLines {
        RoyalLines { r, occ, them, first: None, second: None, nights: None, orphan_from: None }
    }

    /// The squares a piece of walk `walk` on `from`, moved by `them`, lands on when it takes
    /// the royal piece: read backwards from the royal for the walks [`BACKWARDS`] classes
    /// (when `backwards`: no holes, every attacker standing in `occ`), forwards
    /// ([`FairyPosition::lands_taking`]) for the others.
    #[inline(always)]
    fn lands(&mut self, pos: &FairyPosition, from: Square, walk: Kind, backwards: bool) -> u64 {
        let t = 1u64 << self.r.0;
        let class = if backwards { BACKWARDS[walk.index()] } else { BACK_NONE };
        match class {
            BACK_NONE => pos.lands_taking(from, walk, self.them, self.occ, self.r),
            BACK_NIGHT_FIRST | BACK_NIGHT_SECOND if SPANS[walk.index()][from.index() & 63] & t == 0 => 0,
            c => {
                if self.takers(c) & (1u64 << from.0) != 0 {
                    t
                } else {
                    0
                }
            }
        }
    }

    /// The squares from which a piece of walk class `c` (of [`BACKWARDS`], not
    /// [`BACK_NONE`]), moved by `them`, takes the royal piece.
    #[inline(always)]
    fn takers(&mut self, c: u8) -> u64 {
        use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, line_pieces, pawn_attacks, rook_attacks};
        let (r, occ, them) = (self.r, self.occ, self.them);
        match c {
            BACK_KING => king_attacks(r),
            BACK_KNIGHT => knight_attacks(r),
            BACK_PAWN => pawn_attacks(them.opponent(), r),
            BACK_BEROLINA => {
                let down: i32 = if them == Color::White { -1 } else { 1 };
                sq(r.0 as i32 % 8, r.0 as i32 / 8 + down).map_or(0, |s| 1u64 << s.0)
            }
            BACK_NIGHT_FIRST | BACK_NIGHT_SECOND => {
                let (n1, n2) = *self.nights.get_or_insert_with(|| crate::rules::chess::night_pieces(r, occ));
                if c == BACK_NIGHT_FIRST { n1 } else { n2 }
            }
            _ => {
                let (o, d) = if c & BACK_SECOND != 0 {
                    *self.second.get_or_insert_with(|| (line_pieces(rook_attacks, r, occ).1, line_pieces(bishop_attacks, r, occ).1))
                } else {
                    *self.first.get_or_insert_with(|| (rook_attacks(r, occ) & occ, bishop_attacks(r, occ) & occ))
                };
                (if c & BACK_ORTH != 0 { o } else { 0 })
                    | (if c & BACK_DIAG != 0 { d } else { 0 })
                    | (if c & BACK_LEAP != 0 { knight_attacks(r) } else { 0 })
            }
        }
    }

    /// The squares from which a piece of one of `kinds` may take the royal piece: exactly,
    /// when every kind is read backwards; every square otherwise. An orphan standing
    /// elsewhere borrows no walk that takes it.
    fn orphan_takers(&mut self, kinds: u64, backwards: bool) -> u64 {
        if let Some(set) = self.orphan_from {
            return set;
        }
        let mut set = 0u64;
        let mut ks = kinds;
        while ks != 0 && set != u64::MAX {
            let k = Kind::from_index(ks.trailing_zeros() as usize);
            ks &= ks - 1;
            let class = if backwards { BACKWARDS[k.index()] } else { BACK_NONE };
            set |= if class == BACK_NONE { u64::MAX } else { self.takers(class) };
        }
        self.orphan_from = Some(set);
        set
    }
}

/// A key for "the piece on `s` started on `origin`" (a mix of the two, for
/// [`FairySetup::track_pieces`]).
#[inline]
fn origin_key(s: Square, origin: u8) -> u64 {
    let mut z = (s.0 as u64) << 8 | origin as u64;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
impl Eq for FairyPosition {}

pub(crate) const RANK_1: u64 = 0xFF;
pub(crate) const RANK_8: u64 = 0xFF << 56;

/// The rank (0–7) and file of a square.
#[inline]
pub(crate) fn fr(s: Square) -> (i32, i32) {
    ((s.0 % 8) as i32, (s.0 / 8) as i32)
}

#[inline]
pub(crate) fn sq(f: i32, r: i32) -> Option<Square> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square((r * 8 + f) as u8))
}

/// Zobrist key of a piece (neutral pieces mix both colours' keys).
fn piece_key(p: FPiece, s: Square) -> u64 {
    let z = &crate::position::ZOBRIST;
    match p.owner {
        Owner::White => z.piece[0][p.kind.index()][s.index()],
        Owner::Black => z.piece[1][p.kind.index()][s.index()],
        Owner::Neutral => z.piece[0][p.kind.index()][s.index()].rotate_left(23) ^ z.piece[1][p.kind.index()][s.index()],
    }
}

impl FairyPosition {
    /// Validates a setup.
    pub fn from_setup(setup: &FairySetup) -> Result<FairyPosition, FairyError> {
        setup.conditions.check_combination().map_err(FairyError::Combination)?;
        let mut p = FairyPosition {
            board: [None; 64],
            occ: [0; 3],
            kings: 0,
            forward: 0,
            holes: setup.holes,
            side: setup.side.unwrap_or(Color::White),
            castling: 0,
            lost: 0,
            corner_rooks: 0,
            ep: None,
            pending: None,
            promotions: (1 << Kind::Queen as u64) | (1 << Kind::Rook as u64) | (1 << Kind::Bishop as u64) | (1 << Kind::Knight as u64),
            conditions: setup.conditions,
            hash: 0,
            origin: std::array::from_fn(|i| i as u8),
            pending_origin: 0,
            reborn: None,
            track: setup.track_pieces,
        };
        for &(s, piece) in &setup.pieces {
            if s.index() >= 64 || p.board[s.index()].is_some() || setup.holes & (1u64 << s.0) != 0 {
                return Err(FairyError::Occupied(sq_name(s).into()));
            }
            if piece.is_pawn() && (s.0 < 8 || s.0 >= 56) {
                let who = match piece.owner {
                    Owner::White => "white",
                    Owner::Black => "black",
                    Owner::Neutral => "neutral",
                };
                return Err(FairyError::PawnOnBackRank(who, sq_name(s).into()));
            }
            p.put(s, piece);
            if !piece.kind.is_orthodox() && piece.kind != Kind::Dummy && !piece.is_pawn() {
                p.promotions |= 1 << piece.kind as u64;
            }
        }
        for &k in &setup.extra_promotions {
            if k != Kind::King && k != Kind::Pawn && k != Kind::BerolinaPawn {
                p.promotions |= 1 << k as u64;
            }
        }
        for c in Color::BOTH {
            if p.royals(c).count_ones() > 1 && p.royals_own(c).count_ones() > 1 {
                return Err(FairyError::ExtraKing(c.name()));
            }
        }
        for (bit, king, rook, owner) in [
            (castle::WK, 4u8, 7u8, Owner::White),
            (castle::WQ, 4, 0, Owner::White),
            (castle::BK, 60, 63, Owner::Black),
            (castle::BQ, 60, 56, Owner::Black),
        ] {
            // Under a rebirth rule a rook (or king) reborn on its untouched initial square may
            // castle, as Popeye plays it: the right belongs to the squares, kept until the
            // side's own piece leaves them or the other side captures there, whatever stands
            // there in the diagram.
            let rebirth = p.conditions.rebirth().is_some();
            // A neutral rook castles with either king (Popeye's 4_69_to_4_71.inp #5).
            let corner_ok =
                rebirth || p.board[rook as usize].is_some_and(|r| r.kind == Kind::Rook && (r.owner == owner || r.owner == Owner::Neutral));
            let king_ok = rebirth || p.board[king as usize] == Some(FPiece::new(owner, Kind::King));
            if setup.castling & bit != 0 && king_ok && corner_ok {
                p.castling |= bit;
            } else if rebirth {
                // No right: the rook's square counts as touched, and the king's when the
                // side has no right at all (a reborn piece brings back only what the
                // diagram gave).
                p.lost |= home_bit(Square(rook));
            }
        }
        if p.conditions.iter().any(|c| *c == Condition::MakeTake) {
            for (bit, rook, owner) in [
                (castle::WK, 7u8, Owner::White),
                (castle::WQ, 0, Owner::White),
                (castle::BK, 63, Owner::Black),
                (castle::BQ, 56, Owner::Black),
            ] {
                if setup.castling & bit != 0 && p.board[rook as usize] == Some(FPiece::new(owner, Kind::Rook)) {
                    p.corner_rooks |= bit;
                }
            }
        }
        if p.conditions.rebirth().is_some() {
            for (rights, king) in [(castle::WK | castle::WQ, 4u8), (castle::BK | castle::BQ, 60)] {
                if p.castling & rights == 0 {
                    p.lost |= home_bit(Square(king));
                }
            }
        }
        if let Some(ep) = setup.ep {
            let pawn = match p.side {
                Color::White => ep.0.checked_sub(8),
                Color::Black => Some(ep.0 + 8),
            };
            if let Some(ps) = pawn.filter(|&x| x < 64) {
                p.ep = Some((ep, Square(ps)));
            }
        }
        p.hash = p.compute_hash();
        if p.royal_attacked(p.side.opponent()) {
            return Err(FairyError::OppositeCheck(p.side.opponent().name()));
        }
        Ok(p)
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for s in Squares(self.occupied()) {
            if let Some(p) = self.board[s.index()] {
                h ^= piece_key(p, s);
            }
        }
        if self.track {
            for s in Squares(self.occupied()) {
                h ^= origin_key(s, self.origin[s.index()]);
            }
        }
        h ^ self.state_hash()
    }

    /// The key of `q`, made from this position by the move `m`, from this position's key:
    /// the squares whose piece may have changed are those of the move and those whose
    /// occupant's side changed (every piece is put and taken by [`Self::put`] and
    /// [`Self::take`], which keep the sides' squares); the rest of the state is hashed
    /// whole. Positions that track their pieces' origins, or have few pieces, are hashed
    /// whole.
    #[inline]
    fn key_after(&self, m: FMove, q: &FairyPosition) -> u64 {
        // (On a board of few pieces, hashing them all costs less.)
        if self.track || q.occupied().count_ones() <= 10 { q.compute_hash() } else { self.key_by_changes(m, q) }
    }

    /// [`Self::key_after`] from the squares the move changed.
    #[inline(never)]
    fn key_by_changes(&self, m: FMove, q: &FairyPosition) -> u64 {
        let bit = |s: Option<Square>| s.map_or(0, |s| 1u64 << (s.0 & 63));
        let changed = (self.occ[0] ^ q.occ[0])
            | (self.occ[1] ^ q.occ[1])
            | (self.occ[2] ^ q.occ[2])
            | 1u64 << (m.from.0 & 63)
            | 1u64 << (m.to.0 & 63)
            | bit(m.victim)
            | bit(m.rook)
            | bit(m.via);
        let z = &crate::position::ZOBRIST;
        let mut h = self.hash;
        if self.holes != q.holes || self.lost != q.lost || self.corner_rooks != q.corner_rooks || self.pending != q.pending {
            h ^= self.state_hash() ^ q.state_hash();
        } else {
            // What changes on most moves: the side, castling, en passant.
            if self.side != q.side {
                h ^= z.side;
            }
            if self.castling != q.castling {
                h ^= z.castling[self.castling as usize & 15] ^ z.castling[q.castling as usize & 15];
            }
            if self.ep != q.ep {
                for (e, _) in [self.ep, q.ep].into_iter().flatten() {
                    h ^= z.ep[(e.0 % 8) as usize];
                }
            }
        }
        for s in Squares(changed) {
            if let Some(p) = self.board[s.index()] {
                h ^= piece_key(p, s);
            }
            if let Some(p) = q.board[s.index()] {
                h ^= piece_key(p, s);
            }
        }
        debug_assert_eq!(h, q.compute_hash(), "incremental key after {m:?}");
        h
    }

    /// The part of [`Self::compute_hash`] that is not the pieces: holes, side, castling,
    /// en passant, the piece to come back.
    #[inline]
    fn state_hash(&self) -> u64 {
        let z = &crate::position::ZOBRIST;
        let mut h = 0u64;
        for s in Squares(self.holes) {
            h ^= z.piece[0][Kind::King.index()][s.index()].rotate_left(41);
        }
        if self.side == Color::Black {
            h ^= z.side;
        }
        h ^= z.castling[self.castling as usize & 15];
        if self.lost != 0 {
            h ^= z.castling[self.lost as usize & 15].rotate_left(23) ^ z.castling[self.lost as usize >> 4].rotate_left(47);
        }
        if self.corner_rooks != 0 {
            h ^= z.castling[self.corner_rooks as usize & 15].rotate_left(31);
        }
        if let Some((e, _)) = self.ep {
            h ^= z.ep[(e.0 % 8) as usize];
        }
        if let Some((p, s)) = self.pending {
            h ^= piece_key(p, s).rotate_left(7);
            if self.track {
                h ^= origin_key(s, self.pending_origin).rotate_left(13);
            }
        }
        h
    }

    #[inline]
    pub(crate) fn put(&mut self, s: Square, p: FPiece) {
        self.board[s.index()] = Some(p);
        self.occ[p.owner.index()] |= 1u64 << s.0;
        if p.kind == Kind::King {
            self.kings |= 1u64 << s.0;
        } else {
            self.kings &= !(1u64 << s.0);
        }
        self.forward = (self.forward & !(1u64 << s.0)) | (FORWARD[p.kind.index()] as u64) << s.0;
    }

    #[inline]
    pub(crate) fn take(&mut self, s: Square) -> Option<FPiece> {
        let p = self.board[s.index()].take()?;
        self.occ[p.owner.index()] &= !(1u64 << s.0);
        self.kings &= !(1u64 << s.0);
        self.forward &= !(1u64 << s.0);
        Some(p)
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Option<FPiece> {
        self.board[s.index() & 63]
    }

    /// The occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occ[0] | self.occ[1] | self.occ[2]
    }

    /// The holes.
    pub fn holes(&self) -> u64 {
        self.holes
    }

    /// The conditions in force.
    pub fn conditions(&self) -> &Conditions {
        &self.conditions
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Squares of the pieces `c` may move (its own and the neutral ones).
    #[inline]
    pub fn movable(&self, c: Color) -> u64 {
        self.occ[Owner::of(c).index()] | self.occ[2]
    }

    /// Squares of the pieces `c` may capture.
    #[inline]
    pub fn capturable(&self, c: Color) -> u64 {
        self.occ[Owner::of(c.opponent()).index()] | self.occ[2]
    }

    /// The royal pieces of `c`: its kings and the neutral kings.
    pub fn royals(&self, c: Color) -> u64 {
        self.kings_in(self.movable(c))
    }

    fn royals_own(&self, c: Color) -> u64 {
        self.kings_in(self.occ[Owner::of(c).index()])
    }

    #[inline]
    fn kings_in(&self, set: u64) -> u64 {
        self.kings & set
    }

    /// The pieces, for diagrams and FEN.
    pub fn pieces(&self) -> Vec<(Square, FPiece)> {
        Squares(self.occupied()).filter_map(|s| self.board[s.index()].map(|p| (s, p))).collect()
    }

    /// Kinds a pawn may promote to.
    pub fn promotion_kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::ALL.iter().copied().filter(|k| self.promotions & (1 << *k as u64) != 0)
    }

    /// The walk of the piece on `s` (its own kind, unless a condition says otherwise), for
    /// the side `mover` that moves it. `None` when the piece has no walk of its own (the
    /// orphan: see [`FairyPosition::orphan_walk_table`]).
    pub(crate) fn walk_of(&self, s: Square, p: FPiece, mover: Color) -> Kind {
        for c in self.conditions.iter() {
            if let Some(k) = c.walk(self, s, p, mover) {
                return k;
            }
        }
        p.kind
    }

    /// Whether the piece on `s` is paralysed (it neither moves, captures nor checks).
    pub(crate) fn paralysed(&self, s: Square, p: FPiece) -> bool {
        self.conditions.iter().any(|c| c.paralysed(self, s, p))
    }

    /// Calls `visit(to, victim)` for each move of a piece of walk `walk` from `from`, moved by
    /// `mover`, as if `from` held it (the board's `occupied` given: the piece's own square
    /// may be left out by the caller). Pawns move the mover's way. Victims are any occupied
    /// square; the caller filters colours.
    pub(crate) fn walk_moves(
        &self,
        from: Square,
        walk_kind: Kind,
        mover: Color,
        occupied: u64,
        visit: &mut impl FnMut(Square, Option<Square>),
    ) {
        if let Some((quiet, capture)) = self.fast_reach(from, walk_kind, occupied) {
            if quiet == capture {
                for t in Squares(quiet) {
                    if occupied & (1u64 << t.0) != 0 { visit(t, Some(t)) } else { visit(t, None) }
                }
            } else {
                for t in Squares(quiet & !occupied) {
                    visit(t, None);
                }
                for t in Squares(capture & occupied) {
                    visit(t, Some(t));
                }
            }
            return;
        }
        match walk_kind {
            Kind::Pawn | Kind::BerolinaPawn => self.pawn_walk(from, walk_kind == Kind::BerolinaPawn, mover, occupied, visit),
            Kind::Orphan | Kind::Dummy => {}
            k => walk::<Chess8x8>(k.components(), from, occupied, self.holes, visit),
        }
    }

    /// The squares a piece of walk `k` on `from` moves to and captures on, `(quiet,
    /// capture)`, for the walks the bitboard tables give (the leapers and riders of the chess
    /// tables, both sets alike, the line hoppers and screen pieces of
    /// [`crate::rules::chess::hopper_reach`], the nightrider and the Nao of
    /// [`crate::rules::chess::nightrider_reach`]), when the board has no holes; `None` for the
    /// other walks, which the general walker moves. Each set may hold squares of the other
    /// kind (the caller keeps the empty ones of `quiet`, the occupied ones of `capture`).
    #[inline]
    fn fast_reach(&self, from: Square, k: Kind, occupied: u64) -> Option<(u64, u64)> {
        if self.holes != 0 {
            return None;
        }
        match self.fast_attacks(from, k, occupied) {
            Some(a) => Some((a, a)),
            None => {
                crate::rules::chess::hopper_reach(k, from, occupied).or_else(|| crate::rules::chess::nightrider_reach(k, from, occupied))
            }
        }
    }

    /// The capture targets of [`Self::fast_reach`].
    #[inline]
    fn fast_captures(&self, from: Square, k: Kind, occupied: u64) -> Option<u64> {
        self.fast_reach(from, k, occupied).map(|(_, c)| c)
    }

    /// The squares a leaper or rider of the chess tables reaches from `from` (moves and
    /// captures alike), when the board has no holes; `None` for the other walks.
    #[inline]
    pub(crate) fn fast_attacks(&self, from: Square, k: Kind, occupied: u64) -> Option<u64> {
        use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
        if self.holes != 0 {
            return None;
        }
        Some(match k {
            Kind::King => king_attacks(from),
            Kind::Knight => knight_attacks(from),
            Kind::Rook => rook_attacks(from, occupied),
            Kind::Bishop => bishop_attacks(from, occupied),
            Kind::Queen => rook_attacks(from, occupied) | bishop_attacks(from, occupied),
            Kind::Amazon => rook_attacks(from, occupied) | bishop_attacks(from, occupied) | knight_attacks(from),
            Kind::Empress => rook_attacks(from, occupied) | knight_attacks(from),
            Kind::Princess => bishop_attacks(from, occupied) | knight_attacks(from),
            _ => return None,
        })
    }

    /// The squares where a piece of walk `k` on `from` may capture on some board
    /// ([`capture_span`]), or exactly where it captures now when its walk is a leaper or
    /// rider of the chess tables or a line hopper ([`Self::fast_reach`]) with `occupied` standing.
    #[inline]
    fn capture_reach(&self, from: Square, k: Kind, occupied: u64) -> u64 {
        self.fast_captures(from, k, occupied).unwrap_or_else(|| capture_span(k, from))
    }

    fn pawn_walk(&self, from: Square, berolina: bool, mover: Color, occupied: u64, visit: &mut impl FnMut(Square, Option<Square>)) {
        let (f, r) = fr(from);
        let (up, start) = match mover {
            Color::White => (1, 1),
            Color::Black => (-1, 6),
        };
        let free = |s: Square| occupied & (1u64 << s.0) == 0 && self.holes & (1u64 << s.0) == 0;
        let taken = |s: Square| occupied & (1u64 << s.0) != 0;
        if berolina {
            for dx in [-1, 1] {
                if let Some(t) = sq(f + dx, r + up).filter(|&t| free(t)) {
                    visit(t, None);
                    if r == start
                        && let Some(t2) = sq(f + 2 * dx, r + 2 * up).filter(|&t2| free(t2))
                    {
                        visit(t2, None);
                    }
                }
            }
            if let Some(t) = sq(f, r + up).filter(|&t| taken(t) && self.holes & (1u64 << t.0) == 0) {
                visit(t, Some(t));
            }
        } else {
            if let Some(t) = sq(f, r + up).filter(|&t| free(t)) {
                visit(t, None);
                if r == start
                    && let Some(t2) = sq(f, r + 2 * up).filter(|&t2| free(t2))
                {
                    visit(t2, None);
                }
            }
            for dx in [-1, 1] {
                if let Some(t) = sq(f + dx, r + up).filter(|&t| taken(t) && self.holes & (1u64 << t.0) == 0) {
                    visit(t, Some(t));
                }
            }
        }
    }

    /// The walks of every orphan on the board, by square (0 where there is none): the kinds
    /// of the enemy pieces that attack it, where an enemy orphan attacks with the walks it
    /// has itself; worked out a kind at a time ([`Self::orphans_with_walk`]).
    pub(crate) fn orphan_walk_table(&self) -> [u64; 64] {
        let mut walks = [0u64; 64];
        let mut kinds = 0u64;
        let mut any_orphan = false;
        for a in Squares(self.occupied()) {
            match self.board[a.index()] {
                Some(ap) if ap.kind == Kind::Orphan => any_orphan = true,
                Some(ap) => kinds |= 1u64 << ap.kind as u64,
                None => {}
            }
        }
        if !any_orphan {
            return walks;
        }
        while kinds != 0 {
            let k = Kind::from_index(kinds.trailing_zeros() as usize);
            kinds &= kinds - 1;
            for q in Squares(self.orphans_with_walk(k)) {
                walks[q.index()] |= 1u64 << k as u64;
            }
        }
        walks
    }

    /// The squares of the orphans that have the walk `k` (those attacked by an enemy piece of
    /// kind `k`, or by an enemy orphan that has it, by that walk): one column of
    /// [`Self::orphan_walk_table`], for a test that needs only a kind or two of it.
    pub(crate) fn orphans_with_walk(&self, k: Kind) -> u64 {
        let occ = self.occupied();
        // Orphans of each owner (White's, Black's, neutral), and the pieces of kind `k`.
        let mut orphans = [0u64; 3];
        let mut lenders = 0u64;
        for s in Squares(occ) {
            match self.board[s.index()] {
                Some(p) if p.kind == Kind::Orphan => orphans[p.owner.index()] |= 1u64 << s.0,
                Some(p) if p.kind == k => lenders |= 1u64 << s.0,
                _ => {}
            }
        }
        let all = orphans[0] | orphans[1] | orphans[2];
        if all == 0 {
            return 0;
        }
        // The orphans an attacker of owner `o` is the enemy of.
        let enemy_orphans = |o: Owner| match o {
            Owner::White => orphans[1] | orphans[2],
            Owner::Black => orphans[0] | orphans[2],
            Owner::Neutral => all,
        };
        let mut has = 0u64;
        for a in Squares(lenders) {
            if let Some(ap) = self.board[a.index()] {
                let targets = enemy_orphans(ap.owner) & !has;
                if targets != 0 {
                    has |= self.capture_set(a, k, ap.owner.color().unwrap_or(self.side), occ) & targets;
                }
            }
        }
        // Each orphan that has the walk lends it on, once.
        let mut todo = has;
        while todo != 0 {
            let a = Square(todo.trailing_zeros() as u8);
            todo &= todo - 1;
            let Some(ap) = self.board[a.index()] else { continue };
            let targets = enemy_orphans(ap.owner) & !has;
            if targets != 0 {
                let new = self.capture_set(a, k, ap.owner.color().unwrap_or(self.side), occ) & targets;
                has |= new;
                todo |= new;
            }
        }
        has
    }

    /// The squares a piece of walk `k` on `from`, moved by `mover`, could capture on (its
    /// victims' squares, whoever stands there), `occupied` standing.
    fn capture_set(&self, from: Square, k: Kind, mover: Color, occupied: u64) -> u64 {
        if let Some(a) = self.fast_captures(from, k, occupied) {
            return a & occupied;
        }
        let mut set = 0u64;
        self.walk_moves(from, k, mover, occupied, &mut |_, v| {
            if let Some(v) = v {
                set |= 1u64 << v.0;
            }
        });
        set
    }

    /// The walks of the orphan on `from` by which it might capture on the squares `t` (of
    /// its walks, those of the kinds whose reach from `from` meets `t`), `cache` keeping
    /// [`Self::orphans_with_walk`] of the kinds already asked.
    fn orphan_walks_toward(&self, from: Square, occ: u64, t: u64, cache: &mut ArrayVec<(Kind, u64), 16>) -> u64 {
        let mut kinds = 0u64;
        for a in Squares(occ) {
            if let Some(ap) = self.board[a.index()]
                && ap.kind != Kind::Orphan
            {
                kinds |= 1u64 << ap.kind as u64;
            }
        }
        let mut walks = 0u64;
        while kinds != 0 {
            let k = Kind::from_index(kinds.trailing_zeros() as usize);
            kinds &= kinds - 1;
            if !(k == Kind::Pawn || k == Kind::BerolinaPawn || self.capture_reach(from, k, occ) & t != 0) {
                continue;
            }
            let set = match cache.iter().find(|(c, _)| *c == k) {
                Some(&(_, set)) => set,
                None => {
                    let set = self.orphans_with_walk(k);
                    if !cache.is_full() {
                        cache.push((k, set));
                    }
                    set
                }
            };
            if set & (1u64 << from.0) != 0 {
                walks |= 1u64 << k as u64;
            }
        }
        walks
    }

    /// Whether a piece of walk `k` on `from` (moved by `mover`) could capture on `target`.
    pub(crate) fn reaches(&self, from: Square, k: Kind, mover: Color, target: Square) -> bool {
        if let Some(a) = self.fast_captures(from, k, self.occupied()) {
            return a & (1u64 << target.0) != 0 && self.occupied() & (1u64 << target.0) != 0;
        }
        let mut hit = false;
        self.walk_moves(from, k, mover, self.occupied(), &mut |_, v| {
            if v == Some(target) {
                hit = true;
            }
        });
        hit
    }

    /// Whether the orphan on `from` could capture on `target` by one of its walks (worked out
    /// in this position) as a piece on `at` in `view` moved by `mover`: the kinds that reach
    /// `target` are asked first, and only their walks worked out.
    fn orphan_reaches(&self, from: Square, view: &FairyPosition, at: Square, mover: Color, target: Square) -> bool {
        let mut kinds = 0u64;
        for a in Squares(self.occupied()) {
            if let Some(ap) = self.board[a.index()]
                && ap.kind != Kind::Orphan
            {
                kinds |= 1u64 << ap.kind as u64;
            }
        }
        while kinds != 0 {
            let k = Kind::from_index(kinds.trailing_zeros() as usize);
            kinds &= kinds - 1;
            if view.reaches(at, k, mover, target) && self.orphans_with_walk(k) & (1u64 << from.0) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether every piece observes from its own square by its own walk: no condition lends
    /// walks (Annan) or moves the square captures start from (Mars Circe). Then a piece
    /// observes only squares of its walk's [`capture_span`] from where it stands.
    pub(crate) fn observes_from_own_square(&self) -> bool {
        !self.conditions.iter().any(|c| c.lends_walks() || matches!(c, Condition::Rebirth(conditions::Rebirth::Mars)))
    }

    /// Whether a piece on `from` of owner `by` observes `target` (could capture there by its
    /// own walk, only the geometric conditions applied: Grid and Monochrome/Bichrome forbid
    /// observations along moves they forbid): Madrasi's and Patrol's observation.
    pub(crate) fn observes(&self, from: Square, p: FPiece, target: Square) -> bool {
        let mover = p.owner.color().unwrap_or(self.side);
        self.observes_as(from, p, target, mover, mover)
    }

    /// Whether the piece `p` on `from` observes `target` when `mover` moves it (a neutral
    /// pawn goes the mover's way): Patrol's observation.
    pub(crate) fn observes_for(&self, from: Square, p: FPiece, target: Square, mover: Color) -> bool {
        self.observes_as(from, p, target, p.owner.color().unwrap_or(mover), mover)
    }

    /// Whether the piece `p` on `from`, of `colour`, observes `target`: as the piece captures,
    /// from where its captures start (Mars Circe: its rebirth square, the piece itself gone
    /// from its square; Popeye's 4_63_to_4_65.inp #36: wBa4 observes h3 from f1), by the walk
    /// it moves with (Annan: a pawn below a knight observes as a knight, #70, #71, #73), only
    /// the geometric conditions applied. An orphan's borrowed pawn walks go `orphan_mover`'s
    /// way.
    fn observes_as(&self, from: Square, p: FPiece, target: Square, colour: Color, orphan_mover: Color) -> bool {
        let origin = self.conditions.iter().find_map(|c| c.capture_origin(self, from, p, colour));
        // The board as the piece sees it: this one (not copied), or with the piece moved to
        // where it captures from.
        let moved;
        let (at, view) = match origin {
            None => (from, self),
            Some(None) => return false,
            Some(Some(o)) => {
                let mut v = *self;
                if let Some(q) = v.take(from) {
                    v.put(o, q);
                }
                moved = v;
                (o, &moved)
            }
        };
        if !self.conditions.iter().all(|c| c.observation_allows(at, target)) {
            return false;
        }
        let walk = self.walk_of(from, p, colour);
        if walk == Kind::Orphan {
            return self.orphan_reaches(from, view, at, orphan_mover, target);
        }
        // A walk whose lines from `at` miss the target cannot observe it.
        capture_span(walk, at) & (1u64 << target.0) != 0 && view.reaches(at, walk, colour, target)
    }

    /// The pseudo-legal moves of `mover` (steps 1–4), appended to `out`; with
    /// `only_victim`, only the captures of that square.
    pub(crate) fn pseudo_moves(&self, mover: Color, only_victim: Option<Square>, out: &mut FMoveList) {
        self.generate::<false>(mover, only_victim, u64::MAX, out);
    }

    /// [`Self::pseudo_moves`] of the pieces on `pieces` only (castling goes with the king's
    /// square): to look for one legal move a piece at a time.
    pub(crate) fn pseudo_moves_of(&self, mover: Color, pieces: u64, out: &mut FMoveList) {
        self.generate::<false>(mover, None, pieces, out);
    }

    /// [`Self::pseudo_moves`]; with `FIRST_CHECK`, stops at the first piece that has a
    /// capture of `only_victim` counting as the capture of a royal piece
    /// ([`conditions::Hooks::royal_capture_counts`]) and answers `true` (the check test).
    fn generate<const FIRST_CHECK: bool>(&self, mover: Color, only_victim: Option<Square>, pieces: u64, out: &mut FMoveList) -> bool {
        let occ = self.occupied();
        let capturable = self.capturable(mover);
        // The orphans' walks, computed once for all of them when the first one moves.
        let mut orphan_table: Option<[u64; 64]> = None;
        // Or, for the captures of one square, the orphans that have each walk asked.
        let mut orphan_kinds: ArrayVec<(Kind, u64), 16> = ArrayVec::new();
        // Asked for the captures of one square (is it attacked?) under conditions that leave
        // captures where the pieces' own walks make them, a piece whose walk cannot reach the
        // square is passed over before any condition is asked.
        let target = only_victim.filter(|_| self.conditions.all(prop::PLAIN_CAPTURES)).map(|v| 1u64 << v.0);
        // Whether quiet moves stand as the walks make them ([`Self::finish`]).
        let plain_quiet = !self.conditions.any(prop::SHAPES_QUIET_MOVES);
        for from in Squares(self.movable(mover) & pieces) {
            let Some(p) = self.board[from.index()] else { continue };
            if p.kind == Kind::Dummy {
                continue;
            }
            if let Some(t) = target
                && !p.is_pawn()
                && p.kind != Kind::Orphan
                && self.capture_reach(from, p.kind, occ) & t == 0
            {
                continue;
            }
            // Paralysis is asked only of a piece that has a move here (it is the dearer
            // test): its moves are taken back when it is paralysed.
            let mark = out.len();
            let walks: u64 = if p.kind == Kind::Orphan {
                match target {
                    // Asked for the captures of one square: only the walks whose kind
                    // reaches it from here, each worked out for all orphans at once.
                    Some(t) => {
                        let w = self.orphan_walks_toward(from, occ, t, &mut orphan_kinds);
                        if w == 0 {
                            continue;
                        }
                        w
                    }
                    None => orphan_table.get_or_insert_with(|| self.orphan_walk_table())[from.index()],
                }
            } else {
                1 << self.walk_of(from, p, mover) as u64
            };
            // Whether the piece may capture (Patrol: when a friend observes it), asked once
            // and only when a capture is looked for.
            let mut may_capture: Option<bool> = None;
            let mut walk_set = walks;
            while walk_set != 0 {
                let k = Kind::from_index(walk_set.trailing_zeros() as usize);
                walk_set &= walk_set - 1;
                let promo_rank = if p.is_pawn() {
                    match mover {
                        Color::White => RANK_8,
                        Color::Black => RANK_1,
                    }
                } else {
                    0
                };
                let emit = |out: &mut FMoveList, m: FMove| {
                    if promo_rank & (1u64 << m.to.0) != 0 {
                        for pk in self.promotion_kinds() {
                            self.finish(mover, p, FMove { promotion: Some(pk), ..m }, out);
                        }
                    } else {
                        self.finish(mover, p, m, out);
                    }
                };
                // Quiet moves.
                if only_victim.is_none() {
                    // The walks of the bitboard tables at once, the others by the walker.
                    let quiet = match self.fast_reach(from, k, occ) {
                        Some((quiet, _)) => quiet & !occ,
                        None => {
                            let mut quiet = 0u64;
                            self.walk_moves(from, k, mover, occ, &mut |t, v| {
                                if v.is_none() {
                                    quiet |= 1u64 << t.0;
                                }
                            });
                            quiet
                        }
                    };
                    if promo_rank & quiet == 0 && plain_quiet {
                        // No condition shapes a quiet move: each stands as it is.
                        for t in Squares(quiet) {
                            if !out.is_full() {
                                out.push(FMove::quiet(from, t));
                            }
                        }
                    } else {
                        for t in Squares(quiet) {
                            emit(out, FMove::quiet(from, t));
                        }
                    }
                }
                // Captures, from the piece's square or where a condition puts it.
                let origin = if self.conditions.all(prop::PLAIN_CAPTURES) {
                    None
                } else {
                    self.conditions.iter().find_map(|c| c.capture_origin(self, from, p, mover))
                };
                let (cfrom, cocc) = match origin {
                    None => (Some(from), occ),
                    Some(o) => (o, o.map_or(occ, |o| (occ & !(1u64 << from.0)) | (1u64 << o.0))),
                };
                let Some(cfrom) = cfrom else { continue };
                // Asked for the captures of one square: a walk that cannot reach it from
                // where the piece captures has none (a pawn's en passant, which takes
                // elsewhere than it lands, is left to its own rule below).
                if let Some(v) = only_victim {
                    let reach = match k {
                        Kind::Pawn => crate::rules::chess::pawn_attacks(mover, cfrom),
                        Kind::BerolinaPawn => {
                            let up = if mover == Color::White { 1 } else { -1 };
                            sq(cfrom.0 as i32 % 8, cfrom.0 as i32 / 8 + up).map_or(0, |s| 1u64 << s.0)
                        }
                        _ => self.capture_reach(cfrom, k, cocc),
                    };
                    let en_passant = p.is_pawn() && self.ep.is_some_and(|(_, s)| s == v);
                    if !en_passant && reach & (1u64 << v.0) == 0 {
                        continue;
                    }
                }
                if self.conditions.any(prop::LIMITS_CAPTURES)
                    && !*may_capture.get_or_insert_with(|| self.conditions.iter().all(|c| c.may_capture(self, from, p, mover)))
                {
                    continue;
                }
                let via = (cfrom != from).then_some(cfrom);
                if let Some((_, reach)) = self.fast_reach(cfrom, k, cocc) {
                    // The walks of the bitboard tables take where they land: all at once.
                    let mut victims = reach & cocc & capturable & !(1u64 << from.0);
                    if let Some(v) = only_victim {
                        victims &= 1u64 << v.0;
                    }
                    for t in Squares(victims) {
                        emit(out, FMove { from, to: t, victim: Some(t), promotion: None, rook: None, via, reborn: None });
                    }
                } else {
                    let mut caps: ArrayVec<(Square, Square), 64> = ArrayVec::new();
                    let mut plain = 0u64;
                    self.walk_moves(cfrom, k, mover, cocc, &mut |t, v| {
                        if let Some(v) = v
                            && v != from
                            && capturable & (1u64 << v.0) != 0
                            && only_victim.is_none_or(|o| o == v)
                        {
                            if t == v {
                                if plain & (1u64 << t.0) == 0 {
                                    plain |= 1u64 << t.0;
                                    caps.push((t, v));
                                }
                            } else if !caps.contains(&(t, v)) && !caps.is_full() {
                                caps.push((t, v));
                            }
                        }
                    });
                    for &(t, v) in caps.iter() {
                        emit(out, FMove { from, to: t, victim: Some(v), promotion: None, rook: None, via, reborn: None });
                    }
                }
                // En passant.
                if let Some((e, victim)) = self.ep
                    && p.is_pawn()
                    && only_victim.is_none_or(|o| o == victim)
                    && self.board[victim.index()].is_some_and(|vp| vp.is_pawn() && vp.owner.captured_by(mover))
                {
                    let mut hits = false;
                    let shadow = occ | (1u64 << e.0);
                    self.walk_moves(cfrom, k, mover, shadow, &mut |t, v| {
                        if v == Some(e) && t == e {
                            hits = true;
                        }
                    });
                    if hits {
                        emit(out, FMove { from, to: e, victim: Some(victim), promotion: None, rook: None, via, reborn: None });
                    }
                }
            }
            // Condition-made two-part moves (Make&Take).
            if self.conditions.any(prop::ADDS_MOVES)
                && *may_capture.get_or_insert_with(|| self.conditions.iter().all(|c| c.may_capture(self, from, p, mover)))
            {
                for c in self.conditions.iter() {
                    c.extra_moves(self, from, p, mover, only_victim, out);
                }
            }
            if out.len() > mark && self.paralysed(from, p) {
                out.truncate(mark);
            }
            // An orphan with several walks reaches some squares by more than one of them.
            if p.kind == Kind::Orphan && out.len() > mark + 1 {
                out[mark..].sort_unstable();
                let mut kept = mark + 1;
                for i in mark + 1..out.len() {
                    if out[i] != out[kept - 1] {
                        out[kept] = out[i];
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
            if FIRST_CHECK && out[mark..].iter().any(|m| self.conditions.iter().all(|cd| cd.royal_capture_counts(self, m))) {
                return true;
            }
        }
        if only_victim.is_none() && pieces & (1u64 << 4 | 1u64 << 60) != 0 {
            self.castlings(mover, out);
        }
        false
    }

    /// Step 3's second part and step 4 for one generated move: the conditions expand it
    /// (Take&Make) and filter it.
    pub(crate) fn finish(&self, mover: Color, p: FPiece, m: FMove, out: &mut FMoveList) {
        let quiet = m.victim.is_none() && m.rook.is_none();
        if !self.conditions.any(if quiet { prop::SHAPES_QUIET_MOVES } else { prop::SHAPES_MOVES }) {
            if !out.is_full() {
                out.push(m);
            }
            return;
        }
        if !self.conditions.any(prop::EXPANDS_MOVES) {
            // The conditions only filter: the move stands or goes.
            if self.conditions.iter().all(|c| c.allows(self, p, mover, &m)) && !out.is_full() {
                out.push(m);
            }
            return;
        }
        let mut buf = conditions::ExpandList::new();
        buf.push(m);
        for c in self.conditions.iter() {
            c.expand(self, p, mover, &mut buf);
        }
        for &m in buf.iter() {
            if self.conditions.iter().all(|c| c.allows(self, p, mover, &m)) && !out.is_full() {
                out.push(m);
            }
        }
    }

    fn castlings(&self, mover: Color, out: &mut FMoveList) {
        let rights = self.castling & castle::of(mover);
        if rights == 0 {
            return;
        }
        let base = if mover == Color::White { 0u8 } else { 56 };
        let k = Square(base + 4);
        let Some(kp) = self.board[k.index()] else { return };
        if kp.kind != Kind::King || kp.owner != Owner::of(mover) || self.paralysed(k, kp) || self.royal_attacked(mover) {
            return;
        }
        let occ = self.occupied();
        for (bit, rook_file) in [(castle::WK | castle::BK, 7u8), (castle::WQ | castle::BQ, 0u8)] {
            if rights & bit == 0 {
                continue;
            }
            let rook = Square(base + rook_file);
            if !self.board[rook.index()].is_some_and(|r| r.kind == Kind::Rook && (r.owner == kp.owner || r.owner == Owner::Neutral)) {
                continue;
            }
            let (lo, hi) = if rook.0 > k.0 { (k.0 + 1, rook.0) } else { (rook.0 + 1, k.0) };
            if (lo..hi).any(|s| occ & (1u64 << s) != 0 || self.holes & (1u64 << s) != 0) {
                continue;
            }
            let (kto, cross) = crate::position::castle_squares(k, rook);
            // The king may not cross an attacked square (it lands on one only illegally,
            // which the legality test finds).
            let mut q = *self;
            let kpiece = q.take(k).unwrap_or(kp);
            q.put(cross, kpiece);
            if q.royal_attacked(mover) {
                continue;
            }
            let m = FMove { from: k, to: kto, victim: None, promotion: None, rook: Some(rook), via: None, reborn: None };
            if self.conditions.iter().all(|c| c.allows(self, kp, mover, &m)) {
                out.push(m);
            }
        }
    }

    /// Whether a royal piece of `c` could be captured by the other side (check).
    pub fn royal_attacked(&self, c: Color) -> bool {
        let royals = self.royals(c);
        if royals == 0 {
            return false;
        }
        let them = c.opponent();
        if self.conditions.all(prop::PLAIN_CHECKS)
            && let Some(hit) = self.plainly_attacked(royals, them)
        {
            return hit;
        }
        self.royal_attacked_generated(royals, them)
    }

    /// Whether the conditions allow ([`Hooks::allows`]) the capture of the piece on `r` by
    /// the piece `p` on `from`, moved by `them`, landing on `to`: in one of its forms, a
    /// pawn's capture on its last rank being one per promotion.
    fn capture_allowed(&self, from: Square, p: FPiece, r: Square, to: Square, them: Color) -> bool {
        let m = FMove { from, to, victim: Some(r), promotion: None, rook: None, via: None, reborn: None };
        let last = if them == Color::White { RANK_8 } else { RANK_1 };
        let allowed = |m: &FMove| self.conditions.iter().all(|c| c.allows(self, p, them, m));
        if p.is_pawn() && last & (1u64 << to.0) != 0 {
            self.promotion_kinds().any(|k| allowed(&FMove { promotion: Some(k), ..m }))
        } else {
            allowed(&m)
        }
    }

    /// [`Self::royal_attacked`] by the move generator: whether `them` has a capture of one
    /// of `royals` that counts as check. Kept apart so that the plain test does not pay for
    /// this one's move lists on the stack.
    #[inline(never)]
    fn royal_attacked_generated(&self, royals: u64, them: Color) -> bool {
        let mut caps = FMoveList::new();
        for r in Squares(royals) {
            caps.clear();
            if self.generate::<true>(them, Some(r), u64::MAX, &mut caps) {
                return true;
            }
        }
        false
    }

    /// The check test when every condition leaves it plain ([`Condition::plain_checks`]):
    /// whether a piece `them` may move could capture on one of `royals` by its walk (its
    /// own, or the one a condition lends it: [`Condition::lends_walks`]) from its own
    /// square; an orphan by the walks it borrows. `None` when an orphan stands among them
    /// under a condition (the general test, [`Self::generate`], answers).
    fn plainly_attacked(&self, royals: u64, them: Color) -> Option<bool> {
        self.plainly_attacked_in(royals, them, self.occupied())
    }

    /// [`Self::plainly_attacked`] with the squares `occ` taken (the pieces of `them` where
    /// they stand): for a royal piece's quiet move tested unmade.
    fn plainly_attacked_in(&self, royals: u64, them: Color, occ: u64) -> Option<bool> {
        self.plain_attackers::<true>(royals, them, occ, true).map(|a| a != 0)
    }

    /// The pieces of `them` that attack one of `royals` by the plain check test
    /// ([`Self::plainly_attacked`]) with the squares `occ` taken; with `FIRST`, the first
    /// one found only; without `filtered`, by their walks alone, whether the conditions
    /// allow the capture or not. `None` when an orphan stands among them under a condition,
    /// or with `occ` other than the board's (its borrowed walks are those of the board).
    fn plain_attackers<const FIRST: bool>(&self, royals: u64, them: Color, occ: u64, filtered: bool) -> Option<u64> {
        let mut found = 0u64;
        let attackers = self.movable(them);
        // Whether a condition lends pieces other walks (Annan).
        let walks = self.conditions.any(prop::LENDS_WALKS);
        // Whether a condition paralyses pieces (Madrasi).
        let paralysis = self.conditions.any(prop::PARALYSES);
        // Whether a condition forbids some captures (AntiCirce, Grid, KoeKo…).
        let filters = filtered && self.conditions.any(prop::FILTERS_MOVES);
        // The pieces of the common walks (leapers and pawns of the chess tables, riders,
        // screen pieces and lions on lines and nightrider lines) are found from the royal
        // backwards: the squares from which each walk captures on it, once per royal (the
        // first and second pieces on its lines, its knight's and king's squares…). On a
        // board without holes, every attacker standing in `occ`, and each piece moving by
        // its own walk; otherwise each piece is asked forwards.
        let backwards = self.holes == 0 && attackers & !occ == 0;
        for r in Squares(royals) {
            let t = 1u64 << r.0;
            // The pieces to look at: on a board read backwards, those on a queen line or a
            // knight's leap from the royal (where every kind read backwards takes from) and
            // those asked forwards; otherwise all.
            let look = if backwards && !walks {
                attackers & !t & (SPANS[Kind::Amazon.index()][r.index() & 63] | self.forward)
            } else {
                attackers & !t
            };
            // The first and the second pieces on the royal's lines, read when a piece that
            // needs them is met.
            let mut lines = RoyalLines::new(r, occ, them);
            for from in Squares(look) {
                let Some(p) = self.board[from.index()] else { continue };
                let walk = match p.kind {
                    // (Orphans are asked after the others.)
                    Kind::Dummy | Kind::Orphan => continue,
                    // Annan: the walk of the friend behind.
                    _ if walks => self.walk_of(from, p, them),
                    k => k,
                };
                let lands = lines.lands(self, from, walk, backwards);
                // Madrasi: a paralysed piece gives no check; AntiCirce, Grid, KoeKo…: the
                // capture must be one they allow.
                if lands != 0
                    && !(paralysis && self.paralysed(from, p))
                    && (!filters || Squares(lands).any(|to| self.capture_allowed(from, p, r, to, them)))
                {
                    found |= 1u64 << from.0;
                    if FIRST {
                        return Some(found);
                    }
                }
            }
            // The orphans (asked forwards, where their walks give nothing) are asked last.
            let orphans_seen = if look & self.forward != 0 {
                Squares(look & self.forward)
                    .filter(|s| self.board[s.index()].is_some_and(|p| p.kind == Kind::Orphan))
                    .fold(0u64, |a, s| a | 1u64 << s.0)
            } else {
                0
            };
            if orphans_seen != 0 {
                // An orphan takes by the walks it borrows: asked of the board as it stands,
                // without conditions (which may change what an orphan observes); otherwise
                // the general test answers.
                if occ != self.occupied() || !self.conditions.is_empty() {
                    return None;
                }
                found |= self.orphans_taking(orphans_seen, r, them, backwards, FIRST);
                if FIRST && found != 0 {
                    return Some(found);
                }
            }
        }
        Some(found)
    }

    /// The orphans of `orphans`, moved by `them`, that take the royal piece on `r` by one of
    /// the walks they borrow (the kinds of the enemy pieces that attack them, directly or
    /// through enemy orphans; with `first`, the first one found): only the kinds whose walk
    /// from an orphan would take the royal are worked out, each once. Out of line and cold:
    /// the plain check test keeps its stack and registers for the other pieces.
    #[cold]
    #[inline(never)]
    fn orphans_taking(&self, orphans: u64, r: Square, them: Color, backwards: bool, first: bool) -> u64 {
        let occ = self.occupied();
        let mut cache = OrphanWalks {
            kinds: Squares(occ).fold(0u64, |acc, a| match self.board[a.index()] {
                Some(ap) if ap.kind != Kind::Orphan && ap.kind != Kind::Dummy => acc | 1u64 << ap.kind as u64,
                _ => acc,
            }),
            having: ArrayVec::new(),
            lines: RoyalLines::new(r, occ, them),
        };
        let mut found = 0u64;
        for from in Squares(orphans) {
            if self.orphan_takes(from, backwards, &mut cache) {
                found |= 1u64 << from.0;
                if first {
                    break;
                }
            }
        }
        found
    }

    /// Whether the orphan on `from` takes the royal piece of `cache.lines` by one of the
    /// walks it borrows ([`Self::orphans_taking`]).
    fn orphan_takes(&self, from: Square, backwards: bool, cache: &mut OrphanWalks) -> bool {
        let kinds = cache.kinds;
        let lines = &mut cache.lines;
        if lines.orphan_takers(kinds, backwards) & (1u64 << from.0) == 0 {
            return false;
        }
        let mut ks = kinds;
        while ks != 0 {
            let k = Kind::from_index(ks.trailing_zeros() as usize);
            ks &= ks - 1;
            if lines.lands(self, from, k, backwards) == 0 {
                continue;
            }
            let having = match cache.having.iter().find(|(c, _)| *c == k) {
                Some(&(_, set)) => set,
                None => {
                    let set = self.orphans_with_walk(k);
                    if !cache.having.is_full() {
                        cache.having.push((k, set));
                    }
                    set
                }
            };
            if having & (1u64 << from.0) != 0 {
                return true;
            }
        }
        false
    }

    /// The squares a piece of walk `walk` on `from` lands on when it takes the royal piece
    /// on `r` for `them` with `occ` standing (most take it where it stands; some land beyond
    /// it: the Sirene's, the locust's captures): [`Self::plain_attackers`]' forward test.
    #[inline]
    fn lands_taking(&self, from: Square, walk: Kind, them: Color, occ: u64, r: Square) -> u64 {
        let t = 1u64 << r.0;
        let (rf, rr) = fr(r);
        let up: i32 = if them == Color::White { 1 } else { -1 };
        match walk {
            // (A piece behind an orphan has no walk: the orphan lends none.)
            Kind::Dummy | Kind::Orphan => 0,
            // A pawn (a neutral one going `them`'s way) takes forward: diagonally, or
            // straight on as a Berolina pawn.
            Kind::Pawn | Kind::BerolinaPawn => {
                let (f, rank) = fr(from);
                let hit = rr == rank + up && if walk == Kind::Pawn { (rf - f).abs() == 1 } else { rf == f };
                if hit { t } else { 0 }
            }
            // Most pieces stand off every line to the royal: the span tells at once.
            k if SPANS[k.index()][from.index() & 63] & t == 0 => 0,
            k => match self.fast_captures(from, k, occ) {
                Some(a) => a & t,
                None => {
                    let mut lands = 0u64;
                    self.walk_moves(from, k, them, occ, &mut |to, v| {
                        if v == Some(r) {
                            lands |= 1u64 << to.0;
                        }
                    });
                    lands
                }
            },
        }
    }

    /// The pieces `c` may move, in groups to generate one at a time when one legal move is
    /// looked for: the royal pieces first (a flight is the likeliest legal move of a side in
    /// check), then each other piece alone.
    pub(crate) fn piece_groups(&self, c: Color) -> impl Iterator<Item = u64> {
        let royals = self.royals(c);
        std::iter::once(royals).chain(Squares(self.movable(c) & !royals).map(|s| 1u64 << s.0)).filter(|&g| g != 0)
    }

    /// Plays a pseudo-legal move (steps 5): the piece moves, its victim goes, then the
    /// conditions' effects.
    #[inline]
    pub fn make_move(&self, m: FMove) -> FairyPosition {
        let mut q = self.make_move_unkeyed(m);
        q.hash = self.key_after(m, &q);
        q
    }

    /// [`Self::make_move`] without the position's key, which keeps its parent's: for the
    /// positions that are only asked whether a move is legal (most of those made), never
    /// stored or compared.
    pub(crate) fn make_move_unkeyed(&self, m: FMove) -> FairyPosition {
        let mut q = *self;
        let us = self.side;
        q.ep = None;
        q.reborn = None;
        if let Some(rook) = m.rook
            && m.victim.is_none()
        {
            let (kto, rto) = crate::position::castle_squares(m.from, rook);
            let k = q.take(m.from);
            let r = q.take(rook);
            if let Some(k) = k {
                q.put(kto, k);
                q.origin[kto.index()] = self.origin[m.from.index()];
            }
            if let Some(r) = r {
                q.put(rto, r);
                q.origin[rto.index()] = self.origin[rook.index()];
            }
        } else {
            if let Some(rook) = m.rook {
                // Make&Take: the make was castling, the victim's rook has moved.
                let (_, rto) = crate::position::castle_squares(m.from, rook);
                if let Some(r) = q.take(rook) {
                    q.put(rto, r);
                    q.origin[rto.index()] = self.origin[rook.index()];
                }
            }
            let mover = q.take(m.from);
            if let Some(v) = m.victim {
                q.take(v);
            }
            if let Some(mut p) = mover {
                if let Some(k) = m.promotion {
                    p.kind = k;
                }
                q.take(m.to);
                q.put(m.to, p);
                q.origin[m.to.index()] = self.origin[m.from.index()];
                if p.is_pawn() && m.promotion.is_none() && m.victim.is_none() && m.via.is_none() {
                    let (f0, r0) = fr(m.from);
                    let (f1, r1) = fr(m.to);
                    // Only a pawn's own double step gives the right to take it en passant:
                    // not one it makes with another walk (Annan: a pawn below a rook or
                    // queen, Popeye's 4_61_to_4_63.inp #24).
                    if (r1 - r0).abs() == 2 && self.walk_of(m.from, p, us) == p.kind {
                        q.ep = sq((f0 + f1) / 2, (r0 + r1) / 2).map(|e| (e, m.to));
                    }
                }
            }
        }
        // A side's right is lost when its own piece leaves the king's or the rook's square,
        // or when the other side captures there; another piece passing through does not
        // touch it (a black king leaving h1 leaves White's right for a rook reborn there).
        let own = castle::of(self.side);
        // The `lost` squares matter only under a rebirth rule (and are kept only there).
        let rebirth = self.conditions.rebirth().is_some();
        let side_bits = |c: Color| {
            if !rebirth {
                0
            } else if c == Color::White {
                0b000111u8
            } else {
                0b111000
            }
        };
        // A neutral rook leaving its corner takes both sides' rights there.
        let neutral_leaves = m.rook.is_none() && self.piece_at(m.from).is_some_and(|p| p.owner == Owner::Neutral);
        let own_left = if neutral_leaves { 0xF } else { own };
        for s in [m.from].into_iter().chain(m.rook) {
            q.castling &= !(CASTLE_MASK[s.index()] & own_left);
            q.lost |= home_bit(s) & side_bits(us);
        }
        for s in [m.to].into_iter().chain(m.victim) {
            q.castling &= !(CASTLE_MASK[s.index()] & !own);
            q.lost |= home_bit(s) & side_bits(us.opponent());
        }
        if m.victim.is_some()
            && let Some(rook) = m.rook
        {
            // Make&Take's castling make moved the other side's rook.
            q.castling &= !CASTLE_MASK[rook.index()];
            q.lost |= home_bit(rook) & side_bits(us.opponent());
        }
        if q.corner_rooks != 0 {
            for s in [m.from, m.to].into_iter().chain(m.victim).chain(m.rook).chain(m.via) {
                q.corner_rooks &= !CORNER_BIT[s.index()];
            }
        }
        // The effects on the moving piece where it lands (colour changes) come before those
        // that move it away (AntiCirce), so that the order the conditions are given in does
        // not matter.
        for c in self.conditions.iter().filter(|c| !matches!(c, Condition::Rebirth(_))) {
            c.after(self, &m, &mut q);
        }
        for c in self.conditions.iter().filter(|c| matches!(c, Condition::Rebirth(_))) {
            c.after(self, &m, &mut q);
        }
        // A king or rook reborn on its initial square counts as unmoved there (Popeye): the
        // right comes back when the partner's square is untouched too. (Only a capture, or
        // Parrain Circe's piece waiting for its rebirth, puts a piece back on the board.)
        if rebirth && (m.victim.is_some() || self.pending.is_some()) {
            let mut reborn = 0u8;
            for (i, &(s, c, kind)) in HOME.iter().enumerate() {
                let piece = Some(FPiece::new(Owner::of(c), kind));
                // (A piece taken on its own square and reborn there, the capturer having
                // moved on, as Take&Make's does, is reborn too.)
                let taken_here = m.victim.is_some_and(|v| v.index() == s);
                if q.board[s] == piece && (self.board[s] != piece || taken_here) && m.to.index() != s {
                    q.lost &= !(1 << i);
                    reborn |= 1 << i;
                }
            }
            for (bit, king, rook) in [(castle::WK, 0, 1), (castle::WQ, 0, 2), (castle::BK, 3, 4), (castle::BQ, 3, 5)] {
                let pair = 1 << king | 1 << rook;
                if reborn & pair != 0 && q.lost & pair == 0 {
                    q.castling |= bit;
                }
            }
        }
        q.side = us.opponent();
        q
    }

    /// The legal moves of the side to move (steps 1–7).
    pub fn legal_moves(&self) -> FMoveList {
        let mut out = FMoveList::new();
        self.legal_chosen(&mut out);
        out
    }

    /// The legal moves of the side to move (steps 1–7), appended to `out`.
    ///
    /// When the only choice is Maximummer's and the side to move is the maximummer, the
    /// pseudo-legal moves are tested longest first, and the test stops after the longest
    /// length that has a legal move: the moves it would throw away are never tested. The
    /// moves and their order are those of the full test followed by the choice.
    fn legal_chosen(&self, out: &mut FMoveList) {
        let us = self.side;
        // Maximummer chooses only for its own side.
        let shortcut = self.conditions.iter().any(|c| *c == Condition::Maximummer(us))
            && self.conditions.iter().all(|c| !c.chooses() || matches!(c, Condition::Maximummer(_)));
        if !shortcut {
            self.legal_unchosen(out);
            for c in self.conditions.iter() {
                c.choose(self, out);
            }
            return;
        }
        let mut pseudo = FMoveList::new();
        self.pseudo_moves(us, None, &mut pseudo);
        let safe = self.quiet_safe();
        let mut below = i32::MAX;
        loop {
            // The longest length left to test.
            let Some(len) = pseudo.iter().map(conditions::length2).filter(|&l| l < below).max() else { return };
            let mark = out.len();
            for &m in pseudo.iter().filter(|m| conditions::length2(m) == len) {
                if self.is_legal_pseudo_in(m, safe) {
                    out.push(m);
                }
            }
            if out.len() > mark {
                return;
            }
            below = len;
        }
    }

    /// The position after the pseudo-legal move `m`, made once for its legality test and
    /// kept (with its key) when it passes.
    fn make_if_legal(&self, m: FMove) -> Option<FairyPosition> {
        let mut q = self.make_move_unkeyed(m);
        if !self.legal_as_made(m, &q) {
            return None;
        }
        q.hash = self.key_after(m, &q);
        Some(q)
    }

    /// Whether the pseudo-legal move `m` of the side to move is legal (step 6).
    #[inline]
    fn is_legal_pseudo(&self, m: FMove) -> bool {
        self.legal_as_made(m, &self.make_move_unkeyed(m))
    }

    /// [`Self::is_legal_pseudo`], a quiet move tested without being made where
    /// [`Self::quiet_safe`] (its answer `safe`) allows: legal at once when its piece is on
    /// `safe.pieces`; for a royal piece, legal when no royal piece is attacked with the
    /// piece moved ([`Self::plainly_attacked_in`]).
    #[inline]
    fn is_legal_pseudo_in(&self, m: FMove, safe: QuietSafe) -> bool {
        match self.quiet_verdict(m, safe) {
            Some(legal) => legal,
            None => self.is_legal_pseudo(m),
        }
    }

    /// The legality of a quiet move judged unmade where [`Self::quiet_safe`] (its answer
    /// `safe`) allows ([`Self::is_legal_pseudo_in`]); `None` where it must be made.
    #[inline]
    fn quiet_verdict(&self, m: FMove, safe: QuietSafe) -> Option<bool> {
        if m.victim.is_none() && m.rook.is_none() {
            let from = 1u64 << m.from.0;
            // Under Checkless, a move found safe that may give check is made and tested.
            let checkless_ok = || safe.openers.is_none_or(|o| !self.may_check_quietly(m, o));
            if safe.pieces & from != 0 {
                let to = 1u64 << m.to.0;
                if safe.targets & to == 0 {
                    return Some(false);
                }
                // Arriving on the line of an enemy hopper, the piece may become its hurdle.
                if safe.hurdles & to != 0 {
                    let hit = self.plainly_attacked_in(safe.royals, self.side.opponent(), (self.occupied() & !from) | to)?;
                    if hit {
                        return Some(false);
                    }
                }
                if checkless_ok() {
                    return Some(true);
                }
            } else if safe.royals & from != 0
                && let Some(hit) = self.plainly_attacked_in(
                    (safe.royals & !from) | (1u64 << m.to.0),
                    self.side.opponent(),
                    (self.occupied() & !from) | (1u64 << m.to.0),
                )
            {
                if hit {
                    return Some(false);
                }
                if checkless_ok() {
                    return Some(true);
                }
            } else if safe.tested & from != 0 && safe.evasions.is_some_and(|e| e & (from | 1u64 << m.to.0) == 0) {
                // In check, a move that changes no check.
                return Some(false);
            } else if safe.tested & from != 0
                && let Some(hit) = self.plainly_attacked_in(safe.royals, self.side.opponent(), (self.occupied() & !from) | (1u64 << m.to.0))
            {
                if hit {
                    return Some(false);
                }
                if checkless_ok() {
                    return Some(true);
                }
            }
        }
        None
    }

    /// For the check test of quiet moves (no capture, no castling) without making them:
    /// when every condition keeps quiet moves plain ([`Condition::plain_quiet_moves`]), no
    /// piece is neutral, every piece of the side to move takes by leaps or along rook and
    /// bishop lines only ([`LINE_TAKER`]) and the other side is not in check, a quiet move
    /// gives check only by its piece's own capture from its arrival square or by opening a
    /// queen line from an enemy royal piece; under Annan chess (which lends walks) also by
    /// the walk the move gives the friends in front of the squares it leaves and reaches.
    /// A capture gives check alike, or by opening a line through its victim's square, or
    /// through both that square and its departure square. Answers the squares of the pieces
    /// that may open one (first on such a line with an own piece next behind them, or first
    /// and second, one of each side), for
    /// [`Self::may_check_quietly`]; `None` when the shortcut does not hold.
    fn quiet_checks(&self) -> Option<QuietChecks> {
        let us = self.side;
        if self.occ[Owner::Neutral.index()] != 0
            || !self.conditions.iter().all(|c| c.plain_quiet_moves() || c.forbids_checks_only() || c.paralyses())
        {
            return None;
        }
        let own = self.occ[Owner::of(us).index()];
        // The pieces that take by hops or on other lines than the queen's: their lines are
        // watched square by square (below), on a board without holes, where no condition
        // lends walks or puts a reborn piece on a square, which might become a hurdle.
        let hoppers = Squares(own).fold(0u64, |h, s| match self.board[s.index()] {
            Some(p) if LINE_TAKER[p.kind.index()] => h,
            _ => h | 1u64 << s.0,
        });
        if hoppers != 0
            && (self.holes != 0
                || self.conditions.any(prop::LENDS_WALKS)
                || self.conditions.iter().any(|c| matches!(c, Condition::Rebirth(_)))
                || Squares(hoppers).any(|s| self.board[s.index()].is_none_or(|p| !BETWEEN_TAKER[p.kind.index()])))
        {
            return None;
        }
        let royals = self.royals_own(us.opponent());
        if royals != 0 && self.royal_attacked(us.opponent()) {
            return None;
        }
        // A capture opens a line through its victim's square too: those conditions put
        // nothing of the capturer's side elsewhere on a capture, and what they put of the
        // other side's (a reborn victim) only stands in lines.
        let enemy = self.occ[Owner::of(us.opponent()).index()];
        let mut q = QuietChecks {
            openers: self.line_openers(royals, own | enemy, own, Some((own, enemy))),
            arrivals: 0,
            hoppers: hoppers != 0,
            victims: 0,
        };
        // A hopper's line to a royal piece with few enough pieces between for one move to
        // leave the number its capture needs (at most two: a kangaroo's; a capture may
        // empty two squares of the line): a move leaving or reaching one of its squares may
        // give check.
        let occ = self.occupied();
        for c in Squares(hoppers) {
            let Some(p) = self.board[c.index()] else { continue };
            for r in Squares(royals) {
                let between = walk_between(p.kind, c, r);
                if between != 0 && (between & occ).count_ones() <= 4 {
                    q.openers |= between & occ;
                    q.arrivals |= between;
                }
            }
        }
        // Madrasi: a piece of the mover paralysed by an enemy piece of its kind may be freed
        // when that piece is taken, or when a piece comes between them or leaves from
        // between them (a hurdle).
        if self.conditions.any(prop::PARALYSES) {
            // (A reborn piece may come between them too.)
            if self.conditions.iter().any(|c| matches!(c, Condition::Rebirth(_))) {
                return None;
            }
            for x in Squares(own & !self.kings) {
                let Some(px) = self.board[x.index()] else { continue };
                for e in Squares(enemy) {
                    if self.board[e.index()].is_some_and(|pe| pe.kind == px.kind) {
                        if !BETWEEN_TAKER[px.kind.index()] {
                            return None;
                        }
                        let between = walk_between(px.kind, e, x);
                        q.openers |= 1u64 << e.0 | (between & occ);
                        q.arrivals |= between;
                        q.victims |= 1u64 << e.0;
                    }
                }
            }
            q.hoppers |= q.arrivals != 0;
        }
        Some(q)
    }

    /// The pieces of `first` standing first on a queen line from one of `royals`, with a
    /// piece of `behind` next on the line behind them (holes count as empty squares). With
    /// `pairs` (two sets, say own and enemy pieces), also the two pieces standing first and
    /// second on such a line, one of each set, with a piece of `behind` next: a capture that
    /// leaves its victim's square empty and lands off the line (Take&Make, en passant) opens
    /// the line by vacating both.
    fn line_openers(&self, royals: u64, first: u64, behind: u64, pairs: Option<(u64, u64)>) -> u64 {
        use crate::rules::chess::{bishop_attacks, next_on_line, rook_attacks};
        let occ = self.occupied();
        let mut openers = 0u64;
        let paired = |a: u64, b: u64| pairs.is_some_and(|(x, y)| (x & a != 0 && y & b != 0) || (y & a != 0 && x & b != 0));
        for r in Squares(royals) {
            // The first piece on each line (one of `first`), then the next behind it, and
            // the next again behind a pair.
            for front in Squares((rook_attacks(r, occ) | bishop_attacks(r, occ)) & occ & first) {
                let f = 1u64 << front.0;
                let next = next_on_line(r, front, occ);
                if next & behind != 0 {
                    openers |= f;
                } else if next != 0 && paired(f, next) {
                    let second = Square(next.trailing_zeros() as u8);
                    if next_on_line(r, second, occ) & behind != 0 {
                        openers |= f | next;
                    }
                }
            }
        }
        openers
    }

    /// Whether the pseudo-legal move `m` of the side to move may give check, under
    /// [`Self::quiet_checks`] (`openers` its answer): `true` for every castling, and for a
    /// move whose piece opens a line (through its departure or its victim's square) or
    /// takes an enemy royal piece from its arrival square by its walk (or its promotion's). Under Annan chess, also for one
    /// that gives a friend in front of the square it leaves its own walk back, or lends its
    /// walk to a friend in front of the square it reaches, with which that friend takes an
    /// enemy royal piece.
    fn may_check_quietly(&self, m: FMove, quiet: QuietChecks) -> bool {
        let vacated = (1u64 << m.from.0) | m.victim.map_or(0, |v| 1u64 << v.0);
        if m.rook.is_some() || quiet.openers & vacated != 0 || quiet.arrivals & (1u64 << m.to.0) != 0 {
            return true;
        }
        let Some(p) = self.board[m.from.index()] else { return true };
        let k = m.promotion.unwrap_or(p.kind);
        // A pawn promoting to a hopper: a piece reborn on a capture, or a hole, may become
        // its hurdle (as [`Self::quiet_checks`] refuses for hoppers on the board).
        if m.promotion.is_some()
            && !LINE_TAKER[k.index()]
            && (self.holes != 0
                || self.conditions.any(prop::LENDS_WALKS)
                || self.conditions.iter().any(|c| matches!(c, Condition::Rebirth(_))))
        {
            return true;
        }
        let us = self.side;
        let royals = self.royals_own(us.opponent());
        let occ = (self.occupied() & !vacated) | (1u64 << m.to.0);
        let up: i32 = if us == Color::White { 1 } else { -1 };
        if !self.conditions.any(prop::LENDS_WALKS) {
            return self.takes_on(m.to, k, occ, up) & royals != 0;
        }
        self.may_check_by_annan(m, k, occ, up, royals)
    }

    /// [`Self::may_check_quietly`] under Annan chess, for the move `m` of a piece that
    /// moves as `k` after it, `occ` the squares taken after it.
    fn may_check_by_annan(&self, m: FMove, k: Kind, occ: u64, up: i32, royals: u64) -> bool {
        let us = self.side;
        // The squares a piece of walk `walk` on `s` takes on after the move.
        let takes = |s: Square, walk: Kind| self.takes_on(s, walk, occ, up);
        // Annan chess: a piece moves as the friend right behind it (one rank lower for White),
        // a dummy lending nothing. After the move, the piece moves as the friend behind its
        // arrival square; the friend in front of the square it leaves moves as itself; the
        // friend in front of the square it reaches moves as it.
        // The friends that stay where they stand.
        let own = self.occ[Owner::of(us).index()] & !(1u64 << m.from.0 | 1u64 << m.to.0);
        // The friend on the square `dr` ranks from `s` after the move, if any.
        let friend = |s: Square, dr: i32| {
            let r = (s.0 / 8) as i32 + dr;
            if !(0..8).contains(&r) {
                return None;
            }
            let t = Square((s.0 as i32 + 8 * dr) as u8);
            if own & (1u64 << t.0) == 0 {
                return None;
            }
            self.board[t.index()].map(|q| (t, q))
        };
        let walk = friend(m.to, -up).map(|(_, b)| b.kind).filter(|&b| b != Kind::Dummy).unwrap_or(k);
        takes(m.to, walk) & royals != 0
            || friend(m.from, up).is_some_and(|(t, q)| takes(t, q.kind) & royals != 0)
            || (k != Kind::Dummy && friend(m.to, up).is_some_and(|(t, _)| takes(t, k) & royals != 0))
    }

    /// The squares a piece of walk `walk` on `s` takes on with the squares `occ` taken, a
    /// pawn moving `up` ranks ([`Self::may_check_quietly`]).
    #[inline(always)]
    fn takes_on(&self, s: Square, walk: Kind, occ: u64, up: i32) -> u64 {
        match walk {
            Kind::Dummy => 0,
            Kind::Pawn | Kind::BerolinaPawn => {
                let (f, r) = fr(s);
                let files: &[i32] = if walk == Kind::Pawn { &[-1, 1] } else { &[0] };
                files.iter().filter_map(|&df| sq(f + df, r + up)).fold(0u64, |b, t| b | 1u64 << t.0)
            }
            walk => self.capture_reach(s, walk, occ),
        }
    }

    /// The pieces of the side to move that may have a move passing
    /// [`Self::may_check_quietly`] (`openers` from [`Self::quiet_checks`]; every condition
    /// leaves captures plain, none lends walks, adds or expands moves: each move of a piece
    /// lands where its walk reaches): the openers, kings (castling) and pawns (promotion, en passant),
    /// the pieces that take on one of `victims` (an enemy piece whose capture frees a
    /// paralysed friend, under Madrasi), and the pieces that reach a square from which
    /// their walk takes an enemy royal piece. The
    /// others' moves are not generated. Every piece of the side takes by leaps or along
    /// lines ([`LINE_TAKER`]), whose captures are symmetric: a piece of walk `k` on `t`
    /// takes on `r` exactly when one on `r` takes on `t` with the same pieces standing (its
    /// own square left empty: under Grid chess or paralysis a piece next to the royal piece
    /// on a line may give check by stepping back along it).
    fn may_give_check(&self, openers: u64, victims: u64) -> u64 {
        let us = self.side;
        let royals = self.royals_own(us.opponent());
        let occ = self.occupied();
        let own = self.occ[Owner::of(us).index()];
        let mut out = openers | self.kings_in(own);
        for s in Squares(own & !out) {
            let Some(p) = self.board[s.index()] else { continue };
            if p.is_pawn() || p.kind == Kind::King {
                out |= 1u64 << s.0;
                continue;
            }
            // The squares from which the piece, gone from `s`, would take a royal piece.
            let left = occ & !(1u64 << s.0);
            let targets = Squares(royals).fold(0u64, |t, r| t | self.capture_reach(r, p.kind, left));
            if self.capture_reach(s, p.kind, occ) & (targets | victims) != 0 {
                out |= 1u64 << s.0;
            }
        }
        out
    }

    /// Which quiet moves (no capture, no castling) of the side to move are tested unmade
    /// ([`Self::is_legal_pseudo_in`]). When every condition keeps quiet moves plain
    /// ([`Condition::plain_quiet_moves`]) and no piece is neutral, a royal piece's quiet
    /// move is legal when no royal piece is attacked with it moved: `royals`, the side's
    /// royal pieces, tested so. When moreover every enemy piece takes by leaps or along rook
    /// and bishop lines only ([`LINE_TAKER`]: no hopper, whose hurdle a piece arriving may
    /// be, no lame leaper, no orphan) and the side is not in check, a quiet move of a piece
    /// that is not royal can expose a royal piece only by opening a queen line from it:
    /// `pieces`, the side's pieces but the royal ones and those that stand first on such a
    /// line with an enemy piece of any kind next behind them, whose quiet moves are legal.
    /// Both empty when the shortcut does not hold: every move is then made and tested.
    /// Under Checkless chess ([`Condition::forbids_checks_only`]) such a move is legal only
    /// when it also gives no check: `openers` ([`Self::quiet_checks`]) tells the moves that
    /// may, which are made and tested.
    pub(crate) fn quiet_safe(&self) -> QuietSafe {
        let safe = self.quiet_safe_for_own_royals();
        if (safe.pieces | safe.royals | safe.tested) != 0 && self.conditions.any(prop::FORBIDS_CHECKS_ONLY) {
            return match self.quiet_checks() {
                Some(openers) => QuietSafe { openers: Some(openers), ..safe },
                None => QuietSafe::default(),
            };
        }
        safe
    }

    /// What [`Self::quiet_safe`] tells of the quiet moves of the royal pieces, worked out
    /// without what it tells of the others' (whose quiet moves this answer leaves to be
    /// made and tested).
    fn quiet_safe_royals(&self) -> QuietSafe {
        if self.conditions.any(prop::FORBIDS_CHECKS_ONLY) {
            return self.quiet_safe();
        }
        if self.occ[Owner::Neutral.index()] != 0 || !self.conditions.iter().all(|c| c.plain_quiet_moves() && c.plain_checks()) {
            return QuietSafe::default();
        }
        QuietSafe { pieces: 0, royals: self.royals_own(self.side), targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None }
    }

    /// [`Self::quiet_safe`] for the safety of the mover's royal pieces alone.
    fn quiet_safe_for_own_royals(&self) -> QuietSafe {
        let us = self.side;
        // AntiCirce: a quiet move is plain but for the square it leaves, which may be the
        // rebirth square an enemy piece needs free to take a royal piece.
        let is_anti = |c: &Condition| matches!(c, Condition::Rebirth(conditions::Rebirth::Anti { .. }));
        let anti = self.conditions.iter().any(is_anti);
        if self.occ[Owner::Neutral.index()] != 0
            || !self.conditions.iter().all(|c| (c.plain_quiet_moves() || c.forbids_checks_only() || is_anti(c)) && c.plain_checks())
        {
            return QuietSafe::default();
        }
        if anti {
            return self.quiet_safe_anticirce();
        }
        let own = self.occ[Owner::of(us).index()];
        let royals = self.royals_own(us);
        let enemy = self.occ[Owner::of(us.opponent()).index()];
        if Squares(enemy).any(|s| self.board[s.index()].is_none_or(|p| !LINE_TAKER[p.kind.index()])) {
            let tested =
                QuietSafe { pieces: 0, royals, targets: u64::MAX, openers: None, tested: own & !royals, hurdles: 0, evasions: None };
            if royals.count_ones() != 1
                || self.holes != 0
                || self.conditions.any(prop::LENDS_WALKS)
                || Squares(enemy).any(|s| self.board[s.index()].is_none_or(|p| !BETWEEN_TAKER[p.kind.index()]))
            {
                return tested;
            }
            return self.quiet_safe_between(royals, own, enemy).unwrap_or(tested);
        }
        if royals == 0 {
            return QuietSafe { pieces: own, royals, targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None };
        }
        let Some(checkers) = self.plain_attackers::<false>(royals, us.opponent(), self.occupied(), true) else {
            return QuietSafe { pieces: 0, royals, targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None };
        };
        let targets = match (checkers.count_ones(), royals.count_ones()) {
            (0, _) => u64::MAX,
            // In check by one piece, of one royal piece: a quiet move must come between.
            (1, 1) => self.blocks(Square(royals.trailing_zeros() as u8), Square(checkers.trailing_zeros() as u8)),
            // In double check of one royal piece, only its own move may be legal.
            (_, 1) => 0,
            // Several royal pieces in check: one move may come between two checks.
            _ => {
                return QuietSafe {
                    pieces: 0,
                    royals,
                    targets: u64::MAX,
                    openers: None,
                    tested: own & !royals,
                    hurdles: 0,
                    evasions: None,
                };
            }
        };
        let exposed = royals | self.line_openers(royals, own, enemy, None);
        QuietSafe { pieces: own & !exposed, royals, targets, openers: None, tested: 0, hurdles: 0, evasions: None }
    }

    /// [`Self::quiet_safe_for_own_royals`] where some enemy pieces are hoppers, screen
    /// pieces or riders on other lines than the queen's, every one a [`BETWEEN_TAKER`], on a
    /// board without holes, under conditions that keep quiet moves plain and lend no walks,
    /// with one royal piece `royals`. Whether an enemy piece takes the royal piece depends
    /// on the squares taken between them alone, so a quiet move of another piece may
    /// expose it only by leaving or reaching such a square: out of check, the pieces on the
    /// lines of the hoppers with at most four pieces between (a quiet move changes that
    /// number by one at most; four leaves room) are tested by the plain check test, and a
    /// move of another piece onto such a line too ([`QuietSafe::hurdles`]); the others'
    /// quiet moves are legal. In check, every quiet move of a piece that is not royal is
    /// tested, but for those that touch no square between a checking piece and the royal
    /// piece, which are illegal ([`QuietSafe::evasions`]). `None` where the plain test does
    /// not answer (an orphan).
    fn quiet_safe_between(&self, royals: u64, own: u64, enemy: u64) -> Option<QuietSafe> {
        let occ = self.occupied();
        let r = Square(royals.trailing_zeros() as u8);
        let checkers = self.plain_attackers::<false>(royals, self.side.opponent(), occ, true)?;
        let others = own & !royals;
        if checkers != 0 {
            // (A move must change each check, by one of its two squares for one and by the
            // other for another: it touches one of the squares of some check at least.)
            let evasions = Squares(checkers).fold(0u64, |e, c| match self.board[c.index()] {
                Some(p) => e | walk_between(p.kind, c, r),
                None => u64::MAX,
            });
            return Some(QuietSafe {
                pieces: 0,
                royals,
                targets: u64::MAX,
                openers: None,
                tested: others,
                hurdles: 0,
                evasions: Some(evasions),
            });
        }
        // The queen lines' riders: the first own piece with an enemy piece behind it.
        let mut exposed = self.line_openers(royals, own, enemy, None);
        let mut hurdles = 0u64;
        for c in Squares(enemy) {
            let Some(p) = self.board[c.index()] else { continue };
            if LINE_TAKER[p.kind.index()] {
                continue;
            }
            let between = walk_between(p.kind, c, r);
            if between != 0 && (between & occ).count_ones() <= 4 {
                hurdles |= between;
                exposed |= own & between;
            }
        }
        Some(QuietSafe {
            pieces: others & !exposed,
            royals,
            targets: u64::MAX,
            openers: None,
            tested: others & exposed,
            hurdles,
            evasions: None,
        })
    }

    /// [`Self::quiet_safe_for_own_royals`] under AntiCirce (with conditions that keep quiet
    /// moves plain): when the side to move is not in check, a quiet move of a piece that is
    /// not royal is legal unless it opens a queen line from an own royal piece, or leaves
    /// the rebirth square that an enemy piece, which reaches a royal piece by its walk,
    /// needs free to take it. The royal pieces' moves are made and tested (a king leaving
    /// its square may free the rebirth square of its own attacker); in check, every move.
    fn quiet_safe_anticirce(&self) -> QuietSafe {
        let us = self.side;
        let them = us.opponent();
        let own = self.occ[Owner::of(us).index()];
        let royals = self.royals_own(us);
        let enemy = self.occ[Owner::of(them).index()];
        let none = QuietSafe { pieces: 0, royals: 0, targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None };
        if Squares(enemy).any(|s| self.board[s.index()].is_none_or(|p| !LINE_TAKER[p.kind.index()])) {
            return none;
        }
        if royals == 0 {
            return QuietSafe { pieces: own, royals: 0, targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None };
        }
        let occ = self.occupied();
        let Some(walkers) = self.plain_attackers::<false>(royals, them, occ, false) else { return none };
        if walkers != 0 && self.royal_attacked(us) {
            return none;
        }
        // The rebirth squares the attackers by walk need free, where an own piece stands.
        let last = if them == Color::White { RANK_8 } else { RANK_1 };
        let mut needed = 0u64;
        for s in Squares(walkers) {
            let Some(p) = self.board[s.index()] else { continue };
            for r in Squares(royals) {
                let mut add = |k: Kind| needed |= 1u64 << conditions::rebirth_square(k, them, r).0;
                if p.is_pawn() && last & (1u64 << r.0) != 0 {
                    self.promotion_kinds().for_each(&mut add);
                } else {
                    add(p.kind);
                }
            }
        }
        let exposed = royals | self.line_openers(royals, own, enemy, None) | (needed & own);
        QuietSafe { pieces: own & !exposed, royals: 0, targets: u64::MAX, openers: None, tested: 0, hurdles: 0, evasions: None }
    }

    /// The squares where a piece arriving stops the check the piece on `checker` gives the
    /// royal piece on `royal` (a [`LINE_TAKER`]): those between them when it takes along a
    /// rook or bishop line, none when a leap of its walk reaches the royal piece (no kind
    /// leaps over a square of a line today, as an alfil would; the test keeps it right if one
    /// comes).
    fn blocks(&self, royal: Square, checker: Square) -> u64 {
        let Some(p) = self.board[checker.index()] else { return 0 };
        let walk = if self.conditions.any(prop::LENDS_WALKS) { self.walk_of(checker, p, self.side.opponent()) } else { p.kind };
        let (rf, rr) = fr(royal);
        let (cf, cr) = fr(checker);
        let (df, dr) = (cf - rf, cr - rr);
        let leaps = walk.components().iter().any(|c| match *c {
            crate::piece::Component::Leap(a, b) => {
                let (a, b) = (a as i32, b as i32);
                (df.abs() == a && dr.abs() == b) || (df.abs() == b && dr.abs() == a)
            }
            _ => false,
        });
        if leaps || walk.components().is_empty() || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return 0;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut between = 0u64;
        let (mut x, mut y) = (rf + sf, rr + sr);
        while (x, y) != (cf, cr) {
            between |= bit_at(x, y);
            x += sf;
            y += sr;
        }
        between
    }

    /// Step 6 for the pseudo-legal move `m` of the side to move, made: `q` is the position
    /// after it. No royal piece of the mover is attacked, and every condition allows `q`.
    #[inline]
    fn legal_as_made(&self, m: FMove, q: &FairyPosition) -> bool {
        !q.royal_attacked(self.side) && self.conditions.iter().all(|c| c.legal_after(self, &m, q))
    }

    /// [`Game::every_move`], and with `checks` [`Game::every_move_checks`]: a move that gives
    /// no check then fails, and a legal quiet move seen to give none
    /// ([`Self::may_check_quietly`]) fails without being made.
    fn every_move_with(&self, checks: bool, pred: &mut dyn FnMut(FMove, &Self) -> bool) -> bool {
        if self.conditions.any(prop::CHOOSES) {
            // The choice is made among all legal moves.
            let list = self.legal_moves();
            return !list.is_empty()
                && list.iter().all(|&m| {
                    let q = self.make_move(m);
                    (!checks || q.in_check()) && pred(m, &q)
                });
        }
        // Each legal move is judged as soon as it is found legal; the royal pieces' moves are
        // generated and judged first, the others' only when none of those failed (a king's
        // step is the likeliest to fail a forced goal: in hs#, a step that does not mate).
        let us = self.side;
        let royals = self.royals(us);
        let safe = self.quiet_safe();
        let quiet = if checks { self.quiet_checks() } else { None };
        let mut pseudo = FMoveList::new();
        let mut any = false;
        // Piece by piece, but with orphans on the board (whose walks are worked out once per
        // generation) the others all together.
        let orphans = Squares(self.occupied()).any(|s| self.board[s.index()].is_some_and(|p| p.kind == Kind::Orphan));
        let others = self.movable(us) & !royals;
        let mut groups: ArrayVec<u64, 65> = ArrayVec::new();
        groups.push(royals);
        if orphans {
            groups.push(others);
        } else {
            groups.extend(Squares(others).map(|s| 1u64 << s.0));
        }
        for group in groups {
            pseudo.clear();
            self.pseudo_moves_of(us, group, &mut pseudo);
            for &m in pseudo.iter() {
                // With `checks`, a move seen to give no check fails if legal (tested unmade
                // where it can be).
                if let Some(o) = quiet
                    && !self.may_check_quietly(m, o)
                {
                    if self.is_legal_pseudo_in(m, safe) {
                        return false;
                    }
                    continue;
                }
                let quiet_move = m.victim.is_none() && m.rook.is_none();
                let unpinned = quiet_move && safe.pieces & (1u64 << m.from.0) != 0;
                if unpinned && safe.targets & (1u64 << m.to.0) == 0 {
                    continue;
                }
                if quiet_move
                    && safe.tested & (1u64 << m.from.0) != 0
                    && safe.evasions.is_some_and(|e| e & (1u64 << m.from.0 | 1u64 << m.to.0) == 0)
                {
                    continue;
                }
                let plain = unpinned && safe.hurdles & (1u64 << m.to.0) == 0 && safe.openers.is_none_or(|o| !self.may_check_quietly(m, o));
                let mut q = self.make_move_unkeyed(m);
                if !plain && !self.legal_as_made(m, &q) {
                    continue;
                }
                if checks && !q.royal_attacked(q.side) {
                    return false;
                }
                q.hash = self.key_after(m, &q);
                if !pred(m, &q) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// The legal moves before the choice step (steps 1–6).
    pub(crate) fn legal_unchosen(&self, out: &mut FMoveList) {
        let us = self.side;
        let mut pseudo = FMoveList::new();
        self.pseudo_moves(us, None, &mut pseudo);
        let safe = self.quiet_safe();
        for &m in pseudo.iter() {
            if self.is_legal_pseudo_in(m, safe) {
                out.push(m);
            }
        }
    }

    /// Where the piece that stood on square `origin` in the diagram stands now, if it is
    /// still on the board.
    fn square_of(&self, origin: u8) -> Option<Square> {
        Squares(self.occupied()).find(|s| self.origin[s.index()] == origin)
    }

    /// Whether the piece that stood on square `origin` in the diagram stands there now.
    fn is_on_own_square(&self, origin: u8) -> bool {
        origin < 64 && self.occupied() & (1u64 << origin) != 0 && self.origin[origin as usize] == origin
    }

    /// Whether the piece on `s` and another piece of its owner have swapped their diagram
    /// squares: it stands on the other's, the other on its own.
    fn swapped(&self, s: Square) -> bool {
        let o = self.origin[s.index()];
        if o == s.0 || o >= 64 {
            return false;
        }
        let (Some(p), Some(q)) = (self.piece_at(s), self.piece_at(Square(o))) else { return false };
        p.owner == q.owner && self.origin[o as usize] == s.0
    }

    /// The same position with the other side to move.
    pub fn with_side(&self, c: Color) -> FairyPosition {
        let mut q = *self;
        q.side = c;
        q.ep = None;
        q.hash = q.compute_hash();
        q
    }

    /// The position as X-FEN with Popeye codes in parentheses for fairy pieces, `=` before
    /// a neutral piece (written as White's), and the conditions after the move number
    /// (`{Circe Madrasi}`); holes are written as `(-)`.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sqr = Square(rank * 8 + file);
                let text = if let Some(p) = self.board[sqr.index()] {
                    let color = p.owner.color().unwrap_or(Color::White);
                    let t = crate::position::fen::fen_piece(crate::piece::Piece::new(color, p.kind));
                    Some(if p.owner == Owner::Neutral { format!("={t}") } else { t })
                } else if self.holes & (1u64 << sqr.0) != 0 {
                    Some("(-)".to_string())
                } else {
                    None
                };
                match text {
                    Some(t) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&t);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White { " w " } else { " b " });
        let mut c = String::new();
        for (bit, ch) in [(castle::WK, 'K'), (castle::WQ, 'Q'), (castle::BK, 'k'), (castle::BQ, 'q')] {
            if self.castling & bit != 0 {
                c.push(ch);
            }
        }
        s.push_str(if c.is_empty() { "-" } else { &c });
        s.push(' ');
        s.push_str(self.ep.map_or("-", |(e, _)| sq_name(e)));
        s.push_str(" 0 1");
        if !self.conditions.is_empty() {
            s.push_str(&format!(" {{{}}}", self.conditions.names().join(" ")));
        }
        s
    }

    /// Perft: leaf count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.make_move(m).perft(depth - 1)).sum()
    }
}

/// For each kind and square, the squares where a piece of that kind standing there may
/// capture on some board (every square its lines or leaps reach on an empty board, which
/// pieces and holes only cut short); every square for the pawns (the rules write their
/// moves) and for the walks whose landing this does not follow (the deflecting hoppers and
/// the equihopper). The check test passes over a piece whose span misses the king. Built at
/// compile time (a lazy table cost a fairy run a third of its start-up); the test
/// `spans_are_the_walks_on_an_empty_board` checks it against the move generator.
static SPANS: [[u64; 64]; Kind::COUNT] = {
    let mut t = [[0u64; 64]; Kind::COUNT];
    let mut k = 0;
    while k < Kind::COUNT {
        let mut i = 0;
        while i < 64 {
            t[k][i] = span_of(Kind::ALL[k].components(), (i % 8) as i32, (i / 8) as i32);
            i += 1;
        }
        k += 1;
    }
    t
};

/// [`BACKWARDS`]: the piece is asked forwards ([`FairyPosition::lands_taking`]).
const BACK_NONE: u8 = 0;
/// [`BACKWARDS`]: on files and ranks, the first piece from the royal (a rider's capture).
const BACK_ORTH: u8 = 1;
/// [`BACKWARDS`]: on diagonals.
const BACK_DIAG: u8 = 2;
/// [`BACKWARDS`]: with [`BACK_ORTH`] or [`BACK_DIAG`], the second piece on the line
/// instead of the first (screen pieces and lions, which take over a hurdle).
const BACK_SECOND: u8 = 4;
/// [`BACKWARDS`]: with the lines, the knight's leaps (amazon, empress, princess).
const BACK_LEAP: u8 = 8;
/// [`BACKWARDS`]: the king's squares.
const BACK_KING: u8 = 16;
/// [`BACKWARDS`]: the knight's squares.
const BACK_KNIGHT: u8 = 17;
/// [`BACKWARDS`]: the squares of the pawns that take on the royal (diagonally).
const BACK_PAWN: u8 = 18;
/// [`BACKWARDS`]: the square of the Berolina pawn that takes on the royal (straight on).
const BACK_BEROLINA: u8 = 19;
/// [`BACKWARDS`]: the nightrider, first on its lines from the royal.
const BACK_NIGHT_FIRST: u8 = 20;
/// [`BACKWARDS`]: the Nao, second on the nightrider's lines (over its screen).
const BACK_NIGHT_SECOND: u8 = 21;

/// How [`FairyPosition::plain_attackers`] finds a piece of each kind that takes on a royal
/// piece: by reading the royal's lines and leaps backwards (the squares from which the kind
/// takes on it: [`crate::rules::chess::line_pieces`], [`crate::rules::chess::night_pieces`],
/// the leaper tables), or [`BACK_NONE`], forwards from the piece. Every kind read backwards
/// takes from a queen line or a knight's leap of the royal, or is in
/// [`FairyPosition::forward`] (the nightriders). Dummies and orphans are asked forwards (a
/// dummy never takes; an orphan sends the test to the move generator).
static BACKWARDS: [u8; Kind::COUNT] = {
    let mut t = [BACK_NONE; Kind::COUNT];
    t[Kind::Rook as usize] = BACK_ORTH;
    t[Kind::Bishop as usize] = BACK_DIAG;
    t[Kind::Queen as usize] = BACK_ORTH | BACK_DIAG;
    t[Kind::Pao as usize] = BACK_SECOND | BACK_ORTH;
    t[Kind::RookLion as usize] = BACK_SECOND | BACK_ORTH;
    t[Kind::Vao as usize] = BACK_SECOND | BACK_DIAG;
    t[Kind::BishopLion as usize] = BACK_SECOND | BACK_DIAG;
    t[Kind::Leo as usize] = BACK_SECOND | BACK_ORTH | BACK_DIAG;
    t[Kind::Lion as usize] = BACK_SECOND | BACK_ORTH | BACK_DIAG;
    t[Kind::Amazon as usize] = BACK_ORTH | BACK_DIAG | BACK_LEAP;
    t[Kind::Empress as usize] = BACK_ORTH | BACK_LEAP;
    t[Kind::Princess as usize] = BACK_DIAG | BACK_LEAP;
    t[Kind::King as usize] = BACK_KING;
    t[Kind::Knight as usize] = BACK_KNIGHT;
    t[Kind::Pawn as usize] = BACK_PAWN;
    t[Kind::BerolinaPawn as usize] = BACK_BEROLINA;
    t[Kind::Nightrider as usize] = BACK_NIGHT_FIRST;
    t[Kind::Nao as usize] = BACK_NIGHT_SECOND;
    t
};

/// For each kind, whether its pieces stand in [`FairyPosition::forward`]: asked forwards,
/// or read backwards on the nightrider's lines, off the queen lines and knight's leaps.
static FORWARD: [bool; Kind::COUNT] = {
    let mut t = [false; Kind::COUNT];
    let mut k = 0;
    while k < Kind::COUNT {
        t[k] = BACKWARDS[k] == BACK_NONE || BACKWARDS[k] >= BACK_NIGHT_FIRST;
        k += 1;
    }
    t
};

/// The bit of square (`f`, `r`), 0 off the board.
const fn bit_at(f: i32, r: i32) -> u64 {
    if f >= 0 && f < 8 && r >= 0 && r < 8 { 1u64 << (r * 8 + f) } else { 0 }
}

/// The squares of the line from (`f`, `r`) by steps (`dx`, `dy`), to the edge.
const fn line_from(f: i32, r: i32, dx: i32, dy: i32) -> u64 {
    let mut b = 0u64;
    let (mut x, mut y) = (f + dx, r + dy);
    while bit_at(x, y) != 0 {
        b |= bit_at(x, y);
        x += dx;
        y += dy;
    }
    b
}

/// [`SPANS`] of a walk made of `comps` on (`f`, `r`).
const fn span_of(comps: &[crate::piece::Component], f: i32, r: i32) -> u64 {
    use crate::piece::{Component, ROSE_STEPS};
    if comps.is_empty() {
        return u64::MAX;
    }
    let mut b = 0u64;
    let mut c = 0;
    while c < comps.len() {
        b |= match comps[c] {
            Component::Leap(a, d) | Component::Lame { a, b: d, .. } => {
                let (a, d) = (a as i32, d as i32);
                bit_at(f + a, r + d)
                    | bit_at(f + a, r - d)
                    | bit_at(f - a, r + d)
                    | bit_at(f - a, r - d)
                    | bit_at(f + d, r + a)
                    | bit_at(f + d, r - a)
                    | bit_at(f - d, r + a)
                    | bit_at(f - d, r - a)
            }
            Component::Ride(a, d) | Component::ScreenRide(a, d) => {
                let (a, d) = (a as i32, d as i32);
                line_from(f, r, a, d)
                    | line_from(f, r, a, -d)
                    | line_from(f, r, -a, d)
                    | line_from(f, r, -a, -d)
                    | line_from(f, r, d, a)
                    | line_from(f, r, d, -a)
                    | line_from(f, r, -d, a)
                    | line_from(f, r, -d, -a)
            }
            Component::Hop(l) | Component::Screen(l) | Component::LongHop(l) | Component::Locust(l) => {
                let steps = l.steps();
                let mut s = 0u64;
                let mut j = 0;
                while j < steps.len() {
                    s |= line_from(f, r, steps[j].0 as i32, steps[j].1 as i32);
                    j += 1;
                }
                s
            }
            Component::Kangaroo => {
                let steps = crate::piece::Lines::Both.steps();
                let mut s = 0u64;
                let mut j = 0;
                while j < steps.len() {
                    s |= line_from(f, r, steps[j].0 as i32, steps[j].1 as i32);
                    j += 1;
                }
                s
            }
            Component::QuietRide(_) => 0,
            Component::Rose => {
                // The octagons on an empty board: each start, turning either way.
                let mut s = 0u64;
                let mut start = 0;
                while start < 8 {
                    let mut turn = 1;
                    while turn < 8 {
                        let (mut x, mut y) = (f, r);
                        let mut k = 0;
                        while k < 7 {
                            let (dx, dy) = ROSE_STEPS[(start + k * turn) % 8];
                            x += dx as i32;
                            y += dy as i32;
                            if bit_at(x, y) == 0 {
                                break;
                            }
                            s |= bit_at(x, y);
                            k += 1;
                        }
                        turn += 6;
                    }
                    start += 1;
                }
                s
            }
            Component::Deflect(..) | Component::Equihop => u64::MAX,
        };
        c += 1;
    }
    b
}

/// The squares where a piece of walk `k` on `from` may capture on some board: a superset,
/// from [`SPANS`].
#[inline]
pub(crate) fn capture_span(k: Kind, from: Square) -> u64 {
    SPANS[k.index()][from.index() & 63]
}

/// The moves that may give check without being seen to ([`FairyPosition::quiet_checks`],
/// [`FairyPosition::may_check_quietly`]).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct QuietChecks {
    /// The pieces whose leaving their square (by moving, or taken) may open a line on
    /// which a piece of the mover takes an enemy royal piece.
    openers: u64,
    /// The squares where a piece arriving may become the hurdle of a hopper or screen
    /// piece of the mover that then takes an enemy royal piece.
    arrivals: u64,
    /// Whether a piece of the mover is no [`LINE_TAKER`] (its moves and captures differ, or
    /// its captures are not symmetric: [`FairyPosition::may_give_check`] does not apply).
    hoppers: bool,
    /// The enemy pieces whose capture may free a paralysed piece of the mover (Madrasi):
    /// [`FairyPosition::may_give_check`] lets every piece that takes on one of them move.
    victims: u64,
}

/// The quiet moves tested unmade ([`FairyPosition::quiet_safe`]); also the hint of
/// [`Game::candidate_moves`] for [`Game::play_candidate`].
#[derive(Clone, Copy, Default, Debug)]
pub struct QuietSafe {
    /// The pieces whose quiet moves are legal when they arrive on `targets`, and illegal
    /// elsewhere.
    pieces: u64,
    /// Every square when the side is not in check; in check, the squares that stop it.
    targets: u64,
    /// Under Checkless chess, the pieces that may give check by opening a line
    /// ([`FairyPosition::quiet_checks`]): a quiet move that may give check is made and
    /// tested.
    openers: Option<QuietChecks>,
    /// The royal pieces, whose quiet moves are legal when no royal piece is attacked with
    /// the piece moved.
    royals: u64,
    /// Pieces that are not royal whose quiet moves are legal when no royal piece (of
    /// `royals`) is attacked with the piece moved, by the plain check test on the squares
    /// taken after it (where an enemy piece is no [`LINE_TAKER`], a piece arriving may be
    /// a hurdle; or several royal pieces stand in check).
    tested: u64,
    /// Squares where a piece of `pieces` arriving may become the hurdle of an enemy hopper
    /// or screen piece that would then take a royal piece: such a move is tested by the plain
    /// check test on the squares taken after it.
    hurdles: u64,
    /// In check from pieces that take along lines ([`BETWEEN_TAKER`]): the squares between
    /// the checking pieces and the royal piece, one of which a quiet move of a piece of
    /// `tested` must leave or reach to change a check; one that touches none is illegal at
    /// once.
    evasions: Option<u64>,
}

/// For each kind, whether a piece of that kind takes only by leaps or along rook and
/// bishop lines ([`FairyPosition::quiet_safe`]): its captures are cut short by a piece in
/// between and made by nothing else. The pawns and the dummy qualify; the orphan, whose
/// walks are borrowed, does not.
static LINE_TAKER: [bool; Kind::COUNT] = kinds_taking_along_lines(true);

/// For each kind, whether a piece of that kind takes only by leaps, rides and hops along
/// straight lines of steps (riders of any step, grasshoppers, screen pieces, lions,
/// kangaroos): whether it takes a piece on `r` from `c` depends on nothing but which squares
/// stand taken strictly between them on the lines of its walk ([`walk_between`]). The
/// [`LINE_TAKER`]s qualify; the orphan, the locusts (whose capture needs the square behind
/// the victim), the lame leapers, the rose and the turning and symmetric hoppers do not.
static BETWEEN_TAKER: [bool; Kind::COUNT] = kinds_taking_along_lines(false);

/// [`LINE_TAKER`] (with `queen_lines`: leaps and rides on rook and bishop lines only) or
/// [`BETWEEN_TAKER`] (leaps, rides of any step, hops along lines).
const fn kinds_taking_along_lines(queen_lines: bool) -> [bool; Kind::COUNT] {
    use crate::piece::Component;
    let mut t = [false; Kind::COUNT];
    let mut i = 0;
    while i < Kind::COUNT {
        let k = Kind::ALL[i];
        let comps = k.components();
        let mut ok = !matches!(k, Kind::Orphan);
        let mut j = 0;
        while j < comps.len() {
            ok &= match comps[j] {
                Component::Leap(..) => true,
                Component::Ride(a, b) => !queen_lines || matches!((a, b), (1, 0) | (0, 1) | (1, 1)),
                Component::Hop(_) | Component::Screen(_) | Component::ScreenRide(..) | Component::LongHop(_) | Component::Kangaroo => {
                    !queen_lines
                }
                _ => false,
            };
            j += 1;
        }
        t[i] = ok;
        i += 1;
    }
    t
}

/// The squares strictly between `c` and `r` on the lines along which a piece of walk `k`
/// (a [`BETWEEN_TAKER`]) on `c` may take on `r`: the union over the walk's rides and hops
/// whose line from `c` passes through `r` (empty when none does, or when `r` is next on
/// it). Which of these squares stand taken decides whether the piece takes on `r`.
pub(crate) fn walk_between(k: Kind, c: Square, r: Square) -> u64 {
    use crate::piece::Component;
    let (cf, cr) = fr(c);
    let (rf, rr) = fr(r);
    let (dx, dy) = (rf - cf, rr - cr);
    // The squares between when (`dx`, `dy`) is a multiple of the step (`sx`, `sy`).
    let along = |sx: i32, sy: i32| -> u64 {
        let n = if sx != 0 { dx / sx } else { dy / sy };
        if n < 2 || dx != n * sx || dy != n * sy {
            return 0;
        }
        (1..n).fold(0u64, |b, i| b | bit_at(cf + i * sx, cr + i * sy))
    };
    let (ax, ay) = (dx.abs(), dy.abs());
    let mut out = 0u64;
    for comp in k.components() {
        let lines = match *comp {
            Component::Ride(a, b) | Component::ScreenRide(a, b) => {
                // The step (`a`, `b`) or (`b`, `a`) of which (`dx`, `dy`) is a multiple,
                // with its signs.
                for (p, q) in [(a as i32, b as i32), (b as i32, a as i32)] {
                    let n = if p != 0 { ax / p } else { ay / q };
                    if n >= 2 && ax == n * p && ay == n * q {
                        out |= along(p * dx.signum(), q * dy.signum());
                    }
                }
                continue;
            }
            Component::Hop(l) | Component::Screen(l) | Component::LongHop(l) => l,
            Component::Kangaroo => crate::piece::Lines::Both,
            _ => continue,
        };
        for &(sx, sy) in lines.steps() {
            out |= along(sx as i32, sy as i32);
        }
    }
    out
}

/// Castling rights lost when a square is left or entered.
/// The squares of castling, in the order of a fairy position's `lost` bits: each with the
/// side and kind that castle from it.
const HOME: [(usize, Color, Kind); 6] = [
    (4, Color::White, Kind::King),
    (7, Color::White, Kind::Rook),
    (0, Color::White, Kind::Rook),
    (60, Color::Black, Kind::King),
    (63, Color::Black, Kind::Rook),
    (56, Color::Black, Kind::Rook),
];

/// The `lost` bit of a castling square, 0 for the other squares.
#[inline]
fn home_bit(s: Square) -> u8 {
    match s.0 {
        4 => 1,
        7 => 2,
        0 => 4,
        60 => 8,
        63 => 16,
        56 => 32,
        _ => 0,
    }
}

/// The [`castle`] bit of the wing whose rook stands on a corner, 0 for the other squares.
const CORNER_BIT: [u8; 64] = {
    let mut m = [0u8; 64];
    m[7] = castle::WK;
    m[0] = castle::WQ;
    m[63] = castle::BK;
    m[56] = castle::BQ;
    m
};

const CASTLE_MASK: [u8; 64] = {
    let mut m = [0u8; 64];
    m[0] = castle::WQ;
    m[7] = castle::WK;
    m[4] = castle::WK | castle::WQ;
    m[56] = castle::BQ;
    m[63] = castle::BK;
    m[60] = castle::BK | castle::BQ;
    m
};

impl fmt::Display for FPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.owner.letter(), self.kind.code())
    }
}

impl FairyPosition {
    /// The chess position of the same board, side, castling rights and en-passant square,
    /// where chess's lower bounds and mate pictures of help play hold here too: every
    /// condition only chooses among the orthodox legal moves, so that the lines of this game
    /// are lines of chess, and leaves check, mate and stalemate as in chess (the
    /// Maximummers: the side has a longest legal move exactly when it has a legal move);
    /// every piece orthodox and White's or Black's, at most one king a side, no hole,
    /// promotion to the chess pieces only. `None` otherwise.
    pub(crate) fn chess_twin(&self) -> Option<crate::position::Position> {
        let mut q = self.chess_board()?;
        q.hash = q.compute_hash();
        Some(q)
    }

    /// [`Self::chess_twin`] without its key (for move generation).
    #[inline]
    fn chess_board(&self) -> Option<crate::position::Position> {
        use crate::piece::Piece;
        use crate::position::Position;
        let orthodox_conditions = self.conditions.iter().all(|c| matches!(c, Condition::Maximummer(_)));
        if !orthodox_conditions || self.holes != 0 || self.occ[2] != 0 || self.pending.is_some() {
            return None;
        }
        // Chess knows one king a side (it would judge check on one of two).
        if (self.kings & self.occ[0]).count_ones() > 1 || (self.kings & self.occ[1]).count_ones() > 1 {
            return None;
        }
        let mut q = Position::empty();
        if self.promotions != q.promotions as u64 {
            return None;
        }
        // (The board without its key: the sides' squares are those of the fairy board.)
        for s in Squares(self.occupied()) {
            let p = self.board[s.index()]?;
            let color = p.owner.color()?;
            if !p.kind.is_orthodox() {
                return None;
            }
            q.mailbox.set(s.index(), Some(Piece { color, kind: p.kind }));
            q.by_kind[p.kind.index()] |= 1u64 << s.0;
        }
        q.by_color = [self.occ[Owner::White.index()], self.occ[Owner::Black.index()]];
        q.side = self.side;
        q.castling = self.castling;
        q.ep = self.ep.map(|(crossed, _)| crossed);
        q.normalize_ep();
        Some(q)
    }

    /// The legal moves after the choice step, appended to `out`, generated by chess's
    /// generator on `c`, the chess board of this position ([`Self::chess_twin`]): chess's
    /// legal moves, then each condition's choice (the Maximummer's longest).
    fn chess_moves(&self, c: &crate::position::Position, out: &mut Vec<FMove>) {
        let mut legal = crate::rules::chess::MoveList::new();
        if self.conditions.iter().any(|cond| *cond == Condition::Maximummer(self.side)) {
            // Every condition is a Maximummer (the chess board's requirement), one of them
            // the side's: its longest moves.
            c.longest_moves(&mut legal);
        } else {
            c.generate(&mut legal);
        }
        out.extend(legal.iter().map(|&m| fairy_move(c, m)));
    }
}

/// The fairy move of a chess move `m` of `c` (the chess board of a [`FairyPosition`]), as the
/// fairy generator writes it.
fn fairy_move(c: &crate::position::Position, m: crate::position::Move) -> FMove {
    use crate::position::Move;
    match m {
        Move::Normal { from, to, promotion } => {
            FMove { from, to, victim: c.piece_at(to).map(|_| to), promotion, rook: None, via: None, reborn: None }
        }
        Move::EnPassant { from, to } => {
            let pawn = Square(if c.side_to_move() == Color::White { to.0 - 8 } else { to.0 + 8 });
            FMove { from, to, victim: Some(pawn), promotion: None, rook: None, via: None, reborn: None }
        }
        Move::Castle { king, rook } => {
            let (kto, _) = crate::position::castle_squares(king, rook);
            FMove { from: king, to: kto, victim: None, promotion: None, rook: Some(rook), via: None, reborn: None }
        }
        // Réserve's moves do not arise on a chess board made from a fairy position.
        Move::Put { from } | Move::Drop { to: from, .. } => FMove::quiet(from, from),
    }
}

/// The chess move of an orthodox move of a [`FairyPosition`] ([`FairyPosition::chess_twin`]).
fn chess_move(m: FMove) -> crate::position::Move {
    use crate::position::Move;
    match (m.rook, m.victim) {
        (Some(rook), None) => Move::Castle { king: m.from, rook },
        (_, Some(v)) if v != m.to => Move::EnPassant { from: m.from, to: m.to },
        _ => Move::Normal { from: m.from, to: m.to, promotion: m.promotion },
    }
}

impl Game for FairyPosition {
    type Move = FMove;
    type Hint = QuietSafe;
    type Plan = crate::rules::intelligent::Plan;

    fn to_move(&self) -> Color {
        self.side
    }
    // Help play under the Maximummers with orthodox pieces: chess's bound and pictures
    // ([`FairyPosition::chess_twin`]), its lines being chess lines that end in chess's mates.
    fn goal_unreachable(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> bool {
        self.chess_twin().is_some_and(|q| q.goal_unreachable(goal, mated, mated_moves, mating_moves))
    }
    fn plan(&self, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Self::Plan> {
        self.chess_twin()?.plan(goal, mated, mated_moves, mating_moves)
    }
    fn move_reaches_goal(&self, m: FMove, goal: Goal) -> bool {
        // The position after the move is only asked about the goal: its key is not needed.
        self.make_move_unkeyed(m).goal_reached_by(self, m, goal)
    }
    fn plan_after(&self, plan: &Self::Plan, m: FMove) -> Option<Self::Plan> {
        match self.chess_twin() {
            Some(q) => q.plan_after(plan, chess_move(m)),
            None => Some(plan.clone()),
        }
    }
    fn moves(&self, out: &mut Vec<FMove>) {
        out.clear();
        if let Some(c) = self.chess_board() {
            self.chess_moves(&c, out);
            return;
        }
        let mut list = FMoveList::new();
        self.legal_chosen(&mut list);
        out.extend_from_slice(&list);
    }
    fn play(&self, m: FMove) -> Self {
        self.make_move(m)
    }
    /// A killer from another position: legal here when its piece's pseudo-legal moves hold
    /// it and it passes the legality test once made (the position made is the one given
    /// back). Where a condition chooses among all legal moves, or the problem plays as
    /// chess, all the legal moves are listed, as by default.
    fn try_play(&self, m: FMove) -> Option<Self> {
        if let Some(c) = self.chess_board() {
            // Chess's legal moves (under the side's Maximummer, the longest), on the stack.
            let mut legal = crate::rules::chess::MoveList::new();
            if self.conditions.iter().any(|cond| *cond == Condition::Maximummer(self.side)) {
                c.longest_moves(&mut legal);
            } else {
                c.generate(&mut legal);
            }
            let cm = chess_move(m);
            if !legal.contains(&cm) || fairy_move(&c, cm) != m {
                return None;
            }
            return Some(self.make_move(m));
        }
        if self.conditions.any(prop::CHOOSES) {
            let mut v = Vec::new();
            self.moves(&mut v);
            return v.contains(&m).then(|| self.make_move(m));
        }
        let mut pseudo = FMoveList::new();
        self.pseudo_moves_of(self.side, 1u64 << m.from.0, &mut pseudo);
        if !pseudo.contains(&m) {
            return None;
        }
        self.make_if_legal(m)
    }
    /// Unless a condition chooses among all legal moves.
    fn lazy_legality(&self) -> bool {
        !self.conditions.any(prop::CHOOSES)
    }
    /// The pseudo-legal moves, whose legality [`Game::play_candidate`] tests as it makes them;
    /// the hint is what [`Self::quiet_safe`] tells of the quiet moves, judged unmade as in
    /// the legality test. Where a condition chooses among all legal moves, or the problem
    /// plays as chess, the legal moves.
    fn candidate_moves(&self, out: &mut Vec<FMove>) -> QuietSafe {
        if self.conditions.any(prop::CHOOSES) || self.chess_board().is_some() {
            self.moves(out);
            return QuietSafe::default();
        }
        out.clear();
        let mut list = FMoveList::new();
        self.pseudo_moves(self.side, None, &mut list);
        out.extend_from_slice(&list);
        self.quiet_safe()
    }
    #[inline]
    fn play_candidate(&self, m: FMove, hint: QuietSafe) -> Option<Self> {
        if self.conditions.any(prop::CHOOSES) {
            // Listed legal (and chosen) by `candidate_moves`.
            return Some(self.make_move(m));
        }
        match self.quiet_verdict(m, hint) {
            Some(false) => None,
            Some(true) => Some(self.make_move(m)),
            None => self.make_if_legal(m),
        }
    }
    fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }
    fn has_move(&self) -> bool {
        if let Some(c) = self.chess_board() {
            // The Maximummer keeps a move whenever there is one.
            return c.has_legal_move();
        }
        if !self.conditions.all(prop::NEVER_EMPTIES_CHOICE) {
            return !self.legal_moves().is_empty();
        }
        // The choice step keeps a move whenever there is one: the first legal move answers.
        // The moves are made a piece at a time, the royal pieces' first (a flight is the
        // likeliest legal move of a side in check), so that the search stops at the first.
        let us = self.side;
        let mut pseudo = FMoveList::new();
        // The royal pieces' quiet moves are judged by the plain check test alone: what
        // `quiet_safe` works out for the other pieces is worked out only when they are
        // reached (a mate test mostly stops at a flight).
        let royals = self.royals(us);
        // A king's quiet steps first, without the generator: where no condition shapes quiet
        // moves, lends walks or paralyses, a king of the side's own steps to every empty
        // square next to it (no hole), and the first of them found legal answers.
        // (The steps tested there are not tested again below.)
        let mut stepped = None;
        if royals.count_ones() == 1 && !self.conditions.any(prop::SHAPES_QUIET_MOVES | prop::LENDS_WALKS | prop::PARALYSES) {
            let r = Square(royals.trailing_zeros() as u8);
            if self.board[r.index()] == Some(FPiece::new(Owner::of(us), Kind::King)) {
                let safe = self.quiet_safe_royals();
                let steps = crate::rules::chess::king_attacks(r) & !self.occupied() & !self.holes;
                if Squares(steps).any(|to| self.is_legal_pseudo_in(FMove::quiet(r, to), safe)) {
                    return true;
                }
                stepped = Some((r, steps));
            }
        }
        let tested = |m: &FMove| {
            stepped.is_some_and(|(r, steps)| {
                m.from == r && steps & (1u64 << m.to.0) != 0 && m.victim.is_none() && m.rook.is_none() && m.promotion.is_none()
            })
        };
        let mut full: Option<QuietSafe> = None;
        for group in self.piece_groups(us) {
            let safe = if group == royals { self.quiet_safe_royals() } else { *full.get_or_insert_with(|| self.quiet_safe()) };
            pseudo.clear();
            self.pseudo_moves_of(us, group, &mut pseudo);
            if pseudo.iter().any(|&m| !tested(&m) && self.is_legal_pseudo_in(m, safe)) {
                return true;
            }
        }
        false
    }
    fn every_move(&self, pred: &mut dyn FnMut(FMove, &Self) -> bool) -> bool {
        self.every_move_with(false, pred)
    }
    fn every_move_checks(&self, pred: &mut dyn FnMut(FMove, &Self) -> bool) -> bool {
        self.every_move_with(true, pred)
    }
    fn checking_moves(&self, out: &mut Vec<FMove>) {
        out.clear();
        if let Some(c) = self.chess_board() {
            // The choice is made among all legal moves, checking or not.
            self.chess_moves(&c, out);
            out.retain(|&m| c.gives_check(chess_move(m)));
            return;
        }
        if self.conditions.any(prop::CHOOSES) {
            // The choice is made among all legal moves, checking or not.
            self.moves(out);
            out.retain(|&m| self.gives_check(m));
            return;
        }
        // Each move made once: whether it checks first (most do not), then whether it is
        // legal.
        let us = self.side;
        let mut pseudo = FMoveList::new();
        let quiet = self.quiet_checks();
        match quiet {
            // (Only where every piece of the mover is a [`LINE_TAKER`]: a hopper may check
            // from squares its walk does not mirror.)
            Some(q)
                if !q.hoppers
                    && self.conditions.all(prop::PLAIN_CAPTURES)
                    && !self.conditions.any(prop::LENDS_WALKS | prop::EXPANDS_MOVES | prop::ADDS_MOVES) =>
            {
                self.pseudo_moves_of(us, self.may_give_check(q.openers, q.victims), &mut pseudo)
            }
            _ => self.pseudo_moves(us, None, &mut pseudo),
        }
        for &m in pseudo.iter() {
            if let Some(discover) = quiet
                && !self.may_check_quietly(m, discover)
            {
                continue;
            }
            let q = self.make_move_unkeyed(m);
            if q.royal_attacked(us.opponent()) && self.legal_as_made(m, &q) {
                out.push(m);
            }
        }
    }
    fn key(&self) -> u64 {
        self.hash
    }
    fn gives_check(&self, m: FMove) -> bool {
        // The position after the move is only asked about check: its key is not needed.
        self.make_move_unkeyed(m).royal_attacked(self.side.opponent())
    }
    fn goal_reached(&self, goal: Goal) -> bool {
        match goal {
            Goal::Mate => self.in_check() && !self.has_move(),
            Goal::Stalemate => !self.in_check() && !self.has_move(),
            Goal::DoubleStalemate => {
                !self.in_check() && !self.has_move() && {
                    let o = self.with_side(self.side.opponent());
                    !o.in_check() && !o.has_move()
                }
            }
            Goal::Check => self.in_check(),
            // The goals of the move: `Game::goal_reached_by`.
            _ => false,
        }
    }
    fn move_reaches(&self, m: FMove, after: &Self, goal: Goal) -> bool {
        match goal {
            Goal::Capture => m.is_capture(),
            // The board holds fewer pieces: the victim was not reborn.
            Goal::WinPiece => m.is_capture() && after.occupied().count_ones() < self.occupied().count_ones(),
            Goal::EnPassant => {
                m.rook.is_none()
                    && self.ep.is_some_and(|(e, v)| m.to == e && m.victim == Some(v))
                    && self.piece_at(m.from).is_some_and(|p| p.is_pawn())
            }
            Goal::Castling => m.is_castling(),
            Goal::Chess81 => m.to.0 / 8 == if self.side == Color::White { 7 } else { 0 },
            // A piece of the mover (or a neutral one) stands there after the move, and did
            // not before.
            Goal::Target(s) => {
                let at = after.piece_at(s);
                at.is_some_and(|p| p.owner == Owner::of(self.side) || p.owner == Owner::Neutral) && at != self.piece_at(s)
            }
            Goal::Circuit => {
                let o = self.origin[m.from.index()];
                after.is_on_own_square(o)
            }
            Goal::Exchange => {
                let o = self.origin[m.from.index()];
                after.square_of(o).is_some_and(|s| after.swapped(s))
            }
            Goal::CircuitByRebirth => after.reborn.is_some_and(|r| after.origin[r.index()] == r.0),
            Goal::ExchangeByRebirth => after.reborn.is_some_and(|r| after.swapped(r)),
            Goal::Kiss(t) => {
                let Some(kissed) = after.square_of(t.0) else { return false };
                // The pieces of the move where they end: the mover (and a castling rook).
                let moved = [Some(m.from), m.rook].map(|s| s.and_then(|s| after.square_of(self.origin[s.index()])));
                let near = crate::rules::chess::king_attacks(kissed) & after.occupied();
                moved.iter().flatten().any(|&s| s != kissed && near == 1u64 << s.0)
            }
            _ => false,
        }
    }
    fn captures_own_royal(&self, m: FMove) -> bool {
        m.victim.is_some_and(|v| self.board[v.index()].is_some_and(|p| p.kind == Kind::King && p.owner == Owner::Neutral))
    }
    fn self_check_moves(&self, out: &mut Vec<FMove>) {
        out.clear();
        let us = self.side;
        let mut pseudo = FMoveList::new();
        self.pseudo_moves(us, None, &mut pseudo);
        for m in pseudo {
            let q = self.make_move(m);
            if q.royal_attacked(us) && self.conditions.iter().all(|c| c.legal_after(self, &m, &q)) {
                out.push(m);
            }
        }
    }
    fn refuses_goal(_goal: Goal) -> Option<String> {
        None
    }
    fn needs_check(&self, goal: Goal) -> bool {
        matches!(goal, Goal::Mate | Goal::Check)
    }
    fn pass(&self) -> Self {
        // The en-passant right of the last move outlives a pass (the other side of a series
        // standing still): Popeye's 4_63_to_4_65.inp #25, Madrasi ser-zd53, where the pawn
        // from `1.d2-d4` stays paralysed for `2.d4-d5`.
        // The key changes by the side to move only. A position made without its key (only
        // to be asked about, as a goal test does) passes without one too.
        let mut q = *self;
        q.side = self.side.opponent();
        q.hash = self.hash ^ crate::position::ZOBRIST.side;
        q
    }
    fn move_text(&self, m: FMove, lang: crate::piece::Lang) -> String {
        notation::move_text(self, m, lang)
    }
    fn parse_move(&self, text: &str) -> Option<FMove> {
        notation::parse_move(self, text)
    }
}
