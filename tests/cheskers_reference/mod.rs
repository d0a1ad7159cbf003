//! A small, slow, obviously-correct reference move generator for Cheskers, written apart from
//! the engine (`feerie::rules::cheskers`) from the rule text alone (`../shared/rules/cheskers.md`)
//! and the project's decisions on the points it leaves open:
//!
//! - the board is a mailbox of 64 squares walked with (file, rank) steps; pieces stand on dark
//!   squares only (a1 is dark: file + rank even);
//! - pawns (draughts men) step one square diagonally forward and jump forward over an adjacent
//!   enemy piece of any kind; kings (draughts kings, royal) step and jump in all four diagonal
//!   directions; jumps chain, and a chain is maximal: while the piece can jump again it must
//!   (each branch is a move of its own), except that a pawn stops on its last rank, where it
//!   is promoted to a king, a bishop or a camel (three moves);
//! - in a chain a jumped piece stays on the board until the chain ends: it cannot be jumped a
//!   second time and nothing can land on it; the square the piece started from is empty during
//!   its own chain;
//! - two chains with the same start, end, set of captured pieces and promotion are one move
//!   (the draughts convention), whatever their paths;
//! - bishops slide diagonally and take the first enemy piece on a line by landing on it;
//!   camels leap (1, 3) in the eight directions, onto an empty square or an enemy piece;
//! - compulsory capture: when a pawn or king of the side to move can jump, the legal moves are
//!   the jump chains and the captures of bishops and camels (no quiet move); otherwise every
//!   move is legal, the bishop and camel captures among them;
//! - a side without a king has no legal move (the game is over); there is no check.
//!
//! It shares only `Color` with the engine, has its own FEN reader and writer, and writes moves
//! in the project's English notation (`c3xe5xg7=K`, `CAg1-h4`), so that its move sets and
//! positions compare with the engine's as text.

#![allow(dead_code)]

use feerie::piece::Color;
use std::collections::BTreeSet;

/// The four Cheskers piece kinds (the reference's own, not the engine's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `K`: a draughts king, royal.
    King,
    /// `B`: a chess bishop.
    Bishop,
    /// `C` in FEN, `CA` in moves: a (1, 3) leaper.
    Camel,
    /// `P`: a draughts man.
    Pawn,
}

impl Kind {
    /// Every kind, in FEN letter order K B C P.
    pub const ALL: [Kind; 4] = [Kind::King, Kind::Bishop, Kind::Camel, Kind::Pawn];
    /// The kinds a pawn may be promoted to, in the order K, B, CA.
    pub const PROMOTIONS: [Kind; 3] = [Kind::King, Kind::Bishop, Kind::Camel];

    /// The FEN letter of a White piece of this kind.
    pub fn fen_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Bishop => 'B',
            Kind::Camel => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The kind an upper-case FEN letter names.
    pub fn from_fen_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.fen_letter() == c)
    }

    /// The letters of the kind in moves: none for a pawn, `K`, `B`, `CA`.
    pub fn move_letters(self) -> &'static str {
        match self {
            Kind::King => "K",
            Kind::Bishop => "B",
            Kind::Camel => "CA",
            Kind::Pawn => "",
        }
    }
}

/// A piece: its colour and kind.
pub type Piece = (Color, Kind);

/// A square as (file, rank): file 0 = a … 7 = h, rank 0 = rank 1 (White's back rank) … 7 = rank 8.
pub type Sq = (i32, i32);

/// Whether (f, r) is on the board.
pub fn on_board((f, r): Sq) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// Whether a square is dark (a1 is dark): the only squares pieces may stand on.
pub fn is_dark((f, r): Sq) -> bool {
    (f + r) % 2 == 0
}

/// The 32 dark squares, a1 first, rank by rank.
pub fn dark_squares() -> Vec<Sq> {
    (0..8).flat_map(|r| (0..8).map(move |f| (f, r))).filter(|&s| is_dark(s)).collect()
}

