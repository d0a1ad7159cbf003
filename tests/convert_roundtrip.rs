//! `feerie convert` round trips over Popeye's whole suite (`tests/data/popeye-input/`, a copy
//! of Popeye's `BEISPIEL`, `EXAMPLES`, `REGRESSIONS` and `TESTS` inputs) and over the YAML
//! files of `problems/`: every problem feerie loads (ready or not supported yet) must load the
//! same after inp → yaml, inp → popeye and yaml → popeye → yaml.

use feerie::problem::convert::{Format, convert_str, same_loaded};
use feerie::problem::{Loaded, load_popeye_str, load_str, read_problem_file};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn files(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("a test folder").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| ext.contains(&e)) {
            out.push(p);
        }
    }
}

/// Loads one converted problem (a YAML document or a Popeye problem) as feerie would.
fn load_one(text: &str, to: Format, file: &str) -> Loaded {
    let mut docs = match to {
        Format::Yaml => load_str(&format!("---\n{text}\n"), file),
        Format::Popeye => load_popeye_str(&format!("BeginProblem\n{text}\nEndProblem\n"), file),
    };
    assert_eq!(docs.len(), 1, "{file}: one problem expected in\n{text}");
    docs.remove(0)
}

/// Why a problem was skipped, in a few words (for the counts).
fn reason(message: &str) -> String {
    let m = message.rsplit("feerie does not read it: ").next().unwrap_or(message);
    let short: String = m.chars().take_while(|&c| c != '\'' && c != '(').collect();
    short.trim().to_string()
}

#[test]
fn popeye_suite_round_trips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye-input");
    let mut inputs = Vec::new();
    files(&root, &["inp"], &mut inputs);
    assert!(inputs.len() >= 280, "the suite copy holds {} files", inputs.len());
    let (mut checked, mut ready, mut skipped, mut invalid) = (0usize, 0usize, 0usize, 0usize);
    let mut why: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures: Vec<String> = Vec::new();
    for f in &inputs {
        let (text, popeye) = read_problem_file(f).expect("a readable file");
        assert!(popeye);
        let name = f.display().to_string();
        let original = load_popeye_str(&text, &name);
        let yaml = convert_str(&text, &name, true, Format::Yaml);
        let inp = convert_str(&text, &name, true, Format::Popeye);
        assert_eq!(original.len(), yaml.len(), "{name}: one conversion per problem");
        for ((orig, y), p) in original.iter().zip(&yaml).zip(&inp) {
            let (y, p) = match (y, p) {
                (Ok(y), Ok(p)) => (y, p),
                (Err(e), _) | (_, Err(e)) => {
                    if orig.is_invalid() {
                        invalid += 1;
                        assert_eq!(
                            e.to_string(),
                            match orig {
                                Loaded::Invalid(o) => o.to_string(),
                                _ => unreachable!(),
                            }
                        );
                    } else {
                        skipped += 1;
                        *why.entry(reason(&e.message)).or_default() += 1;
                        assert!(!e.message.contains("without loss"), "{e}");
                    }
                    continue;
                }
            };
            checked += 1;
            ready += usize::from(matches!(orig, Loaded::Ready(_)));
            // inp → yaml → load, inp → popeye → load.
            for (text, to) in [(y, Format::Yaml), (p, Format::Popeye)] {
                if let Err(d) = same_loaded(orig, &load_one(text, to, &name)) {
                    failures.push(format!("{name} #{} ({to:?}): {d}", orig.document()));
                }
            }
            // yaml → popeye → yaml: the same problem again.
            let doc = format!("---\n{y}\n");
            let back = convert_str(&doc, &name, false, Format::Popeye);
            match back.first() {
                Some(Ok(p2)) => {
                    let again = convert_str(&format!("BeginProblem\n{p2}\nEndProblem\n"), &name, true, Format::Yaml);
                    match again.first() {
                        Some(Ok(y2)) => {
                            if let Err(d) = same_loaded(orig, &load_one(y2, Format::Yaml, &name)) {
                                failures.push(format!("{name} #{} (yaml → popeye → yaml): {d}", orig.document()));
                            }
                        }
                        other => failures.push(format!("{name} #{}: popeye → yaml: {other:?}", orig.document())),
                    }
                }
                other => failures.push(format!("{name} #{}: yaml → popeye: {other:?}", orig.document())),
            }
        }
    }
    println!(
        "Popeye suite: {} files; {checked} problems round-tripped ({ready} ready to solve, {} not supported yet but read), {skipped} skipped, {invalid} invalid",
        inputs.len(),
        checked - ready
    );
    for (w, n) in &why {
        println!("  skipped {n:4}: {w}");
    }
    assert!(failures.is_empty(), "{} problems differ after a round trip:\n{}", failures.len(), failures.join("\n"));
    // Measured on 2026-11-24: 2,057 problems round-trip, 723 of them ready to solve.
    assert!(checked >= 2057, "only {checked} problems checked");
    assert!(ready >= 723, "only {ready} ready problems checked");
}

