//! Piece kinds described as data.
//!
//! A kind's movement is a list of [`Component`]s — leaps, rides, hops, lame leaps and screen
//! captures — that any board [`Shape`] can evaluate, so fairy pieces need no code of their own.
//! Pawns (and later draughts men) are the only kinds whose moves the rule systems write by hand.
//!
//! ```
//! use feerie::piece::Kind;
//! assert_eq!(Kind::from_code("CA"), Some(Kind::Camel));
//! assert_eq!(Kind::Knight.code(), "S");
//! assert_eq!(Kind::from_code("s"), Some(Kind::Knight));
//! ```

use crate::geometry::{Bitboard, Shape, Square};
use serde::{Deserialize, Serialize};

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// White (Red in Xiangqi); moves up the board.
    White = 0,
    /// Black; moves down the board.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
    /// The English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// Which lines a line-moving component uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// Files and ranks.
    Orthogonal,
    /// Diagonals.
    Diagonal,
    /// Both (queen lines).
    Both,
}

impl Lines {
    /// The unit steps of these lines.
    pub const fn steps(self) -> &'static [(i8, i8)] {
        const ORTH: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const DIAG: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        const BOTH: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
        match self {
            Lines::Orthogonal => &ORTH,
            Lines::Diagonal => &DIAG,
            Lines::Both => &BOTH,
        }
    }
}

/// One way of moving. A kind's moves are the union of its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component {
    /// An (a, b) leaper: jumps to each of the 8 images of (a, b), over anything.
    Leap(i8, i8),
    /// An (a, b) rider: repeats the leap in one direction while the squares are empty.
    Ride(i8, i8),
    /// A hopper on the given lines (grasshopper): needs a hurdle, lands just behind it.
    Hop(Lines),
    /// A lame leaper: jumps by (a, b) only when the square at `via` (same signs) is empty.
    /// `via_long` picks the orthogonal step toward the long side (Mao, Xiangqi horse);
    /// otherwise the diagonal step (Moa) or, for (2, 2), the midpoint (Xiangqi elephant).
    Lame {
        /// Leap, first coordinate.
        a: i8,
        /// Leap, second coordinate.
        b: i8,
        /// Whether the blocking square is the orthogonal neighbour on the long side.
        via_long: bool,
    },
    /// A screen capturer (Xiangqi cannon, Pao, Vao, Leo): moves as a rider on its lines
    /// without capturing, captures the first piece beyond exactly one screen.
    Screen(Lines),
    /// A screen capturer on the lines of an (a, b) rider (the Nao on nightrider lines).
    ScreenRide(i8, i8),
    /// A lion-type hopper: over one hurdle at any distance, to any square beyond it up to
    /// the next piece (which it may capture).
    LongHop(Lines),
    /// A locust-type capture: over the first piece on a line, which is captured, to the square
    /// just behind it, which must be empty. No move without capture.
    Locust(Lines),
    /// A rider's moves without capture (the non-captures of the marine pieces).
    QuietRide(Lines),
    /// The rose: a knight rider on the octagons of knight steps turning by 45° each step.
    Rose,
    /// A grasshopper whose landing is turned after the hurdle by 45° (1: moose), 90° (2:
    /// eagle) or 135° (3: sparrow), to either side.
    Deflect(Lines, u8),
    /// The equihopper: over a hurdle to the square symmetric to its start, on any line, the
    /// other squares of the line between start and landing empty.
    Equihop,
    /// The kangaroo: over two hurdles on queen lines, to the square just behind the second.
    Kangaroo,
}

/// The eight images of a leap (a, b), without repeats (four for a (a, 0) or (a, a) leap), in a
/// fixed-capacity list: the fairy move generator calls this for every piece it moves, and a
/// `Vec` here was an allocation per piece and node.
pub fn images(a: i8, b: i8) -> arrayvec::ArrayVec<(i8, i8), 8> {
    let mut v = arrayvec::ArrayVec::new();
    for &(x, y) in &[(a, b), (b, a)] {
        for sx in [1i8, -1] {
            for sy in [1i8, -1] {
                let d = (x * sx, y * sy);
                if !v.contains(&d) {
                    v.push(d);
                }
            }
        }
    }
    v
}

