//! Cheskers solving against a reference solver written here from the stipulations' definitions,
//! with Cheskers' goal written out plainly: White wins when Black, to move, has no legal move
//! (which includes having no king left). Plain recursion over the engine's legal moves (checked
//! against the reference generator in `tests/cheskers_differential.rs`), no table, no ordering,
//! no pruning. On random positions it must give the same keys of `#1`, `#2`, `#3` and the same
//! lines of `h#2` as the solver; wins by capturing the last king and wins by leaving a king
//! without a move must both occur among them, and a hand-made position holds one of each.

use feerie::piece::Color;
use feerie::problem::Stipulation;
use feerie::rules::cheskers::{CMove, CheskersKind, CheskersPosition};
use feerie::rules::{Game, Goal};
use feerie::solve::{SolveOptions, solve};
use std::collections::{BTreeMap, BTreeSet};

use feerie::geometry::Square;

/// The plain meaning of `#`: the side to move has no legal move (no king left, or none that can
/// move).
fn lost(p: &CheskersPosition) -> bool {
    p.legal_moves().is_empty()
}

fn moves(p: &CheskersPosition) -> Vec<CMove> {
    p.legal_moves()
}

/// Attacker to move: can it leave the defender without a move within `n` of its moves?
fn att(p: &CheskersPosition, n: u32) -> bool {
    moves(p).into_iter().any(|m| {
        let q = p.play(m);
        lost(&q) || (n > 1 && def(&q, n - 1))
    })
}

/// Defender to move (not lost yet): does every move lose within `n`?
fn def(q: &CheskersPosition, n: u32) -> bool {
    moves(q).into_iter().all(|d| att(&q.play(d), n))
}

/// The keys of `#n`.
fn ref_keys(p: &CheskersPosition, n: u32) -> BTreeSet<String> {
    moves(p)
        .into_iter()
        .filter(|&m| {
            let q = p.play(m);
            lost(&q) || (n > 1 && def(&q, n - 1))
        })
        .map(|m| p.move_text(m))
        .collect()
}

/// Every help line of exactly `plies` half-moves whose last move leaves the side to move
/// without a move (and no earlier one does).
fn ref_help(p: &CheskersPosition, plies: u32, prefix: &mut Vec<String>, out: &mut BTreeSet<String>) {
    for m in moves(p) {
        let q = p.play(m);
        prefix.push(p.move_text(m));
        if plies == 1 {
            if lost(&q) {
                out.insert(prefix.join(" "));
            }
        } else if !lost(&q) {
            ref_help(&q, plies - 1, prefix, out);
        }
        prefix.pop();
    }
}

fn opts(threads: usize, hash_mb: usize) -> SolveOptions {
    SolveOptions { threads, hash_mb, ..SolveOptions::default() }
}

fn fast_keys(p: &CheskersPosition, stip: &str, o: &SolveOptions) -> BTreeSet<String> {
    let s = Stipulation::parse(stip).expect("stipulation");
    solve(p, &s, o).phases[0].keys.iter().map(|k| k.mv.clone()).collect()
}

fn fast_lines(p: &CheskersPosition, stip: &str, o: &SolveOptions) -> BTreeSet<String> {
    let s = Stipulation::parse(stip).expect("stipulation");
    solve(p, &s, o).phases[0].lines.iter().map(|l| l.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>().join(" ")).collect()
}

/// How a win ends: the loser has no king left, or has a king but no move.
fn how_won(q: &CheskersPosition) -> &'static str {
    if q.has_king(q.side_to_move()) { "no move" } else { "no king" }
}

/// The square of (file, rank).
fn square(f: u8, r: u8) -> Square {
    Square(r * 8 + f)
}

/// A small deterministic random source.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    /// A dark square (file + rank even) with its file in `files` and its rank in `ranks`.
    fn dark(&mut self, files: std::ops::RangeInclusive<u8>, ranks: std::ops::RangeInclusive<u8>) -> Square {
        loop {
            let f = *files.start() + self.below((files.end() - files.start() + 1) as u64) as u8;
            let r = *ranks.start() + self.below((ranks.end() - ranks.start() + 1) as u64) as u8;
            if (f + r).is_multiple_of(2) {
                return square(f, r);
            }
        }
    }
}

/// A random small position, `side` to move: White with one or two kings and one to three
/// pawns, bishops or camels; Black with one king (sometimes two) near its back rank, and up to
/// three pieces of its own. Every other position is crowded into the corner d5–h8 (White's king
/// apart), where Black is more often left without a move rather than without a king. `None` when the engine refuses it
/// (a square used twice, a pawn on its last rank).
fn random_position(r: &mut Rng, side: Color) -> Option<CheskersPosition> {
    let mut pieces: Vec<(Square, Color, CheskersKind)> = Vec::new();
    let kinds = [CheskersKind::Pawn, CheskersKind::Pawn, CheskersKind::Bishop, CheskersKind::Camel];
    let corner = r.below(2) == 0;
    // Where the pieces go: the corner, or White's anywhere and Black's on its half.
    let (files, white_ranks, black_ranks) = if corner { (3..=7, 4..=7, 4..=7) } else { (0..=7, 0..=7, 4..=7) };
    if corner {
        pieces.push((r.dark(0..=7, 0..=3), Color::White, CheskersKind::King));
    } else {
        for _ in 0..1 + r.below(2) {
            pieces.push((r.dark(files.clone(), white_ranks.clone()), Color::White, CheskersKind::King));
        }
    }
    for _ in 0..1 + r.below(3) {
        let k = kinds[r.below(4) as usize];
        let ranks = if k == CheskersKind::Pawn { *white_ranks.start().max(&2)..=6 } else { white_ranks.clone() };
        pieces.push((r.dark(files.clone(), ranks), Color::White, k));
    }
    for _ in 0..1 + (r.below(4) == 0) as u64 {
        pieces.push((r.dark(files.clone(), 5..=7), Color::Black, CheskersKind::King));
    }
    for _ in 0..r.below(4) {
        let k = kinds[r.below(4) as usize];
        let ranks = if k == CheskersKind::Pawn { 3..=7 } else { black_ranks.clone() };
        pieces.push((r.dark(files.clone(), ranks), Color::Black, k));
    }
    CheskersPosition::from_pieces(&pieces, side).ok()
}

