//! FEN in and out for chess positions: the six orthodox letters, fairy pieces as Popeye codes
//! in parentheses (`(G)` a white grasshopper, `(ca)` a black camel), Échecs Réserve's reserves
//! in brackets after the placement (`[SPp]`). [`crate::notation`] re-exports both functions.

use super::{Position, PositionError, Setup, castle, sq_name};
use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};

fn fen_err(s: impl Into<String>) -> PositionError {
    PositionError::Fen(s.into())
}

/// FEN letter of a piece: orthodox letters (N for the knight), fairy kinds in parentheses as
/// Popeye codes: `(ca)` a black camel, `(G)` a white grasshopper.
pub(crate) fn fen_piece(p: Piece) -> String {
    let base = match p.kind {
        Kind::King => "K",
        Kind::Queen => "Q",
        Kind::Rook => "R",
        Kind::Bishop => "B",
        Kind::Knight => "N",
        Kind::Pawn => "P",
        k => {
            let c = k.code();
            return if p.color == Color::White { format!("({c})") } else { format!("({})", c.to_ascii_lowercase()) };
        }
    };
    if p.color == Color::White { base.to_string() } else { base.to_ascii_lowercase() }
}

fn parse_fen_kind(text: &str) -> Option<Kind> {
    match text.to_ascii_uppercase().as_str() {
        "N" | "S" => Some(Kind::Knight),
        "K" => Some(Kind::King),
        "Q" => Some(Kind::Queen),
        "R" => Some(Kind::Rook),
        "B" => Some(Kind::Bishop),
        "P" => Some(Kind::Pawn),
        other => Kind::from_code(other).filter(|k| !k.is_orthodox()),
    }
}

/// Reads pieces written as FEN letters, with fairy codes in parentheses; returns
/// (colour, kind) items in order, `None` entries for digits expanded by the caller.
fn fen_items(text: &str) -> Result<Vec<FenItem>, PositionError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap_or(0);
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                // Saturating: a long run of digits is an error below, not an overflow.
                n = n.saturating_mul(10).saturating_add(d);
                chars.next();
            }
            out.push(FenItem::Empty(n));
        } else if c == '(' {
            let mut code = String::new();
            loop {
                match chars.next() {
                    Some(')') => break,
                    Some(ch) if ch.is_ascii_alphabetic() && code.len() < 3 => code.push(ch),
                    _ => return Err(fen_err(format!("unclosed or bad fairy piece '({code}'"))),
                }
            }
            // Inside parentheses the letters are Popeye codes: `(N)` is the nightrider, `(S)`
            // the knight.
            let kind = Kind::from_code(&code).ok_or_else(|| fen_err(format!("unknown piece '({code})'")))?;
            let color = if code.chars().all(|c| c.is_ascii_uppercase()) { Color::White } else { Color::Black };
            out.push(FenItem::Piece(Piece::new(color, kind)));
        } else if c.is_ascii_alphabetic() {
            let kind = parse_fen_kind(&c.to_string()).ok_or_else(|| fen_err(format!("unknown piece letter '{c}'")))?;
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            out.push(FenItem::Piece(Piece::new(color, kind)));
        } else {
            return Err(fen_err(format!("unexpected character '{c}'")));
        }
    }
    Ok(out)
}

enum FenItem {
    Empty(u32),
    Piece(Piece),
}

/// Parses FEN into a [`Setup`]. The board may carry reserves in brackets after it
/// (`…/4K3[SPp]`, upper case White). Missing trailing fields default to `w - - 0 1`.
pub fn parse_fen(fen: &str) -> Result<Setup, PositionError> {
    let mut fields = fen.split_whitespace();
    let board_field = fields.next().ok_or_else(|| fen_err("empty FEN"))?;
    let mut setup = Setup { fullmove: 1, ..Setup::default() };
    let (board, reserve) = match board_field.find('[') {
        Some(i) => {
            let rest = &board_field[i + 1..];
            let end = rest.find(']').ok_or_else(|| fen_err("reserve '[' without ']'"))?;
            if end + 1 != rest.len() {
                return Err(fen_err("text after the reserve's ']'"));
            }
            (&board_field[..i], Some(&rest[..end]))
        }
        None => (board_field, None),
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(fen_err(format!("{} ranks instead of 8", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u32;
        for item in fen_items(rank_text)? {
            match item {
                FenItem::Empty(n) => file = file.saturating_add(n),
                FenItem::Piece(p) => {
                    if file >= 8 {
                        return Err(fen_err(format!("rank {} has more than 8 squares", rank + 1)));
                    }
                    setup.pieces.push((Square(rank * 8 + file as u8), p));
                    file += 1;
                }
            }
        }
        if file != 8 {
            return Err(fen_err(format!("rank {} has {} squares instead of 8", rank + 1, file)));
        }
    }
    if let Some(r) = reserve {
        for item in fen_items(r)? {
            match item {
                FenItem::Piece(p) if p.kind != Kind::King => setup.reserves[p.color.index()].push(p.kind),
                FenItem::Piece(_) => return Err(fen_err("a king cannot be in reserve")),
                FenItem::Empty(_) => return Err(fen_err("digit in the reserve")),
            }
        }
    }
    setup.side = Some(match fields.next().unwrap_or("w") {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(fen_err(format!("side to move '{other}'"))),
    });
    let c = fields.next().unwrap_or("-");
    if c != "-" {
        for ch in c.chars() {
            setup.castling |= match ch {
                'K' => castle::WK,
                'Q' => castle::WQ,
                'k' => castle::BK,
                'q' => castle::BQ,
                _ => return Err(fen_err(format!("castling field '{c}'"))),
            };
        }
    }
    let ep = fields.next().unwrap_or("-");
    if ep != "-" {
        setup.ep = Some(crate::position::parse_sq(ep).ok_or_else(|| fen_err(format!("en-passant square '{ep}'")))?);
    }
    if let Some(h) = fields.next() {
        setup.halfmove = h.parse().map_err(|_| fen_err(format!("half-move clock '{h}'")))?;
    }
    if let Some(f) = fields.next() {
        setup.fullmove = f.parse().map_err(|_| fen_err(format!("move number '{f}'")))?;
    }
    if let Some(extra) = fields.next() {
        return Err(fen_err(format!("unexpected field '{extra}'")));
    }
    Ok(setup)
}

/// Writes a position as FEN, with reserves in brackets when any side holds one.
pub fn write_fen(p: &Position) -> String {
    let mut s = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match p.piece_at(Square(rank * 8 + file)) {
                None => empty += 1,
                Some(pc) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&fen_piece(pc));
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let mut res = String::new();
    for c in Color::BOTH {
        for &k in Kind::CHESS {
            for _ in 0..p.reserve_count(c, k) {
                res.push_str(&fen_piece(Piece::new(c, k)));
            }
        }
    }
    if !res.is_empty() || p.reserve_rule().any() {
        s.push('[');
        s.push_str(&res);
        s.push(']');
    }
    s.push_str(if p.side_to_move() == Color::White { " w " } else { " b " });
    let c = p.castling();
    if c == 0 {
        s.push('-');
    }
    for (bit, ch) in [(castle::WK, 'K'), (castle::WQ, 'Q'), (castle::BK, 'k'), (castle::BQ, 'q')] {
        if c & bit != 0 {
            s.push(ch);
        }
    }
    match p.ep_square() {
        Some(e) => {
            s.push(' ');
            s.push_str(sq_name(e));
        }
        None => s.push_str(" -"),
    }
    s.push_str(&format!(" {} {}", p.halfmove, p.fullmove));
    s
}
