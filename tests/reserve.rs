//! Échecs Réserve end to end (issue 5).
//!
//! - The problems of `problems/reserve/` are solved and compared with expectations written
//!   here by hand: keys, variations, tries and help lines, each with the hand check beside it.
//! - Notation: `↑` / `↓` moves written in English, French and German and read back, the ASCII
//!   forms `^` / `v`, the `--lang` and `--ascii` output of the binary, the worked example of
//!   the source text through `feerie perft --divide`.
//! - `tests/data/perft_reserve.txt`: perft counts under the three conditions, recounted by the
//!   engine and by the reference generator of `tests/reference/` (all of them in the ignored
//!   test `reserve_perft_reference_every_count`).
//! - Reserves in FEN, in the Zobrist key, in castling rights, and twins that change them.

mod reference;

use assert_cmd::Command;
use feerie::geometry::Square;
use feerie::notation::{MoveStyle, move_text};
use feerie::piece::{Color, Kind, Lang};
use feerie::position::{Move, Position, ReserveRule, parse_sq};
use feerie::problem::solution::normalize_move;
use feerie::problem::{Loaded, SolutionHint, StatedSolution, Stipulation, load_path, load_str};
use feerie::report::Record;
use feerie::solve::{Node, SolveOptions};
use feerie::verify::{VerdictKind, check_problem};
use std::path::{Path, PathBuf};

fn problems_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/reserve")
}

fn opts() -> SolveOptions {
    SolveOptions { threads: 2, hash_mb: 16, ..SolveOptions::default() }
}

/// Every record (problem and twin) of one file of `problems/reserve/`, in order.
fn solve_file(name: &str) -> Vec<Record> {
    let docs = load_path(&problems_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    for d in docs {
        match d {
            Loaded::Ready(p) => out.extend(check_problem(&p, &opts())),
            other => panic!("{name}: document {} does not load: {other:?}", other.first_line()),
        }
    }
    out
}

/// The solutions of a record as one string each: keys for battle play, whole lines otherwise.
fn solutions(r: &Record) -> Vec<String> {
    r.solutions.iter().map(|s| s.join(" ")).collect()
}

/// The key node `key` of a battle record.
fn key<'a>(r: &'a Record, key: &str) -> &'a Node {
    r.tree[0].keys.iter().find(|k| k.mv == key).unwrap_or_else(|| panic!("{} #{}: no key {key}", r.file, r.document))
}

/// A node's continuations as "move mark" strings.
fn moves(nodes: &[Node]) -> Vec<String> {
    nodes.iter().map(|n| if n.mark.is_empty() { n.mv.clone() } else { format!("{} {}", n.mv, n.mark) }).collect()
}

/// The variations after a key: (defence, the attacker's answers).
fn variations(k: &Node) -> Vec<(String, Vec<String>)> {
    k.replies.iter().map(|d| (d.mv.clone(), moves(&d.replies))).collect()
}

