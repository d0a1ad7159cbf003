//! A small, slow, plainly written reference for the fairy rule system (`feerie::rules::fairy`),
//! written apart from the engine: an 8×8 array of squares walked with (file, rank) offsets.
//! Every piece is re-written from its definition (Popeye's manual, /tmp/fairy-semantics.md),
//! never from `piece::walk`, and every condition as it reads in words:
//!
//! * a move is legal when, after it (and after what the conditions do with it), no move of
//!   the opponent that the conditions allow leaves the mover without its king — this one
//!   test covers check under every condition (Circe RexInclusive: the king is reborn, so a
//!   capture of it that lets it be reborn leaves it on the board; AntiCirce: an illegal
//!   capture is no capture; Mars Circe: captures are made from the rebirth square);
//! * Maximummer then keeps the longest of the legal moves (it does not restrict check).
//!
//! It shares only plain data types with the engine (`Color`, `Kind`).

#![allow(dead_code)]

use feerie::piece::{Color, Kind};

/// A square as (file, rank), both 0..8.
pub type Sq = (i32, i32);

/// A condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// Circe; `true`: RexInclusive (kings are reborn too).
    Circe(bool),
    /// AntiCirce; `true`: Cheylan (a capture on the capturer's own rebirth square is
    /// illegal), `false`: Calvet (it is legal and the piece stays).
    AntiCirce(bool),
    /// Mars Circe (kings included).
    Mars,
    /// Madrasi; `true`: RexInclusive.
    Madrasi(bool),
    /// The side that must play its longest move.
    Maximummer(Color),
    /// Grid chess.
    Grid,
    /// Monochrome chess.
    Monochrome,
    /// Bichrome chess.
    Bichrome,
    /// Andernach chess.
    Andernach,
    /// Anti-Andernach chess.
    AntiAndernach,
    /// Circe Take&Make: the captured piece (not a king) is reborn by a move of its own,
    /// without capturing, from the square it was taken on; no such move, no capture.
    CirceTakeMake,
    /// AntiCirce Take&Make: the capturing piece (as it is after promoting) is reborn by a
    /// move of its own, without capturing, from where it captured, a pawn going the
    /// captured side's way; no such move, no capture (of a king too).
    AntiTakeMake,
}

/// A move: the piece on `from` ends on `to`; `victim` is the square of the captured piece;
/// `rook` the castling rook's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RMove {
    pub from: Sq,
    pub to: Sq,
    pub victim: Option<Sq>,
    pub promotion: Option<Kind>,
    pub rook: Option<Sq>,
    /// Circe Take&Make, AntiCirce Take&Make: where the reborn piece goes.
    pub rebirth: Option<Sq>,
    /// Circe Take&Make: what a pawn reborn on its last rank becomes.
    pub reborn: Option<Kind>,
}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `squares[file][rank]`.
    pub squares: [[Option<(Color, Kind)>; 8]; 8],
    pub side: Color,
    /// White king side, White queen side, Black king side, Black queen side.
    pub rights: [bool; 4],
    /// Under a rebirth rule, whether the piece of each castling square (e1, h1, a1, e8, h8,
    /// a8) counts as unmoved: nothing has left or been taken there since the diagram (which
    /// gives it to the squares of its rights), or a king or rook of its side was reborn
    /// there (Popeye). A reborn piece brings back the right of a pair whose two squares
    /// are then unmoved.
    pub unmoved: [bool; 6],
    /// The square a pawn crossed with its double step on the last move, and where it stands.
    pub ep: Option<(Sq, Sq)>,
    /// What pawns promote to.
    pub promotions: Vec<Kind>,
    pub conds: Vec<Cond>,
}

pub fn other(c: Color) -> Color {
    if c == Color::White { Color::Black } else { Color::White }
}

fn on_board((f, r): Sq) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn add(a: Sq, b: Sq) -> Sq {
    (a.0 + b.0, a.1 + b.1)
}

fn light((f, r): Sq) -> bool {
    (f + r) % 2 == 1
}

