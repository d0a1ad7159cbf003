//! Intelligent help play: the mate pictures a help line can end in, worked out once, and a
//! running count per picture of the moves each side still needs to reach it.
//!
//! Pictures exist for mate and stalemate only ([`plan`] answers `None` for every other goal,
//! the goals of the move included), so those goals are searched exhaustively.
//!
//! A **picture** places some pieces on their squares of the final position: the mated
//! king on `s`, one mating piece (not the king) that checks it, and for each flight of `s`
//! either a piece of the mated side standing on it (a *blocker*) or a mating piece that
//! attacks it (a *guard*; a guard may stand on a flight itself when another guard protects
//! it). The lines the picture relies on (the check, each guard's line to its flight, which
//! may pass through `s`, the king's own square) are clear of the picture's other pieces,
//! and a mating king does not stand next to `s`. Every mate position contains such a
//! picture: take its king, one checking piece, and for each flight whatever makes it no
//! flight. So the pictures, taken all together, miss no mate.
//!
//! Each piece of a picture is the piece of the position where the pictures were made (its
//! identity is followed move by move, through captures and promotions), with the kind it
//! has at the end: the same kind, or a promoted pawn; a blocker may be of any kind. A
//! piece needs at least `d` moves of its own to reach its square, `d` its distance on the
//! **empty board** (pawns may capture whenever they like; castling moves the king one step
//! and takes the rook along for nothing), so the moves a side still needs for a picture
//! are at least the sum of its pieces' distances. A picture is *alive* while each side has
//! that many moves left; a line whose position has no picture alive cannot end in mate,
//! and the search does not go on from it.
//!
//! A pawn changes file only by capturing, one file per capture, and a piece of the picture
//! is on the board at the end, so never taken: a pawn of either side may make at most as
//! many captures on its way as the other side has pieces, its king aside, outside the
//! picture. The distances of pawns count it (`caps_left`; each pawn is granted all of
//! them, which never asks more than a line makes), and a capture on the way leaves one
//! fewer.
//!
//! Before the search a mate or stalemate picture is **closed** (module `closure`): its
//! blockers take each kind they may have at the end, and each move the mated side still has
//! with the picture's pieces alone (a blocker taking the checker or stepping out of its
//! line, the king taking an unprotected guard) is taken away by one more piece, in every
//! way one piece can, until the picture is a mate (stalemate) of its own, as Popeye's
//! `Intelligent` mode builds its target positions. Closed, the pictures are far fewer and
//! each asks more moves.
//!
//! A **stalemate picture** is the same without the checker: the king on `s` and each
//! flight guarded or blocked (nothing is asked of `s` itself, a relaxation). The
//! stalemated side's other pieces must be left without a move too; the pictures account
//! for them after each move, as below, and the help search keeps its stalemate filters for
//! the last two half-moves, where they are judged exactly.
//!
//! Where the stalemating side moves once only, last (`ser-h=n`, `h=1`), [`plan`] builds
//! **complete stalemate pictures** instead (module `complete`): every piece of the stalemated
//! side placed, each left without a move, so that the count per picture is the sum of all
//! their distances; the accounting of the other pieces below is not needed there.
//!
//! **The other pieces** (of a stalemate picture). In the final position every piece `P` of
//! the stalemated side `M` other than its king is either taken, or stands on a square from
//! which it has no legal move. Take the position after a move, a picture alive in it with
//! `sa` and `sm` moves to spare (the moves each side has left beyond its picture pieces'
//! distances), and a piece `P` of `M` on `x` that is not in the picture. Its *holes* are the
//! squares it could step to first on the empty board (a pawn: the square in front; a
//! knight: its leaps; a line piece or king: the next square of each of its lines) that are
//! not filled now (for a piece other than a pawn: not by a piece of `M`), or are filled by a
//! piece of the picture that does not end there. If `P` stays on `x` to the end, untaken,
//! each hole must be filled at the end (a pawn's square in front by any piece, any other
//! hole by a piece of `M`: an opponent's piece there would be taken), unless `P` is pinned:
//! - pinned: its king's square of the picture lies on a line through `x` with a square
//!   beyond `x`, of a kind that takes all its moves (a rook across a diagonal, a bishop
//!   along a rank or file, a knight on any line, a pawn on a rank or diagonal, never a
//!   queen), and the opponent has a piece that could pin along it (a queen, a pawn that may
//!   promote, a rook or a bishop as the line asks). Such a piece is counted for nothing;
//! - taken: by an opponent's piece `X` that can reach `x`: outside the picture within `sa`
//!   moves; in the picture, with the detour through `x` (its distance to `x`, then from `x`
//!   to its own squares, castling gone; nothing for a pawn) no longer than its distance now
//!   plus `sa`. Counted for nothing;
//! - each hole filled: by a piece of the picture ending there (the hole is one of the
//!   picture's squares), by a piece outside the picture that fills it now and stays, by an
//!   opponent's piece within `sa` moves (a pawn's square in front only), or else by another
//!   piece of `M` outside the picture, not now on it, so moving there: one move at least.
//!   A hole that no piece of `M` other than `P` (nor its king) can reach within `sm` moves
//!   cannot be filled, and then `P` must move;
//! - or `P` moves: one move at least.
//!
//! The moves of `M`'s pieces outside the picture all come out of `sm` (those inside make at
//! least their distances, already counted), and different squares are filled by different
//! pieces. So with `F` the pieces that must move (a hole none can fill), `sm ≥ |F|`, and one
//! more when some other piece has a hole that none of `F` can reach in time (it moves, or
//! some piece outside `F` moves to fill it). And with the pieces' filler counts `n₁ ≥ n₂ ≥ …`
//! (`F`'s counted as infinite), whichever `i` of them move, one of the first `i + 1` stays
//! and needs at least `nᵢ₊₁` moving fillers: `sm ≥ minᵢ max(i, nᵢ₊₁)`. Every test above
//! only ever drops requirements of the true final position (a hole filled now may empty, a
//! piece may move more than once, fillers may need more than one move, the pin and the
//! capture need more than what is asked), so each is at most what a real stalemate costs,
//! and a picture that fails one cannot be reached: the pictures still miss no stalemate.
//!
//! The count is kept per picture and changed by each move only for the pieces it moves,
//! captures or whose castling it ends: a move costs a few table look-ups per live picture.
//! The pictures alive after a move are among those alive before it, so each position hands
//! its children a shorter list.
//!
//! Only the minimal pictures are kept (one whose pieces and squares contain another's says
//! nothing more), and pictures that differ only in where one piece stands are merged into
//! one whose piece may stand on any of those squares: its distance is the least over the
//! set, so the merged picture is alive exactly when one of its members is. A piece's reach
//! within each budget is worked out once, so squares it cannot reach in time are never
//! tried as checker, guard or blocker squares.

use crate::geometry::{Square, Squares};
use crate::piece::{Color, Kind};
use crate::position::{Move, Position, castle_squares};
use crate::rules::Goal;
use crate::rules::bound::{applies, castlings, castlings_with};
use crate::rules::chess::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use arrayvec::ArrayVec;
use std::sync::{Arc, LazyLock};

mod closure;
mod complete;

/// A distance too large for any count ("unreachable").
const FAR: u8 = 60;
/// Target kinds: the five piece kinds (their [`Kind`] index), the pawn, and "any kind" (a
/// blocker, which may be a promoted pawn of any kind).
const K_KING: u8 = 0;
const K_ROOK: u8 = 2;
const K_PAWN: u8 = 5;
const K_ANY: u8 = 6;
/// The kinds a pawn may become.
const PROMOTED: [u8; 4] = [1, 2, 3, 4];
/// No piece (in the square-to-piece map).
const NONE: u8 = u8::MAX;
/// Capture counts the pawn tables tell apart: 0 to 6, the last meaning "as many as it
/// likes" (no pawn path has room for more than six).
const CAPS: usize = 7;
/// Captures without limit.
const ANY_CAPS: u8 = CAPS as u8 - 1;

/// Distances on the empty board, computed once.
struct Tables {
    /// King, queen, rook, bishop, knight: `piece[k][from][to]`.
    piece: Vec<[[u8; 64]; 64]>,
    /// A pawn that stays a pawn, making at most `caps` captures on its way:
    /// `pawn[colour][caps][from][to]`.
    pawn: Vec<[[u8; 64]; 64]>,
    /// A pawn promoted on its way: `promo[colour][k - 1][caps][from][to]` for queen to
    /// knight.
    promo: Vec<[[u8; 64]; 64]>,
    /// A pawn becoming anything at all (itself included): the least of the above,
    /// `any[colour][caps][from][to]`.
    any: Vec<[[u8; 64]; 64]>,
    /// The squares strictly between two squares on a line (empty when not on a line).
    between: Vec<[u64; 64]>,
    /// Empty-board attacks of king, queen, rook, bishop, knight.
    attacks: Vec<[u64; 64]>,
    /// Per square `s`, along the ranks and files (`[0]`) and the diagonals (`[1]`): the
    /// squares `k` on a line through `s` with a square beyond `s` (on the side away from
    /// `k`), where a pinning piece could stand.
    pin_rays: [[u64; 64]; 2],
}