/// `#1`, `#2` and (on fewer positions) `#3` on random positions, White to move: the solver's
/// keys are the reference's. Wins by capturing the last king and by leaving Black without a move
/// both occur.
#[test]
fn direct_play_agrees_with_the_reference() {
    let mut r = Rng(0x5851_F42D_4C95_7F2D);
    let (mut cases, mut with_keys) = (0, 0);
    let mut endings: BTreeMap<(u32, &str), usize> = BTreeMap::new();
    while cases < 1000 {
        let Some(p) = random_position(&mut r, Color::White) else { continue };
        if lost(&p) {
            continue;
        }
        cases += 1;
        for n in [1, 2, 3] {
            if (n == 2 && cases % 2 != 0) || (n == 3 && cases % 15 != 0) {
                continue;
            }
            let want = ref_keys(&p, n);
            let stip = format!("#{n}");
            assert_eq!(fast_keys(&p, &stip, &opts(1, 16)), want, "{} {stip} (1 thread)", p.to_fen());
            if cases % 10 == 0 {
                assert_eq!(fast_keys(&p, &stip, &opts(2, 0)), want, "{} {stip} (2 threads, no table)", p.to_fen());
            }
            with_keys += !want.is_empty() as u32;
            // How the keys of `#1` win.
            for k in &want {
                let m = p.parse_move(k).expect("a legal key");
                let q = p.play(m);
                if n == 1 {
                    assert!(q.goal_reached(Goal::Mate) && q.mark() == "#", "{} {k}", p.to_fen());
                }
                *endings.entry((n, if n == 1 { how_won(&q) } else { "" })).or_default() += 1;
            }
        }
    }
    eprintln!("{cases} positions, {with_keys} with keys; keys by stipulation and ending: {endings:?}");
    assert!(with_keys >= 50, "only {with_keys} cases with a key");
    for what in [(1, "no king"), (1, "no move"), (2, ""), (3, "")] {
        assert!(endings.get(&what).copied().unwrap_or(0) > 0, "no key of #{} ending with {:?}: {endings:?}", what.0, what.1);
    }
}

/// `h#2` on random positions, Black to move first (four half-moves, White's last wins, or two
/// in a short solution): the solver's lines are the reference's; both endings occur.
#[test]
fn help_play_agrees_with_the_reference() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let (mut cases, mut with_lines) = (0, 0);
    let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
    while cases < 1000 {
        let Some(p) = random_position(&mut r, Color::Black) else { continue };
        if lost(&p) {
            continue;
        }
        cases += 1;
        // The h#2 lines and the short h#1 lines.
        let mut want = BTreeSet::new();
        ref_help(&p, 2, &mut Vec::new(), &mut want);
        ref_help(&p, 4, &mut Vec::new(), &mut want);
        let o = if cases % 10 == 0 { opts(2, 0) } else { opts(1, 16) };
        assert_eq!(fast_lines(&p, "h#2", &o), want, "{} h#2", p.to_fen());
        with_lines += !want.is_empty() as u32;
        for line in &want {
            let mut q = p;
            for mv in line.split(' ') {
                q = q.play(q.parse_move(mv).expect("a legal move of the line"));
            }
            assert!(q.goal_reached(Goal::Mate), "{} {line}", p.to_fen());
            *endings.entry(how_won(&q)).or_default() += 1;
        }
    }
    eprintln!("{cases} positions, {with_lines} with h#2 lines; lines by ending: {endings:?}");
    assert!(with_lines >= 10, "only {with_lines} cases with a help line");
    for what in ["no king", "no move"] {
        assert!(endings.get(what).copied().unwrap_or(0) > 0, "no h#2 line ending with {what}: {endings:?}");
    }
}

/// Black's king on h8, White's bishop on f6 and pawn on h6: `Bf6xh8` wins by taking the last
/// king, `h6-g7` by leaving it without a move (g7 taken, and f6 behind it, so it cannot jump);
/// nothing else wins (`Bf6-g7` lets the king jump it to f6).
#[test]
fn a_win_by_capture_and_a_win_by_blocking() {
    let p = CheskersPosition::from_fen("7k/8/5B1P/8/8/8/8/K7 w").expect("FEN");
    let keys = fast_keys(&p, "#1", &opts(1, 16));
    assert_eq!(keys, ref_keys(&p, 1));
    assert_eq!(keys, BTreeSet::from(["Bf6xh8".to_string(), "h6-g7".to_string()]));
    let block = p.play(p.parse_move("h6-g7").unwrap());
    assert!(block.has_king(Color::Black) && block.legal_moves().is_empty() && block.goal_reached(Goal::Mate));
    let take = p.play(p.parse_move("Bf6xh8").unwrap());
    assert!(!take.has_king(Color::Black) && take.goal_reached(Goal::Mate));
    assert_eq!((block.mark(), take.mark()), ("#", "#"));
    // Help play from the same position with Black to move: the king steps to g7, where the
    // bishop or the pawn (jumping to f8 and promoted) takes it.
    let b = p.pass();
    let mut want = BTreeSet::new();
    ref_help(&b, 2, &mut Vec::new(), &mut want);
    assert!(!want.is_empty());
    assert_eq!(fast_lines(&b, "h#1", &opts(1, 16)), want);
}
