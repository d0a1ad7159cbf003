//! ICCS and WXF move notation, out and in.
//!
//! **ICCS** names the two points: `h2e2` (files `a`–`i` from Red's left, ranks `0`–`9` from
//! Red's side).
//!
//! **WXF**: see [`XiangqiPosition::wxf`].

use super::{XMove, XiangqiKind, XiangqiPosition};
use crate::geometry::{Square, Xiangqi9x10};
use crate::piece::Color;

/// The ICCS point of an index reading `f r` (files `a`–`i`, ranks `0`–`9`).
fn parse_point(f: u8, r: u8) -> Option<Square> {
    let f = f.to_ascii_lowercase();
    if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() { Some(Square((r - b'0') * 9 + (f - b'a'))) } else { None }
}

/// Reads ICCS `h2e2` or `h2-e2` into two points.
fn parse_iccs(text: &str) -> Option<(Square, Square)> {
    let b = text.as_bytes();
    match b.len() {
        4 => Some((parse_point(b[0], b[1])?, parse_point(b[2], b[3])?)),
        5 if b[2] == b'-' => Some((parse_point(b[0], b[1])?, parse_point(b[3], b[4])?)),
        _ => None,
    }
}

/// The digit of a number 1–9.
fn digit(n: u32) -> char {
    char::from_digit(n, 10).unwrap_or('?')
}

impl XiangqiPosition {
    /// The move in ICCS coordinates: `h2e2`.
    pub fn iccs(&self, m: XMove) -> String {
        format!("{}{}", m.from.name::<Xiangqi9x10>(), m.to.name::<Xiangqi9x10>())
    }

    /// The move in WXF notation (`C2.5`, `H2+3`, `R+.3` for the front one of two chariots on a
    /// file); ICCS where WXF has no unambiguous form.
    ///
    /// **WXF** (World Xiangqi Federation) is relative to the mover: the piece letter (`K A E H R C
    /// P`: WXF's own letters, `E` and `H` where FEN has `B` and `N`; both are read), the file it stands on numbered 1–9 from the mover's right (Red's file 1 is `i`,
    /// Black's file 1 is `a`), then `+` (forward), `-` (backward) or `.` (sideways), then the
    /// destination file for the advisor, elephant and horse and for every sideways move, else the
    /// number of ranks moved. Red `h2e2` is `C2.5`, `h0g2` `H2+3`; Black `b7e7` is `C2.5`, `b9c7`
    /// `H2+3` and `h9g7` `H8+7`.
    ///
    /// Pieces of one kind on one file ("tandem" pieces) follow the WXF convention (wxf.org,
    /// "Official Xiangqi piece names and notation"): the file digit of the moving piece gives way
    /// to its place on the file, front (nearest the opponent) first:
    /// - two: `+` (front) and `-` (rear): `R+.3`, `C--1`;
    /// - three: `+`, the file digit (the middle one keeps the ordinary form), `-`: `P+.4`, `P3.4`,
    ///   `P-.4`;
    /// - four: `++` (the piece letter dropped), `+`, `-`, `--`: `++.4`, `P+.4`, `P-.4`, `--.4`;
    /// - five: `++`, `+`, the file digit, `-`, `--`.
    ///
    /// This applies to every kind alike (advisors and elephants included). When soldiers stand in
    /// tandem on more than one file, the letter `P` gives way to the file digit: `3+.4` (front
    /// soldier of file 3), `33.4` (middle), `3-.4` (rear). Where the convention has no form (more
    /// than five pieces on one file, four or more soldiers on a file while another file also has
    /// tandem soldiers, or any text two legal moves would share) the move is written in ICCS,
    /// which [`XiangqiPosition::parse_move`] reads as well.
    pub fn wxf(&self, m: XMove) -> String {
        match self.wxf_raw(m) {
            Some(text) if !self.legal_moves().iter().any(|&o| o != m && self.wxf_raw(o).as_deref() == Some(text.as_str())) => text,
            _ => self.iccs(m),
        }
    }