/// The name of a square (`e3`).
pub fn square_name((f, r): Sq) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Reads a square name (`e3`).
pub fn parse_square(s: &str) -> Option<Sq> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(((b[0] - b'a') as i32, (b[1] - b'1') as i32))
}

/// The other side.
pub fn other(c: Color) -> Color {
    if c == Color::White { Color::Black } else { Color::White }
}

/// The rank step of "forward" for `c`: up for White, down for Black.
pub fn forward(c: Color) -> i32 {
    if c == Color::White { 1 } else { -1 }
}

/// The last rank of `c` (where its pawns are promoted): rank 8 for White, rank 1 for Black.
pub fn last_rank(c: Color) -> i32 {
    if c == Color::White { 7 } else { 0 }
}

/// The four diagonal steps.
pub const DIAG: [Sq; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The eight (1, 3) leaps of a camel.
pub const CAMEL: [Sq; 8] = [(1, 3), (-1, 3), (1, -3), (-1, -3), (3, 1), (-3, 1), (3, -1), (-3, -1)];

/// The diagonal steps a piece of this colour and kind steps and jumps in: the two forward
/// diagonals for a pawn, all four for a king (none for the others).
pub fn draughts_steps(c: Color, k: Kind) -> Vec<Sq> {
    match k {
        Kind::Pawn => vec![(1, forward(c)), (-1, forward(c))],
        Kind::King => DIAG.to_vec(),
        _ => Vec::new(),
    }
}

/// A move of the reference generator.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RMove {
    /// Where the piece starts.
    pub from: Sq,
    /// Every square it lands on, in order: one for a step, a slide or a leap, one per jump in
    /// a chain. The last one is where it ends.
    pub path: Vec<Sq>,
    /// The squares of the pieces it captures, sorted (empty for a quiet move).
    pub captured: Vec<Sq>,
    /// What a pawn becomes on its last rank.
    pub promotion: Option<Kind>,
    /// The kind of the moving piece (before promotion).
    pub kind: Kind,
}

impl RMove {
    /// Where the piece ends.
    pub fn to(&self) -> Sq {
        *self.path.last().expect("a move lands somewhere")
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Whether the move is a pawn's or king's jump (chain).
    pub fn is_jump(&self) -> bool {
        self.is_capture() && matches!(self.kind, Kind::Pawn | Kind::King)
    }

    /// What makes two moves the same move: start, end, captured set and promotion (two jump
    /// chains differing only in their paths are one move).
    pub fn identity(&self) -> (Sq, Sq, Vec<Sq>, Option<Kind>) {
        (self.from, self.to(), self.captured.clone(), self.promotion)
    }

    /// The move in the project's English notation: the piece's letters (none for a pawn), the
    /// start square, then each landing square after `-` (a quiet move) or `x` (a capture), then
    /// `=K`, `=B` or `=CA` for a promotion: `c3-d4`, `Ba1xd4`, `c3xe5xg7=CA`, `Kc1xe3xc5`.
    pub fn text(&self) -> String {
        let mut s = format!("{}{}", self.kind.move_letters(), square_name(self.from));
        let sep = if self.is_capture() { 'x' } else { '-' };
        for &sq in &self.path {
            s.push(sep);
            s.push_str(&square_name(sq));
        }
        if let Some(k) = self.promotion {
            s.push('=');
            s.push_str(k.move_letters());
        }
        s
    }
}

/// A position of the reference generator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The squares, index rank × 8 + file.
    pub squares: [Option<Piece>; 64],
    /// Side to move.
    pub side: Color,
}

/// An empty board, White to move.
pub fn empty() -> Board {
    Board { squares: [None; 64], side: Color::White }
}

/// The initial position (Black moves first).
pub const START: &str = "1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b";