/// The empty-board attacks of kind `k` (table index: king to knight) from `s`.
#[inline]
fn attacks_of(k: u8, s: usize) -> u64 {
    TABLES.attacks[k as usize][s]
}

/// [`attacks_of`], worked out (for the tables).
fn attacks_from(k: u8, s: usize) -> u64 {
    let sq = Square(s as u8);
    match k {
        0 => king_attacks(sq),
        1 => rook_attacks(sq, 0) | bishop_attacks(sq, 0),
        2 => rook_attacks(sq, 0),
        3 => bishop_attacks(sq, 0),
        _ => knight_attacks(sq),
    }
}

/// Moves a pawn of colour `c` needs from `a` to `b` staying a pawn (the move onto the last
/// rank included when `b` is there, as the promoting move).
fn pawn_distance(c: Color, a: usize, b: usize) -> u8 {
    let (ra, rb) = match c {
        Color::White => ((a / 8) as i32, (b / 8) as i32),
        Color::Black => (7 - (a / 8) as i32, 7 - (b / 8) as i32),
    };
    if ra == 0 || ra == 7 {
        return FAR;
    }
    let dr = rb - ra;
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    if dr < 1 && !(dr == 0 && df == 0) {
        return FAR;
    }
    if dr == 0 {
        return 0;
    }
    if ra == 1 && dr >= 2 && df <= dr - 2 {
        return (dr - 1) as u8;
    }
    if df <= dr { dr as u8 } else { FAR }
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut piece = vec![[[FAR; 64]; 64]; 5];
    for (k, t) in piece.iter_mut().enumerate() {
        for from in 0..64 {
            // Breadth first on the empty board.
            let row = &mut t[from];
            row[from] = 0;
            let mut frontier = 1u64 << from;
            let mut seen = frontier;
            let mut d = 0;
            while frontier != 0 {
                d += 1;
                let mut next = 0u64;
                for s in Squares(frontier) {
                    next |= attacks_from(k as u8, s.index());
                }
                next &= !seen;
                for s in Squares(next) {
                    row[s.index()] = d;
                }
                seen |= next;
                frontier = next;
            }
        }
    }
    let mut pawn = vec![[[FAR; 64]; 64]; 2 * CAPS];
    let mut promo = vec![[[FAR; 64]; 64]; 8 * CAPS];
    let mut any = vec![[[FAR; 64]; 64]; 2 * CAPS];
    for c in [Color::White, Color::Black] {
        let last = if c == Color::White { 56 } else { 0 };
        // A pawn makes at least one capture per file it changes: with at most `caps`
        // captures it reaches the squares (and promotes on those) at most `caps` files away.
        for a in 0..64 {
            let to_last: [u8; 8] = std::array::from_fn(|f| pawn_distance(c, a, last + f));
            for b in 0..64 {
                // A pawn on its last rank is promoted: "stays a pawn" ends before it.
                let d = if b / 8 == last / 8 { FAR } else { pawn_distance(c, a, b) };
                let df = (a % 8).abs_diff(b % 8);
                for caps in df..CAPS {
                    pawn[c.index() * CAPS + caps][a][b] = d;
                }
            }
            for (i, &k) in PROMOTED.iter().enumerate() {
                for b in 0..64 {
                    // The best by the files the pawn changes, then the least up to each count.
                    let mut by_files = [FAR; CAPS];
                    for (f, &d) in to_last.iter().enumerate() {
                        let df = (a % 8).abs_diff(f).min(CAPS - 1);
                        by_files[df] = by_files[df].min(d.saturating_add(piece[k as usize][last + f][b]).min(FAR));
                    }
                    let mut best = FAR;
                    for (caps, &d) in by_files.iter().enumerate() {
                        best = best.min(d);
                        promo[(c.index() * 4 + i) * CAPS + caps][a][b] = best;
                    }
                }
            }
            for caps in 0..CAPS {
                let row = c.index() * CAPS + caps;
                for b in 0..64 {
                    let mut best = pawn[row][a][b];
                    for i in 0..4 {
                        best = best.min(promo[(c.index() * 4 + i) * CAPS + caps][a][b]);
                    }
                    any[row][a][b] = best;
                }
            }
        }
    }
    let mut between = vec![[0u64; 64]; 64];
    for (a, row) in between.iter_mut().enumerate() {
        for (b, e) in row.iter_mut().enumerate() {
            let (sa, sb) = (Square(a as u8), Square(b as u8));
            let line = if rook_attacks(sa, 0) & (1u64 << b) != 0 {
                rook_attacks(sa, 1u64 << b) & rook_attacks(sb, 1u64 << a)
            } else if bishop_attacks(sa, 0) & (1u64 << b) != 0 {
                bishop_attacks(sa, 1u64 << b) & bishop_attacks(sb, 1u64 << a)
            } else {
                0
            };
            *e = line;
        }
    }
    let attacks = (0..5u8).map(|k| std::array::from_fn(|s| attacks_from(k, s))).collect();
    let mut pin_rays = [[0u64; 64]; 2];
    for (i, dirs) in [[(1, 0), (-1, 0), (0, 1), (0, -1)], [(1, 1), (1, -1), (-1, 1), (-1, -1)]].iter().enumerate() {
        for (s, e) in pin_rays[i].iter_mut().enumerate() {
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            let on = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
            for &(df, dr) in dirs {
                if !on(f + df, r + dr) {
                    continue;
                }
                let (mut g, mut q) = (f - df, r - dr);
                while on(g, q) {
                    *e |= 1u64 << (q * 8 + g);
                    g -= df;
                    q -= dr;
                }
            }
        }
    }
    Tables { piece, pawn, promo, any, between, attacks, pin_rays }
});

/// The table index of an orthodox kind (king 0 … knight 4, pawn 5).
fn kind_index(k: Kind) -> u8 {
    match k {
        Kind::King => 0,
        Kind::Queen => 1,
        Kind::Rook => 2,
        Kind::Bishop => 3,
        Kind::Knight => 4,
        _ => K_PAWN,
    }
}

/// One piece of a picture: who, as what, where.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Target {
    id: u8,
    kind: u8,
    sq: u8,
}

/// One piece of a picture as the search follows it: who, as what, and the squares it may
/// end on (pictures alike but for this piece's square are kept as one: such a picture is
/// alive exactly when one of them is).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Aim {
    id: u8,
    kind: u8,
    squares: u64,
}

/// The distance of a piece (colour `c`, kind `now` on `from`) to the nearest square of `aim`,
/// a pawn capturing at most `caps` times.
#[inline]
fn distance_to(c: Color, now: u8, from: usize, aim: &Aim, castles: &[crate::rules::bound::Castling], caps: u8) -> u8 {
    if aim.squares & aim.squares.wrapping_sub(1) == 0 {
        return distance(c, now, from, aim.kind, aim.squares.trailing_zeros() as usize & 63, castles, caps);
    }
    let mut best = FAR;
    for s in Squares(aim.squares) {
        best = best.min(distance(c, now, from, aim.kind, s.index(), castles, caps));
    }
    best
}

/// Merges pictures that differ in one piece's square only (same pieces, same kinds, the
/// same squares for all the others), piece by piece: the merged picture needs, of each
/// side, the least of what its members need, so it is alive exactly when one of them is.
fn merge(pictures: Vec<Vec<Aim>>, pieces: usize) -> Vec<Vec<Aim>> {
    let mut pictures = pictures;
    for id in 0..pieces as u8 {
        let mut index: std::collections::HashMap<(Vec<Aim>, u8), usize, std::hash::BuildHasherDefault<Mix>> = Default::default();
        let mut out: Vec<Vec<Aim>> = Vec::with_capacity(pictures.len());
        for pic in pictures {
            let Some(at) = pic.iter().position(|a| a.id == id) else {
                out.push(pic);
                continue;
            };
            let mut rest = pic.clone();
            let aim = rest.remove(at);
            match index.entry((rest, aim.kind)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    let merged = &mut out[*e.get()];
                    if let Some(a) = merged.iter_mut().find(|a| a.id == id) {
                        a.squares |= aim.squares;
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(out.len());
                    out.push(pic);
                }
            }
        }
        pictures = out;
    }
    pictures
}