fn v(defence: &str, answers: &[&str]) -> (String, Vec<String>) {
    (defence.to_string(), answers.iter().map(|s| s.to_string()).collect())
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn sound(r: &Record) {
    assert_eq!(r.verdict, VerdictKind::Sound, "{} #{} twin {}: {}", r.file, r.document, r.twin, r.reason);
}

#[test]
fn direct_problems_are_solved_as_checked_by_hand() {
    let rs = solve_file("direct.yaml");
    assert_eq!(rs.len(), 10, "8 problems, 2 of them with a twin b");
    for r in &rs {
        sound(r);
    }

    // #1 (WhiteReserve #2). 1.Qa8↑! The queen's diagonal to g2 is shut by its own king on f3,
    // so it goes into reserve to be dropped anywhere: threat 2.Qg2↓# (guarded by Kf3). Black
    // has Kf1, Kh1, Kh2 and c1=Q/R/B/S; only 1...Kf1 stops the threat (after Qg2↓+ the king
    // would go to e1): 2.Qc1↓# or 2.Qh1↓# along the first rank (e2, f2, g2 are the white
    // king's) or 2.Qf2↓#. With the empty reserve White has no drop at the first move, and no
    // queen or king move mates next (1.Qa2? Kf1!, 1.Qg8+? Kf1!, 1.Kg3? Kf1!).
    let r = &rs[0];
    assert_eq!(solutions(r), ["Qa8↑"]);
    let k = key(r, "Qa8↑");
    assert_eq!(moves(&k.threat), ["Qg2↓ #"]);
    assert_eq!(variations(k), [v("Kg1-f1", &["Qc1↓ #", "Qh1↓ #", "Qf2↓ #"])]);
    assert_eq!(r.reserve.as_ref().map(|x| x.condition.as_str()), Some("WhiteReserve"));

    // #2 (WhiteReserve #2, rook in reserve). 1.Rg2! zugzwang: the g-file is closed, the
    // reserve rook kept. 1...h4 2.Rh5↓# (h6 and h8 on its line); 1...Kh6 2.Rh8↓# (h5 is
    // Black's pawn); 1...Kh8 2.Rh6↓#. A drop on the g-file (1.Rg1↓? ...) empties the reserve
    // (1...h4!); other rook moves leave the g-file open (1...Kg6!).
    let r = &rs[1];
    assert_eq!(solutions(r), ["Rh2-g2"]);
    let k = key(r, "Rh2-g2");
    assert!(k.zugzwang && k.threat.is_empty());
    assert_eq!(variations(k), [v("h5-h4", &["Rh5↓ #"]), v("Kh7-h6", &["Rh8↓ #"]), v("Kh7-h8", &["Rh6↓ #"])]);

    // #3 (WhiteReserve #2, SetPlay). Set: 1...d1=Q/R/B/S 2.Rh1↓# (the new piece cannot cross
    // f1; e2, f2, g2 are the c2 rook's). 1.Rxd2! threat Ra1↓/Rb1↓/Rc1↓/Rd1↓/Rh1↓#; 1...Ke1
    // 2.Rd1↓# (guarded by the d2 rook); 1...Kg1 2.Ra1↓ ... Re1↓#.
    let r = &rs[2];
    assert_eq!(solutions(r), ["Rc2*d2"]);
    let set: Vec<(String, Vec<String>)> = r.tree[0].set_play.iter().map(|d| (d.mv.clone(), moves(&d.replies))).collect();
    assert_eq!(set, [v("d2-d1=Q", &["Rh1↓ #"]), v("d2-d1=R", &["Rh1↓ #"]), v("d2-d1=B", &["Rh1↓ #"]), v("d2-d1=S", &["Rh1↓ #"])]);
    let k = key(r, "Rc2*d2");
    assert_eq!(moves(&k.threat), ["Ra1↓ #", "Rb1↓ #", "Rc1↓ #", "Rd1↓ #", "Rh1↓ #"]);
    assert_eq!(variations(k), [v("Kf1-e1", &["Rd1↓ #"]), v("Kf1-g1", &["Ra1↓ #", "Rb1↓ #", "Rc1↓ #", "Rd1↓ #", "Re1↓ #"])]);

    // #4 (WhiteReserve #2, twins). a) orthodox block 1.Rg8!: 1...g3 2.Qh3#; 1...h6 2.Qxg4#;
    // 1...Kh4 2.Qxg4#. b) Add white reserve S: the knight dropped on g2 takes h4 and f4, the
    // queen holds g6 and h6, so 1.Sg2↓! threat 2.Rb5# is a second key: a cook only a drop
    // creates.
    let (a, b) = (&rs[3], &rs[4]);
    assert_eq!((a.twin.as_str(), b.twin.as_str(), b.twin_change.as_str()), ("a", "b", "Add white reserve S"));
    assert_eq!(solutions(a), ["Rb8-g8"]);
    assert_eq!(variations(key(a, "Rb8-g8")), [v("g4-g3", &["Qe6-h3 #"]), v("h7-h6", &["Qe6*g4 #"]), v("Kh5-h4", &["Qe6*g4 #"])]);
    assert_eq!(solutions(b), ["Rb8-g8", "Sg2↓"]);
    assert_eq!(moves(&key(b, "Sg2↓").threat), ["Rb8-b5 #"]);
    assert_eq!(b.reserve.as_ref().map(|x| x.white.clone()), Some(strings(&["S"])));

    // #5 (BlackReserve #2, twins). a) 1.Ra4+! The king has no square, so Black interposes its
    // reserve pawn: 1...Pa5↓ 2.Rxa5#; 1...Pa6↓ 2.Rxa6#; 1...Pa7↓ 2.Re8#. b) Without the pawn
    // in reserve (and #1) the checks mate at once: 1.Ra3#, 1.Ra4#.
    let (a, b) = (&rs[5], &rs[6]);
    assert_eq!(solutions(a), ["Rc4-a4"]);
    assert_eq!(variations(key(a, "Rc4-a4")), [v("Pa5↓", &["Ra4*a5 #"]), v("Pa6↓", &["Ra4*a6 #"]), v("Pa7↓", &["Re3-e8 #"])]);
    assert_eq!((b.stipulation.as_str(), solutions(b)), ("#1", strings(&["Re3-a3", "Rc4-a4"])));

    // #6 (Reserve, named "Échecs Réserve" in the file, #2 with tries). Black's defence is
    // Sc6↑: the knight in reserve can then be dropped between the king and a rook check.
    // 1.Kg3? Sc6↑!; 1.Rc2↑? Sc6↑!; 1.Rc1+? Kh2!. 1.Rxc6! takes it first; then Black has
    // nothing to put or drop: 2.Rh6#.
    let r = &rs[7];
    assert_eq!(r.reserve.as_ref().map(|x| x.condition.as_str()), Some("Reserve"));
    assert_eq!(solutions(r), ["Rc2*c6"]);
    assert_eq!(moves(&key(r, "Rc2*c6").threat), ["Rc6-h6 #"]);
    let tries: Vec<(String, Vec<String>)> = r.tree[0].tries.iter().map(|t| (t.mv.clone(), moves(&t.refutations))).collect();
    assert_eq!(tries, [v("Rc2-c1", &["Kh1-h2"]), v("Kf2-g3", &["Sc6↑"]), v("Rc2↑", &["Sc6↑"])]);

    // #7 (WhiteReserve #3). 1.Rb8↑! threat a rook drop on the h-file; 1...Kh6 2.Ra5↓! blocks
    // the a-pawn and holds g5, h5: 2...Kh7 forced, 3.Rh5#. (1.Rb5? does the same but 1...axb5!)
    let r = &rs[8];
    assert_eq!(solutions(r), ["Rb8↑"]);
    let k = key(r, "Rb8↑");
    assert_eq!(moves(&k.threat), ["Rh1↓ #", "Rh2↓ #", "Rh3↓ #", "Rh4↓ #", "Rh5↓ #"]);
    assert_eq!(variations(k), [v("Kh7-h6", &["Ra5↓"])]);
    let ra5 = &k.replies[0].replies[0];
    assert!(ra5.zugzwang);
    assert_eq!(variations(ra5), [v("Kh6-h7", &["Ra5-h5 #"])]);

    // #8 (WhiteReserve, "Réserve blanche", =2). 1.Qd6! takes every king square without check;
    // a rook dropped in front of the h-pawn stalemates: threat 2.Rh6↓=; 1...h5 2.Rh4↓=;
    // 1...h6 2.Rh5↓=.
    let r = &rs[9];
    assert_eq!(solutions(r), ["Qd5-d6"]);
    let k = key(r, "Qd5-d6");
    assert_eq!(moves(&k.threat), ["Rh6↓ ="]);
    assert_eq!(variations(k), [v("h7-h5", &["Rh4↓ ="]), v("h7-h6", &["Rh5↓ ="])]);
}

#[test]
fn help_and_series_problems_are_solved_as_checked_by_hand() {
    let rs = solve_file("help.yaml");
    assert_eq!(rs.len(), 4);
    for r in &rs {
        sound(r);
    }
    // h#1, BlackReserve ("Réserve noire"): the worked example's promotion by drop. a1 is the
    // king's only square after Be4+; a queen or rook there would check Ka3, a knight would
    // interpose on c2; the dark-squared bishop does neither.
    assert_eq!(solutions(&rs[0]), ["Pa1↓=B Bc6-e4"]);
    assert_eq!(rs[0].reserve.as_ref().map(|x| (x.condition.as_str(), x.black.clone())), Some(("BlackReserve", strings(&["P"]))));
    // h#2, Reserve: the pawn goes into reserve to come back on a1 as a rook (a queen or bishop
    // would take the knight on c3, a knight would check Kc2).
    assert_eq!(solutions(&rs[1]), ["Pb6↑ Kc3-c2 Pa1↓=R Sb1-c3"]);
    // h=2, Reserve: into reserve, dropped on g7, taken: Ka8 is stalemated (empty reserve, no
    // piece to put).
    assert_eq!(solutions(&rs[2]), ["Ph6↑ Kd8-c8 Pg7↓ Rg4*g7"]);
    assert_eq!(rs[2].tree[0].lines[0].last().map(|m| m.mark.as_str()), Some("="));
    // ser-h#3, Reserve: put, promoting drop on b1 (a rook: a queen on b8 would interpose on a7),
    // self-block on b8, Qa6#.
    assert_eq!(solutions(&rs[3]), ["Pg7↑ Pb1↓=R Rb1-b8 Qg6-a6"]);
}

#[test]
fn self_and_reflex_problems_are_solved_as_checked_by_hand() {
    let rs = solve_file("self-reflex.yaml");
    assert_eq!(rs.len(), 2);
    for r in &rs {
        sound(r);
    }
    // s#2, BlackReserve: 1.Qh3+! Qh2↓ (the only move: a drop that parries the check)
    // 2.Qg2+ Qxg2# (forced: the king cannot take the guarded queen).
    let r = &rs[0];
    assert_eq!(solutions(r), ["Qc3-h3"]);
    let k = key(r, "Qc3-h3");
    assert_eq!(k.mark, "+");
    assert_eq!(variations(k), [v("Qh2↓", &["Qh3-g2 +"])]);
    assert_eq!(moves(&k.replies[0].replies[0].replies), ["Qh2*g2 #"]);
    // r#1, BlackReserve: 1.Rb8! blocks b8; Black must mate: 1...Sc7↓# (on b6 the rook takes).
    let r = &rs[1];
    assert_eq!(solutions(r), ["Rh8-b8"]);
    assert_eq!(variations(key(r, "Rh8-b8")), [v("Sc7↓", &[])]);
    assert_eq!(key(r, "Rh8-b8").replies[0].mark, "#");
}

#[test]
fn the_collection_covers_the_conditions_and_stipulations_and_stays_quick() {
    let mut conditions = std::collections::BTreeSet::new();
    let mut stipulations = std::collections::BTreeSet::new();
    let mut problems = 0;
    for f in ["direct.yaml", "help.yaml", "self-reflex.yaml"] {
        for d in load_path(&problems_dir().join(f)).unwrap() {
            let Loaded::Ready(p) = d else { panic!("{f}: a document does not load") };
            problems += 1;
            assert_eq!(p.meta.authors, ["feerie test suite"], "{f} #{}: labelled as feerie's own", p.document);
            for r in check_problem(&p, &opts()) {
                sound(&r);
                conditions.insert(r.reserve.expect("every problem is under Réserve").condition);
                stipulations.insert(r.stipulation.clone());
            }
        }
    }
    assert!(problems >= 12, "{problems} problems");
    assert_eq!(conditions.into_iter().collect::<Vec<_>>(), ["BlackReserve", "Reserve", "WhiteReserve"]);
    for s in ["#2", "#3", "h#2", "s#2", "r#1", "ser-h#3", "=2", "h=2", "#1", "h#1"] {
        assert!(stipulations.contains(s), "no {s} in {stipulations:?}");
    }
}

#[test]
fn tries_refuted_by_a_drop_that_parries_check() {
    // #5 a) of direct.yaml with tries: 1.Ra3+? Pa7↓! (no rook is left for e8), 1.Re8+? Ka7!.
    let docs = load_path(&problems_dir().join("direct.yaml")).unwrap();
    let Loaded::Ready(p) = &docs[4] else { panic!("document 5") };
    let a = &p.variants().unwrap()[0];
    let o = SolveOptions { tries: true, ..opts() };
    let s = feerie::solve::solve(a.position.as_chess().expect("a chess problem"), &a.stipulation, &o);
    let tries: Vec<(String, Vec<String>)> = s.phases[0].tries.iter().map(|t| (t.mv.clone(), moves(&t.refutations))).collect();
    assert_eq!(tries, [v("Re3-a3", &["Pa7↓"]), v("Re3-e8", &["Ka8-a7"])]);
}

// ---------------------------------------------------------------------------------------------
// Notation

fn pos(fen: &str, rule: ReserveRule) -> Position {
    let mut s = feerie::notation::parse_fen(fen).unwrap();
    s.reserve_rule = rule;
    Position::from_setup(&s).unwrap()
}

const BOTH: ReserveRule = ReserveRule { white: true, black: true };

#[test]
fn moves_are_written_in_three_languages_and_in_ascii() {
    let p = pos("4k3/8/8/8/3N4/8/4P3/4K3[BSP] w - - 0 1", BOTH);
    let sq = |s: &str| parse_sq(s).unwrap();
    let cases: [(Move, [&str; 4]); 5] = [
        (Move::Put { from: sq("d4") }, ["Sd4↑", "Cd4↑", "Sd4↑", "Sd4^"]),
        (Move::Put { from: sq("e2") }, ["Pe2↑", "Pe2↑", "Be2↑", "Pe2^"]),
        (Move::Drop { kind: Kind::Knight, to: sq("d5"), promotion: None }, ["Sd5↓", "Cd5↓", "Sd5↓", "Sd5v"]),
        (Move::Drop { kind: Kind::Bishop, to: sq("c6"), promotion: None }, ["Bc6↓", "Fc6↓", "Lc6↓", "Bc6v"]),
        (Move::Drop { kind: Kind::Pawn, to: sq("a8"), promotion: Some(Kind::Bishop) }, ["Pa8↓=B", "Pa8↓=F", "Ba8↓=L", "Pa8v=B"]),
    ];
    let legal = p.legal_moves();
    for (m, [en, fr, de, ascii]) in cases {
        assert!(legal.contains(&m), "{m:?} is legal");
        assert_eq!(move_text(&p, m, MoveStyle { lang: Lang::En, ascii: false }), en);
        assert_eq!(move_text(&p, m, MoveStyle { lang: Lang::Fr, ascii: false }), fr);
        assert_eq!(move_text(&p, m, MoveStyle { lang: Lang::De, ascii: false }), de);
        assert_eq!(move_text(&p, m, MoveStyle { lang: Lang::En, ascii: true }), ascii);
        // The report's translation of the English text gives the same.
        assert_eq!(feerie::report::text::translate(en, Lang::Fr), fr);
        assert_eq!(feerie::report::text::translate(en, Lang::De), de);
        assert_eq!(feerie::notation::ascii_arrows(en), ascii);
    }
}

#[test]
fn every_reserve_move_reads_back_in_every_language() {
    // Every legal move of these positions, written in each language, with and without ASCII
    // arrows and with check marks, is read back as the English move.
    for (fen, rule) in [
        ("4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", BOTH),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[QRBSPqrbsp] w KQkq - 0 1", BOTH),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[QRBSPqrbsp] b KQkq - 0 1", BOTH),
        ("8/2P5/8/k7/8/8/5p2/K7[Pp] w - - 0 1", ReserveRule { white: true, black: false }),
        ("8/2P5/8/k7/8/8/5p2/K7[Pp] b - - 0 1", ReserveRule { white: false, black: true }),
    ] {
        let p = pos(fen, rule);
        let mut seen = (0, 0);
        for m in p.legal_moves() {
            let english = move_text(&p, m, MoveStyle::default());
            seen.0 += english.contains('↑') as usize;
            seen.1 += english.contains('↓') as usize;
            for lang in [Lang::En, Lang::Fr, Lang::De] {
                for ascii in [false, true] {
                    let text = move_text(&p, m, MoveStyle { lang, ascii });
                    for mark in ["", "+", "#", "!", "?"] {
                        let w = format!("{text}{mark}");
                        assert_eq!(normalize_move(&w, lang).as_deref(), Some(english.as_str()), "{fen}: '{w}' ({lang:?})");
                    }
                }
            }
        }
        assert!(seen.1 > 0, "{fen}: drops");
    }
}

