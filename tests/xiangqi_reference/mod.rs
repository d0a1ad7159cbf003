//! A small, slow, obviously-correct reference move generator for Xiangqi, written apart from the
//! engine in `src/rules/xiangqi/`: a mailbox of 9 files × 10 ranks walked with (file, rank)
//! offsets, no tables, no bitboards. Every piece is re-written from the rule text
//! (`../shared/rules/xiangqi.md`), and legality is "play the move on a copy, then: is my general
//! the target of any enemy pseudo-legal move, or do the two generals face each other on an open
//! file?", answered by brute force.
//!
//! It shares only `Color` with the engine, has its own FEN reader and writer, and names moves in
//! ICCS (`h2e2`), so that its move sets compare with the engine's as text.

#![allow(dead_code)]

use feerie::piece::Color;

/// Files a–i.
pub const FILES: i32 = 9;
/// Ranks 0–9.
pub const RANKS: i32 = 10;

/// The seven Xiangqi piece kinds (the reference's own, not the engine's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `K`: one step orthogonally inside its palace.
    General,
    /// `A`: one step diagonally inside its palace.
    Advisor,
    /// `B` (or `E`): two steps diagonally, blocked by the point between, never across the river.
    Elephant,
    /// `N` (or `H`): one step orthogonally then one diagonally outward, blocked by its leg.
    Horse,
    /// `R`: a rook.
    Chariot,
    /// `C`: a rook that captures by jumping exactly one screen.
    Cannon,
    /// `P`: one step forward, also sideways once across the river.
    Soldier,
}

impl Kind {
    /// Every kind, in FEN letter order K A B N R C P.
    pub const ALL: [Kind; 7] = [Kind::General, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier];

    /// The FEN letter of a Red piece of this kind.
    pub fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// The kind an upper-case FEN letter names (`E` and `H` accepted for `B` and `N`).
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }
}

/// A piece: its colour (Red = `Color::White`) and kind.
pub type Piece = (Color, Kind);

/// A point as (file, rank): file 0 = a … 8 = i, rank 0 = Red's back rank … 9 = Black's.
pub type Point = (i32, i32);

/// A move from one point to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RMove {
    /// Where the piece stands.
    pub from: Point,
    /// Where it goes (empty, or an enemy piece it captures).
    pub to: Point,
}

/// The ICCS name of a point: file letter, rank digit (`e0`).
pub fn point_name(p: Point) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1)
}

impl RMove {
    /// The move in ICCS: from and to, as `h2e2`.
    pub fn iccs(self) -> String {
        format!("{}{}", point_name(self.from), point_name(self.to))
    }
}

/// Whether (f, r) is on the board.
pub fn on_board(f: i32, r: i32) -> bool {
    (0..FILES).contains(&f) && (0..RANKS).contains(&r)
}

/// Whether (f, r) is inside the palace of `c`: files d–f, ranks 0–2 (Red) or 7–9 (Black).
pub fn in_palace(c: Color, f: i32, r: i32) -> bool {
    let ranks = if c == Color::White { 0..=2 } else { 7..=9 };
    (3..=5).contains(&f) && ranks.contains(&r)
}

/// Whether rank `r` is on the own side of the river for `c`: ranks 0–4 (Red) or 5–9 (Black).
pub fn own_half(c: Color, r: i32) -> bool {
    if c == Color::White { r <= 4 } else { r >= 5 }
}

/// The rank step of "forward" for `c`: up for Red, down for Black.
pub fn forward(c: Color) -> i32 {
    if c == Color::White { 1 } else { -1 }
}

/// The other side.
pub fn other(c: Color) -> Color {
    if c == Color::White { Color::Black } else { Color::White }
}