/// The pictures of one search, shared by all its positions.
#[derive(Debug)]
struct Pictures {
    /// Each piece's colour, by identity.
    color: Vec<Color>,
    /// The mating side.
    mating: Color,
    /// All pictures' pieces, one after the other.
    targets: Vec<Aim>,
    /// The pictures.
    pics: Vec<Pic>,
    /// Whether the goal is stalemate: then the stalemated side's other pieces are accounted
    /// for too ([`Fates`]).
    stalemate: bool,
}

/// One picture: its pieces in [`Pictures::targets`], their identities as a mask, the
/// squares its pieces may end on, and those of the stalemated (mated) king.
#[derive(Debug, Clone, Copy)]
struct Pic {
    start: u32,
    len: u8,
    mask: u64,
    squares: u64,
    king: u64,
    /// The pieces of the picture that may be taken on their square (by the last move of a
    /// complete stalemate picture, `complete.rs`); taking any other piece of `mask` ends it.
    takeable: u64,
    /// The pieces of the picture other than kings and takeable pieces, per side (mating
    /// side first): the other side's pawns may not capture them ([`caps_left`]).
    inpic: [i8; 2],
}

/// What a position of a help search knows of the pictures: which are alive, with each
/// side's moves to spare, and which piece stands where.
#[derive(Clone, Debug)]
pub struct Plan {
    shared: Arc<Pictures>,
    /// Alive pictures: index, moves to spare of the mating side and of the mated side.
    alive: Vec<(u32, i8, i8)>,
    /// The identity of the piece on each square.
    ids: [u8; 64],
    /// The moves each side has left: the mating side, then the mated one.
    left: [i8; 2],
    /// The pieces other than kings each side has on the board (mating side first).
    count: [i8; 2],
}

/// The distance of a piece of colour `c` and kind `now` (table index) on `from` to kind
/// `to_kind` on `to`, with `castles` the castlings its side still has (king and rook); a
/// pawn may capture at most `caps` times on its way ([`ANY_CAPS`]: as often as it likes).
#[inline]
fn distance(c: Color, now: u8, from: usize, to_kind: u8, to: usize, castles: &[crate::rules::bound::Castling], caps: u8) -> u8 {
    let t = &*TABLES;
    if now == K_PAWN {
        let caps = caps.min(ANY_CAPS) as usize;
        return match to_kind {
            K_PAWN => t.pawn[c.index() * CAPS + caps][from][to],
            K_ANY => t.any[c.index() * CAPS + caps][from][to],
            k if (1..=4).contains(&k) => t.promo[(c.index() * 4 + k as usize - 1) * CAPS + caps][from][to],
            _ => FAR,
        };
    }
    if to_kind != now && to_kind != K_ANY {
        return FAR;
    }
    let mut d = t.piece[now as usize][from][to];
    for c in castles {
        if now == K_KING {
            d = d.min(1 + t.piece[0][c.king_to][to]);
        } else if now == K_ROOK && c.rook_from == from {
            d = d.min(t.piece[2][c.rook_to][to]);
        }
    }
    d
}

/// The castlings of colour `c` in `p`.
fn castles_of(p: &Position, c: Color) -> ArrayVec<crate::rules::bound::Castling, 2> {
    match p.king(c) {
        Some(k) if p.castling() != 0 => castlings(p, c, k.index()),
        _ => ArrayVec::new(),
    }
}

/// Move budgets the builder's reach masks tell apart (beyond, "any number").
const WITHIN: usize = 32;

/// Most pictures worked out for one search; beyond, the search goes without.
const MOST_PICTURES: usize = 1 << 18;

/// Works out the pictures of `p` for a mate of `mated` within `mated_moves` of its moves
/// and `mating_moves` of the opponent's (the mate included); `None` when they do not apply
/// (fairy pieces, Réserve, goals other than mate and stalemate) or are too many.
pub fn plan(p: &Position, goal: Goal, mated: Color, mated_moves: u32, mating_moves: u32) -> Option<Plan> {
    let check = match goal {
        Goal::Mate => true,
        Goal::Stalemate => false,
        _ => return None,
    };
    if !applies(p) || mated_moves > 30 || mating_moves > 30 {
        return None;
    }
    if !check && mating_moves == 1 {
        // The stalemating side moves once, last: every stalemated piece is placed.
        return complete::plan(p, mated, mated_moves);
    }
    let mut b = Builder::new(p, mated, mated_moves as i32, mating_moves as i32, check)?;
    b.run();
    if b.overflow {
        return None;
    }
    if let Some(closed) = closure::close(&b) {
        b.found = closed;
    }
    let kept = minimal(&b.found, b.king);
    let found: Vec<Vec<Aim>> =
        kept.iter().map(|&i| b.found[i].0.iter().map(|t| Aim { id: t.id, kind: t.kind, squares: 1u64 << t.sq }).collect()).collect();
    Some(assemble(&b, &merge(found, b.pieces.len()), |_| 0, !check))
}

/// The plan of the pictures `merged` of builder `b`, all alive at the start (those a side
/// cannot reach in its moves left are dropped); `takeable` gives the pieces of a picture that
/// may be taken on their squares ([`Pic::takeable`]); `stalemate`: whether the stalemated
/// side's other pieces are accounted for after each move ([`Pictures::stalemate`]).
fn assemble(b: &Builder, merged: &[Vec<Aim>], takeable: fn(&[Aim]) -> u64, stalemate: bool) -> Plan {
    let mut ids = [NONE; 64];
    for (i, &(_, _, sq)) in b.pieces.iter().enumerate() {
        ids[sq as usize] = i as u8;
    }
    let mut targets = Vec::new();
    let mut pics = Vec::with_capacity(merged.len());
    let mut alive = Vec::with_capacity(merged.len());
    let side = |id: u8| (b.pieces[id as usize].0 != b.mating) as usize;
    let mut count = [0i8; 2];
    for (id, &(_, kind, _)) in b.pieces.iter().enumerate() {
        if kind != K_KING {
            count[side(id as u8)] += 1;
        }
    }
    for aims in merged {
        let takeable = takeable(aims);
        let mut inpic = [0i8; 2];
        for a in aims {
            if b.pieces[a.id as usize].1 != K_KING && takeable & 1u64 << a.id == 0 {
                inpic[side(a.id)] += 1;
            }
        }
        let mut need = [0i32; 2];
        for a in aims {
            let (c, now, from) = b.pieces[a.id as usize];
            let caps = caps_left(count, inpic, side(a.id));
            need[side(a.id)] += distance_to(c, now, from as usize, a, &b.castles[c.index()], caps) as i32;
        }
        let spare = (b.wa - need[0], b.bm - need[1]);
        if spare.0 < 0 || spare.1 < 0 {
            continue;
        }
        alive.push((pics.len() as u32, spare.0 as i8, spare.1 as i8));
        pics.push(Pic {
            start: targets.len() as u32,
            len: aims.len() as u8,
            mask: aims.iter().fold(0, |m, a| m | 1u64 << a.id),
            squares: aims.iter().fold(0, |m, a| m | a.squares),
            king: aims.iter().filter(|a| a.id == b.king).fold(0, |m, a| m | a.squares),
            takeable,
            inpic,
        });
        targets.extend_from_slice(aims);
    }
    let shared = Pictures { color: b.pieces.iter().map(|x| x.0).collect(), mating: b.mating, targets, pics, stalemate };
    Plan { shared: Arc::new(shared), alive, ids, left: [b.wa as i8, b.bm as i8], count }
}

/// The captures each pawn of side `side` (0: the mating side, 1: the mated side) may still
/// make on its way to a picture: one per piece of the other side, its king aside, that is
/// on the board (`count` per side) and not among the picture's pieces (`inpic` per side),
/// which stay to the end. A pawn changes file only by capturing, so its distance to a
/// square counts the captures it needs ([`distance`]); the bound asks each pawn alone for no
/// more than all of them, which never asks more than a real line makes.
#[inline]
fn caps_left(count: [i8; 2], inpic: [i8; 2], side: usize) -> u8 {
    (count[1 - side] - inpic[1 - side]).clamp(0, ANY_CAPS as i8) as u8
}

