//! The diagram: pieces from `algebraic` lists or `fen`, for chess, Xiangqi and Cheskers, and
//! the checks that each rule system's diagram must pass.

use super::error::Fault;
use super::yaml::{field, kind_of, texts, untag};
use crate::geometry::{Square, regions};
use crate::piece::{Color, Kind};
use crate::rules::cheskers::{CheskersKind, CheskersPosition};
use serde_yaml::Value;

/// Piece attributes Popeye knows (prefixed words): not supported yet.
pub(crate) const ATTRIBUTES: &[&str] = &[
    "royal",
    "kamikaze",
    "paralysing",
    "paralyzing",
    "chameleon",
    "jigger",
    "volage",
    "functionary",
    "halfneutral",
    "hurdlecolourchanging",
    "protean",
    "magic",
    "uncapturable",
    "patrol",
    "frischauf",
];

/// A piece as written in an `algebraic` list, before the rules give its code a meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawPiece {
    /// Its side.
    pub color: Color,
    /// The piece code, upper case.
    pub code: String,
    /// File (0 = a).
    pub file: u8,
    /// Rank (0 = the bottom rank).
    pub rank: u8,
    /// The item as written.
    pub text: String,
    /// The list it came from (`white`, `black`, `neutral`).
    pub list: &'static str,
    /// Whether it is a neutral piece (its `color` is then White's, meaningless).
    pub neutral: bool,
}

/// Board dimensions and square naming: (files, ranks, name of the bottom rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    pub files: u8,
    pub ranks: u8,
    pub first_rank: u8,
}

pub(crate) const CHESS: Dims = Dims { files: 8, ranks: 8, first_rank: 1 };
pub(crate) const XIANGQI: Dims = Dims { files: 9, ranks: 10, first_rank: 0 };

impl Dims {
    pub(crate) fn name(self, file: u8, rank: u8) -> String {
        format!("{}{}", (b'a' + file) as char, rank as u32 + self.first_rank as u32)
    }
}

/// Splits `CAb2` into code `CA` and square `b2` and checks the square; the error in words.
fn split_item(word: &str, dims: Dims) -> Result<(String, u8, u8), String> {
    let digits = word.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || word.len() < digits + 1 {
        return Err(format!("'{word}' has no square: write a piece code and a square, e.g. Kb6"));
    }
    let at = word.len() - digits - 1;
    if !word.is_char_boundary(at) || !word.as_bytes()[at].is_ascii_alphabetic() {
        return Err(format!("'{word}' has no square: write a piece code and a square, e.g. Kb6"));
    }
    let (code, sq) = word.split_at(at);
    if code.is_empty() {
        return Err(format!("'{word}' has no piece code: write a piece code and a square, e.g. Kb6"));
    }
    let f = sq.as_bytes()[0].to_ascii_lowercase();
    let rank_num: u32 = sq[1..].parse().unwrap_or(u32::MAX);
    let sq_l = sq.to_ascii_lowercase();
    if !f.is_ascii_lowercase()
        || f - b'a' >= dims.files
        || rank_num < dims.first_rank as u32
        || rank_num - (dims.first_rank as u32) >= dims.ranks as u32
    {
        return Err(format!("square '{sq_l}' is off the board"));
    }
    Ok((code.to_ascii_uppercase(), f - b'a', (rank_num - dims.first_rank as u32) as u8))
}

