//! Popeye's options that change what battle play finds or shows, each on a concrete position
//! with the result Popeye gives: `Quodlibet`, `CastlingMutuallyExclusive`, `MaxFlightsquares`
//! and `Threat` in the search, `NonTrivial`, `MatesIn1`, `TrivialTriesAvoid`, a `PostKeyPlay`
//! diagram that a defence refutes, and the set play of self play. The positions are from
//! Popeye's suite (`BEISPIEL/quod.inp`, `castling.inp`, `ep.inp`, `nontriv.inp`,
//! `selfref.inp`, `TESTS/battle_play.inp`), whose recorded outputs give the numbers, or small
//! ones solved by Popeye 4.104 for this test (said where). The options are read from YAML and
//! from Popeye input alike, and survive `feerie convert` both ways.

use feerie::problem::convert::{Format, convert_str};
use feerie::problem::{Loaded, Problem, load_popeye_str, load_str};
use feerie::record::Record;
use feerie::solve::{Node, SolveOptions};
use feerie::verify::check_problem;

fn ready(mut l: Vec<Loaded>) -> Problem {
    assert_eq!(l.len(), 1);
    match l.remove(0) {
        Loaded::Ready(p) => *p,
        other => panic!("not ready: {other:?}"),
    }
}

/// One problem in Popeye's input language (English keywords).
fn popeye(body: &str) -> Problem {
    ready(load_popeye_str(&format!("BeginProblem\n{body}\nEndProblem\n"), "t.inp"))
}

/// One YAML problem.
fn yaml(doc: &str) -> Problem {
    ready(load_str(doc, "t.yaml"))
}

fn solve(p: &Problem) -> Record {
    let opts = SolveOptions { threads: 1, ..SolveOptions::default() };
    let mut r = check_problem(p, &opts);
    assert_eq!(r.len(), 1);
    r.remove(0)
}

fn keys(r: &Record) -> Vec<String> {
    r.tree[0].keys.iter().map(|k| format!("{}{}", k.mv, if k.mark.is_empty() { String::new() } else { format!(" {}", k.mark) })).collect()
}

fn tries(r: &Record) -> Vec<String> {
    r.tree[0].tries.iter().map(|k| k.mv.clone()).collect()
}

fn moves(nodes: &[Node]) -> Vec<String> {
    nodes.iter().map(|n| format!("{}{}", n.mv, if n.mark.is_empty() { String::new() } else { format!(" {}", n.mark) })).collect()
}

/// The variation under `defence` after the first key: its continuations.
fn continuations(r: &Record, defence: &str) -> Vec<String> {
    let key = &r.tree[0].keys[0];
    let d = key.replies.iter().find(|d| d.mv == defence).unwrap_or_else(|| panic!("no defence {defence}: {:?}", moves(&key.replies)));
    moves(&d.replies)
}

/// `BEISPIEL/quod.inp` #3 (H. P. Rehm, Schwalbe 1968), s#2 Quodlibet: White mates itself
/// after two defences, and the key is Popeye's.
#[test]
fn quodlibet_lets_the_attacker_mate_in_self_play() {
    let text = "Stipulation s#2\nOption Variation Quodlibet\nPieces White Ka1 Qh5 Bb1 Pa2 Black Kd4 Bh8 Ph6 Pe6 Pd5 Pc5 Pc4";
    let r = solve(&popeye(text));
    assert_eq!(keys(&r), ["Qh5*h6"]);
    assert_eq!(continuations(&r, "c4-c3"), ["Qh6-f4 #"]);
    assert_eq!(continuations(&r, "e6-e5"), ["Qh6-d2 #"]);
    // Without the option those two defences are no longer met.
    let plain = solve(&popeye(&text.replace(" Quodlibet", "")));
    assert!(!keys(&plain).contains(&"Qh5*h6".to_string()), "{:?}", keys(&plain));
    // The same from YAML.
    let y = yaml(
        "---\nstipulation: 's#2'\noptions: [Variation, Quodlibet]\nalgebraic:\n  white: [Ka1, Qh5, Bb1, Pa2]\n  black: [Kd4, Bh8, Ph6, Pe6, Pd5, Pc5, Pc4]\n",
    );
    assert!(y.options.quodlibet);
    assert_eq!(keys(&solve(&y)), ["Qh5*h6"]);
}

