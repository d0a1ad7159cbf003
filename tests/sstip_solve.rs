//! Structured stipulations in YAML (`sstipulation:`): a synonym loads as its ordinary
//! stipulation, the others are played by `feerie::solve::structured` and give the lines
//! Popeye recorded for them (`undeckbar.inp` UM/4, `sford.inp`), twins take one, faults name
//! the column, and what cannot be played is unsupported with the element named.

use feerie::problem::{Loaded, load_str};
use feerie::record::VerdictKind;
use feerie::solve::SolveOptions;
use feerie::verify::check_problem;

fn load(text: &str) -> Loaded {
    load_str(text, "t.yaml").into_iter().next().expect("one document")
}

fn lines(text: &str) -> (Vec<String>, Vec<String>, VerdictKind) {
    let Loaded::Ready(p) = load(text) else { panic!("not ready: {:?}", load(text)) };
    let records = check_problem(&p, &SolveOptions { threads: 1, ..SolveOptions::default() });
    let r = &records[0];
    let ph = &r.tree[0];
    let show = |ls: &Vec<Vec<feerie::solve::LineMove>>| -> Vec<String> {
        let mut v: Vec<String> = ls
            .iter()
            .map(|l| {
                l.iter()
                    .map(|m| format!("{}{}", m.mv, if m.mark.is_empty() { String::new() } else { format!(" {}", m.mark) }))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        v.sort();
        v
    };
    (show(&ph.lines), show(&ph.set_lines), r.verdict)
}

#[test]
fn a_synonym_is_its_ordinary_stipulation() {
    let Loaded::Ready(p) = load("---\nsstipulation: white 3a[#]d\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") else { panic!() };
    assert_eq!(p.stipulation.to_string(), "#2");
    let Loaded::Ready(p) = load("---\nsstipulation: black 3d[==]a\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") else { panic!() };
    assert_eq!(p.stipulation.to_string(), "s==2");
    assert!(p.options.post_key_play);
}

/// Popeye's output for Lehmensick, feenschach 191 2012, UM/4 (`undeckbar.inp` #4): after the
/// help play White threatens a mate Black cannot parry (`/2da[#]{!+}`), set play included.
#[test]
fn a_help_play_to_an_unparriable_mate_threat() {
    let (l, set, verdict) = lines(
        "---\nsstipulation: black 6hh[/2da[#]{!+}]\nalgebraic: {white: [Kc4, Pa5], black: [Kc6, Pb7]}\noptions: [SetPlay]\n\
         solution: 1.Kc6-c7 a5-a6 2.Kc7-b6 a6*b7 3.Kb6-a6 b7-b8=Q\n",
    );
    assert_eq!(l, ["Kc6-c7 a5-a6 Kc7-b6 a6*b7 Kb6-a6 b7-b8=Q"]);
    assert_eq!(set, ["a5-a6 Kc6-b6 a6*b7 Kb6-a6 b7-b8=Q"]);
    assert_eq!(verdict, VerdictKind::Sound);
}

/// The manual's example (`sford.inp` #20 and #23): without `>` the longer line is a solution
/// although the goal was within reach after two half-moves; with `>` play ends there.
#[test]
fn the_manuals_end_of_play_example() {
    let pos = "algebraic: {white: [Pf3, Pg3, Pg2, Ph4], black: [Pa6, Pf4, Ph5]}\noptions: [NoWk, NoBk]\n";
    let (l, _, _) = lines(&format!("---\nsstipulation: white 3h[1a[x]d]h\n{pos}"));
    assert!(l.contains(&"g3-g4 h5*g4 x".to_string()), "{l:?}");
    assert!(l.contains(&"g3-g4 h5*g4 h4-h5 g4*f3 x".to_string()), "{l:?}");
    let (short, _, _) = lines(&format!("---\nsstipulation: white 3h[>1a[x]d]h\n{pos}"));
    assert!(short.contains(&"g3-g4 h5*g4 x".to_string()), "{short:?}");
    assert!(!short.contains(&"g3-g4 h5*g4 h4-h5 g4*f3 x".to_string()), "{short:?}");
    assert!(short.len() < l.len());
}

#[test]
fn a_twin_takes_a_structured_stipulation() {
    let Loaded::Ready(p) =
        load("---\nsstipulation: white 1a[#]d\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\ntwins: {b: 'SStipulation white 3a[#]d'}\n")
    else {
        panic!()
    };
    let v = p.variants().expect("variants");
    assert_eq!(v[1].stipulation.to_string(), "#2");
}

#[test]
fn faults_and_what_is_not_played() {
    match load("---\nsstipulation: white 3a[#d\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") {
        Loaded::Invalid(e) => assert!(e.to_string().contains("column 11"), "{e}"),
        other => panic!("{other:?}"),
    }
    match load("---\nstipulation: '#2'\nsstipulation: white 3a[#]d\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") {
        Loaded::Invalid(e) => assert!(e.to_string().contains("keep one"), "{e}"),
        other => panic!("{other:?}"),
    }
    match load("---\nsstipulation: white 3d[#]a\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("3d[#]a") && reason.contains("defence branch"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match load("---\nsstipulation: white 3a[#]d | 4hh[#]\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("'|' and '!' at the root"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match load("---\nsstipulation: black 4hh[##]\nalgebraic: {white: [Kb6, Rh1], black: [Ka8]}\n") {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("'##'"), "{reason}"),
        other => panic!("{other:?}"),
    }
}