/// Reads `algebraic: {white: [...], black: [...], neutral: [...]}`. Attributes are added to
/// `unsupported`; so are neutral pieces unless `neutral` (the chess rules play them).
pub(crate) fn read_algebraic(v: &Value, dims: Dims, neutral: bool, unsupported: &mut Vec<String>) -> Result<Vec<RawPiece>, Fault> {
    let Value::Mapping(m) = untag(v) else {
        return Err(Fault::at(&["algebraic"], format!("'algebraic' must hold the lists 'white' and 'black', found {}", kind_of(v))));
    };
    let mut out = Vec::new();
    let lists: &[(&'static str, Color)] = if neutral {
        &[("white", Color::White), ("black", Color::Black), ("neutral", Color::White)]
    } else {
        &[("white", Color::White), ("black", Color::Black)]
    };
    for &(list, color) in lists {
        let alias = match list {
            "white" => "red",
            l => l,
        };
        let Some(items) = field(m, list).or_else(|| field(m, alias)) else { continue };
        if let Value::Mapping(_) = items {
            return Err(Fault::at(&["algebraic", list], format!("'{list}' must be a list of pieces such as [Kb6, Sc5]")));
        }
        for item in texts(items, true) {
            let words: Vec<&str> = item.split_whitespace().collect();
            let Some((last, attrs)) = words.split_last() else { continue };
            for a in attrs {
                if ATTRIBUTES.contains(&a.to_ascii_lowercase().as_str()) {
                    unsupported.push(format!("piece attribute '{a}' ({item}) is not supported yet"));
                } else {
                    return Err(Fault::on(&["algebraic", list], a, format!("unknown piece attribute '{a}' in '{item}'")));
                }
            }
            let (code, file, rank) = split_item(last, dims).map_err(|m| Fault::on(&["algebraic", list], last, m))?;
            out.push(RawPiece { color, code, file, rank, text: last.to_string(), list, neutral: list == "neutral" });
        }
    }
    if !neutral
        && let Some(n) = field(m, "neutral")
        && !texts(n, true).is_empty()
    {
        unsupported.push("neutral pieces are not supported yet".into());
    }
    if !m.is_empty()
        && field(m, "white").is_none()
        && field(m, "black").is_none()
        && field(m, "red").is_none()
        && field(m, "neutral").is_none()
    {
        let keys: Vec<String> = m.keys().filter_map(super::yaml::scalar).collect();
        return Err(Fault::at(
            &["algebraic"],
            format!("'algebraic' has neither a 'white' nor a 'black' list (found: {})", keys.join(", ")),
        ));
    }
    Ok(out)
}

/// Reads `reserve: {white: [S, P], black: [P]}` into kinds per side.
pub(crate) fn read_reserve(v: &Value) -> Result<[Vec<Kind>; 2], Fault> {
    let Value::Mapping(m) = untag(v) else {
        return Err(Fault::at(&["reserve"], format!("'reserve' must hold the lists 'white' and 'black', found {}", kind_of(v))));
    };
    let mut out = [Vec::new(), Vec::new()];
    for (list, color) in [("white", Color::White), ("black", Color::Black)] {
        let Some(items) = field(m, list) else { continue };
        for code in texts(items, true) {
            // `2P` stands for two pawns.
            let digits = code.bytes().take_while(|b| b.is_ascii_digit()).count();
            let (count, c) =
                if digits > 0 { (code[..digits].parse::<usize>().unwrap_or(usize::MAX), &code[digits..]) } else { (1, code.as_str()) };
            let kind = Kind::from_code(c)
                .ok_or_else(|| Fault::on(&["reserve", list], &code, format!("unknown piece code '{c}' in the reserve")))?;
            if kind == Kind::King {
                return Err(Fault::on(&["reserve", list], &code, "a king cannot be in reserve"));
            }
            if count > crate::position::MAX_RESERVE as usize {
                return Err(Fault::on(
                    &["reserve", list],
                    &code,
                    format!("a reserve holds at most {} pieces of one kind", crate::position::MAX_RESERVE),
                ));
            }
            for _ in 0..count {
                out[color.index()].push(kind);
            }
        }
    }
    Ok(out)
}

/// Chess pieces from raw pieces: codes are Popeye's English codes.
pub(crate) fn chess_pieces(raw: &[RawPiece]) -> Result<Vec<(Square, crate::piece::Piece)>, Fault> {
    let mut out = Vec::new();
    for p in raw {
        let kind = Kind::from_code(&p.code).ok_or_else(|| {
            Fault::on(
                &["algebraic", p.list],
                &p.text,
                format!(
                    "unknown piece code '{}' in '{}' (Popeye codes: K Q R B S P; fairy N G CA Z GI AM EM PR LE PA VA MA MO)",
                    p.code, p.text
                ),
            )
        })?;
        let sq = Square(p.rank * 8 + p.file);
        if let Some((_, other)) = out.iter().find(|(s, _)| *s == sq) {
            let _: &crate::piece::Piece = other;
            return Err(Fault::on(&["algebraic", p.list], &p.text, format!("two pieces on {}", crate::position::sq_name(sq))));
        }
        out.push((sq, crate::piece::Piece::new(p.color, kind)));
    }
    Ok(out)
}

/// The castling rights that the placement allows (king and rook on their initial squares).
pub(crate) fn default_castling(pieces: &[(Square, crate::piece::Piece)]) -> u8 {
    use crate::position::castle;
    let at = |s: u8, c: Color, k: Kind| pieces.iter().any(|(q, p)| q.0 == s && p.color == c && p.kind == k);
    let mut r = 0;
    if at(4, Color::White, Kind::King) {
        if at(7, Color::White, Kind::Rook) {
            r |= castle::WK;
        }
        if at(0, Color::White, Kind::Rook) {
            r |= castle::WQ;
        }
    }
    if at(60, Color::Black, Kind::King) {
        if at(63, Color::Black, Kind::Rook) {
            r |= castle::BK;
        }
        if at(56, Color::Black, Kind::Rook) {
            r |= castle::BQ;
        }
    }
    r
}

// ---------------------------------------------------------------------------------------------
// Xiangqi

pub(crate) use crate::rules::xiangqi::XiangqiKind as XKind;
use crate::rules::xiangqi::{XiangqiError, XiangqiPosition};

/// A Xiangqi kind from its letter in a problem file (`K A B N R C P`, also `G` general, `E`
/// elephant, `H` horse, `S` soldier).
fn xkind_from_code(c: &str) -> Option<XKind> {
    match c.to_ascii_uppercase().as_str() {
        "G" => Some(XKind::General),
        "S" => Some(XKind::Soldier),
        c if c.chars().count() == 1 => c.chars().next().and_then(XKind::from_letter),
        _ => None,
    }
}

fn xkind_name(k: XKind) -> &'static str {
    match k {
        XKind::General => "general",
        XKind::Advisor => "advisor",
        XKind::Elephant => "elephant",
        XKind::Horse => "horse",
        XKind::Chariot => "chariot",
        XKind::Cannon => "cannon",
        XKind::Soldier => "soldier",
    }
}

