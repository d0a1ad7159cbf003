//! Popeye input files (`.inp`): the input language of Popeye's manual (`py-engl.txt`, with the
//! German and French keywords of `py-deut.txt` and `py-fran.txt`).
//!
//! A file holds problems between `BeginProblem` and `EndProblem`, separated by `NextProblem`.
//! Keywords are case-insensitive and may be cut to any unique prefix; the word that opens the
//! file (`BeginProblem`, `AnfangProblem`, `DebutProbleme`) sets the language of the keywords,
//! colours and piece codes. Each problem is turned into the text of a YACPDB YAML document,
//! which the YAML loader reads; every generated line remembers the `.inp` line and column it
//! came from, so that the loader's faults are reported at their place in the `.inp` file.
//! A fault of the `.inp` text itself (an unknown keyword, a piece word that does not parse)
//! makes that problem invalid and the reader goes on with the next problem.
//!
//! The position is generated as `algebraic` lists (a `Forsyth` string is read into pieces, so
//! that `Pieces` may add to it as the manual allows). `Remark` lines are kept as `remarks` (a
//! `Remark yaml: …` line carries a YACPDB field, as `convert` writes it), `Protocol` and `LaTeX`
//! are ignored; `Title` becomes a comment; `SStipulation` and pieces with attributes in the French
//! and German codes that feerie cannot play make the problem unsupported, named.

use std::sync::OnceLock;

use super::error::ProblemError;
use super::yaml::RawDoc;
use super::{Loaded, load};

/// The language of a file's keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    En,
    De,
    Fr,
}

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "German",
            Lang::Fr => "French",
        }
    }
}

/// The problem-level commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmd {
    Begin,
    End,
    Next,
    Remark,
    Author,
    Origin,
    Title,
    Award,
    Protocol,
    Condition,
    Option,
    Stipulation,
    SStipulation,
    Forsyth,
    Pieces,
    Twin,
    Zero,
    LaTeX,
    LaTeXPieces,
}

const COMMANDS_EN: &[(&str, Cmd)] = &[
    ("beginproblem", Cmd::Begin),
    ("endproblem", Cmd::End),
    ("nextproblem", Cmd::Next),
    ("remark", Cmd::Remark),
    ("author", Cmd::Author),
    ("origin", Cmd::Origin),
    ("title", Cmd::Title),
    ("award", Cmd::Award),
    ("protocol", Cmd::Protocol),
    ("condition", Cmd::Condition),
    ("option", Cmd::Option),
    ("stipulation", Cmd::Stipulation),
    ("sstipulation", Cmd::SStipulation),
    ("forsyth", Cmd::Forsyth),
    ("pieces", Cmd::Pieces),
    ("twin", Cmd::Twin),
    ("zeroposition", Cmd::Zero),
    ("latex", Cmd::LaTeX),
    ("latexpieces", Cmd::LaTeXPieces),
];

const COMMANDS_DE: &[(&str, Cmd)] = &[
    ("anfangproblem", Cmd::Begin),
    ("endeproblem", Cmd::End),
    ("weiteresproblem", Cmd::Next),
    ("bemerkung", Cmd::Remark),
    ("autor", Cmd::Author),
    ("quelle", Cmd::Origin),
    ("titel", Cmd::Title),
    ("auszeichnung", Cmd::Award),
    ("protokoll", Cmd::Protocol),
    ("bedingung", Cmd::Condition),
    ("option", Cmd::Option),
    ("forderung", Cmd::Stipulation),
    ("sforderung", Cmd::SStipulation),
    ("forsyth", Cmd::Forsyth),
    ("steine", Cmd::Pieces),
    ("zwilling", Cmd::Twin),
    ("nullstellung", Cmd::Zero),
    ("latex", Cmd::LaTeX),
    ("latexsteine", Cmd::LaTeXPieces),
];

const COMMANDS_FR: &[(&str, Cmd)] = &[
    ("debutprobleme", Cmd::Begin),
    ("finprobleme", Cmd::End),
    ("remarque", Cmd::Remark),
    ("auteur", Cmd::Author),
    ("source", Cmd::Origin),
    ("titre", Cmd::Title),
    ("protocol", Cmd::Protocol),
    ("condition", Cmd::Condition),
    ("option", Cmd::Option),
    ("enonce", Cmd::Stipulation),
    ("senonce", Cmd::SStipulation),
    ("forsyth", Cmd::Forsyth),
    ("pieces", Cmd::Pieces),
    ("jumeau", Cmd::Twin),
    ("zeroposition", Cmd::Zero),
    ("latex", Cmd::LaTeX),
];

fn commands(lang: Lang) -> &'static [(&'static str, Cmd)] {
    match lang {
        Lang::En => COMMANDS_EN,
        Lang::De => COMMANDS_DE,
        Lang::Fr => COMMANDS_FR,
    }
}

/// Options in the three languages, with their English names (as `options.rs` reads them).
const OPTIONS: &[(&str, &str, &str)] = &[
    ("Try", "Verfuehrung", "Essais"),
    ("Defence", "Widerlegung", "Defense"),
    ("TrivialTriesAvoid", "TrivialeFehlversucheUnterdruecken", "TrivialEssaiSupprimer"),
    ("SetPlay", "Satzspiel", "Apparent"),
    ("NullMoves", "NullZuege", "CoupsVides"),
    ("Threat", "Drohung", "Menace"),
    ("WhiteToPlay", "WeissBeginnt", "ApparentSeul"),
    ("Variation", "Varianten", "Variantes"),
    ("MoveNumbers", "Zugnummern", "Trace"),
    ("StartMoveNumber", "StartZugnummer", "Enroute"),
    ("UpToMoveNumber", "BisZugnummer", ""),
    ("NoWk", "OhneWk", "SansRB"),
    ("NoBk", "OhneSk", "SansRN"),
    ("Duplex", "Duplex", "Duplex"),
    ("NoThreat", "OhneDrohung", "SansMenace"),
    ("MaxSolutions", "MaxLoesungen", "MaxSolutions"),
    ("MaxFlightsquares", "MaxFluchtFelder", "MaxCasesFuites"),
    ("EnPassant", "EnPassant", "EnPassant"),
    ("CastlingMutuallyExclusive", "RochadenGegenseitigAusschliessend", "RoquesMutuellementExclusifs"),
    ("NoBoard", "OhneBrett", "SansEchiquier"),
    ("NoShortVariations", "OhneKurzVarianten", "SansVariantesCourtes"),
    ("HalfDuplex", "HalbDuplex", "DemiDuplex"),
    ("PostKeyPlay", "NachSchluessel", "ApresCle"),
    ("NonTrivial", "NichtTrivial", "NonTrivial"),
    ("Intelligent", "Intelligent", "Intelligent"),
    ("MaxTime", "MaxZeit", "MaxTemps"),
    ("NoCastling", "KeineRochade", "SansRoquer"),
    ("Quodlibet", "QuodLibet", "QuodLibet"),
    ("StopOnShortSolutions", "StopNachKurzLoesungen", "FinApresSolutionCourtes"),
    ("Beep", "Pieps", "Bip"),
    ("SuppressGrid", "OhneGitter", "SansGrille"),
    ("WriteGrid", "ZeichneGitter", "AjouteGrille"),
    ("KeepMatingPiece", "HalteMattsetzendenStein", "RetiensPieceMatante"),
    ("LastCapture", "LetzterSchlag", "DernierePrise"),
    ("GoalIsEnd", "ZielIstEnde", "ButEstFin"),
    ("MatesIn1", "MattsIn1", "MatsEn1"),
];

