//! The stated solution: Popeye's solution text read into keys, tries and move lines, so that a
//! computed solution can be compared with it.
//!
//! Layout does not matter, the moves do. Moves are normalized to Popeye's English long
//! algebraic notation without marks (`Sc5-e4`, `e5*d6`, `e7-e8=Q`, `0-0`, `Sd4↑`, `Pa1↓=B`);
//! French (`R D T F C P`, `menace`, `mais`) and German (`K D T L S B`, `Drohung`, `Aber`)
//! texts are translated. Xiangqi moves in ICCS (`h2e2`) and WXF (`C2.5`) are kept as written (they
//! are read against the position when the problem is judged).
//!
//! ```
//! use feerie::problem::solution::{SolutionHint, StatedSolution};
//! use feerie::problem::stipulation::Stipulation;
//! let hint = SolutionHint { stipulation: Stipulation::parse("#2").ok(), ..Default::default() };
//! let s = StatedSolution::parse("1.Sc5-e4+! threat: 2.Te4-e8#\n1...Kd5 2.Dd1-d4#", &hint);
//! assert_eq!(s.twins[0].keys, vec!["Sc5-e4"]);
//! assert_eq!(s.twins[0].lines[0], vec!["Sc5-e4", "...", "Re4-e8"]);
//! ```

use super::stipulation::{MAX_MOVES, Stipulation};
use crate::piece::{Kind, Lang};
use serde::Serialize;

/// What the problem says about the text, so that each twin's part is read rightly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolutionHint {
    /// The diagram's stipulation (`None` when unknown: the layout decides).
    pub stipulation: Option<Stipulation>,
    /// Stipulations of twins that change it, by label.
    pub twin_stipulations: Vec<(String, Stipulation)>,
    /// `SetPlay` is asked.
    pub set_play: bool,
    /// `PostKeyPlay` is asked: lines before any key are the play after the key.
    pub post_key_play: bool,
}

/// A stated solution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatedSolution {
    /// The text as given.
    pub text: String,
    /// One part per twin (one part, label `None`, without twins).
    pub twins: Vec<StatedTwin>,
    /// Whether the text announces a zero position (`zeroposition`, `NullStellung`).
    pub zero_position: bool,
    /// What could not be read, in plain words; empty when the whole text was understood.
    pub problems: Vec<String>,
}

/// The part of a stated solution for one twin.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatedTwin {
    /// `a`, `b`, … (`None` when the text has no twin markers).
    pub label: Option<String>,
    /// What follows the label on its line (`wKb1-->a1`), as written.
    pub description: String,
    /// The text says there is no solution.
    pub no_solution: bool,
    /// The text says the position is illegal ("the side to play can capture the king").
    pub illegal: bool,
    /// Keys: first moves marked `!` (direct, self and reflex play).
    pub keys: Vec<String>,
    /// Tries: first moves marked `?`.
    pub tries: Vec<String>,
    /// Refutations of tries: (try, refutation).
    pub refutations: Vec<(String, String)>,
    /// Help and series play: each solution as its full move list. Direct, self and reflex
    /// play: each branch from a key, with `...` for the defender's pass before a threat.
    pub lines: Vec<Vec<String>>,
    /// Set play lines (before the key, or help play from the other side).
    pub set_lines: Vec<Vec<String>>,
}