    /// The WXF text of a move, without the check that no other legal move shares it; `None`
    /// where the convention has no form (or no piece stands on `from`).
    fn wxf_raw(&self, m: XMove) -> Option<String> {
        let (color, kind) = self.piece_at(m.from)?;
        let red = color == Color::White;
        // File number from the mover's right.
        let num = |file: u8| -> u32 { if red { 9 - file as u32 } else { file as u32 + 1 } };
        let (ff, fr) = (m.from.0 % 9, m.from.0 / 9);
        let (tf, tr) = (m.to.0 % 9, m.to.0 / 9);
        if tr > 9 {
            return None;
        }
        let forward = if red { tr as i32 - fr as i32 } else { fr as i32 - tr as i32 };
        // Ranks of the pieces of this colour and kind on the file, front first.
        let same = self.pieces_of(color, kind);
        let mut ranks: Vec<u8> = (0..10u8).filter(|&r| same >> (r * 9 + ff) & 1 != 0).collect();
        if red {
            ranks.reverse();
        }
        let n = ranks.len();
        let idx = ranks.iter().position(|&r| r == fr)?;
        let letter = kind.wxf_letter();
        let file_digit = digit(num(ff));
        let mut out = String::new();
        if n == 1 {
            out.push(letter);
            out.push(file_digit);
        } else {
            let tandem_files = (0..9u8).filter(|&f| (0..10u8).filter(|&r| same >> (r * 9 + f) & 1 != 0).count() >= 2).count();
            if kind == XiangqiKind::Soldier && tandem_files > 1 {
                if n > 3 {
                    return None;
                }
                out.push(file_digit);
                out.push(match (n, idx) {
                    (_, 0) => '+',
                    (3, 1) => file_digit,
                    _ => '-',
                });
            } else {
                let designator: &str = match (n, idx) {
                    (2 | 3, 0) | (4 | 5, 1) => "+",
                    (2, 1) | (3, 2) | (4, 2) | (5, 3) => "-",
                    (3, 1) | (5, 2) => "",
                    (4 | 5, 0) => "++",
                    (4, 3) | (5, 4) => "--",
                    _ => return None,
                };
                match designator {
                    "" => {
                        out.push(letter);
                        out.push(file_digit);
                    }
                    "++" | "--" => out.push_str(designator),
                    _ => {
                        out.push(letter);
                        out.push_str(designator);
                    }
                }
            }
        }
        if forward == 0 {
            out.push('.');
            out.push(digit(num(tf)));
        } else {
            out.push(if forward > 0 { '+' } else { '-' });
            let diagonal = matches!(kind, XiangqiKind::Advisor | XiangqiKind::Elephant | XiangqiKind::Horse);
            out.push(if diagonal { digit(num(tf)) } else { digit(forward.unsigned_abs()) });
        }
        Some(out)
    }

    /// Reads a move in ICCS (`h2e2`, `h2-e2`) or WXF (`C2.5`, `H2+3`, `R+.3`; also `E` and `H`
    /// for the elephant and horse, `=` for `.`, either case) and returns it if it is a legal move
    /// here.
    pub fn parse_move(&self, text: &str) -> Option<XMove> {
        let text = text.trim();
        let moves = self.legal_moves();
        if let Some((from, to)) = parse_iccs(text) {
            return moves.iter().copied().find(|m| m.from == from && m.to == to);
        }
        let mut norm = String::new();
        for ch in text.chars() {
            norm.push(match ch {
                '=' => '.',
                '–' | '−' => '-',
                '+' | '-' | '.' | '1'..='9' => ch,
                c => XiangqiKind::from_letter(c)?.wxf_letter(),
            });
        }
        if norm.is_empty() {
            return None;
        }
        moves.iter().copied().find(|&m| self.wxf(m) == norm)
    }
}
