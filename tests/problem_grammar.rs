//! Tables for the stipulation grammar, each option and condition, and each twin command.

use feerie::piece::Color;
use feerie::position::ReserveRule;
use feerie::problem::options::parse_options;
use feerie::problem::stipulation::{Play, Stipulation, StipulationError};
use feerie::problem::{Loaded, Problem, load_str};
use feerie::rules::Goal;

#[test]
fn stipulations_that_parse() {
    use Goal::*;
    use Play::*;
    // text, series, play, goal, moves, half, shown as
    let table: &[(&str, bool, Play, Goal, u32, bool, &str)] = &[
        ("#2", false, Direct, Mate, 2, false, "#2"),
        ("#12", false, Direct, Mate, 12, false, "#12"),
        ("=3", false, Direct, Stalemate, 3, false, "=3"),
        ("==2", false, Direct, DoubleStalemate, 2, false, "==2"),
        ("+1", false, Direct, Check, 1, false, "+1"),
        ("h#2", false, Help, Mate, 2, false, "h#2"),
        ("h#2.5", false, Help, Mate, 2, true, "h#2.5"),
        ("h#0.5", false, Help, Mate, 0, true, "h#0.5"),
        ("h=3", false, Help, Stalemate, 3, false, "h=3"),
        ("h==4", false, Help, DoubleStalemate, 4, false, "h==4"),
        ("h+2", false, Help, Check, 2, false, "h+2"),
        ("s#3", false, SelfPlay, Mate, 3, false, "s#3"),
        ("s=2", false, SelfPlay, Stalemate, 2, false, "s=2"),
        ("r#2", false, Reflex, Mate, 2, false, "r#2"),
        ("hs#2", false, HelpSelf, Mate, 2, false, "hs#2"),
        ("hs#2.5", false, HelpSelf, Mate, 2, true, "hs#2.5"),
        ("ser-#5", true, Direct, Mate, 5, false, "ser-#5"),
        ("ser-h#3", true, Help, Mate, 3, false, "ser-h#3"),
        ("ser-h=14", true, Help, Stalemate, 14, false, "ser-h=14"),
        ("ser-s#2", true, SelfPlay, Mate, 2, false, "ser-s#2"),
        ("ser-r#2", true, Reflex, Mate, 2, false, "ser-r#2"),
        ("ser-=6", true, Direct, Stalemate, 6, false, "ser-=6"),
        (" H#2 ", false, Help, Mate, 2, false, "h#2"),
        ("h# 3", false, Help, Mate, 3, false, "h#3"),
        ("SER-H#3", true, Help, Mate, 3, false, "ser-h#3"),
        ("h#2,5", false, Help, Mate, 2, true, "h#2.5"),
        // The goals of the move, and mate or stalemate, auto-stalemate.
        ("hx2", false, Help, Capture, 2, false, "hx2"),
        ("#=2", false, Direct, MateOrStalemate, 2, false, "#=2"),
        ("h00 2", false, Help, Castling, 2, false, "h002"),
        ("ep1", false, Direct, EnPassant, 1, false, "ep1"),
        ("ser-!=7", true, Direct, AutoStalemate, 7, false, "ser-!=7"),
        ("~1", false, Direct, AnyMove, 1, false, "~1"),
        ("SER-%4", true, Direct, WinPiece, 4, false, "ser-%4"),
        ("HZg74", false, Help, Target(feerie::geometry::Square(54)), 4, false, "hzg74"),
        // Double mate, counter-mate, auto-mate, Chess81; help-reflex play.
        ("h##2", false, Help, DoubleMate, 2, false, "h##2"),
        ("ser-h##!2", true, Help, CounterMate, 2, false, "ser-h##!2"),
        ("ser-!#11", true, Direct, AutoMate, 11, false, "ser-!#11"),
        ("sc815", false, SelfPlay, Chess81, 5, false, "sc815"),
        ("HR#2.5", false, HelpReflex, Mate, 2, true, "hr#2.5"),
    ];
    for &(text, series, play, goal, moves, half, shown) in table {
        let s = Stipulation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(s, Stipulation::new(series, play, goal, moves, half), "{text}");
        assert_eq!(s.to_string(), shown);
        assert_eq!(text.parse::<Stipulation>(), Ok(s));
        // Display round-trips.
        assert_eq!(Stipulation::parse(&s.to_string()), Ok(s));
    }
}