/// Reads a Cheskers FEN: eight ranks from rank 8 down to rank 1, separated by `/`, each of eight
/// squares (digits for empty squares; `K B C P`, upper case White, lower case Black), then the
/// side to move (`w` or `b`; White when missing). Further fields are ignored. A piece on a light
/// square, or a pawn on its own last rank, is refused.
pub fn from_fen(fen: &str) -> Result<Board, String> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or("empty FEN")?;
    let mut b = empty();
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("{} ranks, not 8", rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i as i32;
        let mut f = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err("a 0 in a rank".into());
                }
                f += n as i32;
            } else {
                let kind = Kind::from_fen_letter(c.to_ascii_uppercase()).ok_or(format!("unknown letter {c}"))?;
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                if f >= 8 {
                    return Err(format!("rank {} is too long", r + 1));
                }
                if !is_dark((f, r)) {
                    return Err(format!("a piece on the light square {}", square_name((f, r))));
                }
                if kind == Kind::Pawn && r == last_rank(color) {
                    return Err(format!("a pawn on its last rank, {}", square_name((f, r))));
                }
                b.set((f, r), Some((color, kind)));
                f += 1;
            }
            if f > 8 {
                return Err(format!("rank {} is too long", r + 1));
            }
        }
        if f != 8 {
            return Err(format!("rank {} has {f} squares, not 8", r + 1));
        }
    }
    b.side = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(s) => return Err(format!("side {s}")),
    };
    Ok(b)
}

impl Board {
    /// The piece on a square (the square must be on the board).
    pub fn at(&self, (f, r): Sq) -> Option<Piece> {
        self.squares[(r * 8 + f) as usize]
    }

    /// Puts a piece (or nothing) on a square.
    pub fn set(&mut self, (f, r): Sq, p: Option<Piece>) {
        self.squares[(r * 8 + f) as usize] = p;
    }

    /// The squares of the pieces of colour `c`, a1 first, rank by rank.
    pub fn pieces_of(&self, c: Color) -> Vec<(Sq, Kind)> {
        (0..8)
            .flat_map(|r| (0..8).map(move |f| (f, r)))
            .filter_map(|s| self.at(s).filter(|&(pc, _)| pc == c).map(|(_, k)| (s, k)))
            .collect()
    }

    /// Whether `c` has a king on the board.
    pub fn has_king(&self, c: Color) -> bool {
        self.squares.contains(&Some((c, Kind::King)))
    }

    /// The FEN of the position: placement from rank 8 down, then `w` or `b`.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            let mut gap = 0;
            for f in 0..8 {
                match self.at((f, r)) {
                    None => gap += 1,
                    Some((c, k)) => {
                        if gap > 0 {
                            s.push_str(&gap.to_string());
                            gap = 0;
                        }
                        let l = k.fen_letter();
                        s.push(if c == Color::White { l } else { l.to_ascii_lowercase() });
                    }
                }
            }
            if gap > 0 {
                s.push_str(&gap.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White { " w" } else { " b" });
        s
    }

    /// Whether an enemy of `c` stands on `s` (on the board).
    fn enemy_of(&self, c: Color, s: Sq) -> bool {
        on_board(s) && self.at(s).is_some_and(|(pc, _)| pc != c)
    }

    /// The moves ending with the pawn or king on `from` arriving on `to`: one, or for a pawn
    /// arriving on its last rank one per promotion (K, B, CA).
    fn arrivals(&self, from: Sq, path: Vec<Sq>, captured: Vec<Sq>) -> Vec<RMove> {
        let (c, kind) = self.at(from).expect("a piece moves");
        let mut captured = captured;
        captured.sort();
        let to = *path.last().unwrap();
        if kind == Kind::Pawn && to.1 == last_rank(c) {
            Kind::PROMOTIONS
                .iter()
                .map(|&k| RMove { from, path: path.clone(), captured: captured.clone(), promotion: Some(k), kind })
                .collect()
        } else {
            vec![RMove { from, path, captured, promotion: None, kind }]
        }
    }

    /// Every complete jump chain of the pawn or king on `from`, one per path (two paths with the
    /// same captured set are both listed here); empty when it cannot jump. `events` collects
    /// names of the rules met on the way (for the coverage tests).
    pub fn jump_chains_traced(&self, from: Sq, events: &mut BTreeSet<&'static str>) -> Vec<RMove> {
        let mut out = Vec::new();
        self.extend_chain(from, from, &mut Vec::new(), &mut Vec::new(), &mut out, events);
        out
    }

