//! Per-point tables of the Xiangqi move generator, computed at compile time (`const fn` into
//! a plain `static`: no initialisation check in the hot loop).
//!
//! Points are numbered `rank * 9 + file` (`a0` = 0, `i9` = 89), bit `s` of a `u128` is point
//! `s`. Colour index 0 is Red (`Color::White`), 1 is Black.

/// Number of points.
pub(super) const POINTS: usize = 90;

/// Ray directions: north (up the board, +9) and east (+1) grow the index, so the first piece
/// along them is the lowest bit; south (−9) and west (−1) shrink it (the highest bit).
pub(super) const NORTH: usize = 0;
/// See [`NORTH`].
pub(super) const EAST: usize = 1;
/// See [`NORTH`].
pub(super) const SOUTH: usize = 2;
/// See [`NORTH`].
pub(super) const WEST: usize = 3;

/// (file, rank) steps of the four ray directions, in the order of [`NORTH`] … [`WEST`].
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four diagonal steps.
const DIAGS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Every table the generator reads.
pub(super) struct Tables {
    /// `rays[s][d]`: the points beyond `s` in direction `d`, `s` itself excluded.
    pub rays: [[u128; 4]; POINTS],
    /// `lines[s]`: the rank and the file through `s`, `s` excluded.
    pub lines: [u128; POINTS],
    /// `general[c][s]`: one orthogonal step, inside the palace of `c`.
    pub general: [[u128; POINTS]; 2],
    /// `advisor[c][s]`: one diagonal step, inside the palace of `c`.
    pub advisor: [[u128; POINTS]; 2],
    /// `elephant_eye[s][i]`: the point between `s` and its `i`-th elephant target (0 when
    /// there is none; the target mask is then empty).
    pub elephant_eye: [[u8; 4]; POINTS],
    /// `elephant_to[c][s][i]`: the `i`-th elephant target of `s` for `c` as a one-bit mask,
    /// empty when it is off the board or across the river (an elephant never lands on the
    /// other side).
    pub elephant_to: [[[u128; 4]; POINTS]; 2],
    /// `horse_leg[s][i]`: the orthogonal neighbour of `s` in direction `i` (0 when off the
    /// board; the target mask is then empty).
    pub horse_leg: [[u8; 4]; POINTS],
    /// `horse_to[s][i]`: the two (or fewer) horse targets through `horse_leg[s][i]`.
    pub horse_to: [[u128; 4]; POINTS],
    /// `horse_att_leg[g][i]`: the `i`-th diagonal neighbour of `g`, the leg point of the horses
    /// that attack `g` through it (0 when off the board; the mask is then empty).
    pub horse_att_leg: [[u8; 4]; POINTS],
    /// `horse_att_from[g][i]`: the points a horse attacks `g` from over `horse_att_leg[g][i]`.
    pub horse_att_from: [[u128; 4]; POINTS],
    /// `horse_zone[g]`: every point a horse may attack `g` from (the union of `horse_att_from`).
    pub horse_zone: [u128; POINTS],
    /// `soldier[c][s]`: forward, and sideways once across the river.
    pub soldier: [[u128; POINTS]; 2],
    /// `soldier_att[c][g]`: the points from which a soldier of the opponent of `c` attacks `g`.
    pub soldier_att: [[u128; POINTS]; 2],
}

/// The point at (file, rank), or −1 when it is off the board.
const fn point(f: i32, r: i32) -> i32 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 { r * 9 + f } else { -1 }
}

/// Whether `s` is in the palace of colour `c`.
pub(super) const fn in_palace(c: usize, s: usize) -> bool {
    let (f, r) = (s % 9, s / 9);
    f >= 3 && f <= 5 && if c == 0 { r <= 2 } else { r >= 7 }
}

/// Whether `s` is on the own side of the river for colour `c`.
pub(super) const fn in_own_half(c: usize, s: usize) -> bool {
    if c == 0 { s / 9 <= 4 } else { s / 9 >= 5 }
}

const fn bit(s: i32) -> u128 {
    if s < 0 { 0 } else { 1u128 << s }
}