/// Twin commands in the three languages, with the English word of the YAML twin syntax.
const TWIN_COMMANDS: &[(&str, &str, &str)] = &[
    ("Continued", "ferner", "enplus"),
    ("Stipulation", "Forderung", "Enonce"),
    ("SStipulation", "SForderung", "SEnonce"),
    ("Condition", "Bedingung", "Condition"),
    ("Move", "Versetze", "Deplacement"),
    ("Exchange", "Tausche", "Echange"),
    ("Remove", "Entferne", "Ote"),
    ("Substitute", "Ersetze", "Remplace"),
    ("Add", "Hinzufuegen", "Ajoute"),
    ("Rotate", "Drehung", "Rotation"),
    ("Mirror", "Spiegelung", "Miroir"),
    ("Shift", "Verschiebung", "Translation"),
    ("PolishType", "Farbwechsel", "CouleurEchange"),
];

/// Colours: English word of the YAML lists.
const COLOURS: &[(&str, &str, &str)] = &[("white", "weiss", "blanc"), ("black", "schwarz", "noir"), ("neutral", "neutral", "neutre")];

/// Piece attributes in the three languages (English first, as the YAML lists take them).
const ATTRIBUTES: &[(&str, &str, &str)] = &[
    ("chameleon", "chamaeleon", "cameleon"),
    ("jigger", "jigger", "jigger"),
    ("kamikaze", "kamikaze", "kamikaze"),
    ("paralysing", "paralysierend", "paralysantes"),
    ("royal", "koeniglich", "royales"),
    ("volage", "volage", "volage"),
    ("functionary", "beamtet", "fonctionnaire"),
    ("halfneutral", "halbneutral", "demineutre"),
    ("hurdlecolourchanging", "sprungbockfarbewechselnd", "couleurechangeantsautoir"),
    ("protean", "proteisch", "protee"),
    ("magic", "magisch", "magique"),
    ("uncapturable", "unschlagbar", "imprenable"),
    ("frischauf", "frischauf", "frischauf"),
    ("anda", "anda", "anda"),
    ("andainverse", "andainvers", "andainverse"),
    ("bul", "bul", "bul"),
    ("dob", "dob", "dob"),
    ("alicea", "alicea", "alicea"),
    ("aliceb", "aliceb", "aliceb"),
];

/// German and French piece codes of the pieces feerie knows, with the English code
/// (`py-deut.txt` and `py-fran.txt`, pieces section).
const PIECES_DE: &[(&str, &str)] = &[
    ("k", "K"),
    ("d", "Q"),
    ("t", "R"),
    ("l", "B"),
    ("s", "S"),
    ("b", "P"),
    ("g", "G"),
    ("n", "N"),
    ("ca", "CA"),
    ("z", "Z"),
    ("gi", "GI"),
    ("am", "AM"),
    ("kn", "EM"),
    ("pr", "PR"),
    ("le", "LE"),
    ("pa", "PA"),
    ("va", "VA"),
    ("ma", "MA"),
    ("mo", "MO"),
];

const PIECES_FR: &[(&str, &str)] = &[
    ("r", "K"),
    ("d", "Q"),
    ("t", "R"),
    ("f", "B"),
    ("c", "S"),
    ("p", "P"),
    ("s", "G"),
    ("n", "N"),
    ("ch", "CA"),
    ("z", "Z"),
    ("gi", "GI"),
    ("am", "AM"),
    ("im", "EM"),
    ("pr", "PR"),
    ("le", "LE"),
    ("pa", "PA"),
    ("va", "VA"),
    ("ma", "MA"),
    ("mo", "MO"),
];