/// The most pieces of a kind a side can have.
fn xkind_most(k: XKind) -> usize {
    match k {
        XKind::General => 1,
        XKind::Soldier => 5,
        _ => 2,
    }
}

/// A Xiangqi piece on a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct XPiece {
    pub color: Color,
    pub kind: XKind,
    pub file: u8,
    pub rank: u8,
    pub text: String,
    pub list: &'static str,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "red",
        Color::Black => "black",
    }
}

/// Xiangqi pieces from raw pieces.
pub(crate) fn xiangqi_pieces(raw: &[RawPiece]) -> Result<Vec<XPiece>, Fault> {
    raw.iter()
        .map(|p| {
            let kind = xkind_from_code(&p.code).ok_or_else(|| {
                Fault::on(
                    &["algebraic", p.list],
                    &p.text,
                    format!("unknown Xiangqi piece code '{}' in '{}' (K A B N R C P)", p.code, p.text),
                )
            })?;
            Ok(XPiece { color: p.color, kind, file: p.file, rank: p.rank, text: p.text.clone(), list: p.list })
        })
        .collect()
}

/// Reads a Xiangqi FEN (10 ranks of 9 points, `w`/`r` Red or `b` Black to move) with the
/// engine's reader; the placement is checked by [`check_xiangqi`].
pub(crate) fn xiangqi_fen(fen: &str) -> Result<(Vec<XPiece>, Option<Color>), String> {
    let (pieces, side) = XiangqiPosition::read_fen(fen).map_err(|e| e.to_string())?;
    let out = pieces
        .into_iter()
        .map(|(sq, color, kind)| {
            let letter = if color == Color::White { kind.letter() } else { kind.letter().to_ascii_lowercase() };
            XPiece { color, kind, file: sq.0 % 9, rank: sq.0 / 9, text: letter.to_string(), list: "fen" }
        })
        .collect();
    Ok((out, side))
}

