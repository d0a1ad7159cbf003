//! Popeye input files (`.inp`): reading, keywords in three languages, located faults, and a
//! count over Popeye's own input suite (its copy in `tests/data/popeye-input/`).

use feerie::problem::{Loaded, load_path};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn inp_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            inp_files(&p, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("inp")) {
            out.push(p);
        }
    }
}

/// Reads (without solving) every `.inp` file of Popeye's suite (the copy in
/// `tests/data/popeye-input/`, the whole of `../shared/corpus/popeye/input`): none panics, and
/// the counts of ready, unsupported and invalid problems are printed with the commonest faults.
#[test]
fn popeye_suite_reads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye-input");
    let mut files = Vec::new();
    inp_files(&dir, &mut files);
    assert_eq!(files.len(), 283, ".inp files under {}", dir.display());
    let (mut ready, mut unsupported, mut invalid) = (0, 0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut unsup: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let docs = load_path(f).unwrap_or_else(|e| panic!("{e}"));
        for d in docs {
            match d {
                Loaded::Ready(_) => ready += 1,
                Loaded::Unsupported { reason, .. } => {
                    unsupported += 1;
                    let key: String = reason.split(';').next().unwrap_or("").chars().take(60).collect();
                    *unsup.entry(key).or_default() += 1;
                }
                Loaded::Invalid(e) => {
                    invalid += 1;
                    if std::env::var_os("FEERIE_SHOW_INVALID").is_some() {
                        println!("{e}");
                    }
                    let key: String = e.message.split('\'').next().unwrap_or("").chars().take(70).collect();
                    *reasons.entry(key).or_default() += 1;
                }
            }
        }
    }
    println!("Popeye suite: {} files, {ready} ready, {unsupported} unsupported, {invalid} invalid", files.len());
    let mut top: Vec<_> = reasons.into_iter().collect();
    top.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (m, n) in top.iter().take(15) {
        println!("  invalid {n:4}: {m}");
    }
    let mut top: Vec<_> = unsup.into_iter().collect();
    top.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (m, n) in top.iter().take(10) {
        println!("  unsupported {n:4}: {m}");
    }
    // At the time of writing 2,572 problems: 1,010 ready, 1,562 unsupported (fairy rules and
    // stipulations not played yet), the rest invalid; support only grows.
    assert!(ready >= 1000, "only {ready} problems ready");
    assert!(ready + unsupported + invalid >= 2500, "only {} problems read", ready + unsupported + invalid);
}

use feerie::problem::Problem;
use feerie::solve::{SolveOptions, solve};
use std::collections::BTreeSet;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye").join(name)
}

