//! The goals of the last move (`~`, `x`, `%`, `ep`, `00`, `zxy`, `#=`, `!=`) on concrete
//! positions, in chess and under Circe, with the marks Popeye writes. Every expected count,
//! move and mark is Popeye's (4.x, its public source) on the same position.

use super::Goal;
use super::fairy::conditions::Rebirth;
use super::fairy::tests::from_fen as fairy_fen;
use super::fairy::{Condition, Conditions};
use crate::position::{Position, parse_sq};
use crate::problem::stipulation::{Stipulation, StipulationError};
use crate::rules::Game;
use crate::solve::{Line, SolveOptions, solve};

fn opts() -> SolveOptions {
    SolveOptions { threads: 1, hash_mb: 4, ..SolveOptions::default() }
}

/// The keys of a battle stipulation as `move mark`.
fn keys<G: Game>(pos: &G, stip: &str) -> Vec<String> {
    let s = Stipulation::parse(stip).expect(stip);
    let r = solve(pos, &s, &opts());
    r.phases[0].keys.iter().map(|k| format!("{} {}", k.mv, k.mark).trim_end().to_string()).collect()
}

/// The lines of a help or series stipulation, as `move mark` words.
fn lines<G: Game>(pos: &G, stip: &str) -> Vec<String> {
    let s = Stipulation::parse(stip).expect(stip);
    let r = solve(pos, &s, &opts());
    let show = |l: &Line| l.iter().map(|m| format!("{} {}", m.mv, m.mark).trim_end().to_string()).collect::<Vec<_>>().join(" ");
    let mut v: Vec<String> = r.phases[0].lines.iter().map(show).collect();
    v.sort();
    v
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn circe() -> Conditions {
    let mut c = Conditions::none();
    c.push(Condition::Rebirth(Rebirth::Circe { rex: false })).unwrap();
    c
}

#[test]
fn any_move_lists_every_move_marking_checks_only() {
    // Popeye: `~1` on wKa6 wQb1 bKa8 prints its 24 moves as keys; the checks (Qb1-b7 mates,
    // Qb1-b6 stalemates) are marked `+`, nothing else.
    let k = keys(&pos("k7/8/K7/8/8/8/8/1Q6 w - - 0 1"), "~1");
    assert_eq!(k.len(), 24);
    let checks: Vec<&String> = k.iter().filter(|m| m.ends_with(" +")).collect();
    assert_eq!(checks, ["Qb1-h1 +", "Qb1-e4 +", "Qb1-b7 +", "Qb1-b8 +"]);
    assert!(k.contains(&"Qb1-b6".to_string()));
}

#[test]
fn mate_or_stalemate_is_marked_as_the_goal() {
    // Popeye: `#=1`, the same position: Qb1-b2 … Qb1-b7, each `#=` (b7 mates, the others
    // stalemate).
    let k = keys(&pos("k7/8/K7/8/8/8/8/1Q6 w - - 0 1"), "#=1");
    assert_eq!(k, ["Qb1-b2 #=", "Qb1-b3 #=", "Qb1-b4 #=", "Qb1-b5 #=", "Qb1-b6 #=", "Qb1-b7 #="]);
}

#[test]
fn capture_in_series_play_with_its_mark() {
    // Popeye: `ser-x2` on wKa6 wQb1 bKa8 bPa7: three lines, the capture marked `+ x`.
    let l = lines(&pos("k7/p7/K7/8/8/8/8/1Q6 w - - 0 1"), "ser-x2");
    assert_eq!(l, ["Qb1-b6 Qb6*a7 + x", "Qb1-g1 Qg1*a7 + x", "Qb1-h7 Qh7*a7 + x"]);
    // No capture in one: nothing.
    assert!(keys(&pos("k7/8/K7/8/8/8/8/1Q6 w - - 0 1"), "x1").is_empty());
}

#[test]
fn castling_target_and_en_passant() {
    assert_eq!(keys(&pos("k7/8/8/8/8/8/8/4K2R w K - 0 1"), "001"), ["0-0"]);
    assert_eq!(keys(&pos("k7/p7/KQ6/8/8/8/8/8 w - - 0 1"), "zb71"), ["Qb6-b7 + z"]);
    // Popeye: `hep1.5`, White begins: three lines ending with e5*d6 (no mark).
    let l = lines(&pos("k7/3p4/K7/4P3/8/8/8/8 w - - 0 1"), "hep1.5");
    assert_eq!(l, ["Ka6-a5 d7-d5 e5*d6", "Ka6-b5 d7-d5 e5*d6", "Ka6-b6 d7-d5 e5*d6"]);
}

#[test]
fn auto_stalemate_is_the_movers_own() {
    // Popeye: `!=1` on wKa1 wPa2 wPh5 bKa3 bBf5 bPh7: 1.h5-h6 != (White has no move left).
    assert_eq!(keys(&pos("8/7p/8/5b1P/8/k7/P7/K7 w - - 0 1"), "!=1"), ["h5-h6 !="]);
}

#[test]
fn circe_capture_is_x_but_wins_a_piece_only_without_rebirth() {
    // Popeye, Circe: d4*e5 reborn on b8 is a capture (`x`), not a piece won (`%`); with b8
    // taken the knight is lost: `%`.
    let reborn = "4k3/8/8/1p2n3/2pP4/8/8/4K3 w - - 0 1";
    assert_eq!(keys(&fairy_fen(reborn, circe()), "x1"), ["d4*e5[+bSb8] x"]);
    assert!(keys(&fairy_fen(reborn, circe()), "%1").is_empty());
    assert!(keys(&fairy_fen(reborn, circe()), "zd81").is_empty());
    let lost = "1r2k3/8/8/1p2n3/2pP4/8/8/4K3 w - - 0 1";
    assert_eq!(keys(&fairy_fen(lost, circe()), "%1"), ["d4*e5 %"]);
    assert_eq!(keys(&fairy_fen(lost, circe()), "x1"), ["d4*e5 x"]);
}

#[test]
fn goals_of_the_move_are_judged_from_the_move() {
    let p = pos("r3k3/8/8/3pP3/8/8/8/4K2R w Kq d6 0 1");
    let play = |t: &str| p.parse_move(t).unwrap();
    let reached = |t: &str, g: Goal| p.play(play(t)).goal_reached_by(&p, play(t), g);
    assert!(reached("e5*d6", Goal::EnPassant) && reached("e5*d6", Goal::Capture) && reached("e5*d6", Goal::WinPiece));
    assert!(!reached("e5-e6", Goal::Capture) && reached("e5-e6", Goal::AnyMove));
    assert!(reached("0-0", Goal::Castling) && !reached("Rh1-h2", Goal::Castling));
    // The rook arrives on f1 by castling; the king on g1.
    assert!(reached("0-0", Goal::Target(parse_sq("f1").unwrap())) && reached("0-0", Goal::Target(parse_sq("g1").unwrap())));
    assert!(!reached("0-0", Goal::Target(parse_sq("e1").unwrap())));
    // The position alone cannot tell them: `goal_reached` never says yes.
    assert!(!p.play(play("e5*d6")).goal_reached(Goal::Capture));
}

#[test]
fn stipulations_with_the_new_goals_read_and_write_back() {
    for (text, goal) in [
        ("~1", Goal::AnyMove),
        ("h~2", Goal::AnyMove),
        ("x3", Goal::Capture),
        ("ser-x5", Goal::Capture),
        ("ser-%4", Goal::WinPiece),
        ("hep1.5", Goal::EnPassant),
        ("h003", Goal::Castling),
        ("#=2", Goal::MateOrStalemate),
        ("ser-!=7", Goal::AutoStalemate),
        ("hzg74", Goal::Target(parse_sq("g7").unwrap())),
        ("zd51", Goal::Target(parse_sq("d5").unwrap())),
    ] {
        let s = Stipulation::parse(text).expect(text);
        assert_eq!(s.goal, goal, "{text}");
        assert_eq!(s.to_string(), text.to_lowercase());
    }
    assert_eq!(Stipulation::parse("HZg74").unwrap().moves, 4);
    for (text, goal) in
        [("h##2", Goal::DoubleMate), ("##!1", Goal::CounterMate), ("ser-!#11", Goal::AutoMate), ("s##!1", Goal::CounterMate)]
    {
        let s = Stipulation::parse(text).expect(text);
        assert_eq!(s.goal, goal, "{text}");
        assert_eq!(s.to_string(), text);
    }
    for (text, goal) in [
        ("h<>3", Goal::Exchange),
        ("ser-ct10", Goal::Circuit),
        ("ser-h<>r5", Goal::ExchangeByRebirth),
        ("ser-sctr2", Goal::CircuitByRebirth),
        ("ska74", Goal::Kiss(parse_sq("a7").unwrap())),
    ] {
        let s = Stipulation::parse(text).expect(text);
        assert_eq!(s.goal, goal, "{text}");
        assert_eq!(s.to_string(), text);
        assert!(goal.tracks_pieces() && goal.by_move() && goal.end_mark().is_empty());
    }
    assert_eq!(Stipulation::parse("sKa74").unwrap().moves, 4);
    assert!(matches!(Stipulation::parse("zj93"), Err(StipulationError::Malformed { .. })));
    assert!(matches!(Stipulation::parse("hk3"), Err(StipulationError::Malformed { .. })));
}

#[test]
fn xiangqi_and_cheskers_refuse_the_goals_of_the_move() {
    use crate::rules::cheskers::CheskersPosition;
    use crate::rules::xiangqi::XiangqiPosition;
    for g in [Goal::AnyMove, Goal::Capture, Goal::Castling, Goal::MateOrStalemate] {
        assert!(<XiangqiPosition as Game>::refuses_goal(g).is_some());
        assert!(<CheskersPosition as Game>::refuses_goal(g).is_some());
    }
    assert!(<XiangqiPosition as Game>::refuses_goal(Goal::Mate).is_none());
    assert!(<Position as Game>::refuses_goal(Goal::Capture).is_none());
    // The chess position keeps no record of where its pieces started.
    assert!(<Position as Game>::refuses_goal(Goal::Circuit).is_some());
}

/// A fairy position that follows its pieces ([`FairySetup::track_pieces`]) from a list such
/// as `wQd3 bRc5` (no king needed), White to move.
fn tracked(pieces: &str, conditions: Conditions) -> super::fairy::FairyPosition {
    use super::fairy::{FPiece, FairySetup, Owner};
    let pieces = pieces
        .split_whitespace()
        .map(|w| {
            let owner = if w.starts_with('w') { Owner::White } else { Owner::Black };
            let kind = crate::piece::Kind::from_code(&w[1..2]).unwrap();
            (parse_sq(&w[2..]).unwrap(), FPiece::new(owner, kind))
        })
        .collect();
    let setup = FairySetup { pieces, side: Some(crate::piece::Color::White), conditions, track_pieces: true, ..FairySetup::default() };
    super::fairy::FairyPosition::from_setup(&setup).unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn anticirce() -> Conditions {
    let mut c = Conditions::none();
    c.push(Condition::Rebirth(Rebirth::Anti { cheylan: false })).unwrap();
    c
}

#[test]
fn a_kiss_is_the_moving_piece_left_alone_beside_the_kissed_one() {
    // Every expectation is Popeye's on the same position. The queen may kiss the rook from
    // any square beside it.
    let k = keys(&tracked("wQd3 bRc5", Conditions::none()), "kc51");
    assert_eq!(sorted(k), ["Qd3-b5", "Qd3-c4", "Qd3-d4", "Qd3-d5", "Qd3-d6"]);
    // With a black pawn beside the rook, only the move that takes it kisses.
    assert_eq!(keys(&tracked("wQd3 bRc5 bPd4", Conditions::none()), "kc51"), ["Qd3*d4"]);
    // A second neighbour that stays spoils every kiss.
    assert!(keys(&tracked("wQd3 wBb6 bRc5", Conditions::none()), "kc51").is_empty());
    // The kissed piece moving beside another is no kiss; the other way round it is.
    assert!(keys(&tracked("wBb6 bPd4", Conditions::none()), "kb61").is_empty());
    assert_eq!(keys(&tracked("wBb6 bPd4", Conditions::none()), "kd41"), ["Bb6-c5"]);
    // The queen already alone beside the rook: moving to another square beside it kisses,
    // another piece's move does not.
    let k = keys(&tracked("wQd4 wPh2 bRc5", Conditions::none()), "kc51");
    assert_eq!(sorted(k), ["Qd4-b4", "Qd4-c4", "Qd4-d5", "Qd4-d6"]);
    // Help play (Popeye's hka71): the pawn goes, the knight follows it.
    assert_eq!(lines(&tracked("wSa4 bPa7", Conditions::none()).pass(), "hka71"), ["a7-a5 Sa4-b6", "a7-a6 Sa4-b6"]);
}

#[test]
fn a_circuit_brings_the_moving_piece_back_to_its_diagram_square() {
    // Popeye: ser-ct2 with wRc1 wKd1 (and a black pawn, so that Black is never
    // stalemated on the way): every switchback of either piece, 13 lines.
    let l = lines(&tracked("wRc1 wKd1 bPh7", Conditions::none()), "ser-ct2");
    assert_eq!(l.len(), 13);
    assert!(l.iter().all(|l| {
        let w: Vec<&str> = l.split(' ').collect();
        w.len() == 2 && w[0][1..3] == w[1][4..6] && w[0][4..6] == w[1][1..3]
    }));
    // Two rooks: 21 switchbacks (Popeye).
    assert_eq!(lines(&tracked("wRc1 wRe1 bPh7", Conditions::none()), "ser-ct2").len(), 21);
    // AntiCirce: the capturer reborn on its own diagram square has come back.
    assert_eq!(keys(&tracked("wKe1 bPd2", anticirce()), "ct1"), ["Ke1*d2[wKd2->e1]"]);
    // Not a circuit by rebirth: no captured piece is reborn.
    assert!(keys(&tracked("wKe1 bPd2", anticirce()), "ctr1").is_empty());
}

#[test]
fn an_exchange_swaps_two_pieces_of_one_side() {
    // Popeye: ser-<>3 with wRc1 wBe3: two lines.
    let l = lines(&tracked("wRc1 wBe3 bPh7", Conditions::none()), "ser-<>3");
    assert_eq!(l, ["Rc1-c3 Be3-c1 Rc3-e3", "Rc1-e1 Be3-c1 Re1-e3"]);
    // Two rooks swap too (28 lines in four moves): they are told apart by where they began.
    assert_eq!(lines(&tracked("wRc1 wRe1 bPh7", Conditions::none()), "ser-<>4").len(), 28);
    // Pieces of both sides never exchange.
    assert!(lines(&tracked("wRa1 bRh8", Conditions::none()).pass(), "h<>2").is_empty());
}

#[test]
fn circe_rebirths_reach_the_goals_by_rebirth() {
    // Popeye (circe.inp): sctr1, the bishop is taken and reborn on its diagram square c1.
    let k = keys(&tracked("wBc1 wPg6 bPg7", circe()), "sctr1");
    assert_eq!(k, ["Bc1-h6"]);
    // s<>r2: the bishop reborn on f1 completes its exchange with the king.
    let k = keys(&tracked("wKf1 wBe2 wPd4 bPd6", circe()), "s<>r2");
    assert_eq!(k, ["Be2-c4"]);
}

#[test]
fn a_help_line_ends_where_the_goal_of_the_move_is_reached() {
    // Popeye, `hx1.5` (White begins): 415 lines, two of them White's capture at once.
    let p = pos("4k3/8/8/1p2p3/2pP4/8/7R/4K2b w - - 0 1");
    let l = lines(&p, "hx1.5");
    assert_eq!(l.len(), 415);
    let short: Vec<&String> = l.iter().filter(|s| s.split(' ').count() == 2).collect();
    assert_eq!(short, ["Rh2*h1 x", "d4*e5 x"]);
    // Popeye, `h~2`: every line ends with White's first move (48 = 2 × 24).
    let l = lines(&pos("k7/7p/K7/8/8/8/8/1Q6 b - - 0 1"), "h~2");
    assert_eq!(l.len(), 48);
    assert!(l.iter().all(|s| s.split(' ').filter(|w| w.contains('-')).count() == 2), "{l:?}");
}

#[test]
fn double_mate_may_leave_the_movers_king_in_check() {
    // Popeye's TESTS/help_play.inp #6, `h##2`: the last move puts White's king next to
    // Black's, both mated.
    let l = lines(&pos("8/8/8/6p1/4K1kN/6P1/4p1pq/7R b - - 0 1"), "h##2");
    assert_eq!(l, ["Kg4-h3 Ke4-f3 g5-g4 + Kf3*g2 ##"]);
    // REGRESSIONS/4_55_to_4_57.inp #5: `##1` 1.Kh6-h7 ##; with a black rook on a5 White is
    // stalemated in the diagram and has no `##`.
    assert_eq!(keys(&pos("7k/6b1/6PK/8/8/8/8/8 w - - 0 1"), "##1"), ["Kh6-h7 ##"]);
    assert!(keys(&pos("7k/6b1/6PK/r7/8/8/8/8 w - - 0 1"), "##1").is_empty());
    // In check but with a legal move, White may (Popeye 4.104 on the same position).
    assert_eq!(keys(&pos("7k/6b1/6PK/8/8/4q3/8/8 w - - 0 1"), "##1"), ["Kh6-h7 ##"]);
}

#[test]
fn counter_mate_is_played_by_a_mated_side_that_stays_mated() {
    // TESTS/battle_play.inp #8, `##!2`: White, mated, counter-mates at once (a short key).
    assert_eq!(keys(&pos("1RK5/k7/8/2qr4/8/8/8/8 w - - 0 1"), "##!2"), ["Kc8-b7 ##!"]);
    // Without the rook d5 White is not mated (Kd7): no counter-mate.
    assert!(keys(&pos("1RK5/k7/8/2q5/8/8/8/8 w - - 0 1"), "##!1").is_empty());
    // Popeye 4.104: 1.Rg1-g8 mates Black, but frees g1 for White's king: no counter-mate
    // unless a knight on e2 guards g1.
    assert!(keys(&pos("k7/pp5r/8/8/5n2/8/8/6RK w - - 0 1"), "##!1").is_empty());
    assert_eq!(keys(&pos("k7/pp5r/8/8/5n2/8/4n3/6RK w - - 0 1"), "##!1"), ["Rg1-g8 ##!"]);
    // TESTS/help_play.inp #5, `h##!2`.
    assert_eq!(lines(&pos("7q/6rB/8/8/8/K7/8/k7 b - - 0 1"), "h##!2"), ["Rg7-g4 Bh7-b1 Qh8-c3 + Ka3-a2 ##!"]);
}

#[test]
fn auto_mate_mates_the_mover() {
    // Popeye's EXAMPLES/automate.inp #1 (with a black king, which Popeye's needs not):
    // g2-g4 opens the second rank to the rook a2; g2-g3 would leave Kh3.
    let p = pos("4k3/8/8/8/8/r7/r5PK/r7 w - - 0 1");
    assert_eq!(keys(&p, "!#1"), ["g2-g4 !#"]);
    // Popeye 4.104, `h!#1.5`: White's first move ends the line.
    assert_eq!(lines(&p, "h!#1.5"), ["g2-g4 !#"]);
}

#[test]
fn a_neutral_king_double_mates_both_sides() {
    use super::fairy::tests::position;
    use crate::piece::Color;
    // REGRESSIONS/4_55_to_4_57.inp #18 as `##1` (Popeye 4.104): 1.nKa5*a4 ##.
    let p = position(&["Qa3", "Pb2", "Pc4"], &["Ra7", "Sa1", "Pa4", "Pc5", "Pc6"], &["Ka5"], Color::White);
    // The move leaves White's own (neutral) king in check: not a legal move.
    assert!(p.parse_move("nKa5*a4").is_none());
    let mut extra = Vec::new();
    p.self_check_moves(&mut extra);
    let m = *extra.iter().find(|&&m| p.move_text(m, crate::piece::Lang::En) == "nKa5*a4").expect("nKa5*a4");
    // Either side could "capture" the neutral king after it (Ra7*a4, Qa3*a4): no move.
    assert!(p.play(m).goal_reached_by(&p, m, Goal::DoubleMate));
    assert_eq!(keys(&p, "##1"), ["nKa5*a4 ##"]);
}

/// The lines of `stip`, with `GoalIsEnd` when `goal_is_end`, each as `move mark` words.
fn keys_with(pos: &Position, stip: &str, goal_is_end: bool) -> Vec<String> {
    let s = Stipulation::parse(stip).expect(stip);
    let r = solve(pos, &s, &SolveOptions { goal_is_end, ..opts() });
    r.phases[0].keys.iter().map(|k| format!("{} {}", k.mv, k.mark).trim_end().to_string()).collect()
}

#[test]
fn chess81_is_a_piece_arriving_on_the_other_sides_first_rank() {
    // Popeye 4.104, `c811`: the rook to b8, the king to the 8th rank; not to the 1st.
    let mut k = keys(&pos("8/3K4/8/7k/8/8/1R6/r7 w - - 0 1"), "c811");
    k.sort();
    assert_eq!(k, ["Kd7-c8 c81", "Kd7-d8 c81", "Kd7-e8 c81", "Rb2-b8 c81"]);
    // Black's goal is the 1st rank, a promotion included.
    let p = pos("7k/8/8/8/8/8/p7/7K b - - 0 1");
    let m = p.parse_move("a2-a1=Q").unwrap();
    assert!(p.play(m).goal_reached_by(&p, m, Goal::Chess81));
    assert_eq!(Stipulation::parse("hc815").unwrap().goal, Goal::Chess81);
}

#[test]
fn goal_is_end_lets_a_defence_reaching_the_goal_refute() {
    // Popeye's BEISPIEL/chess81.inp #2 (Keym, feenschach 2011), `c813` with GoalIsEnd: only
    // 1.0-0; without the option (Popeye 4.104) 1.Ke1-e2 works too, since the black king's
    // walk to the 1st rank then no longer ends play.
    let p = pos("8/8/8/8/7b/6k1/8/4K2R w K - 0 1");
    assert_eq!(keys_with(&p, "c813", true), ["0-0"]);
    let mut k = keys_with(&p, "c813", false);
    k.sort();
    assert_eq!(k, ["0-0", "Ke1-e2"]);
}

#[test]
fn help_reflex_play_ends_where_a_side_can_reach_the_goal() {
    // Popeye's TESTS/help_play.inp #9, `hr#2`: Black mates at its first chance.
    assert_eq!(lines(&pos("8/8/7p/8/8/kp3P2/p7/K7 w - - 0 1"), "hr#2"), ["f3-f4 b3-b2 #"]);
    // #8, `hr#1.5`: Black begins and can mate at once, so must.
    assert_eq!(lines(&pos("8/8/7p/8/8/kp5P/p7/K7 b - - 0 1"), "hr#1.5"), ["b3-b2 #"]);
    // #7, `exact-hr#2`: not the short 1.Qb2+ c3*b2#, which hr#2 has.
    let p = pos("8/8/8/1Q6/8/k1p5/8/KB6 w - - 0 1");
    assert_eq!(lines(&p, "exact-hr#2"), ["Qb5-e2 Ka3-b3 Qe2-b2 + c3*b2 #"]);
    assert!(lines(&p, "hr#2").contains(&"Qb5-b2 + c3*b2 #".to_string()));
    // #11, `hr#1`: White can mate, so must: no solution.
    assert!(lines(&pos("1k6/8/K4Q2/7r/6r1/8/8/8 w - - 0 1"), "hr#1").is_empty());
    let s = Stipulation::parse("HR#2.5").unwrap();
    assert_eq!((s.to_string(), s.first_mover(false)), ("hr#2.5".to_string(), crate::piece::Color::Black));
}

#[test]
fn intro_moves_come_before_the_series_numbered_on_their_own() {
    // Popeye's REGRESSIONS/4_85_to_4_87.inp #10 (Enemark), `1->ser-h#3`: White's intro move,
    // then Black's series, then White's mate.
    let s = Stipulation::parse("1->ser-H#3").unwrap();
    assert_eq!((s.to_string(), s.intro, s.first_mover(false)), ("1->ser-h#3".to_string(), 1, crate::piece::Color::White));
    let r = solve(&pos("8/8/8/1N6/8/1r1n4/2K5/k7 w - - 0 1"), &s, &opts());
    let shown: Vec<String> =
        r.phases[0].lines.iter().map(|l| crate::report::popeye::series_line(l, true, crate::piece::Lang::En)).collect();
    assert_eq!(
        shown,
        [
            "  1.Sb5-d4   1.Sd3-c1   2.Sc1-a2 Sd4*b3 #",
            "  1.Sb5-d4   1.Rb3-a3   2.Sd3-b2   3.Ra3-a2 Sd4-b3 #",
            "  1.Sb5-d4   1.Sd3-b2   2.Rb3-a3   3.Ra3-a2 Sd4-b3 #",
        ]
    );
    assert!(matches!(Stipulation::parse("2->h#3"), Err(StipulationError::Unsupported(_))));
}

#[test]
fn a_series_goes_on_past_a_stalemate_that_is_not_the_goal() {
    // Popeye: ser-#2 on wKb6 wQc1 bKa8 has 27 lines; four go through 1.Qc1-c7, which leaves
    // Black without a move: Black never moves in the series.
    let l = lines(&pos("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"), "ser-#2");
    assert_eq!(l.len(), 27);
    assert_eq!(l.iter().filter(|l| l.starts_with("Qc1-c7 ")).count(), 4);
    // The blocked side never stops a series of a goal that follows pieces either.
    assert_eq!(lines(&tracked("wRc1 wBe3", Conditions::none()), "ser-<>3"), ["Rc1-c3 Be3-c1 Rc3-e3", "Rc1-e1 Be3-c1 Re1-e3"]);
}