fn pick3(t: &(&'static str, &'static str, &'static str), lang: Lang) -> &'static str {
    match lang {
        Lang::En => t.0,
        Lang::De => t.1,
        Lang::Fr => t.2,
    }
}

/// A piece code of the file's language in English (upper case); `None` when the German or
/// French code names a piece feerie does not know.
fn english_code(code: &str, lang: Lang) -> Option<String> {
    let c = code.to_ascii_lowercase();
    match lang {
        Lang::En => Some(c.to_ascii_uppercase()),
        Lang::De => PIECES_DE.iter().find(|(k, _)| *k == c).map(|(_, e)| e.to_string()),
        Lang::Fr => PIECES_FR.iter().find(|(k, _)| *k == c).map(|(_, e)| e.to_string()),
    }
    // The fairy rules' pieces, by their codes in each language (`bb` Berolina Bauer, `el`
    // Elch, `ai` aigle, …).
    .or_else(|| {
        let l = match lang {
            Lang::En => crate::piece::Lang::En,
            Lang::De => crate::piece::Lang::De,
            Lang::Fr => crate::piece::Lang::Fr,
        };
        crate::piece::Kind::from_code_in(&c, l).map(|k| k.code().to_string())
    })
}

/// Result of looking a word up among keywords.
enum Lookup<T> {
    Found(T),
    Ambiguous(Vec<String>),
    None,
}

/// Looks a word up: an exact name, else the one name (or several names of one meaning) it is a
/// prefix of.
fn lookup<T: Copy + PartialEq>(word: &str, table: &[(&'static str, T)]) -> Lookup<T> {
    // The names are ASCII: compared without case, no lower-case copies are made.
    let w = word.as_bytes();
    if w.is_empty() {
        return Lookup::None;
    }
    if let Some((_, v)) = table.iter().find(|(k, _)| k.as_bytes().eq_ignore_ascii_case(w)) {
        return Lookup::Found(*v);
    }
    let starts = |k: &str| k.len() >= w.len() && k.as_bytes()[..w.len()].eq_ignore_ascii_case(w);
    let hits: Vec<&(&'static str, T)> = table.iter().filter(|(k, _)| starts(k)).collect();
    match hits.first() {
        None => Lookup::None,
        Some((_, v)) if hits.iter().all(|(_, x)| x == v) => Lookup::Found(*v),
        Some(_) => Lookup::Ambiguous(hits.iter().map(|(k, _)| k.to_lowercase()).collect()),
    }
}

fn command(word: &str, lang: Lang) -> Lookup<Cmd> {
    lookup(word, commands(lang))
}

fn lower_table(t: &[(&'static str, &'static str, &'static str)], lang: Lang) -> Vec<(&'static str, &'static str)> {
    t.iter().map(|e| (pick3(e, lang), e.0)).filter(|(k, _)| !k.is_empty()).collect()
}

/// Whether a text is a Popeye input file: its first word opens a problem.
pub(crate) fn looks_like_popeye(text: &str) -> bool {
    let first = text.trim_start_matches('\u{feff}').split_whitespace().next().unwrap_or("");
    first.len() >= 3 && begin_language(first).is_some()
}

fn begin_language(word: &str) -> Option<Lang> {
    [Lang::En, Lang::De, Lang::Fr].into_iter().find(|&l| matches!(command(word, l), Lookup::Found(Cmd::Begin)))
}

/// A place in the `.inp` file (line and column from 1, column in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Src {
    line: usize,
    col: usize,
}

/// A word of the file.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    at: Src,
}

/// A text with its place (`verbatim`: the text is the file's, so columns inside it map).
#[derive(Clone, Debug)]
struct Item {
    text: String,
    at: Src,
    verbatim: bool,
}

fn item(t: &Tok) -> Item {
    Item { text: t.text.clone(), at: t.at, verbatim: true }
}

fn made(text: impl Into<String>, at: Src) -> Item {
    Item { text: text.into(), at, verbatim: false }
}

/// One problem as read.
#[derive(Default)]
struct Prob {
    number: usize,
    start: Src,
    authors: Vec<Item>,
    origins: Vec<Item>,
    titles: Vec<Item>,
    awards: Vec<Item>,
    stipulation: Option<Item>,
    /// `SStipulation`: the structured stipulation's words, joined.
    sstipulation: Option<Item>,
    /// Per colour (white, black, neutral): pieces as `[attrs…] CodeSquare` items.
    pieces: [Vec<Item>; 3],
    /// In an `a=>b` proof game, the position to reach: the pieces given after the
    /// stipulation (those before it are the start position).
    target: Option<[Vec<Item>; 3]>,
    options: Vec<Item>,
    conditions: Vec<Item>,
    /// Twins: label, the command words.
    twins: Vec<(String, Vec<Item>, Src)>,
    /// `Remark` lines, as written (without the keyword).
    remarks: Vec<Item>,
    /// The lines of `Remark yaml: …`: YACPDB fields that Popeye's language cannot hold,
    /// as feerie's converter writes them (the text after `yaml: `, indentation kept).
    yaml: Vec<Item>,
    /// What the reader left out, each with its place: such a problem is unsupported.
    unsupported: Vec<String>,
    unsupported_at: Vec<Src>,
    error: Option<(Src, String)>,
}

impl Prob {
    /// Leaves out something the reader cannot give the loader: the problem is unsupported.
    fn leave_out(&mut self, at: Src, reason: String) {
        self.unsupported.push(reason);
        self.unsupported_at.push(at);
    }
}

struct Reader<'a> {
    toks: Vec<Tok>,
    lines: Vec<&'a str>,
    i: usize,
    lang: Lang,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    /// The rest of the line of the token before `self.i` (the keyword), consumed.
    fn rest_of_line(&mut self, kw: &Tok) -> Option<Item> {
        let line = self.lines.get(kw.at.line - 1).copied().unwrap_or("");
        let start = kw.at.col - 1 + kw.text.chars().count();
        let rest: String = line.chars().skip(start).collect();
        while self.peek().is_some_and(|t| t.at.line == kw.at.line) {
            self.i += 1;
        }
        let lead = rest.chars().take_while(|c| c.is_whitespace()).count();
        let text = rest.trim().to_string();
        if text.is_empty() { None } else { Some(Item { text, at: Src { line: kw.at.line, col: start + lead + 1 }, verbatim: true }) }
    }
    /// Whether the word is a problem-level keyword of the file's language.
    fn is_command(&self, word: &str) -> bool {
        !word.chars().any(|c| c.is_ascii_digit()) && matches!(command(word, self.lang), Lookup::Found(c) if c != Cmd::Begin)
    }
}

/// The marker of a remark that carries a YACPDB field (`Remark yaml: keywords: [Retro]`).
pub(crate) const YAML_REMARK: &str = "yaml:";

/// The YAML line a `Remark yaml: …` carries (the text after `yaml:` and one space, its
/// indentation kept), or `None` for another remark.
fn remark_raw(r: &Reader, kw: &Tok) -> Option<Item> {
    let line = r.lines.get(kw.at.line - 1).copied().unwrap_or("");
    let start = kw.at.col - 1 + kw.text.chars().count();
    let rest: String = line.chars().skip(start).collect();
    let lead = rest.chars().take_while(|c| c.is_whitespace()).count();
    let body = rest.trim_start().strip_prefix(YAML_REMARK)?;
    let text = body.strip_prefix(' ').unwrap_or(body).trim_end().to_string();
    let col = start + lead + YAML_REMARK.len() + 1 + usize::from(body.starts_with(' '));
    Some(Item { text, at: Src { line: kw.at.line, col }, verbatim: true })
}

/// Splits a file into words with their places.
fn tokenize(lines: &[&str]) -> Vec<Tok> {
    let mut out = Vec::new();
    for (l, line) in lines.iter().enumerate() {
        let mut cur = String::new();
        let mut start = 0;
        for (c, ch) in line.chars().chain(std::iter::once(' ')).enumerate() {
            if ch.is_whitespace() {
                if !cur.is_empty() {
                    out.push(Tok { text: std::mem::take(&mut cur), at: Src { line: l + 1, col: start + 1 } });
                }
            } else {
                if cur.is_empty() {
                    start = c;
                }
                cur.push(ch);
            }
        }
    }
    out
}

/// Splits a piece word (`bg1g2`, `15a1`, `Kh1`) into its code and squares. The length decides
/// where the code ends: squares take two characters each.
fn split_piece(word: &str) -> Option<(String, Vec<String>)> {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() < 3 || !chars.iter().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let code_len = if chars.len() % 2 == 1 { 1 } else { 2 };
    let code: String = chars[..code_len].iter().collect();
    let mut squares = Vec::new();
    for pair in chars[code_len..].chunks(2) {
        if !pair[0].is_ascii_alphabetic() || !pair[1].is_ascii_digit() {
            return None;
        }
        squares.push(format!("{}{}", pair[0].to_ascii_lowercase(), pair[1]));
    }
    if code.chars().next().is_some_and(|c| c.is_ascii_digit()) != code.chars().all(|c| c.is_ascii_digit()) && code_len == 2 {
        // A leaper code is two digits (`15`); a digit then a letter is no code.
        if code.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return None;
        }
    }
    Some((code, squares))
}

fn fail(p: &mut Prob, at: Src, message: String) {
    if p.error.is_none() {
        p.error = Some((at, message));
    }
}

/// Reads the pieces after `Pieces` (or a twin's `Add`): colours, attributes, pieces, up to a
/// word that is none of them. Returns the pieces as (colour index, item).
fn read_pieces(r: &mut Reader, p: &mut Prob, stop_at_twin_words: bool) -> Vec<(usize, Item)> {
    let colours = lower_table(COLOURS, r.lang);
    let attrs = lower_table(ATTRIBUTES, r.lang);
    let twin_words = lower_table(TWIN_COMMANDS, r.lang);
    let mut colour: Option<usize> = None;
    let mut cur_attrs: Vec<&'static str> = Vec::new();
    let mut out = Vec::new();
    while let Some(t) = r.peek().cloned() {
        let has_digit = t.text.chars().any(|c| c.is_ascii_digit());
        if !has_digit {
            if let Lookup::Found(c) = lookup(&t.text, &colours) {
                colour = COLOURS.iter().position(|e| e.0 == c);
                cur_attrs.clear();
                r.i += 1;
                continue;
            }
            if t.text.eq_ignore_ascii_case("totalinvisible") || (r.lang == Lang::De && t.text.eq_ignore_ascii_case("totalunsichtbar")) {
                p.leave_out(t.at, format!("the pseudo-colour '{}' is not supported yet", t.text));
                r.i += 1;
                if r.peek().is_some_and(|n| n.text.chars().all(|c| c.is_ascii_digit())) {
                    r.i += 1;
                }
                continue;
            }
            if let Lookup::Found(a) = lookup(&t.text, &attrs) {
                cur_attrs.push(a);
                r.i += 1;
                continue;
            }
            if stop_at_twin_words && !matches!(lookup(&t.text, &twin_words), Lookup::None) {
                break;
            }
            if r.is_command(&t.text) {
                break;
            }
        } else if r.is_command(&t.text) {
            break;
        }
        let Some(c) = colour else {
            fail(p, t.at, format!("'{}': a colour must come first (e.g. 'white Kb6')", t.text));
            r.i += 1;
            continue;
        };
        let Some((code, squares)) = split_piece(&t.text) else {
            if has_digit && t.text.contains('/') && t.text.split('/').all(|w| !w.is_empty()) {
                // A hunter (`s/lb8`: moves forward as one piece, backward as another), which
                // Popeye defines and feerie does not play yet.
                p.leave_out(t.at, format!("the hunter piece '{}' is not supported yet", t.text));
                r.i += 1;
                continue;
            }
            if has_digit {
                fail(p, t.at, format!("'{}' is not a piece: write a piece code and its squares, e.g. Kb6 or Sc3e5", t.text));
            } else {
                fail(p, t.at, format!("unknown word '{}' in the pieces ({} colour, attribute or keyword expected)", t.text, r.lang.name()));
            }
            r.i += 1;
            continue;
        };
        r.i += 1;
        let Some(en) = english_code(&code, r.lang) else {
            p.leave_out(t.at, format!("the {} piece code '{}' ({}) is not supported yet", r.lang.name(), code.to_uppercase(), t.text));
            continue;
        };
        let mut prefix = String::new();
        for a in &cur_attrs {
            if super::board::ATTRIBUTES.contains(a) {
                prefix.push_str(a);
                prefix.push(' ');
            } else {
                p.leave_out(t.at, format!("piece attribute '{a}' ({}) is not supported yet", t.text));
            }
        }
        let code_len = code.chars().count();
        for (k, sq) in squares.iter().enumerate() {
            let col = if k == 0 { t.at.col } else { t.at.col + code_len + 2 * k };
            out.push((c, made(format!("{prefix}{en}{sq}"), Src { line: t.at.line, col })));
        }
    }
    out
}

/// Reads a Forsyth string into pieces (`py-engl.txt`: runs of blanks as numbers, `/`
/// optional, `.xy` two-letter codes, `+ - =` colour marks).
fn read_forsyth(t: &Tok, lang: Lang, p: &mut Prob) {
    let chars: Vec<char> = t.text.chars().collect();
    let mut sq = 0usize; // 0 = a8, 63 = h1
    let mut k = 0;
    while k < chars.len() {
        let at = Src { line: t.at.line, col: t.at.col + k };
        let c = chars[k];
        if c == '/' {
            if !sq.is_multiple_of(8) {
                sq = (sq / 8 + 1) * 8;
            }
            k += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let n: String = chars[k..].iter().take_while(|c| c.is_ascii_digit()).collect();
            k += n.len();
            sq += n.parse::<usize>().unwrap_or(64);
            continue;
        }
        let mut colour = None;
        let mut j = k;
        if matches!(chars[j], '+' | '-' | '=') {
            colour = Some(match chars[j] {
                '+' => 0,
                '-' => 1,
                _ => 2,
            });
            j += 1;
        }
        let code: String = if chars.get(j) == Some(&'.') {
            let s: String = chars.iter().skip(j + 1).take(2).collect();
            j += 3;
            s
        } else {
            let s: String = chars.iter().skip(j).take(1).collect();
            j += 1;
            s
        };
        if code.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric()) || sq >= 64 {
            fail(p, at, format!("Forsyth '{}': cannot read '{}'", t.text, chars[k..j.min(chars.len())].iter().collect::<String>()));
            return;
        }
        let colour = colour.unwrap_or(if code.starts_with(|c: char| c.is_ascii_uppercase()) { 0 } else { 1 });
        match english_code(&code, lang) {
            Some(en) => {
                let name = format!("{}{}", (b'a' + (sq % 8) as u8) as char, 8 - sq / 8);
                p.pieces[colour].push(made(format!("{en}{name}"), at));
            }
            None => p.leave_out(at, format!("the {} piece code '{}' (Forsyth) is not supported yet", lang.name(), code.to_uppercase())),
        }
        sq += 1;
        k = j;
    }
}

/// Reads the words of an `Option` or `Condition` command up to the next keyword.
fn read_list(r: &mut Reader, known: &[(&'static str, &'static str)]) -> Vec<Item> {
    let mut out = Vec::new();
    while let Some(t) = r.peek().cloned() {
        match lookup(&t.text, known) {
            Lookup::Found(en) => out.push(Item { text: en.to_string(), at: t.at, verbatim: en.eq_ignore_ascii_case(&t.text) }),
            _ if r.is_command(&t.text) => break,
            _ => out.push(item(&t)),
        }
        r.i += 1;
    }
    out
}

/// Built once per language and process, as [`condition_table`].
fn option_table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    static TABLES: [OnceLock<Vec<(&'static str, &'static str)>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[lang_index(lang)].get_or_init(|| build_option_table(lang))
}

fn build_option_table(lang: Lang) -> Vec<(&'static str, &'static str)> {
    let mut t = lower_table(OPTIONS, lang);
    if lang != Lang::En {
        // Popeye's English names are read in every file too (options.rs takes them).
        t.extend(lower_table(OPTIONS, Lang::En));
    }
    t
}

/// The conditions' names (English, and the French or German names of the conditions feerie
/// plays), and the words that may follow the Circe family, each with its English name.
/// Built once per language and process: a collection of thousands of problems reads it for each.
fn condition_table(lang: Lang) -> &'static [(&'static str, &'static str)] {
    static TABLES: [OnceLock<Vec<(&'static str, &'static str)>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[lang_index(lang)].get_or_init(|| build_condition_table(lang))
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Fr => 1,
        Lang::De => 2,
    }
}

fn build_condition_table(lang: Lang) -> Vec<(&'static str, &'static str)> {
    use super::condition_names::{CONDITION_NAMES, REBIRTH_OPTIONS};
    let pick = |e: &(&'static str, &'static str, &'static str)| match lang {
        Lang::En => e.0,
        Lang::Fr => e.1,
        Lang::De => e.2,
    };
    let mut t: Vec<(&'static str, &'static str)> = super::options::CONDITIONS
        .iter()
        .map(|c| (*c, CONDITION_ALIASES.iter().find(|(a, _)| a.eq_ignore_ascii_case(c)).map_or(*c, |(_, en)| *en)))
        .collect();
    // A Circe option named like a condition (`Take&Make`) would make the condition's prefix
    // (`take`) ambiguous: the condition wins, as in Popeye.
    let aliased = |e: &&(&'static str, &'static str, &'static str)| !CONDITION_ALIASES.iter().any(|(a, _)| a.eq_ignore_ascii_case(e.0));
    for e in CONDITION_NAMES.iter().chain(REBIRTH_OPTIONS.iter().filter(aliased)) {
        t.push((pick(e), e.0));
        t.push((e.0, e.0));
    }
    t.extend(CONDITION_ALIASES.iter().copied());
    t
}

/// Other names of the conditions feerie plays (aliases, German and French), with the
/// English name they stand for, so that an abbreviation (`take`, `haan`) is not ambiguous.
const CONDITION_ALIASES: &[(&str, &str)] = &[
    ("Take&Make", "Take&MakeChess"),
    ("Take&MakeSchach", "Take&MakeChess"),
    ("Take&MakeEchecs", "Take&MakeChess"),
    ("Make&TakeSchach", "Make&TakeChess"),
    ("Make&TakeEchecs", "Make&TakeChess"),
    ("Haaner", "HaanerChess"),
    ("Haan", "HaanerChess"),
    ("HaanerSchach", "HaanerChess"),
    ("Patrol", "Patrouille"),
    ("PatrouilleSchach", "Patrouille"),
    ("Annan", "AnnanChess"),
    ("AnnanSchach", "AnnanChess"),
    ("AnnanEchecs", "AnnanChess"),
    ("Ohneschach", "ChecklessChess"),
    ("SansEchecs", "ChecklessChess"),
    ("Loch", "Hole"),
    ("Trou", "Hole"),
    ("Andernach", "AndernachChess"),
    ("AntiAndernach", "AntiAndernachChess"),
    ("Monochrome", "MonochromChess"),
    ("Bichrome", "BichromChess"),
    ("Grid", "GridChess"),
    ("Mars", "MarsCirce"),
];

/// Reads one twin's commands (after `Twin` or `ZeroPosition`).
fn read_twin(r: &mut Reader, p: &mut Prob) -> Vec<Item> {
    let twin_words = lower_table(TWIN_COMMANDS, r.lang);
    let conditions = condition_table(r.lang);
    let mut out: Vec<Item> = Vec::new();
    let mut sstip: Option<Item> = None;
    let mut current = "";
    while let Some(t) = r.peek().cloned() {
        let has_digit = t.text.chars().any(|c| c.is_ascii_digit());
        if !has_digit && let Lookup::Found(en) = lookup(&t.text, &twin_words) {
            current = en;
            r.i += 1;
            match en {
                "Continued" if !out.is_empty() => {
                    fail(p, t.at, "'Continued' must come first in a twin".into());
                }
                "Continued" => out.push(made("Continued", t.at)),
                "SStipulation" => {
                    // Its words up to the next command; written last in the twin, whose
                    // reader gives it the rest of the twin (`super::twins`).
                    let mut words = Vec::new();
                    while let Some(n) = r.peek().cloned() {
                        let twin_word =
                            !n.text.chars().any(|c| c.is_ascii_digit()) && matches!(lookup(&n.text, &twin_words), Lookup::Found(_));
                        if r.is_command(&n.text) || (twin_word && !words.is_empty()) {
                            break;
                        }
                        words.push(n.text);
                        r.i += 1;
                    }
                    sstip = Some(made(format!("SStipulation {}", words.join(" ")), t.at));
                    current = "";
                }
                "Add" => {
                    let pieces = read_pieces(r, p, true);
                    let mut colour = None;
                    for (c, it) in pieces {
                        if it.text.contains(' ') {
                            p.leave_out(it.at, format!("a twin adds a piece with an attribute ({}): not supported yet", it.text));
                            continue;
                        }
                        if colour != Some(c) {
                            out.push(made("Add", t.at));
                            out.push(made(COLOURS[c].0, it.at));
                            colour = Some(c);
                        }
                        out.push(it);
                    }
                }
                "Stipulation" => {
                    out.push(made(en, t.at));
                    if let Some(s) = r.peek().cloned() {
                        out.push(item(&s));
                        r.i += 1;
                    }
                }
                "Substitute" => {
                    // Its two piece codes, whatever keyword they begin (`P` PolishType, `R`
                    // Remark).
                    out.push(made(en, t.at));
                    for _ in 0..2 {
                        let Some(c) = r.peek().cloned() else { break };
                        r.i += 1;
                        match english_code(&c.text, r.lang) {
                            Some(en) => out.push(Item { text: en.clone(), at: c.at, verbatim: en.eq_ignore_ascii_case(&c.text) }),
                            None => p.leave_out(c.at, format!("twin: the {} piece code '{}' is not supported yet", r.lang.name(), c.text)),
                        }
                    }
                    current = "";
                }
                _ => out.push(made(en, t.at)),
            }
            continue;
        }
        if r.is_command(&t.text) {
            break;
        }
        r.i += 1;
        match current {
            "Condition" => match lookup(&t.text, conditions) {
                Lookup::Found(en) => out.push(made(en, t.at)),
                _ if out.last().is_some_and(|l| l.text == "Condition") => {
                    // A condition feerie does not know by name (German, French): unsupported.
                    out.pop();
                    p.leave_out(t.at, format!("twin: condition '{}' is not supported yet", t.text));
                    current = "SkipCondition";
                }
                _ => out.push(item(&t)),
            },
            "SkipCondition" => {}
            _ => out.push(item(&t)),
        }
    }
    out.extend(sstip);
    out
}

/// Whether a stipulation is one of the manual's forms (`3->ser-#2`, `reci-h#2`, `hr#2`,
/// `dia5.5`, `h<>3`, …) that feerie's stipulation parser does not read: such a problem is
/// valid Popeye input, unsupported.
fn popeye_only_stipulation(s: &str) -> bool {
    if !matches!(super::Stipulation::parse(s), Err(super::StipulationError::Malformed { .. })) {
        return false;
    }
    let l = s.to_ascii_lowercase();
    const MARKS: &[&str] = &[
        "->", "reci-", "exact-", "semi-", "pser-", "phser-", "hr", "(", "<>", "ct", "c81", "dia", "=>", "##", "!=", "!#", "00", "%", "ep",
        "z", "k", "x", "~", "+",
    ];
    MARKS.iter().any(|m| l.contains(m))
}

/// Reads one problem, from the word after `BeginProblem` or `NextProblem` to its end; returns
/// whether another problem follows.
fn read_problem(r: &mut Reader, p: &mut Prob) -> bool {
    let options = option_table(r.lang);
    let conditions = condition_table(r.lang);
    while let Some(t) = r.peek().cloned() {
        r.i += 1;
        let cmd = match command(&t.text, r.lang) {
            Lookup::Found(c) => c,
            Lookup::Ambiguous(names) => {
                fail(p, t.at, format!("ambiguous keyword '{}' (it begins {})", t.text, names.join(", ")));
                continue;
            }
            Lookup::None => {
                fail(
                    p,
                    t.at,
                    format!("unknown keyword '{}' ({} keywords: the file begins with '{}')", t.text, r.lang.name(), commands(r.lang)[0].0),
                );
                continue;
            }
        };
        match cmd {
            Cmd::End => return false,
            Cmd::Next => return true,
            Cmd::Begin => {}
            Cmd::Remark => {
                let raw = remark_raw(r, &t);
                if let Some(it) = r.rest_of_line(&t) {
                    match raw {
                        Some(yaml) => p.yaml.push(yaml),
                        None => p.remarks.push(it),
                    }
                }
            }
            Cmd::Protocol | Cmd::LaTeX => {
                r.rest_of_line(&t);
                if cmd == Cmd::LaTeX {
                    while r.peek().is_some_and(|n| !r.is_command(&n.text)) {
                        r.i += 1;
                    }
                }
            }
            Cmd::LaTeXPieces => {
                while r.peek().is_some_and(|n| !r.is_command(&n.text)) {
                    r.i += 1;
                }
            }
            Cmd::Author | Cmd::Origin | Cmd::Title | Cmd::Award => {
                if let Some(it) = r.rest_of_line(&t) {
                    match cmd {
                        Cmd::Author => p.authors.push(it),
                        Cmd::Origin => p.origins.push(it),
                        Cmd::Title => p.titles.push(it),
                        _ => p.awards.push(it),
                    }
                }
            }
            Cmd::Stipulation => match r.peek().cloned() {
                Some(s) if s.at.line == t.at.line || !r.is_command(&s.text) => {
                    r.i += 1;
                    let mut st = item(&s);
                    // `dia 10`, `ser-s00 9`: the number of moves may follow as a word of its own
                    // (after a goal that ends in letters, or the castling goal `00`).
                    if (!st.text.ends_with(|c: char| c.is_ascii_digit()) || st.text.ends_with("00"))
                        && let Some(n) = r.peek().filter(|n| !n.text.is_empty() && n.text.chars().all(|c| c.is_ascii_digit() || c == '.'))
                    {
                        st.text.push_str(&n.text);
                        st.verbatim = false;
                        r.i += 1;
                    }
                    if st.text.to_ascii_lowercase().contains("a=>b") {
                        p.target.get_or_insert_with(Default::default);
                    }
                    if popeye_only_stipulation(&st.text) {
                        p.leave_out(st.at, format!("stipulation '{}' is not supported yet", st.text));
                        st = made("#1", st.at);
                    }
                    p.stipulation = Some(st);
                    p.sstipulation = None;
                }
                _ => fail(p, t.at, "the stipulation is missing after the keyword".into()),
            },
            Cmd::SStipulation => {
                let rest: Vec<String> = std::iter::from_fn(|| {
                    let n = r.peek()?.clone();
                    if r.is_command(&n.text) {
                        return None;
                    }
                    r.i += 1;
                    Some(n.text)
                })
                .collect();
                // Read by the loader (`sstipulation:`, [`super::sstip`]); the last one counts.
                p.stipulation = None;
                p.sstipulation = Some(made(rest.join(" "), t.at));
            }
            Cmd::Forsyth => match r.peek().cloned() {
                Some(f) => {
                    r.i += 1;
                    // After an `a=>b` stipulation: the position to reach.
                    if let Some(mut t) = p.target.take() {
                        std::mem::swap(&mut p.pieces, &mut t);
                        read_forsyth(&f, r.lang, p);
                        std::mem::swap(&mut p.pieces, &mut t);
                        p.target = Some(t);
                    } else {
                        read_forsyth(&f, r.lang, p);
                    }
                }
                None => fail(p, t.at, "the Forsyth string is missing".into()),
            },
            Cmd::Pieces => {
                for (c, it) in read_pieces(r, p, false) {
                    match &mut p.target {
                        Some(t) => t[c].push(it),
                        None => p.pieces[c].push(it),
                    }
                }
            }
            Cmd::Option => {
                let list = read_list(r, options);
                p.options.extend(list);
            }
            Cmd::Condition => {
                let list = read_list(r, conditions);
                let first = list.first().map(|i| i.text.clone()).unwrap_or_default();
                let known = super::options::CONDITIONS.contains(&first.as_str())
                    || super::options::reserve_condition(&list.iter().map(|i| i.text.as_str()).collect::<Vec<_>>()).is_some();
                if list.is_empty() {
                    fail(p, t.at, "the condition is missing after the keyword".into());
                } else if known {
                    p.conditions.extend(list);
                } else {
                    let words: Vec<&str> = list.iter().map(|i| i.text.as_str()).collect();
                    p.leave_out(t.at, format!("condition '{}' is not supported yet", words.join(" ")));
                }
            }
            Cmd::Twin | Cmd::Zero => {
                let before = p.unsupported.len();
                let words = read_twin(r, p);
                if cmd == Cmd::Zero && !p.twins.is_empty() {
                    fail(p, t.at, "'ZeroPosition' must come before the twins".into());
                }
                let label = if cmd == Cmd::Zero {
                    "a".to_string()
                } else {
                    let zero = p.twins.first().is_some_and(|t| t.0 == "a");
                    let n = p.twins.len() + usize::from(!zero);
                    ((b'a' + (n as u8).min(25)) as char).to_string()
                };
                if words.is_empty() && p.unsupported.len() == before {
                    fail(p, t.at, "the twin has no command".into());
                }
                p.twins.push((label, words, t.at));
            }
        }
    }
    false
}

/// The generated YAML: its lines, and for each line the places of its parts (start column
/// from 0 in the generated line, length, the item).
#[derive(Default)]
struct Gen {
    lines: Vec<String>,
    parts: Vec<Vec<(usize, usize, Item)>>,
    fallback: Vec<Src>,
}

impl Gen {
    /// A line `prefix value` (or `prefix[value, …]` when `flow`), each value the items of a
    /// group joined with spaces, plain when YAML reads it back as written, else quoted.
    fn entry(&mut self, prefix: &str, groups: &[Vec<Item>], flow: bool, fallback: Src) {
        let mut line = prefix.to_string();
        let mut parts = Vec::new();
        if flow {
            line.push('[');
        }
        for (k, group) in groups.iter().enumerate() {
            if k > 0 {
                line.push_str(", ");
            }
            let joined: Vec<&str> = group.iter().map(|i| i.text.as_str()).collect();
            let quoted = super::yaml::needs_quotes(&joined.join(" "), flow);
            if quoted {
                line.push('\'');
            }
            for (j, it) in group.iter().enumerate() {
                if j > 0 {
                    line.push(' ');
                }
                let text = if quoted { it.text.replace('\'', "''") } else { it.text.clone() };
                parts.push((line.chars().count(), text.chars().count(), it.clone()));
                line.push_str(&text);
            }
            if quoted {
                line.push('\'');
            }
        }
        if flow {
            line.push(']');
        }
        self.lines.push(line);
        self.parts.push(parts);
        self.fallback.push(groups.iter().flatten().next().map(|i| i.at).unwrap_or(fallback));
    }
    fn key(&mut self, line: &str, at: Src) {
        self.lines.push(line.to_string());
        self.parts.push(Vec::new());
        self.fallback.push(at);
    }
    /// A block list `key:` with one `  - item` line per item.
    fn list(&mut self, key: &str, items: &[Item], fallback: Src) {
        self.key(&format!("{key}:"), items.first().map(|i| i.at).unwrap_or(fallback));
        for it in items {
            self.entry("  - ", &[vec![it.clone()]], false, fallback);
        }
    }
    /// A line of the file copied as it is (`Remark yaml: …`).
    fn raw(&mut self, it: &Item) {
        self.lines.push(it.text.clone());
        self.parts.push(vec![(0, it.text.chars().count(), it.clone())]);
        self.fallback.push(it.at);
    }
    /// The `.inp` place of a generated line and column (both from 1).
    fn place(&self, line: usize, column: usize) -> Option<Src> {
        let l = line.checked_sub(1)?;
        let parts = self.parts.get(l)?;
        let c = column.saturating_sub(1);
        let hit = parts.iter().rev().find(|(s, _, _)| *s <= c).or(parts.first());
        Some(match hit {
            Some((s, len, it)) => {
                let inside = c.saturating_sub(*s).min(len.saturating_sub(1));
                if it.verbatim { Src { line: it.at.line, col: it.at.col + inside } } else { it.at }
            }
            None => self.fallback[l],
        })
    }
}

/// Fields that say the same thing: a `Remark yaml:` field of one group replaces the fields
/// of its group that the reader would generate.
const FIELD_GROUPS: &[&[&str]] = &[
    &["authors", "author"],
    &["comments", "comment"],
    &["options", "conditions", "condition"],
    &["algebraic", "fen"],
    &["source"],
    &["award"],
    &["stipulation"],
    &["twins"],
    &["remarks"],
];

/// The top-level keys of `Remark yaml:` lines, normalised (lower case, `-` for `_`).
fn fragment_keys(lines: &[Item]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.text.starts_with([' ', '\t', '#', '-']) && !l.text.trim().is_empty())
        .filter_map(|l| l.text.split_once(':').map(|(k, _)| k.trim().trim_matches(['\'', '"']).to_ascii_lowercase().replace('_', "-")))
        .collect()
}

/// Whether a generated field is replaced by a `Remark yaml:` field.
fn overridden(keys: &[String], field: &str) -> bool {
    let group = FIELD_GROUPS.iter().find(|g| g.contains(&field)).copied().unwrap_or(&[]);
    keys.iter().any(|k| k == field || group.contains(&k.as_str()))
}

/// The options and conditions as YAML list items: a new item at each option's or
/// condition's name, its parameters with it (the loader reads all items as one stream of
/// words, so the grouping is only for the eye).
fn option_groups(items: &[Item]) -> Vec<Vec<Item>> {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        OPTIONS
            .iter()
            .map(|o| o.0)
            .chain(super::options::CONDITIONS.iter().copied())
            .chain(super::condition_names::CONDITION_NAMES.iter().map(|c| c.0))
            .chain(CONDITION_ALIASES.iter().map(|c| c.1))
            .chain(["Variations", "Defence", "Defense", "Reserve", "WhiteReserve", "BlackReserve"])
            .collect()
    });
    let mut out: Vec<Vec<Item>> = Vec::new();
    for it in items {
        match out.last_mut() {
            Some(g) if !names.iter().any(|n| n.eq_ignore_ascii_case(&it.text)) => g.push(it.clone()),
            _ => out.push(vec![it.clone()]),
        }
    }
    out
}