/// Reads a move in Popeye notation (English, French or German letters) and writes it in
/// English without marks; `None` when the word is not a move.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::problem::solution::normalize_move;
/// assert_eq!(normalize_move("Cc5-e4+", Lang::Fr).as_deref(), Some("Sc5-e4"));
/// assert_eq!(normalize_move("e7-e8=D#", Lang::De).as_deref(), Some("e7-e8=Q"));
/// assert_eq!(normalize_move("Pa1v=B", Lang::En).as_deref(), Some("Pa1↓=B"));
/// assert_eq!(normalize_move("Cd4↑", Lang::Fr).as_deref(), Some("Sd4↑"));
/// assert_eq!(normalize_move("Ba1↓=L+", Lang::De).as_deref(), Some("Pa1↓=B"));
/// assert_eq!(normalize_move("e2^", Lang::En).as_deref(), Some("Pe2↑"));
/// assert_eq!(normalize_move("O-O-O", Lang::En).as_deref(), Some("0-0-0"));
/// // A MarsCirce capture from the rebirth square.
/// assert_eq!(normalize_move("Da8-d1*b3#", Lang::De).as_deref(), Some("Qa8-d1*b3"));
/// assert_eq!(normalize_move("Se1*f3-f6", Lang::En).as_deref(), Some("Se1*f3-f6"));
/// assert_eq!(normalize_move("Le4*d3=s+", Lang::De).as_deref(), Some("Be4*d3=b"));
/// assert_eq!(normalize_move("nBe7-e8=nL", Lang::De).as_deref(), Some("nPe7-e8=nB"));
/// assert_eq!(normalize_move("nKa4-a5", Lang::En).as_deref(), Some("nKa4-a5"));
/// assert_eq!(normalize_move("hello", Lang::En), None);
/// assert_eq!(normalize_move("H2+3", Lang::En).as_deref(), Some("H2+3"));
/// assert_eq!(normalize_move("i9-i8", Lang::En).as_deref(), Some("i9i8"));
/// assert_eq!(normalize_move("R+.3#", Lang::En).as_deref(), Some("R+.3"));
/// // A Cheskers jump chain, with every landing square; a promotion ends it.
/// assert_eq!(normalize_move("Kd2xf4xd6xb4#", Lang::En).as_deref(), Some("Kd2*f4*d6*b4"));
/// assert_eq!(normalize_move("b6xd8xf6=CA", Lang::En).as_deref(), Some("b6*d8*f6=CA"));
/// ```
pub fn normalize_move(word: &str, lang: Lang) -> Option<String> {
    let mut w = word.trim();
    if let Some(x) = w.strip_suffix("ep.") {
        w = x;
    }
    let w = w.trim_end_matches(['+', '#', '!', '?']);
    let w = if w.ends_with('=') && !w.ends_with("↓=") { w.trim_end_matches('=') } else { w };
    let w = w.trim_end_matches(['+', '#', '!', '?']);
    if w.is_empty() {
        return None;
    }
    match w {
        "0-0" | "O-O" | "o-o" => return Some("0-0".into()),
        "0-0-0" | "O-O-O" | "o-o-o" => return Some("0-0-0".into()),
        _ => {}
    }
    // ICCS (Xiangqi) coordinates: `h2e2`, also written `h2-e2` (then normalized to `h2e2` when
    // a point is off the chess board: `i9-i8`, `a0-a1`).
    let b = w.as_bytes();
    let point = |f: u8, r: u8| (b'a'..=b'i').contains(&f) && r.is_ascii_digit();
    if b.len() == 4 && point(b[0], b[1]) && point(b[2], b[3]) {
        return Some(w.to_string());
    }
    let chess_square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    if b.len() == 5 && b[2] == b'-' && point(b[0], b[1]) && point(b[3], b[4]) && !(chess_square(b[0], b[1]) && chess_square(b[3], b[4])) {
        return Some(format!("{}{}", &w[..2], &w[3..]));
    }
    // WXF (Xiangqi): `C2.5`, `H2+3`, `R+.3`, `3+.4`: kept as written (read against the position).
    if is_wxf(w) {
        return Some(w.to_string());
    }
    // A neutral piece (`nKa4-a5`, `nBe7-e8=nL`): its `n` before the piece code.
    let (neutral, w) = match w.strip_prefix('n') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => (true, rest),
        _ => (false, w),
    };
    let chars: Vec<char> = w.chars().collect();
    let mut i = 0;
    let mut code = String::new();
    while i < chars.len() && chars[i].is_ascii_uppercase() && code.len() < 2 {
        code.push(chars[i]);
        i += 1;
    }
    let sq = |i: usize| -> Option<String> {
        let f = *chars.get(i)?;
        let r = *chars.get(i + 1)?;
        if ('a'..='h').contains(&f) && ('1'..='8').contains(&r) { Some(format!("{f}{r}")) } else { None }
    };
    let english = |code: &str| -> Option<String> {
        if code.is_empty() {
            return Some(String::new());
        }
        let kind = Kind::from_code_in(code, lang).or_else(|| if lang == Lang::En { None } else { Kind::from_code(code) })?;
        Some(kind.code().to_string())
    };
    let piece = english(&code)?;
    let neutral_code = format!("n{}", if piece.is_empty() { "P" } else { piece.as_str() });
    let p = if neutral {
        neutral_code.as_str()
    } else if piece == "P" {
        ""
    } else {
        piece.as_str()
    };
    let out;
    if chars.get(i).is_some_and(|c| matches!(c, 'x' | '*' | ':')) {
        // Short capture: `K*d5`.
        let to = sq(i + 1)?;
        out = format!("{p}*{to}");
        i += 3;
        return finish_promotion(out, &chars, i, &english, lang);
    }
    let from = sq(i)?;
    i += 2;
    let Some(&c) = chars.get(i) else {
        // Short move: `Kd5`, `d4`.
        return Some(format!("{p}{from}"));
    };
    if c == '=' {
        out = format!("{p}{from}");
        return finish_promotion(out, &chars, i, &english, lang);
    }
    match c {
        '↑' | '^' | '↓' | 'v' => {
            // Réserve moves always name the piece (`Pa1↓=B`); a bare square is a pawn's.
            let piece = if piece.is_empty() { "P" } else { piece.as_str() };
            let arrow = if c == '↑' || c == '^' { '↑' } else { '↓' };
            out = format!("{piece}{from}{arrow}");
            i += 1;
        }
        '-' | '*' | 'x' | ':' => {
            let to = sq(i + 1)?;
            let sep = if c == '-' { '-' } else { '*' };
            let mut text = format!("{p}{from}{sep}{to}");
            i += 3;
            // A MarsCirce capture by way of the rebirth square: `Sb8-g1*e2`.
            if sep == '-'
                && chars.get(i).is_some_and(|c| matches!(c, 'x' | '*' | ':'))
                && let Some(target) = sq(i + 1)
            {
                text.push('*');
                text.push_str(&target);
                i += 3;
            }
            // Take&Make: the capture, then the victim's move made by the capturer, `Se1*f3-f6`.
            if sep == '*'
                && chars.get(i) == Some(&'-')
                && let Some(made) = sq(i + 1)
            {
                text.push('-');
                text.push_str(&made);
                i += 3;
            }
            // A draughts jump chain (Cheskers): every further landing square, `c3xe5xg7`.
            while sep == '*'
                && chars.get(i).is_some_and(|c| matches!(c, 'x' | '*' | ':'))
                && let Some(next) = sq(i + 1)
            {
                text.push('*');
                text.push_str(&next);
                i += 3;
            }
            out = text;
        }
        _ => return None,
    }
    finish_promotion(out, &chars, i, &english, lang)
}

