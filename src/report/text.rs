//! Popeye-like text: keys with `!`, tries with `?` and `but`, `threat:`, `zugzwang.`, help
//! lines `1.Kb7-a8 Sd5-b6 #`, series lines `1.a   2.b   3.c Rd1*d3 #`.

use crate::piece::Lang;
use crate::problem::stipulation::{Play, Stipulation};
use crate::record::Record;
use crate::report::popeye;
use crate::solve::{Line, Phase};

fn with_mark(mv: &str, mark: &str) -> String {
    if mark.is_empty() { mv.to_string() } else { format!("{mv} {mark}") }
}

/// Translates the piece letters of a move written in English into `lang`; Xiangqi moves (ICCS
/// `h2e2`, WXF `R3.5`) stay as they are.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::text::translate;
/// assert_eq!(translate("Sc5-e4", Lang::Fr), "Cc5-e4");
/// assert_eq!(translate("e7-e8=Q", Lang::De), "e7-e8=D");
/// assert_eq!(translate("nPb7-b8=nQ", Lang::De), "nBb7-b8=nD");
/// assert_eq!(translate("d4*e5[+bSb8]", Lang::De), "d4*e5[+sSb8]");
/// assert_eq!(translate("Rd2*d1[wRd1->h1]", Lang::De), "Td2*d1[wTd1->h1]");
/// assert_eq!(translate("nPa7*b8=nS[+nBf8]", Lang::De), "nBa7*b8=nS[+nLf8]");
/// assert_eq!(translate("R3.5", Lang::Fr), "R3.5");
/// assert_eq!(translate("R+.3", Lang::De), "R+.3");
/// assert_eq!(translate("b2*a1=Q[bQa1->d8]", Lang::De), "b2*a1=D[sDa1->d8]");
/// assert_eq!(translate("d4*e5[+bSe8]", Lang::Fr), "d4*e5[+nCe8]");
/// assert_eq!(translate("Be4*d3=b +", Lang::De), "Le4*d3=s +");
/// ```
pub fn translate(mv: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return mv.to_string();
    }
    // What the fairy conditions did (`[+bSe8]`, `[wPb4->f8=Q]`) follows the move in brackets.
    if let Some(i) = mv.find('[') {
        return translate(&mv[..i], lang) + &crate::rules::fairy::translate_notes(&mv[i..], lang);
    }
    let mut out = String::new();
    let mut chars = mv.chars().peekable();
    let mut at_start = true;
    // Inside a condition's note (`[+bSe8]`, `[wSf5->e8]`, `[d4=w]`) pieces have a colour letter.
    let mut in_note = false;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        // A neutral piece's `n` (`nPb6-b7`, `=nQ`) stays before its code; in a note, the
        // colour letter is translated.
        // A colour change after the move (Andernach `Le4*d3=b`): no piece code follows.
        if matches!(c, 'w' | 'b' | 'n') && out.ends_with('=') && !next.is_some_and(|d| d.is_ascii_alphanumeric()) {
            out.push(colour_letter(c, lang));
            continue;
        }
        if at_start
            && matches!(c, 'w' | 'b' | 'n')
            && (in_note || c == 'n')
            && next.is_some_and(|d| d.is_ascii_uppercase() || (in_note && d == ']'))
        {
            out.push(colour_letter(c, lang));
            continue;
        }
        // A piece code is upper-case letters at the start of the move or after '='.
        if c.is_ascii_uppercase() && at_start {
            let mut code = String::from(c);
            while let Some(&d) = chars.peek() {
                if d.is_ascii_uppercase() {
                    code.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            // A chess piece code is followed by a square (or `*` in a short capture) or ends a
            // promotion; a Xiangqi WXF move (`R3.5`, `R+.3`) has a digit or a sign there and
            // keeps its letters in every language.
            let wxf = !in_note && !at_promotion(&out) && chars.peek().is_some_and(|d| d.is_ascii_digit() || matches!(d, '+' | '-' | '.'));
            match crate::piece::Kind::from_code(&code) {
                Some(k) if !wxf => out.push_str(k.code_in(lang)),
                _ => out.push_str(&code),
            }
        } else {
            out.push(c);
        }
        match c {
            '[' => in_note = true,
            ']' => in_note = false,
            _ => {}
        }
        at_start = c == '=' || (in_note && matches!(c, '[' | '+' | '-'));
    }
    out
}

/// A colour letter of Popeye's notation (`w`, `b`, `n` for neutral) in `lang`.
fn colour_letter(c: char, lang: Lang) -> char {
    match (lang, c) {
        (Lang::De, 'b') => 's',
        (Lang::Fr, 'w') => 'b',
        (Lang::Fr, 'b') => 'n',
        _ => c,
    }
}