fn generate(p: &Prob) -> Gen {
    let mut g = Gen::default();
    let s = p.start;
    let keys = fragment_keys(&p.yaml);
    let keep = |field: &str| !overridden(&keys, field);
    if !p.authors.is_empty() && keep("authors") {
        let groups: Vec<Vec<Item>> = p.authors.iter().map(|a| vec![a.clone()]).collect();
        g.entry("authors: ", &groups, true, s);
    }
    if !p.origins.is_empty() && keep("source") {
        g.entry("source: ", std::slice::from_ref(&p.origins), false, s);
    }
    if !p.awards.is_empty() && keep("award") {
        g.entry("award: ", std::slice::from_ref(&p.awards), false, s);
    }
    if !p.titles.is_empty() && keep("comments") {
        g.list("comments", &p.titles, s);
    }
    if !p.remarks.is_empty() && keep("remarks") {
        g.list("remarks", &p.remarks, s);
    }
    if let Some(st) = &p.stipulation
        && keep("stipulation")
    {
        g.entry("stipulation: ", &[vec![st.clone()]], false, s);
    }
    if let Some(st) = &p.sstipulation
        && keep("sstipulation")
    {
        g.entry("sstipulation: ", &[vec![st.clone()]], false, s);
    }
    // `a=>b`: the pieces before the stipulation are the start, those after it the diagram.
    let (start, diagram) = match &p.target {
        Some(t) => (Some(&p.pieces), t),
        None => (None, &p.pieces),
    };
    for (key, pieces) in [("start", start), ("algebraic", Some(diagram))] {
        let Some(pieces) = pieces else { continue };
        if keep(key) {
            g.key(&format!("{key}:"), pieces.iter().flatten().next().map(|i| i.at).unwrap_or(s));
            for (k, name) in ["white", "black", "neutral"].iter().enumerate() {
                if pieces[k].is_empty() && k == 2 {
                    continue;
                }
                let groups: Vec<Vec<Item>> = pieces[k].iter().map(|i| vec![i.clone()]).collect();
                g.entry(&format!("  {name}: "), &groups, true, s);
            }
        }
    }
    let mut opts: Vec<Item> = p.options.clone();
    opts.extend(implied_kingless(p));
    opts.extend(p.conditions.iter().cloned());
    if !opts.is_empty() && keep("options") {
        g.entry("options: ", &option_groups(&opts), true, s);
    }
    if p.twins.iter().any(|t| !t.1.is_empty()) && keep("twins") {
        g.key("twins:", p.twins[0].2);
        // A twin whose every command is unsupported is left out (the problem is unsupported).
        for (label, words, at) in p.twins.iter().filter(|t| !t.1.is_empty()) {
            g.entry(&format!("  {label}: "), std::slice::from_ref(words), false, *at);
        }
    }
    for l in &p.yaml {
        g.raw(l);
    }
    g
}

