//! Proof games: `dia n` (from the game array to the diagram), `a=>b n` (from a given start
//! position), their series forms (`ser-dia n`, `ser-hdia n`, `pser-dia n`, `ser-a=>b n`, …)
//! and `exact-`, for orthodox chess.
//!
//! What counts follows Popeye's recorded outputs:
//! - the position is reached when every piece stands on its square in the diagram; castling
//!   and en-passant rights are not compared (`1.h2-h4 …  2.Rh1-h3 …  3.Rh3-h1` reaches a
//!   diagram with the rook on h1);
//! - help play (`dia`, `a=>b`) alternates from the first mover (White from the game array;
//!   Black in `a=>b`, White under `WhiteToPlay`); the diagram is looked for after each move
//!   of the side that makes the last one, and a line ends where it first reaches it: a
//!   shorter line is a short solution, and no line goes on through the diagram;
//! - in series play the series side (White from the game array) plays up to n moves, none of
//!   which may check except the last (`pser-`, `phser-`: a check is parried by one move of
//!   the other side); `ser-hdia` and `ser-ha=>b` end with one move of the other side;
//!   shorter series count, as short solutions;
//! - `exact-`: only lines of the full length.
//!
//! The search is exhaustive, pruned by a lower bound on the moves each side still needs
//! ([`moves_needed`]): every piece of the diagram must come from a piece of its side (the
//! same kind, or a pawn that promotes), at the distance of its kind on the empty board
//! (pawns forward only, a change of file a capture), an assignment of least total cost
//! (Hungarian method); pieces that vanish must be captured, one move each; a side that
//! needs more moves than it has left is cut. Positions (with the moves left) from which no
//! line reaches the diagram are remembered.

use super::tree::{Line, LineMove};
use super::{Ctx, Phase, SolveOptions, Solved};
use crate::geometry::Square;
use crate::piece::{Color, Kind, Lang};
use crate::position::{Move, Position, castle};
use crate::problem::stipulation::{Play, Stipulation};
use crate::rules::{Game, Notation};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// More moves than any side can have: "cannot".
const INF: u32 = 10_000;

/// The empty-board distances of the king, queen, rook, bishop and knight (kinds 0 to 4).
struct Distances([[[u8; 64]; 64]; 5]);

