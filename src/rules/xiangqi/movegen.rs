//! Legal move generation: targets from the per-point tables, line movers by ray bit scans,
//! legality by a pin analysis along the general's lines and a reverse attack test where that
//! analysis does not decide (see the module documentation of [`super`]).

use super::tables::{EAST, NORTH, SOUTH, TABLES, WEST};
use super::{MoveList, XMove, XiangqiKind, XiangqiPosition};
use crate::geometry::Square;

const GENERAL: usize = XiangqiKind::General as usize;
const ADVISOR: usize = XiangqiKind::Advisor as usize;
const ELEPHANT: usize = XiangqiKind::Elephant as usize;
const HORSE: usize = XiangqiKind::Horse as usize;
const CHARIOT: usize = XiangqiKind::Chariot as usize;
const CANNON: usize = XiangqiKind::Cannon as usize;
const SOLDIER: usize = XiangqiKind::Soldier as usize;

/// The first point of a non-empty set along direction `d` from the ray's origin: the lowest
/// bit for north and east, the highest for south and west.
#[inline(always)]
fn first(set: u128, d: usize) -> usize {
    debug_assert!(set != 0);
    if d == NORTH || d == EAST { set.trailing_zeros() as usize } else { 127 - set.leading_zeros() as usize }
}

/// Whether point `s` is in `set`.
#[inline(always)]
fn has(set: u128, s: usize) -> bool {
    set >> s & 1 != 0
}

/// Where the generator puts the moves it finds: a list, a counter (bulk counting), or a flag
/// that stops at the first move.
pub(super) trait Sink {
    /// Moves from `from` to every point of `targets`; returns whether to stop.
    fn targets(&mut self, from: usize, targets: u128) -> bool;
    /// One move; returns whether to stop.
    fn one(&mut self, from: usize, to: usize) -> bool;
}

#[inline(always)]
fn xmove(from: usize, to: usize) -> XMove {
    XMove { from: Square(from as u8), to: Square(to as u8) }
}

/// A list the generator appends moves to one by one.
trait Put {
    fn put(&mut self, m: XMove);
}

impl Put for MoveList {
    #[inline(always)]
    fn put(&mut self, m: XMove) {
        self.push(m);
    }
}

impl Put for Vec<XMove> {
    #[inline(always)]
    fn put(&mut self, m: XMove) {
        self.push(m);
    }
}

impl<L: Put> Sink for L {
    #[inline(always)]
    fn targets(&mut self, from: usize, mut targets: u128) -> bool {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.put(xmove(from, to));
        }
        false
    }
    #[inline(always)]
    fn one(&mut self, from: usize, to: usize) -> bool {
        self.put(xmove(from, to));
        false
    }
}

/// Counts the moves (a population count per piece).
struct Count(u32);

impl Sink for Count {
    #[inline(always)]
    fn targets(&mut self, _from: usize, targets: u128) -> bool {
        self.0 += targets.count_ones();
        false
    }
    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize) -> bool {
        self.0 += 1;
        false
    }
}

/// Stops at the first move.
struct Any(bool);

impl Sink for Any {
    #[inline(always)]
    fn targets(&mut self, _from: usize, targets: u128) -> bool {
        self.0 |= targets != 0;
        self.0
    }
    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize) -> bool {
        self.0 = true;
        true
    }
}

/// Chariot targets from `s` (captures of either colour included).
#[inline(always)]
pub(super) fn chariot_targets(s: usize, occ: u128) -> u128 {
    let rays = &TABLES.rays;
    let mut a = 0;
    for d in [NORTH, EAST, SOUTH, WEST] {
        let ray = rays[s][d];
        let blk = ray & occ;
        a |= if blk == 0 { ray } else { ray ^ rays[first(blk, d)][d] };
    }
    a
}

/// Cannon targets from `s`: the empty points up to the first piece of each line, and the
/// first piece beyond it when it is in `enemy`.
#[inline(always)]
pub(super) fn cannon_targets(s: usize, occ: u128, enemy: u128) -> u128 {
    let rays = &TABLES.rays;
    let mut quiet = 0;
    let mut captures = 0;
    for d in [NORTH, EAST, SOUTH, WEST] {
        let ray = rays[s][d];
        let blk = ray & occ;
        if blk == 0 {
            quiet |= ray;
        } else {
            let screen = first(blk, d);
            quiet |= ray ^ rays[screen][d] ^ (1u128 << screen);
            let beyond = blk & rays[screen][d];
            if beyond != 0 {
                captures |= 1u128 << first(beyond, d);
            }
        }
    }
    quiet | (captures & enemy)
}