#[test]
fn problems_folder_round_trips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut inputs = Vec::new();
    files(&root, &["yaml", "yml"], &mut inputs);
    let (mut checked, mut skipped) = (0usize, 0usize);
    let mut failures: Vec<String> = Vec::new();
    for f in &inputs {
        let (text, _) = read_problem_file(f).expect("a readable file");
        let name = f.display().to_string();
        let original = load_str(&text, &name);
        let inp = convert_str(&text, &name, false, Format::Popeye);
        assert_eq!(original.len(), inp.len());
        for (orig, p) in original.iter().zip(&inp) {
            assert!(!orig.is_invalid(), "{name}: an invalid problem in problems/");
            let p = match p {
                Ok(p) => p,
                Err(e) => {
                    // Only Xiangqi, Cheskers and reserve twins have no Popeye form.
                    assert!(e.message.contains("has no Popeye input form"), "{e}");
                    skipped += 1;
                    continue;
                }
            };
            checked += 1;
            if let Err(d) = same_loaded(orig, &load_one(p, Format::Popeye, &name)) {
                failures.push(format!("{name} #{} (popeye): {d}", orig.document()));
            }
            match convert_str(&format!("BeginProblem\n{p}\nEndProblem\n"), &name, true, Format::Yaml).first() {
                Some(Ok(y)) => {
                    if let Err(d) = same_loaded(orig, &load_one(y, Format::Yaml, &name)) {
                        failures.push(format!("{name} #{} (popeye → yaml): {d}", orig.document()));
                    }
                }
                other => failures.push(format!("{name} #{}: popeye → yaml: {other:?}", orig.document())),
            }
        }
    }
    println!("problems/: {} files; {checked} problems round-tripped, {skipped} have no Popeye form", inputs.len());
    assert!(failures.is_empty(), "{} problems differ:\n{}", failures.len(), failures.join("\n"));
    assert!(checked >= 60, "only {checked} problems checked");
}

/// Every element the converter carries, in one hand-written file: each problem goes to Popeye
/// input and back and loads the same, and the Popeye input says it with Popeye's commands.
#[test]
fn every_element_round_trips() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cli/convert/every-element.yaml");
    let (text, _) = read_problem_file(&path).expect("a readable file");
    let original = load_str(&text, "e.yaml");
    let kinds: Vec<bool> = original.iter().map(|l| matches!(l, Loaded::Ready(_))).collect();
    assert_eq!(kinds, [true, true, true, false, false], "{original:?}");
    let inp: Vec<String> = convert_str(&text, "e.yaml", false, Format::Popeye).into_iter().map(|r| r.expect("converted")).collect();
    let joined = Format::Popeye.join(&inp).expect("problems");
    for line in [
        "Author Loyd, Samuel\nAuthor Shinkman, William A.\nOrigin Le Sphinx, issue 50, 1866-03\nAward 2nd Prize, Memorial\nTitle twins of every kind\nRemark written by hand\nStipulation #2\n",
        "Option Variation Try Defence 2 Threat 1 SetPlay NoThreat MaxSolutions 3 EnPassant c7c6c5 NoCastling a1\n",
        "Twin Move h1 h2\nTwin Continued Exchange a7 b5\nTwin Remove b5\nTwin Substitute Q R\nTwin Add white Sd4 Add black Pg7\nTwin Rotate 180\nTwin Shift a1 a2\nTwin Mirror a1<-->h1\nTwin Stipulation s#2\n",
        "Remark yaml: intended-solutions: 2\nRemark yaml: keywords: [Castling, Twins]\nRemark yaml: solution: |\nRemark yaml:   1.Rh1-h2 ! threat:\n",
        "Option Intelligent Duplex\nCondition Circe RexInclusive Hole c3f6\nPieces\n  White Kh1 Ga2 Nb3\n  Black Ka8 Pb7\n  Neutral Pd4\nTwin Condition AntiCirce Cheylan\nTwin Stipulation hs#2\n",
        "Option WhiteToPlay HalfDuplex\nCondition Madrasi\n",
        "ZeroPosition Move b3 b4\nTwin PolishType\n",
        "Option NoWk\nCondition Reserve\n",
        "  White Kh1 Qb3 White royal Sb4\n",
    ] {
        assert!(joined.contains(line), "{line:?} not in\n{joined}");
    }
    let back = load_popeye_str(&joined, "e.inp");
    let yaml: Vec<String> = convert_str(&joined, "e.inp", true, Format::Yaml).into_iter().map(|r| r.expect("converted back")).collect();
    let again = load_str(&Format::Yaml.join(&yaml).expect("problems"), "e2.yaml");
    for ((o, b), a) in original.iter().zip(&back).zip(&again) {
        assert_eq!(same_loaded(o, b), Ok(()), "yaml → popeye, problem {}", o.document());
        assert_eq!(same_loaded(o, a), Ok(()), "yaml → popeye → yaml, problem {}", o.document());
    }
    let Loaded::Ready(p) = &again[0] else { panic!("{:?}", again[0]) };
    assert_eq!((p.twins.len(), p.intended_solutions, p.meta.keywords.len()), (9, Some(2), 2));
    assert_eq!(p.variants().map(|v| v.len()), Ok(10));
}