/// `BEISPIEL/castling.inp` #43 (Christian Remling, Die Schwalbe 1983), #2 with the castlings
/// a1 and h8 mutually exclusive: 1.0-0-0! (after which Black may not castle); 1.Ra1-d1?
/// 0-0!. Without the option Popeye 4.104 gives 1.0-0-0? 0-0! and no key.
#[test]
fn castling_mutually_exclusive_takes_the_other_right() {
    let body = "Stipulation #2\nOption Try CastlingMutuallyExclusive a1h8\nPieces White Ke1 Ra1 Be6 Sf7 Pb2 Pb4 Pb6 Pc2 Pc3 Pg2 Ph6 Black Ke8 Rh8 Ba5 Sa8 Pb7 Pc7 Pe7 Pf6 Pg6 Ph7";
    let p = popeye(body);
    assert_ne!(p.options.castling_exclusive, 0);
    let r = solve(&p);
    assert_eq!(keys(&r), ["0-0-0"]);
    assert_eq!(tries(&r), ["Ra1-d1"]);
    assert_eq!(moves(&r.tree[0].tries[0].refutations), ["0-0"]);
    let plain = solve(&popeye(&body.replace(" CastlingMutuallyExclusive a1h8", "")));
    assert!(keys(&plain).is_empty());
    let mut t = tries(&plain);
    t.sort();
    assert_eq!(t, ["0-0-0", "Ra1-d1"]);
    // A square that holds no rook corner, or two white squares, is an error.
    for bad in ["a1h1", "a1", "e1h8"] {
        let l = load_popeye_str(&format!("BeginProblem\n{}\nEndProblem\n", body.replace("a1h8", bad)), "t.inp");
        assert!(l[0].is_invalid(), "{bad}: {:?}", l[0]);
    }
}

/// `BEISPIEL/ep.inp` #2 (Bo Lindgren), #10 with `Threat 1` and `MaxFlightsquares 1`: every
/// quiet White move must threaten mate in one and leave the Black king no flight; the key is
/// Popeye's 1.Qe7-f7+.
#[test]
fn max_flightsquares_and_threat_in_a_tenmover() {
    let p = popeye(
        "Stipulation #10\nOption Threat 1 MaxFlightsquares 1\nPieces White Ka4 Qe7 Rc4 Pb3 Pc6 Pd2 Pe2 Pf2 Pg2 Ph2 Black Kd5 Qh1 Ra8 Bb8 Se1 Sf1 Pa6 Pd6 Pe4 Pf4 Pf5 Pg4 Ph4",
    );
    assert_eq!((p.options.threat, p.options.max_flights), (Some(1), Some(1)));
    assert_eq!(keys(&solve(&p)), ["Qe7-f7 +"]);
}

/// Popeye's `Threat 1` in the search: a key in zugzwang threatens nothing and fails, as
/// Popeye 4.104 prints for this #2 (1.b2-b3! and 1.b2-b4! without the option).
#[test]
fn threat_refutes_a_waiting_key() {
    let body = "Stipulation #2\nOption Threat 1\nPieces White Kb6 Sd5 Pa7 Pb2 Black Ka8 Se8";
    assert_eq!(keys(&solve(&popeye(body))), ["Kb6-a6"]);
    let mut all = keys(&solve(&popeye(&body.replace("Option Threat 1\n", ""))));
    all.sort();
    assert_eq!(all, ["Kb6-a6", "b2-b3", "b2-b4"]);
}

/// `BEISPIEL/nontriv.inp` #7 (Mihai Olariu, Thema Danicum 1998), #15 with `NonTrivial 5 0`:
/// 1.a3-a4!, found in a fraction of a second.
#[test]
fn non_trivial_prunes_a_fifteen_mover() {
    let p = popeye(
        "Stipulation #15\nOption NonTrivial 5 0 NoThreat\nPieces White Pb2 Sc2 Ke2 Pg2 Pa3 Pc4 Se4 Pe6 Pd7 Bd8 Black Pf4 Pa5 Pc5 Pe5 Pf5 Ra6 Kb6 Pc6 Pf6 Qa7 Rb7 Sc7 Pe7 Sa8 Bb8",
    );
    assert_eq!(p.options.non_trivial, Some((5, 0)));
    assert_eq!(keys(&solve(&p)), ["a3-a4"]);
    // `REGRESSIONS/4_99_to_4_101.inp` #2: no solution, no crash.
    assert!(keys(&solve(&popeye("Stipulation s#4\nOption NonTrivial 0 2\nPieces Black Kh8 White Ka1"))).is_empty());
}

/// `BEISPIEL/selfref.inp` #6 (Georg Thomas, Springaren), s#2 `MatesIn1`: the defence that
/// mates at once is shown after the key and in the set play; without the option it is not.
#[test]
fn mates_in_1_shows_the_defences_that_mate_at_once() {
    let body = "Stipulation s#2\nOption SetPlay Variation MatesIn1\nPieces White Kd1 Qg4 Re8 Bb1 Se7 Sf8 Pb6 Pd4 Pg2 Black Kd6 Bc1 Bf5 Sh1 Pb2 Pd2 Pd3 Pg3";
    let r = solve(&popeye(body));
    assert_eq!(keys(&r), ["Qg4-h4"]);
    assert!(moves(&r.tree[0].keys[0].replies).contains(&"Sh1-f2 #".to_string()));
    let set = moves(&r.tree[0].set_play);
    assert!(set.contains(&"Sh1-f2 #".to_string()) && set.contains(&"Bf5*g4 #".to_string()), "{set:?}");
    let plain = solve(&popeye(&body.replace(" MatesIn1", "")));
    assert!(!moves(&plain.tree[0].keys[0].replies).contains(&"Sh1-f2 #".to_string()));
    assert!(!moves(&plain.tree[0].set_play).iter().any(|m| m.ends_with('#')));
}

