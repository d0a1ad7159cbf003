//! A small, slow, obviously-correct reference move generator for the chess rule system, written
//! apart from the engine: a mailbox of 8×8 squares walked with (file, rank) offsets, no tables,
//! no bitboards. Every piece is re-written from its meaning (Popeye's manual and the rules in
//! `../shared/rules/`), and legality is "play the move on a copy, then is my king attacked?",
//! answered by generating every enemy move by brute force.
//!
//! It shares only plain data types with the engine (`Color`, `Kind`, `Square`, `Move`), so that
//! the two move sets can be compared as they are.

#![allow(dead_code)]

use feerie::geometry::Square;
use feerie::piece::{Color, Kind};
use feerie::position::{Move, Position};

/// Castling right indices: White king side, White queen side, Black king side, Black queen side.
pub const WK: usize = 0;
/// White queen side.
pub const WQ: usize = 1;
/// Black king side.
pub const BK: usize = 2;
/// Black queen side.
pub const BQ: usize = 3;

/// The engine's limit on pieces of one kind in a reserve (keeps its hash keys finite); a
/// move into a full reserve is not offered.
pub const MAX_RESERVE: u8 = 31;

/// A position of the reference generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `squares[file][rank]`.
    pub squares: [[Option<(Color, Kind)>; 8]; 8],
    /// Side to move.
    pub side: Color,
    /// Castling rights, indexed by [`WK`], [`WQ`], [`BK`], [`BQ`].
    pub rights: [bool; 4],
    /// The square a pawn crossed with a double step on the last move, as (file, rank).
    pub ep: Option<(i32, i32)>,
    /// Reserve counts per colour and kind (index = `Kind as usize`).
    pub reserves: [[u8; 19]; 2],
    /// Whether White / Black may make Réserve moves.
    pub reserve_white: bool,
    /// See `reserve_white`.
    pub reserve_black: bool,
    /// Whether moves into reserve are offered.
    pub puts: bool,
    /// What a pawn may promote to.
    pub promotions: Vec<Kind>,
}

/// An empty reference board.
pub fn empty() -> Board {
    Board {
        squares: [[None; 8]; 8],
        side: Color::White,
        rights: [false; 4],
        ep: None,
        reserves: [[0; 19]; 2],
        reserve_white: false,
        reserve_black: false,
        puts: true,
        promotions: vec![],
    }
}

fn sq(f: i32, r: i32) -> Square {
    Square((r * 8 + f) as u8)
}

fn fr(s: Square) -> (i32, i32) {
    ((s.0 % 8) as i32, (s.0 / 8) as i32)
}

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn other(c: Color) -> Color {
    if c == Color::White { Color::Black } else { Color::White }
}

/// The fairy kinds (everything but K Q R B S P).
pub fn is_fairy(k: Kind) -> bool {
    !matches!(k, Kind::King | Kind::Queen | Kind::Rook | Kind::Bishop | Kind::Knight | Kind::Pawn)
}

/// The promotion choices of a game that starts with this board: queen, rook, bishop, knight and
/// every fairy kind present on the board or in a reserve.
pub fn promotion_choices(b: &Board) -> Vec<Kind> {
    let mut v = vec![Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];
    for &k in Kind::CHESS {
        let on_board = b.squares.iter().flatten().any(|p| matches!(p, Some((_, kk)) if *kk == k));
        let in_reserve = b.reserves[0][k as usize] + b.reserves[1][k as usize] > 0;
        if is_fairy(k) && (on_board || in_reserve) {
            v.push(k);
        }
    }
    v
}

/// Reads the engine's position into a reference board (its state only: pieces, side, rights,
/// en passant, reserves, the Réserve condition). `promotions` must come from the start of the
/// game ([`promotion_choices`]).
pub fn from_engine(p: &Position, promotions: Vec<Kind>) -> Board {
    let mut b = empty();
    for f in 0..8 {
        for r in 0..8 {
            b.squares[f as usize][r as usize] = p.piece_at(sq(f, r)).map(|x| (x.color, x.kind));
        }
    }
    b.side = p.side_to_move();
    let c = p.castling();
    b.rights = [c & 1 != 0, c & 2 != 0, c & 4 != 0, c & 8 != 0];
    b.ep = p.ep_square().map(fr);
    for color in [Color::White, Color::Black] {
        for &k in Kind::CHESS {
            b.reserves[color as usize][k as usize] = p.reserve_count(color, k);
        }
    }
    b.reserve_white = p.reserve_rule().white;
    b.reserve_black = p.reserve_rule().black;
    b.puts = p.puts_enabled();
    b.promotions = promotions;
    b
}

impl Board {
    /// The piece at (f, r).
    pub fn at(&self, f: i32, r: i32) -> Option<(Color, Kind)> {
        self.squares[f as usize][r as usize]
    }

