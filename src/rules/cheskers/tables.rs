//! Tables built once at compile time: diagonal steps and jumps, camel leaps, region masks.

/// The dark squares (`a1` is dark): those with an even file + rank.
pub(crate) const DARK: u64 = {
    let mut b = 0u64;
    let mut s = 0;
    while s < 64 {
        if (s % 8 + s / 8) % 2 == 0 {
            b |= 1 << s;
        }
        s += 1;
    }
    b
};

/// Each side's last rank, where its pawns promote (White rank 8, Black rank 1).
pub(crate) const LAST_RANK: [u64; 2] = [0xFF << 56, 0xFF];

/// "No square" in the step and jump tables.
pub(crate) const NONE: u8 = 64;

/// The four diagonal directions as (file, rank) steps, in their index order: NE, NW, SE, SW.
pub(crate) const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Each side's forward directions, for its pawns (White NE NW, Black SE SW).
pub(crate) const FORWARD: [[usize; 2]; 2] = [[0, 1], [2, 3]];

/// Steps, jumps and leaps from each square.
pub(crate) struct Tables {
    /// The square one diagonal step away in each direction, [`NONE`] off the board.
    pub step: [[u8; 4]; 64],
    /// The square two diagonal steps away (a jump's landing), [`NONE`] off the board.
    pub jump: [[u8; 4]; 64],
    /// The squares a camel leaps to.
    pub camel: [u64; 64],
    /// The squares of each diagonal ray from a square (the square itself excluded).
    pub ray: [[u64; 4]; 64],
}

const fn at(s: usize, df: i32, dr: i32) -> u8 {
    let f = (s % 8) as i32 + df;
    let r = (s / 8) as i32 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 { (r * 8 + f) as u8 } else { NONE }
}

const fn build() -> Tables {
    let mut t = Tables { step: [[NONE; 4]; 64], jump: [[NONE; 4]; 64], camel: [0; 64], ray: [[0; 4]; 64] };
    let leaps: [(i32, i32); 8] = [(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            t.step[s][d] = at(s, df, dr);
            t.jump[s][d] = at(s, 2 * df, 2 * dr);
            let mut k = 1;
            while k < 8 {
                let q = at(s, k * df, k * dr);
                if q != NONE {
                    t.ray[s][d] |= 1 << q;
                }
                k += 1;
            }
            d += 1;
        }
        let mut i = 0;
        while i < 8 {
            let q = at(s, leaps[i].0, leaps[i].1);
            if q != NONE {
                t.camel[s] |= 1 << q;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The tables.
pub(crate) static TABLES: Tables = build();

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Every square of `b` moved one diagonal step in direction `d` (pieces that would leave the
/// board are dropped).
#[inline(always)]
pub(crate) const fn shift(b: u64, d: usize) -> u64 {
    match d {
        0 => (b & !FILE_H) << 9,
        1 => (b & !FILE_A) << 7,
        2 => (b & !FILE_H) >> 7,
        _ => (b & !FILE_A) >> 9,
    }
}

/// The squares a bishop on `s` attacks (moves to or captures on), given the occupied squares.
#[inline]
pub(crate) fn bishop_attacks(s: usize, occupied: u64) -> u64 {
    let mut a = 0;
    let mut d = 0;
    while d < 4 {
        let ray = TABLES.ray[s][d];
        let blockers = ray & occupied;
        if blockers == 0 {
            a |= ray;
        } else {
            // The nearest blocker: lowest bit for the rising directions, highest otherwise.
            let b = if d < 2 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() } as usize;
            a |= ray & !TABLES.ray[b][d];
        }
        d += 1;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_right() {
        assert_eq!(DARK.count_ones(), 32);
        let dark = std::hint::black_box(DARK);
        assert!(dark & 1 != 0 && dark & (1 << 63) != 0 && dark & 2 == 0);
        // c3 = 18: NE d4 = 27, jump e5 = 36; from a1 no NW step.
        assert_eq!(TABLES.step[18][0], 27);
        assert_eq!(TABLES.jump[18][0], 36);
        assert_eq!(TABLES.step[0][1], NONE);
        // The camel on g1 (6): d2 (11)? no: (1,3) from g1 is f4 (29), h4 (31), d2 (11).
        assert_eq!(TABLES.camel[6], (1 << 29) | (1 << 31) | (1 << 11));
        // Every camel leap keeps the square colour.
        for s in 0..64 {
            let same = if DARK & (1 << s) != 0 { DARK } else { !DARK };
            assert_eq!(TABLES.camel[s] & !same, 0);
        }
        // A bishop on c3 with a blocker on e5 sees d4 and e5 on that ray.
        let a = bishop_attacks(18, 1 << 36);
        assert!(a & (1 << 36) != 0 && a & (1 << 45) == 0 && a & (1 << 27) != 0);
        assert_eq!(bishop_attacks(0, 0).count_ones(), 7);
        for s in 0..64usize {
            for d in 0..4 {
                let by_table = TABLES.step[s][d];
                let shifted = shift(1 << s, d);
                if by_table == NONE {
                    assert_eq!(shifted, 0);
                } else {
                    assert_eq!(shifted, 1 << by_table);
                }
            }
        }
    }
}
