//! A self-contained HTML report: one page, inline CSS, inline SVG diagrams, no script and no
//! external asset.
//!
//! The page starts with a summary (a count per verdict, then one row per problem and twin with a
//! link to it), followed by one section per document: authors, source, award, keywords; for each
//! twin a diagram with the reserves beside it, the stipulation, the options, the verdict in colour
//! and the full solution as `feerie solve` prints it; then the stated solution. Everything taken
//! from the problem files is HTML-escaped.
//!
//! Diagrams: chess 8×8 with the orthodox pieces drawn as Unicode glyphs and fairy pieces as their
//! Popeye codes in a circle; Xiangqi 9×10 with the river and the palaces' diagonals, the pieces
//! on the points; Cheskers 8×8 where only the dark squares are coloured.
//!
//! ```
//! use feerie::report::html::{Report, document_section, escape};
//! use feerie::problem::{load_str, Loaded};
//! use feerie::piece::Lang;
//! use feerie::verify::record_unsolved;
//! assert_eq!(escape("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
//! let docs = load_str("stipulation: '#2'\nalgebraic: {white: [Kb6, Ki9], black: [Ka8]}\n", "x.yaml");
//! let rec = record_unsolved(&docs[0]).unwrap();
//! let mut report = Report::new(Lang::En);
//! report.push(document_section(0, &docs[0], &[rec], Lang::En));
//! let page = report.render("Test");
//! assert!(page.starts_with("<!DOCTYPE html>") && page.contains("class=\"verdict v-invalid\""));
//! assert!(page.contains("square &#39;i9&#39; is off the board"));
//! ```

use crate::piece::{Color, Kind, Lang};
use crate::problem::{Diagram, DiagramPiece, Figure, Loaded, Meta, Problem, Rules};
use crate::record::VerdictKind;
use crate::report::Record;
use crate::report::text::record_text;
use std::fmt::Write as _;

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The words of the report in one language.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// Default page title.
    pub title: &'static str,
    /// "Summary".
    pub summary: &'static str,
    /// "Verdict".
    pub verdict: &'static str,
    /// "Count".
    pub count: &'static str,
    /// "total".
    pub total: &'static str,
    /// "Problem".
    pub problem: &'static str,
    /// "File".
    pub file: &'static str,
    /// "document".
    pub document: &'static str,
    /// "Twin".
    pub twin: &'static str,
    /// "Stipulation".
    pub stipulation: &'static str,
    /// "Options".
    pub options: &'static str,
    /// "Authors".
    pub authors: &'static str,
    /// "Source".
    pub source: &'static str,
    /// "Award".
    pub award: &'static str,
    /// "Keywords".
    pub keywords: &'static str,
    /// "Solution".
    pub solution: &'static str,
    /// "Stated solution".
    pub stated: &'static str,
    /// "No stated solution".
    pub no_stated: &'static str,
    /// "Neutral pieces".
    pub neutral: &'static str,
    /// "Holes".
    pub holes: &'static str,
    /// "Fairy pieces" (the legend).
    pub legend: &'static str,
    /// "Reserves".
    pub reserves: &'static str,
    /// "White".
    pub white: &'static str,
    /// "Black".
    pub black: &'static str,
    /// "Red" (Xiangqi).
    pub red: &'static str,
    /// "Reason".
    pub reason: &'static str,
    /// "Unreadable".
    pub unreadable: &'static str,
    /// "Not solved".
    pub not_solved: &'static str,
}

/// The words for `lang`.
pub fn words(lang: Lang) -> Words {
    match lang {
        Lang::En => Words {
            title: "feerie report",
            summary: "Summary",
            verdict: "Verdict",
            count: "Count",
            total: "total",
            problem: "Problem",
            file: "File",
            document: "document",
            twin: "Twin",
            stipulation: "Stipulation",
            options: "Options",
            authors: "Authors",
            source: "Source",
            award: "Award",
            keywords: "Keywords",
            solution: "Solution",
            stated: "Stated solution",
            no_stated: "No stated solution.",
            reserves: "Reserves",
            neutral: "Neutral",
            holes: "Holes",
            legend: "Fairy pieces",
            white: "White",
            black: "Black",
            red: "Red",
            reason: "Reason",
            unreadable: "Unreadable",
            not_solved: "Not solved.",
        },
        Lang::Fr => Words {
            title: "Rapport feerie",
            summary: "Résumé",
            verdict: "Verdict",
            count: "Nombre",
            total: "total",
            problem: "Problème",
            file: "Fichier",
            document: "document",
            twin: "Jumeau",
            stipulation: "Énoncé",
            options: "Options",
            authors: "Auteurs",
            source: "Source",
            award: "Distinction",
            keywords: "Mots-clés",
            solution: "Solution",
            stated: "Solution donnée",
            no_stated: "Pas de solution donnée.",
            reserves: "Réserves",
            neutral: "Neutres",
            holes: "Trous",
            legend: "Pièces féeriques",
            white: "Blancs",
            black: "Noirs",
            red: "Rouges",
            reason: "Raison",
            unreadable: "Illisible",
            not_solved: "Non résolu.",
        },
        Lang::De => Words {
            title: "feerie-Bericht",
            summary: "Übersicht",
            verdict: "Urteil",
            count: "Anzahl",
            total: "gesamt",
            problem: "Aufgabe",
            file: "Datei",
            document: "Dokument",
            twin: "Zwilling",
            stipulation: "Forderung",
            options: "Optionen",
            authors: "Autoren",
            source: "Quelle",
            award: "Auszeichnung",
            keywords: "Stichwörter",
            solution: "Lösung",
            stated: "Angegebene Lösung",
            no_stated: "Keine Lösung angegeben.",
            reserves: "Reserve",
            neutral: "Neutral",
            holes: "Löcher",
            legend: "Märchenfiguren",
            white: "Weiß",
            black: "Schwarz",
            red: "Rot",
            reason: "Grund",
            unreadable: "Nicht lesbar",
            not_solved: "Nicht gelöst.",
        },
    }
}

