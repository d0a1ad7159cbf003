//! Popeye's suite as a yardstick, on a small fixed set: orthodox and fairy problems, the
//! goals of the move (`goals.inp`, `goals-de.inp`: `~`, `x`, `ep`, `00`, `z`, `#=` in direct,
//! help, self, help-self and series play) and the stipulation forms (`stipforms.inp`: parry
//! series, reciprocal, exact, semi-reflex, null moves, with the output Popeye 4.104 wrote for
//! it; `stipgoals.inp`, the forms with goals of the move, with Popeye 4.104's output), Popeye's
//! options (`options-de.inp`, `options-en.inp`: Quodlibet, NonTrivial, …),
//! `sstip-de.inp` and `sstip-en.inp`, structured stipulations (`SStipulation`): synonyms of
//! ordinary stipulations and the forms `feerie::solve::structured` plays, `goals2.inp`,
//! `goals2-de.inp` (`##`, `##!`, `!#`, `c81` with `GoalIsEnd`, `hr#`, `N->ser-`),
//! `sstip-root-de.inp` and `sstip-root-en.inp` (battle play and `&` at the root of a
//! structured stipulation, a named defender's post-key move), `kingless-implied.inp` (a side
//! without a king and without `NoWk`/`NoBk`, which Popeye plays after a warning),
//! `series-stalemate.inp` (series help play past the other side's stalemate, the end of
//! `pseries.inp` #3, with the output Popeye 4.104 wrote for it),
//! `observation.inp` (Madrasi's observation under Grid and Monochrome, `Defence n` alone),
//! `fairy-effects.inp` (Haaner stalemate marks, Andernach threats, Parrain promotion on rebirth, a defence
//! that mates the attacker marked `+`), `goals-tracked.inp`, `goals-tracked-de.inp` (`<>`,
//! `<>r`, `ct`, `ctr`, `kxy`), `differs.inp`, `differs-de.inp` (fairy rules and notation
//! where feerie once differed: Andernach with Circe and AntiCirce, Annan's en passant and
//! observation, KoeKo with Circe, Patrol with Mars Circe, Haaner's en passant, Madrasi's en passant, Parrain's
//! neutral promotion, castling with a neutral rook, `PostKeyPlay` ignored in help play),
//! `take-make.inp` and `take-make-de.inp` (Make&Take's castling and en passant made by the
//! make, Circe Take&Make and AntiCirce Take&Make, a rook taken on its square by Take&Make and
//! reborn there castling), `maximummer-help.inp` (`intell.inp` #38, an `h#10` under both
//! Maximummers, which follows chess's mate pictures), from
//! Popeye's own examples and tests, copied with the output Popeye recorded for them into
//! `tests/data/popeye-suite/` (the `.inp` names its output on its `protocol` line). Each must
//! come out as Popeye printed it: feerie's `--format popeye` text and Popeye's recorded output
//! are read by the same parser and compared as trees and sets (`feerie::popeye_output`).

use feerie::popeye_output::{TwinVerdict, compare_problem, feerie_section, output_language, split_output};
use feerie::problem::{Loaded, load_path};
use feerie::solve::SolveOptions;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye-suite")
}

fn protocol_name(text: &str) -> String {
    text.lines()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            let k = w.next()?.to_ascii_lowercase();
            (k.len() >= 4 && ("protocol".starts_with(&k) || "protokoll".starts_with(&k))).then(|| w.next().map(str::to_string))?
        })
        .expect("a protocol line")
}