fn xfault(p: &XPiece, message: String) -> Fault {
    if p.list == "fen" { Fault::at(&["fen"], message) } else { Fault::on(&["algebraic", p.list], &p.text, message) }
}

/// Checks a Xiangqi diagram: one point per piece, one general each, piece counts, the regions
/// (palace, own half, the points advisors, elephants and soldiers can reach), the generals not
/// facing each other, and the side not to move not in check; gives the position, `to_move` to
/// move.
pub(crate) fn check_xiangqi(pieces: &[XPiece], to_move: Color) -> Result<XiangqiPosition, Fault> {
    let d = XIANGQI;
    let idx = |p: &XPiece| p.rank as usize * 9 + p.file as usize;
    let mut seen = [false; 90];
    for p in pieces {
        if std::mem::replace(&mut seen[idx(p)], true) {
            return Err(xfault(p, format!("two pieces on {}", d.name(p.file, p.rank))));
        }
    }
    for c in Color::BOTH {
        for k in [XKind::General, XKind::Advisor, XKind::Elephant, XKind::Horse, XKind::Chariot, XKind::Cannon, XKind::Soldier] {
            let n = pieces.iter().filter(|p| p.color == c && p.kind == k).count();
            if k == XKind::General && n == 0 {
                return Err(Fault::at(
                    &[if pieces.iter().any(|p| p.list == "fen") { "fen" } else { "algebraic" }],
                    format!("{} has no general", cap(side_name(c))),
                ));
            }
            if n > xkind_most(k) {
                let p = pieces.iter().rfind(|p| p.color == c && p.kind == k).ok_or_else(|| Fault::at(&[], "internal"))?;
                return Err(xfault(p, format!("{} has {n} {}s (at most {})", cap(side_name(c)), xkind_name(k), xkind_most(k))));
            }
        }
    }
    for p in pieces {
        let red = p.color == Color::White;
        let bit = 1u128 << idx(p);
        let name = d.name(p.file, p.rank);
        let side = side_name(p.color);
        // Rank counted from the piece's own side.
        let own_rank = if red { p.rank } else { 9 - p.rank };
        match p.kind {
            XKind::General if regions::palace(red) & bit == 0 => {
                return Err(xfault(p, format!("the {side} general on {name} is outside its palace")));
            }
            XKind::Advisor => {
                let on_point = (own_rank == 1 && p.file == 4) || ((own_rank == 0 || own_rank == 2) && (p.file == 3 || p.file == 5));
                if regions::palace(red) & bit == 0 || !on_point {
                    return Err(xfault(p, format!("the {side} advisor on {name} is outside the points of its palace it can reach")));
                }
            }
            XKind::Elephant => {
                if regions::own_half(red) & bit == 0 {
                    return Err(xfault(p, format!("the {side} elephant on {name} has crossed the river")));
                }
                let on_point = matches!((own_rank, p.file), (0 | 4, 2 | 6) | (2, 0 | 4 | 8));
                if !on_point {
                    return Err(xfault(p, format!("the {side} elephant on {name} stands on a point no elephant can reach")));
                }
            }
            XKind::Soldier => {
                if own_rank < 3 {
                    return Err(xfault(p, format!("the {side} soldier on {name} stands behind its starting rank")));
                }
                if own_rank < 5 && p.file % 2 == 1 {
                    return Err(xfault(
                        p,
                        format!("the {side} soldier on {name} stands where no soldier can (before the river it keeps its file)"),
                    ));
                }
            }
            _ => {}
        }
    }
    // Flying general.
    let general = |c: Color| pieces.iter().find(|p| p.color == c && p.kind == XKind::General);
    if let (Some(r), Some(b)) = (general(Color::White), general(Color::Black))
        && r.file == b.file
    {
        let between = pieces.iter().any(|p| p.file == r.file && p.rank > r.rank.min(b.rank) && p.rank < r.rank.max(b.rank));
        if !between {
            return Err(xfault(b, format!("the generals face each other on the {}-file", (b'a' + r.file) as char)));
        }
    }
    // The side not to move must not be in check: the engine's own attack test says.
    let general = |c: Color| pieces.iter().find(|p| p.color == c && p.kind == XKind::General);
    let placed: Vec<_> = pieces.iter().map(|p| (Square(p.rank * 9 + p.file), p.color, p.kind)).collect();
    XiangqiPosition::from_pieces(&placed, to_move).map_err(|e| match (&e, general(to_move.opponent())) {
        (XiangqiError::OppositeCheck(_), Some(g)) => {
            xfault(g, format!("the side not to move ({}) is in check", side_name(to_move.opponent())))
        }
        _ => Fault::at(&[if pieces.iter().any(|p| p.list == "fen") { "fen" } else { "algebraic" }], e.to_string()),
    })
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Cheskers

/// A Cheskers piece, with where the problem gives it (for error messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CPiece {
    pub color: Color,
    pub kind: CheskersKind,
    pub file: u8,
    pub rank: u8,
    pub text: String,
    pub list: &'static str,
}