/// A verdict in words of `lang`.
pub fn verdict_word(k: VerdictKind, lang: Lang) -> &'static str {
    match lang {
        Lang::En => k.as_str(),
        Lang::Fr => match k {
            VerdictKind::Sound => "correct",
            VerdictKind::Cooked => "démoli",
            VerdictKind::NoSolution => "sans solution",
            VerdictKind::Differs => "diffère",
            VerdictKind::Unsupported => "non pris en charge",
            VerdictKind::Invalid => "invalide",
            VerdictKind::TimedOut => "temps écoulé",
        },
        Lang::De => match k {
            VerdictKind::Sound => "korrekt",
            VerdictKind::Cooked => "nebenlösig",
            VerdictKind::NoSolution => "ohne Lösung",
            VerdictKind::Differs => "abweichend",
            VerdictKind::Unsupported => "nicht unterstützt",
            VerdictKind::Invalid => "ungültig",
            VerdictKind::TimedOut => "Zeit abgelaufen",
        },
    }
}

/// The CSS class of a verdict: `v-sound`, `v-no-solution`, `v-timed-out`, ….
pub fn verdict_class(k: VerdictKind) -> String {
    format!("v-{}", k.as_str().replace(' ', "-"))
}

/// A verdict badge (a coloured label).
fn badge(k: VerdictKind, lang: Lang) -> String {
    format!("<span class=\"verdict {}\">{}</span>", verdict_class(k), escape(verdict_word(k, lang)))
}

/// Colours of the diagrams.
pub mod colors {
    /// Light squares (chess).
    pub const LIGHT: &str = "#f0d9b5";
    /// Dark squares (chess, Cheskers).
    pub const DARK: &str = "#b58863";
    /// The unused light squares of Cheskers.
    pub const UNUSED: &str = "#faf7f0";
    /// The Xiangqi board.
    pub const WOOD: &str = "#eed5a0";
    /// The Xiangqi river.
    pub const RIVER: &str = "#cfe3ea";
    /// Holes.
    pub const HOLE: &str = "#4a4a4a";
    /// The letters of neutral pieces.
    pub const NEUTRAL: &str = "#7b1fa2";
    /// Red pieces (Xiangqi).
    pub const RED: &str = "#c62828";
    /// Sound verdicts.
    pub const SOUND: &str = "#2e7d32";
    /// Cooked, differs, no solution, invalid.
    pub const BAD: &str = "#c62828";
    /// Unsupported.
    pub const UNSUPPORTED: &str = "#757575";
    /// Timed out.
    pub const TIMED_OUT: &str = "#ef6c00";
}

const FONT: &str = "'DejaVu Sans','Noto Sans Symbols2','Segoe UI Symbol','Arial Unicode MS',sans-serif";

/// The solid glyph of an orthodox piece (drawn white or black) and its outline glyph.
fn glyphs(k: Kind) -> Option<(char, char)> {
    Some(match k {
        Kind::King => ('\u{265A}', '\u{2654}'),
        Kind::Queen => ('\u{265B}', '\u{2655}'),
        Kind::Rook => ('\u{265C}', '\u{2656}'),
        Kind::Bishop => ('\u{265D}', '\u{2657}'),
        Kind::Knight => ('\u{265E}', '\u{2658}'),
        Kind::Pawn => ('\u{265F}', '\u{2659}'),
        _ => return None,
    })
}

fn side_word(c: Color, rules: Rules, w: &Words) -> &'static str {
    match (c, rules) {
        (Color::White, Rules::Xiangqi) => w.red,
        (Color::White, _) => w.white,
        (Color::Black, _) => w.black,
    }
}

/// The English name of a piece, for the diagram's tooltips and description.
fn piece_name(f: Figure) -> String {
    match f {
        Figure::Chess(k) => format!("{k:?}").to_lowercase(),
        Figure::Xiangqi(c) => match c {
            'K' => "general",
            'A' => "advisor",
            'B' => "elephant",
            'N' => "horse",
            'R' => "chariot",
            'C' => "cannon",
            _ => "soldier",
        }
        .to_string(),
    }
}

/// The code of a piece in `lang` (Xiangqi letters are not translated).
fn piece_code(f: Figure, lang: Lang) -> String {
    match f {
        Figure::Chess(k) => k.code_in(lang).to_string(),
        Figure::Xiangqi(c) => c.to_string(),
    }
}

/// A chess or Cheskers piece centred on (x, y), `size` the square size.
fn chess_piece(out: &mut String, p: &DiagramPiece, k: Kind, x: f32, y: f32, size: f32, lang: Lang) {
    let name = format!("{} {}", p.color.name(), piece_name(p.figure));
    match glyphs(k) {
        Some((solid, outline)) => {
            let fs = size * 0.85;
            let ty = y + size * 0.30;
            let _ = write!(out, "<g class=\"piece\"><title>{name}</title>");
            match p.color {
                Color::White => {
                    let _ = write!(
                        out,
                        "<text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" text-anchor=\"middle\" fill=\"#fff\">{solid}\u{FE0E}</text>\
                         <text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" text-anchor=\"middle\" fill=\"#000\">{outline}\u{FE0E}</text>"
                    );
                }
                Color::Black => {
                    let _ = write!(
                        out,
                        "<text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" text-anchor=\"middle\" fill=\"#000\">{solid}\u{FE0E}</text>"
                    );
                }
            }
            out.push_str("</g>");
        }
        None => {
            // A fairy piece: its code in a circle, white or black.
            let code = escape(k.code_in(lang));
            let (fill, ink) = if p.color == Color::White { ("#fff", "#000") } else { ("#111", "#fff") };
            let fs = if code.chars().count() > 1 { size * 0.34 } else { size * 0.45 };
            let _ = write!(
                out,
                "<g class=\"piece fairy\"><title>{name}</title><circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{fill}\" stroke=\"#000\" \
                 stroke-width=\"1.5\"/><text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" font-weight=\"bold\" text-anchor=\"middle\" \
                 fill=\"{ink}\">{code}</text></g>",
                r = size * 0.38,
                ty = y + fs * 0.36,
            );
        }
    }
}