/// Horse targets from `s`: through each empty leg point.
#[inline(always)]
pub(super) fn horse_targets(s: usize, occ: u128) -> u128 {
    let t = &TABLES;
    let mut a = 0;
    for i in 0..4 {
        if !has(occ, t.horse_leg[s][i] as usize) {
            a |= t.horse_to[s][i];
        }
    }
    a
}

/// Elephant targets of colour `c` from `s`: over each empty eye point, on the own half.
#[inline(always)]
pub(super) fn elephant_targets(c: usize, s: usize, occ: u128) -> u128 {
    let t = &TABLES;
    let mut a = 0;
    for i in 0..4 {
        if !has(occ, t.elephant_eye[s][i] as usize) {
            a |= t.elephant_to[c][s][i];
        }
    }
    a
}

/// What [`XiangqiPosition::emit`] needs of the position being generated.
struct Frame {
    /// The mover's general.
    g: usize,
    /// Every occupied point.
    occ: u128,
    /// The opponent's pieces.
    them: u128,
    /// The mover's colour index.
    us: usize,
    /// The mover's pieces whose targets need no test.
    free: u128,
}

impl XiangqiPosition {
    /// Whether the general of colour `us` on `g` is attacked when the board holds `occ` and
    /// the opponent's pieces are those of `them` (the enemy general counts as a chariot: the
    /// flying-general rule).
    #[inline(always)]
    fn attacked(&self, g: usize, occ: u128, them: u128, us: usize) -> bool {
        let t = &TABLES;
        let rooks = (self.by_kind[CHARIOT] | self.by_kind[GENERAL]) & them;
        let cannons = self.by_kind[CANNON] & them;
        let sliders = rooks | cannons;
        if sliders & t.lines[g] != 0 {
            for d in [NORTH, EAST, SOUTH, WEST] {
                let ray = t.rays[g][d];
                if sliders & ray == 0 {
                    continue;
                }
                let blk = ray & occ;
                let b = first(blk, d);
                if has(rooks, b) {
                    return true;
                }
                let beyond = blk & t.rays[b][d];
                if beyond != 0 && has(cannons, first(beyond, d)) {
                    return true;
                }
            }
        }
        let horses = self.by_kind[HORSE] & them;
        if horses & t.horse_zone[g] != 0 {
            for i in 0..4 {
                if horses & t.horse_att_from[g][i] != 0 && !has(occ, t.horse_att_leg[g][i] as usize) {
                    return true;
                }
            }
        }
        self.by_kind[SOLDIER] & them & t.soldier_att[us][g] != 0
    }