/// The four orthogonal steps.
pub const ORTH: [Point; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four diagonal steps.
pub const DIAG: [Point; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// A position of the reference generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `points[file][rank]`.
    pub points: [[Option<Piece>; 10]; 9],
    /// Side to move.
    pub side: Color,
}

/// An empty board, Red to move.
pub fn empty() -> Board {
    Board { points: [[None; 10]; 9], side: Color::White }
}

/// Reads a WXF/UCCI FEN: ten ranks from rank 9 down to rank 0, separated by `/`, each of nine
/// points (digits for empty points, upper case Red, lower case Black), then the side to move
/// (`w` or `r` Red, `b` Black; Red when missing). Further fields are ignored.
pub fn from_fen(fen: &str) -> Result<Board, String> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or("empty FEN")?;
    let mut b = empty();
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 10 {
        return Err(format!("{} ranks, not 10", rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = 9 - i as i32;
        let mut f = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err("a 0 in a rank".into());
                }
                f += n as i32;
            } else {
                let kind = Kind::from_letter(c.to_ascii_uppercase()).ok_or(format!("unknown letter {c}"))?;
                let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                if f >= FILES {
                    return Err(format!("rank {r} is too long"));
                }
                b.points[f as usize][r as usize] = Some((color, kind));
                f += 1;
            }
            if f > FILES {
                return Err(format!("rank {r} is too long"));
            }
        }
        if f != FILES {
            return Err(format!("rank {r} has {f} points, not 9"));
        }
    }
    b.side = match fields.next() {
        None | Some("w") | Some("r") => Color::White,
        Some("b") => Color::Black,
        Some(s) => return Err(format!("side {s}")),
    };
    Ok(b)
}

impl Board {
    /// The piece at (f, r).
    pub fn at(&self, f: i32, r: i32) -> Option<Piece> {
        self.points[f as usize][r as usize]
    }

    /// Puts a piece (or nothing) at (f, r).
    pub fn set(&mut self, f: i32, r: i32, p: Option<Piece>) {
        self.points[f as usize][r as usize] = p;
    }