/// The diagram as an inline SVG element.
pub fn diagram_svg(d: &Diagram, lang: Lang) -> String {
    let w = words(Lang::En);
    let mut desc: Vec<String> = Vec::new();
    for c in Color::BOTH {
        let list = sorted_codes(d, c, Lang::En);
        desc.push(format!("{}: {}", side_word(c, d.rules, &w), if list.is_empty() { "none".to_string() } else { list.join(" ") }));
    }
    let desc = escape(&desc.join("; "));
    match d.rules {
        Rules::Xiangqi => xiangqi_svg(d, &desc),
        Rules::Chess | Rules::Cheskers => board8_svg(d, &desc, lang),
    }
}

fn board8_svg(d: &Diagram, desc: &str, lang: Lang) -> String {
    const S: f32 = 40.0;
    const M: f32 = 18.0;
    let size = M + 8.0 * S + 2.0;
    let cheskers = d.rules == Rules::Cheskers;
    let kind = if cheskers { "cheskers" } else { "chess" };
    let light = if cheskers { colors::UNUSED } else { colors::LIGHT };
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board {kind}\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\" \
         role=\"img\" aria-label=\"{desc}\" font-family=\"{FONT}\"><title>{desc}</title>"
    );
    let _ = write!(s, "<rect class=\"light\" x=\"{M}\" y=\"0\" width=\"{b}\" height=\"{b}\" fill=\"{light}\"/>", b = 8.0 * S);
    for rank in 0..8u8 {
        for file in 0..8u8 {
            if (file + rank) % 2 == 0 {
                let _ = write!(
                    s,
                    "<rect class=\"dark\" x=\"{}\" y=\"{}\" width=\"{S}\" height=\"{S}\" fill=\"{}\"/>",
                    M + file as f32 * S,
                    (7 - rank) as f32 * S,
                    colors::DARK
                );
            }
        }
    }
    let _ =
        write!(s, "<rect x=\"{M}\" y=\"0\" width=\"{b}\" height=\"{b}\" fill=\"none\" stroke=\"#444\" stroke-width=\"1\"/>", b = 8.0 * S);
    for i in 0..8u8 {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            M / 2.0,
            (7 - i) as f32 * S + S / 2.0 + 4.0,
            i + 1
        );
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            M + i as f32 * S + S / 2.0,
            8.0 * S + 14.0,
            (b'a' + i) as char
        );
    }
    for &(file, rank) in &d.holes {
        if file < 8 && rank < 8 {
            let _ = write!(
                s,
                "<g class=\"hole\"><title>hole {}</title><rect x=\"{}\" y=\"{}\" width=\"{S}\" height=\"{S}\" fill=\"{}\"/>\
                 <circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#000\"/></g>",
                d.square_name(file, rank),
                M + file as f32 * S,
                (7 - rank) as f32 * S,
                colors::HOLE,
                M + file as f32 * S + S / 2.0,
                (7 - rank) as f32 * S + S / 2.0,
                S * 0.3
            );
        }
    }
    for p in &d.neutral {
        if p.file < 8 && p.rank < 8 {
            neutral_piece(&mut s, p, M + p.file as f32 * S + S / 2.0, (7 - p.rank) as f32 * S + S / 2.0, S, lang);
        }
    }
    for p in &d.pieces {
        if p.file >= 8 || p.rank >= 8 {
            continue;
        }
        let x = M + p.file as f32 * S + S / 2.0;
        let y = (7 - p.rank) as f32 * S + S / 2.0;
        match p.figure {
            Figure::Chess(k) => chess_piece(&mut s, p, k, x, y, S, lang),
            Figure::Xiangqi(_) => xiangqi_piece(&mut s, p, x, y, S * 0.42),
        }
    }
    s.push_str("</svg>");
    s
}

/// A neutral piece: its code on a disc half white (left) and half black (right).
fn neutral_piece(out: &mut String, p: &DiagramPiece, x: f32, y: f32, size: f32, lang: Lang) {
    let code = escape(&piece_code(p.figure, lang));
    let r = size * 0.38;
    let fs = if code.chars().count() > 1 { size * 0.34 } else { size * 0.45 };
    let _ = write!(
        out,
        "<g class=\"piece neutral\"><title>neutral {name}</title>\
         <path d=\"M {x} {top} A {r} {r} 0 0 0 {x} {bottom} Z\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\"/>\
         <path d=\"M {x} {top} A {r} {r} 0 0 1 {x} {bottom} Z\" fill=\"#111\" stroke=\"#000\" stroke-width=\"1.5\"/>\
         <text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\" stroke=\"#fff\" \
         stroke-width=\"0.6\">{code}</text></g>",
        name = piece_name(p.figure),
        top = y - r,
        bottom = y + r,
        ty = y + fs * 0.36,
        ink = colors::NEUTRAL,
    );
}

