//! The chess rule system: orthodox chess with fairy pieces and the Échecs Réserve moves.
//!
//! Move generation is legal by construction (checkers, check mask, pins) whenever the
//! opponent has only orthodox pieces, since then pins are reliable; when the opponent has
//! fairy pieces (a grasshopper's hurdle or a pao's screen may be the piece that moves), moves
//! are generated pseudo-legally and each is tested by playing it (make-then-test).
//!
//! ```
//! use feerie::position::Position;
//! let p = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
//! assert_eq!(p.legal_moves().len(), 20);
//! assert_eq!(p.perft(3), 8902);
//! ```

use crate::geometry::{Chess8x8, Square, Squares};
use crate::piece::{Color, Kind, Piece, reach};
use crate::position::{MAX_MOVES, MAX_RESERVE, Move, Position, ZOBRIST, castle, castle_squares};
use arrayvec::ArrayVec;
use std::sync::LazyLock;

/// A list of moves with a fixed capacity (no allocation in the search).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    knight: [u64; 64],
    king: [u64; 64],
    pawn: [[u64; 64]; 2],
    leap: [[u64; 64]; Kind::COUNT],
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    attacks: Vec<u64>,
    between: Vec<[u64; 64]>,
    line: Vec<[u64; 64]>,
    castle_mask: [u8; 64],
}

fn slide(s: u8, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut b = 0;
    let (f, r) = ((s % 8) as i32, (s / 8) as i32);
    for &(dx, dy) in dirs {
        let (mut x, mut y) = (f + dx, r + dy);
        while (0..8).contains(&x) && (0..8).contains(&y) {
            let t = (y * 8 + x) as u8;
            b |= 1u64 << t;
            if occ & (1u64 << t) != 0 {
                break;
            }
            x += dx;
            y += dy;
        }
    }
    b
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn leap_table(a: i32, b: i32) -> [u64; 64] {
    let mut t = [0u64; 64];
    for (s, slot) in t.iter_mut().enumerate() {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        for &(x, y) in &[(a, b), (b, a)] {
            for sx in [1, -1] {
                for sy in [1, -1] {
                    let (nf, nr) = (f + x * sx, r + y * sy);
                    if (0..8).contains(&nf) && (0..8).contains(&nr) {
                        *slot |= 1u64 << (nr * 8 + nf);
                    }
                }
            }
        }
    }
    t
}

fn find_magics(dirs: &[(i32, i32)], attacks: &mut Vec<u64>, rng: &mut u64) -> Vec<Magic> {
    let mut out = Vec::with_capacity(64);
    for s in 0..64u8 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        // Relevant occupancy: the rays without their last square.
        let mut mask = 0u64;
        for &(dx, dy) in dirs {
            let (mut x, mut y) = (f + dx, r + dy);
            while (0..8).contains(&(x + dx)) && (0..8).contains(&(y + dy)) {
                mask |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
        }
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let mut occs = Vec::with_capacity(size);
        let mut refs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            refs.push(slide(s, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let offset = attacks.len();
        attacks.resize(offset + size, 0);
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        loop {
            let magic = next_rand(rng) & next_rand(rng) & next_rand(rng);
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let shift = 64 - bits;
            let mut ok = true;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    attacks[offset + idx] = refs[i];
                } else if attacks[offset + idx] != refs[i] {
                    ok = false;
                    break;
                }
            }
            if ok {
                out.push(Magic { mask, magic, shift, offset });
                break;
            }
        }
    }
    out
}

fn next_rand(s: &mut u64) -> u64 {
    // xorshift64*
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

static TABLES: LazyLock<Box<Tables>> = LazyLock::new(|| {
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    let mut attacks = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut attacks, &mut rng);
    let bishop = find_magics(&BISHOP_DIRS, &mut attacks, &mut rng);
    let mut pawn = [[0u64; 64]; 2];
    for s in 0..64usize {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        for df in [-1, 1] {
            if (0..8).contains(&(f + df)) {
                if r < 7 {
                    pawn[0][s] |= 1u64 << ((r + 1) * 8 + f + df);
                }
                if r > 0 {
                    pawn[1][s] |= 1u64 << ((r - 1) * 8 + f + df);
                }
            }
        }
    }
    let mut leap = [[0u64; 64]; Kind::COUNT];
    leap[Kind::Camel as usize] = leap_table(1, 3);
    leap[Kind::Zebra as usize] = leap_table(2, 3);
    leap[Kind::Giraffe as usize] = leap_table(1, 4);
    let mut between = vec![[0u64; 64]; 64];
    let mut line = vec![[0u64; 64]; 64];
    for a in 0..64u8 {
        for &(dx, dy) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
            let ray = slide(a, 0, &[(dx, dy)]);
            let full = ray | slide(a, 0, &[(-dx, -dy)]) | (1u64 << a);
            for b in Squares(ray) {
                line[a as usize][b.index()] = full;
                between[a as usize][b.index()] = ray & slide(b.0, 0, &[(-dx, -dy)]);
            }
        }
    }
    let mut castle_mask = [0u8; 64];
    castle_mask[4] = castle::WK | castle::WQ;
    castle_mask[0] = castle::WQ;
    castle_mask[7] = castle::WK;
    castle_mask[60] = castle::BK | castle::BQ;
    castle_mask[56] = castle::BQ;
    castle_mask[63] = castle::BK;
    Box::new(Tables {
        knight: leap_table(1, 2),
        king: {
            let a = leap_table(1, 0);
            let b = leap_table(1, 1);
            let mut k = [0u64; 64];
            for i in 0..64 {
                k[i] = a[i] | b[i];
            }
            k
        },
        pawn,
        leap,
        rook,
        bishop,
        attacks,
        between,
        line,
        castle_mask,
    })
});

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

