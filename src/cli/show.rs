//! `feerie show FILE…`: each problem as a diagram with its reserves, stipulation, options,
//! authors and source, and the verdict of validation.
//!
//! Exit code 0 when every document is valid input (problems that use something not supported
//! yet are reported as such), 2 when a document is invalid or a file cannot be read.

use crate::piece::{Color, Kind, Piece};
use crate::problem::options::reserve_name;
use crate::problem::{Diagram, Figure, Loaded, Meta, Problem, Rules, load_path};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `feerie show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Problem files (`.yaml`, `.yml`, `.olv`, Popeye's `.inp`) or folders holding them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// The Unicode symbol of an orthodox piece, or its Popeye code for a fairy one (upper case
/// White, lower case Black), two columns wide.
pub fn piece_cell(p: Piece) -> String {
    let sym = match (p.color, p.kind) {
        (Color::White, Kind::King) => "♔",
        (Color::White, Kind::Queen) => "♕",
        (Color::White, Kind::Rook) => "♖",
        (Color::White, Kind::Bishop) => "♗",
        (Color::White, Kind::Knight) => "♘",
        (Color::White, Kind::Pawn) => "♙",
        (Color::Black, Kind::King) => "♚",
        (Color::Black, Kind::Queen) => "♛",
        (Color::Black, Kind::Rook) => "♜",
        (Color::Black, Kind::Bishop) => "♝",
        (Color::Black, Kind::Knight) => "♞",
        (Color::Black, Kind::Pawn) => "♟",
        (c, k) => {
            let code = if c == Color::White { k.code().to_string() } else { k.code().to_ascii_lowercase() };
            return format!("{code:<2}");
        }
    };
    format!("{sym} ")
}

/// A text diagram, the bottom side (White, Red in Xiangqi) at the bottom: Unicode symbols on
/// the 8×8 board (Cheskers: the light squares blank); in Xiangqi the 9×10 points with
/// the piece letters (upper case Red), the palaces' empty points as `+` and the river.
pub fn diagram(d: &Diagram) -> String {
    let (files, ranks) = (d.files(), d.ranks());
    let at = |file: u8, rank: u8| d.pieces.iter().find(|p| p.file == file && p.rank == rank);
    let width = 2 * files as usize + 1;
    let mut s = String::new();
    let _ = writeln!(s, "   ┌{}┐", "─".repeat(width));
    for rank in (0..ranks).rev() {
        if d.rules == Rules::Xiangqi && rank == 4 {
            let river = " river ";
            let side = (width - river.len()) / 2;
            let _ = writeln!(s, "   │{}{river}{}│", "~".repeat(side), "~".repeat(width - river.len() - side));
        }
        let _ = write!(s, "{:>2} │ ", rank as u32 + d.first_rank() as u32);
        for file in 0..files {
            let neutral = d.neutral.iter().find(|p| p.file == file && p.rank == rank);
            match at(file, rank) {
                Some(p) => s.push_str(&figure_cell(p.color, p.figure)),
                None if neutral.is_some() => {
                    let code = neutral.map_or(String::new(), |p| piece_code(p.figure));
                    s.push_str(&format!("={}", code.chars().next().unwrap_or('?')));
                }
                None if d.holes.contains(&(file, rank)) => s.push_str("# "),
                None if d.rules == Rules::Xiangqi && in_palace(file, rank) => s.push_str("+ "),
                None if d.rules == Rules::Cheskers && (file + rank) % 2 == 1 => s.push_str("  "),
                None => s.push_str("· "),
            }
        }
        s.push_str("│\n");
    }
    let _ = writeln!(s, "   └{}┘", "─".repeat(width));
    let letters: Vec<String> = (0..files).map(|f| ((b'a' + f) as char).to_string()).collect();
    let _ = writeln!(s, "     {}", letters.join(" "));
    s
}

/// Whether a Xiangqi point is in a palace (files d–f, ranks 0–2 and 7–9).
fn in_palace(file: u8, rank: u8) -> bool {
    (3..=5).contains(&file) && (rank <= 2 || rank >= 7)
}

/// One cell of a text diagram: a chess piece as [`piece_cell`], a Xiangqi piece as its letter
/// (upper case Red, lower case Black).
fn figure_cell(color: Color, figure: Figure) -> String {
    match figure {
        Figure::Chess(kind) => piece_cell(Piece::new(color, kind)),
        Figure::Xiangqi(c) => format!("{} ", if color == Color::White { c } else { c.to_ascii_lowercase() }),
    }
}

/// A piece's code (`LI`, `K`).
fn piece_code(f: Figure) -> String {
    match f {
        Figure::Chess(k) => k.code().to_string(),
        Figure::Xiangqi(l) => l.to_string(),
    }
}

/// The pieces of one side in a diagram: codes and square names, kind by kind.
fn piece_list(d: &Diagram, c: Color) -> String {
    let order = |f: &Figure| match f {
        Figure::Chess(k) => Kind::ALL.iter().position(|x| x == k).unwrap_or(usize::MAX),
        Figure::Xiangqi(l) => "KABNRCP".find(*l).unwrap_or(usize::MAX),
    };
    let mut ps: Vec<_> = d.pieces.iter().filter(|p| p.color == c).collect();
    ps.sort_by_key(|p| (order(&p.figure), p.rank, p.file));
    let v: Vec<String> = ps
        .iter()
        .map(|p| {
            let code = match p.figure {
                Figure::Chess(k) => k.code().to_string(),
                Figure::Xiangqi(l) => l.to_string(),
            };
            format!("{code}{}", d.square_name(p.file, p.rank))
        })
        .collect();
    format!("{} ({})", v.join(" "), v.len())
}

fn reserve_text(d: &Diagram, c: Color) -> String {
    let v: Vec<&str> = d.reserves[c.index()].iter().map(|k| k.code()).collect();
    if v.is_empty() { "—".into() } else { v.join(" ") }
}

/// The names of the two sides of a rule system: White and Black, Red and Black in Xiangqi.
fn side_names(rules: Rules) -> [&'static str; 2] {
    if rules == Rules::Xiangqi { ["Red", "Black"] } else { ["White", "Black"] }
}

fn meta_lines(meta: &Meta, out: &mut String) {
    if !meta.authors.is_empty() {
        let _ = writeln!(out, "  Authors: {}", crate::problem::join_authors(&meta.authors));
    }
    if let Some(s) = &meta.source {
        let _ = writeln!(out, "  Source: {s}");
    }
    if let Some(a) = &meta.award {
        let _ = writeln!(out, "  Award: {a}");
    }
    if !meta.keywords.is_empty() {
        let _ = writeln!(out, "  Keywords: {}", meta.keywords.join(", "));
    }
}

/// The text `feerie show` prints for a valid problem.
pub fn show_problem(p: &Problem) -> String {
    let mut out = String::new();
    meta_lines(&p.meta, &mut out);
    let d = p.position.diagram();
    let names = side_names(d.rules);
    out.push_str(&diagram(&d));
    let _ = writeln!(out, "  {}: {}", names[0], piece_list(&d, Color::White));
    let _ = writeln!(out, "  {}: {}", names[1], piece_list(&d, Color::Black));
    if !d.neutral.is_empty() {
        let v: Vec<String> = d.neutral.iter().map(|x| format!("{}{}", piece_code(x.figure), d.square_name(x.file, x.rank))).collect();
        let _ = writeln!(out, "  Neutral (= on the board): {} ({})", v.join(" "), v.len());
    }
    if !d.holes.is_empty() {
        let v: Vec<String> = d.holes.iter().map(|&(f, r)| d.square_name(f, r)).collect();
        let _ = writeln!(out, "  Holes (# on the board): {}", v.join(" "));
    }
    if let Some(r) = reserve_name(p.options.reserve) {
        let _ = writeln!(out, "  Reserves ({r}): white {}, black {}", reserve_text(&d, Color::White), reserve_text(&d, Color::Black));
    }
    let _ = write!(out, "  Stipulation: {}", p.stipulation);
    let kw = p.options.keywords();
    if !kw.is_empty() {
        let _ = write!(out, "   Options: {}", kw.join(", "));
    }
    out.push('\n');
    let _ = writeln!(out, "  {} to move; FEN {}", names[p.position.side_to_move().index()], p.position.to_fen());
    if let Some(n) = p.intended_solutions {
        let _ = writeln!(out, "  Intended solutions: {n}");
    }
    for t in &p.twins {
        let _ = writeln!(out, "  Twin {}) {}", t.label, t.description());
    }
    if let Some(s) = &p.stated
        && !s.problems.is_empty()
    {
        let _ = writeln!(out, "  Stated solution not fully read: {}", s.problems.join("; "));
    }
    out
}

/// The files to read: the files given, and the problem files in the folders given.
fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|f| crate::problem::is_problem_path(f)).collect())
                .unwrap_or_default();
            found.sort();
            if found.is_empty() {
                out.push(p.clone());
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Shows every document of one file; returns whether all were valid input.
pub fn show_file(path: &Path, out: &mut String) -> bool {
    let docs = match load_path(path) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(out, "{e}");
            return false;
        }
    };
    if docs.is_empty() {
        let _ = writeln!(out, "{}: no problem in this file", path.display());
        return true;
    }
    let mut ok = true;
    for d in &docs {
        match d {
            Loaded::Ready(p) => {
                let _ = writeln!(out, "{}, document {} (line {}): {}", p.file, p.document, p.line, p.first_line);
                out.push_str(&show_problem(p));
                match p.variants() {
                    Ok(_) => out.push_str("  valid\n"),
                    Err(e) => {
                        ok = false;
                        let _ = writeln!(out, "{e}");
                    }
                }
            }
            Loaded::Unsupported { file, document, line, first_line, reason, meta, stipulation_text, diagram: d, .. } => {
                let _ = writeln!(out, "{file}, document {document} (line {line}): {first_line}");
                meta_lines(meta, out);
                if let Some(d) = d {
                    out.push_str(&diagram(d));
                }
                let _ = writeln!(out, "  Stipulation: {stipulation_text}");
                let _ = writeln!(out, "  unsupported: {reason}");
            }
            Loaded::Invalid(e) => {
                ok = false;
                let _ = writeln!(out, "{e}");
            }
        }
        out.push('\n');
    }
    ok
}

/// Runs `feerie show`.
pub fn run(a: &ShowArgs) -> ExitCode {
    let mut all_ok = true;
    for f in expand(&a.files) {
        let mut out = String::new();
        all_ok &= show_file(&f, &mut out);
        print!("{out}");
    }
    if all_ok { ExitCode::SUCCESS } else { ExitCode::from(2) }
}