/// Popeye plays a side without a king as if `NoWk` or `NoBk` were given (it warns `both
/// sides need a king` and solves): those options for the sides of the diagram that have no
/// king, orthodox or neutral, and no such option. Not for proof games, nor where a twin may
/// bring a king in (a twin word that names a king on a square).
fn implied_kingless(p: &Prob) -> Vec<Item> {
    if p.target.is_some() {
        return Vec::new();
    }
    let is_king = |i: &Item| {
        let code = i.text.rsplit(' ').next().unwrap_or_default();
        code.len() == 3 && code.starts_with('K')
    };
    let twin_king = p.twins.iter().flat_map(|t| t.1.iter()).any(|w| {
        let b = w.text.as_bytes();
        b.len() == 3 && matches!(b[0], b'K' | b'k' | b'R' | b'r') && (b'a'..=b'h').contains(&b[1]) && (b'1'..=b'8').contains(&b[2])
    });
    let neutral_king = p.pieces[2].iter().any(is_king);
    if twin_king || neutral_king {
        return Vec::new();
    }
    let has = |names: [&str; 3]| p.options.iter().any(|o| names.iter().any(|n| o.text.eq_ignore_ascii_case(n)));
    let mut out = Vec::new();
    for (c, names) in [(0, ["NoWk", "OhneWk", "SansRB"]), (1, ["NoBk", "OhneSk", "SansRN"])] {
        if !p.pieces[c].iter().any(is_king) && !has(names) {
            out.push(made(names[0], p.start));
        }
    }
    out
}