/// Cheskers pieces from raw pieces (`K B CA P`).
pub(crate) fn cheskers_pieces(raw: &[RawPiece]) -> Result<Vec<CPiece>, Fault> {
    raw.iter()
        .map(|p| {
            let Some(kind) = CheskersKind::from_code(&p.code) else {
                return Err(Fault::on(
                    &["algebraic", p.list],
                    &p.text,
                    format!("piece '{}' in '{}' does not exist in Cheskers (K, B, CA, P)", p.code, p.text),
                ));
            };
            Ok(CPiece { color: p.color, kind, file: p.file, rank: p.rank, text: p.text.clone(), list: p.list })
        })
        .collect()
}

/// Reads a Cheskers FEN (`K B C P`, C the camel; the fields after the side may be left out)
/// with the engine's reader.
pub(crate) fn cheskers_fen(fen: &str) -> Result<(Vec<CPiece>, Option<Color>), String> {
    let (pieces, side) = CheskersPosition::read_fen(fen).map_err(|e| e.to_string())?;
    let pieces = pieces
        .into_iter()
        .map(|(sq, color, kind)| {
            let l = kind.fen_letter();
            let text = if color == Color::White { l } else { l.to_ascii_lowercase() }.to_string();
            CPiece { color, kind, file: sq.0 % 8, rank: sq.0 / 8, text, list: "fen" }
        })
        .collect();
    Ok((pieces, side))
}