#[test]
fn stated_solutions_with_reserve_moves_are_read_in_three_languages() {
    let hint = |s: &str| SolutionHint { stipulation: Stipulation::parse(s).ok(), ..SolutionHint::default() };
    // English, Unicode and ASCII arrows.
    for text in ["1.Pa1↓=B Bc6-e4 #", "1.Pa1v=B Bc6-e4#"] {
        let s = StatedSolution::parse(text, &hint("h#1"));
        assert!(s.problems.is_empty(), "{text}: {:?}", s.problems);
        assert_eq!(s.twins[0].lines, [strings(&["Pa1↓=B", "Bc6-e4"])]);
    }
    // French: a promotion letter alone tells the language (F, the fou).
    let s = StatedSolution::parse("1.Pa1↓=F Fc6-e4 #", &hint("h#1"));
    assert_eq!(s.twins[0].lines, [strings(&["Pa1↓=B", "Bc6-e4"])]);
    let s = StatedSolution::parse("1.Cd4↑ ! menace: 2.Cf5↓ #\n1...Rg7 2.Ce6↓ #", &hint("#2"));
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert_eq!(s.twins[0].keys, ["Sd4↑"]);
    assert_eq!(s.twins[0].lines, [strings(&["Sd4↑", "...", "Sf5↓"]), strings(&["Sd4↑", "Kg7", "Se6↓"])]);
    // German: B is the pawn, L the bishop.
    let s = StatedSolution::parse("1.Ba1↓=L Lc6-e4 #", &hint("h#1"));
    assert_eq!(s.twins[0].lines, [strings(&["Pa1↓=B", "Bc6-e4"])]);
    let s = StatedSolution::parse("1.Dd1↑ ! Drohung: 2.Dg2↓ #", &hint("#2"));
    assert_eq!(s.twins[0].keys, ["Qd1↑"]);
}