/// Reads a Popeye input file: one [`Loaded`] per problem.
pub(crate) fn load_popeye_str(text: &str, file: &str) -> Vec<Loaded> {
    read_all(text).iter().map(|p| finish(p, file)).collect()
}

fn first_line_of(p: &Prob) -> String {
    let stip = p.stipulation.as_ref().or(p.sstipulation.as_ref()).map(|s| s.text.as_str()).unwrap_or("?");
    let a: Vec<&str> = p.authors.iter().map(|a| a.text.as_str()).collect();
    if a.is_empty() { stip.to_string() } else { format!("{} — {stip}", a.join("; ")) }
}

/// Loads one problem: a syntax fault of the `.inp` reader, or the YAML loader's verdict with
/// its places translated.
fn finish(p: &Prob, file: &str) -> Loaded {
    if let Some((at, message)) = &p.error {
        return Loaded::Invalid(ProblemError {
            file: file.to_string(),
            document: p.number,
            first_line: first_line_of(p),
            line: at.line,
            column: at.col,
            message: message.clone(),
        });
    }
    let g = generate(p);
    // A block scalar at the end keeps its final line break.
    let doc = RawDoc { number: p.number, text: g.lines.join("\n") + "\n", offset: 0 };
    let loaded = load::load_document(&doc, file);
    let to_inp = |line: usize, column: usize| g.place(line, column).unwrap_or(p.start);
    match loaded {
        // What the reader left out (a piece, a condition it cannot give the loader) may be
        // what made the diagram illegal, as a fairy condition may make it legal: the problem
        // is unsupported, with those names, as the YAML loader decides for its own.
        Loaded::Invalid(e) if !p.unsupported.is_empty() => Loaded::Unsupported {
            file: e.file,
            document: e.document,
            line: p.start.line,
            first_line: e.first_line,
            reason: p.unsupported.join("; "),
            meta: match serde_yaml::from_str::<serde_yaml::Value>(&doc.text) {
                Ok(serde_yaml::Value::Mapping(m)) => super::meta::read_meta(&m),
                _ => Default::default(),
            },
            stipulation_text: p.stipulation.as_ref().or(p.sstipulation.as_ref()).map(|s| s.text.clone()).unwrap_or_default(),
            options: opts_text(p),
            diagram: None,
        },
        Loaded::Invalid(mut e) => {
            let at = to_inp(e.line, e.column);
            e.line = at.line;
            e.column = at.col;
            Loaded::Invalid(e)
        }
        Loaded::Unsupported { file, document, first_line, mut reason, meta, stipulation_text, options, diagram, .. } => {
            for u in &p.unsupported {
                if !reason.contains(u.as_str()) {
                    reason = if reason.is_empty() { u.clone() } else { format!("{reason}; {u}") };
                }
            }
            Loaded::Unsupported { file, document, line: p.start.line, first_line, reason, meta, stipulation_text, options, diagram }
        }
        Loaded::Ready(mut prob) => {
            prob.line = p.start.line;
            for t in &mut prob.twins {
                let at = to_inp(t.line, t.column);
                t.line = at.line;
                t.column = at.col;
            }
            if p.unsupported.is_empty() {
                return Loaded::Ready(prob);
            }
            let options = opts_text(p);
            Loaded::Unsupported {
                file: prob.file.clone(),
                document: prob.document,
                line: prob.line,
                first_line: prob.first_line.clone(),
                reason: p.unsupported.join("; "),
                meta: prob.meta.clone(),
                stipulation_text: prob.stipulation.to_string(),
                options,
                diagram: Some(Box::new(prob.position.diagram())),
            }
        }
    }
}