/// The fairy pieces of a diagram with their names (`LI lion`), for the legend.
fn legend(d: &Diagram, lang: Lang) -> Vec<String> {
    let mut kinds: Vec<Kind> = d
        .pieces
        .iter()
        .chain(&d.neutral)
        .filter_map(|p| match p.figure {
            Figure::Chess(k) if d.rules == Rules::Chess && glyphs(k).is_none() => Some(k),
            _ => None,
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds.into_iter().map(|k| format!("{} {}", k.code_in(lang), piece_name(Figure::Chess(k)))).collect()
}

fn xiangqi_piece(out: &mut String, p: &DiagramPiece, x: f32, y: f32, r: f32) {
    let ink = if p.color == Color::White { colors::RED } else { "#1a1a1a" };
    let side = if p.color == Color::White { "red" } else { "black" };
    let _ = write!(
        out,
        "<g class=\"piece xq\"><title>{side} {name}</title><circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"#fbf1d9\" stroke=\"{ink}\" \
         stroke-width=\"2\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"{r2}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"0.8\"/>\
         <text x=\"{x}\" y=\"{ty}\" font-size=\"{fs}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{code}</text></g>",
        name = piece_name(p.figure),
        r2 = r - 3.0,
        fs = r * 1.05,
        ty = y + r * 0.38,
        code = escape(&piece_code(p.figure, Lang::En)),
    );
}

fn xiangqi_svg(d: &Diagram, desc: &str) -> String {
    const S: f32 = 36.0;
    const OX: f32 = 34.0;
    const OY: f32 = 22.0;
    let width = OX + 8.0 * S + 22.0;
    let height = OY + 9.0 * S + 36.0;
    let x = |f: u8| OX + f as f32 * S;
    let y = |r: u8| OY + (9 - r) as f32 * S;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board xiangqi\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{desc}\" font-family=\"{FONT}\"><title>{desc}</title>"
    );
    let _ = write!(
        s,
        "<rect class=\"wood\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        OX - 20.0,
        OY - 20.0,
        8.0 * S + 40.0,
        9.0 * S + 40.0,
        colors::WOOD
    );
    let _ =
        write!(s, "<rect class=\"river\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{S}\" fill=\"{}\"/>", x(0), y(5), 8.0 * S, colors::RIVER);
    s.push_str("<g class=\"lines\" stroke=\"#5d4023\" stroke-width=\"1.2\">");
    for r in 0..10u8 {
        let _ = write!(s, "<line class=\"rank\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(0), y(r), x(8), y(r));
    }
    for f in 0..9u8 {
        if f == 0 || f == 8 {
            let _ = write!(s, "<line class=\"file\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(f), y(9), x(f), y(0));
        } else {
            // Inner files stop at the river.
            let _ = write!(s, "<line class=\"file\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(f), y(9), x(f), y(5));
            let _ = write!(s, "<line class=\"file\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(f), y(4), x(f), y(0));
        }
    }
    // The palaces' diagonals.
    for (r0, r1) in [(0u8, 2u8), (7, 9)] {
        let _ = write!(s, "<line class=\"palace\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(3), y(r0), x(5), y(r1));
        let _ = write!(s, "<line class=\"palace\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", x(5), y(r0), x(3), y(r1));
    }
    s.push_str("</g>");
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#5d4023\" stroke-width=\"2.5\"/>",
        x(0) - 4.0,
        y(9) - 4.0,
        8.0 * S + 8.0,
        9.0 * S + 8.0
    );
    for f in 0..9u8 {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x(f),
            y(0) + 34.0,
            (b'a' + f) as char
        );
    }
    for r in 0..10u8 {
        let _ = write!(s, "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#555\">{r}</text>", 7.0, y(r) + 4.0);
    }
    for p in &d.pieces {
        if p.file >= 9 || p.rank >= 10 {
            continue;
        }
        xiangqi_piece(&mut s, p, x(p.file), y(p.rank), S * 0.44);
    }
    s.push_str("</svg>");
    s
}

/// The pieces of one side as codes and squares (`Kb6`), kings first, codes in `lang`.
fn sorted_codes(d: &Diagram, c: Color, lang: Lang) -> Vec<String> {
    let mut v: Vec<(usize, String)> = d
        .pieces
        .iter()
        .filter(|p| p.color == c)
        .map(|p| {
            let order = match p.figure {
                Figure::Chess(k) => k.index(),
                Figure::Xiangqi(ch) => "KABNRCP".find(ch).unwrap_or(7),
            };
            (
                order * 1000 + p.file as usize * 10 + p.rank as usize,
                format!("{}{}", piece_code(p.figure, lang), d.square_name(p.file, p.rank)),
            )
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, s)| s).collect()
}

/// The pieces of one side as text (`Kb6 Rh1 Sc5 (3)`), codes in `lang`.
fn piece_list(d: &Diagram, c: Color, lang: Lang) -> String {
    let v = sorted_codes(d, c, lang);
    format!("{} ({})", v.join(" "), v.len())
}

/// The reserves as glyphs (codes in circles' stead for fairy kinds).
fn reserve_html(kinds: &[Kind], c: Color, lang: Lang) -> String {
    if kinds.is_empty() {
        return "—".into();
    }
    kinds
        .iter()
        .map(|&k| match glyphs(k) {
            Some((solid, outline)) => {
                let g = if c == Color::White { outline } else { solid };
                format!("<span class=\"glyph\" title=\"{}\">{g}\u{FE0E}</span>", escape(k.code_in(lang)))
            }
            None => format!("<span class=\"code {}\">{}</span>", if c == Color::White { "w" } else { "b" }, escape(k.code_in(lang))),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row of the summary table: a problem or twin, its anchor and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexRow {
    /// The anchor (`p3`, `p3-b`).
    pub anchor: String,
    /// The file.
    pub file: String,
    /// The document number.
    pub document: usize,
    /// The twin label.
    pub twin: String,
    /// The stipulation as written.
    pub stipulation: String,
    /// The verdict.
    pub verdict: VerdictKind,
    /// Why.
    pub reason: String,
    /// Solve time.
    pub elapsed_ms: u64,
}

/// The part of the report for one document.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Its HTML.
    pub html: String,
    /// Its rows in the summary table (one per twin).
    pub rows: Vec<IndexRow>,
}

fn anchor_for(seq: usize, twin: Option<&str>) -> String {
    match twin {
        None => format!("p{}", seq + 1),
        Some(t) => {
            let t: String = t.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            format!("p{}-{t}", seq + 1)
        }
    }
}

fn meta_html(out: &mut String, meta: &Meta, w: &Words) {
    let mut items: Vec<(&str, String)> = Vec::new();
    if !meta.authors.is_empty() {
        items.push((w.authors, crate::problem::join_authors(&meta.authors)));
    }
    if let Some(s) = &meta.source {
        items.push((w.source, s.clone()));
    }
    if let Some(a) = &meta.award {
        items.push((w.award, a.clone()));
    }
    if !meta.keywords.is_empty() {
        items.push((w.keywords, meta.keywords.join(", ")));
    }
    if items.is_empty() {
        return;
    }
    out.push_str("<dl class=\"meta\">");
    for (k, v) in items {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(&v));
    }
    out.push_str("</dl>");
}

fn heading(out: &mut String, seq: usize, file: &str, document: usize, first_line: &str, verdict: VerdictKind, lang: Lang) {
    let w = words(lang);
    let id = anchor_for(seq, None);
    let _ = write!(
        out,
        "<article class=\"problem s-{cls}\" id=\"{id}\"><h2><a href=\"#{id}\">{n}</a> <span class=\"file\">{file}</span> \
         <span class=\"doc\">({doc} {document})</span> {badge}</h2><p class=\"first-line\">{first}</p>",
        cls = verdict_class(verdict),
        n = seq + 1,
        file = escape(file),
        doc = escape(w.document),
        badge = badge(verdict, lang),
        first = escape(first_line),
    );
}

/// The worst verdict of a document, for its heading: anything not sound over sound.
fn worst(records: &[Record]) -> VerdictKind {
    let rank = |k: VerdictKind| match k {
        VerdictKind::Sound => 0,
        VerdictKind::Unsupported => 1,
        VerdictKind::TimedOut => 2,
        _ => 3,
    };
    records.iter().map(|r| r.verdict).max_by_key(|k| rank(*k)).unwrap_or(VerdictKind::Invalid)
}

/// Everything about one twin: diagram, side panel, solution.
#[allow(clippy::too_many_arguments)]
fn twin_html(
    out: &mut String,
    anchor: &str,
    label: Option<String>,
    diagram: Option<&Diagram>,
    stipulation: &str,
    options: &[String],
    r: &Record,
    solution: Option<String>,
    lang: Lang,
) {
    let w = words(lang);
    let _ = write!(out, "<section class=\"twin\" id=\"{anchor}\">");
    if let Some(l) = label {
        let _ = write!(out, "<h3>{}</h3>", escape(&l));
    }
    out.push_str("<div class=\"board-row\">");
    if let Some(d) = diagram {
        out.push_str(&diagram_svg(d, lang));
    }
    out.push_str("<div class=\"side\"><dl>");
    if !stipulation.is_empty() {
        let _ = write!(out, "<dt>{}</dt><dd class=\"stip\">{}</dd>", escape(w.stipulation), escape(stipulation));
    }
    if !options.is_empty() {
        let _ = write!(out, "<dt>{}</dt><dd class=\"options\">{}</dd>", escape(w.options), escape(&options.join(", ")));
    }
    if let Some(d) = diagram {
        for c in Color::BOTH {
            let _ =
                write!(out, "<dt>{}</dt><dd class=\"pieces\">{}</dd>", escape(side_word(c, d.rules, &w)), escape(&piece_list(d, c, lang)));
        }
        if !d.neutral.is_empty() {
            let mut list: Vec<String> =
                d.neutral.iter().map(|p| format!("{}{}", piece_code(p.figure, lang), d.square_name(p.file, p.rank))).collect();
            list.sort();
            let _ = write!(out, "<dt>{}</dt><dd class=\"neutral\">{}</dd>", escape(w.neutral), escape(&list.join(" ")));
        }
        if !d.holes.is_empty() {
            let list: Vec<String> = d.holes.iter().map(|&(f, r)| d.square_name(f, r)).collect();
            let _ = write!(out, "<dt>{}</dt><dd class=\"holes\">{}</dd>", escape(w.holes), escape(&list.join(" ")));
        }
        let fairy = legend(d, lang);
        if !fairy.is_empty() {
            let _ = write!(out, "<dt>{}</dt><dd class=\"legend\">{}</dd>", escape(w.legend), escape(&fairy.join(", ")));
        }
        if d.reserves.iter().any(|r| !r.is_empty()) {
            let _ = write!(
                out,
                "<dt>{}</dt><dd class=\"reserves\">{}: {}<br>{}: {}</dd>",
                escape(w.reserves),
                escape(w.white),
                reserve_html(&d.reserves[0], Color::White, lang),
                escape(w.black),
                reserve_html(&d.reserves[1], Color::Black, lang)
            );
        }
    }
    // An invalid document's message comes below, in full.
    let reason = if r.verdict == VerdictKind::Invalid { String::new() } else { escape(&r.reason) };
    let _ = write!(out, "<dt>{}</dt><dd>{} <span class=\"reason\">{reason}</span></dd>", escape(w.verdict), badge(r.verdict, lang));
    out.push_str("</dl></div></div>");
    match solution {
        Some(text) => {
            let _ = write!(out, "<h4>{}</h4><pre class=\"solution\">{}</pre>", escape(w.solution), solution_html(&text, lang));
        }
        None if r.verdict == VerdictKind::Invalid => {
            let _ = write!(out, "<p class=\"message\">{}</p>", escape(&r.reason));
        }
        None => {
            let _ = write!(out, "<p class=\"unsolved\">{}</p>", escape(w.not_solved));
        }
    }
    out.push_str("</section>");
}

/// The solution text, escaped, each short solution (a line ending in `(short)`, in `lang`)
/// in a `<span class="short">` that shows it as the cook it is.
fn solution_html(text: &str, lang: Lang) -> String {
    let mark = format!(" ({})", crate::report::text::words(lang).short);
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| if l.ends_with(&mark) { format!("<span class=\"short\">{}</span>", escape(l)) } else { escape(l) })
        .collect();
    lines.join("\n")
}

fn ready_section(out: &mut String, rows: &mut Vec<IndexRow>, seq: usize, p: &Problem, records: &[Record], lang: Lang) {
    let w = words(lang);
    heading(out, seq, &p.file, p.document, &p.first_line, worst(records), lang);
    meta_html(out, &p.meta, &w);
    let variants = p.variants().unwrap_or_default();
    let twinned = records.len() > 1 || records.iter().any(|r| r.twin != "a");
    for r in records {
        let v = variants.iter().find(|v| v.label == r.twin);
        let diagram = v.map_or(&p.position, |v| &v.position).diagram();
        let options = v.map_or_else(|| p.options.keywords(), |v| v.options.keywords());
        let anchor = anchor_for(seq, Some(&r.twin));
        let label = twinned.then(|| {
            if r.twin_change.is_empty() { format!("{} {})", w.twin, r.twin) } else { format!("{} {}) {}", w.twin, r.twin, r.twin_change) }
        });
        let solution = v.filter(|_| r.verdict != VerdictKind::Invalid).map(|v| record_text(r, Some(&v.stipulation), lang));
        twin_html(out, &anchor, label, Some(&diagram), &r.stipulation, &options, r, solution, lang);
        rows.push(row(anchor, r));
    }
    stated_html(out, p.stated.as_ref().map(|s| s.text.as_str()), &w);
}

fn stated_html(out: &mut String, stated: Option<&str>, w: &Words) {
    match stated {
        Some(t) => {
            let _ = write!(out, "<h4>{}</h4><pre class=\"stated\">{}</pre>", escape(w.stated), escape(t.trim_end()));
        }
        None => {
            let _ = write!(out, "<p class=\"stated none\">{}</p>", escape(w.no_stated));
        }
    }
}

fn row(anchor: String, r: &Record) -> IndexRow {
    IndexRow {
        anchor,
        file: r.file.clone(),
        document: r.document,
        twin: r.twin.clone(),
        stipulation: r.stipulation.clone(),
        verdict: r.verdict,
        reason: r.reason.clone(),
        elapsed_ms: r.elapsed_ms,
    }
}

/// The section of one document: `seq` is its place in the report (from 0), `records` what
/// `check` found for it (one per twin for a problem, one for an unsupported or invalid document).
pub fn document_section(seq: usize, doc: &Loaded, records: &[Record], lang: Lang) -> Section {
    let w = words(lang);
    let mut out = String::new();
    let mut rows = Vec::new();
    match doc {
        Loaded::Ready(p) => ready_section(&mut out, &mut rows, seq, p, records, lang),
        Loaded::Unsupported { file, document, first_line, meta, stipulation_text, options, diagram, .. } => {
            heading(&mut out, seq, file, *document, first_line, worst(records), lang);
            meta_html(&mut out, meta, &w);
            for r in records {
                let anchor = anchor_for(seq, Some(&r.twin));
                twin_html(&mut out, &anchor, None, diagram.as_deref(), stipulation_text, options, r, None, lang);
                rows.push(row(anchor, r));
            }
        }
        Loaded::Invalid(e) => {
            heading(&mut out, seq, &e.file, e.document, &e.first_line, VerdictKind::Invalid, lang);
            for r in records {
                let anchor = anchor_for(seq, Some(&r.twin));
                twin_html(&mut out, &anchor, None, None, &r.stipulation, &[], r, None, lang);
                rows.push(row(anchor, r));
            }
        }
    }
    out.push_str("</article>\n");
    Section { html: out, rows }
}

const CSS: &str = "\
body{font-family:'DejaVu Sans',Arial,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222;background:#fff;line-height:1.35}
h1{font-size:1.6em;margin:.2em 0 .6em}
h2{font-size:1.15em;margin:.1em 0 .3em}
h2 a{color:#555;text-decoration:none}
h3{font-size:1em;margin:.6em 0 .3em}
h4{font-size:.95em;margin:.6em 0 .2em}
table{border-collapse:collapse;margin:.5em 0 1em}
th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}
th{background:#f2f2f2}
td.n{text-align:right}
.verdict{display:inline-block;padding:.1em .6em;border-radius:.8em;color:#fff;font-weight:bold;font-size:.9em;white-space:nowrap}
.v-sound{background:#2e7d32}
.v-cooked,.v-no-solution,.v-differs,.v-invalid{background:#c62828}
.v-unsupported{background:#757575}
.v-timed-out{background:#ef6c00}
article.problem{border:1px solid #ddd;border-left:8px solid #999;padding:.6em 1em;margin:1.2em 0;border-radius:4px}
article.s-v-sound{border-left-color:#2e7d32}
article.s-v-cooked,article.s-v-no-solution,article.s-v-differs,article.s-v-invalid{border-left-color:#c62828}
article.s-v-unsupported{border-left-color:#757575}
article.s-v-timed-out{border-left-color:#ef6c00}
.first-line{color:#555;margin:.1em 0 .4em}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:.1em .8em;margin:.3em 0}
dl.meta dt,.side dt{font-weight:bold;color:#444}
dl.meta dd{margin:0}
.board-row{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
svg.board{flex:none}
.side dl{margin:0}
.side dd{margin:0 0 .5em 0}
.glyph{font-size:1.6em;line-height:1}
.code{display:inline-block;border:1.5px solid #000;border-radius:50%;padding:.1em .3em;font-size:.8em;font-weight:bold}
.code.b{background:#111;color:#fff}
pre{background:#f6f6f6;border:1px solid #e4e4e4;padding:.6em;overflow-x:auto;font-size:.9em}
.short{color:#b71c1c}
.message{color:#b71c1c;background:#fdecea;border:1px solid #f5c2c0;padding:.5em;white-space:pre-wrap}
.unreadable li{color:#b71c1c}
.reason{color:#444}
footer{color:#777;font-size:.85em;margin-top:2em}
";

/// A whole report, built one document at a time.
#[derive(Debug)]
pub struct Report {
    lang: Lang,
    body: String,
    rows: Vec<IndexRow>,
    unreadable: Vec<String>,
}

impl Report {
    /// An empty report in `lang`.
    pub fn new(lang: Lang) -> Report {
        Report { lang, body: String::new(), rows: Vec::new(), unreadable: Vec::new() }
    }

    /// Adds a document's section (in input order).
    pub fn push(&mut self, s: Section) {
        self.body.push_str(&s.html);
        self.rows.extend(s.rows);
    }

    /// Notes a path or file that could not be read.
    pub fn push_unreadable(&mut self, message: String) {
        self.unreadable.push(message);
    }

    /// Count per verdict, in [`VerdictKind::ALL`] order.
    pub fn counts(&self) -> [usize; 7] {
        let mut c = [0usize; 7];
        for r in &self.rows {
            if let Some(i) = VerdictKind::ALL.iter().position(|k| *k == r.verdict) {
                c[i] += 1;
            }
        }
        c
    }

    /// The page, titled `title`.
    pub fn render(&self, title: &str) -> String {
        let lang = self.lang;
        let w = words(lang);
        let code = match lang {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::De => "de",
        };
        let mut s = String::new();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"{code}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n\
             <h1>{t}</h1>\n<section id=\"summary\"><h2>{summary}</h2>\n<table class=\"counts\"><tr><th>{verdict}</th><th>{count}</th></tr>",
            t = escape(title),
            summary = escape(w.summary),
            verdict = escape(w.verdict),
            count = escape(w.count),
        );
        let counts = self.counts();
        for (k, n) in VerdictKind::ALL.iter().zip(counts) {
            let _ =
                write!(s, "<tr class=\"count\" data-verdict=\"{}\"><td>{}</td><td class=\"n\">{n}</td></tr>", k.as_str(), badge(*k, lang));
        }
        let _ = writeln!(s, "<tr class=\"total\"><td>{}</td><td class=\"n\">{}</td></tr></table>", escape(w.total), self.rows.len());
        if !self.unreadable.is_empty() {
            let _ = write!(s, "<h3>{}</h3><ul class=\"unreadable\">", escape(w.unreadable));
            for u in &self.unreadable {
                let _ = write!(s, "<li>{}</li>", escape(u));
            }
            s.push_str("</ul>\n");
        }
        let _ = writeln!(
            s,
            "<table class=\"index\"><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            escape(w.problem),
            escape(w.file),
            escape(w.document),
            escape(w.twin),
            escape(w.stipulation),
            escape(w.verdict),
            escape(w.reason)
        );
        for r in &self.rows {
            let _ = writeln!(
                s,
                "<tr><td><a href=\"#{a}\">{a}</a></td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&r.file),
                r.document,
                escape(&r.twin),
                escape(&r.stipulation),
                badge(r.verdict, lang),
                escape(&r.reason),
                a = escape(&r.anchor),
            );
        }
        s.push_str("</table>\n</section>\n");
        s.push_str(&self.body);
        let _ = write!(s, "<footer>feerie {}</footer>\n</body>\n</html>\n", env!("CARGO_PKG_VERSION"));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::load_str;
    use crate::verify::record_unsolved;

    fn diagram_of(text: &str) -> Diagram {
        match &load_str(text, "t.yaml")[0] {
            Loaded::Ready(p) => p.position.diagram(),
            Loaded::Unsupported { diagram: Some(d), .. } => (**d).clone(),
            other => panic!("{other:?}"),
        }
    }

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    #[test]
    fn chess_diagram_has_squares_glyphs_and_fairy_circles() {
        let d = diagram_of("stipulation: '#2'\nalgebraic: {white: [Kb6, Rh1, Ge4], black: [Ka8, Sb8]}\n");
        let svg = diagram_svg(&d, Lang::En);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("class=\"board chess\""));
        assert_eq!(count(&svg, "class=\"dark\""), 32);
        assert_eq!(count(&svg, "class=\"light\""), 1);
        // White king: solid glyph in white under the outline glyph; black knight: solid glyph.
        assert!(svg.contains("fill=\"#fff\">\u{265A}"));
        assert!(svg.contains("fill=\"#000\">\u{2654}"));
        assert!(svg.contains("fill=\"#000\">\u{265E}"));
        // The grasshopper is its code in a circle.
        assert_eq!(count(&svg, "class=\"piece fairy\""), 1);
        assert!(svg.contains(">G</text>"));
        // b6 is on file 1, rank 5: x = 18 + 40 + 20, the glyph's baseline below the centre (y = 2·40 + 20).
        assert!(svg.contains("x=\"78\" y=\"112\""), "{svg}");
        assert!(svg.contains("Black: Ka8 Sb8"));
        // French codes for the fairy piece (G is S in French).
        let fr = diagram_svg(&d, Lang::Fr);
        assert!(fr.contains(">S</text>"));
    }

    #[test]
    fn xiangqi_diagram_has_points_river_and_palaces() {
        let d = diagram_of("rules: xiangqi\nstipulation: '#1'\nfen: 4k4/9/9/9/9/9/9/9/4A4/3K1R3 w\n");
        let svg = diagram_svg(&d, Lang::En);
        assert!(svg.contains("class=\"board xiangqi\""));
        assert_eq!(count(&svg, "class=\"rank\""), 10);
        // Two full edge files and seven inner files broken at the river.
        assert_eq!(count(&svg, "class=\"file\""), 2 + 2 * 7);
        assert_eq!(count(&svg, "class=\"palace\""), 4);
        assert_eq!(count(&svg, "class=\"river\""), 1);
        assert_eq!(count(&svg, "class=\"piece xq\""), 4);
        // Pieces sit on the points: the red advisor on e1 at x = 34 + 4·36, y = 22 + 8·36.
        assert!(svg.contains("<circle cx=\"178\" cy=\"310\""), "{svg}");
        assert!(svg.contains("<title>red advisor</title>"));
        assert!(svg.contains(&format!("stroke=\"{}\"", colors::RED)));
        assert!(svg.contains("Red: Kd0 Ae1 Rf0"));
    }

    #[test]
    fn cheskers_diagram_uses_the_dark_squares() {
        let d = diagram_of("rules: cheskers\nstipulation: '#2'\nfen: 1c1k1k1b/8/8/8/8/8/1P6/B1K1K3 w\n");
        let svg = diagram_svg(&d, Lang::En);
        assert!(svg.contains("class=\"board cheskers\""));
        assert!(svg.contains(&format!("class=\"light\" x=\"18\" y=\"0\" width=\"320\" height=\"320\" fill=\"{}\"", colors::UNUSED)));
        assert_eq!(count(&svg, "class=\"dark\""), 32);
        // The camel is a fairy circle, the kings glyphs.
        assert_eq!(count(&svg, "class=\"piece fairy\""), 1);
        assert!(svg.contains(">CA</text>"));
        assert_eq!(count(&svg, "<title>black king</title>"), 2);
        // Every piece stands on a dark square: a1 (file 0, rank 0) is dark.
        for p in &d.pieces {
            assert_eq!((p.file + p.rank) % 2, 0);
        }
    }

    #[test]
    fn sections_escape_and_link() {
        let text = "authors: ['<b>Bold</b> & Co']\nstipulation: '#2'\noptions: [Volage]\nalgebraic: {white: [Ke1, Qd1], black: [Ke8]}\n\
                    ---\nstipulation: '#2'\nalgebraic: {white: [Kz1], black: [Ke8]}\n";
        let docs = load_str(text, "a<b>.yaml");
        let mut report = Report::new(Lang::De);
        for (i, d) in docs.iter().enumerate() {
            let r = record_unsolved(d).unwrap();
            report.push(document_section(i, d, &[r], Lang::De));
        }
        let page = report.render("T & T");
        assert!(page.contains("<title>T &amp; T</title>"));
        assert!(!page.contains("<b>Bold</b>"));
        assert!(page.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; Co"));
        assert!(page.contains("a&lt;b&gt;.yaml"));
        assert!(page.contains("<a href=\"#p1-a\">p1-a</a>") && page.contains("id=\"p1-a\""));
        assert!(page.contains("<a href=\"#p2-a\">p2-a</a>") && page.contains("id=\"p2\""));
        assert!(page.contains("nicht unterstützt") && page.contains("ungültig"));
        assert!(page.contains("class=\"board chess\""));
        assert!(page.contains("<dd class=\"options\">Volage</dd>"));
        assert_eq!(report.counts(), [0, 0, 0, 0, 1, 1, 0]);
        // German piece letters in the piece lists: the queen is D.
        assert!(page.contains("Dd1"));
    }

    #[test]
    fn fairy_diagrams_draw_neutral_pieces_holes_and_a_legend() {
        let mut d = diagram_of("stipulation: 'h#2'\noptions: [Circe]\nalgebraic: {white: [Ke1, LIa1], black: [Ke8, ROh8]}\n");
        d.neutral.push(DiagramPiece { color: Color::White, figure: Figure::Chess(Kind::Pawn), file: 3, rank: 3 });
        d.holes.push((4, 4));
        let svg = diagram_svg(&d, Lang::En);
        assert!(svg.contains("<g class=\"piece neutral\"><title>neutral pawn</title>"), "{svg}");
        assert!(svg.contains("<g class=\"hole\"><title>hole e5</title>"), "{svg}");
        assert_eq!(svg.matches("class=\"piece fairy\"").count(), 2);
        assert_eq!(legend(&d, Lang::En), vec!["LI lion".to_string(), "RO rose".to_string()]);
        assert_eq!(legend(&d, Lang::De), vec!["LI lion".to_string(), "RO rose".to_string()]);
    }
}
