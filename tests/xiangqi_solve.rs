//! Xiangqi solving, proven against numbers and a reference nobody here tuned:
//!
//! - a reference solver written here from the stipulations' definitions, with Xiangqi's own
//!   goal written out plainly ("the side to move has no legal move", in check or not): plain
//!   recursion over the engine's legal moves, no table, no ordering, no pruning. On random
//!   positions it must give the same keys (`#1`, `#2`) and lines (`h#1`, `h#1.5`, `h#2`) as the
//!   solver, and the random positions must hold quiet keys (a mate by a move that gives no
//!   check), so that a solver that looks only at checking moves fails here;
//! - the mates of the Shiqing Yaqu (1570) in `tests/data/corpus/xiangqi-mates.yaml`
//!   (`shared/corpus/xiangqi/mates.yaml`): the stated key is a key, at the stated length, and
//!   there is no shorter mate.

use feerie::geometry::Square;
use feerie::piece::Color;
use feerie::problem::{GamePosition, Loaded, Stipulation, load_str};
use feerie::rules::Game;
use feerie::rules::xiangqi::{XMove, XiangqiKind, XiangqiPosition};
use feerie::solve::{SolveOptions, solve};
use std::collections::BTreeSet;

/// The plain meaning of `#` in Xiangqi: the side to move has no legal move.
fn lost(p: &XiangqiPosition) -> bool {
    p.legal_moves().is_empty()
}

fn moves(p: &XiangqiPosition) -> Vec<XMove> {
    p.legal_moves().to_vec()
}

/// Attacker to move: can it leave the defender without a move within `n` of its moves?
fn att(p: &XiangqiPosition, n: u32) -> bool {
    moves(p).into_iter().any(|m| {
        let q = p.play(m);
        lost(&q) || (n > 1 && def(&q, n - 1))
    })
}

/// Defender to move (not lost yet): does every move lose within `n`?
fn def(q: &XiangqiPosition, n: u32) -> bool {
    moves(q).into_iter().all(|d| att(&q.play(d), n))
}

/// The keys of `#n`.
fn ref_keys(p: &XiangqiPosition, n: u32) -> BTreeSet<String> {
    moves(p)
        .into_iter()
        .filter(|&m| {
            let q = p.play(m);
            lost(&q) || (n > 1 && def(&q, n - 1))
        })
        .map(|m| p.iccs(m))
        .collect()
}