/// Set play of self play: a set move that mates at once is shown where every set move does
/// (`TESTS/battle_play.inp` #27), not where others do (`BEISPIEL/selfref.inp` #2).
#[test]
fn self_play_set_moves_that_mate_at_once() {
    let r = solve(&popeye("Stipulation s#2\nOption SetPlay Variation NoThreat\nPieces White Ka1 Rc4 Pg4 Black Ka3 Pa2 Pb3 Pc5 Pg5"));
    assert_eq!(moves(&r.tree[0].set_play), ["b3-b2 #"]);
    let r = solve(&popeye(
        "Stipulation s#3\nOption SetPlay Variation\nPieces White Ra7 Rd5 Pf7 Ph7 Pa5 Pb5 Pf4 Pg3 Sg5 Sf1 Ka4 Bh4 Bh1 Qb3 \
         Black Pg7 Pg6 Pb4 Pd2 Kf6 Ba3 Bd1 Ra2 Rb2 Sa1 Sb1",
    ));
    // Popeye's eight set moves, none of Black's mates at once (1...Sb1-c3#, 1...Bd1*b3#).
    let set = moves(&r.tree[0].set_play);
    assert_eq!(set.len(), 8, "{set:?}");
    assert!(!set.iter().any(|m| m.ends_with('#')), "{set:?}");
}

/// `TrivialTriesAvoid`: the tries that give check are left out, as Popeye 4.104 prints for
/// this #2 (with `Try` alone it adds 1.Ra1-a8+? Kh7! and 1.Ra1-h1+? Kg8!).
#[test]
fn trivial_tries_avoid_drops_checking_tries() {
    let body = "Stipulation #2\nOption Try TrivialTriesAvoid\nPieces White Kf6 Ra1 Black Kh8";
    let r = solve(&popeye(body));
    let mut t = tries(&r);
    t.sort();
    assert_eq!(t, ["Ra1-a7", "Ra1-g1"]);
    let mut k = keys(&r);
    k.sort();
    assert_eq!(k, ["Kf6-f7", "Kf6-g6"]);
    let mut t = tries(&solve(&popeye(&body.replace(" TrivialTriesAvoid", ""))));
    t.sort();
    assert_eq!(t, ["Ra1-a7", "Ra1-a8", "Ra1-g1", "Ra1-h1"]);
}

/// `TESTS/battle_play.inp` #5: a `PostKeyPlay` diagram that 1...h5-h4 refutes: no solution,
/// the play shown all the same, and Popeye's `refutes.` under the refutation.
#[test]
fn post_key_play_refuted() {
    let p = popeye("Stipulation #2\nOption PostKeyPlay\nPieces White Kb6 Sd5 Pa7 Black Ka8 Se8 Ph5");
    let r = solve(&p);
    assert!(keys(&r).is_empty());
    let t = r.tree[0].tries[0].clone();
    assert!(t.zugzwang);
    assert_eq!(moves(&t.refutations), ["h5-h4"]);
    assert_eq!(moves(&t.replies).len(), 4);
    let variants = p.variants().expect("variants");
    let text = feerie::report::popeye::problem_text(&p, &variants, &[r], feerie::piece::Lang::En);
    assert!(text.contains("      1...h5-h4\n        refutes.\n"), "{text}");
}

/// The options survive `feerie convert` both ways: Popeye input → YAML → Popeye input.
#[test]
fn options_convert_both_ways() {
    let inp = "BeginProblem\nStipulation s#2\nOption Variation Quodlibet MatesIn1 TrivialTriesAvoid NonTrivial 1 0 MaxFlightsquares 2 CastlingMutuallyExclusive a1h8 CastlingMutuallyExclusive h1a8\nPieces White Ke1 Ra1 Rh1 Black Ke8 Ra8 Rh8\nEndProblem\n";
    let original = ready(load_popeye_str(inp, "t.inp"));
    let y = convert_str(inp, "t.inp", true, Format::Yaml).remove(0).expect("converts to YAML");
    for w in ["Quodlibet", "MatesIn1", "TrivialTriesAvoid", "NonTrivial 1 0", "MaxFlightsquares 2", "CastlingMutuallyExclusive a1h8"] {
        assert!(y.contains(w), "{w} in\n{y}");
    }
    let from_yaml = yaml(&format!("---\n{y}\n"));
    assert_eq!(from_yaml.options, original.options);
    let back = convert_str(&format!("---\n{y}\n"), "t.yaml", false, Format::Popeye).remove(0).expect("converts back");
    let again = ready(load_popeye_str(&format!("BeginProblem\n{back}\nEndProblem\n"), "t.inp"));
    assert_eq!(again.options, original.options);
    assert_eq!(
        original.options.keywords().iter().filter(|k| k.starts_with("CastlingMutuallyExclusive")).count(),
        2,
        "{:?}",
        original.options.keywords()
    );
}
