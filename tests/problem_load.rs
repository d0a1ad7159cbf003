//! Every problem file we know loads: the copies of the shared corpus in `tests/data/corpus/`
//! (which are the whole of it) and every file under `problems/`. Every stated solution in them
//! is read without a problem.

use feerie::problem::stipulation::{Play, Stipulation};
use feerie::problem::{Loaded, SolutionHint, StatedSolution, load_path};
use std::path::{Path, PathBuf};

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "yaml" | "yml" | "olv")))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The raw documents of a file (for the solution texts of documents that do not load).
fn raw_documents(path: &Path) -> Vec<serde_yaml::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    serde_yaml::Deserializer::from_str(&text).filter_map(|d| serde::Deserialize::deserialize(d).ok()).collect()
}

fn text_of(v: &serde_yaml::Value, key: &str) -> Option<String> {
    match v.get(key)? {
        serde_yaml::Value::String(s) => Some(s.clone()),
        other => serde_yaml::to_string(other).ok(),
    }
}

/// Number of moves of one solution line, as the stipulation says (none for parry series,
/// whose lines hold the parries too, and for reciprocal help play, whose two endings differ in
/// length).
fn line_length(s: &Stipulation) -> Option<usize> {
    if s.parry.is_some() || s.reci.is_some() {
        return None;
    }
    let n = s.moves as usize;
    match (s.series, s.play) {
        (false, Play::Help) => Some(s.help_plies() as usize),
        (true, Play::Direct) => Some(n),
        (true, Play::Help | Play::SelfPlay | Play::Reflex) => Some(n + 1),
        _ => None,
    }
}

/// Loads a file and checks it; returns (ready, unsupported, expected-invalid) counts.
fn check_file(path: &Path) -> (usize, usize, usize) {
    let docs = load_path(path).unwrap_or_else(|e| panic!("{e}"));
    let raw = raw_documents(path);
    assert_eq!(docs.len(), raw.len(), "{}: documents found", path.display());
    let (mut ready, mut unsupported, mut illegal) = (0, 0, 0);
    for (d, r) in docs.iter().zip(&raw) {
        let solution = text_of(r, "solution").unwrap_or_default();
        match d {
            Loaded::Ready(p) => {
                ready += 1;
                let stated = p.stated.as_ref().unwrap_or_else(|| panic!("{}: document {} has a solution", path.display(), p.document));
                assert!(stated.problems.is_empty(), "{}: document {}: {:?}", path.display(), p.document, stated.problems);
                // Help and series lines have the length the stipulation asks for.
                let variants = p.variants().unwrap();
                for t in &stated.twins {
                    let label = t.label.clone().unwrap_or_else(|| "a".into());
                    let stip = variants.iter().find(|v| v.label == label).map(|v| v.stipulation).unwrap_or(p.stipulation);
                    // Help play is exact; series play shows shorter solutions too.
                    if let Some(n) = line_length(&stip) {
                        for l in &t.lines {
                            let fits = if stip.series { l.len() <= n } else { l.len() == n };
                            assert!(fits, "{}: document {} twin {label}: {l:?} for {stip}", path.display(), p.document);
                        }
                    }
                    for k in &t.keys {
                        assert!(!k.is_empty());
                    }
                }
            }
            Loaded::Unsupported { reason, document, .. } => {
                unsupported += 1;
                assert!(!reason.is_empty(), "{}: document {document}", path.display());
                let stip = text_of(r, "stipulation").and_then(|s| Stipulation::parse(&s).ok());
                let s = StatedSolution::parse(&solution, &SolutionHint { stipulation: stip, ..Default::default() });
                assert!(s.problems.is_empty(), "{}: document {document}: {:?}", path.display(), s.problems);
            }
            Loaded::Invalid(e) => {
                // Popeye's own verdict on these diagrams is "the side to play can capture the
                // king": they are illegal, and we say so.
                assert!(solution.contains("can capture the king") && e.message.contains("is in check"), "unexpected error: {e}");
                illegal += 1;
            }
        }
    }
    (ready, unsupported, illegal)
}

#[test]
fn corpus_copies_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut total = (0, 0, 0);
    for f in yaml_files(&dir) {
        let (r, u, i) = check_file(&f);
        total = (total.0 + r, total.1 + u, total.2 + i);
    }
    // 457 documents: 454 ready (22 of them Xiangqi; 6 kingless with NoWk/NoBk; one with
    // NullMoves and one with a pser-s=2 twin, the last two unsupported before the stipulation
    // forms), and 3 illegal diagrams.
    assert_eq!(total, (454, 0, 3));
}