mod garbage {
    //! Cut and spliced Popeye inputs and YAML streams: `convert` never panics, and what it
    //! writes loads as the source problem.
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::Config;

    const SEEDS: &[&str] = &[
        "tests/data/popeye-input/BEISPIEL/castling.inp",
        "tests/data/popeye-input/EXAMPLES/annan.inp",
        "tests/data/cli/convert/mixed.inp",
        "problems/direct.yaml",
        "problems/reserve/help.yaml",
        "problems/fairy/circe.yaml",
    ];
    const WORDS: &[&str] = &[
        "Remark yaml:",
        "Twin",
        "Continued",
        "Condition",
        "Option",
        "Pieces",
        "Neutral",
        "royal",
        "Stipulation",
        "'",
        ":",
        "-",
        "[",
        "#2",
        "yaml:",
        "  ",
        "\n",
    ];

    fn text(seed: usize) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SEEDS[seed % SEEDS.len()]);
        read_problem_file(&path).expect("a seed file").0
    }

    fn check(t: &str, popeye: bool) {
        for to in [Format::Yaml, Format::Popeye] {
            for out in convert_str(t, "g", popeye, to).into_iter().flatten() {
                // Converted output loads (the converter proved it loads as the source).
                let docs = match to {
                    Format::Yaml => load_str(&format!("---\n{out}\n"), "g"),
                    Format::Popeye => load_popeye_str(&format!("BeginProblem\n{out}\nEndProblem\n"), "g"),
                };
                assert_eq!(docs.len(), 1, "{t:?} → {to:?}:\n{out}");
                assert!(!docs[0].is_invalid(), "{t:?} → {to:?}:\n{out}\n{:?}", docs[0]);
            }
        }
    }

    proptest! {
        #![proptest_config(Config { cases: 200, failure_persistence: None, ..Config::default() })]

        #[test]
        fn spliced_inputs_never_panic(seed in 0usize..6, cut in 0usize..4000, len in 0usize..200, word in 0usize..17, at in 0usize..4000) {
            let mut t = text(seed);
            let popeye = SEEDS[seed % SEEDS.len()].ends_with(".inp");
            let mut c = cut.min(t.len());
            while !t.is_char_boundary(c) { c -= 1; }
            let mut e = (c + len).min(t.len());
            while !t.is_char_boundary(e) { e -= 1; }
            t.replace_range(c..e, "");
            let mut a = at.min(t.len());
            while !t.is_char_boundary(a) { a -= 1; }
            t.insert_str(a, WORDS[word % WORDS.len()]);
            check(&t, popeye);
        }

        #[test]
        fn random_text_never_panics(t in "\\PC{0,120}") {
            check(&t, true);
            check(&t, false);
        }
    }
}