/// Whether the text written so far ends a promotion's `=`.
fn at_promotion(out: &str) -> bool {
    out.ends_with('=') || out.ends_with("=n")
}

/// Words of the report in each language.
pub struct Words {
    /// "threat:".
    pub threat: &'static str,
    /// "zugzwang.".
    pub zugzwang: &'static str,
    /// "but".
    pub but: &'static str,
    /// "no solution".
    pub no_solution: &'static str,
    /// "set play".
    pub set_play: &'static str,
    /// "short": after a short solution (fewer moves than stipulated).
    pub short: &'static str,
    /// "refutes.": under a defence that refutes the play of a `PostKeyPlay` diagram.
    pub refutes: &'static str,
}

/// The words for `lang`.
pub fn words(lang: Lang) -> Words {
    match lang {
        Lang::En => Words {
            threat: "threat:",
            zugzwang: "zugzwang.",
            but: "but",
            no_solution: "no solution",
            set_play: "set play",
            short: "short",
            refutes: "refutes.",
        },
        Lang::Fr => Words {
            threat: "menace:",
            zugzwang: "blocus.",
            but: "mais",
            no_solution: "pas de solution",
            set_play: "jeu apparent",
            short: "courte",
            refutes: "Refute.",
        },
        Lang::De => Words {
            threat: "Drohung:",
            zugzwang: "Zugzwang.",
            but: "Aber",
            no_solution: "keine Lösung",
            set_play: "Satzspiel",
            short: "kurz",
            refutes: "Widerlegt.",
        },
    }
}

/// The Réserve line of a report: `  reserves (WhiteReserve): white R, black —`, the piece
/// codes in `lang`.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::{ReserveState, text::reserve_line};
/// let r = ReserveState { condition: "Reserve".into(), white: vec!["S".into(), "P".into()], black: vec![] };
/// assert_eq!(reserve_line(&r, Lang::En), "  reserves (Reserve): white S P, black —");
/// assert_eq!(reserve_line(&r, Lang::Fr), "  réserves (Reserve): blancs C P, noirs —");
/// assert_eq!(reserve_line(&r, Lang::De), "  Reserven (Reserve): Weiß S B, Schwarz —");
/// ```
pub fn reserve_line(r: &crate::report::ReserveState, lang: Lang) -> String {
    let (word, white, black) = match lang {
        Lang::En => ("reserves", "white", "black"),
        Lang::Fr => ("réserves", "blancs", "noirs"),
        Lang::De => ("Reserven", "Weiß", "Schwarz"),
    };
    let list = |codes: &[String]| -> String {
        if codes.is_empty() {
            return "—".into();
        }
        let v: Vec<&str> = codes.iter().map(|c| crate::piece::Kind::from_code(c).map_or(c.as_str(), |k| k.code_in(lang))).collect();
        v.join(" ")
    };
    format!("  {word} ({}): {white} {}, {black} {}", r.condition, list(&r.white), list(&r.black))
}

/// A help line, as Popeye writes it ([`popeye::help_line`]).
pub fn help_line(line: &Line, lang: Lang) -> String {
    popeye::help_line(line, lang)
}

/// A line of reciprocal help play, as Popeye writes it ([`popeye::reci_help_line`]).
pub fn reci_help_line(line: &Line, lang: Lang) -> String {
    popeye::reci_help_line(line, lang)
}

/// A series line, as Popeye writes it ([`popeye::series_line`]).
pub fn series_line(line: &Line, has_reply: bool, lang: Lang) -> String {
    popeye::series_line(line, has_reply, lang)
}

/// Appends lines written by the Popeye renderer, each with its newline.
fn push_lines(out: &mut String, lines: Vec<String>) {
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
}