fn opts_text(p: &Prob) -> Vec<String> {
    p.options.iter().chain(p.conditions.iter()).map(|i| i.text.clone()).collect()
}

/// The generated YAML document of each problem of a Popeye input: the very text the loader
/// reads for it.
pub fn popeye_to_yaml(text: &str) -> Vec<String> {
    read_all(text).iter().map(|p| generate(p).lines.join("\n")).collect()
}

/// Every problem of a Popeye input, as read.
fn read_all(text: &str) -> Vec<Prob> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let toks = tokenize(&lines);
    let Some(first) = toks.first().cloned() else { return Vec::new() };
    let lang = begin_language(&first.text);
    let mut r = Reader { toks, lines, i: 0, lang: lang.unwrap_or(Lang::En) };
    let mut out = Vec::new();
    let mut number = 0;
    loop {
        number += 1;
        let start = r.peek().map(|t| t.at).unwrap_or_default();
        let mut p = Prob { number, start, ..Prob::default() };
        if number == 1 {
            if lang.is_some() {
                r.i += 1;
            } else {
                fail(
                    &mut p,
                    first.at,
                    format!("a Popeye input begins with 'BeginProblem' (or AnfangProblem, DebutProbleme), found '{}'", first.text),
                );
            }
        }
        let more = read_problem(&mut r, &mut p);
        out.push(p);
        if !more || r.peek().is_none() {
            break;
        }
    }
    out
}