const fn build() -> Tables {
    let mut t = Tables {
        rays: [[0; 4]; POINTS],
        lines: [0; POINTS],
        general: [[0; POINTS]; 2],
        advisor: [[0; POINTS]; 2],
        elephant_eye: [[0; 4]; POINTS],
        elephant_to: [[[0; 4]; POINTS]; 2],
        horse_leg: [[0; 4]; POINTS],
        horse_to: [[0; 4]; POINTS],
        horse_att_leg: [[0; 4]; POINTS],
        horse_att_from: [[0; 4]; POINTS],
        horse_zone: [0; POINTS],
        soldier: [[0; POINTS]; 2],
        soldier_att: [[0; POINTS]; 2],
    };
    let mut s = 0;
    while s < POINTS {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let mut ray = 0u128;
            let mut k = 1;
            while point(f + k * df, r + k * dr) >= 0 {
                ray |= bit(point(f + k * df, r + k * dr));
                k += 1;
            }
            t.rays[s][d] = ray;
            t.lines[s] |= ray;
            // One orthogonal step: general moves, horse legs.
            let n = point(f + df, r + dr);
            let mut c = 0;
            while c < 2 {
                // The general never leaves the palace (a position with a general outside it
                // is rejected, so only palace points have moves in practice).
                if n >= 0 && in_palace(c, n as usize) {
                    t.general[c][s] |= bit(n);
                }
                c += 1;
            }
            if n >= 0 {
                t.horse_leg[s][d] = n as u8;
                // The two targets one diagonal step outward from the leg.
                let (a, b) = (f + 2 * df + dr, r + 2 * dr + df);
                let (a2, b2) = (f + 2 * df - dr, r + 2 * dr - df);
                t.horse_to[s][d] = bit(point(a, b)) | bit(point(a2, b2));
            }
            // Diagonal steps: advisors, elephants, the legs of attacking horses.
            let (ef, er) = DIAGS[d];
            let diag = point(f + ef, r + er);
            let mut c = 0;
            while c < 2 {
                if diag >= 0 && in_palace(c, diag as usize) {
                    t.advisor[c][s] |= bit(diag);
                }
                let target = point(f + 2 * ef, r + 2 * er);
                if target >= 0 && in_own_half(c, target as usize) {
                    t.elephant_to[c][s][d] = bit(target);
                }
                c += 1;
            }
            if diag >= 0 {
                t.elephant_eye[s][d] = diag as u8;
                t.horse_att_leg[s][d] = diag as u8;
                let from = bit(point(f + 2 * ef, r + er)) | bit(point(f + ef, r + 2 * er));
                t.horse_att_from[s][d] = from;
                t.horse_zone[s] |= from;
            }
            d += 1;
        }
        let mut c = 0;
        while c < 2 {
            let fwd = if c == 0 { 1 } else { -1 };
            t.soldier[c][s] = bit(point(f, r + fwd));
            if !in_own_half(c, s) {
                t.soldier[c][s] |= bit(point(f - 1, r)) | bit(point(f + 1, r));
            }
            c += 1;
        }
        s += 1;
    }
    // Soldier attacks: the inverse of the soldier moves of the other colour.
    let mut g = 0;
    while g < POINTS {
        let mut from = 0;
        while from < POINTS {
            let mut c = 0;
            while c < 2 {
                if t.soldier[1 - c][from] & (1u128 << g) != 0 {
                    t.soldier_att[c][g] |= 1u128 << from;
                }
                c += 1;
            }
            from += 1;
        }
        g += 1;
    }
    t
}

/// The tables.
pub(super) static TABLES: Tables = build();

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'0') as usize * 9 + (b[0] - b'a') as usize
    }

    #[test]
    fn rays_and_steps() {
        let t = &TABLES;
        assert_eq!(t.rays[sq("e0")][NORTH].count_ones(), 9);
        assert_eq!(t.rays[sq("e0")][SOUTH], 0);
        assert_eq!(t.rays[sq("e0")][EAST].count_ones(), 4);
        assert_eq!(t.rays[sq("e0")][WEST].count_ones(), 4);
        assert_eq!(t.lines[sq("a0")].count_ones(), 17);
        assert_eq!(t.general[0][sq("e1")].count_ones(), 4);
        assert_eq!(t.general[0][sq("d0")].count_ones(), 2);
        assert_eq!(t.advisor[0][sq("e1")].count_ones(), 4);
        assert_eq!(t.advisor[1][sq("d9")], 1u128 << sq("e8"));
        // Elephant on c0: e2 and a2 (both in the own half).
        let e: u128 = t.elephant_to[0][sq("c0")].iter().fold(0, |a, &b| a | b);
        assert_eq!(e, (1u128 << sq("a2")) | (1u128 << sq("e2")));
        // Red elephant on c4 may not cross to a6/e6.
        let e: u128 = t.elephant_to[0][sq("c4")].iter().fold(0, |a, &b| a | b);
        assert_eq!(e, (1u128 << sq("a2")) | (1u128 << sq("e2")));
        // Horse on b0: a2, c2, d1.
        let h: u128 = t.horse_to[sq("b0")].iter().fold(0, |a, &b| a | b);
        assert_eq!(h, (1u128 << sq("a2")) | (1u128 << sq("c2")) | (1u128 << sq("d1")));
        // A horse on e4 has 8 targets.
        assert_eq!(t.horse_to[sq("e4")].iter().map(|b| b.count_ones()).sum::<u32>(), 8);
        assert_eq!(t.horse_zone[sq("e4")].count_ones(), 8);
        // Soldiers.
        assert_eq!(t.soldier[0][sq("e3")], 1u128 << sq("e4"));
        assert_eq!(t.soldier[0][sq("e5")].count_ones(), 3);
        assert_eq!(t.soldier[1][sq("e5")], 1u128 << sq("e4"));
        assert_eq!(t.soldier[0][sq("e9")].count_ones(), 2);
        // A black soldier on e2 or d1/f1 attacks a red general on e1.
        assert_eq!(t.soldier_att[0][sq("e1")], (1u128 << sq("e2")) | (1u128 << sq("d1")) | (1u128 << sq("f1")));
    }
}