    /// The FEN of the position: placement from rank 9 down, the side (`w` or `b`), `- - 0 1`.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for r in (0..RANKS).rev() {
            let mut gap = 0;
            for f in 0..FILES {
                match self.at(f, r) {
                    None => gap += 1,
                    Some((c, k)) => {
                        if gap > 0 {
                            s.push_str(&gap.to_string());
                            gap = 0;
                        }
                        let l = k.letter();
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
        s.push_str(if self.side == Color::White { " w - - 0 1" } else { " b - - 0 1" });
        s
    }

    /// Where the general of `c` stands, if it has one.
    pub fn general(&self, c: Color) -> Option<Point> {
        for f in 0..FILES {
            for r in 0..RANKS {
                if self.at(f, r) == Some((c, Kind::General)) {
                    return Some((f, r));
                }
            }
        }
        None
    }

    /// Whether a piece of colour `c` may end on (f, r): on the board, and empty or an enemy.
    fn free_or_enemy(&self, c: Color, f: i32, r: i32) -> bool {
        on_board(f, r)
            && match self.at(f, r) {
                None => true,
                Some((pc, _)) => pc != c,
            }
    }

    /// The points the piece on (f, r) may move to or capture on, by its movement alone (its own
    /// general's safety not considered). Empty when the point is empty.
    pub fn targets(&self, f: i32, r: i32) -> Vec<Point> {
        let Some((c, k)) = self.at(f, r) else { return Vec::new() };
        let mut out = Vec::new();
        match k {
            Kind::General => {
                for (df, dr) in ORTH {
                    let (x, y) = (f + df, r + dr);
                    if in_palace(c, x, y) && self.free_or_enemy(c, x, y) {
                        out.push((x, y));
                    }
                }
            }
            Kind::Advisor => {
                for (df, dr) in DIAG {
                    let (x, y) = (f + df, r + dr);
                    if in_palace(c, x, y) && self.free_or_enemy(c, x, y) {
                        out.push((x, y));
                    }
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAG {
                    let (eye_f, eye_r) = (f + df, r + dr);
                    let (x, y) = (f + 2 * df, r + 2 * dr);
                    if on_board(x, y) && own_half(c, y) && self.at(eye_f, eye_r).is_none() && self.free_or_enemy(c, x, y) {
                        out.push((x, y));
                    }
                }
            }
            Kind::Horse => {
                for (df, dr) in ORTH {
                    let (leg_f, leg_r) = (f + df, r + dr);
                    if !on_board(leg_f, leg_r) || self.at(leg_f, leg_r).is_some() {
                        continue;
                    }
                    // From the leg, one diagonal step further outward: on along (df, dr), and
                    // one to either side of it.
                    let (side_f, side_r) = (dr, df);
                    for s in [1, -1] {
                        let (x, y) = (leg_f + df + s * side_f, leg_r + dr + s * side_r);
                        if self.free_or_enemy(c, x, y) {
                            out.push((x, y));
                        }
                    }
                }
            }
            Kind::Chariot => {
                for (df, dr) in ORTH {
                    let (mut x, mut y) = (f + df, r + dr);
                    while on_board(x, y) {
                        match self.at(x, y) {
                            None => out.push((x, y)),
                            Some((pc, _)) => {
                                if pc != c {
                                    out.push((x, y));
                                }
                                break;
                            }
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
            Kind::Cannon => {
                for (df, dr) in ORTH {
                    // Quiet moves up to the first piece on the line.
                    let (mut x, mut y) = (f + df, r + dr);
                    while on_board(x, y) && self.at(x, y).is_none() {
                        out.push((x, y));
                        x += df;
                        y += dr;
                    }
                    if !on_board(x, y) {
                        continue;
                    }
                    // (x, y) is the screen; the first piece beyond it is taken if an enemy.
                    let (mut x, mut y) = (x + df, y + dr);
                    while on_board(x, y) && self.at(x, y).is_none() {
                        x += df;
                        y += dr;
                    }
                    if on_board(x, y) && self.at(x, y).is_some_and(|(pc, _)| pc != c) {
                        out.push((x, y));
                    }
                }
            }
            Kind::Soldier => {
                let fwd = forward(c);
                let mut steps = vec![(0, fwd)];
                if !own_half(c, r) {
                    steps.push((1, 0));
                    steps.push((-1, 0));
                }
                for (df, dr) in steps {
                    let (x, y) = (f + df, r + dr);
                    if self.free_or_enemy(c, x, y) {
                        out.push((x, y));
                    }
                }
            }
        }
        out
    }

    /// Every move of the pieces of `c` by their movement alone, whoever is to move.
    pub fn pseudo_moves_of(&self, c: Color) -> Vec<RMove> {
        let mut out = Vec::new();
        for f in 0..FILES {
            for r in 0..RANKS {
                if self.at(f, r).is_some_and(|(pc, _)| pc == c) {
                    for to in self.targets(f, r) {
                        out.push(RMove { from: (f, r), to });
                    }
                }
            }
        }
        out
    }

    /// The pseudo-legal moves of the side to move.
    pub fn pseudo_moves(&self) -> Vec<RMove> {
        self.pseudo_moves_of(self.side)
    }

    /// The position after `m` (any move of the side to move): the piece goes, whatever stood on
    /// the target is removed, and the other side is to move.
    pub fn play(&self, m: RMove) -> Board {
        let mut b = self.clone();
        let p = b.at(m.from.0, m.from.1);
        b.set(m.from.0, m.from.1, None);
        b.set(m.to.0, m.to.1, p);
        b.side = other(self.side);
        b
    }

    /// Whether the general of `c` is the target of some pseudo-legal move of the other side.
    pub fn attacked(&self, c: Color) -> bool {
        let Some(g) = self.general(c) else { return false };
        self.pseudo_moves_of(other(c)).iter().any(|m| m.to == g)
    }

    /// Whether the two generals stand on the same file with no piece between them.
    pub fn generals_face(&self) -> bool {
        let (Some(red), Some(black)) = (self.general(Color::White), self.general(Color::Black)) else { return false };
        if red.0 != black.0 {
            return false;
        }
        let (lo, hi) = (red.1.min(black.1), red.1.max(black.1));
        (lo + 1..hi).all(|r| self.at(red.0, r).is_none())
    }

    /// Whether the side to move is in check (its general attacked).
    pub fn in_check(&self) -> bool {
        self.attacked(self.side)
    }

    /// Whether a pseudo-legal move `m` is legal: after it, the mover's general is not attacked
    /// and the generals do not face each other.
    pub fn is_legal(&self, m: RMove) -> bool {
        let q = self.play(m);
        !q.attacked(self.side) && !q.generals_face()
    }

    /// The legal moves of the side to move, sorted.
    pub fn legal_moves(&self) -> Vec<RMove> {
        let mut v: Vec<RMove> = self.pseudo_moves().into_iter().filter(|&m| self.is_legal(m)).collect();
        v.sort();
        v
    }

    /// The legal moves in ICCS, sorted as text.
    pub fn legal_iccs(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().into_iter().map(RMove::iccs).collect();
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
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}

/// Reads an ICCS point (`e0`).
pub fn parse_point(s: &str) -> Option<Point> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'i').contains(&b[0]) || !b[1].is_ascii_digit() {
        return None;
    }
    Some(((b[0] - b'a') as i32, (b[1] - b'0') as i32))
}

/// Reads an ICCS move (`h2e2`).
pub fn parse_iccs(s: &str) -> Option<RMove> {
    if s.len() != 4 || !s.is_ascii() {
        return None;
    }
    Some(RMove { from: parse_point(&s[..2])?, to: parse_point(&s[2..])? })
}
