//! Broken problem files: each document holds one kind of mistake, marked in the file by a
//! comment `# <-- N` on the line where the fault of document N lies. Every fault must be
//! reported with the file, the document, the problem's first line, that line, and a message in
//! plain words; the other documents of the file still load.

use feerie::problem::{Loaded, load_path};
use std::path::Path;

/// (file, document, expected message part).
const EXPECTED: &[(&str, usize, &str)] = &[
    ("position.yaml", 1, "square 'i9' is off the board"),
    ("position.yaml", 2, "two pieces on e4"),
    ("position.yaml", 3, "White has no king"),
    ("position.yaml", 4, "Black has more than one king"),
    ("position.yaml", 5, "white pawn on c1, its first or last rank"),
    ("position.yaml", 6, "white pawn on h8, its first or last rank"),
    ("position.yaml", 7, "the side not to move (black) is in check: white makes the first move in #2"),
    ("position.yaml", 8, "unknown piece code 'X' in 'Xd4'"),
    ("position.yaml", 9, "'K' has no square"),
    ("position.yaml", 11, "unknown piece attribute 'Shiny'"),
    ("position.yaml", 12, "both 'algebraic' and 'fen' are given"),
    ("position.yaml", 13, "the position is missing"),
    ("position.yaml", 14, "bad FEN: rank 1 has 7 squares instead of 8"),
    ("position.yaml", 15, "castling right 'K' without king and rook"),
    ("position.yaml", 16, "'algebraic' has neither a 'white' nor a 'black' list (found: whte, blak)"),
    ("position.yaml", 17, "'b7' has no piece code"),
    ("stipulation.yaml", 1, "the field 'stipulation' is missing"),
    ("stipulation.yaml", 2, "the stipulation is empty: quote it"),
    ("stipulation.yaml", 3, "stipulation 'h#' has no length"),
    ("stipulation.yaml", 4, "unknown goal 'q'"),
    ("stipulation.yaml", 5, "a length n.5 exists only in help play"),
    ("stipulation.yaml", 6, "intended-solutions 'many' is not a number"),
    ("stipulation.yaml", 7, "unknown rules 'shogi'"),
    ("stipulation.yaml", 8, "the number of moves is 0"),
    ("stipulation.yaml", 9, "the stipulation must be a text"),
    ("options.yaml", 1, "unknown option or condition 'Varaitions'"),
    ("options.yaml", 2, "option 'Defence' needs a number"),
    ("options.yaml", 3, "g7-g3 is not a pawn's double step"),
    ("options.yaml", 4, "there is no black pawn on g5"),
    ("options.yaml", 5, "option 'NoCastling' needs the squares"),
    ("options.yaml", 6, "White has pieces in reserve, but no Réserve condition is set"),
    ("options.yaml", 7, "a king cannot be in reserve"),
    ("options.yaml", 8, "Black has pieces in reserve, but the condition WhiteReserve lets only white use a reserve"),
    ("options.yaml", 9, "unknown piece code 'X' in the reserve"),
    ("options.yaml", 10, "Black has just moved, but black also makes the first move in h#2"),
    ("options.yaml", 11, "two different Réserve conditions"),
    ("options.yaml", 12, "'options' must be a list"),
    ("twins.yaml", 1, "twin b: unknown twin command 'Mvoe'"),
    ("twins.yaml", 2, "twin b (Move c4 f3): no piece on c4"),
    ("twins.yaml", 3, "twin c (Move c2 c1): white pawn on c1, its first or last rank"),
    ("twins.yaml", 4, "twin b: 'Rotate' takes 90, 180 or 270, found '45'"),
    ("twins.yaml", 5, "twin a: 'Continued' needs a twin before it"),
    ("twins.yaml", 6, "twin b: square 'j3' is off the board"),
    ("twins.yaml", 7, "twin b (Shift a1 b1): the piece on h4 would leave the board"),
    ("twins.yaml", 8, "'Continued' must come first"),
    ("twins.yaml", 9, "'Add' needs a colour (white or black) first, found 'green'"),
    ("twins.yaml", 10, "twin b (Stipulation s#2 Move h1 h8): the side not to move (black) is in check"),
    ("twins.yaml", 11, "'Stipulation' is missing its arguments"),
    ("yaml.yaml", 1, "YAML syntax error: did not find expected ',' or ']'"),
    ("yaml.yaml", 2, "a problem must be a mapping of fields"),
    ("yaml.yaml", 3, "YAML syntax error: duplicate entry with key \"stipulation\""),
    ("yaml.yaml", 5, "found a text"),
    ("variants.yaml", 1, "the red advisor on a2 is outside the points of its palace"),
    ("variants.yaml", 2, "the side not to move (black) is in check"),
    ("variants.yaml", 3, "the red elephant on c5 has crossed the river"),
    ("variants.yaml", 4, "the red soldier on a2 stands behind its starting rank"),
    ("variants.yaml", 5, "the piece on b1 stands on a light square"),
    ("variants.yaml", 6, "Black has no king"),
    ("variants.yaml", 7, "unknown Xiangqi piece code 'Q'"),
    ("variants.yaml", 8, "bad Xiangqi FEN: 9 ranks, 10 expected"),
    ("variants.yaml", 9, "the red advisor on d1 is outside"),
    ("variants.yaml", 10, "piece 'Q' in 'Qe1' does not exist in Cheskers"),
    ("variants.yaml", 11, "white pawn on b8, its last rank"),
    ("variants.yaml", 12, "the side not to move (black) is in check"),
    ("variants.yaml", 14, "in Xiangqi a side left without a legal move has lost, so there is no stalemate goal"),
    ("variants.yaml", 15, "twin b: point 'j2' is off the Xiangqi board (a0–i9)"),
    ("variants.yaml", 16, "Échecs Réserve is a chess condition: it does not apply to Xiangqi"),
    ("variants.yaml", 17, "twin b: the twin command 'Rotate' does not apply to Xiangqi"),
    ("variants.yaml", 18, "'=2': the only goal in Cheskers is '#', White wins"),
    ("variants.yaml", 19, "Échecs Réserve is a chess condition: it does not apply to Cheskers"),
    ("variants.yaml", 20, "twin b (Move a3 a4): the piece on a4 stands on a light square"),
    ("variants.yaml", 21, "twin b (Add white Qe3): the white piece 'Q' does not exist in Cheskers"),
    ("variants.yaml", 22, "twin b (Stipulation h=1): 'h=1': the only goal in Cheskers is '#'"),
    ("variants.yaml", 24, "bad Cheskers FEN: 'X' is no Cheskers piece (K B C P)"),
];

