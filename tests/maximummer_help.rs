//! Help play under the Maximummers follows chess's bound and mate pictures
//! (`FairyPosition::chess_twin`): a Maximummer's lines are chess lines and its mates chess
//! mates, so the pictures never cut a line. Checked here against plain enumeration of the
//! help lines (every legal move of the fairy position, no bound, no picture) on random
//! positions of kings, a few orthodox pieces and pawns, under White's, Black's and both
//! Maximummers, `h#1.5` to `h#3`; and on Popeye's `intell.inp` #38 (`h#10`, both
//! Maximummers), which the pictures make fast.

use feerie::geometry::Square;
use feerie::piece::{Color, Kind};
use feerie::problem::Stipulation;
use feerie::rules::fairy::{Condition, Conditions, FPiece, FairyPosition, FairySetup, Owner};
use feerie::rules::{Game, Goal};
use feerie::solve::{SolveOptions, solve};
use std::collections::BTreeSet;

/// A small linear congruential generator (the test's positions are the same every run).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn position(r: &mut Rng, conds: &[Condition]) -> Option<FairyPosition> {
    let mut used = BTreeSet::new();
    let mut pieces = Vec::new();
    let mut place = |s: u8, c: Color, k: Kind, pieces: &mut Vec<(Square, FPiece)>| {
        if used.insert(s) {
            pieces.push((Square(s), FPiece::new(Owner::of(c), k)));
        }
    };
    // The lone black king near a corner or an edge, where mates are many.
    let bk = [0u8, 7, 56, 63, 3, 24, 39, 60][r.below(8) as usize];
    place(bk, Color::Black, Kind::King, &mut pieces);
    place(r.below(64) as u8, Color::White, Kind::King, &mut pieces);
    for _ in 0..2 + r.below(3) {
        let white = r.below(3) > 0;
        let kind = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Pawn][r.below(5) as usize];
        let s = r.below(64) as u8;
        if kind == Kind::Pawn && !(8..56).contains(&s) {
            continue;
        }
        place(s, if white { Color::White } else { Color::Black }, kind, &mut pieces);
    }
    let mut conditions = Conditions::none();
    for &c in conds {
        conditions.push(c).ok()?;
    }
    let setup = FairySetup {
        pieces,
        holes: 0,
        side: Some(Color::Black),
        castling: 0,
        ep: None,
        conditions,
        extra_promotions: vec![],
        track_pieces: false,
    };
    FairyPosition::from_setup(&setup).ok()
}

/// Every help line of exactly `plies` half-moves from `p` ending in mate, by plain
/// enumeration of the legal moves.
fn lines(p: &FairyPosition, plies: u32, prefix: &mut Vec<String>, out: &mut BTreeSet<Vec<String>>) {
    let mut moves = Vec::new();
    p.moves(&mut moves);
    for m in moves {
        let q = p.play(m);
        prefix.push(p.move_text(m, feerie::piece::Lang::En));
        if plies == 1 {
            if q.goal_reached(Goal::Mate) {
                out.insert(prefix.clone());
            }
        } else if !q.goal_reached(Goal::Mate) {
            lines(&q, plies - 1, prefix, out);
        }
        prefix.pop();
    }
}

fn solved(p: &FairyPosition, stip: &str) -> BTreeSet<Vec<String>> {
    let s = Stipulation::parse(stip).expect("a stipulation");
    let opts = SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() };
    solve(p, &s, &SolveOptions { ..opts }).phases[0].lines.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect()).collect()
}

#[test]
fn the_pictures_never_cut_a_maximummer_line() {
    let sets: [&[Condition]; 3] = [
        &[Condition::Maximummer(Color::White)],
        &[Condition::Maximummer(Color::Black)],
        &[Condition::Maximummer(Color::White), Condition::Maximummer(Color::Black)],
    ];
    let mut r = Rng(23);
    let (mut compared, mut with_lines) = (0, 0);
    for case in 0..240 {
        let conds = sets[case % 3];
        let Some(p) = position(&mut r, conds) else { continue };
        assert!(p.plan(Goal::Mate, Color::Black, 1, 2).is_some(), "pictures under {conds:?}");
        // Black moves first: h#2 and h#3 end with White's mate, h#1.5 and h#2.5 with
        // White to move first.
        for (stip, plies, q) in [("h#2", 4, p), ("h#3", 6, p), ("h#1.5", 3, p.pass()), ("h#2.5", 5, p.pass())] {
            if plies == 6 && case % 12 != 0 {
                continue;
            }
            if q.pass().in_check() {
                continue;
            }
            let mut want = BTreeSet::new();
            lines(&q, plies, &mut Vec::new(), &mut want);
            // The solver prints the short lines (mate in fewer moves) first: only the full
            // length is compared.
            let got: BTreeSet<Vec<String>> = solved(&q, stip).into_iter().filter(|l| l.len() == plies as usize).collect();
            assert_eq!(got, want, "{stip} under {conds:?} from {q:?}");
            compared += 1;
            with_lines += usize::from(!want.is_empty());
        }
    }
    eprintln!("{compared} compared, {with_lines} with lines");
    assert!(compared > 300 && with_lines > 20, "{compared} compared, {with_lines} with lines");
}