fn load(name: &str) -> Vec<Loaded> {
    load_path(&data(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn ready(l: &Loaded) -> &Problem {
    match l {
        Loaded::Ready(p) => p,
        other => panic!("not ready: {other:?}"),
    }
}

/// Keys (battle play) and lines (help play) that feerie finds.
fn solution(p: &Problem) -> (BTreeSet<String>, BTreeSet<Vec<String>>) {
    let pos = p.position.as_chess().expect("chess");
    let s = p.stipulation.with_white_to_play(p.options.white_to_play);
    let solved = solve(pos, &s, &SolveOptions { tree: false, ..SolveOptions::default() });
    assert!(solved.complete);
    let ph = &solved.phases[0];
    (ph.keys.iter().map(|k| k.mv.clone()).collect(), ph.lines.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect()).collect())
}

fn set<const N: usize>(v: [&str; N]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Two problems of Popeye's BEISPIEL/castling.inp (German keywords and piece codes), solved to
/// what Popeye recorded in output/castling.out: `1.Da7-f2 !` (#2) and
/// `1.Kc8-b8 0-0 2.g3-g2 Tf1-f8 #` (h#2).
#[test]
fn german_example_solves_to_popeyes_record() {
    let docs = load("castling_de.inp");
    assert_eq!(docs.len(), 2);
    let p = ready(&docs[0]);
    assert_eq!(p.meta.authors, vec!["G. Sch\"opfer".to_string()]);
    assert!(p.options.variations);
    assert_eq!(solution(p).0, set(["Qa7-f2"]));
    let p = ready(&docs[1]);
    assert_eq!(p.stipulation.to_string(), "h#2");
    let lines = solution(p).1;
    let want: BTreeSet<Vec<String>> = [vec!["Kc8-b8", "0-0", "g3-g2", "Rf1-f8"].into_iter().map(String::from).collect()].into();
    assert_eq!(lines, want);
}

/// The same problem in English, abbreviated English, French and German keywords loads to the
/// same position, stipulation and options.
#[test]
fn three_languages_and_prefixes_agree() {
    let de = load("castling_de.inp");
    let de = ready(&de[0]);
    for f in ["schoepfer_en.inp", "schoepfer_abbrev.inp", "schoepfer_fr.inp"] {
        let docs = load(f);
        assert_eq!(docs.len(), 1, "{f}");
        let p = ready(&docs[0]);
        assert_eq!(p.position.to_fen(), de.position.to_fen(), "{f}");
        assert_eq!(p.stipulation, de.stipulation, "{f}");
        assert_eq!(p.options, de.options, "{f}");
        assert_eq!(solution(p).0, set(["Qa7-f2"]), "{f}");
    }
}

/// Faults name the file, the problem's number, the line and the column; the good problems
/// around a broken one still load.
#[test]
fn located_errors_and_the_others_go_on() {
    let docs = load("broken.inp");
    assert_eq!(docs.len(), 5);
    ready(&docs[0]);
    let err = |i: usize| match &docs[i] {
        Loaded::Invalid(e) => e.clone(),
        other => panic!("problem {}: {other:?}", i + 1),
    };
    let e = err(1);
    assert_eq!((e.document, e.line, e.column), (2, 6, 36), "{e}");
    assert!(e.file.ends_with("broken.inp") && e.message.contains("z9"), "{e}");
    let e = err(2);
    assert_eq!((e.document, e.line, e.column), (3, 9, 1), "{e}");
    assert!(e.message.contains("unknown keyword 'foo'"), "{e}");
    let e = err(3);
    assert_eq!((e.document, e.line), (4, 13), "{e}");
    assert!(e.message.contains("check"), "{e}");
    assert!(e.to_string().contains("broken.inp: document 4"), "{e}");
    assert_eq!(ready(&docs[4]).stipulation.to_string(), "h#2");
}

/// A fairy condition or piece makes the problem unsupported, named, not invalid.
#[test]
fn fairy_problems_are_unsupported() {
    let docs = load("fairy.inp");
    for (d, name) in docs.iter().zip(["Volage", "GN"]) {
        match d {
            Loaded::Unsupported { reason, .. } => assert!(reason.contains(name), "{reason}"),
            other => panic!("{other:?}"),
        }
    }
}

/// `.inp` by content: a file without the extension whose first word opens a problem.
#[test]
fn popeye_text_in_a_str() {
    let docs = feerie::problem::load_popeye_str("Anfang\nford #2\nstei weis ke1 da7 th1 schw kc1\nende\n", "x");
    assert_eq!(ready(&docs[0]).position.to_fen(), ready(&load("schoepfer_en.inp")[0]).position.to_fen());
}

/// A piece the reader cannot give the loader (the German code `bi`) is left out of the diagram,
/// and without it the diagram is illegal (Popeye's `leaper.inp`: the queen c8 would check the
/// king c4 along the opened c-file): the problem is `unsupported` by that name, not `invalid`,
/// and keeps its authors.
#[test]
fn a_left_out_piece_makes_it_unsupported_not_invalid() {
    let text = "anfang\nautor Pierre Monreal\nforderung #2\n\
                steine weiss ka8 dc8 tb7d2 lf1 sb3 ba5b2 bid6h2\n schwarz kc4 tf8h4 le8g3 ba6b4c5d5f3 bic6e2\nende\n";
    match &feerie::problem::load_popeye_str(text, "leaper.inp")[0] {
        Loaded::Unsupported { reason, meta, .. } => {
            assert!(reason.contains("'BI'"), "{reason}");
            assert_eq!(meta.authors, ["Pierre Monreal"]);
        }
        other => panic!("{other:?}"),
    }
}

/// Popeye elements that make a diagram unreadable for feerie's chess reader are named, not
/// refused: a hunter piece (`s/lb8`); Popeye's `a=>b` lists the start position before the
/// stipulation and the position to reach after it.
#[test]
fn hunters_are_unsupported_and_a_to_b_reads_two_positions() {
    let hunter = "beginproblem\nstipulation #3\npieces white ke1 s/lb8 black ke8\nendproblem\n";
    match &feerie::problem::load_popeye_str(hunter, "h.inp")[0] {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("hunter piece 's/lb8'"), "{reason}"),
        other => panic!("{other:?}"),
    }
    let atob = "beginproblem\npieces white ke1 rc3 black ke8\nstipulation a=>b6\npieces white ke1 rc4 black ke8 bc3\nendproblem\n";
    match &feerie::problem::load_popeye_str(atob, "a.inp")[0] {
        Loaded::Ready(p) => {
            let start = p.proof_start.as_ref().expect("the start");
            assert_eq!(start.to_fen().split(' ').next(), Some("4k3/8/8/8/8/2R5/8/4K3"));
            // Black begins a=>b.
            assert_eq!(start.side_to_move(), feerie::piece::Color::Black);
            assert_eq!(p.position.diagram().pieces.len(), 4);
        }
        other => panic!("{other:?}"),
    }
}

/// Popeye's short condition names that are prefixes of several names of one condition, or of a
/// condition and a Circe option (`take`: Take&MakeChess and Circe's Take&Make), read as the
/// condition, as Popeye reads them.
#[test]
fn short_condition_names_read_as_popeye_reads_them() {
    for (word, name) in [
        ("take", "Take&MakeChess"),
        ("haan", "HaanerChess"),
        ("ohneschach", "ChecklessChess"),
        ("annan", "AnnanChess"),
        // Prefixes shared by a common alias and the full name (`Grid`, `GridChess`).
        ("monochrom", "MonochromChess"),
        ("bichrom", "BichromChess"),
        ("grid", "GridChess"),
        ("andern", "AndernachChess"),
        ("antiandernach", "AntiAndernachChess"),
        ("mars", "MarsCirce"),
    ] {
        let text = format!("beginproblem\nstipulation h#2\ncondition {word}\npieces white ke1 qd1 black ke8\nendproblem\n");
        match &feerie::problem::load_popeye_str(&text, "c.inp")[0] {
            Loaded::Ready(p) => assert_eq!(p.options.conditions.names(), [name], "{word}"),
            other => panic!("{word}: {other:?}"),
        }
    }
}

#[test]
fn take_and_make_after_a_circe_condition_is_its_option() {
    // Popeye reads `AntiCirce Take&Make` as one rebirth rule (TESTS/anticirce.inp #2, twin b:
    // `1.d4*e5[wPe5->e4]`), not AntiCirce beside Take&MakeChess; so does feerie.
    for (cond, name) in [("anticirce take&make", "AntiCirce Take&Make"), ("circe take&make", "Circe Take&Make")] {
        let text = format!("beginproblem\nstipulation ~1\ncondition {cond}\npieces white pd4 black pe5\noption nowk nobk\nendproblem\n");
        match &feerie::problem::load_popeye_str(&text, "c.inp")[0] {
            Loaded::Ready(p) => assert_eq!(p.options.conditions.names(), [name]),
            other => panic!("{cond}: {other:?}"),
        }
    }
    // With an option feerie does not play with it, the rule is not supported yet.
    let text =
        "beginproblem\nstipulation ~1\ncondition anticirce cheylan take&make\npieces white pd4 black pe5\noption nowk nobk\nendproblem\n";
    match &feerie::problem::load_popeye_str(text, "c.inp")[0] {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("AntiCirce Cheylan Take&Make"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // The condition alone, and after another condition, is Take&MakeChess.
    let text = "beginproblem\nstipulation ~1\ncondition madrasi take&make\npieces white pd4 black pe5\noption nowk nobk\nendproblem\n";
    match &feerie::problem::load_popeye_str(text, "c.inp")[0] {
        Loaded::Ready(p) => assert_eq!(p.options.conditions.names(), ["Madrasi", "Take&MakeChess"]),
        other => panic!("{other:?}"),
    }
}