/// Whether a word has the shape of a WXF move: a piece letter, a file digit or the tandem signs
/// `+`/`-` (up to three signs, letters and digits), then `+`, `-`, `.` or `=`, then a digit 1–9;
/// at least one piece letter or file digit before the operator. Chess moves never take this
/// shape (their squares are a lower-case file and a rank).
fn is_wxf(w: &str) -> bool {
    let b = w.as_bytes();
    let n = b.len();
    if !(3..=5).contains(&n) || !(b'1'..=b'9').contains(&b[n - 1]) || !matches!(b[n - 2], b'+' | b'-' | b'.' | b'=') {
        return false;
    }
    let head = &b[..n - 2];
    head.iter().all(|c| b"KAEBHNRCP123456789+-".contains(c)) && head.iter().any(|c| c.is_ascii_alphanumeric())
}

/// Appends what follows the move (translated) when it is a promotion `=X` (`=nX` for a neutral
/// piece), a colour change `=b` (Andernach: the letter in the text's language, `=s` in German,
/// `=n` in French), or a promotion then a colour change; `None` when the rest is anything else.
fn finish_promotion(mut out: String, chars: &[char], i: usize, english: &dyn Fn(&str) -> Option<String>, lang: Lang) -> Option<String> {
    let rest: String = chars.get(i..).unwrap_or_default().iter().collect();
    if rest.is_empty() {
        return Some(out);
    }
    let mut parts = rest.strip_prefix('=')?.split('=');
    let first = parts.next()?;
    let colour = |c: &str| -> Option<char> {
        match (lang, c) {
            (Lang::De, "w") | (Lang::Fr, "b") | (Lang::En, "w") => Some('w'),
            (Lang::De, "s") | (Lang::Fr, "n") | (Lang::En, "b") => Some('b'),
            _ => None,
        }
    };
    let promotion = |p: &str| -> Option<String> {
        let (n, code) = match p.strip_prefix('n') {
            Some(c) if !c.is_empty() => ("n", c),
            _ => ("", p),
        };
        if code.is_empty() || code.len() > 2 || !code.chars().all(|c| c.is_ascii_uppercase()) {
            return None;
        }
        let k = english(code)?;
        (!k.is_empty()).then(|| format!("{n}{k}"))
    };
    match (colour(first), parts.next()) {
        (Some(c), None) => {
            out.push('=');
            out.push(c);
        }
        (None, then) => {
            out.push('=');
            out.push_str(&promotion(first)?);
            if let Some(then) = then {
                out.push('=');
                out.push(colour(then)?);
            }
        }
        (Some(_), Some(_)) => return None,
    }
    parts.next().is_none().then_some(out)
}