/// Popeye's prefixes (`pser-`, `phser-`, `exact-`, `reci-`, `semi-`) read into the fields of
/// [`Stipulation`] and written back as Popeye writes them.
#[test]
fn stipulation_forms() {
    use feerie::problem::stipulation::Parry;
    let st = |t: &str| Stipulation::parse(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    let s = st("pser-#2");
    assert_eq!((s.series, s.play, s.parry, s.to_string().as_str()), (true, Play::Direct, Some(Parry::Defence), "pser-#2"));
    // pser-h: the parries are help moves, as in phser-.
    assert_eq!(st("pser-h#6").parry, Some(Parry::Help));
    assert_eq!(st("PSER-H=4").to_string(), "pser-h=4");
    let s = st("phser-s#6");
    assert_eq!((s.parry, s.play, s.to_string().as_str()), (Some(Parry::Help), Play::SelfPlay, "phser-s#6"));
    assert_eq!(st("pser-r#2").parry, Some(Parry::Defence));
    let s = st("reci-h#3");
    assert_eq!((s.play, s.reci, s.goal, s.to_string().as_str()), (Play::Help, Some(Goal::Mate), Goal::Mate, "reci-h#3"));
    let s = st("reci-h(=)#3");
    assert_eq!((s.reci, s.goal, s.to_string().as_str()), (Some(Goal::Stalemate), Goal::Mate, "reci-h(=)#3"));
    let s = st("reci-h(#)=2");
    assert_eq!((s.reci, s.goal, s.to_string().as_str()), (Some(Goal::Mate), Goal::Stalemate, "reci-h(#)=2"));
    let s = st("exact-ser-h=5");
    assert!(s.exact && s.series && s.to_string() == "exact-ser-h=5");
    assert!(st("exact-h#1.5").exact);
    let s = st("semi-r#2");
    assert_eq!((s.play, s.series, s.to_string().as_str()), (Play::SemiReflex, false, "semi-r#2"));
    assert!(s.is_battle());
    // The prefixes with the goals of the move.
    let s = st("exact-hx2");
    assert!(s.exact && s.goal == Goal::Capture && s.to_string() == "exact-hx2");
    assert_eq!(st("semi-r00 3").to_string(), "semi-r003");
    for t in ["pser-#2", "pser-s=8", "phser-r#2", "reci-h(=)#3", "exact-ser-r#2", "semi-r+5", "exact-ser-#=3", "exact-s!=2"] {
        assert_eq!(st(&st(t).to_string()), st(t), "{t}");
    }
}

#[test]
fn stipulations_that_do_not() {
    // text, expected kind ('E' empty, 'L' no length, 'U' unsupported, 'M' malformed), substring
    let table: &[(&str, char, &str)] = &[
        ("", 'E', "empty"),
        ("   ", 'E', "empty"),
        ("h#", 'L', "stipulation 'h#' has no length"),
        ("#", 'L', "has no length"),
        ("ser-h=", 'L', "has no length"),
        ("reci-dia4", 'U', "reciprocal and semi-reflex proof games"),
        ("sdia4", 'M', "a proof game is help play"),
        ("ser-dia4.5", 'M', "n.5 exists only in help play"),
        ("dia0", 'M', "the number of moves is 0"),
        ("ser-reci-hx2", 'U', "reciprocal play with a goal of the move ('ser-reci-hx2')"),
        ("pser-hs#2", 'U', "parry series in help-self"),
        ("pser-semi-r#2", 'U', "parry series in help-self, help-reflex and semi-reflex"),
        ("ser-semi-r#2", 'U', "semi-reflex series"),
        ("semi-h#2", 'M', "semi- goes only with reflex play"),
        ("reci-s#2", 'M', "reci- goes only with help play"),
        ("reci-h(x)#2", 'M', "not a goal of reciprocal play"),
        ("pser-ser-#2", 'M', "exclude each other"),
        ("exact-exact-h#2", 'M', "written twice"),
        ("reci-hx2", 'U', "reciprocal play with a goal of the move ('reci-hx2')"),
        ("pser-~3", 'U', "parry series with a goal of the move"),
        ("hk3", 'M', "the kiss goal 'k' needs a square"),
        ("ser-hr#2", 'U', "help-reflex series"),
        ("2->h#3", 'U', "intro moves before anything but series play"),
        ("0->ser-#2", 'M', "intro moves"),
        ("hz3", 'M', "needs a square"),
        ("reci-h", 'M', "no goal"),
        ("#2.5", 'M', "only in help play"),
        ("ser-h#2.5", 'M', "only in help play"),
        ("h#2.3", 'M', "whole number or n.5"),
        ("#0", 'M', "the number of moves is 0"),
        ("#2x", 'M', "unexpected 'x' after the length"),
        ("2", 'M', "the goal is missing"),
        ("q#2", 'M', "unknown goal 'q'"),
        ("#99999999999", 'M', "too many"),
        ("h", 'M', "no goal"),
    ];
    for &(text, kind, sub) in table {
        let e = Stipulation::parse(text).expect_err(text);
        let k = match e {
            StipulationError::Empty => 'E',
            StipulationError::NoLength(_) => 'L',
            StipulationError::Unsupported(_) => 'U',
            StipulationError::Malformed { .. } => 'M',
        };
        assert_eq!(k, kind, "{text}: {e}");
        assert!(e.to_string().contains(sub), "{text}: '{e}' lacks '{sub}'");
    }
}

#[test]
fn who_moves_first() {
    use Color::*;
    // stipulation, WhiteToPlay, first mover
    let table: &[(&str, bool, Color)] = &[
        ("#2", false, White),
        ("s#2", false, White),
        ("r#2", false, White),
        ("hs#2", false, White),
        ("h#2", false, Black),
        ("h#2.5", false, White),
        ("h#2", true, White),
        ("ser-#3", false, White),
        ("ser-s#3", false, White),
        ("ser-h#3", false, Black),
        ("ser-h#3", true, Black),
        ("h=3", false, Black),
    ];
    for &(text, wtp, c) in table {
        assert_eq!(Stipulation::parse(text).unwrap().first_mover(wtp), c, "{text} {wtp}");
    }
}

fn items(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn each_option_and_condition() {
    let p = |v: &[&str]| parse_options(&items(v)).unwrap_or_else(|e| panic!("{v:?}: {}", e.message));
    assert!(p(&["SetPlay"]).options.set_play);
    assert!(p(&["Try"]).options.try_play);
    assert_eq!(p(&["Defence 3"]).options.defence, 3);
    assert_eq!(p(&["Defence", "2"]).options.defence, 2);
    assert_eq!(p(&[]).options.defence, 1);
    assert_eq!(p(&["Threat 2"]).options.threat, Some(2));
    assert!(p(&["NoThreat"]).options.no_threat);
    assert!(p(&["Variations"]).options.variations);
    assert!(p(&["Duplex"]).options.duplex);
    assert!(p(&["HalfDuplex"]).options.half_duplex);
    assert!(p(&["WhiteToPlay"]).options.white_to_play);
    assert_eq!(p(&["MaxSolutions 4"]).options.max_solutions, Some(4));
    assert!(p(&["Intelligent"]).options.intelligent);
    assert!(p(&["PostKeyPlay"]).options.post_key_play);
    assert!(p(&["setplay variations"]).options.variations, "case and several in one item");
    let ep = p(&["EnPassant g7g6g5"]).en_passant.unwrap();
    assert_eq!(feerie::position::sq_name(ep.crossed), "g6");
    let ep = p(&["EnPassant e2 e3 e4"]).en_passant.unwrap();
    assert_eq!(feerie::position::sq_name(ep.crossed), "e3");
    assert_eq!(p(&["NoCastling a1 h8"]).no_castling, feerie::position::castle::WQ | feerie::position::castle::BK);
    assert_eq!(p(&["NoCastling e1"]).no_castling, feerie::position::castle::WQ | feerie::position::castle::WK);
    let both = ReserveRule { white: true, black: true };
    let white = ReserveRule { white: true, black: false };
    let black = ReserveRule { white: false, black: true };
    for (v, r) in [
        (&["Reserve"][..], both),
        (&["WhiteReserve"][..], white),
        (&["BlackReserve"][..], black),
        (&["Échecs Réserve"][..], both),
        (&["Echecs Reserve"][..], both),
        (&["Réserve blanche"][..], white),
        (&["Réserve noire"][..], black),
    ] {
        assert_eq!(p(v).options.reserve, r, "{v:?}");
    }
    assert!(p(&["NoBoard", "MaxTime 30"]).options.ignored.len() == 2);
    let kingless = p(&["NoWk", "NoBk"]);
    assert!(kingless.options.no_wk && kingless.options.no_bk && kingless.unsupported.is_empty());
    assert!(p(&["Quodlibet"]).options.quodlibet && p(&["Quodlibet"]).unsupported.is_empty());
    // Known Popeye keywords we do not support: unsupported, with the reason.
    for (v, reason) in [
        (&["KeepMatingPiece"][..], "Popeye option 'KeepMatingPiece' is not supported yet"),
        (&["Volage"][..], "condition 'Volage' is not supported yet"),
        (&["Madrasi RI"][..], "Madrasi"),
        (&["Circe Couscous"][..], "Circe Couscous"),
        (&["Isardam TypeB"][..], "Isardam"),
    ] {
        let r = p(v);
        assert!(r.unsupported.iter().any(|u| u.contains(reason)), "{v:?}: {:?}", r.unsupported);
    }
    // Unknown words are errors naming them.
    for (v, m) in [
        (&["Foo"][..], "unknown option or condition 'Foo'"),
        (&["Defence"][..], "needs a number"),
        (&["Defence x"][..], "needs a number, found 'x'"),
        (&["EnPassant"][..], "needs the squares"),
        (&["EnPassant g7g5g3"][..], "not a pawn's double step"),
        (&["NoCastling"][..], "needs the squares"),
        (&["Reserve", "BlackReserve"][..], "two different Réserve conditions"),
    ] {
        let e = parse_options(&items(v)).expect_err(&format!("{v:?}"));
        assert!(e.message.contains(m), "{v:?}: {}", e.message);
    }
}

fn problem(doc: &str) -> Problem {
    match load_str(doc, "t.yaml").into_iter().next() {
        Some(Loaded::Ready(p)) => *p,
        other => panic!("{other:?}"),
    }
}

#[test]
fn options_change_the_diagram() {
    let p = problem(
        "stipulation: '#2'\nalgebraic: {white: [Ke1, Rh1, Ra1, Pf5], black: [Ke8, Pg5]}\noptions: [EnPassant g7g6g5, NoCastling a1]\n",
    );
    assert_eq!(p.position.to_fen(), "4k3/8/8/5Pp1/8/8/8/R3K2R w K g6 0 1");
    let p = problem("stipulation: 'h#2'\nalgebraic: {white: [Ke1, Rh1], black: [Ke8, Ra8]}\n");
    assert_eq!(p.position.to_fen(), "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1");
    let p = problem("stipulation: 'h#2'\nalgebraic: {white: [Ke1], black: [Ke8]}\noptions: [WhiteToPlay]\n");
    assert_eq!(p.position.side_to_move(), Color::White);
    let p = problem("stipulation: '#2'\nalgebraic: {white: [Ke1], black: [Ke8]}\noptions: [PostKeyPlay]\n");
    assert_eq!(p.position.side_to_move(), Color::Black);
    let p = problem("stipulation: 'h#2'\nalgebraic: {white: [Ke1], black: [Ke8]}\noptions: [BlackReserve]\nreserve: {black: [P, 2S]}\n");
    assert_eq!(p.position.to_fen(), "4k3/8/8/8/8/8/8/4K3[nnp] b - - 0 1");
    let p = problem("stipulation: 'h#2'\nfen: 4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1\noptions: [Réserve]\n");
    assert_eq!(p.position.to_fen(), "4k3/8/8/8/8/8/8/4K3[Qp] b - - 0 1");
    // intended-solutions, as a number, a string, or Popeye's form.
    for (v, n) in [("2", 2), ("'4'", 4), ("'2.1.1.1'", 2)] {
        let p = problem(&format!("stipulation: 'h#2'\nalgebraic: {{white: [Ke1], black: [Ke8]}}\nintended-solutions: {v}\n"));
        assert_eq!(p.intended_solutions, Some(n));
    }
}

const BASE: &str = "stipulation: 'h#2'\nalgebraic:\n  white: [Ke1, Rh1, Sb4, Pc2]\n  black: [Ke8, Ra8, Pd7]\n";

fn twin_fens(twins: &str) -> Vec<(String, String, String)> {
    let p = problem(&format!("{BASE}twins:\n{twins}"));
    p.variants().unwrap().into_iter().map(|v| (v.label, v.description, v.position.to_fen())).collect()
}

#[test]
fn each_twin_command() {
    // twins, label, description, FEN of the last variant
    let table: &[(&str, &str, &str, &str)] = &[
        ("  b: Move b4 f3", "b", "Move b4 f3", "r3k3/3p4/8/8/8/5N2/2P5/4K2R b Kq - 0 1"),
        ("  b: Move b4-->f3", "b", "Move b4 f3", "r3k3/3p4/8/8/8/5N2/2P5/4K2R b Kq - 0 1"),
        ("  b: Exchange b4 c2", "b", "Exchange b4 c2", "r3k3/3p4/8/8/1P6/8/2N5/4K2R b Kq - 0 1"),
        ("  b: Add black Pa7", "b", "Add black Pa7", "r3k3/p2p4/8/8/1N6/8/2P5/4K2R b Kq - 0 1"),
        ("  b: Add white Qd4 Bd5", "b", "Add white Qd4 Bd5", "r3k3/3p4/8/3B4/1N1Q4/8/2P5/4K2R b Kq - 0 1"),
        ("  b: Remove b4", "b", "Remove b4", "r3k3/3p4/8/8/8/8/2P5/4K2R b Kq - 0 1"),
        ("  b: Remove b4 c2", "b", "Remove b4 c2", "r3k3/3p4/8/8/8/8/8/4K2R b Kq - 0 1"),
        ("  b: Substitute R B", "b", "Substitute R B", "b3k3/3p4/8/8/1N6/8/2P5/4K2B b - - 0 1"),
        ("  b: Rotate 180", "b", "Rotate 180", "R2K4/5P2/8/6N1/8/8/4p3/3k3r b - - 0 1"),
        ("  b: Mirror a1<-->h1", "b", "Mirror a1<-->h1", "3k3r/4p3/8/8/6N1/8/5P2/R2K4 b - - 0 1"),
        ("  b: Stipulation h#3", "b", "Stipulation h#3", "r3k3/3p4/8/8/1N6/8/2P5/4K2R b Kq - 0 1"),
        ("  b: 'Stipulation #2'", "b", "Stipulation #2", "r3k3/3p4/8/8/1N6/8/2P5/4K2R w Kq - 0 1"),
        ("  b: SStipulation white 3a[#]d", "b", "SStipulation white 3a[#]d", "r3k3/3p4/8/8/1N6/8/2P5/4K2R w Kq - 0 1"),
        ("  b: Condition Reserve", "b", "Condition Reserve", "r3k3/3p4/8/8/1N6/8/2P5/4K2R[] b Kq - 0 1"),
        ("  b: PolishType", "b", "PolishType", "R3K3/3P4/8/8/1n6/8/2p5/4k2r b - - 0 1"),
        ("  b: Remove b4\n  c: Continued Remove c2", "c", "Continued Remove c2", "r3k3/3p4/8/8/8/8/8/4K2R b Kq - 0 1"),
        ("  b: Remove b4\n  c: Remove c2", "c", "Remove c2", "r3k3/3p4/8/8/1N6/8/8/4K2R b Kq - 0 1"),
        ("  b: Stipulation h#3 Move b4 f3", "b", "Stipulation h#3 Move b4 f3", "r3k3/3p4/8/8/8/5N2/2P5/4K2R b Kq - 0 1"),
    ];
    for &(twins, label, desc, fen) in table {
        let vs = twin_fens(twins);
        assert_eq!(vs[0].0, "a", "{twins}");
        assert_eq!(vs[0].1, "diagram");
        let last = vs.last().unwrap();
        assert_eq!((last.0.as_str(), last.1.as_str(), last.2.as_str()), (label, desc, fen), "{twins}");
    }
    // Twins as a list get labels b, c, …
    let vs = twin_fens("  - Remove b4\n  - Remove c2\n");
    assert_eq!(vs.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), vec!["a", "b", "c"]);
    // A twin `a` describes a zero position: the diagram itself is not solved.
    let vs = twin_fens("  a: Remove b4\n  b: Remove c2\n");
    assert_eq!(vs.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(vs[0].1, "Remove b4");
    // Shift moves every piece by a vector.
    let p = problem("stipulation: 'h#2'\nalgebraic: {white: [Kb2, Pc3], black: [Kd5]}\ntwins: {b: Shift b2 c3}\n");
    let v = p.variants().unwrap();
    assert_eq!((v[1].description.as_str(), v[1].position.to_fen()), ("Shift b2 c3", "8/8/4k3/8/3P4/2K5/8/8 b - - 0 1".to_string()));
    // Rotate 90 turns the board a quarter counter-clockwise: a1 goes to h1.
    let p = problem("stipulation: 'h#2'\nalgebraic: {white: [Ka1], black: [Kh8]}\ntwins: {b: Rotate 90}\n");
    assert_eq!(p.variants().unwrap()[1].position.to_fen(), "k7/8/8/8/8/8/8/7K b - - 0 1");
    // The stipulation twin changes the variant's stipulation, the condition twin its options.
    let p = problem(&format!("{BASE}twins: {{b: Stipulation s#2, c: Condition WhiteReserve}}\n"));
    let vs = p.variants().unwrap();
    assert_eq!(vs[1].stipulation.to_string(), "s#2");
    assert!(vs[2].options.reserve.white && !vs[2].options.reserve.black);
    // Unsupported twin commands make the problem unsupported.
    for t in ["Stipulation h<>2", "Condition Circe", "'SStipulation white 3a[#]d | 4hh[#]'"] {
        match load_str(&format!("{BASE}twins: {{b: {t}}}\n"), "t.yaml").remove(0) {
            Loaded::Unsupported { reason, .. } => assert!(reason.starts_with("twin b:"), "{reason}"),
            other => panic!("{t}: {other:?}"),
        }
    }
}