/// Writes one phase of a solution.
pub fn phase(stip: &Stipulation, ph: &Phase, lang: Lang) -> String {
    let w = words(lang);
    // A short solution (fewer moves than stipulated) is followed by `(short)`.
    let short = |out: &mut String, marks: &[usize], i: usize| {
        if marks.contains(&i) {
            out.push_str(&format!(" ({})", w.short));
        }
    };
    let mut out = String::new();
    if let Some(l) = &ph.label {
        out.push_str(&format!("  {l}:\n"));
    }
    if let Some(n) = &ph.note {
        out.push_str(&format!("  {n}\n"));
        return out;
    }
    if !ph.set_play.is_empty() || !ph.set_lines.is_empty() {
        out.push_str(&format!("  {}:\n", w.set_play));
        let mut lines = Vec::new();
        for d in &ph.set_play {
            popeye::defence_tree(&mut lines, d, 1, lang);
        }
        push_lines(&mut out, lines);
        for (i, l) in ph.set_lines.iter().enumerate() {
            if stip.series {
                out.push_str(&format!("  1...{}", with_mark(&translate(&l[0].mv, lang), &l[0].mark)));
            } else {
                out.push_str(&popeye::set_help_line(stip, l, lang));
            }
            short(&mut out, &ph.set_short, i);
            out.push('\n');
        }
        out.push('\n');
    }
    let battle = stip.is_battle();
    if battle {
        for (n, is_try) in ph.tries.iter().map(|t| (t, true)).chain(ph.keys.iter().map(|k| (k, false))) {
            let mut lines = Vec::new();
            popeye::key(&mut lines, n, is_try, lang);
            push_lines(&mut out, lines);
            out.push('\n');
        }
        if ph.keys.is_empty() {
            out.push_str(&format!("  {}\n", w.no_solution));
        }
    } else {
        let has_reply = stip.play != Play::Direct;
        for (i, l) in ph.lines.iter().enumerate() {
            if stip.series {
                // Reciprocal series: the ending of the series side's own goal has no reply.
                out.push_str(&series_line(l, has_reply && (stip.reci.is_none() || l.len() > stip.moves as usize), lang));
            } else if stip.reci.is_some() || stip.goal.is_proof() {
                out.push_str(&reci_help_line(l, lang));
            } else {
                out.push_str(&help_line(l, lang));
            }
            short(&mut out, &ph.short, i);
            out.push('\n');
        }
        if ph.lines.is_empty() {
            out.push_str(&format!("  {}\n", w.no_solution));
        }
    }
    out
}

/// Text of one record, Popeye-like, in `lang`.
pub fn record_text(r: &Record, stip: Option<&crate::problem::Stipulation>, lang: Lang) -> String {
    let mut s = format!("{} #{}", r.file, r.document);
    if r.twin != "a" || !r.twin_change.is_empty() {
        s.push_str(&format!(" twin {}) {}", r.twin, r.twin_change));
    }
    s.push_str(&format!("  {}  {}\n", r.stipulation, r.title));
    if let Some(res) = &r.reserve {
        s.push_str(&reserve_line(res, lang));
        s.push('\n');
    }
    if let Some(st) = stip {
        for ph in &r.tree {
            s.push_str(&phase(st, ph, lang));
        }
    }
    s.push_str(&format!("verdict: {} ({}), {} ms\n", r.verdict, r.reason, r.elapsed_ms));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::LineMove;

    fn lm(m: &str, k: &str) -> LineMove {
        LineMove::new(m.into(), k.into())
    }

    #[test]
    fn help_lines_are_numbered_like_popeye() {
        let l = vec![lm("Kb7-a8", ""), lm("Sd5-b6", "#")];
        assert_eq!(help_line(&l, Lang::En), "  1.Kb7-a8 Sd5-b6 #");
        let l = vec![lm("e2-e3", ""), lm("Kg8-f7", ""), lm("e3-e4", "#")];
        assert_eq!(help_line(&l, Lang::En), "  1...e2-e3   2.Kg8-f7 e3-e4 #");
        // Black's own ending in reciprocal help play (Popeye's `reci-h(=)#3`).
        let l = vec![lm("e3-e2", ""), lm("g7-g8=Q", ""), lm("e2-e1=Q", ""), lm("Qg8-g3", ""), lm("Qe1*g3", "=")];
        assert_eq!(reci_help_line(&l, Lang::En), "  1.e3-e2 g7-g8=Q   2.e2-e1=Q Qg8-g3   3.Qe1*g3 =");
        // Null moves (`NullMoves`), as Popeye writes them.
        let l = vec![lm("...", ""), lm("Rb1-h1", ""), lm("Ka8-b8", ""), lm("...", ""), lm("Kb8-a8", ""), lm("Rh1-h8", "#")];
        assert_eq!(help_line(&l, Lang::En), "  1. ... Rb1-h1   2.Ka8-b8  ...   3.Kb8-a8 Rh1-h8 #");
    }

    #[test]
    fn series_lines() {
        let l = vec![lm("Sa2-c1", ""), lm("Sc1-a2", ""), lm("b3*a2", "#")];
        assert_eq!(series_line(&l, true, Lang::En), "  1.Sa2-c1   2.Sc1-a2 b3*a2 #");
        // Parry series: the parry follows the check it answers, unnumbered.
        let l = vec![lm("Rh4*h7", "+"), lm("Qg8*h7", "").as_parry(), lm("Qh3*h7", "#")];
        assert_eq!(series_line(&l, false, Lang::En), "  1.Rh4*h7 + Qg8*h7   2.Qh3*h7 #");
    }

    #[test]
    fn translation() {
        assert_eq!(translate("Sc5-e4", Lang::Fr), "Cc5-e4");
        assert_eq!(translate("e7-e8=Q", Lang::De), "e7-e8=D");
        assert_eq!(translate("0-0", Lang::De), "0-0");
        assert_eq!(translate("CAa1-b4", Lang::Fr), "CAa1-b4");
    }
}