/// A piece's text without the `n` that marks a neutral piece (`nDb7-b8` → `Db7-b8`).
fn neutral_letter(m: &str) -> &str {
    match m.strip_prefix('n') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest,
        _ => m,
    }
}

/// Guesses the language of a solution text from its words and piece letters.
fn detect_lang(lines: &[&str]) -> Lang {
    let mut letters = std::collections::BTreeSet::new();
    for line in lines {
        for w in line.split_whitespace() {
            let lw = w.to_lowercase();
            if lw.starts_with("drohung") || lw == "aber" || w == "Zugzwang." {
                return Lang::De;
            }
            if lw.starts_with("menace") || lw == "mais" || lw.starts_with("blocus") {
                return Lang::Fr;
            }
            let m = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            // A neutral piece's letter follows its `n` (`nDb7-b8`, `=nT`).
            let m = neutral_letter(m);
            if let Some(c) = m.chars().next()
                && c.is_ascii_uppercase()
                && m.chars().nth(1).is_some_and(|d| d.is_ascii_lowercase())
            {
                letters.insert(c);
            }
            // A one-letter promotion (`e8=D`, `Pa1↓=F`) names a piece too.
            if let Some((_, promo)) = m.split_once('=') {
                let mut p = neutral_letter(promo).chars();
                if let Some(c) = p.next()
                    && c.is_ascii_uppercase()
                    && !p.next().is_some_and(|d| d.is_ascii_uppercase())
                {
                    letters.insert(c);
                }
            }
        }
    }
    let has = |c: char| letters.contains(&c);
    if has('L') {
        Lang::De
    } else if has('F') || has('C') {
        Lang::Fr
    } else if has('T') || has('D') {
        if has('R') { Lang::Fr } else { Lang::De }
    } else {
        Lang::En
    }
}

/// One element of a solution line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// `N.` or `N...`.
    Number(u32, bool),
    /// A move, normalized.
    Move(String),
    /// `...`: a pass (null move).
    Null,
    /// Marks after a move: key, try.
    Marks { key: bool, try_: bool },
    /// `but` (before a refutation).
    But,
    /// Words without meaning for the moves (`threat:`, `zugzwang.`, `ep.`).
    Skip,
}