/// The pictures of `found` (each sorted) that hold no other one: a picture holding another
/// is alive only where the other is, so it never keeps a line the other does not (equal
/// pictures count as holding each other: the first is kept). In the order found.
fn minimal(found: &[(ArrayVec<Target, 16>, i8, i8)], king: u8) -> Vec<usize> {
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by_key(|&i| found[i].0.len());
    // The kept pictures by their first two pieces other than the king (`None` for a
    // picture with fewer), and the king's square: a picture held by `Y` has its first two
    // among `Y`'s.
    let mut index: std::collections::HashMap<u64, Vec<usize>, std::hash::BuildHasherDefault<Mix>> = Default::default();
    let key = |ks: u8, a: Option<Target>, b: Option<Target>| {
        let code = |t: Option<Target>| t.map_or(0xFF_FFFF, |t| (t.id as u64) << 16 | (t.kind as u64) << 8 | t.sq as u64);
        (ks as u64) << 48 | code(a) << 24 | code(b)
    };
    let mut kept = Vec::new();
    for &i in &order {
        let ts = &found[i].0;
        let ks = ts.iter().find(|t| t.id == king).map_or(NONE, |t| t.sq);
        let others: ArrayVec<Target, 16> = ts.iter().copied().filter(|t| t.id != king).collect();
        let held = |k: u64| index.get(&k).is_some_and(|xs| xs.iter().any(|&x| is_subset(&found[x].0, ts)));
        let mut dominated = held(key(ks, None, None));
        for (a, &ta) in others.iter().enumerate() {
            if dominated {
                break;
            }
            dominated = held(key(ks, Some(ta), None)) || others[a + 1..].iter().any(|&tb| held(key(ks, Some(ta), Some(tb))));
        }
        if !dominated {
            index.entry(key(ks, others.first().copied(), others.get(1).copied())).or_default().push(i);
            kept.push(i);
        }
    }
    kept.sort_unstable();
    kept
}

/// A hasher for keys that are already well spread but for their low bits (one multiply).
#[derive(Default)]
struct Mix(u64);

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26);
    }
}