/// Documents of the broken files that are not broken: (file, document, what they are).
const NOT_BROKEN: &[(&str, usize, &str)] = &[
    ("position.yaml", 10, "ready"),
    ("stipulation.yaml", 10, "unsupported"),
    ("options.yaml", 13, "unsupported"),
    ("yaml.yaml", 4, "ready"),
    ("variants.yaml", 13, "ready"),
    ("variants.yaml", 23, "ready"),
];

/// The line (from 1) of the marker `# <-- n` in a file.
fn marker_line(text: &str, n: usize) -> usize {
    let m = format!("# <-- {n}");
    text.lines()
        .position(|l| l.trim_end().ends_with(&m) && !l.trim_end().ends_with(&format!("1{m}")))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no marker {m}"))
}

#[test]
fn every_broken_document_is_reported_where_it_is_broken() {
    let dir = Path::new("tests/data/broken");
    let mut files: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    files.dedup();
    let mut kinds = 0;
    for f in files {
        let path = dir.join(f);
        let text = std::fs::read_to_string(&path).unwrap();
        let docs = load_path(&path).unwrap();
        for d in &docs {
            let n = d.document();
            if let Some((_, _, what)) = NOT_BROKEN.iter().find(|e| e.0 == f && e.1 == n) {
                let ok = match d {
                    Loaded::Ready(_) => *what == "ready",
                    Loaded::Unsupported { .. } => *what == "unsupported",
                    Loaded::Invalid(_) => false,
                };
                assert!(ok, "{f}: document {n} should be {what}: {d:?}");
                continue;
            }
            let (_, _, msg) =
                EXPECTED.iter().find(|e| e.0 == f && e.1 == n).unwrap_or_else(|| panic!("{f}: document {n} not in the table"));
            let Loaded::Invalid(e) = d else { panic!("{f}: document {n} should be invalid: {d:?}") };
            kinds += 1;
            let shown = e.to_string();
            assert!(e.message.contains(msg), "{f}: document {n}: '{}' lacks '{msg}'", e.message);
            let prefix = format!("tests/data/broken/{f}: document {n} (\"");
            assert!(shown.starts_with(&prefix), "{shown}");
            assert_eq!(e.line, marker_line(&text, n), "{shown}");
            assert!(shown.contains(&format!(", line {}, column {}: ", e.line, e.column)), "{shown}");
            assert!(!e.first_line.is_empty() && !e.first_line.contains('\n'), "{shown}");
            // One line per fault.
            assert!(!shown.contains('\n'), "{shown}");
        }
    }
    assert_eq!(kinds, EXPECTED.len());
    assert!(kinds >= 25);
}

#[test]
fn columns_point_at_the_fault() {
    let docs = load_path(Path::new("tests/data/broken/position.yaml")).unwrap();
    let Loaded::Invalid(e) = &docs[0] else { panic!() };
    // `  white: [Kb6, Ri9, Sc5]`: column of `Ri9`.
    assert_eq!(e.column, 16);
    assert_eq!(e.first_line, "Loyd, Samuel — #3");
    assert_eq!(
        e.to_string(),
        "tests/data/broken/position.yaml: document 1 (\"Loyd, Samuel — #3\"), line 7, column 16: square 'i9' is off the board"
    );
}