fn tokenize(line: &str, lang: Lang) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    for word in line.split_whitespace() {
        // A fairy effect printed with the move (`Sg3*e2[wSe2->b1]`, `e4*d5[+bPd7]`): the move is
        // read without it (restated, the solver's text of the move gives it back).
        let plain = strip_effects(word);
        if plain.is_empty() {
            continue;
        }
        let mut w = plain.as_str();
        // Move number.
        let digits = w.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && w[digits..].starts_with('.') {
            // No stipulation is longer than MAX_MOVES: a larger number is no move number (and
            // would make the reader fill the gap before it with millions of passes).
            let n: u32 = match w[..digits].parse() {
                Ok(n) if n <= MAX_MOVES => n,
                _ => return Err(format!("move number '{}' is too large (at most {MAX_MOVES})", &w[..digits])),
            };
            let rest = &w[digits..];
            let (ellipsis, rest) = if let Some(r) = rest.strip_prefix("...") { (true, r) } else { (false, &rest[1..]) };
            out.push(Tok::Number(n, ellipsis));
            w = rest;
            if w.is_empty() {
                continue;
            }
        }
        if w == "..." {
            out.push(Tok::Null);
            continue;
        }
        if w.chars().all(|c| matches!(c, '!' | '?' | '+' | '#' | '=')) {
            out.push(Tok::Marks { key: w.contains('!'), try_: w.contains('?') });
            continue;
        }
        // The marks of the goals of the move (`x`, `z`, `%`, as Popeye writes them), maybe
        // with the key's `!` or the try's `?` glued on (`z!`).
        if matches!(w.trim_end_matches(['!', '?']), "x" | "z" | "%") {
            out.push(Tok::Marks { key: w.ends_with('!'), try_: w.ends_with('?') });
            continue;
        }
        let lw = w.to_lowercase();
        match lw.as_str() {
            "but" | "aber" | "mais" => {
                out.push(Tok::But);
                continue;
            }
            "threat:" | "drohung:" | "menace:" | "zugzwang." | "blocus." | "ep." | "e.p." => {
                out.push(Tok::Skip);
                continue;
            }
            _ => {}
        }
        match normalize_move(w, lang) {
            Some(m) => {
                out.push(Tok::Move(m));
                let tail: String = w.chars().rev().take_while(|c| matches!(c, '!' | '?')).collect();
                if !tail.is_empty() {
                    out.push(Tok::Marks { key: tail.contains('!'), try_: tail.contains('?') });
                }
            }
            None => return Err(format!("cannot read '{w}'")),
        }
    }
    Ok(out)
}