#[test]
fn orthodox_problems_come_out_as_popeye_recorded_them() {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(data())
        .expect("the data folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "inp"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty());
    let mut problems = 0;
    let mut failures = Vec::new();
    for path in inputs {
        let text = std::fs::read_to_string(&path).expect("the input");
        let output = std::fs::read_to_string(data().join(protocol_name(&text))).expect("the recorded output");
        let sections = split_output(&output);
        let loaded = load_path(&path).expect("loads");
        assert_eq!(sections.len(), loaded.len(), "{}: one output section per problem", path.display());
        for (i, (l, section)) in loaded.iter().zip(&sections).enumerate() {
            let Loaded::Ready(p) = l else { panic!("{} #{}: not ready: {l:?}", path.display(), i + 1) };
            let variants = p.variants().expect("variants");
            let opts = SolveOptions { timeout: Some(Duration::from_secs(20)), ..SolveOptions::default() };
            let records = feerie::verify::check_problem(p, &opts);
            // Feerie's side: the text of `--format popeye`, read back by the same parser.
            let ours = feerie_section(p, &variants, &records, output_language(&output));
            for (label, verdict) in compare_problem(&variants, &ours, section) {
                if verdict != TwinVerdict::Same {
                    failures.push(format!("{} #{} twin {label}: {verdict:?}", path.display(), i + 1));
                }
            }
            problems += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 68 problems of Popeye's suite (the goals and short solutions included), 35 of the
    // stipulation forms (`stipforms.inp`) and 6 of the forms with goals of the move
    // (`stipgoals.inp`: exact-hx2, exact-ser-x2, semi-rx2, exact-s+2, hx2 with NullMoves),
    // 19 of Popeye's options (`options-de.inp`, `options-en.inp`: Quodlibet,
    // CastlingMutuallyExclusive, MaxFlightsquares, NonTrivial, MatesIn1, TrivialTriesAvoid,
    // Threat in the search, PostKeyPlay refuted, the set play of self play), 6 with castling
    // by a rook or king reborn on its square (`castling-reborn.inp`), 46 structured
    // stipulations (`sstip-de.inp`: sford.inp and undeckbar.inp, `sstip-en.inp`: capzug.inp
    // and the regression tests, with Popeye's recorded outputs), and 39 with the goals ##,
    // ##!, !#, c81 (GoalIsEnd), help-reflex play, intro moves and reciprocal series
    // (`goals2.inp`, `goals2-de.inp`), 6 structured stipulations with battle play or `&` at
    // the root (`sstip-root-de.inp`, `sstip-root-en.inp`) and 7 positions where a side has no
    // king (`kingless-implied.inp`), 2 series past the other side's stalemate
    // (`series-stalemate.inp`), 10 fairy effects and marks (`observation.inp`,
    // `fairy-effects.inp`) and 12 with the goals that follow pieces (`<>`, `<>r`, `ct`, `ctr`,
    // `kxy`: `goals-tracked.inp` is Popeye's kiss.inp, `goals-tracked-de.inp` the anticir.inp,
    // circe.inp and duplex.inp problems with those goals), 16 where feerie's fairy rules
    // or notation once differed (`differs.inp`, `differs-de.inp`), and 13 of the Take&Make
    // family (`take-make.inp`, `take-make-de.inp`).
    assert!(problems >= 285, "only {problems} problems");
}

/// The section parser on an output with several problems, twins, duplex and counters.
#[test]
fn output_sections_and_twins() {
    let text = std::fs::read_to_string(data().join("twin-sections.out")).expect("the sample");
    let s = split_output(&text);
    assert_eq!(s.len(), 3);
    let labels: Vec<Vec<&str>> = s.iter().map(|s| s.twins.iter().map(|t| t.label.as_str()).collect()).collect();
    assert_eq!(labels, vec![vec!["a", "b"], vec!["a", "b"], vec!["a", "b", "c", "d"]]);
    // Duplex: both halves of a twin, the counters between them dropped.
    assert_eq!(
        s[0].twins[1].lines,
        vec!["  1.Ka6-a7 e7-e8=D   2.Ka7-a8 De8*f7 =".to_string(), "  1.Kc8-b8 Tf7*e7   2.Kb8-a8 Te7-b7 =".to_string()]
    );
    assert!(s[0].header.iter().any(|l| l.contains("M. Tomasevi")));
    assert!(s.iter().all(|s| !s.partial));
    // A battle twin reads into a tree: the key over its threat and defences.
    let tree = feerie::popeye_output::parse_tree(&s[2].twins[0].lines);
    assert_eq!(tree.len(), 1);
    assert_eq!(tree[0].text, "1.e7-e8=S ! Drohung:");
    assert_eq!(tree[0].children.len(), 1);
    assert_eq!(tree[0].children[0].text, "2.Se8*c7 #");
    assert_eq!(output_language(&text), feerie::piece::Lang::De);
}
