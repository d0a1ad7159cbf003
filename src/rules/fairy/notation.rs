//! Moves of the fairy rule system in Popeye's long algebraic notation, with the effects of
//! the conditions as Popeye writes them: `Lc2*e4-f5` (a locust, or Take&Make: capture
//! square, then arrival), `De8-d1*d5` (Mars Circe: via the rebirth square), `[+bSe8]` (a
//! rebirth), `[wSf5->e8]` (a piece moved by a condition), `=w` (a colour change), `n` before
//! a neutral piece.

use super::{FMove, FPiece, FairyPosition, Owner};
use crate::piece::{Kind, Lang};
use crate::position::sq_name;
use crate::rules::Game;
use crate::rules::fairy::conditions::Hooks;

/// A piece's prefix in a move: nothing for a pawn of a side, `n` and the code for a neutral
/// piece, the code otherwise.
fn prefix(p: FPiece, lang: Lang) -> String {
    let code = p.kind.code_in(lang);
    match (p.owner, p.kind) {
        (Owner::Neutral, _) => format!("n{code}"),
        (_, Kind::Pawn) => String::new(),
        _ => code.to_string(),
    }
}

/// The move without marks.
pub fn move_text(pos: &FairyPosition, m: FMove, lang: Lang) -> String {
    let mut s = String::new();
    if let Some(rook) = m.rook {
        s.push_str(if rook.0 > m.from.0 { "0-0" } else { "0-0-0" });
        if m.victim.is_some() {
            // Make&Take: castling was the make, then the capture (`0-0*e6`).
            s.push('*');
            s.push_str(sq_name(m.to));
        }
    } else {
        let mover = pos.piece_at(m.from).unwrap_or(FPiece::new(Owner::of(pos.side), Kind::Pawn));
        s.push_str(&prefix(mover, lang));
        s.push_str(sq_name(m.from));
        let ep = pos.ep.is_some_and(|(e, v)| m.to == e && m.victim == Some(v) && mover.is_pawn());
        // Circe Take&Make and AntiCirce Take&Make: `via` is the rebirth square, in the notes.
        let via = m.via.filter(|_| !pos.conditions.rebirth().is_some_and(|r| r.by_move()));
        match (m.victim, via) {
            (Some(v), Some(via)) if via != v => {
                // Mars Circe (via the rebirth square) or Make&Take (via the make square).
                if pos.conditions.rebirth() == Some(super::conditions::Rebirth::Mars) {
                    s.push('-');
                    s.push_str(sq_name(via));
                }
                s.push('*');
                if ep {
                    // Make&Take en passant: the arrival only (`f6*g6 ep.`).
                    s.push_str(sq_name(m.to));
                } else {
                    s.push_str(sq_name(v));
                    if v != m.to {
                        s.push('-');
                        s.push_str(sq_name(m.to));
                    }
                }
            }
            (Some(v), _) if v != m.to && !ep => {
                s.push('*');
                s.push_str(sq_name(v));
                s.push('-');
                s.push_str(sq_name(m.to));
            }
            (Some(_), _) => {
                s.push('*');
                s.push_str(sq_name(m.to));
            }
            (None, _) => {
                s.push('-');
                s.push_str(sq_name(m.to));
            }
        }
        if let Some(k) = m.promotion {
            s.push('=');
            if mover.owner == Owner::Neutral {
                s.push('n');
            }
            s.push_str(k.code_in(lang));
        }
        if ep {
            s.push_str(" ep.");
        }
    }
    let after = pos.make_move(m);
    // The mover's colour change (Andernach) comes first, at its arrival, then the other
    // effects (a rebirth): Popeye's `Sc8*a7=w[+wBa2]` (`stip.inp` #24, Circe Andernach).
    let mut notes = String::new();
    for c in pos.conditions.iter().filter(|c| c.changes_mover()) {
        c.note(pos, &m, &after, &mut notes);
    }
    for c in pos.conditions.iter().filter(|c| !c.changes_mover()) {
        c.note(pos, &m, &after, &mut notes);
    }
    s.push_str(&translate_notes(&notes, lang));
    s
}

/// Popeye's colour letter in a bracket: `w`/`b`/`n` in English, `w`/`s`/`n` in German,
/// `b`/`n`/`n` in French.
fn colour_letter(c: char, lang: Lang) -> char {
    match (lang, c) {
        (Lang::En, c) => c,
        (Lang::De, 'b') => 's',
        (Lang::Fr, 'w') => 'b',
        (Lang::Fr, 'b') => 'n',
        (_, c) => c,
    }
}

/// The conditions' notes (written in English: `[+bSe8]`, `[wPb4->f8=Q]`, `[d4=w]`) in the
/// language of the output: colour letters and piece codes translated.
pub fn translate_notes(notes: &str, lang: Lang) -> String {
    if lang == Lang::En || notes.is_empty() {
        return notes.to_string();
    }
    let b: Vec<char> = notes.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut depth = 0;
    // Reads an English piece code at `j` (one or two capitals, longest known first).
    let code_at = |j: usize| -> Option<(Kind, usize)> {
        for len in [2, 1] {
            if j + len <= b.len() && b[j..j + len].iter().all(|c| c.is_ascii_uppercase()) {
                let code: String = b[j..j + len].iter().collect();
                if let Some(k) = Kind::from_code(&code) {
                    return Some((k, len));
                }
            }
        }
        None
    };
    while i < b.len() {
        let c = b[i];
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        if depth > 0 && matches!(c, 'w' | 'b' | 'n') {
            // A colour letter: before a piece code, or after `=` at the end of a colour change.
            if let Some((k, len)) = code_at(i + 1) {
                out.push(colour_letter(c, lang));
                out.push_str(k.code_in(lang));
                i += 1 + len;
                continue;
            }
            if i > 0 && b[i - 1] == '=' {
                out.push(colour_letter(c, lang));
                i += 1;
                continue;
            }
        }
        // A colour change after the move (Andernach `=b`): a lowercase colour letter after `=`
        // that no piece code follows.
        if depth == 0
            && c == '='
            && matches!(b.get(i + 1), Some('w' | 'b' | 'n'))
            && !b.get(i + 2).is_some_and(|c| c.is_ascii_alphanumeric())
        {
            out.push('=');
            out.push(colour_letter(b[i + 1], lang));
            i += 2;
            continue;
        }
        if depth > 0
            && c == '='
            && let Some((k, len)) = code_at(i + 1)
        {
            out.push('=');
            out.push_str(k.code_in(lang));
            i += 1 + len;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The legal move that `text` names: as [`move_text`] writes it, or without the conditions'
/// notes, or without ` ep.`.
pub fn parse_move(pos: &FairyPosition, text: &str) -> Option<FMove> {
    let text = text.trim();
    let moves = pos.legal_moves();
    let plain = |t: &str| -> String {
        let t = t.split('[').next().unwrap_or(t);
        let t = t.trim_end_matches(" ep.");
        t.trim().to_string()
    };
    moves
        .iter()
        .copied()
        .find(|&m| pos.move_text(m, Lang::En) == text)
        .or_else(|| moves.iter().copied().find(|&m| plain(&pos.move_text(m, Lang::En)) == plain(text)))
}