/// A word without its bracketed parts (`Sg3*e2[wSe2->b1]#` → `Sg3*e2#`).
fn strip_effects(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut depth = 0usize;
    for c in word.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Lines that carry no moves but a statement.
enum Statement {
    NoSolution,
    Illegal,
    ZeroPosition,
    Ignore,
}

fn statement(line: &str) -> Option<Statement> {
    let l = line.trim().to_lowercase();
    let l = l.trim_matches(|c: char| c == '(' || c == ')' || c == '.');
    if ["no solution", "keine lösung", "keine loesung", "pas de solution", "none"].contains(&l) {
        Some(Statement::NoSolution)
    } else if l.contains("can capture the king") || l.contains("peut prendre le roi") || l.contains("kann den k") {
        Some(Statement::Illegal)
    } else if l == "nullstellung" || l == "zeroposition" || l == "zero position" || l == "position zero" {
        Some(Statement::ZeroPosition)
    } else if l.contains("not applicable") || l.starts_with("solution finished") || l.starts_with("time =") || l.contains("ignored") {
        Some(Statement::Ignore)
    } else {
        None
    }
}

/// `a)`, `+c) -sDh2`: a twin marker; returns (label, description).
fn twin_marker(line: &str) -> Option<(String, String)> {
    let t = line.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    let mut chars = t.chars();
    let c = chars.next()?;
    if !c.is_ascii_lowercase() || chars.next() != Some(')') {
        return None;
    }
    Some((c.to_string(), t[2..].trim().to_string()))
}

impl StatedSolution {
    /// Reads a solution text. Never fails: what cannot be read is listed in `problems`.
    ///
    /// The language is guessed from the words and piece letters, neutral pieces' letters too
    /// (Popeye's neutral.out #10: `nT`, `nD` are German, `nB` a pawn):
    ///
    /// ```
    /// use feerie::problem::{SolutionHint, StatedSolution, Stipulation};
    /// let text = "   1.nBc7-c8=nT + !\n      1...nTc8-h8\n          2.nBb7-b8=nD\n";
    /// let hint = SolutionHint { stipulation: Stipulation::parse("#2").ok(), ..Default::default() };
    /// let s = StatedSolution::parse(text, &hint);
    /// assert!(s.problems.is_empty(), "{:?}", s.problems);
    /// assert_eq!(s.twins[0].lines, vec![vec!["nPc7-c8=nR", "nRc8-h8", "nPb7-b8=nQ"]]);
    /// ```
    pub fn parse(text: &str, hint: &SolutionHint) -> StatedSolution {
        let mut out = StatedSolution { text: text.to_string(), ..Default::default() };
        // Split into twin blocks.
        let mut blocks: Vec<(Option<String>, String, Vec<&str>)> = vec![(None, String::new(), Vec::new())];
        for line in text.lines() {
            if let Some((label, desc)) = twin_marker(line) {
                blocks.push((Some(label), desc, Vec::new()));
            } else if let Some(b) = blocks.last_mut() {
                b.2.push(line);
            }
        }
        // Drop an empty first block when markers follow; keep its statements.
        let mut pre_zero = false;
        if blocks.len() > 1 {
            let first = blocks.remove(0);
            for l in first.2.iter().filter(|l| !l.trim().is_empty()) {
                match statement(l) {
                    Some(Statement::ZeroPosition) => pre_zero = true,
                    Some(Statement::Ignore) => {}
                    _ => out.problems.push(format!("text before the first twin: cannot read '{}'", l.trim())),
                }
            }
        }
        out.zero_position = pre_zero;
        let all_lines: Vec<&str> = blocks.iter().flat_map(|b| b.2.iter().copied()).collect();
        let lang = detect_lang(&all_lines);
        for (label, description, lines) in blocks {
            let stip = match &label {
                Some(l) => hint.twin_stipulations.iter().find(|(t, _)| t == l).map(|(_, s)| *s).or(hint.stipulation),
                None => hint.stipulation,
            };
            let mut twin = StatedTwin { label: label.clone(), description, ..Default::default() };
            let mut toks: Vec<(usize, Vec<Tok>)> = Vec::new();
            for (n, line) in lines.iter().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match statement(line) {
                    Some(Statement::NoSolution) => twin.no_solution = true,
                    Some(Statement::Illegal) => twin.illegal = true,
                    Some(Statement::ZeroPosition) => out.zero_position = true,
                    Some(Statement::Ignore) => {}
                    None => match tokenize(line, lang) {
                        Ok(t) => toks.push((n, t)),
                        Err(e) => {
                            let at = label.as_ref().map(|l| format!("twin {l}: ")).unwrap_or_default();
                            out.problems.push(format!("{at}{e} in '{}'", line.trim()));
                        }
                    },
                }
            }
            let battle = match stip {
                Some(s) => s.is_battle(),
                None => toks
                    .iter()
                    .flat_map(|(_, t)| t)
                    .any(|t| matches!(t, Tok::Marks { key: true, .. } | Tok::Marks { try_: true, .. } | Tok::But)),
            };
            if battle {
                read_battle(&toks, hint, &mut twin);
            } else {
                read_help(&toks, hint, stip, &mut twin);
            }
            out.twins.push(twin);
        }
        out
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Root {
    None,
    Set,
    Key,
    Try,
    Main,
    Refuted,
}

fn read_battle(toks: &[(usize, Vec<Tok>)], hint: &SolutionHint, twin: &mut StatedTwin) {
    let mut path: Vec<(u32, String)> = Vec::new();
    let mut root = Root::None;
    let mut dirty = false;
    let mut pending_but = false;
    let mut current_try: Option<String> = None;
    let mut main_firsts: Vec<String> = Vec::new();
    let mut ply: u32 = 0;
    let mut have_ply = false;

    fn flush(path: &[(u32, String)], root: Root, dirty: &mut bool, hint: &SolutionHint, twin: &mut StatedTwin) {
        if !*dirty || path.is_empty() {
            return;
        }
        let line: Vec<String> = path.iter().map(|(_, m)| m.clone()).collect();
        match root {
            Root::Key | Root::Main => twin.lines.push(line),
            Root::Set if hint.post_key_play => twin.lines.push(line),
            Root::Set => twin.set_lines.push(line),
            _ => {}
        }
        *dirty = false;
    }

    // Flatten with plies; marks attach to the move before them.
    let mut items: Vec<(u32, String, bool, bool)> = Vec::new();
    let mut buts: Vec<usize> = Vec::new(); // item indices a `but` precedes
    for (_, line) in toks {
        for t in line {
            match t {
                Tok::Number(n, ell) => {
                    ply = 2 * n.saturating_sub(1) + u32::from(*ell);
                    have_ply = true;
                }
                Tok::Move(m) => {
                    items.push((ply, m.clone(), false, false));
                    ply += 1;
                }
                Tok::Null => {
                    items.push((ply, "...".into(), false, false));
                    ply += 1;
                }
                Tok::Marks { key, try_ } => {
                    if let Some(last) = items.last_mut() {
                        last.2 |= *key;
                        last.3 |= *try_;
                    }
                }
                Tok::But => buts.push(items.len()),
                Tok::Skip => {}
            }
        }
    }
    let _ = have_ply;
    for (idx, (p, mv, key, try_)) in items.into_iter().enumerate() {
        if buts.contains(&idx) {
            flush(&path, root, &mut dirty, hint, twin);
            pending_but = true;
        }
        if p == 0 {
            flush(&path, root, &mut dirty, hint, twin);
            path.clear();
            pending_but = false;
            if key {
                root = Root::Key;
                twin.keys.push(mv.clone());
            } else if try_ {
                root = Root::Try;
                twin.tries.push(mv.clone());
                current_try = Some(mv.clone());
            } else {
                root = Root::Main;
                main_firsts.push(mv.clone());
            }
            path.push((0, mv));
            dirty = true;
            continue;
        }
        if pending_but && p == 1 {
            let t = current_try.clone().or_else(|| path.first().map(|x| x.1.clone())).unwrap_or_default();
            twin.refutations.push((t, mv));
            pending_but = false;
            path.clear();
            dirty = false;
            root = Root::Refuted;
            continue;
        }
        if root == Root::None {
            root = Root::Set;
        }
        if path.last().is_some_and(|(lp, _)| *lp >= p) {
            flush(&path, root, &mut dirty, hint, twin);
            path.retain(|(lp, _)| *lp < p);
        }
        // A threat: the defender passes.
        while let Some(&(lp, _)) = path.last() {
            if lp + 1 >= p {
                break;
            }
            path.push((lp + 1, "...".into()));
        }
        path.push((p, mv));
        dirty = true;
    }
    flush(&path, root, &mut dirty, hint, twin);
    if twin.keys.is_empty() {
        for m in main_firsts {
            if !twin.keys.contains(&m) {
                twin.keys.push(m);
            }
        }
    }
}

fn read_help(toks: &[(usize, Vec<Tok>)], hint: &SolutionHint, stip: Option<Stipulation>, twin: &mut StatedTwin) {
    let expected_ellipsis = stip.is_some_and(|s| s.half && !s.series);
    let mut current: Option<(bool, Vec<String>)> = None;
    let finish = |cur: Option<(bool, Vec<String>)>, twin: &mut StatedTwin| {
        if let Some((ell, moves)) = cur
            && !moves.is_empty()
        {
            if hint.set_play && ell != expected_ellipsis {
                twin.set_lines.push(moves);
            } else {
                twin.lines.push(moves);
            }
        }
    };
    for (_, line) in toks {
        let starts_new = matches!(line.first(), Some(Tok::Number(1, _)));
        if starts_new || current.is_none() {
            finish(current.take(), twin);
            let ell = matches!(line.first(), Some(Tok::Number(_, true)));
            current = Some((ell, Vec::new()));
        }
        if let Some((_, moves)) = current.as_mut() {
            for t in line {
                match t {
                    Tok::Move(m) => moves.push(m.clone()),
                    Tok::Null => moves.push("...".into()),
                    _ => {}
                }
            }
        }
    }
    finish(current.take(), twin);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(s: &str) -> SolutionHint {
        SolutionHint { stipulation: Stipulation::parse(s).ok(), ..Default::default() }
    }

    #[test]
    fn direct_with_tries_and_refutations() {
        let text = "   1.Ra1-a3 ? zugzwang.\n      1...Kc2-c1\n          2.Ra3-c3 #\n    but\n      1...c4-c3 !\n\n   1.Qb6-f6 ! zugzwang.\n      1...Kc2-d3\n          2.0-0-0 +\n";
        let s = StatedSolution::parse(text, &hint("#3"));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        let t = &s.twins[0];
        assert_eq!(t.keys, vec!["Qb6-f6"]);
        assert_eq!(t.tries, vec!["Ra1-a3"]);
        assert_eq!(t.refutations, vec![("Ra1-a3".to_string(), "c4-c3".to_string())]);
        assert_eq!(t.lines, vec![vec!["Qb6-f6", "Kc2-d3", "0-0-0"]]);
    }

    #[test]
    fn help_lines_and_twins() {
        let text = "a)\n\n  1.Kb7-a8 Sd5-b6 #\n\nb) wBe5-->c5\n\n  1...e2-e3   2.Kg8-f7 e3-e4 #\n";
        let s = StatedSolution::parse(text, &hint("h#1"));
        assert_eq!(s.twins.len(), 2);
        assert_eq!(s.twins[1].label.as_deref(), Some("b"));
        assert_eq!(s.twins[1].description, "wBe5-->c5");
        assert_eq!(s.twins[0].lines, vec![vec!["Kb7-a8", "Sd5-b6"]]);
    }

    #[test]
    fn french_and_german() {
        let s = StatedSolution::parse("1.Cc5-e4! menace: 2.Tb1-b8#\n1...Rd5 2.Dd1-d4#", &hint("#2"));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.twins[0].keys, vec!["Sc5-e4"]);
        assert_eq!(s.twins[0].lines[1], ["Sc5-e4", "Kd5", "Qd1-d4"].iter().map(|x| x.to_string()).collect::<Vec<_>>());
    }

    #[test]
    fn goal_marks_of_the_move_are_read() {
        // As Popeye writes them (its recorded outputs): `x`, `z`, `%`, `!=`, `#=`, `##!`.
        let s = StatedSolution::parse("  1.Qb1-h7   2.Qh7*a7 + x\n  1.Qb1-b6   2.Qb6*a7 + x", &hint("ser-x2"));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.twins[0].lines.len(), 2);
        for (text, stip) in [("1.Qb6-b7 + z !", "zb71"), ("1.d4*e5 % !", "%1"), ("1.h5-h6 != !", "!=1"), ("1.Qb1-b6 #= !", "#=1")] {
            let s = StatedSolution::parse(text, &hint(stip));
            assert!(s.problems.is_empty(), "{text}: {:?}", s.problems);
            assert_eq!(s.twins[0].keys.len(), 1, "{text}");
        }
        assert_eq!(StatedSolution::parse("1.Qb6-b7+ z!", &hint("zb71")).twins[0].keys, ["Qb6-b7"]);
    }

    #[test]
    fn fairy_effects_are_read_without_the_brackets() {
        let s = StatedSolution::parse("1.Kg1-f2 ! threat:\n 2.Sg3*e2[wSe2->b1] #\n1...Sf1-e3 2.Sd6*f7[+bRa8]#", &hint("#2"));
        assert!(s.problems.is_empty(), "{:?}", s.problems);
        assert_eq!(s.twins[0].lines[0], ["Kg1-f2", "...", "Sg3*e2"].iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s.twins[0].lines[1], ["Kg1-f2", "Sf1-e3", "Sd6*f7"].iter().map(|x| x.to_string()).collect::<Vec<_>>());
    }
}