#[test]
fn show_reports_each_fault_on_one_line_and_exits_2() {
    let exe = env!("CARGO_BIN_EXE_feerie");
    let out =
        std::process::Command::new(exe).args(["show", "tests/data/broken/twins.yaml", "tests/data/broken/options.yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    let faults: Vec<&str> = text.lines().filter(|l| l.starts_with("tests/data/broken/") && l.contains(", column ")).collect();
    assert_eq!(faults.len(), 11 + 12, "{text}");
    // The unsupported Volage document is reported as such.
    assert!(text.contains("unsupported: condition 'Volage' is not supported yet"));
    // A file that does not exist: exit 2 with one line.
    let out = std::process::Command::new(exe).args(["show", "tests/data/broken/none.yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("cannot read the file"));
}

#[test]
fn yaml_syntax_errors_count_lines_as_the_file_does() {
    // The YAML parser also breaks lines at a lone `\r`, U+0085, U+2028 and U+2029; the
    // reported line must still be one of the file's lines (split on `\n`), and the right one.
    // Found by the yaml_loader fuzz target: an unterminated quoted text after a lone `\r`
    // was reported one line past the end of the file.
    for (text, line, column) in [
        ("stipulation: '#2'\ncomments:\n- 'abc\rdef\n", 4, 1),
        ("stipulation: '#2'\ncomments:\n- \"abc\u{2028}def\u{2029}ghi\u{85}jkl", 3, 19),
        ("stipulation: '#2'\r\ncomments:\r\n- \"abc\rdef\r\n", 4, 1),
        ("stipulation: '#2'\rcomments: [a\rb: c\n", 1, 33),
    ] {
        let docs = feerie::problem::load_str(text, "cr.yaml");
        let Loaded::Invalid(e) = &docs[0] else { panic!("{text:?}: {docs:?}") };
        assert!(e.message.starts_with("YAML syntax error"), "{e}");
        assert!(e.line <= text.split('\n').count(), "{text:?}: {e}");
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
    }
}

#[test]
fn huge_move_numbers_in_a_stated_solution_are_reported_not_expanded() {
    use feerie::problem::stipulation::Stipulation;
    use feerie::problem::{SolutionHint, StatedSolution};
    // Found by the yaml_loader fuzz target: move number 61004331 after move 3 made the reader
    // fill the gap with 122 million passes (out of memory). No stipulation is longer than 999
    // moves, so a larger number is reported as unreadable.
    let hint = SolutionHint { stipulation: Stipulation::parse("s#3").ok(), ..Default::default() };
    let text = "1.e7-e8=B ! threat:\n  2.b7*c8=Q threat:\n    3.Sa1-b3\n      3...Sg8-f6 #\n      000061004331...Rg7-f7 #\n";
    let s = StatedSolution::parse(text, &hint);
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert!(s.problems[0].contains("move number '000061004331' is too large (at most 999)"), "{:?}", s.problems);
    assert_eq!(s.twins[0].keys, vec!["e7-e8=B"]);
    assert!(s.twins[0].lines.iter().all(|l| l.len() <= 6), "{:?}", s.twins[0].lines);
    // 999 is still a move number, 1000 is not.
    let s = StatedSolution::parse("1.e7-e8=B !\n  999.Sa1-b3", &hint);
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert_eq!(s.twins[0].lines[0].len(), 2 * 998 + 1, "{:?}", &s.twins[0].lines[0][..3]);
    let s = StatedSolution::parse("1.e7-e8=B !\n  1000.Sa1-b3", &hint);
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
}

/// A stipulation feerie cannot play yet leaves the side to move unknown: a diagram with a
/// side in check is then `unsupported` by the stipulation, not `invalid`; a proof game's
/// diagram is a position to reach, with the side to move it has there (Black after `dia8.5`,
/// in check from White's last move); with a stipulation feerie plays from the diagram it is
/// `invalid`, named.
#[test]
fn an_unsupported_stipulation_does_not_make_a_checked_diagram_invalid() {
    use feerie::problem::{Loaded, load_str};
    let doc = |stip: &str| format!("stipulation: '{stip}'\nalgebraic: {{white: [Ka6, Sc7], black: [Ka8]}}\n");
    match &load_str(&doc("2->h#3"), "d.yaml")[0] {
        Loaded::Unsupported { reason, .. } => assert!(reason.contains("2->h#3"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match &load_str(&doc("dia8.5"), "d.yaml")[0] {
        Loaded::Ready(p) => assert_eq!(p.stipulation.to_string(), "dia8.5"),
        other => panic!("{other:?}"),
    }
    match &load_str(&doc("#1"), "d.yaml")[0] {
        Loaded::Invalid(e) => assert!(e.message.contains("is in check"), "{e}"),
        other => panic!("{other:?}"),
    }
}
