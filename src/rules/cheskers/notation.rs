//! Cheskers notation (`shared/rules/cheskers.md`): `c3-d4` for a step, every landing square of
//! a chain `c3xe5xg7`, a promotion `=K`, `=B`, `=CA`. Pieces other than the pawn carry their
//! letter (`Kc1-d2`, `Ba1xd4`, `CAg1-f4`), in the language asked for (French `R F CA`,
//! German `K L CA`).

use super::{CMove, CheskersKind, CheskersPosition, square_name};
use crate::geometry::{Chess8x8, Square};
use crate::piece::Lang;

/// The letter of a kind in a language (empty for the pawn).
fn letter(k: CheskersKind, lang: Lang) -> &'static str {
    match k {
        CheskersKind::Pawn => "",
        _ => k.chess_kind().code_in(lang),
    }
}

impl CheskersPosition {
    /// A move in English notation: `c3-d4`, `Kc1xe3xc5`, `Ba1xd4`, `g7-h8=CA`.
    pub fn move_text(&self, m: CMove) -> String {
        self.move_text_lang(m, Lang::En)
    }

    /// A move in the notation of a language (piece letters).
    pub fn move_text_lang(&self, m: CMove, lang: Lang) -> String {
        let kind = self.piece_at(m.from).map_or(CheskersKind::Pawn, |(_, k)| k);
        let mut s = String::from(letter(kind, lang));
        s.push_str(&square_name(m.from));
        if m.jumps > 0 {
            for l in m.landings() {
                s.push('x');
                s.push_str(&square_name(l));
            }
        } else {
            s.push(if m.is_capture() { 'x' } else { '-' });
            s.push_str(&square_name(m.to));
        }
        if let Some(k) = m.promotion {
            s.push('=');
            s.push_str(letter(k, lang));
        }
        s
    }

    /// The legal move `text` names: the notation of [`CheskersPosition::move_text`] in any
    /// language, with `-`, `x`, `*` or `:` between the squares, with or without the piece
    /// letter, and a chain by all its squares (along any path that captures the same pieces)
    /// or by its first and last only (when that names one move). Marks (`#`, `+`, `!`, `?`) at the end are ignored. `None` when no legal move,
    /// or more than one, fits.
    pub fn parse_move(&self, text: &str) -> Option<CMove> {
        let want = Written::read(text)?;
        let moves = self.legal_moves();
        let fits = |m: &CMove, full: bool| {
            let kind = self.piece_at(m.from).map_or(CheskersKind::Pawn, |(_, k)| k);
            let squares: Vec<Square> = std::iter::once(m.from).chain(if m.jumps > 0 { m.landings() } else { vec![m.to] }).collect();
            let path_fits = if full { squares == want.squares || another_path(m, &want.squares) } else { want.squares == [m.from, m.to] };
            path_fits
                && m.promotion == want.promotion
                && want.piece.as_deref().is_none_or(|p| Lang::ALL.iter().any(|&l| letter(kind, l).eq_ignore_ascii_case(p)))
        };
        let full: Vec<CMove> = moves.iter().copied().filter(|m| fits(m, true)).collect();
        let found = if full.is_empty() { moves.iter().copied().filter(|m| fits(m, false)).collect() } else { full };
        match found.as_slice() {
            [m] => Some(*m),
            _ => None,
        }
    }
}

/// Whether `squares` is another path of the chain `m`: the same start, end and captured pieces
/// by other landing squares (a king circling four pieces the other way round), each step a
/// diagonal jump.
fn another_path(m: &CMove, squares: &[Square]) -> bool {
    if m.jumps == 0 || squares.len() != m.jumps as usize + 1 || squares.first() != Some(&m.from) || squares.last() != Some(&m.to) {
        return false;
    }
    let mut jumped = 0u64;
    for w in squares.windows(2) {
        let (a, b) = (w[0].0 as i32, w[1].0 as i32);
        let (df, dr) = (b % 8 - a % 8, b / 8 - a / 8);
        if df.abs() != 2 || dr.abs() != 2 {
            return false;
        }
        jumped |= 1u64 << ((a + b) / 2);
    }
    jumped == m.captured
}

/// What a written move says: an optional piece letter, its squares, an optional promotion.
struct Written {
    piece: Option<String>,
    squares: Vec<Square>,
    promotion: Option<CheskersKind>,
}

impl Written {
    fn read(text: &str) -> Option<Written> {
        let t = text.trim().trim_end_matches(['#', '+', '!', '?']);
        let (body, promotion) = match t.split_once('=') {
            Some((b, p)) => (b, Some(promotion_kind(p)?)),
            None => (t, None),
        };
        let start = body.find(|c: char| c.is_ascii_lowercase() && ('a'..='h').contains(&c))?;
        let (letters, rest) = body.split_at(start);
        let piece = if letters.is_empty() {
            None
        } else if letters.chars().all(|c| c.is_ascii_uppercase()) {
            Some(letters.to_string())
        } else {
            return None;
        };
        let mut squares = Vec::new();
        for part in rest.split(['-', 'x', '*', ':']) {
            squares.push(Square::parse::<Chess8x8>(part).filter(|_| part.len() == 2)?);
        }
        (squares.len() >= 2).then_some(Written { piece, squares, promotion })
    }
}

/// The kind a promotion letter names, in any language (`K`/`R`, `B`/`F`/`L`, `CA`/`C`).
fn promotion_kind(p: &str) -> Option<CheskersKind> {
    let p = p.trim();
    [CheskersKind::King, CheskersKind::Bishop, CheskersKind::Camel]
        .into_iter()
        .find(|&k| Lang::ALL.iter().any(|&l| letter(k, l).eq_ignore_ascii_case(p)))
        .or_else(|| p.eq_ignore_ascii_case("C").then_some(CheskersKind::Camel))
}
