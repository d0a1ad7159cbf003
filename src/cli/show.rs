//! `feerie show FILE…`: each problem as a diagram with its reserves, stipulation, options,
//! authors and source, and the verdict of validation.
//!
//! Exit code 0 when every document is valid input (problems that use something not supported
//! yet are reported as such), 2 when a document is invalid or a file cannot be read.

use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::problem::options::reserve_name;
use crate::problem::{Loaded, Meta, Problem, load_path};
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `feerie show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Problem files (`.yaml`, `.yml`, `.olv`) or folders holding them.
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

/// A Unicode diagram of a chess position, White at the bottom.
pub fn diagram(p: &Position) -> String {
    let mut s = String::new();
    s.push_str("   ┌─────────────────┐\n");
    for rank in (0..8u8).rev() {
        let _ = write!(s, " {} │ ", rank + 1);
        for file in 0..8u8 {
            match p.piece_at(Square(rank * 8 + file)) {
                Some(pc) => s.push_str(&piece_cell(pc)),
                None => s.push_str("· "),
            }
        }
        s.push_str("│\n");
    }
    s.push_str("   └─────────────────┘\n");
    s.push_str("     a b c d e f g h\n");
    s
}

fn piece_list(p: &Position, c: Color) -> String {
    let mut v = Vec::new();
    for &k in Kind::ALL {
        for i in 0..64u8 {
            if p.piece_at(Square(i)) == Some(Piece::new(c, k)) {
                v.push(format!("{}{}", k.code(), crate::position::sq_name(Square(i))));
            }
        }
    }
    format!("{} ({})", v.join(" "), v.len())
}

fn reserve_text(p: &Position, c: Color) -> String {
    let mut v = Vec::new();
    for &k in Kind::ALL {
        for _ in 0..p.reserve_count(c, k) {
            v.push(k.code());
        }
    }
    if v.is_empty() { "—".into() } else { v.join(" ") }
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
    out.push_str(&diagram(&p.position));
    let _ = writeln!(out, "  White: {}", piece_list(&p.position, Color::White));
    let _ = writeln!(out, "  Black: {}", piece_list(&p.position, Color::Black));
    if let Some(r) = reserve_name(p.position.reserve_rule()) {
        let _ = writeln!(
            out,
            "  Reserves ({r}): white {}, black {}",
            reserve_text(&p.position, Color::White),
            reserve_text(&p.position, Color::Black)
        );
    }
    let _ = write!(out, "  Stipulation: {}", p.stipulation);
    let kw = p.options.keywords();
    if !kw.is_empty() {
        let _ = write!(out, "   Options: {}", kw.join(", "));
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "  {} to move; FEN {}",
        if p.position.side_to_move() == Color::White { "White" } else { "Black" },
        p.position.to_fen()
    );
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
                .map(|rd| {
                    rd.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|f| f.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "yaml" | "yml" | "olv")))
                        .collect()
                })
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
            Loaded::Unsupported { file, document, line, first_line, reason, meta, stipulation_text, .. } => {
                let _ = writeln!(out, "{file}, document {document} (line {line}): {first_line}");
                meta_lines(meta, out);
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