/// Checks a Cheskers diagram (dark squares only, one piece per square, at least one king each,
/// no pawn on its first or last rank) and gives its position with `to_move` to move.
pub(crate) fn check_cheskers(pieces: &[CPiece], to_move: Color) -> Result<CheskersPosition, Fault> {
    let fault =
        |p: &CPiece, m: String| if p.list == "fen" { Fault::at(&["fen"], m) } else { Fault::on(&["algebraic", p.list], &p.text, m) };
    let dark = regions::dark_squares();
    let mut seen = 0u64;
    for p in pieces {
        let sq = p.rank * 8 + p.file;
        let name = CHESS.name(p.file, p.rank);
        if seen & (1 << sq) != 0 {
            return Err(fault(p, format!("two pieces on {name}")));
        }
        seen |= 1 << sq;
        if dark & (1 << sq) == 0 {
            return Err(fault(p, format!("the piece on {name} stands on a light square (Cheskers uses the dark squares only)")));
        }
        if p.kind == CheskersKind::Pawn {
            let last = if p.color == Color::White { 7 } else { 0 };
            let first = 7 - last;
            if p.rank == last {
                return Err(fault(p, format!("{} pawn on {name}, its last rank (it would have been promoted)", p.color.name())));
            }
            if p.rank == first {
                return Err(fault(p, format!("{} pawn on {name}, its first rank (pawns never move back)", p.color.name())));
            }
        }
    }
    for c in Color::BOTH {
        if !pieces.iter().any(|p| p.color == c && p.kind == CheskersKind::King) {
            let key = if pieces.iter().any(|p| p.list == "fen") { "fen" } else { "algebraic" };
            return Err(Fault::at(&[key], format!("{} has no king (the game would be over)", cap(c.name()))));
        }
    }
    let placed: Vec<_> = pieces.iter().map(|p| (Square(p.rank * 8 + p.file), p.color, p.kind)).collect();
    CheskersPosition::from_pieces(&placed, to_move).map_err(|e| {
        let key = if pieces.iter().any(|p| p.list == "fen") { "fen" } else { "algebraic" };
        Fault::at(&[key], e.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_codes() {
        assert_eq!(split_item("CAb2", CHESS), Ok(("CA".into(), 1, 1)));
        assert!(split_item("Ki9", CHESS).unwrap_err().contains("'i9' is off the board"));
        assert_eq!(split_item("Ki9", XIANGQI), Ok(("K".into(), 8, 9)));
        assert!(split_item("b6", CHESS).unwrap_err().contains("no piece code"));
        assert!(split_item("K", CHESS).unwrap_err().contains("no square"));
    }

    #[test]
    fn xiangqi_checks() {
        let (p, _) = xiangqi_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert!(check_xiangqi(&p, Color::White).is_ok());
        // Generals facing on an open file.
        let (p, _) = xiangqi_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(check_xiangqi(&p, Color::White).unwrap_err().message.contains("face each other"));
        // An advisor out of its palace.
        let (p, _) = xiangqi_fen("3k5/9/9/9/9/9/9/A8/9/4K4 w").unwrap();
        assert!(check_xiangqi(&p, Color::White).unwrap_err().message.contains("advisor"));
        // Black in check from a red chariot, Red to move.
        let (p, _) = xiangqi_fen("3k5/9/9/9/9/9/9/9/9/3RK4 w").unwrap();
        assert!(check_xiangqi(&p, Color::White).unwrap_err().message.contains("in check"));
    }

    #[test]
    fn cheskers_checks() {
        let (p, _) = cheskers_fen("1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b").unwrap();
        assert!(check_cheskers(&p, Color::Black).is_ok());
        let (p, _) = cheskers_fen("1c1k1k1b/8/8/8/8/8/8/1BK1K1C1 b").unwrap();
        assert!(check_cheskers(&p, Color::Black).unwrap_err().message.contains("light square"));
    }

    #[test]
    fn chess_squares_stay_on_the_8x8_board() {
        // The chess reader takes a1–h8 and refuses what lies beyond, which the Xiangqi
        // reader (9×10, ranks from 0) takes.
        assert_eq!(split_item("Qh8", CHESS), Ok(("Q".to_string(), 7, 7)));
        assert_eq!(CHESS.name(0, 0), "a1");
        assert!(split_item("Qi1", CHESS).is_err() && split_item("Qa9", CHESS).is_err() && split_item("Qa0", CHESS).is_err());
        assert_eq!(split_item("Ri9", XIANGQI).map(|(_, f, r)| (f, r)), Ok((8, 9)));
        assert_eq!(XIANGQI.name(0, 0), "a0");
    }
}