/// Rook attacks from `s` given the occupied squares.
#[inline(always)]
pub fn rook_attacks(s: Square, occ: u64) -> u64 {
    let t = tables();
    let m = &t.rook[s.index()];
    t.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Bishop attacks from `s` given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(s: Square, occ: u64) -> u64 {
    let t = tables();
    let m = &t.bishop[s.index()];
    t.attacks[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
}

/// Squares a pawn of colour `c` on `s` attacks.
#[inline(always)]
pub fn pawn_attacks(c: Color, s: Square) -> u64 {
    tables().pawn[c.index()][s.index()]
}

/// Knight attacks.
#[inline(always)]
pub fn knight_attacks(s: Square) -> u64 {
    tables().knight[s.index()]
}

/// King attacks.
#[inline(always)]
pub fn king_attacks(s: Square) -> u64 {
    tables().king[s.index()]
}

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

impl Position {
    /// (quiet, capture) target candidates of a non-pawn piece of kind `k` on `s`.
    #[inline(always)]
    fn piece_reach(&self, k: Kind, s: Square, occ: u64) -> (u64, u64) {
        let t = tables();
        let a = match k {
            Kind::Knight => t.knight[s.index()],
            Kind::Bishop => bishop_attacks(s, occ),
            Kind::Rook => rook_attacks(s, occ),
            Kind::Queen => bishop_attacks(s, occ) | rook_attacks(s, occ),
            Kind::King => t.king[s.index()],
            Kind::Amazon => bishop_attacks(s, occ) | rook_attacks(s, occ) | t.knight[s.index()],
            Kind::Empress => rook_attacks(s, occ) | t.knight[s.index()],
            Kind::Princess => bishop_attacks(s, occ) | t.knight[s.index()],
            Kind::Camel | Kind::Zebra | Kind::Giraffe => t.leap[k.index()][s.index()],
            Kind::Pawn => 0,
            _ => return reach::<Chess8x8>(k.components(), s, occ),
        };
        (a, a)
    }

    /// Whether square `s` is attacked by a piece of colour `by`, with `occ` as the occupied
    /// squares (pass a modified set to ask "after this piece has gone").
    pub fn attacked_by(&self, s: Square, by: Color, occ: u64) -> bool {
        let t = tables();
        let them = self.by_color[by.index()] & occ;
        let k = &self.by_kind;
        if t.pawn[by.opponent().index()][s.index()] & them & k[Kind::Pawn as usize] != 0 {
            return true;
        }
        let knights = k[Kind::Knight as usize] | k[Kind::Amazon as usize] | k[Kind::Empress as usize] | k[Kind::Princess as usize];
        if t.knight[s.index()] & them & knights != 0 {
            return true;
        }
        if t.king[s.index()] & them & k[Kind::King as usize] != 0 {
            return true;
        }
        let rq = k[Kind::Rook as usize] | k[Kind::Queen as usize] | k[Kind::Amazon as usize] | k[Kind::Empress as usize];
        if rook_attacks(s, occ) & them & rq != 0 {
            return true;
        }
        let bq = k[Kind::Bishop as usize] | k[Kind::Queen as usize] | k[Kind::Amazon as usize] | k[Kind::Princess as usize];
        if bishop_attacks(s, occ) & them & bq != 0 {
            return true;
        }
        let fairy = them & self.fairy;
        if fairy != 0 {
            for kind in [Kind::Camel, Kind::Zebra, Kind::Giraffe] {
                if t.leap[kind.index()][s.index()] & them & k[kind.index()] != 0 {
                    return true;
                }
            }
            let generic = fairy
                & !(k[Kind::Camel as usize]
                    | k[Kind::Zebra as usize]
                    | k[Kind::Giraffe as usize]
                    | k[Kind::Amazon as usize]
                    | k[Kind::Empress as usize]
                    | k[Kind::Princess as usize]);
            for from in Squares(generic) {
                if let Some(p) = self.mailbox[from.index()] {
                    let (_, cap) = reach::<Chess8x8>(p.kind.components(), from, occ);
                    if cap & (1u64 << s.0) != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the king of `c` is attacked (false when `c` has no king).
    #[inline]
    pub fn king_attacked(&self, c: Color) -> bool {
        match self.king(c) {
            Some(k) => self.attacked_by(k, c.opponent(), self.occupied()),
            None => false,
        }
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Pieces of colour `by` giving check to the king on `ksq` (orthodox attackers only;
    /// used on the fast path, where the attacker has no fairy pieces).
    fn checkers(&self, ksq: Square, by: Color) -> u64 {
        let t = tables();
        let them = self.by_color[by.index()];
        let k = &self.by_kind;
        let occ = self.occupied();
        (t.pawn[by.opponent().index()][ksq.index()] & k[Kind::Pawn as usize]
            | t.knight[ksq.index()] & k[Kind::Knight as usize]
            | rook_attacks(ksq, occ) & (k[Kind::Rook as usize] | k[Kind::Queen as usize])
            | bishop_attacks(ksq, occ) & (k[Kind::Bishop as usize] | k[Kind::Queen as usize]))
            & them
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.generate(&mut out);
        out
    }

    /// Appends the legal moves to `out`.
    pub fn generate(&self, out: &mut MoveList) {
        let them = self.side.opponent();
        if self.fairy & self.by_color[them.index()] != 0 || self.king(self.side).is_none() {
            // Make-then-test.
            let mut pseudo = MoveList::new();
            self.gen_inner(&mut pseudo, false);
            let us = self.side;
            for m in pseudo {
                if !self.play(m).king_attacked(us) {
                    out.push(m);
                }
            }
        } else {
            self.gen_inner(out, true);
        }
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // Cheap first try: a king step or a quiet move on the fast path.
        !self.legal_moves().is_empty()
    }

    fn push_pawn_moves(&self, out: &mut MoveList, from: Square, targets: u64, promo_rank: u64) {
        for to in Squares(targets) {
            if (1u64 << to.0) & promo_rank != 0 {
                for k in self.promotion_kinds() {
                    out.push(Move::Normal { from, to, promotion: Some(k) });
                }
            } else {
                out.push(Move::Normal { from, to, promotion: None });
            }
        }
    }

    fn gen_inner(&self, out: &mut MoveList, legal: bool) {
        let t = tables();
        let us = self.side;
        let them = us.opponent();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let ksq = self.king(us);
        let (checkers, pinned, pin_rays, check_mask) = match (legal, ksq) {
            (true, Some(k)) => {
                let checkers = self.checkers(k, them);
                let mut pinned = 0u64;
                // The squares from the king to each pinner, pinner included: a pinned piece
                // must stay there (the full line is not enough: a grasshopper or a pao can
                // jump over its pinner).
                let mut pin_rays = 0u64;
                let kk = &self.by_kind;
                let snipers = (rook_attacks(k, 0) & (kk[Kind::Rook as usize] | kk[Kind::Queen as usize])
                    | bishop_attacks(k, 0) & (kk[Kind::Bishop as usize] | kk[Kind::Queen as usize]))
                    & enemy;
                for s in Squares(snipers) {
                    let b = t.between[k.index()][s.index()] & occ;
                    if b.count_ones() == 1 && b & own != 0 {
                        pinned |= b;
                        pin_rays |= t.between[k.index()][s.index()] | (1u64 << s.0);
                    }
                }
                let mask = match checkers.count_ones() {
                    0 => !0u64,
                    1 => checkers | t.between[k.index()][checkers.trailing_zeros() as usize],
                    _ => 0,
                };
                (checkers, pinned, pin_rays, mask)
            }
            _ => (0, 0, 0, !0u64),
        };
        let pin_ok = |from: Square, targets: u64| -> u64 {
            if pinned & (1u64 << from.0) != 0 {
                // ksq is Some whenever pinned is non-zero.
                targets & t.line[ksq.map_or(0, |k| k.index())][from.index()] & pin_rays
            } else {
                targets
            }
        };

        if check_mask != 0 {
            // Pieces other than pawns and the king.
            let others = own & !self.by_kind[Kind::Pawn as usize] & !self.by_kind[Kind::King as usize];
            for from in Squares(others) {
                let kind = match self.mailbox[from.index()] {
                    Some(p) => p.kind,
                    None => continue,
                };
                let (quiet, cap) = self.piece_reach(kind, from, occ);
                let targets = pin_ok(from, ((quiet & !occ) | (cap & enemy)) & check_mask);
                for to in Squares(targets) {
                    out.push(Move::Normal { from, to, promotion: None });
                }
            }
            // Pawns.
            let (up, start_rank, promo_rank): (i32, u64, u64) = match us {
                Color::White => (8, 0xFF00, RANK_8),
                Color::Black => (-8, 0xFF << 48, RANK_1),
            };
            for from in Squares(self.pieces(us, Kind::Pawn)) {
                let mut targets = t.pawn[us.index()][from.index()] & enemy;
                let one = (from.0 as i32 + up) as u8;
                if one < 64 && occ & (1u64 << one) == 0 {
                    targets |= 1u64 << one;
                    if (1u64 << from.0) & start_rank != 0 {
                        let two = (one as i32 + up) as u8;
                        if occ & (1u64 << two) == 0 {
                            targets |= 1u64 << two;
                        }
                    }
                }
                let targets = pin_ok(from, targets & check_mask);
                self.push_pawn_moves(out, from, targets, promo_rank);
                if let Some(ep) = self.ep
                    && t.pawn[us.index()][from.index()] & (1u64 << ep.0) != 0
                {
                    let m = Move::EnPassant { from, to: ep };
                    if !legal || !self.play(m).king_attacked(us) {
                        out.push(m);
                    }
                }
            }
        }

        // King.
        if let Some(k) = ksq {
            let targets = t.king[k.index()] & !own;
            let occ_wo = occ & !(1u64 << k.0);
            for to in Squares(targets) {
                if !legal || !self.attacked_by(to, them, occ_wo) {
                    out.push(Move::Normal { from: k, to, promotion: None });
                }
            }
            // Castling.
            let rights = self.castling
                & match us {
                    Color::White => castle::WK | castle::WQ,
                    Color::Black => castle::BK | castle::BQ,
                };
            if rights != 0 && checkers == 0 && (legal || !self.attacked_by(k, them, occ)) {
                let base = if us == Color::White { 0u8 } else { 56 };
                for (bit, rook_file) in [(castle::WK | castle::BK, 7u8), (castle::WQ | castle::BQ, 0u8)] {
                    if rights & bit == 0 {
                        continue;
                    }
                    let rook = Square(base + rook_file);
                    if t.between[k.index()][rook.index()] & occ != 0 {
                        continue;
                    }
                    let (kto, cross) = castle_squares(k, rook);
                    // The king may not cross or land on an attacked square; test with the
                    // king stepped onto each square in turn (hurdles matter for hoppers).
                    let base_occ = occ & !(1u64 << k.0);
                    if self.attacked_by(cross, them, base_occ | (1u64 << cross.0)) {
                        continue;
                    }
                    if legal && self.attacked_by(kto, them, (base_occ | (1u64 << kto.0)) & !(1u64 << rook.0) | (1u64 << cross.0)) {
                        continue;
                    }
                    out.push(Move::Castle { king: k, rook });
                }
            }
        }

        // Échecs Réserve.
        if self.reserve_rule.allows(us) {
            if check_mask != 0 {
                let empty = !occ & check_mask;
                let (first_rank, promo_rank) = match us {
                    Color::White => (RANK_1, RANK_8),
                    Color::Black => (RANK_8, RANK_1),
                };
                for &kind in Kind::ALL {
                    if self.reserves[us.index()][kind.index()] == 0 {
                        continue;
                    }
                    if kind == Kind::Pawn {
                        for to in Squares(empty & !first_rank) {
                            if (1u64 << to.0) & promo_rank != 0 {
                                for p in self.promotion_kinds() {
                                    out.push(Move::Drop { kind, to, promotion: Some(p) });
                                }
                            } else {
                                out.push(Move::Drop { kind, to, promotion: None });
                            }
                        }
                    } else {
                        for to in Squares(empty) {
                            out.push(Move::Drop { kind, to, promotion: None });
                        }
                    }
                }
            }
            if checkers == 0 && self.puts {
                let movable = own & !self.by_kind[Kind::King as usize] & !pinned;
                for from in Squares(movable) {
                    let kind = self.mailbox[from.index()].map_or(Kind::Pawn, |p| p.kind);
                    if self.reserves[us.index()][kind.index()] < MAX_RESERVE {
                        out.push(Move::Put { from });
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn reserve_change(&mut self, c: Color, k: Kind, delta: i8) {
        let z = &*ZOBRIST;
        let slot = &mut self.reserves[c.index()][k.index()];
        let old = *slot as usize;
        if old > 0 {
            self.hash ^= z.reserve[c.index()][k.index()][old];
        }
        *slot = (*slot as i8 + delta) as u8;
        let new = *slot as usize;
        if new > 0 {
            self.hash ^= z.reserve[c.index()][k.index()][new];
        }
    }

    /// The position after `m` (copy-make). `m` must be a legal move of this position.
    pub fn play(&self, m: Move) -> Position {
        let mut p = *self;
        let z = &*ZOBRIST;
        let us = self.side;
        let t = tables();
        p.hash ^= z.castling[p.castling as usize];
        if let Some(ep) = p.ep.take() {
            p.hash ^= z.ep[(ep.0 % 8) as usize];
        }
        p.halfmove = p.halfmove.saturating_add(1);
        match m {
            Move::Normal { from, to, promotion } => {
                let piece = p.remove_piece(from).unwrap_or(Piece::new(us, Kind::Pawn));
                if p.remove_piece(to).is_some() || piece.kind == Kind::Pawn {
                    p.halfmove = 0;
                }
                p.put_piece(to, Piece::new(us, promotion.unwrap_or(piece.kind)));
                p.castling &= !(t.castle_mask[from.index()] | t.castle_mask[to.index()]);
                if piece.kind == Kind::Pawn && (to.0 as i32 - from.0 as i32).abs() == 16 {
                    p.ep = Some(Square((from.0 + to.0) / 2));
                }
            }
            Move::EnPassant { from, to } => {
                p.remove_piece(from);
                let victim = if us == Color::White { to.0 - 8 } else { to.0 + 8 };
                p.remove_piece(Square(victim));
                p.put_piece(to, Piece::new(us, Kind::Pawn));
                p.halfmove = 0;
            }
            Move::Castle { king, rook } => {
                let (kto, rto) = castle_squares(king, rook);
                p.remove_piece(king);
                p.remove_piece(rook);
                p.put_piece(kto, Piece::new(us, Kind::King));
                p.put_piece(rto, Piece::new(us, Kind::Rook));
                p.castling &= !t.castle_mask[king.index()];
            }
            Move::Put { from } => {
                if let Some(piece) = p.remove_piece(from) {
                    p.reserve_change(us, piece.kind, 1);
                }
                p.castling &= !t.castle_mask[from.index()];
            }
            Move::Drop { kind, to, promotion } => {
                p.reserve_change(us, kind, -1);
                p.put_piece(to, Piece::new(us, promotion.unwrap_or(kind)));
            }
        }
        p.side = us.opponent();
        p.hash ^= z.side;
        if us == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        p.hash ^= z.castling[p.castling as usize];
        if p.ep.is_some() {
            p.normalize_ep();
            if let Some(ep) = p.ep {
                p.hash ^= z.ep[(ep.0 % 8) as usize];
            }
        }
        p
    }

    /// Whether legal move `m` gives check, computed without playing it when only
    /// orthodox pieces are on the board (played and tested otherwise).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.king(us.opponent()) else { return false };
        if self.fairy != 0 {
            return self.play(m).in_check();
        }
        match m {
            Move::Normal { from, to, promotion } => {
                let Some(piece) = self.mailbox[from.index()] else { return false };
                let kind = promotion.unwrap_or(piece.kind);
                let occ = (self.occupied() & !(1u64 << from.0)) | (1u64 << to.0);
                let kb = 1u64 << ksq.0;
                let direct = match kind {
                    Kind::Pawn => pawn_attacks(us, to) & kb != 0,
                    Kind::Knight => knight_attacks(to) & kb != 0,
                    Kind::King => false,
                    k => self.piece_reach(k, to, occ).1 & kb != 0,
                };
                if direct {
                    return true;
                }
                let own = self.by_color[us.index()] & !(1u64 << from.0) & !(1u64 << to.0);
                let k = &self.by_kind;
                let rq = (k[Kind::Rook as usize] | k[Kind::Queen as usize]) & own;
                let bq = (k[Kind::Bishop as usize] | k[Kind::Queen as usize]) & own;
                (rook_attacks(ksq, occ) & rq) | (bishop_attacks(ksq, occ) & bq) != 0
            }
            _ => self.play(m).in_check(),
        }
    }

    /// The same position with the other side to move and no en-passant square (a null
    /// move, used for double stalemate and set play).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        let z = &*ZOBRIST;
        if let Some(ep) = p.ep.take() {
            p.hash ^= z.ep[(ep.0 % 8) as usize];
        }
        p.side = p.side.opponent();
        p.hash ^= z.side;
        p
    }

    /// Number of leaf nodes at `depth` (bulk-counted at the last ply).
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn perft(fen: &str, d: u32) -> u64 {
        Position::from_fen(fen).unwrap().perft(d)
    }

    #[test]
    fn start_position_depth_3() {
        assert_eq!(perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3), 8902);
    }

    #[test]
    fn kiwipete_depth_2() {
        assert_eq!(perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2), 2039);
    }

    #[test]
    fn hash_stays_equal_to_scratch() {
        let p = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        for m in p.legal_moves() {
            let q = p.play(m);
            assert_eq!(q.hash(), q.compute_hash(), "{m:?}");
            for m2 in q.legal_moves() {
                let r = q.play(m2);
                assert_eq!(r.hash(), r.compute_hash(), "{m:?} {m2:?}");
            }
        }
    }

    #[test]
    fn pinned_hoppers_cannot_jump_over_their_pinner() {
        // The pao on b5 is pinned by the queen on b6; capturing on b8 over it would leave
        // the b-file open to the king on b1. The same for a grasshopper hopping over b6.
        for fen in ["1n4r1/8/1q6/1(PA)6/8/8/8/1K2k3 w - - 0 1", "8/8/1q6/1(G)6/8/8/8/1K2k3 w - - 0 1"] {
            let p = Position::from_fen(fen).unwrap();
            let moves = p.legal_moves();
            assert!(!moves.iter().any(|m| m.from() == Some(Square(33)) && m.to().is_some_and(|t| t.0 > 41)), "{fen}: {moves:?}");
        }
        // Along the pin line up to the pinner, the pao still moves: b2, b3, b4.
        let p = Position::from_fen("8/8/1q6/1(PA)6/8/8/8/1K2k3 w - - 0 1").unwrap();
        assert_eq!(p.legal_moves().iter().filter(|m| m.from() == Some(Square(33))).count(), 3);
    }

    #[test]
    fn reserve_worked_example() {
        // Black to move, a pawn in reserve: Pa1↓=Q/R/B/S are four distinct moves.
        let mut p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1").unwrap();
        p.set_reserve_rule(crate::position::ReserveRule { white: true, black: true });
        let a1 = Square(0);
        let drops: Vec<_> = p.legal_moves().into_iter().filter(|m| matches!(m, Move::Drop { to, .. } if *to == a1)).collect();
        assert_eq!(drops.len(), 4);
    }
}