/// The copies in `tests/data/corpus/` are the whole shared corpus of problems (its `orthodox/`
/// and `xiangqi/` files, byte for byte), so that `corpus_copies_load` checks all of it in any
/// clone; where `../shared/corpus` lies beside the clone, a copy that has fallen behind fails.
#[test]
fn corpus_copies_are_the_shared_corpus() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let copies: Vec<String> = yaml_files(&data).iter().filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_string)).collect();
    assert_eq!(copies, ["complete-keys.yaml", "helpmate-tablebase.yaml", "popeye-regression.yaml", "xiangqi-mates.yaml"]);
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    for (copy, original) in [
        ("complete-keys.yaml", "orthodox/complete-keys.yaml"),
        ("helpmate-tablebase.yaml", "orthodox/helpmate-tablebase.yaml"),
        ("popeye-regression.yaml", "orthodox/popeye-regression.yaml"),
        ("xiangqi-mates.yaml", "xiangqi/mates.yaml"),
    ] {
        let ours = std::fs::read(data.join(copy)).unwrap_or_else(|e| panic!("{copy}: {e}"));
        assert!(!ours.is_empty(), "{copy} is empty");
        if let Ok(theirs) = std::fs::read(shared.join(original)) {
            assert!(ours == theirs, "tests/data/corpus/{copy} differs from ../shared/corpus/{original}: copy it again");
        }
    }
}

#[test]
fn problems_folder_loads() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        out.extend(yaml_files(dir));
        let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
            .unwrap_or_default();
        subs.sort();
        for d in subs {
            walk(&d, out);
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problems"), &mut files);
    // problems/*.yaml and its folders of Cheskers, fairy, Réserve and Xiangqi problems.
    assert!(files.len() >= 30, "only {} files under problems/", files.len());
    let mut ready = 0;
    for f in files {
        let (r, _, illegal) = check_file(&f);
        assert_eq!(illegal, 0, "{}", f.display());
        ready += r;
    }
    assert!(ready >= 100, "only {ready} problems of problems/ are ready");
}

#[test]
fn stated_solutions_of_the_corpus_read_right() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let docs = load_path(&dir.join("popeye-regression.yaml")).unwrap();
    let by_doc = |n: usize| match &docs[n - 1] {
        Loaded::Ready(p) => p.clone(),
        other => panic!("{other:?}"),
    };
    // s#2 with set play, a key and a variation.
    let p = by_doc(34);
    let t = &p.stated.as_ref().unwrap().twins[0];
    assert_eq!(t.keys, vec!["Rc4-e4"]);
    assert_eq!(t.lines, vec![vec!["Rc4-e4", "c5-c4", "Re4*c4", "b3-b2"]]);
    assert_eq!(t.set_lines, vec![vec!["b3-b2"]]);
    // h#1 with two solutions.
    let p = by_doc(2);
    assert_eq!(p.stated.as_ref().unwrap().twins[0].lines, vec![vec!["Kb7-a8", "Sd5-b6"], vec!["Kb7-a8", "Sd5-c7"]]);
    // ser-s#2 with set play.
    let p = by_doc(4);
    let t = &p.stated.as_ref().unwrap().twins[0];
    assert_eq!(t.set_lines, vec![vec!["b3*a2"]]);
    assert_eq!(t.lines, vec![vec!["Sa2-c1", "Sc1-a2", "b3*a2"]]);
    // Tries with refutations, threats written with a pass.
    let p = by_doc(49);
    let t = &p.stated.as_ref().unwrap().twins[0];
    assert_eq!(t.keys, vec!["Qb6-f6"]);
    assert_eq!(t.tries.len(), 6);
    assert!(t.refutations.contains(&("Ra1-d1".to_string(), "Kc2-c3".to_string())));
    assert!(t.lines.contains(&vec!["Qb6-f6".to_string(), "Kc2-b3".into(), "Ke1-d2".into(), "...".into(), "Qf6-c3".into()]));
    // Twins: labels and descriptions.
    let p = by_doc(173);
    let s = p.stated.as_ref().unwrap();
    assert_eq!(s.twins.iter().map(|t| t.label.clone().unwrap_or_default()).collect::<Vec<_>>(), vec!["a", "b", "c"]);
    assert_eq!(s.twins[2].description, "-sDh2");
    // No solution.
    let docs = load_path(&dir.join("complete-keys.yaml")).unwrap();
    match &docs[0] {
        Loaded::Ready(p) => assert!(p.stated.as_ref().unwrap().twins[0].no_solution),
        other => panic!("{other:?}"),
    }
    // Xiangqi lines in ICCS: one main line, its first move the key.
    let s = StatedSolution::parse(
        "1.g7e7 c5e7 2.d8e8 e9d9 3.d7b8",
        &SolutionHint { stipulation: Stipulation::parse("#3").ok(), ..Default::default() },
    );
    assert_eq!(s.twins[0].keys, vec!["g7e7"]);
    assert_eq!(s.twins[0].lines[0].len(), 5);
}