    /// [`Board::jump_chains_traced`] without the trace.
    pub fn jump_chains(&self, from: Sq) -> Vec<RMove> {
        self.jump_chains_traced(from, &mut BTreeSet::new())
    }

    /// Whether a square is empty for a chain that started on `start`: empty on the board, or the
    /// start square itself (the moving piece has left it). The pieces jumped so far are still
    /// on the board, so their squares are not empty.
    fn empty_during_chain(&self, start: Sq, s: Sq) -> bool {
        on_board(s) && (s == start || self.at(s).is_none())
    }

    /// The chains of the piece from `start`, now on `at` after the jumps of `path` over the
    /// pieces of `captured`: every jump it can make from here continues the chain; when it can
    /// make none (or is a pawn arrived on its last rank) the chain ends.
    fn extend_chain(
        &self,
        start: Sq,
        at: Sq,
        path: &mut Vec<Sq>,
        captured: &mut Vec<Sq>,
        out: &mut Vec<RMove>,
        events: &mut BTreeSet<&'static str>,
    ) {
        let (c, kind) = self.at(start).expect("a piece jumps");
        let pawn_arrived = kind == Kind::Pawn && at.1 == last_rank(c) && !path.is_empty();
        let mut jumped = false;
        if !pawn_arrived {
            for (df, dr) in draughts_steps(c, kind) {
                let over = (at.0 + df, at.1 + dr);
                let land = (at.0 + 2 * df, at.1 + 2 * dr);
                if !on_board(land) || !self.enemy_of(c, over) {
                    continue;
                }
                if captured.contains(&over) {
                    // A piece is jumped once; it stays (and blocks) until the chain ends.
                    events.insert(if captured.last() == Some(&over) {
                        "jump straight back over the piece just jumped refused"
                    } else {
                        "jump over a piece jumped earlier in the chain refused"
                    });
                    continue;
                }
                if !self.empty_during_chain(start, land) {
                    // (A jumped piece never stands on a landing square: a piece lands only on
                    // squares of its start's (file, rank) parity, and jumps the other ones.)
                    continue;
                }
                if land == start {
                    events.insert("king lands on its own start square in its chain");
                }
                if kind == Kind::King && dr != forward(c) {
                    events.insert("king jumps backwards");
                }
                jumped = true;
                path.push(land);
                captured.push(over);
                self.extend_chain(start, land, path, captured, out, events);
                path.pop();
                captured.pop();
            }
        }
        if pawn_arrived {
            // Would a king there jump on? (The chain ends all the same.)
            let king_could = DIAG.iter().any(|&(df, dr)| {
                let over = (at.0 + df, at.1 + dr);
                let land = (at.0 + 2 * df, at.1 + 2 * dr);
                self.enemy_of(c, over) && !captured.contains(&over) && self.empty_during_chain(start, land)
            });
            if king_could {
                events.insert("pawn stops on its last rank where a king would jump on");
            }
        }
        if !jumped && !path.is_empty() {
            out.extend(self.arrivals(start, path.clone(), captured.clone()));
        }
    }

    /// The quiet steps of the pawn or king on `from`: one square diagonally (forward only for a
    /// pawn) to an empty square, with the promotions of a pawn arriving on its last rank.
    pub fn steps(&self, from: Sq) -> Vec<RMove> {
        let (c, kind) = self.at(from).expect("a piece steps");
        let mut out = Vec::new();
        for (df, dr) in draughts_steps(c, kind) {
            let to = (from.0 + df, from.1 + dr);
            if on_board(to) && self.at(to).is_none() {
                out.extend(self.arrivals(from, vec![to], Vec::new()));
            }
        }
        out
    }