fn feerie() -> Command {
    Command::cargo_bin("feerie").expect("the feerie binary")
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn solve_writes_reserve_moves_in_three_languages_and_ascii() {
    let file = problems_dir().join("help.yaml");
    let en = stdout(feerie().arg("solve").arg(&file).args(["--threads", "1"]));
    assert!(en.contains("  1.Pa1↓=B Bc6-e4 #"), "{en}");
    assert!(en.contains("  1.Pb6↑ Kc3-c2   2.Pa1↓=R Sb1-c3 #"), "{en}");
    assert!(en.contains("  reserves (BlackReserve): white —, black P"), "{en}");
    let fr = stdout(feerie().arg("solve").arg(&file).args(["--threads", "1", "--lang", "fr"]));
    assert!(fr.contains("  1.Pa1↓=F Fc6-e4 #"), "{fr}");
    assert!(fr.contains("  1.Pb6↑ Rc3-c2   2.Pa1↓=T Cb1-c3 #"), "{fr}");
    assert!(fr.contains("  réserves (BlackReserve): blancs —, noirs P"), "{fr}");
    let de = stdout(feerie().arg("solve").arg(&file).args(["--threads", "1", "--lang", "de", "--ascii"]));
    assert!(de.contains("  1.Ba1v=L Lc6-e4 #"), "{de}");
    assert!(de.contains("  1.Bb6^ Kc3-c2   2.Ba1v=T Sb1-c3 #"), "{de}");
    assert!(!de.contains('↑') && !de.contains('↓'), "{de}");
    let ascii = stdout(feerie().arg("check").arg(&file).args(["--threads", "1", "--ascii", "--format", "json"]));
    assert!(ascii.contains("\"Pa1v=B\"") && !ascii.contains('↓'), "{ascii}");
    assert!(ascii.contains("\"reserve\":{\"condition\":\"BlackReserve\",\"white\":[],\"black\":[\"P\"]}"), "{ascii}");
}

#[test]
fn stated_solutions_in_french_german_and_ascii_are_judged_sound() {
    // The h#1 of help.yaml with its solution written in other forms: each is read back and
    // judged against what the solver finds.
    for solution in ["1.Pa1↓=F Fc6-e4 #", "1.Ba1↓=L Lc6-e4 #", "1.Pa1v=B Bc6-e4 #", "1.Pa1^=B Bc6-e4 #"] {
        let text =
            format!("stipulation: 'h#1'\nfen: '8/8/2B5/8/8/K1R5/8/1k6[p] b - - 0 1'\noptions: [BlackReserve]\nsolution: '{solution}'\n");
        let Loaded::Ready(p) = load_str(&text, "t.yaml").remove(0) else { panic!("{solution}: loads") };
        let r = &check_problem(&p, &opts())[0];
        if solution.contains('^') {
            // `^` is a move into reserve: not the solution.
            assert_eq!(r.verdict, VerdictKind::Differs, "{solution}: {}", r.reason);
        } else {
            assert_eq!(r.verdict, VerdictKind::Sound, "{solution}: {}", r.reason);
        }
    }
}

#[test]
fn the_worked_example_through_perft_divide() {
    // Black, a pawn in reserve: dropped on a1 it is promoted at once, one move per choice.
    let out = stdout(feerie().args([
        "perft",
        "--condition",
        "BlackReserve",
        "--fen",
        "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1",
        "--depth",
        "1",
        "--divide",
    ]));
    let a1: Vec<&str> = out.lines().filter(|l| l.starts_with("Pa1")).collect();
    assert_eq!(a1, ["Pa1↓=B: 1", "Pa1↓=Q: 1", "Pa1↓=R: 1", "Pa1↓=S: 1"]);
    assert!(out.lines().any(|l| l == "nodes: 81"), "{out}");
    // Never on Black's first rank.
    assert!(!out.lines().any(|l| l.starts_with('P') && l.as_bytes()[2] == b'8'), "{out}");
    let fr = stdout(
        feerie()
            .args(["perft", "--condition", "Réserve noire", "--fen", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1"])
            .args(["--depth", "1", "--divide", "--lang", "fr", "--ascii"]),
    );
    let a1: Vec<&str> = fr.lines().filter(|l| l.starts_with("Pa1")).collect();
    assert_eq!(a1, ["Pa1v=C: 1", "Pa1v=D: 1", "Pa1v=F: 1", "Pa1v=T: 1"]);
}

// ---------------------------------------------------------------------------------------------
// Perft with reserves, confirmed by the reference generator

struct PerftCase {
    rule: ReserveRule,
    puts: bool,
    fen: String,
    counts: Vec<u64>,
}

fn perft_cases() -> Vec<PerftCase> {
    include_str!("data/perft_reserve.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "{l}");
            let (name, puts) = match parts[0].strip_suffix("-noput") {
                Some(n) => (n, false),
                None => (parts[0], true),
            };
            let rule = feerie::cli::perft::reserve_condition(name).unwrap_or_else(|| panic!("condition {name}"));
            PerftCase {
                rule,
                puts,
                fen: parts[1].to_string(),
                counts: parts[2].split_whitespace().map(|n| n.parse().expect("a count")).collect(),
            }
        })
        .collect()
}

fn perft_position(c: &PerftCase) -> Position {
    let mut p = pos(&c.fen, c.rule);
    p.set_puts_enabled(c.puts);
    p
}

/// The reference generator's view of a perft case: the promotion choices of a game that
/// starts there.
fn reference_board(p: &Position) -> reference::Board {
    let start = reference::from_engine(p, vec![]);
    reference::from_engine(p, reference::promotion_choices(&start))
}

#[test]
fn reserve_perft_suite_covers_the_three_conditions() {
    let cases = perft_cases();
    assert!(cases.len() >= 10);
    for (w, b) in [(true, true), (true, false), (false, true)] {
        assert!(cases.iter().any(|c| c.rule == ReserveRule { white: w, black: b }), "{w} {b}");
    }
    assert!(cases.iter().any(|c| !c.puts));
}

#[test]
fn reserve_perft_engine_counts() {
    for c in perft_cases() {
        let p = perft_position(&c);
        for (i, &want) in c.counts.iter().enumerate() {
            let d = i as u32 + 1;
            assert_eq!(p.perft(d), want, "{} depth {d}", c.fen);
            if want < 100_000 {
                assert_eq!(p.perft_full(d), want, "{} depth {d}, every leaf played", c.fen);
            }
        }
    }
}

/// Recounts with the reference generator every count up to `limit` leaves.
fn reference_recount(limit: u64) -> usize {
    let mut n = 0;
    for c in perft_cases() {
        let r = reference_board(&perft_position(&c));
        for (i, &want) in c.counts.iter().enumerate() {
            if want <= limit {
                assert_eq!(r.perft(i as u32 + 1), want, "{} depth {} (reference)", c.fen, i + 1);
                n += 1;
            }
        }
    }
    n
}

#[test]
fn reserve_perft_reference_quick() {
    assert!(reference_recount(300_000) >= 25);
}

#[test]
#[ignore = "slow: the reference generator recounts every perft_reserve.txt count (minutes)"]
fn reserve_perft_reference_every_count() {
    let total: usize = perft_cases().iter().map(|c| c.counts.len()).sum();
    assert_eq!(reference_recount(u64::MAX), total);
}

// ---------------------------------------------------------------------------------------------
// Reserves as part of the position

#[test]
fn reserves_are_part_of_fen_and_key() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1";
    let p = pos(fen, BOTH);
    assert_eq!(p.to_fen(), fen);
    assert_eq!(p.reserve_count(Color::White, Kind::Queen), 1);
    assert_eq!(p.reserve_count(Color::Black, Kind::Pawn), 1);
    // The key tells reserves apart, and which side holds what.
    let keys: Vec<u64> =
        ["4k3/8/8/8/8/8/8/4K3[Qp] w", "4k3/8/8/8/8/8/8/4K3[Q] w", "4k3/8/8/8/8/8/8/4K3[qP] w", "4k3/8/8/8/8/8/8/4K3[QQp] w"]
            .iter()
            .map(|f| pos(f, BOTH).hash())
            .collect();
    for i in 0..keys.len() {
        for j in 0..i {
            assert_ne!(keys[i], keys[j], "{i} {j}");
        }
    }
    // Into reserve and back: the same position (after a move of each side), the same key.
    let p = pos("4k3/8/8/8/3N4/8/8/4K3[p] w - - 0 1", BOTH);
    let d4 = parse_sq("d4").unwrap();
    let q = p.play(Move::Put { from: d4 });
    assert_eq!(q.to_fen(), "4k3/8/8/8/8/8/8/4K3[Np] b - - 1 1");
    let q = q.play(Move::Normal { from: parse_sq("e8").unwrap(), to: parse_sq("d8").unwrap(), promotion: None });
    let q = q.play(Move::Drop { kind: Kind::Knight, to: d4, promotion: None });
    let q = q.play(Move::Normal { from: parse_sq("d8").unwrap(), to: parse_sq("e8").unwrap(), promotion: None });
    assert!(q == p);
    assert_eq!(q.hash(), p.hash());
    assert_eq!(q.hash(), q.compute_hash());
}

#[test]
fn a_rook_sent_to_reserve_loses_its_castling_right_for_good() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ReserveRule { white: true, black: false });
    let h1 = parse_sq("h1").unwrap();
    let q = p.play(Move::Put { from: h1 });
    assert_eq!(q.to_fen(), "r3k2r/8/8/8/8/8/8/R3K3[R] b Qkq - 1 1");
    // Dropped back on h1, it never castles.
    let q = q.play(Move::Normal { from: parse_sq("a8").unwrap(), to: parse_sq("b8").unwrap(), promotion: None });
    let q = q.play(Move::Drop { kind: Kind::Rook, to: h1, promotion: None });
    assert_eq!(q.castling() & feerie::position::castle::WK, 0);
    let q = q.play(Move::Normal { from: parse_sq("b8").unwrap(), to: parse_sq("a8").unwrap(), promotion: None });
    assert!(!q.legal_moves().iter().any(|m| matches!(m, Move::Castle { rook, .. } if *rook == h1)));
    assert!(q.legal_moves().iter().any(|m| matches!(m, Move::Castle { rook, .. } if *rook == Square(0))));
}

