//! Legal move generation: jump chains by depth-first search, steps, bishop and camel moves by
//! bitboards, and a count of the legal moves that generates nothing when no jump is possible
//! (the last ply of perft, and [`CheskersPosition::has_legal_move`]).

use super::tables::{DARK, FORWARD, LAST_RANK, NONE, TABLES, bishop_attacks, shift};
use super::{CMove, CheskersKind, CheskersPosition};
use crate::geometry::Square;

/// The three promotions of a pawn reaching its last rank, in the order they are listed.
const PROMOTIONS: [CheskersKind; 3] = [CheskersKind::King, CheskersKind::Bishop, CheskersKind::Camel];

/// What stays fixed while one piece's chains are searched.
struct Chain {
    from: u8,
    pawn: bool,
    /// The directions the piece jumps in.
    dirs: &'static [usize],
    /// The enemy pieces (jumped ones included: they stay until the chain ends).
    enemy: u64,
    /// Occupied squares, without the start square (empty during the piece's own chain).
    occupied: u64,
    /// The moving side's last rank.
    last: u64,
    /// Where the moves of this piece begin in the list (for merging equal chains).
    first: usize,
}

const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];

impl Chain {
    /// Extends the chain that has reached `at`, with `captured` jumped so far along `path`;
    /// a chain that cannot be extended is a move.
    fn extend(&self, at: u8, captured: u64, path: u64, jumps: u8, out: &mut Vec<CMove>) {
        let mut extended = false;
        for &d in self.dirs {
            let mid = TABLES.step[at as usize][d];
            if mid == NONE {
                continue;
            }
            let land = TABLES.jump[at as usize][d];
            let (mb, lb) = (1u64 << (mid & 63), 1u64 << (land & 63));
            if land == NONE || self.enemy & mb == 0 || captured & mb != 0 || self.occupied & lb != 0 {
                continue;
            }
            extended = true;
            let (captured, path) = (captured | mb, path | (d as u64) << (2 * jumps as u64));
            if self.pawn && self.last & lb != 0 {
                for k in PROMOTIONS {
                    self.push(land, captured, path, jumps + 1, Some(k), out);
                }
            } else {
                self.extend(land, captured, path, jumps + 1, out);
            }
        }
        if !extended && jumps > 0 {
            self.push(at, captured, path, jumps, None, out);
        }
    }

    /// Adds a complete chain, unless this piece already has one with the same end square,
    /// captured set and promotion (the same move by another path).
    fn push(&self, to: u8, captured: u64, path: u64, jumps: u8, promotion: Option<CheskersKind>, out: &mut Vec<CMove>) {
        let same = |m: &CMove| m.to.0 == to && m.captured == captured && m.promotion == promotion;
        if !out[self.first..].iter().any(same) {
            out.push(CMove { from: Square(self.from), to: Square(to), captured, path, jumps, promotion });
        }
    }
}

#[inline(always)]
fn simple(from: usize, to: usize, captured: u64, promotion: Option<CheskersKind>) -> CMove {
    CMove { from: Square(from as u8), to: Square(to as u8), captured, path: 0, jumps: 0, promotion }
}

impl CheskersPosition {
    /// The squares from which a pawn or king of the side to move can jump.
    fn jumpers(&self) -> u64 {
        let us = self.side.index();
        let own = self.by_color[us];
        let enemy = self.by_color[us ^ 1];
        let empty = !self.occupied() & DARK;
        let pawns = own & self.by_kind[CheskersKind::Pawn as usize];
        let kings = own & self.by_kind[CheskersKind::King as usize];
        let back = [3usize, 2, 1, 0];
        let mut from = 0;
        for d in 0..4 {
            let movers = if FORWARD[us].contains(&d) { pawns | kings } else { kings };
            // Landing squares two steps on, over an enemy piece; back to the jumpers.
            let lands = shift(shift(movers, d) & enemy, d) & empty;
            from |= shift(shift(lands, back[d]), back[d]);
        }
        from & (pawns | kings)
    }