/// Squares a set of components reaches from `from`, given the occupied squares: `quiet`
/// are the candidate targets of non-capturing moves (they must still be empty), `capture`
/// the candidate targets of captures (they must still hold an enemy piece).
pub fn reach<S: Shape>(components: &[Component], from: Square, occupied: S::BB) -> (S::BB, S::BB) {
    let mut quiet = S::BB::EMPTY;
    let mut capture = S::BB::EMPTY;
    let (f, r) = (from.file::<S>() as i32, from.rank::<S>() as i32);
    let occ = |s: Square| occupied.has(s.0);
    for c in components {
        match *c {
            Component::Leap(a, b) => {
                for (dx, dy) in images(a, b) {
                    if let Some(t) = S::square_at(f + dx as i32, r + dy as i32) {
                        quiet |= S::BB::bit(t.0);
                        capture |= S::BB::bit(t.0);
                    }
                }
            }
            Component::Ride(a, b) => {
                for (dx, dy) in images(a, b) {
                    let (mut x, mut y) = (f, r);
                    loop {
                        x += dx as i32;
                        y += dy as i32;
                        let Some(t) = S::square_at(x, y) else { break };
                        quiet |= S::BB::bit(t.0);
                        capture |= S::BB::bit(t.0);
                        if occ(t) {
                            break;
                        }
                    }
                }
            }
            Component::Hop(lines) => {
                for &(dx, dy) in lines.steps() {
                    let (mut x, mut y) = (f, r);
                    loop {
                        x += dx as i32;
                        y += dy as i32;
                        let Some(t) = S::square_at(x, y) else { break };
                        if occ(t) {
                            if let Some(l) = S::square_at(x + dx as i32, y + dy as i32) {
                                quiet |= S::BB::bit(l.0);
                                capture |= S::BB::bit(l.0);
                            }
                            break;
                        }
                    }
                }
            }
            Component::Lame { a, b, via_long } => {
                for (dx, dy) in images(a, b) {
                    let (vx, vy) = if via_long {
                        if dx.abs() > dy.abs() { (dx.signum(), 0) } else { (0, dy.signum()) }
                    } else {
                        (dx.signum(), dy.signum())
                    };
                    let Some(v) = S::square_at(f + vx as i32, r + vy as i32) else { continue };
                    if occ(v) {
                        continue;
                    }
                    if let Some(t) = S::square_at(f + dx as i32, r + dy as i32) {
                        quiet |= S::BB::bit(t.0);
                        capture |= S::BB::bit(t.0);
                    }
                }
            }
            Component::Screen(lines) => {
                for &(dx, dy) in lines.steps() {
                    let (mut x, mut y) = (f, r);
                    let mut screened = false;
                    loop {
                        x += dx as i32;
                        y += dy as i32;
                        let Some(t) = S::square_at(x, y) else { break };
                        if !screened {
                            if occ(t) {
                                screened = true;
                            } else {
                                quiet |= S::BB::bit(t.0);
                            }
                        } else if occ(t) {
                            capture |= S::BB::bit(t.0);
                            break;
                        }
                    }
                }
            }
            other => walk::<S>(&[other], from, occupied, S::BB::EMPTY, &mut |to, victim| match victim {
                None => quiet |= S::BB::bit(to.0),
                Some(v) => capture |= S::BB::bit(v.0),
            }),
        }
    }
    (quiet, capture)
}

