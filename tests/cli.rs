//! The command line: verdicts, exit codes, formats, shards and merge, `--quiet`, `--lang`,
//! `report`, `show` and `solve`, on the tiny problems of tests/data/cli/:
//!
//! - `verdicts/`: one problem per verdict (sound, cooked, no solution, differs, unsupported,
//!   invalid);
//! - `slow/sixmover.yaml`: a #6 that times out under `--timeout 0.01`;
//! - `batch/`: a sound problem, a file with broken YAML, another sound problem.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const VERDICTS: &str = "tests/data/cli/verdicts";
const BATCH: &str = "tests/data/cli/batch";
const SLOW: &str = "tests/data/cli/slow";

fn feerie() -> Command {
    Command::cargo_bin("feerie").expect("the feerie binary")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = feerie().args(args).output().expect("run feerie");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("feerie-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temporary folder");
    d
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// The counts table of a text summary (`  sound   4` … `  total   9`).
fn counts(summary: &str) -> Vec<String> {
    let start = summary.find("summary\n").expect("a summary");
    summary[start..].lines().skip(1).take(8).map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn each_verdict() {
    for (file, verdict, code) in [
        ("sound", "sound", 0),
        ("cooked", "cooked", 1),
        ("nosolution", "no solution", 1),
        ("differs", "differs", 1),
        ("unsupported", "unsupported", 1),
        ("invalid", "invalid", 1),
    ] {
        let path = format!("{VERDICTS}/{file}.yaml");
        let (c, out, _) = run(&["check", "--format", "json", &path]);
        assert_eq!(c, code, "{file}");
        let recs = json_lines(&out);
        assert_eq!(recs.len(), 1, "{file}: {out}");
        assert_eq!(recs[0]["verdict"], verdict, "{file}");
        assert_eq!(recs[0]["file"], path.as_str());
    }
    let (c, out, _) = run(&["check", "--format", "json", "--timeout", "0.01", SLOW]);
    assert_eq!(c, 1);
    let recs = json_lines(&out);
    assert_eq!(recs[0]["verdict"], "timed out");
    assert!(recs[0]["reason"].as_str().unwrap_or_default().starts_with("stopped before the search ended"));
    // Reasons in words.
    let (_, out, _) = run(&["check", VERDICTS]);
    assert!(out.contains("verdict: cooked (2 found, 1 intended; cooks: Rd2-d8)"));
    assert!(out.contains("verdict: differs (stated 1 solution not found: Qa1-b1)"));
    assert!(out.contains("verdict: unsupported (condition 'Volage' is not supported yet)"));
    assert!(out.contains("line 5, column 16: square 'i9' is off the board"));
}

#[test]
fn check_exit_codes() {
    // 0: everything sound.
    feerie().args(["check", &format!("{VERDICTS}/sound.yaml"), &format!("{BATCH}/a.yaml")]).assert().code(0);
    // 1: some problem not sound.
    feerie().args(["check", VERDICTS]).assert().code(1);
    // 2: a path that does not exist (the others are still checked).
    feerie()
        .args(["check", "tests/data/cli/no-such-folder", &format!("{VERDICTS}/sound.yaml")])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("verdict: sound"))
        .stdout(predicate::str::contains("unreadable: tests/data/cli/no-such-folder"));
    // 2: bad arguments.
    feerie().args(["check", "--shard", "3/2", VERDICTS]).assert().code(2).stderr(predicate::str::contains("need 1 <= I <= N"));
    feerie().args(["check", "--format", "xml", VERDICTS]).assert().code(2);
    feerie().args(["check"]).assert().code(2);
    feerie().args(["check", "--no-such-flag", VERDICTS]).assert().code(2);
    // merge: a file that is not JSON Lines from check.
    feerie().args(["merge", &format!("{VERDICTS}/sound.yaml")]).assert().code(2).stderr(predicate::str::contains("not a check record"));
}

#[test]
fn json_lines_have_the_stable_fields() {
    let (c, out, err) = run(&["check", "--format", "json", VERDICTS]);
    assert_eq!(c, 1);
    // The summary goes to standard error, so standard output is JSON Lines only.
    assert!(err.contains("summary"));
    let recs = json_lines(&out);
    let order: Vec<&str> = recs.iter().map(|r| r["verdict"].as_str().unwrap_or_default()).collect();
    // Files in sorted order: cooked, differs, invalid, nosolution, sound, unsupported.
    assert_eq!(order, ["cooked", "differs", "invalid", "no solution", "sound", "unsupported"]);
    for r in &recs {
        for key in ["file", "document", "twin", "stipulation", "verdict", "reason", "solutions", "tree", "stated", "elapsed_ms"] {
            assert!(r.get(key).is_some(), "missing {key} in {r}");
        }
        assert!(r["document"].is_u64() && r["elapsed_ms"].is_u64());
        assert!(r["solutions"].is_array() && r["tree"].is_array());
        assert_eq!(r["twin"], "a");
    }
    let cooked = &recs[0];
    assert_eq!(cooked["stipulation"], "#1");
    assert_eq!(cooked["solutions"], serde_json::json!([["Rc1-c8"], ["Rd2-d8"]]));
    assert_eq!(cooked["stated"], "1.Rc1-c8 #");
    let sound = &recs[4];
    assert_eq!(sound["solutions"], serde_json::json!([["Qa1-c1"]]));
    assert_eq!(sound["tree"][0]["keys"][0]["move"], "Qa1-c1");
    assert!(recs[2]["stated"].is_null());
}

#[test]
fn yaml_stream_parses() {
    let (c, out, err) = run(&["check", "--format", "yaml", VERDICTS]);
    assert_eq!(c, 1);
    assert!(err.contains("summary") && !out.contains("summary\n"));
    let docs: Vec<serde_yaml::Value> =
        serde_yaml::Deserializer::from_str(&out).map(|d| serde::Deserialize::deserialize(d).expect("a YAML document")).collect();
    assert_eq!(docs.len(), 6);
    let verdicts: Vec<&str> = docs.iter().map(|d| d["verdict"].as_str().unwrap_or_default()).collect();
    assert_eq!(verdicts, ["cooked", "differs", "invalid", "no solution", "sound", "unsupported"]);
    for d in &docs {
        for key in ["file", "document", "twin", "stipulation", "verdict", "reason", "solutions", "tree", "stated", "elapsed_ms"] {
            assert!(d.get(key).is_some(), "missing {key}");
        }
    }
    assert_eq!(docs[4]["solutions"][0][0].as_str(), Some("Qa1-c1"));
}

#[test]
fn shards_and_merge_give_one_run() {
    let dir = scratch("shards");
    let mut files = Vec::new();
    let mut keys = Vec::new();
    for i in 1..=2 {
        let (c, out, _) = run(&["check", "--format", "json", "--shard", &format!("{i}/2"), VERDICTS, BATCH]);
        assert!(c == 1, "shard {i}");
        for r in json_lines(&out) {
            keys.push(format!("{} {}", r["file"], r["document"]));
        }
        let f = dir.join(format!("shard{i}.jsonl"));
        std::fs::write(&f, out).expect("write shard");
        files.push(f);
    }
    // Each document in exactly one shard.
    let n = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n);
    assert_eq!(n, 9);
    let (c_all, all, _) = run(&["check", VERDICTS, BATCH]);
    let mut merge = feerie();
    merge.arg("merge").args(&files);
    let out = merge.output().expect("merge");
    let merged = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(c_all));
    assert_eq!(counts(&merged), counts(&all));
    assert!(counts(&all).contains(&"total 9".to_string()), "{all}");
    assert!(counts(&all).contains(&"sound 3".to_string()), "{all}");
    // The same list of problems that are not sound.
    let tail = |s: &str| s[s.find("not sound:").expect("a list")..].to_string();
    assert_eq!(tail(&merged), tail(&all));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_file_does_not_stop_the_batch() {
    let (c, out, _) = run(&["check", BATCH]);
    assert_eq!(c, 1);
    let a = out.find("batch/a.yaml #1").expect("a.yaml");
    let b = out.find("batch/b-broken.yaml #1").expect("b-broken.yaml");
    let c3 = out.find("batch/c.yaml #1").expect("c.yaml");
    assert!(a < b && b < c3, "input order");
    assert!(out[b..c3].contains("verdict: invalid") && out[b..c3].contains("YAML syntax error"));
    assert!(out[c3..].contains("verdict: sound"));
    // A file that cannot be read at all (not UTF-8): exit 2, and the next file is still checked.
    let dir = scratch("unreadable");
    std::fs::copy(format!("{BATCH}/a.yaml"), dir.join("a.yaml")).expect("copy");
    std::fs::write(dir.join("b.yaml"), [0xff, 0xfe, 0x00, 0x41]).expect("write");
    std::fs::copy(format!("{BATCH}/c.yaml"), dir.join("c.yaml")).expect("copy");
    let (c, out, err) = run(&["check", &dir.display().to_string()]);
    assert_eq!(c, 2);
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(out.contains("c.yaml #1") && out.matches("verdict: sound").count() == 2);
    assert!(counts(&out).contains(&"total 2".to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quiet_prints_the_summary_only() {
    let (c, out, _) = run(&["check", "--quiet", VERDICTS]);
    assert_eq!(c, 1);
    assert!(!out.contains("verdict:"), "{out}");
    assert!(!out.contains("threat:"));
    assert!(out.starts_with("summary\n"), "{out}");
    assert_eq!(counts(&out), ["sound 1", "cooked 1", "no solution 1", "differs 1", "unsupported 1", "invalid 1", "timed out 0", "total 6"]);
    let list = &out[out.find("not sound:").expect("list")..];
    assert_eq!(list.lines().count(), 1 + 5);
    assert!(!list.contains("sound.yaml"));
}

/// `--quiet` silences the human text only: with a machine format every record is printed (a
/// sharded `check --quiet --format json` feeds `merge`), the summary going to standard error.
#[test]
fn quiet_keeps_the_records_of_machine_formats() {
    let (c, out, err) = run(&["check", "--quiet", "--format", "json", VERDICTS]);
    assert_eq!(c, 1);
    let recs = json_lines(&out);
    assert_eq!(recs.len(), 6, "{out}");
    assert!(err.contains("summary"), "{err}");
    let (_, out, _) = run(&["check", "-q", "--format", "yaml", VERDICTS]);
    assert_eq!(out.matches("verdict:").count(), 6, "{out}");
    // Sharded and merged, nothing is lost.
    let dir = scratch("quiet-shards");
    let mut files = Vec::new();
    for i in 1..=2 {
        let (_, out, _) = run(&["check", "--quiet", "--format", "json", "--shard", &format!("{i}/2"), VERDICTS]);
        let f = dir.join(format!("s{i}.jsonl"));
        std::fs::write(&f, out).expect("write a shard");
        files.push(f.to_string_lossy().to_string());
    }
    let (_, merged, _) = run(&["merge", &files[0], &files[1]]);
    assert!(counts(&merged).contains(&"total 6".to_string()), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn french_and_german_piece_letters() {
    let sound = format!("{VERDICTS}/sound.yaml");
    let (_, fr, _) = run(&["check", "--lang", "fr", &sound]);
    assert!(fr.contains("1.Da1-c1 ! menace:"), "{fr}");
    assert!(fr.contains("1...Cb2-d1"));
    let (_, de, _) = run(&["solve", "--lang", "de", &sound]);
    assert!(de.contains("1.Da1-c1 ! Drohung:"), "{de}");
    assert!(de.contains("1...Sb2-d1"));
    let (_, en, _) = run(&["check", &sound]);
    assert!(en.contains("1.Qa1-c1 ! threat:"));
}

#[test]
fn report_writes_a_page() {
    let dir = scratch("report");
    let page = dir.join("r.html");
    feerie()
        .args(["report", VERDICTS, "-o"])
        .arg(&page)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("summary\n"))
        .stdout(predicate::str::contains(format!("report: {}", page.display())));
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("src=\""), "self-contained");
    for v in ["sound", "cooked", "no-solution", "differs", "unsupported", "invalid"] {
        assert!(html.contains(&format!("class=\"verdict v-{v}\"")), "{v}");
    }
    // Five diagrams: the invalid document has none.
    assert_eq!(html.matches("<svg").count(), 5);
    assert!(html.contains("1.Qa1-c1 ! threat:"));
    // French words and piece letters.
    let fr = dir.join("fr.html");
    feerie()
        .args(["report", "--lang", "fr", &format!("{VERDICTS}/cooked.yaml"), &format!("{VERDICTS}/sound.yaml"), "-o"])
        .arg(&fr)
        .assert()
        .code(1);
    let html = std::fs::read_to_string(&fr).expect("the page");
    assert!(html.contains("<html lang=\"fr\">") && html.contains("Résumé") && html.contains(">démoli</span>"));
    assert!(html.contains("1.Da1-c1 ! menace:") && html.contains("Blancs"));
    // Standard output when no file is given; the summary then goes to standard error.
    let (c, out, err) = run(&["report", &format!("{VERDICTS}/sound.yaml")]);
    assert_eq!(c, 0);
    assert!(out.starts_with("<!DOCTYPE html>") && err.contains("summary"));
    // A page that cannot be written: exit 2.
    feerie()
        .args(["report", &format!("{VERDICTS}/sound.yaml"), "-o"])
        .arg(dir.join("no/such/folder/r.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot write the report"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn show_exit_codes() {
    feerie().args(["show", &format!("{VERDICTS}/sound.yaml")]).assert().code(0).stdout(predicate::str::contains("valid"));
    feerie().args(["show", &format!("{VERDICTS}/unsupported.yaml")]).assert().code(0).stdout(predicate::str::contains("unsupported:"));
    feerie().args(["show", &format!("{VERDICTS}/invalid.yaml")]).assert().code(2).stdout(predicate::str::contains("'i9' is off the board"));
    feerie().args(["show", "tests/data/cli/no-such-file.yaml"]).assert().code(2);
}

#[test]
fn solve_one_problem() {
    let sound = Path::new(VERDICTS).join("sound.yaml");
    feerie()
        .arg("solve")
        .arg(&sound)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("   1.Qa1-c1 ! threat:\n          2.Qc1-c3 #\n          2.Qc1-c5 #\n      1...Sb2-d1\n"))
        .stdout(predicate::str::contains("verdict: sound (1 solution as intended)"));
    feerie().args(["solve", &format!("{VERDICTS}/invalid.yaml")]).assert().code(2).stdout(predicate::str::contains("verdict: invalid"));
}

/// Popeye's layout shows a key's threat and variations only under `option Variation`, so
/// `--format popeye` builds the tree only for such problems: fewer positions searched,
/// the same keys; the text format builds it always.
#[test]
fn popeye_layout_builds_the_tree_only_where_asked() {
    let dir = scratch("tree");
    // Karge, STERN 1979 (problems/direct.yaml): 1.Qf8-e7 ! threat: 2.Ra1-a3 zugzwang.
    let karge = |option: &str| {
        let f = dir.join(format!("karge{}.inp", option.len()));
        let text =
            format!("beginproblem\nstipulation #3\npieces white ke1 qf8 ra1 rh1 se2 pc6 pe4 pf6\n black ke5 pe6\n{option}\nendproblem\n");
        std::fs::write(&f, text).expect("write the problem");
        f.to_string_lossy().into_owned()
    };
    let nodes = |stderr: &str| -> u64 {
        let n = stderr.split(" nodes in ").next().and_then(|s| s.rsplit(' ').next()).and_then(|n| n.parse().ok());
        n.unwrap_or_else(|| panic!("no --stats line: {stderr}"))
    };
    let (bare, vari) = (karge(""), karge("option variation"));
    let (code, out, err) = run(&["solve", &bare, "--format", "popeye", "--threads", "1", "--stats"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("   1.Qf8-e7 !\n") && !out.contains("threat") && !out.contains("Ra1-a3"), "{out}");
    let keys_only = nodes(&err);
    let (code, out, err) = run(&["solve", &vari, "--format", "popeye", "--threads", "1", "--stats"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("   1.Qf8-e7 ! threat:\n") && out.contains("2.Ra1-a3 zugzwang."), "{out}");
    let with_tree = nodes(&err);
    assert!(keys_only < with_tree, "keys only: {keys_only} positions, with the tree: {with_tree}");
    // The text format shows the tree of the same problem without the option.
    let (code, out, err) = run(&["solve", &bare, "--threads", "1", "--stats"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1.Qf8-e7 ! threat:") && out.contains("2.Ra1-a3 zugzwang."), "{out}");
    assert_eq!(nodes(&err), with_tree);
    // `Threat 1` judges the key by its threat (two moves here), so it needs the tree even
    // without `Variation`: no solution, in both formats.
    let threat = karge("option threat 1");
    for format in ["popeye", "text"] {
        let (_, out, _) = run(&["solve", &threat, "--format", format, "--threads", "1"]);
        assert!(!out.contains("Qf8-e7 !") && out.contains("no solution"), "{format}: {out}");
    }
}

#[test]
fn perft_xiangqi() {
    // The start position without --fen.
    let (code, out, _) = run(&["perft", "--rules", "xiangqi", "--depth", "3"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes: 79666\n"), "{out}");
    let (code, out, _) = run(&["perft", "--rules", "xiangqi", "--depth", "2", "--full"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes: 1920\n"), "{out}");
    // --divide in ICCS, sorted.
    let fen = "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1";
    let (code, out, _) = run(&["perft", "--rules", "xiangqi", "--fen", fen, "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25 + 3, "{out}");
    assert!(lines[0].starts_with("c0a2: "), "{out}");
    assert_eq!(lines[25], "nodes: 424");
    // Errors: a condition, a bad FEN, unknown rules.
    let (code, _, err) = run(&["perft", "--rules", "xiangqi", "--condition", "Reserve", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("Xiangqi takes no fairy condition"), "{err}");
    let (code, _, err) = run(&["perft", "--rules", "xiangqi", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("face each other"), "{err}");
    let (code, _, err) = run(&["perft", "--rules", "shogi", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rules"), "{err}");
    // Chess keeps its start position as the default.
    let (code, out, _) = run(&["perft", "--depth", "3"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes: 8902\n"), "{out}");
}

#[test]
fn perft_cheskers() {
    // The initial position, Black to move, without --fen: the rules file's 9 moves.
    let (code, out, _) = run(&["perft", "--rules", "cheskers", "--depth", "1", "--divide"]);
    assert_eq!(code, 0);
    let moves: Vec<&str> = out.lines().take(9).map(|l| l.split(':').next().unwrap_or("")).collect();
    assert_eq!(moves, ["CAb8-a5", "CAb8-c5", "b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"], "{out}");
    assert!(out.contains("nodes: 9\n"), "{out}");
    let (code, out, _) = run(&["perft", "--rules", "cheskers", "--depth", "3", "--full"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("nodes: 652\n"), "{out}");
    // A chain in --divide, with French letters for the king.
    let (code, out, _) =
        run(&["perft", "--rules", "cheskers", "--fen", "7k/8/1p1p4/8/1p1p4/2K5/8/8 w", "--depth", "1", "--divide", "--lang", "fr"]);
    assert_eq!(code, 0);
    assert!(out.contains("Rc3xe5xc7xa5xc3: 1\n"), "{out}");
    let (code, _, err) = run(&["perft", "--rules", "cheskers", "--fen", "K7/8/8/8/8/8/8/7k w", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("light square"), "{err}");
    let (code, _, err) = run(&["perft", "--rules", "cheskers", "--condition", "Reserve", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("Cheskers takes no fairy condition"), "{err}");
}

#[test]
fn cheskers_check_solve_and_notation() {
    // The bundled Cheskers collection: every problem sound, exit 0.
    let (code, out, _) = run(&["check", "problems/cheskers", "--quiet", "--threads", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sound            15") && out.contains("total            15"), "{out}");
    // A branching chain, with every landing square; French letters under --lang fr.
    let file = "problems/cheskers/direct.yaml";
    let (code, out, _) = run(&["solve", file, "--threads", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("   1.Kd2xf4xd6xb4 # !\n"), "{out}");
    assert!(out.contains("   1.b6xd8=K ! threat:\n          2.Kb4xd6xf8xh6 #\n"), "{out}");
    let (_, out, _) = run(&["solve", file, "--threads", "1", "--lang", "fr"]);
    assert!(out.contains("   1.Rd2xf4xd6xb4 # !\n") && out.contains("   1.b6xd8=R ! menace:"), "{out}");
    // A stated chain that is not a legal move differs; one that cannot be read is said so.
    let dir = std::env::temp_dir().join(format!("feerie-cli-cheskers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yaml");
    let doc = |sol: &str| format!("rules: cheskers\nfen: 8/2p1p1p1/8/2k1k3/8/4p3/3K4/8 w\nstipulation: '#1'\nsolution: '{sol}'\n");
    std::fs::write(&bad, [doc("1.Kd2xf4xd6xb8 !"), doc("1.Kd2xf4xd6xb4xz9 !")].join("---\n")).unwrap();
    let (code, _, _) = run(&["check", bad.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(code, 1);
    let (_, out, _) = run(&["solve", bad.to_str().unwrap(), "--threads", "1"]);
    assert!(out.contains("verdict: differs (stated 1 solution not found: Kd2xf4xd6xb8)"), "{out}");
    assert!(out.contains("the stated solution was not read (cannot read 'Kd2xf4xd6xb4xz9'"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xiangqi_check_solve_and_notation() {
    // The bundled Xiangqi collection: every problem sound, exit 0.
    let (code, out, _) = run(&["check", "problems/xiangqi", "--quiet", "--threads", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sound            21") && out.contains("total            21"), "{out}");
    // ICCS by default, WXF on request; the verdict is the same in both.
    let file = "problems/xiangqi/shiqing-yaqu.yaml";
    let (code, out, _) = run(&["solve", file, "--threads", "1"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("   1.g7e7 + !\n      1...c5e7\n          2.d8e8 +\n              2...e9e8\n                  3.c0c8 #\n"),
        "{out}"
    );
    let (code, out, _) = run(&["solve", file, "--threads", "1", "--notation", "wxf"]);
    assert_eq!(code, 0);
    assert!(out.contains("   1.R3.5 + !\n      1...E3-5\n          2.P6.5 +\n"), "{out}");
    assert!(!out.contains("verdict: differs"), "{out}");
    // Xiangqi letters are not translated: `--lang fr` leaves the WXF moves as they are.
    let (_, out, _) = run(&["solve", file, "--threads", "1", "--notation", "wxf", "--lang", "fr"]);
    assert!(out.contains("   1.R3.5 + !\n      1...E3-5\n"), "{out}");
    // JSON records carry the moves as written.
    let (_, out, _) = run(&["solve", file, "--threads", "1", "--notation", "wxf", "--format", "json"]);
    let first = json_lines(&out).into_iter().next().expect("a record");
    assert_eq!(first["solutions"][0][0], "R3.5");
    assert_eq!(first["verdict"], "sound");
}