    fn set(&mut self, f: i32, r: i32, p: Option<(Color, Kind)>) {
        self.squares[f as usize][r as usize] = p;
    }

    fn king_square(&self, c: Color) -> Option<(i32, i32)> {
        for f in 0..8 {
            for r in 0..8 {
                if self.at(f, r) == Some((c, Kind::King)) {
                    return Some((f, r));
                }
            }
        }
        None
    }

    fn reserve_allowed(&self, c: Color) -> bool {
        if c == Color::White { self.reserve_white } else { self.reserve_black }
    }

    /// Targets of a non-pawn piece of kind `k` and colour `c` on (f, r): squares it may move
    /// to (empty) or capture on (enemy piece). Pawns are handled apart.
    fn piece_targets(&self, f: i32, r: i32, c: Color, k: Kind) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let queen: Vec<(i32, i32)> = orth.iter().chain(diag.iter()).copied().collect();
        let knight = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
        // Everything with (a, b) and (b, a), all signs.
        let eight = |a: i32, b: i32| -> Vec<(i32, i32)> {
            let mut v = Vec::new();
            for (x, y) in [(a, b), (b, a)] {
                for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    if !v.contains(&(x * sx, y * sy)) {
                        v.push((x * sx, y * sy));
                    }
                }
            }
            v
        };
        let free_or_enemy = |x: i32, y: i32| -> bool {
            match self.at(x, y) {
                None => true,
                Some((pc, _)) => pc != c,
            }
        };
        let leap = |out: &mut Vec<(i32, i32)>, dirs: &[(i32, i32)]| {
            for &(dx, dy) in dirs {
                let (x, y) = (f + dx, r + dy);
                if on_board(x, y) && free_or_enemy(x, y) {
                    out.push((x, y));
                }
            }
        };
        let ride = |out: &mut Vec<(i32, i32)>, dirs: &[(i32, i32)]| {
            for &(dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
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
                    x += dx;
                    y += dy;
                }
            }
        };
        // Hopper: over the first piece on the line, to the square right behind it.
        let hop = |out: &mut Vec<(i32, i32)>, dirs: &[(i32, i32)]| {
            for &(dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
                while on_board(x, y) && self.at(x, y).is_none() {
                    x += dx;
                    y += dy;
                }
                if on_board(x, y) {
                    let (lx, ly) = (x + dx, y + dy);
                    if on_board(lx, ly) && free_or_enemy(lx, ly) {
                        out.push((lx, ly));
                    }
                }
            }
        };
        // Cannon-like: moves as a rider without capturing; captures by jumping exactly one
        // screen to the first piece beyond it, if that piece is an enemy.
        let cannon = |out: &mut Vec<(i32, i32)>, dirs: &[(i32, i32)]| {
            for &(dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
                while on_board(x, y) && self.at(x, y).is_none() {
                    out.push((x, y));
                    x += dx;
                    y += dy;
                }
                if !on_board(x, y) {
                    continue;
                }
                // (x, y) is the screen; look beyond it.
                let (mut x, mut y) = (x + dx, y + dy);
                while on_board(x, y) && self.at(x, y).is_none() {
                    x += dx;
                    y += dy;
                }
                if on_board(x, y) && free_or_enemy(x, y) {
                    out.push((x, y));
                }
            }
        };
        match k {
            Kind::King => leap(&mut out, &queen),
            Kind::Queen => ride(&mut out, &queen),
            Kind::Rook => ride(&mut out, &orth),
            Kind::Bishop => ride(&mut out, &diag),
            Kind::Knight => leap(&mut out, &knight),
            Kind::Nightrider => ride(&mut out, &knight),
            Kind::Grasshopper => hop(&mut out, &queen),
            Kind::Camel => leap(&mut out, &eight(1, 3)),
            Kind::Zebra => leap(&mut out, &eight(2, 3)),
            Kind::Giraffe => leap(&mut out, &eight(1, 4)),
            Kind::Amazon => {
                ride(&mut out, &queen);
                leap(&mut out, &knight);
            }
            Kind::Empress => {
                ride(&mut out, &orth);
                leap(&mut out, &knight);
            }
            Kind::Princess => {
                ride(&mut out, &diag);
                leap(&mut out, &knight);
            }
            Kind::Leo => cannon(&mut out, &queen),
            Kind::Pao => cannon(&mut out, &orth),
            Kind::Vao => cannon(&mut out, &diag),
            Kind::Mao => {
                // One orthogonal step (which must be empty), then one diagonal step outward.
                for (dx, dy) in orth {
                    let (mx, my) = (f + dx, r + dy);
                    if !on_board(mx, my) || self.at(mx, my).is_some() {
                        continue;
                    }
                    let (px, py) = (dy, dx); // perpendicular
                    for s in [1, -1] {
                        let (x, y) = (mx + dx + s * px, my + dy + s * py);
                        if on_board(x, y) && free_or_enemy(x, y) {
                            out.push((x, y));
                        }
                    }
                }
            }
            Kind::Moa => {
                // One diagonal step (which must be empty), then one orthogonal step outward.
                for (dx, dy) in diag {
                    let (mx, my) = (f + dx, r + dy);
                    if !on_board(mx, my) || self.at(mx, my).is_some() {
                        continue;
                    }
                    for (x, y) in [(mx + dx, my), (mx, my + dy)] {
                        if on_board(x, y) && free_or_enemy(x, y) {
                            out.push((x, y));
                        }
                    }
                }
            }
            Kind::Pawn => unreachable!("pawns are generated apart"),
            k => panic!("{k:?} is played by the fairy rules, never by a chess position"),
        }
        out
    }

    /// Whether any piece of colour `by` could capture on (f, r) (which holds a piece of the
    /// other side), by brute force over every piece of `by`.
    pub fn attacked(&self, f: i32, r: i32, by: Color) -> bool {
        for x in 0..8 {
            for y in 0..8 {
                let Some((c, k)) = self.at(x, y) else { continue };
                if c != by {
                    continue;
                }
                if k == Kind::Pawn {
                    let dir = if by == Color::White { 1 } else { -1 };
                    if y + dir == r && (x - f).abs() == 1 {
                        return true;
                    }
                } else if self.piece_targets(x, y, c, k).contains(&(f, r)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the king of `c` is attacked (false without a king).
    pub fn king_attacked(&self, c: Color) -> bool {
        match self.king_square(c) {
            Some((f, r)) => self.attacked(f, r, other(c)),
            None => false,
        }
    }

    /// Every move of the side to move that obeys the movement rules, before the king test.
    pub fn pseudo_moves(&self) -> Vec<Move> {
        let us = self.side;
        let mut out = Vec::new();
        let (dir, start_rank, last_rank, first_rank) = if us == Color::White { (1, 1, 7, 0) } else { (-1, 6, 0, 7) };
        for f in 0..8 {
            for r in 0..8 {
                let Some((c, k)) = self.at(f, r) else { continue };
                if c != us {
                    continue;
                }
                let from = sq(f, r);
                if k == Kind::Pawn {
                    let mut targets = Vec::new();
                    if on_board(f, r + dir) && self.at(f, r + dir).is_none() {
                        targets.push((f, r + dir));
                        if r == start_rank && self.at(f, r + 2 * dir).is_none() {
                            targets.push((f, r + 2 * dir));
                        }
                    }
                    for df in [-1, 1] {
                        let (x, y) = (f + df, r + dir);
                        if on_board(x, y) && matches!(self.at(x, y), Some((pc, _)) if pc != us) {
                            targets.push((x, y));
                        }
                        if self.ep == Some((x, y)) && self.at(x, y).is_none() && self.at(x, r) == Some((other(us), Kind::Pawn)) {
                            out.push(Move::EnPassant { from, to: sq(x, y) });
                        }
                    }
                    for (x, y) in targets {
                        if y == last_rank {
                            for &p in &self.promotions {
                                out.push(Move::Normal { from, to: sq(x, y), promotion: Some(p) });
                            }
                        } else {
                            out.push(Move::Normal { from, to: sq(x, y), promotion: None });
                        }
                    }
                } else {
                    for (x, y) in self.piece_targets(f, r, c, k) {
                        out.push(Move::Normal { from, to: sq(x, y), promotion: None });
                    }
                }
                // Réserve: any piece but the king may go into its reserve.
                if self.reserve_allowed(us) && self.puts && k != Kind::King && self.reserves[us as usize][k as usize] < MAX_RESERVE {
                    out.push(Move::Put { from });
                }
            }
        }
        // Réserve: parachute drops onto empty squares.
        if self.reserve_allowed(us) {
            for &k in Kind::CHESS {
                if self.reserves[us as usize][k as usize] == 0 {
                    continue;
                }
                for f in 0..8 {
                    for r in 0..8 {
                        if self.at(f, r).is_some() {
                            continue;
                        }
                        let to = sq(f, r);
                        if k == Kind::Pawn {
                            if r == first_rank {
                                continue;
                            }
                            if r == last_rank {
                                for &p in &self.promotions {
                                    out.push(Move::Drop { kind: k, to, promotion: Some(p) });
                                }
                                continue;
                            }
                        }
                        out.push(Move::Drop { kind: k, to, promotion: None });
                    }
                }
            }
        }
        // Castling.
        let home = if us == Color::White { 0 } else { 7 };
        for (right, rook_file) in [(if us == Color::White { WK } else { BK }, 7), (if us == Color::White { WQ } else { BQ }, 0)] {
            if !self.rights[right] {
                continue;
            }
            if self.at(4, home) != Some((us, Kind::King)) || self.at(rook_file, home) != Some((us, Kind::Rook)) {
                continue;
            }
            let (lo, hi) = if rook_file > 4 { (5, 7) } else { (1, 4) };
            if (lo..hi).any(|x| self.at(x, home).is_some()) {
                continue;
            }
            // Not out of check, not across an attacked square (the king standing there).
            if self.attacked(4, home, other(us)) {
                continue;
            }
            let cross = if rook_file > 4 { 5 } else { 3 };
            let mut crossing = self.clone();
            crossing.set(4, home, None);
            crossing.set(cross, home, Some((us, Kind::King)));
            if crossing.attacked(cross, home, other(us)) {
                continue;
            }
            // Landing on an attacked square is caught by the general king test.
            out.push(Move::Castle { king: sq(4, home), rook: sq(rook_file, home) });
        }
        out
    }

    /// The position after `m`.
    pub fn play(&self, m: Move) -> Board {
        let mut b = self.clone();
        let us = self.side;
        b.ep = None;
        let touch = |b: &mut Board, f: i32, r: i32| {
            // A king or rook leaving (or a piece taken on) a home square loses castling rights.
            match (f, r) {
                (4, 0) => {
                    b.rights[WK] = false;
                    b.rights[WQ] = false;
                }
                (7, 0) => b.rights[WK] = false,
                (0, 0) => b.rights[WQ] = false,
                (4, 7) => {
                    b.rights[BK] = false;
                    b.rights[BQ] = false;
                }
                (7, 7) => b.rights[BK] = false,
                (0, 7) => b.rights[BQ] = false,
                _ => {}
            }
        };
        match m {
            Move::Normal { from, to, promotion } => {
                let (ff, fr_) = fr(from);
                let (tf, tr) = fr(to);
                let (c, k) = self.at(ff, fr_).expect("a piece on the departure square");
                b.set(ff, fr_, None);
                b.set(tf, tr, Some((c, promotion.unwrap_or(k))));
                touch(&mut b, ff, fr_);
                touch(&mut b, tf, tr);
                if k == Kind::Pawn && (tr - fr_).abs() == 2 {
                    b.ep = Some((ff, (tr + fr_) / 2));
                }
            }
            Move::EnPassant { from, to } => {
                let (ff, fr_) = fr(from);
                let (tf, tr) = fr(to);
                b.set(ff, fr_, None);
                b.set(tf, fr_, None);
                b.set(tf, tr, Some((us, Kind::Pawn)));
            }
            Move::Castle { king, rook } => {
                let (kf, r) = fr(king);
                let (rf, _) = fr(rook);
                let (kt, rt) = if rf > kf { (kf + 2, kf + 1) } else { (kf - 2, kf - 1) };
                b.set(kf, r, None);
                b.set(rf, r, None);
                b.set(kt, r, Some((us, Kind::King)));
                b.set(rt, r, Some((us, Kind::Rook)));
                touch(&mut b, kf, r);
            }
            Move::Put { from } => {
                let (f, r) = fr(from);
                let (_, k) = self.at(f, r).expect("a piece to put into reserve");
                b.set(f, r, None);
                b.reserves[us as usize][k as usize] += 1;
                touch(&mut b, f, r);
            }
            Move::Drop { kind, to, promotion } => {
                let (f, r) = fr(to);
                b.reserves[us as usize][kind as usize] -= 1;
                b.set(f, r, Some((us, promotion.unwrap_or(kind))));
            }
        }
        b.side = other(us);
        b
    }

    /// The legal moves: those after which the mover's king is not attacked.
    pub fn legal_moves(&self) -> Vec<Move> {
        let us = self.side;
        let mut v: Vec<Move> = self.pseudo_moves().into_iter().filter(|&m| !self.play(m).king_attacked(us)).collect();
        v.sort();
        v
    }

    /// Whether the en-passant square can be used by a pawn of the side to move (the engine
    /// keeps it only then).
    pub fn ep_usable(&self) -> bool {
        let Some((f, r)) = self.ep else { return false };
        let dir = if self.side == Color::White { 1 } else { -1 };
        [-1, 1].iter().any(|df| on_board(f + df, r - dir) && self.at(f + df, r - dir) == Some((self.side, Kind::Pawn)))
    }

    /// Perft by brute force.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves().iter().map(|&m| if depth == 1 { 1 } else { self.play(m).perft(depth - 1) }).sum()
    }
}