/// The 8 knight steps in turning order (each 45° from the last): the rose's octagon.
pub(crate) const ROSE_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Every move a set of components gives from `from`: `visit(to, None)` for a move to the
/// empty square `to`, `visit(to, Some(victim))` for a capture of whatever stands on `victim`
/// ending on `to` (the same square, but for the locust captures). The caller checks the
/// victim's colour. `holes` are squares off the board: nothing enters, crosses or hops over
/// them. A square may be visited more than once (the rose reaches some squares both ways
/// round).
pub fn walk<S: Shape>(
    components: &[Component],
    from: Square,
    occupied: S::BB,
    holes: S::BB,
    visit: &mut impl FnMut(Square, Option<Square>),
) {
    let (f, r) = (from.file::<S>() as i32, from.rank::<S>() as i32);
    let at = |x: i32, y: i32| S::square_at(x, y).filter(|t| !holes.has(t.0));
    let occ = |s: Square| occupied.has(s.0);
    let land = |t: Square, visit: &mut dyn FnMut(Square, Option<Square>)| {
        if occ(t) { visit(t, Some(t)) } else { visit(t, None) }
    };
    for c in components {
        match *c {
            Component::Leap(a, b) => {
                for (dx, dy) in images(a, b) {
                    if let Some(t) = at(f + dx as i32, r + dy as i32) {
                        land(t, visit);
                    }
                }
            }
            Component::Ride(a, b) => {
                for (dx, dy) in images(a, b) {
                    ride_line(f, r, dx as i32, dy as i32, &at, &occ, visit);
                }
            }
            Component::QuietRide(lines) => {
                for &(dx, dy) in lines.steps() {
                    let (mut x, mut y) = (f + dx as i32, r + dy as i32);
                    while let Some(t) = at(x, y) {
                        if occ(t) {
                            break;
                        }
                        visit(t, None);
                        x += dx as i32;
                        y += dy as i32;
                    }
                }
            }
            Component::Hop(lines) => {
                for &(dx, dy) in lines.steps() {
                    if let Some((hx, hy)) = first_piece(f, r, dx as i32, dy as i32, &at, &occ)
                        && let Some(t) = at(hx + dx as i32, hy + dy as i32)
                    {
                        land(t, visit);
                    }
                }
            }
            Component::Lame { a, b, via_long } => {
                for (dx, dy) in images(a, b) {
                    let (vx, vy) = if via_long {
                        if dx.abs() > dy.abs() { (dx.signum(), 0) } else { (0, dy.signum()) }
                    } else {
                        (dx.signum(), dy.signum())
                    };
                    match at(f + vx as i32, r + vy as i32) {
                        Some(v) if !occ(v) => {}
                        _ => continue,
                    }
                    if let Some(t) = at(f + dx as i32, r + dy as i32) {
                        land(t, visit);
                    }
                }
            }
            Component::Screen(lines) => {
                for &(dx, dy) in lines.steps() {
                    screen_line(f, r, dx as i32, dy as i32, &at, &occ, visit);
                }
            }
            Component::ScreenRide(a, b) => {
                for (dx, dy) in images(a, b) {
                    screen_line(f, r, dx as i32, dy as i32, &at, &occ, visit);
                }
            }
            Component::LongHop(lines) => {
                for &(dx, dy) in lines.steps() {
                    let Some((hx, hy)) = first_piece(f, r, dx as i32, dy as i32, &at, &occ) else { continue };
                    ride_line(hx, hy, dx as i32, dy as i32, &at, &occ, visit);
                }
            }
            Component::Locust(lines) => {
                for &(dx, dy) in lines.steps() {
                    let Some((hx, hy)) = first_piece(f, r, dx as i32, dy as i32, &at, &occ) else { continue };
                    if let (Some(v), Some(t)) = (at(hx, hy), at(hx + dx as i32, hy + dy as i32))
                        && !occ(t)
                    {
                        visit(t, Some(v));
                    }
                }
            }
            Component::Rose => {
                for start in 0..8 {
                    for turn in [1usize, 7] {
                        let (mut x, mut y) = (f, r);
                        for k in 0..7 {
                            let (dx, dy) = ROSE_STEPS[(start + k * turn) % 8];
                            x += dx as i32;
                            y += dy as i32;
                            let Some(t) = at(x, y) else { break };
                            land(t, visit);
                            if occ(t) {
                                break;
                            }
                        }
                    }
                }
            }
            Component::Deflect(lines, angle) => {
                for &(dx, dy) in lines.steps() {
                    let Some((hx, hy)) = first_piece(f, r, dx as i32, dy as i32, &at, &occ) else { continue };
                    let i = QUEEN_TURN.iter().position(|&d| d == (dx, dy)).unwrap_or(0);
                    for j in [(i + angle as usize) % 8, (i + 8 - angle as usize) % 8] {
                        let (ex, ey) = QUEEN_TURN[j];
                        if let Some(t) = at(hx + ex as i32, hy + ey as i32) {
                            land(t, visit);
                        }
                    }
                }
            }
            Component::Equihop => {
                let mut o = occupied;
                while let Some(h) = o.pop() {
                    let h = Square(h);
                    let (vx, vy) = (h.file::<S>() as i32 - f, h.rank::<S>() as i32 - r);
                    if (vx, vy) == (0, 0) {
                        continue;
                    }
                    let Some(t) = at(f + 2 * vx, r + 2 * vy) else { continue };
                    let g = gcd(vx.unsigned_abs(), vy.unsigned_abs()) as i32;
                    let (ux, uy) = (vx / g, vy / g);
                    let clear = (1..2 * g).filter(|&k| k != g).all(|k| match at(f + k * ux, r + k * uy) {
                        Some(s) => !occ(s),
                        None => false,
                    });
                    if clear {
                        land(t, visit);
                    }
                }
            }
            Component::Kangaroo => {
                for &(dx, dy) in Lines::Both.steps() {
                    let Some((hx, hy)) = first_piece(f, r, dx as i32, dy as i32, &at, &occ) else { continue };
                    let Some((gx, gy)) = first_piece(hx, hy, dx as i32, dy as i32, &at, &occ) else { continue };
                    if let Some(t) = at(gx + dx as i32, gy + dy as i32) {
                        land(t, visit);
                    }
                }
            }
        }
    }
}