/// Whether sorted `a` is a subset of sorted `b`.
fn is_subset(a: &[Target], b: &[Target]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

impl Plan {
    /// How many pictures are alive.
    pub fn alive(&self) -> usize {
        self.alive.len()
    }

    /// How many pictures there were at the start.
    pub fn pictures(&self) -> usize {
        self.shared.pics.len()
    }

    /// The plan after `m`, a legal move of `p` (judged before it is played); `None` when no
    /// picture is alive after it.
    pub fn after(&self, p: &Position, m: Move) -> Option<Plan> {
        let mover = p.side_to_move();
        // The pieces whose distances change: (identity, kind before, square before, kind
        // after, square after); a captured piece's identity.
        let mut changed: ArrayVec<(u8, u8, u8, u8, u8), 6> = ArrayVec::new();
        let mut victim = NONE;
        let mut ids = self.ids;
        let kind_at = |pos: &Position, s: Square| pos.piece_at(s).map(|pc| kind_index(pc.kind)).unwrap_or(K_PAWN);
        match m {
            Move::Normal { from, to, promotion } => {
                victim = ids[to.index()];
                let id = ids[from.index()];
                let k0 = kind_at(p, from);
                changed.push((id, k0, from.0, promotion.map_or(k0, kind_index), to.0));
                ids[to.index()] = id;
                ids[from.index()] = NONE;
            }
            Move::EnPassant { from, to } => {
                let cap = Square(if mover == Color::White { to.0 - 8 } else { to.0 + 8 });
                victim = ids[cap.index()];
                ids[cap.index()] = NONE;
                let id = ids[from.index()];
                changed.push((id, K_PAWN, from.0, K_PAWN, to.0));
                ids[to.index()] = id;
                ids[from.index()] = NONE;
            }
            Move::Castle { king, rook } => {
                let (kt, rt) = castle_squares(king, rook);
                let (ik, ir) = (ids[king.index()], ids[rook.index()]);
                changed.push((ik, K_KING, king.0, K_KING, kt.0));
                changed.push((ir, K_ROOK, rook.0, K_ROOK, rt.0));
                ids[king.index()] = NONE;
                ids[rook.index()] = NONE;
                ids[kt.index()] = ik;
                ids[rt.index()] = ir;
            }
            _ => return None,
        }
        // Lost castling rights change the distances of the kings and rooks that had them.
        let rights = p.castling_after(m);
        if p.castling() != rights {
            for c in [Color::White, Color::Black] {
                let before = castles_of(p, c);
                if before.is_empty() {
                    continue;
                }
                let mut sqs: ArrayVec<u8, 3> = ArrayVec::new();
                if let Some(k) = p.king(c) {
                    sqs.push(k.0);
                }
                for cs in &before {
                    sqs.push(cs.rook_from as u8);
                }
                for s in sqs {
                    let id = self.ids[s as usize];
                    if id == NONE || changed.iter().any(|x| x.0 == id) || id == victim {
                        continue;
                    }
                    let k = kind_at(p, Square(s));
                    let _ = changed.try_push((id, k, s, k, s));
                }
            }
        }
        let sh = &*self.shared;
        let no = || [ArrayVec::new(), ArrayVec::new()];
        let cb = if p.castling() != 0 { [castles_of(p, Color::White), castles_of(p, Color::Black)] } else { no() };
        let after = |c: Color| p.king(c).map_or(ArrayVec::new(), |k| castlings_with(rights, c, k.index()));
        let ca = if rights != 0 { [after(Color::White), after(Color::Black)] } else { no() };
        let mating_moves = mover == sh.mating;
        let victim_bit = if victim == NONE { 0 } else { 1u64 << victim };
        let changed_bits = changed.iter().fold(0u64, |m, x| m | 1u64 << x.0);
        // The mover's side (0: the mating side), and the pieces each side has after the move.
        let ms = !mating_moves as usize;
        let mut count = self.count;
        if victim != NONE {
            count[1 - ms] -= 1;
        }
        // A capture leaves the mover's pawns one capture fewer to make ([`caps_left`]): the
        // squares of its pawns (by identity), whose distances then change too.
        let mut pawn_at = [NONE; 64];
        let mut pawns = 0u64;
        if victim != NONE {
            for sq in Squares(p.pieces(mover, Kind::Pawn)) {
                let id = self.ids[sq.index()];
                if id != NONE && changed_bits & 1u64 << id == 0 {
                    pawn_at[id as usize] = sq.0;
                    pawns |= 1u64 << id;
                }
            }
        }
        // One piece moved, nothing taken and no castling anywhere (the common case): its
        // change in distance, per target and captures left, looked up in a small memo.
        let simple = victim == NONE && changed.len() == 1 && cb[0].is_empty() && cb[1].is_empty() && ca[0].is_empty() && ca[1].is_empty();
        let (mid, k0, s0, k1, s1) = changed[0];
        let mc = sh.color[mid as usize];
        let mut memo: [(u64, u8, u8, i8); 8] = [(0, 0, 0, 0); 8];
        let mut delta = |t: &Aim, caps: u8| -> i32 {
            let slot = &mut memo[(t.squares.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize ^ (t.kind as usize & 7)];
            if slot.0 == t.squares && slot.1 == t.kind && slot.2 == caps {
                return slot.3 as i32;
            }
            let d = distance_to(mc, k0, s0 as usize, t, &[], caps) as i32 - distance_to(mc, k1, s1 as usize, t, &[], caps) as i32;
            *slot = (t.squares, t.kind, caps, d as i8);
            d
        };
        let mover_mating = mc == sh.mating;
        let mut alive = Vec::new();
        for &(j, sa, sm) in &self.alive {
            let pic = sh.pics[j as usize];
            if pic.mask & !pic.takeable & victim_bit != 0 {
                continue;
            }
            let (mut sa, mut sm) = (sa as i32, sm as i32);
            // The captures left to the mover's pawns before and after the move, and to the
            // other side's (unchanged).
            let (before, after, other) =
                (caps_left(self.count, pic.inpic, ms), caps_left(count, pic.inpic, ms), caps_left(count, pic.inpic, 1 - ms));
            let touched = changed_bits | if before != after { pawns } else { 0 };
            if pic.mask & touched != 0 {
                let ts = &sh.targets[pic.start as usize..pic.start as usize + pic.len as usize];
                if simple {
                    if let Some(t) = ts.iter().find(|t| t.id == mid) {
                        let d = delta(t, before);
                        if mover_mating {
                            sa += d;
                        } else {
                            sm += d;
                        }
                    }
                } else {
                    for t in ts {
                        if touched & 1u64 << t.id == 0 {
                            continue;
                        }
                        let c = sh.color[t.id as usize];
                        let (c0, c1) = if c == mover { (before, after) } else { (other, other) };
                        let (d0, d1) = match changed.iter().find(|x| x.0 == t.id) {
                            Some(&(_, k0, s0, k1, s1)) => (
                                distance_to(c, k0, s0 as usize, t, &cb[c.index()], c0) as i32,
                                distance_to(c, k1, s1 as usize, t, &ca[c.index()], c1) as i32,
                            ),
                            None => {
                                let sq = pawn_at[t.id as usize] as usize;
                                (distance_to(c, K_PAWN, sq, t, &[], c0) as i32, distance_to(c, K_PAWN, sq, t, &[], c1) as i32)
                            }
                        };
                        if c == sh.mating {
                            sa += d0 - d1;
                        } else {
                            sm += d0 - d1;
                        }
                    }
                }
            }
            if mating_moves {
                sa -= 1;
            } else {
                sm -= 1;
            }
            if sa >= 0 && sm >= 0 {
                if alive.is_empty() {
                    alive.reserve(self.alive.len());
                }
                alive.push((j, sa as i8, sm as i8));
            }
        }
        let mut left = self.left;
        left[!mating_moves as usize] -= 1;
        if sh.stalemate && !alive.is_empty() {
            // Every other piece of the stalemated side must be left without a move.
            let q = p.play(m);
            let min_sm = alive.iter().map(|x| x.2).min().unwrap_or(0).max(0) as usize;
            FATES.with_borrow_mut(|fates| {
                if fates.fill(&q, sh.mating.opponent(), left[0] as i32, &ids, min_sm) {
                    alive.retain(|&(j, sa, sm)| fates.allow(sh, sh.pics[j as usize], sa as i32, sm as i32));
                }
            });
        }
        if alive.is_empty() { None } else { Some(Plan { shared: self.shared.clone(), alive, ids, left, count }) }
    }
}

/// A piece of the stalemated side, not its king, that has a move in the position at hand or
/// may have one once a piece of a picture has left (module doc, "the other pieces").
#[derive(Debug)]
struct Fate {
    /// Its identity.
    id: u8,
    /// Its square.
    sq: u8,
    /// The squares on which its king would let it be pinned so that it cannot move (none
    /// for a queen, nor when the opponent has no piece that could pin it on such a line).
    pin: u64,
    /// Where it goes: each first-step square of its moves on the empty board (a pawn: the
    /// square in front) that is not filled by a piece of its side (for a pawn: by any
    /// piece), or is filled by a piece that may leave.
    holes: ArrayVec<Hole, 8>,
    /// Its kind (table index).
    kind: u8,
}

/// A square a [`Fate`]'s piece could move to.
#[derive(Debug, Clone, Copy)]
struct Hole {
    /// The square.
    sq: u8,
    /// The piece on it that takes the move away now (its identity), or [`NONE`].
    occupant: u8,
}

/// How many move counts the fillers' test of [`Fates::allow`] tells apart.
const NEAR: usize = 4;

/// Whether the identities `mask` hold `id` (never [`NONE`]).
#[inline]
fn holds(mask: u64, id: u8) -> bool {
    id < 64 && mask >> id & 1 != 0
}

thread_local! {
    /// The [`Fates`] of the position at hand, kept from one position to the next (they are
    /// large: not made anew for each).
    static FATES: std::cell::RefCell<Fates> = std::cell::RefCell::new(Fates {
        list: ArrayVec::new(),
        mated: Color::White,
        kinds: [K_PAWN; 64],
        ids: [NONE; 64],
        helpers: 0,
        theirs: 0,
        a_left: 0,
        castles: [ArrayVec::new(), ArrayVec::new()],
        rows: [&FAR_ROW; 64],
        slow: 0,
        others: [[FAR; 64]; 16],
        their_min: [FAR; 64],
    });
}

/// The [`Fate`]s of one position.
struct Fates {
    list: ArrayVec<Fate, 16>,
    /// The stalemated side.
    mated: Color,
    /// The kind (table index) on each square.
    kinds: [u8; 64],
    /// The identity of the piece on each square.
    ids: [u8; 64],
    /// The stalemated side's pieces but its king, and the opponent's pieces.
    helpers: u64,
    theirs: u64,
    /// The opponent's moves left.
    a_left: i32,
    /// Each side's castlings.
    castles: [ArrayVec<crate::rules::bound::Castling, 2>; 2],
    /// Per occupied square, the distances of its piece to every square as anything it may
    /// become ([`any_row`]); stale on the other squares.
    rows: [&'static [u8; 64]; 64],
    /// The squares of the kings and rooks whose castlings change their distances: those
    /// ask [`distance`] itself.
    slow: u64,
    /// Per entry of `list`, the least distance to each square of the stalemated side's
    /// other pieces (not its king, not the entry's own piece), castling aside.
    others: [[u8; 64]; 16],
    /// The least distance to each square of the opponent's pieces, castling aside.
    their_min: [u8; 64],
}

/// `a[i] = min(a[i], b[i])` for every square (vectorised).
#[inline(always)]
fn min_row(a: &mut [u8; 64], b: &[u8; 64]) {
    for (x, &y) in a.iter_mut().zip(b.iter()) {
        *x = (*x).min(y);
    }
}

/// A row of distances that reach nothing.
static FAR_ROW: [u8; 64] = [FAR; 64];

/// The distances of a piece of colour `c`, kind `k` (table index) on `from` to every square,
/// as any kind it may become, capturing as often as it likes, castling aside: `distance(c,
/// k, from, K_ANY, to, &[], ANY_CAPS)` for every `to` at once.
#[inline]
fn any_row(c: Color, k: u8, from: usize) -> &'static [u8; 64] {
    let t = &*TABLES;
    if k == K_PAWN { &t.any[c.index() * CAPS + ANY_CAPS as usize][from] } else { &t.piece[k as usize][from] }
}

impl Fates {
    /// The pieces of `mated` in `q` (the position after a move) with a hole, and what could
    /// take their moves away; `a_left` the opponent's moves left, `ids` the pieces'
    /// identities. Empty when there are no more than `at_most` of them (too few to
    /// outnumber any picture's spare moves, so not worth the distances).
    fn fill(&mut self, q: &Position, mated: Color, a_left: i32, ids: &[u8; 64], at_most: usize) -> bool {
        let mating = mated.opponent();
        let own = q.color_bb(mated);
        let theirs = q.color_bb(mating);
        let occ = q.occupied();
        let helpers = own & !q.pieces(mated, Kind::King);
        // A pawn that has just stepped two squares may be taken en passant at once.
        let ep_victim = q.ep_square().map_or(0, |e| match mated {
            Color::White => (1u64 << e.0) << 8,
            Color::Black => (1u64 << e.0) >> 8,
        });
        let mut kinds = [K_PAWN; 64];
        for s in Squares(occ) {
            kinds[s.index()] = q.piece_at(s).map_or(K_PAWN, |pc| kind_index(pc.kind));
        }
        // The pieces and their squares to move to.
        let mut found: ArrayVec<(u8, u8, u64), 16> = ArrayVec::new();
        for s in Squares(helpers & !ep_victim) {
            let si = s.index();
            let k = kinds[si];
            let steps = match k {
                K_PAWN => match mated {
                    Color::White => (1u64 << si) << 8,
                    Color::Black => (1u64 << si) >> 8,
                },
                4 => knight_attacks(s),
                _ => attacks_of(k, si) & king_attacks(s),
            };
            if steps != 0 && !found.is_full() {
                found.push((si as u8, k, steps));
            }
        }
        if found.len() <= at_most {
            return false;
        }
        let pawns = q.pieces(mating, Kind::Pawn) != 0;
        let queens = q.pieces(mating, Kind::Queen) != 0;
        let orth = if pawns || queens || q.pieces(mating, Kind::Rook) != 0 { !0u64 } else { 0 };
        let diag = if pawns || queens || q.pieces(mating, Kind::Bishop) != 0 { !0u64 } else { 0 };
        self.list.clear();
        for (si, k, steps) in found {
            let si = si as usize;
            let (on_lines, on_diagonals) = (TABLES.pin_rays[0][si] & orth, TABLES.pin_rays[1][si] & diag);
            let pin = match k {
                // Pinned on its file, a pawn still steps.
                K_PAWN => (on_lines & (0xFFu64 << (si / 8 * 8))) | on_diagonals,
                4 => on_lines | on_diagonals,
                K_ROOK => on_diagonals,
                3 => on_lines,
                _ => 0,
            };
            // The entry first, its holes written into it in place (built aside and copied,
            // they would be read back right after their bytes were stored: a stall).
            self.list.push(Fate { id: ids[si], sq: si as u8, pin, holes: ArrayVec::new(), kind: k });
            let Some(fate) = self.list.last_mut() else { break };
            for y in Squares(steps) {
                let y = y.index();
                let yb = 1u64 << y;
                // Filled for good unless its occupant is a piece of a picture (which may
                // leave): such a square is kept with its occupant, judged per picture.
                let filled = if k == K_PAWN { occ & yb != 0 } else { own & yb != 0 };
                let occupant = if filled { ids[y] } else { NONE };
                if filled && occupant == NONE {
                    continue; // filled by a piece no picture knows (none such): filled
                }
                fate.holes.push(Hole { sq: y as u8, occupant });
            }
        }
        self.castles = [castles_of(q, Color::White), castles_of(q, Color::Black)];
        self.slow = 0;
        for c in [Color::White, Color::Black] {
            if !self.castles[c.index()].is_empty() {
                self.slow |= q.pieces(c, Kind::King) | q.pieces(c, Kind::Rook);
            }
        }
        for s in Squares(occ) {
            let si = s.index();
            let c = if own >> si & 1 != 0 { mated } else { mating };
            self.rows[si] = any_row(c, kinds[si], si);
        }
        // The least over the other pieces of the side, for each entry: the least over
        // those before it and over those after it.
        let mut before = [FAR; 64];
        let helper_sqs: ArrayVec<u8, 16> = Squares(helpers).map(|s| s.0).take(16).collect();
        let mut e = 0;
        for &h in &helper_sqs {
            if e < self.list.len() && self.list[e].sq == h {
                self.others[e] = before;
                e += 1;
            }
            min_row(&mut before, self.rows[h as usize]);
        }
        let mut after = [FAR; 64];
        let mut e = self.list.len();
        for &h in helper_sqs.iter().rev() {
            if e > 0 && self.list[e - 1].sq == h {
                min_row(&mut self.others[e - 1], &after);
                e -= 1;
            }
            min_row(&mut after, self.rows[h as usize]);
        }
        self.their_min = [FAR; 64];
        for s in Squares(theirs) {
            min_row(&mut self.their_min, self.rows[s.index()]);
        }
        (self.mated, self.kinds, self.ids, self.helpers, self.theirs, self.a_left) = (mated, kinds, *ids, helpers, theirs, a_left);
        true
    }

    /// The fewest moves in which a piece of colour `c` on `from` ends on `y`, and with
    /// `near`, the squares of those that can within each number of moves.
    fn least(&self, c: Color, from: u64, y: usize, near: &mut [u64; NEAR]) -> u8 {
        let mut best = FAR;
        for t in Squares(from) {
            let t = t.index();
            let d = if self.slow >> t & 1 != 0 {
                distance(c, self.kinds[t], t, K_ANY, y, &self.castles[c.index()], ANY_CAPS)
            } else {
                self.rows[t][y & 63]
            };
            best = best.min(d);
            for n in near.iter_mut().skip((d as usize).max(1) - 1) {
                *n |= 1u64 << t;
            }
        }
        best
    }

    /// How far the other pieces are from hole `h` of `f`, the `e`-th entry of the list:
    /// the fewest moves in which another piece of the stalemated side (not its king, not
    /// the occupant) can end on it, and (for a pawn's step only: an opponent's piece on
    /// any other square is taken, and blocks nothing) the same for the opponent's pieces.
    #[inline]
    fn reach(&self, e: usize, f: &Fate, h: &Hole) -> (u8, u8) {
        let y = h.sq as usize & 63;
        let yb = 1u64 << y;
        // Castling kings and rooks, or a piece on the hole itself, which the tables count
        // at distance 0: the pieces taken one by one.
        let exact = self.slow != 0 || h.occupant != NONE;
        let own = if exact { self.least(self.mated, self.helpers & !yb & !(1u64 << f.sq), y, &mut [0; NEAR]) } else { self.others[e][y] };
        let theirs = if f.kind != K_PAWN {
            FAR
        } else if exact {
            self.least(self.mated.opponent(), self.theirs & !yb, y, &mut [0; NEAR])
        } else {
            self.their_min[y]
        };
        (own, theirs)
    }

    /// The squares of the stalemated side's pieces (not its king, not `f`'s, not the one on
    /// the hole) that can end on hole `h` of `f` within `i + 1` moves, for each `i`.
    fn near(&self, f: &Fate, h: &Hole) -> [u64; NEAR] {
        let yb = 1u64 << h.sq;
        let mut near = [0u64; NEAR];
        self.least(self.mated, self.helpers & !yb & !(1u64 << f.sq), h.sq as usize, &mut near);
        near
    }

    /// Whether picture `pic` of `sh` can still be reached with `sa` and `sm` moves to spare
    /// (mating side, stalemated side) as far as the [`Fate`]s tell (module doc, "the other
    /// pieces"): each piece that no pin, no capture and no piece of the picture leaves
    /// without a move must either move itself or have each of its open squares filled by
    /// a piece of its side that moves there; both come out of the stalemated side's spare.
    fn allow(&self, sh: &Pictures, pic: Pic, sa: i32, sm: i32) -> bool {
        // Per piece that neither a pin nor a capture may settle: the fillers it needs if it
        // stays (`u8::MAX`: it cannot stay), the squares that need them, and its square.
        let mut need: ArrayVec<(u8, u8, u8), 16> = ArrayVec::new();
        let mut forced = 0u64;
        for (e, f) in self.list.iter().enumerate() {
            if holds(pic.mask, f.id) || f.pin & pic.king != 0 {
                continue;
            }
            let (mut fillers, mut open) = (0u8, 0u8);
            for (i, h) in f.holes.iter().enumerate() {
                // Filled by a piece of the picture, or by a piece that stays.
                if pic.squares >> h.sq & 1 != 0 || (h.occupant != NONE && !holds(pic.mask, h.occupant)) {
                    continue;
                }
                let (own, theirs) = self.reach(e, f, h);
                if theirs as i32 <= sa {
                    continue; // an opponent's piece may step in front of the pawn
                }
                if own as i32 > sm {
                    fillers = u8::MAX;
                    break;
                }
                fillers += 1;
                open |= 1 << i;
            }
            if fillers == 0 || self.taken(sh, pic, f, sa) {
                continue;
            }
            if fillers == u8::MAX {
                forced |= 1u64 << f.sq;
                if forced.count_ones() as i32 > sm {
                    return false; // more pieces must move than moves are left (below)
                }
            }
            need.push((fillers, open, f.sq));
        }
        if need.len() as i32 <= sm {
            return true;
        }
        // The pieces that cannot stay move, each once at least; if another piece has a
        // square none of them can fill, it moves too or another piece fills it for it.
        let movers = forced.count_ones() as i32;
        let more = need.iter().any(|&(n, open, sq)| {
            n != u8::MAX
                && self.list.iter().find(|f| f.sq == sq).is_some_and(|f| {
                    f.holes.iter().enumerate().any(|(i, h)| {
                        open >> i & 1 != 0 && (sm as usize) <= NEAR && self.near(f, h)[(sm as usize).max(1) - 1] & forced == 0
                    })
                })
        });
        if movers + more as i32 > sm {
            return false;
        }
        // With the `i` neediest pieces moving, the next one stays and needs its fillers:
        // the movers and those fillers are moves of pieces outside the picture.
        need.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let least =
            (0..=need.len()).map(|i| (i as i32).max(need.get(i).map_or(0, |x| if x.0 == u8::MAX { i32::MAX } else { x.0 as i32 }))).min();
        least.is_none_or(|l| l <= sm)
    }

    /// Whether an opponent's piece can take `f`'s piece in time for picture `pic`.
    fn taken(&self, sh: &Pictures, pic: Pic, f: &Fate, sa: i32) -> bool {
        let mating = self.mated.opponent();
        let y = f.sq as usize & 63;
        Squares(self.theirs).any(|xs| {
            let xi = xs.index();
            let x = self.ids[xi];
            let in_pic = holds(pic.mask, x);
            if !in_pic && sa < 1 {
                return false; // it stands elsewhere: a move at least
            }
            let kx = self.kinds[xi];
            let d = if self.slow >> xi & 1 != 0 {
                distance(mating, kx, xi, K_ANY, y, &self.castles[mating.index()], ANY_CAPS)
            } else {
                self.rows[xi][y]
            };
            if d as i32 > self.a_left {
                return false;
            }
            if !in_pic {
                return d as i32 <= sa;
            }
            // A piece of the picture takes it on its way: it must still end on its own
            // square, its moves from there counted after the capture (a king or rook that
            // has moved has no castling left; a pawn: nothing is counted).
            let ts = &sh.targets[pic.start as usize..pic.start as usize + pic.len as usize];
            let Some(aim) = ts.iter().find(|t| t.id == x) else { return true };
            let now = distance_to(sh.mating, kx, xi, aim, &[], ANY_CAPS) as i32;
            let then = if kx == K_PAWN { 0 } else { distance_to(sh.mating, kx, y, aim, &[], ANY_CAPS) as i32 };
            d as i32 + then <= now + sa
        })
    }
}

/// The search for the pictures of one position.
struct Builder<'a> {
    p: &'a Position,
    /// Whether the goal is mate (the king in check) rather than stalemate.
    check: bool,
    mating: Color,
    mated: Color,
    wa: i32,
    bm: i32,
    /// Every piece: colour, kind (table index), square; its identity is its index.
    pieces: Vec<(Color, u8, u8)>,
    castles: [ArrayVec<crate::rules::bound::Castling, 2>; 2],
    /// Per piece and end kind (table index, "any" last): the squares it can reach with at
    /// most `b` moves, for each `b` below [`WITHIN`] (the last: every square it can reach).
    within: Vec<[[u64; WITHIN]; 7]>,
    /// The mated king's identity.
    king: u8,
    // The picture being built.
    s: usize,
    flights: ArrayVec<u8, 8>,
    /// The squares holding a piece of the picture (the king's square too).
    occ: u64,
    /// The squares that must stay empty (the lines relied on).
    empty: u64,
    /// Pieces of the picture: identities.
    used: u64,
    /// The mating pieces placed, with their kind and square (for the flights after).
    placed: ArrayVec<Target, 16>,
    /// The picture's pieces.
    current: ArrayVec<Target, 16>,
    need_a: i32,
    need_m: i32,
    // What is found.
    /// The pictures found (pieces sorted), with each side's moves to spare.
    found: Vec<(ArrayVec<Target, 16>, i8, i8)>,
    overflow: bool,
}

impl<'a> Builder<'a> {
    fn new(p: &'a Position, mated: Color, bm: i32, wa: i32, check: bool) -> Option<Self> {
        let mut pieces = Vec::new();
        let mut king = NONE;
        for s in Squares(p.occupied()) {
            let pc = p.piece_at(s)?;
            if pc.kind == Kind::King && pc.color == mated {
                king = pieces.len() as u8;
            }
            pieces.push((pc.color, kind_index(pc.kind), s.0));
        }
        if king == NONE || pieces.len() > 64 {
            return None;
        }
        let castles = [castles_of(p, Color::White), castles_of(p, Color::Black)];
        let within = pieces
            .iter()
            .map(|&(c, now, from)| {
                let mut w = [[0u64; WITHIN]; 7];
                for (k, row) in w.iter_mut().enumerate() {
                    for s in 0..64 {
                        let d = distance(c, now, from as usize, k as u8, s, &castles[c.index()], ANY_CAPS) as usize;
                        if d < FAR as usize {
                            for e in row.iter_mut().skip(d.min(WITHIN - 1)) {
                                *e |= 1u64 << s;
                            }
                        }
                    }
                }
                w
            })
            .collect();
        Some(Builder {
            p,
            within,
            check,
            mating: mated.opponent(),
            mated,
            wa,
            bm,
            pieces,
            castles,
            king,
            s: 0,
            flights: ArrayVec::new(),
            occ: 0,
            empty: 0,
            used: 0,
            placed: ArrayVec::new(),
            current: ArrayVec::new(),
            need_a: 0,
            need_m: 0,
            found: Vec::new(),
            overflow: false,
        })
    }

    fn dist(&self, id: u8, kind: u8, sq: usize) -> i32 {
        self.dist_capped(id, kind, sq, ANY_CAPS)
    }

    /// [`Self::dist`] for a pawn that may capture at most `caps` times on its way.
    fn dist_capped(&self, id: u8, kind: u8, sq: usize, caps: u8) -> i32 {
        let (c, now, from) = self.pieces[id as usize];
        distance(c, now, from as usize, kind, sq, &self.castles[c.index()], caps) as i32
    }

    fn run(&mut self) {
        let _ = self.p;
        let kid = self.king;
        for s in 0..64 {
            let d = self.dist(kid, K_KING, s);
            if d > self.bm {
                continue;
            }
            self.s = s;
            self.flights = Squares(king_attacks(Square(s as u8))).map(|f| f.0).collect();
            self.occ = 1u64 << s;
            self.used = 1u64 << kid;
            self.current.clear();
            self.current.push(Target { id: kid, kind: K_KING, sq: s as u8 });
            self.need_m = d;
            self.need_a = 0;
            self.empty = 0;
            if self.check {
                self.checkers();
            } else {
                self.flight(0);
            }
            if self.overflow {
                return;
            }
        }
    }

    /// The kinds a mating piece may have at the end.
    fn end_kinds(&self, id: u8) -> ArrayVec<u8, 5> {
        let now = self.pieces[id as usize].1;
        let mut v = ArrayVec::new();
        v.push(now);
        if now == K_PAWN {
            v.extend(PROMOTED);
        }
        v
    }

    /// The squares from which kind `k` of the mating side attacks `x` on the empty board.
    fn attackers_of(&self, k: u8, x: usize) -> u64 {
        if k == K_PAWN { pawn_attacks(self.mated, Square(x as u8)) & 0x00FF_FFFF_FFFF_FF00 } else { attacks_of(k, x) }
    }

    fn checkers(&mut self) {
        let s = self.s;
        for id in 0..self.pieces.len() as u8 {
            let (c, now, _) = self.pieces[id as usize];
            if c != self.mating || now == K_KING {
                continue;
            }
            for k in self.end_kinds(id) {
                let budget = (self.wa - self.need_a).clamp(0, WITHIN as i32 - 1) as usize;
                for q in Squares(self.attackers_of(k, s) & self.within[id as usize][k as usize][budget]) {
                    let q = q.index();
                    let line = TABLES.between[q][s];
                    if self.occ & (1u64 << q | line) != 0 {
                        continue;
                    }
                    let d = self.dist(id, k, q);
                    if self.need_a + d > self.wa {
                        continue;
                    }
                    let saved = (self.empty, self.need_a);
                    self.place_mating(id, k, q, d);
                    self.empty |= line;
                    self.flight(0);
                    self.unplace_mating(q);
                    (self.empty, self.need_a) = saved;
                    if self.overflow {
                        return;
                    }
                }
            }
        }
    }

    fn place_mating(&mut self, id: u8, k: u8, q: usize, d: i32) {
        let t = Target { id, kind: k, sq: q as u8 };
        self.placed.push(t);
        self.current.push(t);
        self.occ |= 1u64 << q;
        self.used |= 1u64 << id;
        self.need_a += d;
    }

    fn unplace_mating(&mut self, q: usize) {
        let t = self.placed.pop();
        self.current.pop();
        self.occ &= !(1u64 << q);
        if let Some(t) = t {
            self.used &= !(1u64 << t.id);
        }
    }

    /// Whether a mating piece of kind `k` on `r` attacks `f` with the picture as it
    /// stands (the mated king's square taken as empty), and the line it needs clear.
    fn reaches(&self, k: u8, r: usize, f: usize) -> Option<u64> {
        let hit = if k == K_PAWN { pawn_attacks(self.mating, Square(r as u8)) } else { attacks_of(k, r) };
        if hit & (1u64 << f) == 0 {
            return None;
        }
        let line = if matches!(k, 1..=3) { TABLES.between[r][f] & !(1u64 << self.s) } else { 0 };
        (line & self.occ == 0).then_some(line)
    }

    /// Deals with flight number `i` and those after it.
    fn flight(&mut self, i: usize) {
        if self.overflow {
            return;
        }
        let Some(&f) = self.flights.get(i) else {
            self.finish();
            return;
        };
        let f = f as usize;
        let fb = 1u64 << f;
        // A piece of the mated side on it: no flight.
        if self.occ & fb != 0 && self.current.iter().any(|t| t.sq as usize == f && self.pieces[t.id as usize].0 == self.mated) {
            self.flight(i + 1);
            return;
        }
        // Attacked by a mating piece placed already.
        // Attacked by a mating piece placed already: nothing more is needed. (In a mate
        // where that line is blocked, something else attacks the flight or fills it; the
        // pieces placed for it only add to this picture, which stays among the mate's.)
        if self.placed.iter().any(|g| g.sq as usize != f && self.reaches(g.kind, g.sq as usize, f).is_some()) {
            self.flight(i + 1);
            return;
        }
        // A new guard.
        for id in 0..self.pieces.len() as u8 {
            if self.used & (1u64 << id) != 0 || self.pieces[id as usize].0 != self.mating {
                continue;
            }
            for k in self.end_kinds(id) {
                let budget = (self.wa - self.need_a).clamp(0, WITHIN as i32 - 1) as usize;
                let mut squares =
                    self.attackers_of(k, f) & !self.occ & !self.empty & !(1u64 << self.s) & self.within[id as usize][k as usize][budget];
                if k == K_KING {
                    squares &= !king_attacks(Square(self.s as u8));
                }
                for r in Squares(squares) {
                    let r = r.index();
                    let Some(line) = self.reaches(k, r, f) else { continue };
                    let d = self.dist(id, k, r);
                    if self.need_a + d > self.wa {
                        continue;
                    }
                    let saved = (self.empty, self.need_a);
                    self.place_mating(id, k, r, d);
                    self.empty |= line;
                    self.flight(i + 1);
                    self.unplace_mating(r);
                    (self.empty, self.need_a) = saved;
                }
            }
        }
        // A blocker.
        if self.occ & fb == 0 && self.empty & fb == 0 {
            for id in 0..self.pieces.len() as u8 {
                if self.used & (1u64 << id) != 0 || self.pieces[id as usize].0 != self.mated {
                    continue;
                }
                let budget = (self.bm - self.need_m).clamp(0, WITHIN as i32 - 1) as usize;
                if self.within[id as usize][K_ANY as usize][budget] & fb == 0 {
                    continue;
                }
                let d = self.dist(id, K_ANY, f);
                let t = Target { id, kind: K_ANY, sq: f as u8 };
                self.current.push(t);
                self.occ |= fb;
                self.used |= 1u64 << id;
                self.need_m += d;
                self.flight(i + 1);
                self.need_m -= d;
                self.used &= !(1u64 << id);
                self.occ &= !fb;
                self.current.pop();
            }
        }
    }

    fn finish(&mut self) {
        let mut key = self.current.clone();
        key.sort_unstable();
        if self.found.len() >= MOST_PICTURES {
            self.overflow = true;
            return;
        }
        self.found.push((key, (self.wa - self.need_a) as i8, (self.bm - self.need_m) as i8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The empty-board moves of a piece, written out square by square (no table): `kind` a
    /// table index, `c` the colour (for pawns).
    fn steps(c: Color, kind: u8, s: usize) -> Vec<(usize, u8)> {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let on = |f: i32, r: i32| (0..8).contains(&f) && (0..8).contains(&r);
        let mut out = Vec::new();
        let mut ride = |dirs: &[(i32, i32)], far: bool| {
            for &(df, dr) in dirs {
                let (mut g, mut q) = (f + df, r + dr);
                while on(g, q) {
                    out.push(((q * 8 + g) as usize, kind));
                    if !far {
                        break;
                    }
                    g += df;
                    q += dr;
                }
            }
        };
        let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match kind {
            0 => {
                ride(&orth, false);
                ride(&diag, false);
            }
            1 => {
                ride(&orth, true);
                ride(&diag, true);
            }
            2 => ride(&orth, true),
            3 => ride(&diag, true),
            4 => ride(&[(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)], false),
            _ => {
                let up = if c == Color::White { 1 } else { -1 };
                let start = if c == Color::White { 1 } else { 6 };
                let last = if c == Color::White { 7 } else { 0 };
                let mut to = vec![(f, r + up), (f - 1, r + up), (f + 1, r + up)];
                if r == start {
                    to.push((f, r + 2 * up));
                }
                for (g, q) in to {
                    if on(g, q) {
                        let t = (q * 8 + g) as usize;
                        if q == last {
                            out.extend(PROMOTED.iter().map(|&k| (t, k)));
                        } else {
                            out.push((t, K_PAWN));
                        }
                    }
                }
            }
        }
        out
    }

    /// The pawn tables with a limit on captures: every distance is the length of a shortest
    /// path of empty-board moves on which the pawn changes file (captures) at most `caps`
    /// times before it promotes, found breadth first over (square, kind, captures made).
    #[test]
    fn capped_pawn_distances_are_shortest_paths() {
        for c in [Color::White, Color::Black] {
            for from in 8..56 {
                for caps in 0..CAPS {
                    let mut dist = std::collections::HashMap::new();
                    dist.insert((from, K_PAWN, 0usize), 0u8);
                    let mut frontier = vec![(from, K_PAWN, 0usize)];
                    let mut d = 0;
                    while !frontier.is_empty() {
                        d += 1;
                        let mut next = Vec::new();
                        for &(s, k, made) in &frontier {
                            for (t, kt) in steps(c, k, s) {
                                let made = made + (k == K_PAWN && t % 8 != s % 8) as usize;
                                if made <= caps
                                    && let std::collections::hash_map::Entry::Vacant(e) = dist.entry((t, kt, made))
                                {
                                    e.insert(d);
                                    next.push((t, kt, made));
                                }
                            }
                        }
                        frontier = next;
                    }
                    for to in 0..64 {
                        for to_kind in 1..=K_ANY {
                            let want = dist
                                .iter()
                                .filter(|&(&(t, k, _), _)| t == to && (k == to_kind || to_kind == K_ANY))
                                .map(|(_, &d)| d)
                                .min()
                                .unwrap_or(FAR);
                            let got = distance(c, K_PAWN, from, to_kind, to, &[], caps as u8);
                            assert_eq!(got.min(FAR), want, "{c:?} pawn {from} -> kind {to_kind} {to}, {caps} captures");
                        }
                    }
                }
            }
        }
    }

    /// Every distance of the tables is the length of a shortest path of empty-board moves
    /// (pawns capturing at will and promoting on their last rank), found breadth first.
    #[test]
    fn distances_are_shortest_paths() {
        for c in [Color::White, Color::Black] {
            for kind in 0..=K_PAWN {
                for from in 0..64 {
                    if kind == K_PAWN && (from / 8 == 0 || from / 8 == 7) {
                        continue;
                    }
                    let mut dist = std::collections::HashMap::new();
                    dist.insert((from, kind), 0u8);
                    let mut frontier = vec![(from, kind)];
                    let mut d = 0;
                    while !frontier.is_empty() {
                        d += 1;
                        let mut next = Vec::new();
                        for &(s, k) in &frontier {
                            for t in steps(c, k, s) {
                                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t) {
                                    e.insert(d);
                                    next.push(t);
                                }
                            }
                        }
                        frontier = next;
                    }
                    for to in 0..64 {
                        for to_kind in 0..=K_ANY {
                            let want = if to_kind == K_ANY {
                                (0..=K_PAWN).filter_map(|k| dist.get(&(to, k)).copied()).min()
                            } else {
                                dist.get(&(to, to_kind)).copied()
                            };
                            let got = distance(c, kind, from, to_kind, to, &[], ANY_CAPS);
                            assert_eq!(got.min(FAR), want.unwrap_or(FAR), "{c:?} kind {kind} {from} -> kind {to_kind} {to}");
                        }
                    }
                }
            }
        }
    }

    /// Closing keeps only the pictures that are mates on their own: in the helpmate
    /// tablebase's `h#9.5` Ka1 Bb1 / Kc1 Qa2 Sb6 Qb7, the raw pictures place blockers that
    /// would take the checker, check the mating king or step out of their line; closed, far
    /// fewer are left, each with every piece's kind, and the mate of the solution
    /// (`Kc7 Bb7 / Ka8 Sa7`) is among them.
    #[test]
    fn closing_keeps_the_mates_and_drops_the_rest() {
        let p = Position::from_fen("8/1q6/1n6/8/8/8/q7/KBk5 w - - 0 1").expect("position");
        let mut b = Builder::new(&p, Color::Black, 9, 10, true).expect("builder");
        b.run();
        assert!(!b.overflow);
        let raw = b.found.len();
        let closed = closure::close(&b).expect("closed pictures");
        assert!(raw > 200 && closed.len() * 5 < raw, "{raw} raw, {} closed", closed.len());
        assert!(closed.iter().all(|(pic, sa, sm)| *sa >= 0 && *sm >= 0 && pic.iter().all(|t| t.kind != K_ANY)));
        let id = |sq: u8| b.pieces.iter().position(|x| x.2 == sq).expect("piece") as u8;
        // White: king a1 (0), bishop b1 (1); Black: king c1 (2), knight b6 (41).
        let mut want: ArrayVec<Target, 16> = [
            Target { id: id(0), kind: K_KING, sq: 50 },
            Target { id: id(1), kind: 3, sq: 49 },
            Target { id: id(2), kind: K_KING, sq: 56 },
            Target { id: id(41), kind: 4, sq: 48 },
        ]
        .into_iter()
        .collect();
        want.sort_unstable();
        assert!(closed.iter().any(|(pic, _, _)| *pic == want), "{closed:?}");
    }
}