/// The eight (or four) images of a leap (a, b).
fn images(a: i32, b: i32) -> Vec<Sq> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if !v.contains(&(x * sx, y * sy)) {
                v.push((x * sx, y * sy));
            }
        }
    }
    v
}

const ORTH: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The queen directions going round the compass, each 45° from the last.
const ROUND: [Sq; 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// The knight steps going round the compass, each 45° from the last (the rose's octagon).
const KNIGHT_ROUND: [Sq; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

fn is_pawn(k: Kind) -> bool {
    matches!(k, Kind::Pawn | Kind::BerolinaPawn)
}

/// The promotion choices of a game starting from these pieces: Q, R, B, S and every fairy
/// kind on the board but the dummy and the pawns.
pub fn promotion_choices(pieces: &[(Sq, Color, Kind)]) -> Vec<Kind> {
    let mut v = vec![Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];
    for &(_, _, k) in pieces {
        if !k.is_orthodox() && !matches!(k, Kind::Dummy | Kind::BerolinaPawn) && !v.contains(&k) {
            v.push(k);
        }
    }
    v
}

/// The Circe rebirth square of a piece of `kind` and `color` captured on `s`.
pub fn rebirth(kind: Kind, color: Color, s: Sq) -> Sq {
    let home = if color == Color::White { 0 } else { 7 };
    // The home square of that kind whose colour is the capture square's colour.
    let of_same_colour = |a: i32, b: i32| if light((a, home)) == light(s) { (a, home) } else { (b, home) };
    match kind {
        Kind::King => (4, home),
        Kind::Queen => (3, home),
        Kind::Rook => of_same_colour(0, 7),
        Kind::Bishop => of_same_colour(2, 5),
        Kind::Knight => of_same_colour(1, 6),
        Kind::Pawn | Kind::BerolinaPawn => (s.0, if color == Color::White { 1 } else { 6 }),
        _ => (s.0, if color == Color::White { 7 } else { 0 }),
    }
}

impl Board {
    pub fn at(&self, s: Sq) -> Option<(Color, Kind)> {
        self.squares[s.0 as usize][s.1 as usize]
    }

    fn set(&mut self, s: Sq, p: Option<(Color, Kind)>) {
        self.squares[s.0 as usize][s.1 as usize] = p;
    }

    fn has(&self, c: Cond) -> bool {
        self.conds.contains(&c)
    }

    fn all_squares() -> impl Iterator<Item = Sq> {
        (0..8).flat_map(|f| (0..8).map(move |r| (f, r)))
    }

    fn king(&self, c: Color) -> Option<Sq> {
        Board::all_squares().find(|&s| self.at(s) == Some((c, Kind::King)))
    }

    /// The moves of a piece of walk `kind` on `s`, moved by `color` (pawns go its way), as
    /// (arrival, captured square): every occupied square it can take counts, whatever its
    /// colour (the callers look at colours).
    pub fn walk(&self, s: Sq, kind: Kind, color: Color) -> Vec<(Sq, Option<Sq>)> {
        let mut out = Vec::new();
        let empty = |t: Sq| self.at(t).is_none();
        // Lands on t: a move to an empty square or a capture.
        let land = |out: &mut Vec<(Sq, Option<Sq>)>, t: Sq| {
            if on_board(t) {
                out.push((t, if empty(t) { None } else { Some(t) }));
            }
        };
        // The first occupied square from `from` in direction d.
        let first_piece = |from: Sq, d: Sq| {
            let mut t = add(from, d);
            while on_board(t) {
                if !empty(t) {
                    return Some(t);
                }
                t = add(t, d);
            }
            None
        };
        let leaper = |out: &mut Vec<_>, steps: &[Sq]| {
            for &d in steps {
                land(out, add(s, d));
            }
        };
        // Moves along a line while empty, taking the first piece when `capture`.
        let rider = |out: &mut Vec<_>, steps: &[Sq], capture: bool| {
            for &d in steps {
                let mut t = add(s, d);
                while on_board(t) && empty(t) {
                    out.push((t, None));
                    t = add(t, d);
                }
                if capture && on_board(t) {
                    out.push((t, Some(t)));
                }
            }
        };
        // Grasshopper: over the first piece of the line to the square just behind it.
        let hopper = |out: &mut Vec<_>, steps: &[Sq]| {
            for &d in steps {
                if let Some(h) = first_piece(s, d) {
                    land(out, add(h, d));
                }
            }
        };
        // Lion: over the first piece of the line to any square behind it, up to and
        // including the next piece.
        let lion = |out: &mut Vec<_>, steps: &[Sq]| {
            for &d in steps {
                if let Some(h) = first_piece(s, d) {
                    let mut t = add(h, d);
                    while on_board(t) && empty(t) {
                        out.push((t, None));
                        t = add(t, d);
                    }
                    if on_board(t) {
                        out.push((t, Some(t)));
                    }
                }
            }
        };
        // Locust: takes the first piece of the line by jumping to the empty square behind it.
        let locust = |out: &mut Vec<_>, steps: &[Sq]| {
            for &d in steps {
                if let Some(h) = first_piece(s, d) {
                    let t = add(h, d);
                    if on_board(t) && empty(t) {
                        out.push((t, Some(h)));
                    }
                }
            }
        };
        // Pao, Vao, Leo, Nao: move as riders, capture the first piece behind one screen.
        let screen = |out: &mut Vec<_>, steps: &[Sq]| {
            for &d in steps {
                let mut t = add(s, d);
                while on_board(t) && empty(t) {
                    out.push((t, None));
                    t = add(t, d);
                }
                if on_board(t)
                    && let Some(v) = first_piece(t, d)
                {
                    out.push((v, Some(v)));
                }
            }
        };
        // Moose, eagle, sparrow: over the first piece of a queen line to the square next to
        // it, turned by `turn` × 45° to either side.
        let deflect = |out: &mut Vec<_>, turn: usize| {
            for i in 0..8 {
                if let Some(h) = first_piece(s, ROUND[i]) {
                    land(out, add(h, ROUND[(i + turn) % 8]));
                    land(out, add(h, ROUND[(i + 8 - turn) % 8]));
                }
            }
        };
        let queen: Vec<Sq> = ORTH.iter().chain(DIAG.iter()).copied().collect();
        let knight = images(1, 2);
        let fwd = if color == Color::White { 1 } else { -1 };
        let start_rank = if color == Color::White { 1 } else { 6 };
        match kind {
            Kind::King => leaper(&mut out, &queen),
            Kind::Queen => rider(&mut out, &queen, true),
            Kind::Rook => rider(&mut out, &ORTH, true),
            Kind::Bishop => rider(&mut out, &DIAG, true),
            Kind::Knight => leaper(&mut out, &knight),
            Kind::Pawn => {
                let one = (s.0, s.1 + fwd);
                if on_board(one) && empty(one) {
                    out.push((one, None));
                    let two = (s.0, s.1 + 2 * fwd);
                    if s.1 == start_rank && empty(two) {
                        out.push((two, None));
                    }
                }
                for t in [(s.0 - 1, s.1 + fwd), (s.0 + 1, s.1 + fwd)] {
                    if on_board(t) && !empty(t) {
                        out.push((t, Some(t)));
                    }
                }
            }
            Kind::BerolinaPawn => {
                for dx in [-1, 1] {
                    let one = (s.0 + dx, s.1 + fwd);
                    if on_board(one) && empty(one) {
                        out.push((one, None));
                        let two = (s.0 + 2 * dx, s.1 + 2 * fwd);
                        if s.1 == start_rank && on_board(two) && empty(two) {
                            out.push((two, None));
                        }
                    }
                }
                let t = (s.0, s.1 + fwd);
                if on_board(t) && !empty(t) {
                    out.push((t, Some(t)));
                }
            }
            Kind::Nightrider => rider(&mut out, &knight, true),
            Kind::Grasshopper => hopper(&mut out, &queen),
            Kind::Camel => leaper(&mut out, &images(1, 3)),
            Kind::Zebra => leaper(&mut out, &images(2, 3)),
            Kind::Giraffe => leaper(&mut out, &images(1, 4)),
            Kind::Amazon => {
                rider(&mut out, &queen, true);
                leaper(&mut out, &knight);
            }
            Kind::Empress => {
                rider(&mut out, &ORTH, true);
                leaper(&mut out, &knight);
            }
            Kind::Princess => {
                rider(&mut out, &DIAG, true);
                leaper(&mut out, &knight);
            }
            Kind::Leo => screen(&mut out, &queen),
            Kind::Pao => screen(&mut out, &ORTH),
            Kind::Vao => screen(&mut out, &DIAG),
            Kind::Nao => screen(&mut out, &knight),
            Kind::Mao | Kind::Moa => {
                // A knight's leap in two steps: Mao first orthogonally (towards the long
                // side), Moa first diagonally; the square stepped over must be empty.
                for &(dx, dy) in &knight {
                    let over = if kind == Kind::Moa {
                        (dx.signum(), dy.signum())
                    } else if dx.abs() == 2 {
                        (dx.signum(), 0)
                    } else {
                        (0, dy.signum())
                    };
                    if on_board(add(s, over)) && empty(add(s, over)) {
                        land(&mut out, add(s, (dx, dy)));
                    }
                }
            }
            Kind::Orphan | Kind::Dummy => {}
            Kind::Locust => locust(&mut out, &queen),
            Kind::Lion => lion(&mut out, &queen),
            Kind::RookLion => lion(&mut out, &ORTH),
            Kind::BishopLion => lion(&mut out, &DIAG),
            Kind::Rose => {
                // Knight steps, each turned by 45° from the last, all one way round; at
                // most 7 (the 8th returns home).
                for start in 0..8 {
                    for turn in [1, 7] {
                        let mut t = s;
                        for k in 0..7 {
                            t = add(t, KNIGHT_ROUND[(start + k * turn) % 8]);
                            if !on_board(t) {
                                break;
                            }
                            land(&mut out, t);
                            if !empty(t) {
                                break;
                            }
                        }
                    }
                }
            }
            Kind::Sirene => {
                rider(&mut out, &queen, false);
                locust(&mut out, &queen);
            }
            Kind::Triton => {
                rider(&mut out, &ORTH, false);
                locust(&mut out, &ORTH);
            }
            Kind::Nereide => {
                rider(&mut out, &DIAG, false);
                locust(&mut out, &DIAG);
            }
            Kind::Moose => deflect(&mut out, 1),
            Kind::Eagle => deflect(&mut out, 2),
            Kind::Sparrow => deflect(&mut out, 3),
            Kind::Equihopper => {
                // Over a piece h to the square as far behind it as h is from s; the other
                // squares of the line from s to there must be empty.
                for h in Board::all_squares() {
                    if h == s || empty(h) {
                        continue;
                    }
                    let v = (h.0 - s.0, h.1 - s.1);
                    let t = (s.0 + 2 * v.0, s.1 + 2 * v.1);
                    if !on_board(t) {
                        continue;
                    }
                    let g = gcd(v.0.abs(), v.1.abs());
                    let unit = (v.0 / g, v.1 / g);
                    if (1..2 * g).filter(|&k| k != g).all(|k| empty((s.0 + k * unit.0, s.1 + k * unit.1))) {
                        land(&mut out, t);
                    }
                }
            }
            Kind::Kangaroo => {
                for &d in &queen {
                    if let Some(h1) = first_piece(s, d)
                        && let Some(h2) = first_piece(h1, d)
                    {
                        land(&mut out, add(h2, d));
                    }
                }
            }
        }
        out
    }

    /// The walks of the orphans on the board: an orphan moves as each enemy piece that
    /// could take it, an enemy orphan with each of its walks (to the fixed point).
    fn orphan_walks(&self) -> Vec<(Sq, Vec<Kind>)> {
        let mut walks: Vec<(Sq, Vec<Kind>)> =
            Board::all_squares().filter(|&s| matches!(self.at(s), Some((_, Kind::Orphan)))).map(|s| (s, Vec::new())).collect();
        loop {
            let mut changed = false;
            for i in 0..walks.len() {
                let (s, _) = walks[i];
                let (c, _) = self.at(s).unwrap();
                for t in Board::all_squares() {
                    let Some((tc, tk)) = self.at(t) else { continue };
                    if tc == c {
                        continue;
                    }
                    let kinds = if tk == Kind::Orphan { walks.iter().find(|w| w.0 == t).unwrap().1.clone() } else { vec![tk] };
                    for k in kinds {
                        if !walks[i].1.contains(&k) && self.walk(t, k, tc).iter().any(|&(_, v)| v == Some(s)) {
                            walks[i].1.push(k);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return walks;
            }
        }
    }

    /// The walks a piece on `s` moves with.
    fn walks_of(&self, s: Sq) -> Vec<Kind> {
        match self.at(s) {
            None | Some((_, Kind::Dummy)) => vec![],
            Some((_, Kind::Orphan)) => self.orphan_walks().into_iter().find(|w| w.0 == s).unwrap().1,
            Some((_, k)) => vec![k],
        }
    }

    /// Where the piece on `s` captures from, and the board as it sees it then: its own
    /// square, or under Mars Circe its rebirth square if that is empty or its own square
    /// (`None`: it cannot capture).
    fn capture_view(&self, s: Sq) -> Option<(Board, Sq)> {
        let (c, k) = self.at(s)?;
        let r = rebirth(k, c, s);
        if !self.has(Cond::Mars) || r == s {
            return Some((self.clone(), s));
        }
        if self.at(r).is_some() {
            return None;
        }
        let mut b = self.clone();
        b.set(s, None);
        b.set(r, Some((c, k)));
        Some((b, r))
    }

    /// Whether the piece on `s` could take on `target` by its walks, as it captures (Madrasi's
    /// observation; under Mars Circe from its rebirth square).
    fn observes(&self, s: Sq, target: Sq) -> bool {
        let (c, _) = self.at(s).unwrap();
        let Some((view, o)) = self.capture_view(s) else { return false };
        // Grid, Monochrome and Bichrome forbid a capture along that line, so its observation.
        if !self.squares_allowed(o, target) {
            return false;
        }
        self.walks_of(s).into_iter().any(|k| view.walk(o, k, c).iter().any(|&(_, v)| v == Some(target)))
    }

    /// Madrasi: the piece on `s` is observed by an enemy piece of its kind.
    fn paralysed(&self, s: Sq) -> bool {
        let Some((c, k)) = self.at(s) else { return false };
        let rex = if self.has(Cond::Madrasi(true)) {
            true
        } else if self.has(Cond::Madrasi(false)) {
            false
        } else {
            return false;
        };
        if k == Kind::King && !rex {
            return false;
        }
        Board::all_squares().any(|t| self.at(t) == Some((other(c), k)) && self.observes(t, s))
    }

    /// Whether a move passes Grid, Monochrome and Bichrome.
    fn allowed(&self, m: &RMove) -> bool {
        let cell = |s: Sq| (s.0 / 2, s.1 / 2);
        if self.has(Cond::Grid) && cell(m.from) == cell(m.to) {
            return false;
        }
        let mut legs = vec![(m.from, m.to)];
        if let Some(rook) = m.rook {
            legs.push((rook, rook_to(m)));
        }
        legs.into_iter().all(|(a, b)| self.colours_allowed(a, b))
    }

    /// Whether a step from `a` to `b` passes Monochrome and Bichrome.
    fn colours_allowed(&self, a: Sq, b: Sq) -> bool {
        !(self.has(Cond::Monochrome) && light(a) != light(b) || self.has(Cond::Bichrome) && light(a) == light(b))
    }

    /// Whether a capture from `a` on `b` passes Grid, Monochrome and Bichrome.
    fn squares_allowed(&self, a: Sq, b: Sq) -> bool {
        let cell = |s: Sq| (s.0 / 2, s.1 / 2);
        !(self.has(Cond::Grid) && cell(a) == cell(b)) && self.colours_allowed(a, b)
    }

    /// The moves of side `c` before the legality test (castling only with `castling`).
    pub fn pseudo_moves(&self, c: Color, castling: bool) -> Vec<RMove> {
        let mut out: Vec<RMove> = Vec::new();
        let last_rank = if c == Color::White { 7 } else { 0 };
        for s in Board::all_squares() {
            let Some((pc, pk)) = self.at(s) else { continue };
            if pc != c || self.paralysed(s) {
                continue;
            }
            let mut push = |m: RMove| {
                if is_pawn(pk) && m.to.1 == last_rank {
                    for &k in &self.promotions {
                        out.push(RMove { promotion: Some(k), ..m });
                    }
                } else {
                    out.push(m);
                }
            };
            // Mars Circe: captures are made from the rebirth square.
            let view = self.capture_view(s);
            for k in self.walks_of(s) {
                for (to, v) in self.walk(s, k, c) {
                    if v.is_none() {
                        push(RMove { from: s, to, victim: None, promotion: None, rook: None, rebirth: None, reborn: None });
                    }
                }
                let Some((capture_board, o)) = &view else { continue };
                let o = *o;
                for (to, v) in capture_board.walk(o, k, c) {
                    if let Some(v) = v
                        && v != s
                        && capture_board.at(v).is_some_and(|(vc, _)| vc != c)
                    {
                        push(RMove { from: s, to, victim: Some(v), promotion: None, rook: None, rebirth: None, reborn: None });
                    }
                }
                // En passant: a pawn takes the pawn that crossed the square as if it stood there.
                if is_pawn(pk)
                    && let Some((e, victim)) = self.ep
                    && self.at(victim).is_some_and(|(vc, vk)| vc != c && is_pawn(vk))
                {
                    let mut shadow = capture_board.clone();
                    shadow.set(e, Some((other(c), Kind::Dummy)));
                    if shadow.walk(o, k, c).contains(&(e, Some(e))) {
                        push(RMove { from: s, to: e, victim: Some(victim), promotion: None, rook: None, rebirth: None, reborn: None });
                    }
                }
            }
        }
        if castling {
            out.extend(self.castlings(c));
        }
        out.sort();
        out.dedup();
        out.retain(|m| self.allowed(m));
        if self.has(Cond::CirceTakeMake) || self.has(Cond::AntiTakeMake) {
            out = out.iter().flat_map(|m| self.rebirth_moves(m)).collect();
        }
        out
    }

    /// Circe Take&Make and AntiCirce Take&Make: the capture `m` once per rebirth move (and
    /// per promotion of a pawn reborn on its last rank), none when there is no such move; a
    /// move that takes nothing as it is, and under Circe the capture of a king too.
    fn rebirth_moves(&self, m: &RMove) -> Vec<RMove> {
        let Some(v) = m.victim else { return vec![*m] };
        let (c, k) = self.at(m.from).unwrap();
        let (vc, vk) = self.at(v).unwrap();
        let anti = self.has(Cond::AntiTakeMake);
        if !anti && vk == Kind::King {
            return vec![*m];
        }
        // The board once the capture is made, before the rebirth.
        let mut after = self.clone();
        after.set(m.from, None);
        after.set(v, None);
        after.set(m.to, Some((c, m.promotion.unwrap_or(k))));
        // Circe: the victim moves from its square (where the capturer stands, but for en
        // passant); AntiCirce: the capturer from where it stands.
        let (from, kind) = if anti { (m.to, m.promotion.unwrap_or(k)) } else { (v, vk) };
        let last = if vc == Color::White { 7 } else { 0 };
        let mut out = Vec::new();
        for (to, x) in after.walk(from, kind, vc) {
            if x.is_some() {
                continue;
            }
            let base = RMove { rebirth: Some(to), ..*m };
            if !anti && is_pawn(vk) && to.1 == last {
                out.extend(self.promotions.iter().map(|&p| RMove { reborn: Some(p), ..base }));
            } else {
                out.push(base);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn castlings(&self, c: Color) -> Vec<RMove> {
        let mut out = Vec::new();
        let home = if c == Color::White { 0 } else { 7 };
        let king = (4, home);
        if self.at(king) != Some((c, Kind::King)) || self.paralysed(king) || self.king_capturable(c) {
            return out;
        }
        for (right, rook_file, to_file, cross_file) in [(0, 7, 6, 5), (1, 0, 2, 3)] {
            let rook = (rook_file, home);
            // Castling is the king's move: under Madrasi only the king's paralysis stops it
            // (as the engine has it; Popeye's castling is a king move too — unverified).
            if !self.rights[right + if c == Color::White { 0 } else { 2 }] || self.at(rook) != Some((c, Kind::Rook)) {
                continue;
            }
            let (lo, hi) = (rook_file.min(4) + 1, rook_file.max(4));
            if (lo..hi).any(|f| self.at((f, home)).is_some()) {
                continue;
            }
            let mut crossed = self.clone();
            crossed.set(king, None);
            crossed.set((cross_file, home), Some((c, Kind::King)));
            if crossed.king_capturable(c) {
                continue;
            }
            out.push(RMove {
                from: king,
                to: (to_file, home),
                victim: None,
                promotion: None,
                rook: Some(rook),
                rebirth: None,
                reborn: None,
            });
        }
        out
    }

    /// The castling squares, in the order of [`Board::unmoved`], with the piece that
    /// castles from each.
    pub const HOMES: [(Sq, Color, Kind); 6] = [
        ((4, 0), Color::White, Kind::King),
        ((7, 0), Color::White, Kind::Rook),
        ((0, 0), Color::White, Kind::Rook),
        ((4, 7), Color::Black, Kind::King),
        ((7, 7), Color::Black, Kind::Rook),
        ((0, 7), Color::Black, Kind::Rook),
    ];

    /// [`Board::unmoved`] as the diagram's rights give it: a rook's square with its right, a
    /// king's square with either right of its side.
    pub fn init_unmoved(&mut self) {
        let r = self.rights;
        self.unmoved = [r[0] || r[1], r[0], r[1], r[2] || r[3], r[2], r[3]];
    }

    /// Plays a move with the conditions' effects; `None` when AntiCirce forbids it.
    pub fn play(&self, m: &RMove) -> Option<Board> {
        let b = self.play_pieces(m)?;
        Some(self.reborn_rights(m, b))
    }

    /// Under a rebirth rule: the castling squares the move touched lose their unmoved
    /// piece, and a king or rook reborn on its own square makes it unmoved again, with the
    /// right of each pair whose two squares are now unmoved.
    fn reborn_rights(&self, m: &RMove, mut b: Board) -> Board {
        let rebirth =
            self.conds.iter().any(|c| matches!(c, Cond::Circe(_) | Cond::AntiCirce(_) | Cond::CirceTakeMake | Cond::AntiTakeMake));
        if !rebirth {
            return b;
        }
        for (i, &(s, _, _)) in Self::HOMES.iter().enumerate() {
            if [Some(m.from), Some(m.to), m.victim, m.rook].contains(&Some(s)) {
                b.unmoved[i] = false;
            }
        }
        for (i, &(s, c, k)) in Self::HOMES.iter().enumerate() {
            if b.at(s) == Some((c, k)) && (self.at(s) != Some((c, k)) || m.victim == Some(s)) && m.to != s {
                b.unmoved[i] = true;
                for (right, king, rook) in [(0, 0, 1), (1, 0, 2), (2, 3, 4), (3, 3, 5)] {
                    if (i == king || i == rook) && b.unmoved[king] && b.unmoved[rook] {
                        b.rights[right] = true;
                    }
                }
            }
        }
        b
    }

    /// [`Board::play`] without the rights regained by rebirth.
    fn play_pieces(&self, m: &RMove) -> Option<Board> {
        let mut b = self.clone();
        let c = self.side;
        b.ep = None;
        for s in [Some(m.from), Some(m.to), m.victim, m.rook].into_iter().flatten() {
            for (i, corner) in [(0, (7, 0)), (1, (0, 0)), (2, (7, 7)), (3, (0, 7))] {
                if s == corner || s == (4, corner.1) {
                    b.rights[i] = false;
                }
            }
        }
        b.side = other(c);
        if let Some(rook) = m.rook {
            let r = b.at(rook);
            b.set(rook, None);
            let k = b.at(m.from);
            b.set(m.from, None);
            b.set(m.to, k);
            b.set(rook_to(m), r);
            return Some(b);
        }
        let (pc, pk) = self.at(m.from).unwrap();
        let kind = m.promotion.unwrap_or(pk);
        b.set(m.from, None);
        if let Some(v) = m.victim {
            b.set(v, None);
        }
        b.set(m.to, Some((pc, kind)));
        if is_pawn(pk) && m.victim.is_none() && (m.to.1 - m.from.1).abs() == 2 {
            b.ep = Some((((m.from.0 + m.to.0) / 2, (m.from.1 + m.to.1) / 2), m.to));
        }
        let mut at = m.to; // where the moving piece is
        if let Some(v) = m.victim {
            let (vc, vk) = self.at(v).unwrap();
            if self.has(Cond::Circe(false)) && vk != Kind::King || self.has(Cond::Circe(true)) {
                let r = rebirth(vk, vc, v);
                if b.at(r).is_none() {
                    b.set(r, Some((vc, vk)));
                }
            }
            if let Some(r) = m.rebirth {
                if self.has(Cond::CirceTakeMake) {
                    b.set(r, Some((vc, m.reborn.unwrap_or(vk))));
                } else {
                    b.set(m.to, None);
                    b.set(r, Some((pc, kind)));
                    at = r;
                }
            }
            for cheylan in [false, true] {
                if self.has(Cond::AntiCirce(cheylan)) {
                    let r = rebirth(kind, pc, v);
                    if r == m.to {
                        if cheylan {
                            return None;
                        }
                    } else if b.at(r).is_some() {
                        return None;
                    } else {
                        b.set(m.to, None);
                        b.set(r, Some((pc, kind)));
                        at = r;
                    }
                }
            }
        }
        let flips = if m.victim.is_some() { self.has(Cond::Andernach) } else { self.has(Cond::AntiAndernach) };
        if flips && kind != Kind::King {
            b.set(at, Some((other(pc), kind)));
        }
        Some(b)
    }

    /// Whether the opponent (whoever is to move or not) has a move, as the conditions allow
    /// it, after which `c` has no king.
    pub fn king_capturable(&self, c: Color) -> bool {
        let mut b = self.clone();
        b.side = other(c);
        b.pseudo_moves(other(c), false)
            .iter()
            .filter(|m| m.victim.is_some())
            .any(|m| b.play(m).is_some_and(|after| after.king(c).is_none()))
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<RMove> {
        let c = self.side;
        let mut v: Vec<RMove> =
            self.pseudo_moves(c, true).into_iter().filter(|m| self.play(m).is_some_and(|after| !after.king_capturable(c))).collect();
        if self.has(Cond::Maximummer(c)) {
            // Castling: the king's two steps and the rook's steps (2 or 3) as one line.
            let len = |m: &RMove| match m.rook {
                Some(r) => (2 + ((m.from.0 + m.to.0) / 2 - r.0).abs()).pow(2),
                None => (m.to.0 - m.from.0).pow(2) + (m.to.1 - m.from.1).pow(2),
            };
            let best = v.iter().map(len).max().unwrap_or(0);
            v.retain(|m| len(m) == best);
        }
        v
    }

    /// Leaf count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves().iter().map(|m| self.play(m).unwrap().perft(depth - 1)).sum()
    }
}

/// Where the castling rook ends: the square the king crosses.
fn rook_to(m: &RMove) -> Sq {
    ((m.from.0 + m.to.0) / 2, m.from.1)
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a } else { gcd(b, a % b) }
}