    /// Appends the legal moves to `out` (cleared first): jump chains first, then steps, bishop
    /// and camel moves, each piece from the lowest square up.
    pub fn legal_moves_into(&self, out: &mut Vec<CMove>) {
        out.clear();
        let us = self.side.index();
        if !self.has_king(self.side) {
            return;
        }
        let own = self.by_color[us];
        let enemy = self.by_color[us ^ 1];
        let occupied = self.occupied();
        let mut jumpers = self.jumpers();
        let compulsory = jumpers != 0;
        while jumpers != 0 {
            let s = jumpers.trailing_zeros() as u8;
            jumpers &= jumpers - 1;
            let pawn = self.by_kind[CheskersKind::Pawn as usize] & (1 << s) != 0;
            let chain = Chain {
                from: s,
                pawn,
                dirs: if pawn { &FORWARD[us] } else { &ALL_DIRS },
                enemy,
                occupied: occupied & !(1 << s),
                last: LAST_RANK[us],
                first: out.len(),
            };
            chain.extend(s, 0, 0, 0, out);
        }
        // Bishop and camel moves: only their captures when a jump is possible.
        let targets = if compulsory { enemy } else { !own & DARK };
        let steps_allowed = !compulsory;
        if steps_allowed {
            let empty = !occupied & DARK;
            let mut pawns = own & self.by_kind[CheskersKind::Pawn as usize];
            while pawns != 0 {
                let s = pawns.trailing_zeros() as usize;
                pawns &= pawns - 1;
                for &d in &FORWARD[us] {
                    let t = TABLES.step[s][d];
                    if t != NONE && empty & (1 << t) != 0 {
                        if LAST_RANK[us] & (1 << t) != 0 {
                            for k in PROMOTIONS {
                                out.push(simple(s, t as usize, 0, Some(k)));
                            }
                        } else {
                            out.push(simple(s, t as usize, 0, None));
                        }
                    }
                }
            }
            let mut kings = own & self.by_kind[CheskersKind::King as usize];
            while kings != 0 {
                let s = kings.trailing_zeros() as usize;
                kings &= kings - 1;
                for d in 0..4 {
                    let t = TABLES.step[s][d];
                    if t != NONE && empty & (1 << t) != 0 {
                        out.push(simple(s, t as usize, 0, None));
                    }
                }
            }
        }
        let mut bishops = own & self.by_kind[CheskersKind::Bishop as usize];
        while bishops != 0 {
            let s = bishops.trailing_zeros() as usize;
            bishops &= bishops - 1;
            push_targets(s, bishop_attacks(s, occupied) & targets, enemy, out);
        }
        let mut camels = own & self.by_kind[CheskersKind::Camel as usize];
        while camels != 0 {
            let s = camels.trailing_zeros() as usize;
            camels &= camels - 1;
            push_targets(s, TABLES.camel[s] & targets, enemy, out);
        }
    }

    /// The number of legal moves; without generating them when no jump is possible.
    pub fn count_legal(&self) -> usize {
        self.count_legal_with(&mut Vec::new())
    }

    /// [`CheskersPosition::count_legal`] with a buffer for the moves when a jump is possible
    /// (chains must be generated to merge equal ones).
    pub(crate) fn count_legal_with(&self, buf: &mut Vec<CMove>) -> usize {
        if !self.has_king(self.side) {
            return 0;
        }
        if self.jumpers() != 0 {
            self.legal_moves_into(buf);
            return buf.len();
        }
        let us = self.side.index();
        let own = self.by_color[us];
        let occupied = self.occupied();
        let empty = !occupied & DARK;
        let pawns = own & self.by_kind[CheskersKind::Pawn as usize];
        let kings = own & self.by_kind[CheskersKind::King as usize];
        let mut n = 0usize;
        for &d in &FORWARD[us] {
            let t = shift(pawns, d) & empty;
            n += (t & !LAST_RANK[us]).count_ones() as usize + 3 * (t & LAST_RANK[us]).count_ones() as usize;
        }
        for d in 0..4 {
            n += (shift(kings, d) & empty).count_ones() as usize;
        }
        n + self.piece_moves_count(!own & DARK)
    }

    /// The number of bishop and camel moves onto `targets`.
    fn piece_moves_count(&self, targets: u64) -> usize {
        let own = self.by_color[self.side.index()];
        let occupied = self.occupied();
        let mut n = 0;
        let mut bishops = own & self.by_kind[CheskersKind::Bishop as usize];
        while bishops != 0 {
            let s = bishops.trailing_zeros() as usize;
            bishops &= bishops - 1;
            n += (bishop_attacks(s, occupied) & targets).count_ones() as usize;
        }
        let mut camels = own & self.by_kind[CheskersKind::Camel as usize];
        while camels != 0 {
            let s = camels.trailing_zeros() as usize;
            camels &= camels - 1;
            n += (TABLES.camel[s] & targets).count_ones() as usize;
        }
        n
    }

    /// Whether the side to move has a legal move (it has none without a king).
    pub fn has_legal_move(&self) -> bool {
        self.has_king(self.side) && (self.jumpers() != 0 || self.count_legal() > 0)
    }
}

/// Moves from `s` to each square of `targets`, capturing where an enemy stands.
#[inline]
fn push_targets(s: usize, mut targets: u64, enemy: u64, out: &mut Vec<CMove>) {
    while targets != 0 {
        let t = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        out.push(simple(s, t, enemy & (1 << t), None));
    }
}