/// The queen steps in turning order (each 45° from the last), for the deflecting hoppers.
const QUEEN_TURN: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The first occupied square from (f, r) in direction (dx, dy), as coordinates; `None` when
/// the line ends (edge or hole) first.
fn first_piece(
    f: i32,
    r: i32,
    dx: i32,
    dy: i32,
    at: &impl Fn(i32, i32) -> Option<Square>,
    occ: &impl Fn(Square) -> bool,
) -> Option<(i32, i32)> {
    let (mut x, mut y) = (f + dx, r + dy);
    while let Some(t) = at(x, y) {
        if occ(t) {
            return Some((x, y));
        }
        x += dx;
        y += dy;
    }
    None
}

/// A rider's line from (f, r), the start left out: each empty square, then the first piece
/// (a capture), then stop.
fn ride_line(
    f: i32,
    r: i32,
    dx: i32,
    dy: i32,
    at: &impl Fn(i32, i32) -> Option<Square>,
    occ: &impl Fn(Square) -> bool,
    visit: &mut impl FnMut(Square, Option<Square>),
) {
    let (mut x, mut y) = (f + dx, r + dy);
    while let Some(t) = at(x, y) {
        if occ(t) {
            visit(t, Some(t));
            break;
        }
        visit(t, None);
        x += dx;
        y += dy;
    }
}

/// A screen piece's line: quiet moves up to the screen, the first piece beyond it captured.
fn screen_line(
    f: i32,
    r: i32,
    dx: i32,
    dy: i32,
    at: &impl Fn(i32, i32) -> Option<Square>,
    occ: &impl Fn(Square) -> bool,
    visit: &mut impl FnMut(Square, Option<Square>),
) {
    let (mut x, mut y) = (f + dx, r + dy);
    let mut screened = false;
    while let Some(t) = at(x, y) {
        if !screened {
            if occ(t) {
                screened = true;
            } else {
                visit(t, None);
            }
        } else if occ(t) {
            visit(t, Some(t));
            break;
        }
        x += dx;
        y += dy;
    }
}