fn distances() -> &'static Distances {
    static D: OnceLock<Box<Distances>> = OnceLock::new();
    D.get_or_init(|| {
        let mut d = Box::new(Distances([[[u8::MAX; 64]; 64]; 5]));
        let steps: [&[(i32, i32)]; 5] = [
            &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
            &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
            &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
            &[(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
        ];
        for (k, st) in steps.iter().enumerate() {
            let rides = k == 1 || k == 2 || k == 3;
            for from in 0..64usize {
                let row = &mut d.0[k][from];
                row[from] = 0;
                let mut frontier = vec![from];
                let mut dist = 0u8;
                while !frontier.is_empty() {
                    dist += 1;
                    let mut next = Vec::new();
                    for &s in &frontier {
                        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
                        for &(df, dr) in st.iter() {
                            let (mut nf, mut nr) = (f + df, r + dr);
                            while (0..8).contains(&nf) && (0..8).contains(&nr) {
                                let t = (nr * 8 + nf) as usize;
                                if row[t] == u8::MAX {
                                    row[t] = dist;
                                    next.push(t);
                                }
                                if !rides {
                                    break;
                                }
                                nf += df;
                                nr += dr;
                            }
                        }
                    }
                    frontier = next;
                }
            }
        }
        d
    })
}

/// Moves of an officer of kind index `k` from `s` to `t` on the empty board (0 to 4: king,
/// queen, rook, bishop, knight); 0 for a fairy piece, whose ways are not counted.
fn officer_distance(k: usize, s: usize, t: usize) -> u32 {
    if k >= 5 {
        return 0;
    }
    match distances().0[k][s][t] {
        u8::MAX => INF,
        n => n as u32,
    }
}

/// The rank of `s` counted from `c`'s side (0 to 7).
fn rel_rank(c: Color, s: usize) -> i32 {
    let r = (s / 8) as i32;
    if c == Color::White { r } else { 7 - r }
}

/// Moves and captures of a pawn of `c` from `s` to `t` (as a pawn), or `None`.
fn pawn_path(c: Color, s: usize, t: usize) -> Option<(u32, u32)> {
    let dr = rel_rank(c, t) - rel_rank(c, s);
    let df = ((t % 8) as i32 - (s % 8) as i32).abs();
    if dr < 0 || df > dr || (dr == 0 && s != t) {
        return None;
    }
    // The double step from the second rank saves a move where two straight steps are left.
    let double = rel_rank(c, s) == 1 && dr - df >= 2;
    Some(((dr - double as i32) as u32, df as u32))
}

/// Moves (and captures) for the piece on `s` (kind `kf`) of side `c` to become the piece on
/// `t` (kind `kt`) of the diagram.
fn cost(c: Color, kf: Kind, s: usize, kt: Kind, t: usize) -> (u32, u32) {
    if kf == Kind::Pawn {
        if kt == Kind::Pawn {
            return pawn_path(c, s, t).unwrap_or((INF, INF));
        }
        if kt == Kind::King {
            return (INF, INF);
        }
        // Promotion on the last rank, then the new piece's way.
        let last = if c == Color::White { 56 } else { 0 };
        let (mut best, mut caps) = (INF, INF);
        for p in last..last + 8 {
            if let Some((m, x)) = pawn_path(c, s, p) {
                let rest = officer_distance(kt.index(), p, t);
                best = best.min(m + rest);
                caps = caps.min(x);
            }
        }
        return (best, caps);
    }
    if kf != kt {
        return (INF, INF);
    }
    (officer_distance(kf.index(), s, t), 0)
}

/// Least total cost of giving every row a distinct column (`rows` ≤ `cols`), `cost[r][c]`;
/// [`INF`] or more when none is finite.
fn assignment(cost: &[[u32; 16]], rows: usize, cols: usize) -> u32 {
    // The Hungarian method with potentials (rows 1..=n, columns 1..=m, n ≤ m).
    let (n, m) = (rows, cols);
    if n == 0 {
        return 0;
    }
    let big = i64::MAX / 4;
    let mut u = [0i64; 17];
    let mut v = [0i64; 17];
    let mut p = [0usize; 17];
    let mut way = [0usize; 17];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = [big; 17];
        let mut used = [false; 17];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = big;
            let mut j1 = 0usize;
            for j in 1..=m {
                if !used[j] {
                    let cur = cost[i0 - 1][j - 1] as i64 - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let total: u64 = (1..=m).filter(|&j| p[j] != 0).map(|j| cost[p[j] - 1][j - 1] as u64).sum();
    total.min(INF as u64 * 4) as u32
}

/// The diagram to reach: its pieces by square.
#[derive(Clone, Debug)]
pub struct Target {
    by_color: [u64; 2],
    by_kind: [u64; 6],
    pieces: [Vec<(usize, Kind)>; 2],
    /// The whole board, when fairy pieces stand on it (the kinds' bitboards are the
    /// orthodox ones only).
    fairy: Option<Position>,
}

impl Target {
    /// The diagram of `p` (its pieces only).
    pub fn of(p: &Position) -> Target {
        let mut pieces: [Vec<(usize, Kind)>; 2] = [Vec::new(), Vec::new()];
        for s in 0..64 {
            if let Some(pc) = p.piece_at(Square(s as u8)) {
                pieces[pc.color.index()].push((s, pc.kind));
            }
        }
        let fairy = pieces.iter().flatten().any(|&(_, k)| !k.is_orthodox()).then_some(*p);
        Target { by_color: p.by_color, by_kind: p.by_kind, pieces, fairy }
    }

    /// Whether `p` has every piece of the diagram on its square, and no other.
    pub fn reached(&self, p: &Position) -> bool {
        p.by_color == self.by_color
            && p.by_kind == self.by_kind
            && self.fairy.as_ref().is_none_or(|f| (0..64).all(|s| f.piece_at(Square(s)) == p.piece_at(Square(s))))
    }
}

/// A lower bound on the moves side `c` needs from `p` to reach `target` ([`INF`] when it
/// cannot): see the module's text. It never exceeds the moves of any play that reaches it.
/// Castling is one more way: a play that castles needs, besides that move, what the pieces
/// need with the king and rook on their castled squares.
pub fn moves_needed(p: &Position, target: &Target, c: Color) -> u32 {
    let ci = c.index();
    let opp_have = p.by_color[1 - ci].count_ones();
    let opp_want = target.by_color[1 - ci].count_ones();
    if opp_want > opp_have || target.by_color[ci].count_ones() > p.by_color[ci].count_ones() {
        return INF;
    }
    let captures = opp_have - opp_want;
    let mut pieces: arrayvec::ArrayVec<(usize, Kind), 16> = arrayvec::ArrayVec::new();
    let mut bb = p.by_color[ci];
    while bb != 0 {
        let s = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        let k = p.piece_at(Square(s as u8)).map_or(Kind::Pawn, |pc| pc.kind);
        if pieces.try_push((s, k)).is_err() {
            return 0;
        }
    }
    let mut need = assigned(&pieces, target, c, captures);
    let rights = p.castling() & if c == Color::White { castle::WK | castle::WQ } else { castle::BK | castle::BQ };
    let home = if c == Color::White { 4 } else { 60 };
    for (bits, rook, king_to, rook_to) in
        [(castle::WK | castle::BK, home + 3, home + 2, home + 1), (castle::WQ | castle::BQ, home - 4, home - 2, home - 1)]
    {
        if rights & bits == 0 || need <= 1 {
            continue;
        }
        let castled: arrayvec::ArrayVec<(usize, Kind), 16> = pieces
            .iter()
            .map(|&(s, k)| match (s, k) {
                (s, Kind::King) if s == home => (king_to, k),
                (s, Kind::Rook) if s == rook => (rook_to, k),
                x => x,
            })
            .collect();
        need = need.min(1 + assigned(&castled, target, c, captures));
    }
    need.max(captures)
}

/// The least moves for `pieces` (side `c`) to become the diagram's pieces of `c`, making no
/// more changes of file with pawns than `captures`; [`INF`] when they cannot.
fn assigned(pieces: &[(usize, Kind)], target: &Target, c: Color, captures: u32) -> u32 {
    let ci = c.index();
    // Pieces already on their squares stay (an assignment that moves one elsewhere is never
    // cheaper: its way through that square serves the piece that comes instead).
    // (A castled king or rook may share its square with a piece in `pieces`: the pieces are
    // told apart by their index, not their square.)
    let mut sinks: arrayvec::ArrayVec<(usize, Kind), 16> = arrayvec::ArrayVec::new();
    let mut fixed = 0u32;
    for &(t, k) in &target.pieces[ci] {
        match pieces.iter().enumerate().position(|(i, &pc)| pc == (t, k) && fixed & (1 << i) == 0) {
            Some(i) => fixed |= 1 << i,
            None => {
                if sinks.try_push((t, k)).is_err() {
                    return 0;
                }
            }
        }
    }
    if sinks.is_empty() {
        return 0;
    }
    let sources: arrayvec::ArrayVec<(usize, Kind), 16> =
        pieces.iter().enumerate().filter(|&(i, _)| fixed & (1 << i) == 0).map(|(_, &pc)| pc).collect();
    if sources.len() < sinks.len() {
        return INF;
    }
    let mut moves = [[0u32; 16]; 16];
    let mut caps = [[0u32; 16]; 16];
    for (i, &(t, kt)) in sinks.iter().enumerate() {
        for (j, &(s, kf)) in sources.iter().enumerate() {
            let (m, x) = cost(c, kf, s, kt, t);
            moves[i][j] = m;
            caps[i][j] = x;
        }
    }
    let need = assignment(&moves, sinks.len(), sources.len());
    if need >= INF {
        return INF;
    }
    // Pawns change files only by capturing: no more file changes than captures to make.
    if assignment(&caps, sinks.len(), sources.len()) > captures {
        return INF;
    }
    need
}

/// How the play goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Both sides alternate (`dia`, `a=>b`).
    Help,
    /// The series side alone (`ser-dia`), maybe with parries (`pser-dia`).
    Series {
        /// The other side closes with one move (`ser-hdia`).
        closing: bool,
        /// A check is answered by one move of the other side (`pser-`, `phser-`).
        parry: bool,
    },
}

/// The search of one proof game.
struct Search<'a> {
    ctx: &'a Ctx,
    target: Target,
    form: Form,
    exact: bool,
    /// Positions (keyed with the moves left) from which nothing reaches the diagram. It
    /// starts small and grows (×4) when half as many entries have been stored as it has
    /// slots, up to `failed_max` slots: a short search touches little memory whatever the
    /// budget.
    failed: Vec<u64>,
    /// The most slots `failed` may grow to (the budget's share).
    failed_max: usize,
    /// Entries stored since `failed` last grew.
    stored: usize,
    /// The moves played so far: the position before each, the move, whether it is a parry.
    path: Vec<(Position, Move, bool)>,
    lines: Vec<Line>,
    /// The bound per side, remembered ([`Search::needed`]).
    need_cache: Vec<(u64, u32)>,
    /// Whether the table and the bound prune (off in the unit test that checks the bound).
    use_table: bool,
    use_bound: bool,
    /// `MaxSolutions`: the search stops once it has that many lines.
    max: Option<usize>,
}

fn mix(key: u64, left: u32, salt: u64) -> u64 {
    let x = key ^ (left as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
    x | 1
}

impl Search<'_> {
    /// Whether `MaxSolutions` has its lines: the search stops, and what it left is not
    /// proven (no table entry).
    fn full(&self) -> bool {
        self.max.is_some_and(|m| self.lines.len() >= m)
    }

    fn probe(&self, k: u64) -> bool {
        self.use_table && !self.failed.is_empty() && self.failed[(k as usize) % self.failed.len()] == k
    }

    fn store(&mut self, k: u64) {
        if self.use_table && !self.failed.is_empty() {
            let n = self.failed.len();
            self.failed[(k as usize) % n] = k;
            self.stored += 1;
            if self.stored > n / 2 && n < self.failed_max {
                self.grow_failed();
            }
        }
    }

    /// `failed` four times larger (at most `failed_max` slots), its entries kept.
    fn grow_failed(&mut self) {
        let n = (self.failed.len() * 4).min(self.failed_max);
        let mut bigger = vec![0u64; n];
        for &k in self.failed.iter().filter(|&&k| k != 0) {
            bigger[(k as usize) % n] = k;
        }
        self.failed = bigger;
        self.stored = 0;
    }

    /// Whether `w` moves for White and `b` for Black may be enough.
    fn within(&mut self, p: &Position, w: u32, b: u32) -> bool {
        !self.use_bound || (self.needed(p, Color::White) <= w && self.needed(p, Color::Black) <= b)
    }

    /// [`moves_needed`], remembered by what it depends on: the side's pieces, its castling
    /// rights and the number of the other side's pieces.
    fn needed(&mut self, p: &Position, c: Color) -> u32 {
        let ci = c.index();
        let mine = p.by_color[ci];
        let mut k = mine.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (p.castling() as u64) << 3 ^ ci as u64;
        for (i, &kb) in p.by_kind.iter().enumerate() {
            k = (k ^ (kb & mine)).wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(17 + i as u32);
        }
        k ^= (p.by_color[1 - ci].count_ones() as u64) << 58;
        // Fairy pieces are not in the kinds' bitboards: no memory for them (nor with `--hash 0`).
        if self.target.fairy.is_some() || p.has_fairy() || self.need_cache.is_empty() {
            return moves_needed(p, &self.target, c);
        }
        let slot = (k as usize) & (self.need_cache.len() - 1);
        let (key, v) = self.need_cache[slot];
        if key == k {
            return v;
        }
        let v = moves_needed(p, &self.target, c);
        self.need_cache[slot] = (k, v);
        v
    }

    /// Writes the current path as a line, with the diagram's mark on its last move.
    fn record(&mut self) {
        let n = self.path.len();
        let line: Line = self
            .path
            .iter()
            .enumerate()
            .map(|(i, (p, m, parry))| {
                let after = p.play(*m);
                let mut mark = if after.in_check() { "+".to_string() } else { String::new() };
                if i + 1 == n {
                    let goal = self.ctx.goal.end_mark();
                    mark = if mark.is_empty() { goal.to_string() } else { format!("{mark} {goal}") };
                }
                let lm = LineMove::new(p.move_text_in(*m, Lang::En, self.ctx.notation), mark);
                if *parry { lm.as_parry() } else { lm }
            })
            .collect();
        self.lines.push(line);
    }

    /// Help play: `left` half-moves at most from `p`; the diagram counts after a move that
    /// leaves an even number of half-moves. Returns whether a line was found.
    fn help(&mut self, p: &Position, left: u32) -> bool {
        if left == 0 || self.ctx.tick() || self.full() {
            return false;
        }
        // `exact` searches (one length at a time) prove other facts than the others.
        let key = mix(p.hash(), left, 0x51 ^ (u64::from(self.exact) << 8));
        if self.probe(key) {
            return false;
        }
        let mover = p.side_to_move();
        let (mine, theirs) = (left.div_ceil(2), left / 2);
        let (w, b) = if mover == Color::White { (mine, theirs) } else { (theirs, mine) };
        if !self.within(p, w, b) {
            self.store(key);
            return false;
        }
        let mut found = false;
        let mut moves = Vec::new();
        p.legal_moves_into(&mut moves);
        for m in moves {
            let q = p.play(m);
            self.path.push((*p, m, false));
            let checkpoint = (left - 1).is_multiple_of(2);
            if checkpoint && self.target.reached(&q) {
                if left == 1 || !self.exact {
                    self.record();
                    found = true;
                }
            } else if left > 1 && self.help(&q, left - 1) {
                found = true;
            }
            self.path.pop();
            if self.full() {
                break;
            }
        }
        if !found && !self.ctx.is_stopped() && !self.full() {
            self.store(key);
        }
        found
    }

    /// Series play: the series side to move in `p`, `left` series moves at most.
    fn series(&mut self, p: &Position, left: u32, closing: bool, parry: bool) -> bool {
        if left == 0 || self.ctx.tick() {
            return false;
        }
        let key = mix(p.hash(), left, 0x52 + closing as u64 * 2 + parry as u64 * 4);
        if self.probe(key) {
            return false;
        }
        let mover = p.side_to_move();
        let other_moves = if parry { left } else { closing as u32 };
        let (w, b) = if mover == Color::White { (left, other_moves) } else { (other_moves, left) };
        if !self.within(p, w, b) {
            self.store(key);
            return false;
        }
        let mut found = false;
        let mut moves = Vec::new();
        let mut replies = Vec::new();
        p.legal_moves_into(&mut moves);
        let full = left == 1;
        for m in moves {
            let q = p.play(m);
            let check = q.in_check();
            self.path.push((*p, m, false));
            if closing {
                // The other side's closing move, after any series move (a check must be
                // parried by it: only where parries are allowed).
                if !check || parry {
                    q.legal_moves_into(&mut replies);
                    for &r in &replies {
                        let z = q.play(r);
                        if self.target.reached(&z) {
                            if full || !self.exact {
                                self.path.push((q, r, false));
                                self.record();
                                self.path.pop();
                                found = true;
                            }
                        } else if !full && check && self.series_after_parry(&q, r, &z, left, closing, parry) {
                            found = true;
                        }
                    }
                    if !full && !check && self.series(&q.null_move(), left - 1, closing, parry) {
                        found = true;
                    }
                }
            } else if self.target.reached(&q) {
                if full || !self.exact {
                    self.record();
                    found = true;
                }
            } else if !full {
                if !check {
                    if self.series(&q.null_move(), left - 1, closing, parry) {
                        found = true;
                    }
                } else if parry {
                    q.legal_moves_into(&mut replies);
                    for &r in &replies {
                        let z = q.play(r);
                        if self.series_after_parry(&q, r, &z, left, closing, parry) {
                            found = true;
                        }
                    }
                }
            }
            self.path.pop();
        }
        if !found && !self.ctx.is_stopped() {
            self.store(key);
        }
        found
    }

    /// The series goes on after the parry `r` (from `q` to `z`).
    fn series_after_parry(&mut self, q: &Position, r: Move, z: &Position, left: u32, closing: bool, parry: bool) -> bool {
        self.path.push((*q, r, true));
        let f = self.series(z, left - 1, closing, parry);
        self.path.pop();
        f
    }
}

/// Every proof game of `stip` from `start` to `target` (the diagram), short solutions first.
pub fn solve_proof(start: &Position, target: &Position, stip: &Stipulation, opts: &SolveOptions) -> Solved {
    solve_with(start, target, stip, opts, true)
}

/// The slots of the bound's cache (a power of two, at most 2^16, a quarter of the budget at
/// most) and of the table of failed positions (the rest) within `bytes`: together they never
/// take more.
fn proof_tables(bytes: usize) -> (usize, usize) {
    let need_bytes = std::mem::size_of::<(u64, u32)>();
    let quarter = bytes / 4 / need_bytes;
    let need = if quarter == 0 { 0 } else { (1usize << (usize::BITS - 1 - quarter.leading_zeros())).min(1 << 16) };
    (need, (bytes - need * need_bytes) / std::mem::size_of::<u64>())
}

fn solve_with(start: &Position, target: &Position, stip: &Stipulation, opts: &SolveOptions, bound: bool) -> Solved {
    let ctx = Ctx {
        tt: super::tt::Table::with_bytes(0),
        stop: opts.cancel.clone().unwrap_or_default(),
        deadline: opts.timeout.map(|t| Instant::now() + t),
        nodes: AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        goal: stip.goal,
        notation: Notation::Native,
        checks_only: false,
        exact: stip.exact,
        // Battle play's options do not reach these searches.
        quodlibet: false,
        non_trivial: None,
        threat: None,
        max_flights: None,
        goal_is_end: false,
    };
    let (need_slots, failed_slots) = proof_tables(opts.table_bytes());
    let form = if stip.series { Form::Series { closing: stip.play == Play::Help, parry: stip.parry.is_some() } } else { Form::Help };
    let mut s = Search {
        ctx: &ctx,
        target: Target::of(target),
        form,
        exact: stip.exact,
        // 1 << 16 slots (512 KB) to begin with.
        failed: vec![0; failed_slots.min(1 << 16)],
        failed_max: failed_slots,
        stored: 0,
        path: Vec::new(),
        lines: Vec::new(),
        need_cache: vec![(0, 0); need_slots],
        use_table: bound,
        use_bound: bound,
        max: opts.max_solutions,
    };
    let mut set_lines = Vec::new();
    match s.form {
        Form::Help => {
            let plies = stip.help_plies();
            if (opts.stop_on_short || opts.max_solutions.is_some()) && !stip.exact {
                // Shortest first, each length an exact search of its own, so that
                // `StopOnShortSolutions` and `MaxSolutions` stop at the first lines of the
                // shortest length (Popeye's order) without searching the longer ones.
                s.exact = true;
                for len in (2 - plies % 2..=plies).step_by(2) {
                    s.help(start, len);
                    if s.full() || (opts.stop_on_short && !s.lines.is_empty()) || ctx.is_stopped() {
                        break;
                    }
                }
            } else {
                s.help(start, plies);
            }
        }
        Form::Series { closing, parry } => {
            s.series(start, stip.moves, closing, parry);
            if opts.set_play && closing {
                let main = std::mem::take(&mut s.lines);
                // Set play: the closing move alone.
                let q = start.null_move();
                let mut replies = Vec::new();
                q.legal_moves_into(&mut replies);
                for r in replies {
                    if s.target.reached(&q.play(r)) {
                        s.path.push((q, r, false));
                        s.record();
                        s.path.pop();
                    }
                }
                set_lines = std::mem::replace(&mut s.lines, main);
            }
        }
    }
    let mut lines = std::mem::take(&mut s.lines);
    // Short solutions first, shortest first (the search order kept within a length).
    let full = |l: &Line| match form {
        Form::Help => l.len() as u32 == stip.help_plies(),
        Form::Series { .. } => l.iter().filter(|m| !m.parry).count() as u32 >= stip.moves + u32::from(stip.play == Play::Help),
    };
    lines.sort_by_key(|l| (full(l), l.iter().filter(|m| !m.parry).count()));
    let mut short = lines.iter().take_while(|l| !full(l)).count();
    if opts.stop_on_short && short > 0 {
        let shortest = lines[0].iter().filter(|m| !m.parry).count();
        short = lines.iter().take_while(|l| l.iter().filter(|m| !m.parry).count() == shortest).count();
        lines.truncate(short);
    }
    // Help play stops at the `MaxSolutions`-th line (more may exist); series play searches in
    // full.
    let limited = match (form, opts.max_solutions) {
        (_, None) => false,
        (Form::Help, Some(m)) => lines.len() >= m,
        (_, Some(m)) => lines.len() > m,
    };
    if let Some(m) = opts.max_solutions {
        lines.truncate(m);
        set_lines.truncate(m);
    }
    let short = (0..short.min(lines.len())).collect();
    let phase = Phase { lines, short, set_lines, limited, ..Phase::default() };
    let nodes = ctx.nodes.load(Ordering::Relaxed);
    if std::env::var_os("FEERIE_PROOF_STATS").is_some() {
        eprintln!("proof: {nodes} nodes");
    }
    Solved { phases: vec![phase], complete: !ctx.is_stopped(), nodes }
}

/// The game array, the start of every `dia` proof game.
pub fn game_array() -> Position {
    // A constant FEN: it always reads.
    Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_or_else(|_| Position::empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fen(f: &str) -> Position {
        Position::from_fen(f).unwrap()
    }

    fn texts(s: &Solved) -> Vec<String> {
        let mut v: Vec<String> =
            s.phases[0].lines.iter().map(|l| l.iter().map(|m| format!("{}{}", m.mv, m.mark)).collect::<Vec<_>>().join(" ")).collect();
        v.sort();
        v
    }

    /// The proof search's two tables share the budget and never take more than it.
    #[test]
    fn proof_tables_stay_within_the_budget() {
        for bytes in [0usize, 7, 16, 100, 4096, 1 << 20, (128 << 20) / 3, 128 << 20] {
            let (need, failed) = proof_tables(bytes);
            assert!(need == 0 || need.is_power_of_two(), "{bytes}: {need}");
            assert!(need * 16 + failed * 8 <= bytes, "{bytes}: {need} + {failed}");
            assert!(bytes < 64 || failed * 8 >= bytes / 2, "{bytes}: the failed table gets the most");
        }
        assert_eq!(proof_tables(0), (0, 0));
        assert_eq!(proof_tables(128 << 20).0, 1 << 16);
    }

    #[test]
    fn distances_on_the_empty_board() {
        let sq = |n: &str| crate::position::parse_sq(n).unwrap().index();
        assert_eq!(officer_distance(4, sq("g1"), sq("f3")), 1);
        assert_eq!(officer_distance(4, sq("a1"), sq("h8")), 6);
        assert_eq!(officer_distance(3, sq("c1"), sq("h6")), 1);
        assert_eq!(officer_distance(3, sq("c1"), sq("h7")), INF);
        assert_eq!(officer_distance(2, sq("a1"), sq("h8")), 2);
        assert_eq!(officer_distance(0, sq("e1"), sq("h8")), 7);
        assert_eq!(pawn_path(Color::White, sq("e2"), sq("e4")), Some((1, 0)));
        assert_eq!(pawn_path(Color::White, sq("e2"), sq("d4")), Some((2, 1)));
        assert_eq!(pawn_path(Color::Black, sq("c7"), sq("c5")), Some((1, 0)));
        assert_eq!(pawn_path(Color::White, sq("e4"), sq("e3")), None);
    }

    #[test]
    fn the_bound_counts_moves_and_captures() {
        let start = game_array();
        // Geza Schweig, Tukon 1938 (Popeye's proof.inp #1): White needs 4 moves, Black 4.
        let t = Target::of(&fen("r1bqkbnr/ppp2ppp/3p4/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"));
        let (w, b) = (moves_needed(&start, &t, Color::White), moves_needed(&start, &t, Color::Black));
        // White captures two black pieces, Black one white piece and plays d7-d6.
        assert!((2..=4).contains(&w) && (1..=4).contains(&b), "{w} {b}");
        assert_eq!(moves_needed(&start, &Target::of(&start), Color::White), 0);
    }

    /// The bound never cuts a solution: the same lines with and without it on short games
    /// (every legal line of two and three moves is searched without it).
    #[test]
    fn the_bound_cuts_no_solution() {
        let start = game_array();
        let cases = [
            ("dia2", "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1"),
            ("dia2", "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1"),
            ("dia2", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ("dia2.5", "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1"),
            ("dia3", "rnbqkbnr/1ppppppp/8/p7/7P/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1"),
            ("dia3", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1"),
            ("ser-dia3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            ("ser-dia4", "rnbqkbnr/ppppQppp/8/8/8/4P3/PPPP1PPP/RNB1KBNR b KQkq - 0 1"),
        ];
        for (stip, target) in cases {
            let st = Stipulation::parse(stip).unwrap();
            let t = fen(target);
            let opts = SolveOptions::default();
            let with = texts(&solve_with(&start, &t, &st, &opts, true));
            let without = texts(&solve_with(&start, &t, &st, &opts, false));
            assert_eq!(with, without, "{stip} {target}");
        }
    }

    /// Along Popeye's solutions, each side's bound never exceeds the moves it has left.
    #[test]
    fn the_bound_holds_along_known_solutions() {
        let cases = [
            // Gruber, Problemkiste 1984 (proof.inp #4): castling at the end.
            (
                "dia6",
                "rnbqkbnr/pppp1p1p/8/4p1p1/1PQP4/8/P1PNPPPP/2KR1BNR w kq - 0 1",
                "d2-d4 e7-e5 Qd1-d3 Bf8-a3 b2-b4 Ba3*c1 Qd3-c4 Bc1-h6 Sb1-d2 g7-g5 0-0-0 Bh6-f8",
            ),
            // Turkstra, The Problemist 1994 (proof.inp #6): the king's walk.
            (
                "dia9",
                "rnbqkr1K/pppppp1p/5npb/8/5P2/4P3/PPPP2PP/RNBQ1BNR w q - 0 1",
                "e2-e3 g7-g6 Ke1-e2 Bf8-g7 Ke2-f3 Bg7-e5 Kf3-g4 Sg8-f6 Kg4-g5 Rh8-f8 Kg5-h6 Be5-f4 Kh6-g7 Sf6-g8 Kg7-h8 Bf4-h6 f2-f4 Sg8-f6",
            ),
        ];
        for (stip, target, line) in cases {
            let t = Target::of(&fen(target));
            let mut p = game_array();
            let moves: Vec<&str> = line.split(' ').collect();
            let total = Stipulation::parse(stip).unwrap().help_plies() as usize;
            for (i, mv) in moves.iter().enumerate() {
                let left = (total - i) as u32;
                let mover = p.side_to_move();
                let (mine, theirs) = (left.div_ceil(2), left / 2);
                let (w, b) = if mover == Color::White { (mine, theirs) } else { (theirs, mine) };
                let (nw, nb) = (moves_needed(&p, &t, Color::White), moves_needed(&p, &t, Color::Black));
                assert!(nw <= w && nb <= b, "{stip} before {mv}: White needs {nw} of {w}, Black {nb} of {b}");
                p = p.play(p.parse_move(mv).unwrap_or_else(|| panic!("{mv}")));
            }
            assert!(t.reached(&p), "{stip}");
        }
    }

    #[test]
    fn a_short_proof_game() {
        // 1.d4 e5 2.dxe5: the only way in 2.5... and the diagram is looked for after White's moves.
        let t = fen("rnbqkbnr/pppp1ppp/8/4P3/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
        let st = Stipulation::parse("dia1.5").unwrap();
        let s = solve_proof(&game_array(), &t, &st, &SolveOptions::default());
        assert_eq!(texts(&s), vec!["d2-d4 e7-e5 d4*e5dia".to_string()]);
        assert!(s.complete);
    }
}
