//! `feerie convert`: both ways on the small files of tests/data/cli/convert/ (`mixed.inp`: a
//! twinned #2 from Popeye's manual example, a h#2 with a condition feerie does not read,
//! a Circe h#2 with a neutral pawn; `small.yaml`: a #2 with a structured source, a stated
//! solution and keywords), problems that cannot be converted, `--out` and exit codes.

use assert_cmd::Command;
use feerie::problem::{Loaded, load_path};
use std::path::{Path, PathBuf};

const MIXED: &str = "tests/data/cli/convert/mixed.inp";
const SMALL: &str = "tests/data/cli/convert/small.yaml";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("feerie").expect("the feerie binary").args(args).output().expect("run feerie");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// A temporary folder of this test process, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("feerie-convert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary folder");
    Scratch(d)
}

/// The problems of a file as feerie loads them, without file names and lines.
fn loaded(path: &Path) -> Vec<Loaded> {
    load_path(path).expect("a readable file")
}

#[test]
fn popeye_to_yaml_names_what_it_skips() {
    let (code, out, err) = run(&["convert", MIXED, "--to", "yaml"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.matches("---\n").count(), 2, "{out}");
    assert!(
        out.starts_with("---\nauthors: ['Schoepfer, G.']\nsource: Neue Leipziger Ztg., 1927\ncomments:\n  - castling in the key\n"),
        "{out}"
    );
    assert!(out.contains("options: [Variation, Threat 1]\ntwins:\n  b: Move h1 h2\n  c: Continued Mirror a1<-->h1\n"), "{out}");
    assert!(out.contains("  neutral: [Pe4]\noptions: [Circe RexInclusive]\n"), "{out}");
    // The second problem is named with its file, number, line and the condition.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with(&format!("feerie: skipped: {MIXED}: document 2 (")), "{err}");
    assert!(lines[0].contains("line 13, column 1: ") && lines[0].contains("condition 'Darkside'"), "{err}");
    // What was written loads as the .inp's problems 1 and 3.
    let dir = scratch("p2y");
    let yaml = dir.join("mixed.yaml");
    std::fs::write(&yaml, &out).expect("write");
    let (orig, back) = (loaded(Path::new(MIXED)), loaded(&yaml));
    assert_eq!(back.len(), 2);
    for (o, b) in [(&orig[0], &back[0]), (&orig[2], &back[1])] {
        assert_eq!(feerie::problem::convert::same_loaded(o, b), Ok(()));
    }
}

#[test]
fn yaml_to_popeye_and_back() {
    let (code, out, err) = run(&["convert", SMALL, "--to", "popeye"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.starts_with("BeginProblem\nAuthor Dawson, Thomas Rayner\nOrigin Illustrated London News, 1913\nStipulation #2\nOption NoCastling h1\nPieces\n  White Ke1 Rh1\n"), "{out}");
    assert!(out.contains("Remark yaml: solution: |2\nRemark yaml:      1.Rh1-f1 ! threat:\n"), "{out}");
    assert!(out.ends_with("Remark yaml: keywords: [Retro, Castling]\nEndProblem\n"), "{out}");
    // Back to YAML through a file, with --out.
    let dir = scratch("y2p");
    let inp = dir.join("small.inp");
    std::fs::write(&inp, &out).expect("write");
    let outdir = dir.join("out");
    let (code, stdout, err) = run(&["convert", inp.to_str().expect("a path"), "--to", "yaml", "--out", outdir.to_str().expect("a path")]);
    assert_eq!((code, stdout.as_str(), err.as_str()), (0, "", ""));
    let yaml = outdir.join("small.yaml");
    let text = std::fs::read_to_string(&yaml).expect("small.yaml written");
    assert!(text.contains("source: {name: Illustrated London News, date: {year: 1913}}\n"), "{text}");
    let (orig, back) = (loaded(Path::new(SMALL)), loaded(&yaml));
    assert_eq!(feerie::problem::convert::same_loaded(&orig[0], &back[0]), Ok(()));
    let Loaded::Ready(p) = &back[0] else { panic!("{:?}", back[0]) };
    assert_eq!(p.meta.keywords, ["Retro", "Castling"]);
    assert_eq!(p.stated.as_ref().map(|s| s.twins[0].keys.clone()), Some(vec!["Rh1-f1".to_string()]));
}

#[test]
fn out_folder_one_file_per_input() {
    let dir = scratch("out");
    let (code, stdout, err) = run(&["convert", MIXED, SMALL, "--to", "popeye", "--out", dir.to_str().expect("a path")]);
    assert_eq!(code, 1, "{err}");
    assert!(stdout.is_empty());
    let mixed = std::fs::read_to_string(dir.join("mixed.inp")).expect("mixed.inp written");
    assert_eq!(mixed.matches("NextProblem").count(), 1, "{mixed}");
    assert!(mixed.contains("Twin Move h1 h2\nTwin Continued Mirror a1<-->h1\n"), "{mixed}");
    assert!(mixed.contains("Condition Circe RexInclusive\nPieces\n  White Kb1 Qd1\n  Black Ka8\n  Neutral Pe4\n"), "{mixed}");
    assert!(dir.join("small.inp").exists());
}

#[test]
fn unreadable_and_invalid_input() {
    let (code, out, err) = run(&["convert", "tests/data/cli/convert/none.inp", "--to", "yaml"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("none.inp: no such file or folder"), "{err}");
    // Invalid problems: the faults `solve` and `show` report, at their lines; the valid
    // problems are written.
    let broken = "tests/data/popeye/broken.inp";
    let (code, out, err) = run(&["convert", broken, "--to", "yaml"]);
    assert_eq!(code, 1);
    let faults: Vec<String> = loaded(Path::new(broken))
        .iter()
        .filter_map(|l| match l {
            Loaded::Invalid(e) => Some(format!("feerie: skipped: {e}")),
            _ => None,
        })
        .collect();
    assert_eq!(faults.len(), 3);
    assert_eq!(err.lines().collect::<Vec<_>>(), faults);
    assert_eq!(out.matches("---\n").count(), 2, "{out}");
    // Unknown target format: clap's usage error.
    let (code, _, _) = run(&["convert", SMALL, "--to", "olive"]);
    assert_eq!(code, 2);
}

#[test]
fn no_panic_on_garbage() {
    // Bytes that are neither Popeye input nor YAML problems, and cut-off inputs.
    let dir = scratch("garbage");
    let texts: Vec<String> = vec![
        "BeginProblem\nStipulation\nPieces White\nTwin Move\nEndProblem".into(),
        "BeginProblem\nRemark yaml: solution: [\nStipulation #2\nPieces White Ka1 Black Kh8\nEndProblem".into(),
        "BeginProblem\nRemark yaml: algebraic: 5\nStipulation #2\nPieces White Ka1 Black Kh8\nEndProblem".into(),
        "---\nstipulation: '#2'\nalgebraic: {white: [Ka1], black: [Kh8]}\ntwins: {c: Move a1 a2}\n".into(),
        "---\nstipulation: '#2'\nalgebraic: {white: [Ka1, XYZa2], black: [Kh8]}\n".into(),
        "---\n[1, 2]\n---\n: : :\n".into(),
        "\u{0}\u{1}BeginProblem\u{ff}".into(),
    ];
    for (i, t) in texts.iter().enumerate() {
        for ext in ["inp", "yaml"] {
            let f = dir.join(format!("g{i}.{ext}"));
            std::fs::write(&f, t).expect("write");
            for to in ["yaml", "popeye"] {
                let (code, _, err) = run(&["convert", f.to_str().expect("a path"), "--to", to]);
                assert!([0, 1, 2].contains(&code), "{t:?} → {to}: exit {code}\n{err}");
                assert!(!err.contains("panicked"), "{t:?} → {to}: {err}");
            }
        }
    }
}