macro_rules! kinds {
    ($( $(#[$doc:meta])* $name:ident = $code:literal, $fr:literal, $de:literal, [$($comp:expr),*] ;)*) => {
        /// The piece kinds of the chess rule system (orthodox and fairy).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Kind { $( $(#[$doc])* $name, )* }

        impl Kind {
            /// Every kind, in index order.
            pub const ALL: &'static [Kind] = &[ $( Kind::$name, )* ];
            /// Number of kinds.
            pub const COUNT: usize = Kind::ALL.len();
            /// Popeye's English code (`S` is the knight).
            pub fn code(self) -> &'static str { match self { $( Kind::$name => $code, )* } }
            /// The French code.
            pub fn code_fr(self) -> &'static str { match self { $( Kind::$name => $fr, )* } }
            /// The German code.
            pub fn code_de(self) -> &'static str { match self { $( Kind::$name => $de, )* } }
            /// The movement data (empty for the pawn, whose moves the rules write).
            pub const fn components(self) -> &'static [Component] {
                match self { $( Kind::$name => &[$($comp),*], )* }
            }
        }
    };
}

use Component::*;
kinds! {
    /// King (royal).
    King = "K", "R", "K", [Leap(1, 0), Leap(1, 1)];
    /// Queen.
    Queen = "Q", "D", "D", [Ride(1, 0), Ride(1, 1)];
    /// Rook.
    Rook = "R", "T", "T", [Ride(1, 0)];
    /// Bishop.
    Bishop = "B", "F", "L", [Ride(1, 1)];
    /// Knight (`S` in Popeye's codes).
    Knight = "S", "C", "S", [Leap(1, 2)];
    /// Pawn.
    Pawn = "P", "P", "B", [];
    /// Nightrider: a (1,2) rider.
    Nightrider = "N", "N", "N", [Ride(1, 2)];
    /// Grasshopper: hops on queen lines.
    Grasshopper = "G", "S", "G", [Hop(Lines::Both)];
    /// Camel: a (1,3) leaper.
    Camel = "CA", "CA", "CA", [Leap(1, 3)];
    /// Zebra: a (2,3) leaper.
    Zebra = "Z", "Z", "Z", [Leap(2, 3)];
    /// Giraffe: a (1,4) leaper.
    Giraffe = "GI", "GI", "GI", [Leap(1, 4)];
    /// Amazon: queen + knight.
    Amazon = "AM", "AM", "AM", [Ride(1, 0), Ride(1, 1), Leap(1, 2)];
    /// Empress: rook + knight.
    Empress = "EM", "IM", "KN", [Ride(1, 0), Leap(1, 2)];
    /// Princess: bishop + knight.
    Princess = "PR", "PR", "PR", [Ride(1, 1), Leap(1, 2)];
    /// Leo: screen capturer on queen lines.
    Leo = "LE", "LE", "LE", [Screen(Lines::Both)];
    /// Pao: screen capturer on files and ranks (the Xiangqi cannon on 8×8).
    Pao = "PA", "PA", "PA", [Screen(Lines::Orthogonal)];
    /// Vao: screen capturer on diagonals.
    Vao = "VA", "VA", "VA", [Screen(Lines::Diagonal)];
    /// Mao: the Xiangqi horse on 8×8, orthogonal step then diagonal.
    Mao = "MA", "MA", "MA", [Lame { a: 1, b: 2, via_long: true }];
    /// Moa: diagonal step then orthogonal.
    Moa = "MO", "MO", "MO", [Lame { a: 1, b: 2, via_long: false }];
    /// Orphan: no move of its own; moves as the enemy pieces that attack it (the fairy
    /// rules compute it).
    Orphan = "O", "O", "O", [];
    /// Berolina pawn: moves diagonally forward, captures straight forward (the fairy rules
    /// write its moves).
    BerolinaPawn = "BP", "PB", "BB", [];
    /// Dummy: never moves; it can be captured.
    Dummy = "DU", "PI", "DU", [];
    /// Locust: captures by hopping over its victim on queen lines; no other move.
    Locust = "L", "L", "H", [Locust(Lines::Both)];
    /// Lion: a long hopper on queen lines.
    Lion = "LI", "LI", "LI", [LongHop(Lines::Both)];
    /// Rook-lion: a long hopper on files and ranks.
    RookLion = "RL", "TL", "TL", [LongHop(Lines::Orthogonal)];
    /// Bishop-lion: a long hopper on diagonals.
    BishopLion = "BL", "FL", "LL", [LongHop(Lines::Diagonal)];
    /// Rose: a circular knight rider.
    Rose = "RO", "RO", "RO", [Rose];
    /// Sirene: moves as a queen without capturing, captures as a locust (marine queen).
    Sirene = "SI", "SI", "SI", [QuietRide(Lines::Both), Locust(Lines::Both)];
    /// Triton: moves as a rook without capturing, captures as a rook-locust.
    Triton = "TR", "TR", "TR", [QuietRide(Lines::Orthogonal), Locust(Lines::Orthogonal)];
    /// Nereide: moves as a bishop without capturing, captures as a bishop-locust.
    Nereide = "ND", "NE", "ND", [QuietRide(Lines::Diagonal), Locust(Lines::Diagonal)];
    /// Moose: a grasshopper turned by 45° after its hurdle.
    Moose = "M", "E", "EL", [Deflect(Lines::Both, 1)];
    /// Eagle: a grasshopper turned by 90° after its hurdle.
    Eagle = "EA", "AI", "AD", [Deflect(Lines::Both, 2)];
    /// Sparrow: a grasshopper turned by 135° after its hurdle.
    Sparrow = "SW", "M", "SP", [Deflect(Lines::Both, 3)];
    /// Equihopper: hops to the square symmetric to its start about the hurdle.
    Equihopper = "EQ", "EQ", "EQ", [Equihop];
    /// Kangaroo: hops over two hurdles on queen lines.
    Kangaroo = "KA", "KA", "KA", [Kangaroo];
    /// Nao: a screen capturer on nightrider lines.
    Nao = "NA", "NA", "NA", [ScreenRide(1, 2)];
}

impl Kind {
    /// The kind for a Popeye code in English (case-insensitive), also accepting the French
    /// and German letters of the orthodox pieces where they do not clash.
    pub fn from_code(code: &str) -> Option<Kind> {
        let up = code.trim().to_ascii_uppercase();
        Kind::ALL.iter().copied().find(|k| k.code() == up)
    }

    /// The kind for a code in a given language (`en`, `fr`, `de`).
    pub fn from_code_in(code: &str, lang: Lang) -> Option<Kind> {
        let up = code.trim().to_ascii_uppercase();
        Kind::ALL.iter().copied().find(|k| k.code_in(lang) == up)
    }

    /// The code in a given language.
    pub fn code_in(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.code(),
            Lang::Fr => self.code_fr(),
            Lang::De => self.code_de(),
        }
    }

    /// The kinds the chess rule system plays ([`crate::position::Position`]: the orthodox
    /// six and the first fairy pieces); the others (orphan, locust, lion, …) are played by
    /// the fairy rule system, [`crate::rules::fairy`].
    pub const CHESS: &'static [Kind] = &[
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
        Kind::Nightrider,
        Kind::Grasshopper,
        Kind::Camel,
        Kind::Zebra,
        Kind::Giraffe,
        Kind::Amazon,
        Kind::Empress,
        Kind::Princess,
        Kind::Leo,
        Kind::Pao,
        Kind::Vao,
        Kind::Mao,
        Kind::Moa,
    ];
    /// Number of [`Kind::CHESS`] kinds.
    pub const CHESS_COUNT: usize = Kind::CHESS.len();

    /// Whether the chess rule system plays this kind (see [`Kind::CHESS`]).
    #[inline(always)]
    pub fn in_chess(self) -> bool {
        (self as usize) < Kind::CHESS_COUNT
    }

    /// Whether this kind is one of the six orthodox kinds.
    pub fn is_orthodox(self) -> bool {
        (self as u8) <= Kind::Pawn as u8
    }

    /// Index for tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index.
    #[inline(always)]
    pub fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }
}