    /// The moves of the bishop or camel on `from`, quiet ones and captures.
    pub fn bishop_or_camel_moves(&self, from: Sq) -> Vec<RMove> {
        let (c, kind) = self.at(from).expect("a piece moves");
        let mut targets = Vec::new();
        match kind {
            Kind::Bishop => {
                for (df, dr) in DIAG {
                    let mut s = (from.0 + df, from.1 + dr);
                    while on_board(s) {
                        match self.at(s) {
                            None => targets.push(s),
                            Some((pc, _)) => {
                                if pc != c {
                                    targets.push(s);
                                }
                                break;
                            }
                        }
                        s = (s.0 + df, s.1 + dr);
                    }
                }
            }
            Kind::Camel => {
                for (df, dr) in CAMEL {
                    let s = (from.0 + df, from.1 + dr);
                    if on_board(s) && self.at(s).is_none_or(|(pc, _)| pc != c) {
                        targets.push(s);
                    }
                }
            }
            _ => panic!("not a bishop or camel"),
        }
        targets
            .into_iter()
            .map(|to| {
                let captured = if self.at(to).is_some() { vec![to] } else { Vec::new() };
                RMove { from, path: vec![to], captured, promotion: None, kind }
            })
            .collect()
    }

    /// Whether some pawn or king of the side to move can jump (capture is then compulsory).
    pub fn capture_compulsory(&self) -> bool {
        self.pieces_of(self.side).into_iter().any(|(s, k)| matches!(k, Kind::Pawn | Kind::King) && !self.jump_chains(s).is_empty())
    }

    /// Every legal move, each jump chain with every path it can take (so that one move may be
    /// listed several times, with different paths). `events` collects the rules met.
    pub fn legal_moves_all_paths_traced(&self, events: &mut BTreeSet<&'static str>) -> Vec<RMove> {
        if !self.has_king(self.side) {
            return Vec::new();
        }
        let compulsory = self.capture_compulsory();
        let mut out = Vec::new();
        for (s, k) in self.pieces_of(self.side) {
            match k {
                Kind::Pawn | Kind::King => {
                    if compulsory {
                        out.extend(self.jump_chains_traced(s, events));
                    } else {
                        // No pawn or king can jump: only steps.
                        out.extend(self.steps(s));
                    }
                }
                Kind::Bishop | Kind::Camel => {
                    out.extend(self.bishop_or_camel_moves(s).into_iter().filter(|m| !compulsory || m.is_capture()));
                }
            }
        }
        out
    }

    /// [`Board::legal_moves_all_paths_traced`] without the trace.
    pub fn legal_moves_all_paths(&self) -> Vec<RMove> {
        self.legal_moves_all_paths_traced(&mut BTreeSet::new())
    }

    /// The legal moves, one per move (of the chains with the same start, end, captured set and
    /// promotion, the one with the smallest path is kept), sorted.
    pub fn legal_moves(&self) -> Vec<RMove> {
        let mut all = self.legal_moves_all_paths();
        all.sort();
        let mut seen = BTreeSet::new();
        all.into_iter().filter(|m| seen.insert(m.identity())).collect()
    }

    /// The position after `m` (a legal move of the side to move): the piece leaves its square,
    /// the captured pieces are removed, the piece (or what it is promoted to) stands on the last
    /// square, and the other side is to move.
    pub fn play(&self, m: &RMove) -> Board {
        let mut b = self.clone();
        let (c, kind) = b.at(m.from).expect("a piece moves");
        b.set(m.from, None);
        for &s in &m.captured {
            b.set(s, None);
        }
        b.set(m.to(), Some((c, m.promotion.unwrap_or(kind))));
        b.side = other(self.side);
        b
    }

    /// The legal move that `text` names, in the notation of [`RMove::text`] with any of the
    /// move's paths; `None` when no legal move has that name.
    pub fn move_named(&self, text: &str) -> Option<RMove> {
        self.legal_moves_all_paths().into_iter().find(|m| m.text() == text)
    }

    /// The FENs of the positions after each legal move, sorted (one per move).
    pub fn children_fens(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(|m| self.play(m).to_fen()).collect();
        v.sort();
        v
    }

    /// The legal moves' names, sorted.
    pub fn legal_texts(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().iter().map(RMove::text).collect();
        v.sort();
        v
    }

    /// The number of legal move sequences of `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