    /// Whether the side to move is in check (its general attacked, or facing the other).
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side.index();
        self.attacked(self.general[us] as usize, self.occupied(), self.by_color[us ^ 1], us)
    }

    /// Out of check: the points whose piece may not leave freely (`.0`: a piece before an
    /// enemy chariot or general on a line of the general, one of the two screens of an enemy
    /// cannon, a piece on the leg of an enemy horse that would attack the general) and the
    /// points no piece may go to (`.1`: the empty points between the general and an enemy
    /// cannon with no screen).
    #[inline(always)]
    fn pins(&self, g: usize, occ: u128, us: usize) -> (u128, u128) {
        let t = &TABLES;
        let them = self.by_color[us ^ 1];
        let rooks = (self.by_kind[CHARIOT] | self.by_kind[GENERAL]) & them;
        let cannons = self.by_kind[CANNON] & them;
        let sliders = rooks | cannons;
        let mut pinned = 0;
        let mut forbidden = 0;
        if sliders & t.lines[g] != 0 {
            for d in [NORTH, EAST, SOUTH, WEST] {
                let ray = t.rays[g][d];
                if sliders & ray == 0 {
                    continue;
                }
                let blk = ray & occ;
                let p1 = first(blk, d);
                if has(cannons, p1) {
                    // A piece put before it would be its screen. The cannon itself may still be
                    // the first screen of a cannon further on (below).
                    forbidden |= ray ^ t.rays[p1][d] ^ (1u128 << p1);
                }
                let rest = blk & t.rays[p1][d];
                if rest == 0 {
                    continue;
                }
                let p2 = first(rest, d);
                if has(rooks, p2) {
                    pinned |= 1u128 << p1;
                    continue;
                }
                let rest = rest & t.rays[p2][d];
                if rest != 0 && has(cannons, first(rest, d)) {
                    pinned |= (1u128 << p1) | (1u128 << p2);
                }
            }
        }
        let horses = self.by_kind[HORSE] & them;
        if horses & t.horse_zone[g] != 0 {
            for i in 0..4 {
                if horses & t.horse_att_from[g][i] != 0 {
                    pinned |= occ & (1u128 << t.horse_att_leg[g][i]);
                }
            }
        }
        (pinned, forbidden)
    }

    /// Hands the moves of the piece on `from` to `sink`: all of `targets` at once when the
    /// piece is free (its targets already cleared of the forbidden points), each tested
    /// otherwise. Returns whether the sink asked to stop.
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, from: usize, targets: u128, f: &Frame) -> bool {
        if has(f.free, from) {
            return sink.targets(from, targets);
        }
        let mut ts = targets;
        while ts != 0 {
            let to = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            let tb = 1u128 << to;
            if !self.attacked(f.g, (f.occ ^ (1u128 << from)) | tb, f.them & !tb, f.us) && sink.one(from, to) {
                return true;
            }
        }
        false
    }

    /// The legal moves, handed to `sink`; returns whether it asked to stop.
    #[inline(always)]
    fn generate<S: Sink>(&self, sink: &mut S) -> bool {
        let t = &TABLES;
        let us = self.side.index();
        let own = self.by_color[us];
        let enemy = self.by_color[us ^ 1];
        let occ = own | enemy;
        let g = self.general[us] as usize;
        let checked = self.attacked(g, occ, enemy, us);
        // `free`: pieces whose every target is legal but `forbidden`; `reach`: the points a
        // piece that is not free must touch (leave or reach) for its move to be legal.
        let (free, forbidden, reach) = if checked {
            // In check, a move that touches none of the general's lines, horse points and horse
            // legs leaves every attack on the general as it is.
            let legs = t.horse_att_leg[g].iter().fold(0u128, |a, &l| a | (1u128 << l));
            (0, 0, t.lines[g] | t.horse_zone[g] | legs)
        } else {
            let (pinned, forbidden) = self.pins(g, occ, us);
            (own & !pinned & !(1u128 << g), forbidden, !0)
        };
        let movable = !own & !forbidden;
        let frame = Frame { g, occ, them: enemy, us, free };
        let lim = |from: usize| if has(reach, from) { !0 } else { reach };

        // Each kind in turn (the order of the move list): the piece's targets, then `emit`.
        macro_rules! each {
            ($kind:expr, |$from:ident| $targets:expr) => {
                let mut bb = self.by_kind[$kind] & own;
                while bb != 0 {
                    let $from = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    let ts = $targets & movable & lim($from);
                    if self.emit(sink, $from, ts, &frame) {
                        return true;
                    }
                }
            };
        }
        each!(CHARIOT, |from| chariot_targets(from, occ));
        each!(CANNON, |from| cannon_targets(from, occ, enemy));
        each!(HORSE, |from| horse_targets(from, occ));
        each!(SOLDIER, |from| t.soldier[us][from]);
        each!(ELEPHANT, |from| elephant_targets(us, from, occ));
        each!(ADVISOR, |from| t.advisor[us][from]);
        // The general: each target tested with the general on it.
        let mut ts = t.general[us][g] & !own;
        let occ_without = occ ^ (1u128 << g);
        while ts != 0 {
            let to = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            let tb = 1u128 << to;
            if !self.attacked(to, occ_without | tb, enemy & !tb, us) && sink.one(g, to) {
                return true;
            }
        }
        false
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut out = MoveList::new();
        self.generate(&mut out);
        out
    }

    /// Appends the legal moves to `out`, cleared first.
    pub fn legal_moves_into(&self, out: &mut Vec<XMove>) {
        out.clear();
        self.generate(out);
    }

    /// Number of legal moves (counted, not listed).
    pub fn count_legal(&self) -> u32 {
        let mut c = Count(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has a legal move (stops at the first one found). A side
    /// without one has lost.
    pub fn has_legal_move(&self) -> bool {
        let mut a = Any(false);
        self.generate(&mut a);
        a.0
    }
}