/// Language of piece letters and words in notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Lang {
    /// English (Popeye's default): K Q R B S P.
    #[default]
    En,
    /// French: R D T F C P.
    Fr,
    /// German: K D T L S B.
    De,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::De];
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Chess8x8, Xiangqi9x10};

    fn sq(n: &str) -> Square {
        Square::parse::<Chess8x8>(n).unwrap()
    }

    #[test]
    fn codes_round_trip() {
        for &k in Kind::ALL {
            assert_eq!(Kind::from_code(k.code()), Some(k));
            for lang in [Lang::En, Lang::Fr, Lang::De] {
                assert_eq!(Kind::from_code_in(k.code_in(lang), lang), Some(k), "{k:?} {lang:?}");
            }
        }
    }

    #[test]
    fn leapers_from_a_corner() {
        let (q, _) = reach::<Chess8x8>(Kind::Camel.components(), sq("a1"), 0);
        assert_eq!(q.count_ones(), 2); // b4, d2
        let (q, _) = reach::<Chess8x8>(Kind::Knight.components(), sq("d4"), 0);
        assert_eq!(q.count_ones(), 8);
        let (q, _) = reach::<Chess8x8>(Kind::Giraffe.components(), sq("a1"), 0);
        assert_eq!(q.count_ones(), 2); // b5, e2
    }

    #[test]
    fn grasshopper_needs_a_hurdle() {
        let occ = sq("d6").bb::<u64>() | sq("f4").bb::<u64>();
        let (q, _) = reach::<Chess8x8>(Kind::Grasshopper.components(), sq("d4"), occ);
        assert_eq!(q, sq("d7").bb::<u64>() | sq("g4").bb::<u64>());
    }

    #[test]
    fn screen_pieces_capture_beyond_one_screen() {
        let occ = sq("a3").bb::<u64>() | sq("a6").bb::<u64>() | sq("a8").bb::<u64>();
        let (q, c) = reach::<Chess8x8>(Kind::Pao.components(), sq("a1"), occ);
        assert_eq!(c, sq("a6").bb::<u64>());
        assert!(q.has(sq("a2").0) && !q.has(sq("a4").0) && q.has(sq("h1").0));
    }

    #[test]
    fn mao_and_moa_are_lame() {
        // Mao on d4 with d5 blocked cannot reach c6 and e6.
        let (q, _) = reach::<Chess8x8>(Kind::Mao.components(), sq("d4"), sq("d5").bb::<u64>());
        assert_eq!(q.count_ones(), 6);
        assert!(!q.has(sq("c6").0) && !q.has(sq("e6").0));
        // Moa on d4 with e5 blocked cannot reach e6 and f5.
        let (q, _) = reach::<Chess8x8>(Kind::Moa.components(), sq("d4"), sq("e5").bb::<u64>());
        assert_eq!(q.count_ones(), 6);
        assert!(!q.has(sq("e6").0) && !q.has(sq("f5").0));
    }

    #[test]
    fn components_work_on_the_xiangqi_board() {
        let e0 = Square::parse::<Xiangqi9x10>("e0").unwrap();
        let (q, _) = reach::<Xiangqi9x10>(Kind::Rook.components(), e0, 0u128);
        assert_eq!(q.count_ones(), 8 + 9);
        let elephant = [Component::Lame { a: 2, b: 2, via_long: false }];
        let c0 = Square::parse::<Xiangqi9x10>("c0").unwrap();
        let (q, _) = reach::<Xiangqi9x10>(&elephant, c0, 0u128);
        assert_eq!(q.count_ones(), 2);
    }
}