/// One problem of a Popeye input for the converter: what the loader made of it, and the
/// YAML document it reads (or, when the reader had to leave something out, the first thing
/// left out, with its place).
pub(crate) struct ForConversion {
    /// What loading the problem gives.
    pub loaded: Loaded,
    /// The YAML text the loader read, or the fault that keeps it from being written.
    pub yaml: Result<String, ProblemError>,
}

/// Every problem of a Popeye input, for the converter.
pub(crate) fn for_conversion(text: &str, file: &str) -> Vec<ForConversion> {
    read_all(text)
        .iter()
        .map(|p| {
            let loaded = finish(p, file);
            let yaml = match (&loaded, p.unsupported_at.first()) {
                (Loaded::Invalid(e), _) => Err(e.clone()),
                (_, Some(at)) => Err(ProblemError {
                    file: file.to_string(),
                    document: p.number,
                    first_line: loaded.first_line().to_string(),
                    line: at.line,
                    column: at.col,
                    message: format!("cannot be converted, feerie does not read it: {}", p.unsupported.join("; ")),
                }),
                _ => Ok(generate(p).lines.join("\n")),
            };
            ForConversion { loaded, yaml }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_words() {
        assert_eq!(split_piece("bg1g2"), Some(("b".into(), vec!["g1".into(), "g2".into()])));
        assert_eq!(split_piece("15a1"), Some(("15".into(), vec!["a1".into()])));
        assert_eq!(split_piece("pab2"), Some(("pa".into(), vec!["b2".into()])));
        assert_eq!(split_piece("kz9x"), None);
    }

    #[test]
    fn prefixes() {
        assert!(matches!(command("stip", Lang::En), Lookup::Found(Cmd::Stipulation)));
        assert!(matches!(command("s", Lang::En), Lookup::Ambiguous(_)));
        assert!(matches!(command("weiter", Lang::De), Lookup::Found(Cmd::Next)));
        assert!(matches!(command("latex", Lang::En), Lookup::Found(Cmd::LaTeX)));
        assert!(looks_like_popeye("\n  beg\nstip #2"));
        assert!(!looks_like_popeye("---\nstipulation: '#2'"));
    }
}