/// Every help line of exactly `plies` half-moves whose last move leaves the side to move
/// without a move (and no earlier one does).
fn ref_help(p: &XiangqiPosition, plies: u32, prefix: &mut Vec<String>, out: &mut BTreeSet<String>) {
    for m in moves(p) {
        let q = p.play(m);
        prefix.push(p.iccs(m));
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

fn fast_keys(p: &XiangqiPosition, stip: &str, o: &SolveOptions) -> BTreeSet<String> {
    let s = Stipulation::parse(stip).expect("stipulation");
    solve(p, &s, o).phases[0].keys.iter().map(|k| k.mv.clone()).collect()
}

fn fast_lines(p: &XiangqiPosition, stip: &str, o: &SolveOptions) -> BTreeSet<String> {
    let s = Stipulation::parse(stip).expect("stipulation");
    solve(p, &s, o).phases[0].lines.iter().map(|l| l.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>().join(" ")).collect()
}

/// A small deterministic random source.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random position with the generals and a few pieces, `side` to move; `None` when the
/// engine refuses it (side not to move in check, generals facing).
fn random_position(r: &mut Rng, side: Color) -> Option<XiangqiPosition> {
    let mut pieces: Vec<(Square, Color, XiangqiKind)> = Vec::new();
    let mut taken = [false; 90];
    let mut put = |pieces: &mut Vec<_>, sq: u8, c: Color, k: XiangqiKind| {
        if !taken[sq as usize] {
            taken[sq as usize] = true;
            pieces.push((Square(sq), c, k));
        }
    };
    // Generals in their palaces, often on the back rank (where quiet mates happen).
    let red_g = (r.below(2) as u8) * 9 + 3 + r.below(3) as u8;
    let black_g = (9 - r.below(2) as u8) * 9 + 3 + r.below(3) as u8;
    put(&mut pieces, red_g, Color::White, XiangqiKind::General);
    put(&mut pieces, black_g, Color::Black, XiangqiKind::General);
    let kinds = [XiangqiKind::Chariot, XiangqiKind::Horse, XiangqiKind::Cannon, XiangqiKind::Soldier, XiangqiKind::Advisor];
    // Red attacks: two or three pieces; Black: zero to two, near its palace.
    for _ in 0..2 + r.below(2) {
        let k = kinds[r.below(4) as usize];
        let sq = if k == XiangqiKind::Soldier { (5 + r.below(5) as u8) * 9 + r.below(9) as u8 } else { r.below(90) as u8 };
        put(&mut pieces, sq, Color::White, k);
    }
    for _ in 0..r.below(3) {
        let k = kinds[r.below(5) as usize];
        let sq = match k {
            XiangqiKind::Advisor => [66, 68, 76, 84, 86][r.below(5) as usize],
            XiangqiKind::Soldier => (r.below(7) as u8) * 9 + r.below(9) as u8,
            _ => (5 + r.below(5) as u8) * 9 + r.below(9) as u8,
        };
        put(&mut pieces, sq, Color::Black, k);
    }
    XiangqiPosition::from_pieces(&pieces, side).ok()
}

#[test]
fn direct_play_agrees_with_the_reference_and_finds_quiet_keys() {
    let mut r = Rng(0x5851_F42D_4C95_7F2D);
    let (mut cases, mut with_keys, mut quiet) = (0, 0, 0);
    while cases < 300 {
        let Some(p) = random_position(&mut r, Color::White) else { continue };
        cases += 1;
        for n in [1, 2] {
            if n == 2 && cases % 3 != 0 {
                continue;
            }
            let want = ref_keys(&p, n);
            let stip = format!("#{n}");
            assert_eq!(fast_keys(&p, &stip, &opts(1, 16)), want, "{} {stip} (1 thread)", p.to_fen());
            if cases % 10 == 0 {
                assert_eq!(fast_keys(&p, &stip, &opts(2, 0)), want, "{} {stip} (2 threads, no table)", p.to_fen());
            }
            if !want.is_empty() {
                with_keys += 1;
            }
            // A key after which the defender is not in check but has no move: a quiet mate.
            for k in &want {
                let m = p.parse_move(k).expect("a legal key");
                if n == 1 && !p.gives_check(m) {
                    quiet += 1;
                }
            }
        }
    }
    assert!(with_keys >= 30, "only {with_keys} cases with a key");
    assert!(quiet > 0, "no quiet key among the random positions: the test would not catch a solver that only tries checks");
}

#[test]
fn help_play_agrees_with_the_reference() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let (mut cases, mut with_lines) = (0, 0);
    while cases < 150 {
        // Help play: the side to be mated (Black) moves first, except in `h#n.5`.
        let Some(p) = random_position(&mut r, Color::Black) else { continue };
        cases += 1;
        for (stip, plies) in [("h#1", 2), ("h#2", 4)] {
            if plies == 4 && cases % 5 != 0 {
                continue;
            }
            // The short lines (h#1 in h#2) are solutions too.
            let mut want = BTreeSet::new();
            for k in (2..=plies).step_by(2) {
                ref_help(&p, k, &mut Vec::new(), &mut want);
            }
            assert_eq!(fast_lines(&p, stip, &opts(1, 16)), want, "{} {stip}", p.to_fen());
            with_lines += !want.is_empty() as u32;
        }
        // `h#1.5` from the other side, where that is a legal position (Black not in check).
        if p.in_check() {
            continue;
        }
        let q = p.pass();
        let mut want = BTreeSet::new();
        ref_help(&q, 1, &mut Vec::new(), &mut want);
        ref_help(&q, 3, &mut Vec::new(), &mut want);
        assert_eq!(fast_lines(&q, "h#1.5", &opts(2, 16)), want, "{} h#1.5", q.to_fen());
    }
    assert!(with_lines >= 10, "only {with_lines} cases with a help line");
}

/// A quiet mate in one: the black general on d9 may go to d8 or e9. After `a0a8` the chariot
/// holds rank 8 and the open e-file keeps the general off e9 (the generals would face each
/// other): Black has no move and has lost, though it is not in check. `a0d0` mates with check.
#[test]
fn a_quiet_move_that_leaves_no_move_is_a_mate() {
    let p = XiangqiPosition::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").expect("FEN");
    let keys = fast_keys(&p, "#1", &opts(1, 16));
    assert_eq!(keys, ref_keys(&p, 1));
    assert!(keys.contains("a0a8") && keys.contains("a0d0"), "{keys:?}");
    let quiet = p.parse_move("a0a8").expect("legal");
    assert!(!p.gives_check(quiet));
    let q = p.play(quiet);
    assert!(!q.in_check() && q.legal_moves().is_empty() && q.goal_reached(feerie::rules::Goal::Mate));
    assert_eq!(q.mark(), "#");
}

/// The stated first moves and lengths of the Shiqing Yaqu mates.
#[test]
fn every_corpus_mate_is_found_at_its_length_and_no_shorter() {
    let text = include_str!("data/corpus/xiangqi-mates.yaml");
    let docs = load_str(text, "xiangqi-mates.yaml");
    assert_eq!(docs.len(), 22, "the 22 mates of the corpus");
    for d in &docs {
        let Loaded::Ready(p) = d else { panic!("not ready: {d:?}") };
        let GamePosition::Xiangqi(pos) = &p.position else { panic!("not Xiangqi") };
        let n = p.stipulation.moves;
        let stated = p.stated.as_ref().expect("a stated solution");
        let key = stated.twins[0].keys.first().or_else(|| stated.twins[0].lines.first().and_then(|l| l.first())).expect("a key");
        let o = opts(2, 64);
        let keys = fast_keys(pos, &format!("#{n}"), &o);
        assert!(keys.contains(key), "document {}: stated key {key} not among {keys:?}", p.document);
        if n > 1 {
            let shorter = fast_keys(pos, &format!("#{}", n - 1), &o);
            assert!(shorter.is_empty(), "document {}: a mate in {} exists: {shorter:?}", p.document, n - 1);
        }
    }
}

/// Stated solutions are read in ICCS and in WXF, and judged in either notation.
#[test]
fn stated_solutions_in_iccs_and_wxf() {
    use feerie::rules::Notation;
    use feerie::verify::{VerdictKind, check_problem};
    let fen = "4k4/3P2P2/b2N2R2/7r1/2b6/9/9/3n5/4p3r/2R2K3 w - - 0 1";
    for (solution, notation) in [
        ("1.g7e7 c5e7 2.d8e8 e9d9 3.d7b8", Notation::Native),
        ("1.R3.5 E3-5 2.P6.5 K5.4 3.H6+8", Notation::Native),
        ("1.g7e7 c5e7 2.d8e8 e9d9 3.d7b8", Notation::Wxf),
        ("1.R3.5 E3-5 2.P6.5 K5.4 3.H6+8", Notation::Wxf),
    ] {
        let text = format!("rules: xiangqi\nstipulation: '#3'\nfen: {fen}\nsolution: {solution}\n");
        let docs = load_str(&text, "s.yaml");
        let Loaded::Ready(p) = &docs[0] else { panic!("{docs:?}") };
        let stated = p.stated.as_ref().expect("stated");
        assert!(stated.problems.is_empty() && stated.twins[0].keys.len() == 1, "{solution}: {stated:?}");
        let o = SolveOptions { notation, ..opts(1, 16) };
        let r = check_problem(p, &o);
        assert_eq!(r[0].verdict, VerdictKind::Sound, "{solution} {notation:?}: {}", r[0].reason);
        let key = if notation == Notation::Wxf { "R3.5" } else { "g7e7" };
        assert_eq!(r[0].solutions, vec![vec![key.to_string()]]);
    }
    // A wrong stated key is reported as not found.
    let text = format!("rules: xiangqi\nstipulation: '#3'\nfen: {fen}\nsolution: 1.R3+1\n");
    let Loaded::Ready(p) = &load_str(&text, "s.yaml")[0] else { panic!() };
    assert_eq!(check_problem(p, &opts(1, 16))[0].verdict, VerdictKind::Differs);
}

/// Help play and twins on the Xiangqi board: the twins' positions are what the commands say,
/// and each is solved as the reference solves it.
#[test]
fn twins_and_help_play() {
    let text = "rules: xiangqi\nstipulation: '#1'\nfen: 3k5/9/9/9/9/9/9/9/9/R3K4 w\n\
                twins:\n  b: Move e0 f0\n  c: Mirror a0<-->i0\n  d: Continued Add black Pc6 Stipulation h#1\n";
    let docs = load_str(text, "t.yaml");
    let Loaded::Ready(p) = &docs[0] else { panic!("{docs:?}") };
    let vs = p.variants().expect("variants");
    let fens: Vec<String> = vs.iter().map(|v| v.position.to_fen()).collect();
    assert_eq!(fens[1], "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1");
    assert_eq!(fens[2], "5k3/9/9/9/9/9/9/9/9/4K3R w - - 0 1");
    assert_eq!(fens[3], "5k3/9/9/2p6/9/9/9/9/9/4K3R b - - 0 1");
    assert_eq!(vs[3].description, "Continued Add black Pc6 Stipulation h#1");
    for v in &vs {
        let GamePosition::Xiangqi(pos) = &v.position else { panic!() };
        let stip = v.stipulation.to_string();
        if stip == "#1" {
            assert_eq!(fast_keys(pos, "#1", &opts(1, 16)), ref_keys(pos, 1), "{}", pos.to_fen());
        } else {
            let mut want = BTreeSet::new();
            ref_help(pos, 2, &mut Vec::new(), &mut want);
            assert_eq!(fast_lines(pos, "h#1", &opts(1, 16)), want, "{}", pos.to_fen());
        }
    }
}

/// A twin that puts a piece where none can stand is refused with the diagram's message.
#[test]
fn a_twin_is_placed_by_the_diagram_rules() {
    let text = "rules: xiangqi\nstipulation: '#1'\nfen: 3k5/9/9/9/9/9/9/9/9/R3K4 w\ntwins:\n  b: Add red Bc7\n";
    let Loaded::Invalid(e) = &load_str(text, "t.yaml")[0] else { panic!("an elephant across the river is refused") };
    assert!(e.to_string().contains("twin b (Add red Bc7): the red elephant on c7 has crossed the river"), "{e}");
}