#[test]
fn mate_and_stalemate_count_every_move_kind() {
    use feerie::rules::{Game, Goal};
    // Ra4+ against a bare king: mate without a reserve, not mate with a pawn to interpose.
    let after = |fen: &str, rule| {
        let p = pos(fen, rule);
        p.play(Move::Normal { from: parse_sq("c4").unwrap(), to: parse_sq("a4").unwrap(), promotion: None })
    };
    let black = ReserveRule { white: false, black: true };
    assert!(after("k7/2K5/8/8/2R5/8/8/8 w - - 0 1", black).goal_reached(Goal::Mate));
    let q = after("k7/2K5/8/8/2R5/8/8/8[p] w - - 0 1", black);
    assert!(q.in_check() && !q.goal_reached(Goal::Mate));
    assert_eq!(q.legal_moves().len(), 3, "Pa5↓, Pa6↓, Pa7↓");
    // A king with no square is not stalemated while it can drop, or put a piece into reserve.
    let k = "k7/2K5/1Q6/8/8/8/8/8";
    assert!(pos(&format!("{k} b - - 0 1"), black).goal_reached(Goal::Stalemate));
    assert!(!pos(&format!("{k}[r] b - - 0 1"), black).goal_reached(Goal::Stalemate));
    let with_pawn = pos("k7/2K5/1Q6/8/8/8/7p/8 b - - 0 1", black);
    assert!(with_pawn.legal_moves().iter().any(|m| matches!(m, Move::Put { .. })));
    // Under WhiteReserve Black's reserve gives it nothing.
    assert!(pos(&format!("{k}[r] b - - 0 1"), ReserveRule { white: true, black: false }).goal_reached(Goal::Stalemate));
}