#[test]
fn show_exit_codes() {
    let exe = env!("CARGO_BIN_EXE_feerie");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ok = std::process::Command::new(exe).arg("show").arg(root.join("tests/data/corpus/complete-keys.yaml")).output().unwrap();
    assert_eq!(ok.status.code(), Some(0));
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(out.contains("♔") && out.contains("valid"));
    // Xiangqi: the 9×10 points with the river and the palaces, Red and Black, ICCS names.
    let x = std::process::Command::new(exe).arg("show").arg(root.join("tests/data/corpus/xiangqi-mates.yaml")).output().unwrap();
    assert_eq!(x.status.code(), Some(0));
    let out = String::from_utf8_lossy(&x.stdout);
    assert!(out.contains("river") && out.contains("     a b c d e f g h i"), "{out}");
    assert!(out.contains("  Red: Kf0 Nd7 Rc0 Rg7 Pd8 Pg8 (6)"), "{out}");
    assert!(out.contains(" 0 │ · · R + + K · · · │"), "{out}");
    assert!(out.contains("Red to move; FEN 4k4/3P2P2/b2N2R2/7r1/2b6/9/9/3n5/4p3r/2R2K3 w"), "{out}");
    assert!(!out.contains("unsupported"), "{out}");
}

/// The lines of a list in `tests/data/popeye-manual/`, comments left out.
fn manual_list(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye-manual").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(str::to_string).collect()
}

/// Every condition of Popeye's manual is recognised: a problem that uses one is played (the
/// fairy rules carry its name) or `unsupported` with the condition's name, never `invalid`.
#[test]
fn every_popeye_condition_is_named_not_refused() {
    let conditions = manual_list("conditions.txt");
    assert!(conditions.len() >= 170 && conditions.contains(&"Make&TakeChess".to_string()));
    let mut played = 0;
    for c in &conditions {
        // Black's king on a8, not e8: under Make&Take the queen d1 checks e8 (a king's step
        // to e2, then up the file).
        let yaml = format!("stipulation: '#2'\noptions: ['{c}']\nalgebraic: {{white: [Ke1, Qd1], black: [Ka8]}}\n");
        match &feerie::problem::load_str(&yaml, "c.yaml")[0] {
            Loaded::Unsupported { reason, .. } => assert!(reason.to_lowercase().contains(&c.to_lowercase()), "{c}: {reason}"),
            Loaded::Ready(p) => {
                let names = p.options.keywords().join(" ").to_lowercase();
                assert!(names.contains(&c.to_lowercase()), "{c} played as {names}");
                played += 1;
            }
            other => panic!("{c}: {other:?}"),
        }
    }
    assert!(played >= 10, "{played} conditions played");
}

/// Every piece of Popeye's list is either played or `unsupported` with its name, never
/// `invalid` (the lion, `LI`, was once an "unknown piece code").
#[test]
fn every_popeye_piece_is_played_or_named() {
    let (mut played, mut named) = (0, 0);
    for line in manual_list("pieces.txt") {
        let code = line.split_whitespace().next().expect("a code").to_ascii_uppercase();
        let yaml = format!("stipulation: '#2'\nalgebraic: {{white: [Ke1, {code}d4], black: [Ka8]}}\n");
        match &feerie::problem::load_str(&yaml, "p.yaml")[0] {
            Loaded::Ready(_) => played += 1,
            Loaded::Unsupported { reason, .. } => {
                let name = feerie::problem::popeye::piece_name(&code).expect("a Popeye name");
                assert!(reason.contains(&format!("piece '{code}' ({name}")), "{code}: {reason}");
                named += 1;
            }
            // A pawn on d4 is fine; a king there is a second king, which Popeye refuses too.
            Loaded::Invalid(e) if code == "K" => assert!(e.message.contains("king"), "{e}"),
            other => panic!("{code}: {other:?}"),
        }
    }
    assert!(played >= 17 && named >= 100, "played {played}, named {named}");
}