#[test]
fn twins_add_and_remove_reserve_pieces() {
    let base = "stipulation: 'h#2'\nalgebraic: {white: [Ke1, Rh1], black: [Ke8]}\noptions: [Reserve]\nreserve: {white: [S], black: [P]}\n";
    let Loaded::Ready(p) = load_str(
        &format!("{base}twins: {{b: Add white reserve S P, c: Remove black reserve P, d: Continued Add black reserve Q Q}}\n"),
        "t.yaml",
    )
    .remove(0) else {
        panic!("loads")
    };
    let fens: Vec<(String, String)> = p.variants().unwrap().iter().map(|v| (v.description.clone(), v.position.to_fen())).collect();
    assert_eq!(
        fens,
        [
            ("diagram".to_string(), "4k3/8/8/8/8/8/8/4K2R[Np] b K - 0 1".to_string()),
            ("Add white reserve S P".to_string(), "4k3/8/8/8/8/8/8/4K2R[NNPp] b K - 0 1".to_string()),
            ("Remove black reserve P".to_string(), "4k3/8/8/8/8/8/8/4K2R[N] b K - 0 1".to_string()),
            ("Continued Add black reserve Q Q".to_string(), "4k3/8/8/8/8/8/8/4K2R[Nqq] b K - 0 1".to_string()),
        ]
    );
    // Errors, with the twin named: a piece the reserve does not hold, a reserve the condition
    // does not allow.
    for (twin, message) in [
        ("Remove white reserve Q", "twin b (Remove white reserve Q): the white reserve holds no Q"),
        (
            "Condition WhiteReserve",
            "twin b (Condition WhiteReserve): the black reserve holds pieces, but the condition WhiteReserve does not let black use it",
        ),
        ("Add black reserve K", "a king cannot be in reserve"),
    ] {
        let loaded = load_str(&format!("{base}twins: {{b: {twin}}}\n"), "t.yaml").remove(0);
        let err = match &loaded {
            Loaded::Ready(p) => p.variants().err().map(|e| e.to_string()),
            Loaded::Invalid(e) => Some(e.to_string()),
            Loaded::Unsupported { reason, .. } => Some(reason.clone()),
        };
        assert!(err.as_deref().is_some_and(|e| e.contains(message)), "{twin}: {err:?}");
    }
}
