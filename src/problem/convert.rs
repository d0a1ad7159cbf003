//! Conversion between Popeye input (`.inp`) and YACPDB YAML, both ways, lossless for
//! everything feerie reads.
//!
//! **Design.** Both readers already meet in one place: the Popeye reader turns each problem
//! into the text of a YAML document, which the YAML loader reads (see `popeye_input`). So
//! `.inp` → YAML writes *that very text*: the converted document is, by construction, what
//! feerie reads when it loads the `.inp` problem. What the Popeye reader has to leave out (a
//! condition, a piece code or a stipulation feerie does not read) cannot be written, and the
//! problem is reported with the place and the name of what was left out.
//!
//! YAML → Popeye input writes each field as the Popeye command that the Popeye reader turns
//! back into it: `stipulation` as `Stipulation`, `authors` as `Author` lines, `source` as
//! `Origin`, `award` as `Award`, `comments` as `Title` lines (the Popeye reader reads `Title`
//! into `comments`), `remarks` as `Remark` lines, `algebraic` as `Pieces` (colours, attributes,
//! neutral pieces), the options as `Option` and the conditions as `Condition`, the twins as
//! `Twin` (or `ZeroPosition`) lines; the `start` position of an `a=>b` proof game as `Pieces`
//! before the `Stipulation` (Popeye reads the pieces after it as the diagram). Popeye's language has no place for a stated solution,
//! keywords, the intended number of solutions, a structured source, a FEN or a reserve: such a
//! field is copied, line by line as written, into `Remark yaml: …` lines, which Popeye ignores
//! and feerie's Popeye reader reads back into the same field. Xiangqi and Cheskers problems,
//! and twins that use feerie's reserve syntax, have no Popeye form and are reported.
//!
//! Every conversion is then proved on the spot: the written problem is loaded again and
//! compared with the source problem (position, stipulation, options, conditions, twins and
//! each twin's position, stated solution, metadata); a difference is reported as a problem
//! that cannot be converted, never written silently.
//!
//! ```
//! use feerie::problem::convert::{Format, convert_str};
//! let inp = "BeginProblem\nAuthor Loyd, Samuel\nStipulation #2\nPieces White Kb6 Rh1 Black Ka8\nEndProblem\n";
//! let yaml = convert_str(inp, "x.inp", true, Format::Yaml);
//! assert_eq!(yaml[0].as_deref().unwrap(), "authors: ['Loyd, Samuel']\nstipulation: '#2'\nalgebraic:\n  white: [Kb6, Rh1]\n  black: [Ka8]");
//! let back = convert_str(&format!("---\n{}\n", yaml[0].as_deref().unwrap()), "x.yaml", false, Format::Popeye);
//! assert!(back[0].as_deref().unwrap().contains("Pieces\n  White Kb6 Rh1\n  Black Ka8"));
//! ```

use super::error::ProblemError;
use super::load::load_document;
use super::popeye_input::{YAML_REMARK, for_conversion};
use super::yaml::{RawDoc, field, scalar, split_documents, texts, untag};
use super::{Loaded, Problem, load_popeye_str};
use crate::position::sq_name;
use serde_yaml::{Mapping, Value};

/// The format a problem is converted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YACPDB YAML: one document per problem.
    Yaml,
    /// Popeye input, English keywords.
    Popeye,
}

impl Format {
    /// The file extension of the format (`yaml`, `inp`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::Popeye => "inp",
        }
    }

    /// Joins converted problems into one file: YAML documents each after `---`, Popeye
    /// problems between `BeginProblem`, `NextProblem` and `EndProblem`. `None` when there is
    /// no problem.
    pub fn join(self, problems: &[String]) -> Option<String> {
        if problems.is_empty() {
            return None;
        }
        Some(match self {
            Format::Yaml => problems.iter().map(|p| format!("---\n{p}\n")).collect(),
            Format::Popeye => format!("BeginProblem\n{}\nEndProblem\n", problems.join("\nNextProblem\n\n")),
        })
    }
}

/// Converts every problem of a text: `popeye` tells whether it is Popeye input (else a YAML
/// stream). Each problem gives its text in the target format (a YAML document without its
/// `---`, or a Popeye problem without `BeginProblem` / `NextProblem` / `EndProblem`; join
/// them with [`Format::join`]), or the fault that keeps it from being converted: an invalid
/// problem's fault as loading reports it, or what has no form in the target format.
pub fn convert_str(text: &str, file: &str, popeye: bool, to: Format) -> Vec<Result<String, ProblemError>> {
    if popeye {
        for_conversion(text, file)
            .into_iter()
            .map(|c| {
                let yaml = c.yaml?;
                let fault = |message: String| problem_fault(&c.loaded, file, message);
                let back = load_str_one(&yaml, file);
                same_loaded(&c.loaded, &back).map_err(|d| fault(format!("cannot be converted without loss: the YAML {d}")))?;
                match to {
                    Format::Yaml => Ok(yaml),
                    Format::Popeye => {
                        let doc = RawDoc { number: c.loaded.document(), text: yaml, offset: 0 };
                        // Places of faults are in the generated YAML: report them at the
                        // problem's start in the `.inp` file.
                        yaml_to_popeye(&doc, &back, file).map_err(|e| fault(e.message))
                    }
                }
            })
            .collect()
    } else {
        split_documents(text)
            .iter()
            .map(|doc| {
                let loaded = load_document(doc, file);
                if let Loaded::Invalid(e) = loaded {
                    return Err(e);
                }
                match to {
                    Format::Yaml => Ok(yaml_text(doc)),
                    Format::Popeye => yaml_to_popeye(doc, &loaded, file),
                }
            })
            .collect()
    }
}

/// A YAML document's own text, without the blanked `---` of its first line.
fn yaml_text(doc: &RawDoc) -> String {
    let mut lines: Vec<&str> = doc.text.split('\n').collect();
    if lines.first().is_some_and(|l| l.trim().is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

fn load_str_one(yaml: &str, file: &str) -> Loaded {
    load_document(&RawDoc { number: 1, text: format!("{yaml}\n"), offset: 0 }, file)
}

/// A fault placed at a loaded problem's start.
fn problem_fault(loaded: &Loaded, file: &str, message: String) -> ProblemError {
    let line = match loaded {
        Loaded::Ready(p) => p.line,
        Loaded::Unsupported { line, .. } => *line,
        Loaded::Invalid(e) => e.line,
    };
    ProblemError {
        file: file.to_string(),
        document: loaded.document(),
        first_line: loaded.first_line().to_string(),
        line,
        column: 1,
        message,
    }
}

/// Where a YAML field lies, for faults.
fn field_fault(doc: &RawDoc, loaded: &Loaded, file: &str, key: &str, message: String) -> ProblemError {
    let loc = super::yaml::Locator::new(&doc.text, doc.offset);
    let (line, column) = loc.file_pos(loc.key(&[key]).unwrap_or_else(|| loc.start()));
    ProblemError { file: file.to_string(), document: doc.number, first_line: loaded.first_line().to_string(), line, column, message }
}

/// The top-level fields of a YAML document, each with its lines as written (from its key to
/// the line before the next top-level key, trailing blank and comment lines left out).
fn sections(text: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    for line in text.split('\n') {
        let top = !line.starts_with([' ', '\t', '#', '-']) && !line.trim().is_empty();
        match line.split_once(':') {
            Some((k, _)) if top => out.push((k.trim().trim_matches(['\'', '"']).to_ascii_lowercase().replace('_', "-"), vec![line])),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.1.push(line);
                }
            }
        }
    }
    for (_, lines) in &mut out {
        while lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
            lines.pop();
        }
    }
    out
}

/// Whether a text can stand on a Popeye line as written (the Popeye reader trims it).
fn one_line(s: &str) -> bool {
    !s.is_empty() && !s.contains(['\n', '\r']) && s.trim() == s
}

/// Popeye's options (English), as the converter sorts an options list into `Option` and
/// `Condition`.
const POPEYE_OPTIONS: &[&str] = &[
    "Try",
    "Defence",
    "Defense",
    "TrivialTriesAvoid",
    "SetPlay",
    "NullMoves",
    "Threat",
    "WhiteToPlay",
    "Variation",
    "Variations",
    "MoveNumbers",
    "StartMoveNumber",
    "UpToMoveNumber",
    "NoWk",
    "NoBk",
    "Duplex",
    "NoThreat",
    "MaxSolutions",
    "MaxFlightsquares",
    "EnPassant",
    "CastlingMutuallyExclusive",
    "NoBoard",
    "NoShortVariations",
    "HalfDuplex",
    "PostKeyPlay",
    "NonTrivial",
    "Intelligent",
    "MaxTime",
    "NoCastling",
    "Quodlibet",
    "StopOnShortSolutions",
    "Beep",
    "SuppressGrid",
    "WriteGrid",
    "KeepMatingPiece",
    "LastCapture",
    "GoalIsEnd",
    "MatesIn1",
];

/// Whether the words start with a condition's name (feerie's or Popeye's, English, or a
/// Réserve in any of its spellings, `Échecs Réserve` included).
fn is_condition(words: &[String]) -> bool {
    let w: Vec<&str> = words.iter().take(2).map(String::as_str).collect();
    let Some(first) = w.first() else { return false };
    super::options::CONDITIONS.iter().any(|c| c.eq_ignore_ascii_case(first))
        || super::condition_names::CONDITION_NAMES.iter().any(|c| c.0.eq_ignore_ascii_case(first))
        || ["hole", "holes"].contains(&first.to_ascii_lowercase().as_str())
        || super::options::reserve_condition(&w).is_some()
        || super::options::fairy_condition(&w[..1]).is_some()
}

/// Whether a word is one or more squares (`g7`, `g7g6g5`).
fn is_squares(w: &str) -> bool {
    let b = w.as_bytes();
    !b.is_empty() && b.len().is_multiple_of(2) && b.chunks(2).all(|c| (b'a'..=b'h').contains(&c[0]) && (b'1'..=b'8').contains(&c[1]))
}

/// Runs of square words written as one word, as Popeye writes them (`EnPassant g7g6g5`,
/// `NoCastling a1h1`): feerie reads both forms alike.
fn merge_squares(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        match out.last_mut() {
            Some(last) if is_squares(w) && is_squares(last) => last.push_str(w),
            _ => out.push(w.clone()),
        }
    }
    out
}

/// The words of an options list sorted into Popeye's options and conditions, each with its
/// parameters (the words up to the next name).
fn sort_options(words: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut options, mut conditions) = (Vec::new(), Vec::new());
    let mut to_options = true;
    for (i, w) in words.iter().enumerate() {
        if POPEYE_OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(w)) {
            to_options = true;
        } else if is_condition(&words[i..]) {
            to_options = false;
        }
        if to_options { options.push(w.clone()) } else { conditions.push(w.clone()) }
    }
    (options, conditions)
}

/// The Popeye problem of one YAML document (without `BeginProblem` and its like), its
/// fields that Popeye cannot hold in `Remark yaml:` lines; proved by loading it back.
fn yaml_to_popeye(doc: &RawDoc, loaded: &Loaded, file: &str) -> Result<String, ProblemError> {
    let fault = |key: &str, message: String| field_fault(doc, loaded, file, key, message);
    let value: Value = serde_yaml::from_str(&doc.text).map_err(|e| fault("", format!("YAML syntax error: {e}")))?;
    let Value::Mapping(map) = untag(&value) else { return Err(fault("", "a problem must be a mapping of fields".into())) };
    let mut out: Vec<String> = Vec::new();
    // Fields copied as they are, by their (normalised) key.
    let mut carry: Vec<String> = Vec::new();
    let mut handled: Vec<&str> = Vec::new();
    let key_of = |k: &Value| scalar(k).map(|k| k.trim().to_ascii_lowercase().replace('_', "-")).unwrap_or_default();
    let keys: Vec<String> = map.keys().map(key_of).collect();

    match field(map, "rules").and_then(scalar).map(|s| s.trim().to_ascii_lowercase()) {
        None => {}
        Some(r) if r == "chess" || r == "orthodox" => carry.push("rules".into()),
        Some(r) => return Err(fault("rules", format!("'rules: {r}' has no Popeye input form (Popeye plays chess only)"))),
    }
    handled.push("rules");
    // Metadata.
    for key in ["authors", "author"] {
        if let Some(v) = field(map, key).filter(|_| keys.iter().any(|k| k == key)) {
            let names = texts(v, false);
            if names.iter().all(|n| one_line(n)) && matches!(untag(v), Value::Sequence(_) | Value::String(_)) {
                out.extend(names.iter().map(|n| format!("Author {n}")));
            } else {
                carry.push(key.into());
            }
        }
        handled.push(key);
    }
    for (key, command) in [("source", "Origin"), ("award", "Award")] {
        if let Some(v) = field(map, key) {
            let text = match key {
                "source" => loaded_meta(loaded).source.clone(),
                _ => loaded_meta(loaded).award.clone(),
            };
            if let Some(t) = text.filter(|t| one_line(t)) {
                out.push(format!("{command} {t}"));
            }
            if !matches!(untag(v), Value::String(s) if one_line(s)) {
                carry.push(key.into());
            }
        }
        handled.push(key);
    }
    for (key, command) in [("comments", "Title"), ("comment", "Title"), ("remarks", "Remark")] {
        if let Some(v) = field(map, key).filter(|_| keys.iter().any(|k| k == key)) {
            let items = texts(v, false);
            let fits = items.iter().all(|t| one_line(t) && !(command == "Remark" && t.starts_with(YAML_REMARK)));
            if fits && matches!(untag(v), Value::Sequence(_) | Value::String(_)) {
                out.extend(items.iter().map(|t| format!("{command} {t}")));
            } else {
                carry.push(key.into());
            }
        }
        handled.push(key);
    }
    // The start position of an `a=>b` proof game: Popeye reads the pieces before the
    // stipulation as the start, those after it as the diagram.
    if let Some(v) = field(map, "start") {
        let mut m = Mapping::new();
        let key = if scalar(v).is_some() { "fen" } else { "algebraic" };
        m.insert(Value::String(key.into()), v.clone());
        let mut fen_carried = Vec::new();
        out.extend(pieces(&m, &|_, message| fault("start", message), &mut fen_carried)?);
        if !fen_carried.is_empty() {
            carry.push("start".into());
        }
    }
    handled.push("start");
    // Stipulation.
    if let Some(v) = field(map, "stipulation") {
        match scalar(v).map(|s| s.trim().to_string()) {
            Some(s) if !s.is_empty() && !s.contains(char::is_whitespace) => out.push(format!("Stipulation {s}")),
            _ => return Err(fault("stipulation", "the stipulation has no Popeye form (one word)".into())),
        }
    }
    handled.push("stipulation");
    // A structured stipulation: its words as written (`SStipulation black 6hh[#]`).
    if let Some(v) = field(map, "sstipulation") {
        match scalar(v).map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")) {
            Some(s) if !s.is_empty() => out.push(format!("SStipulation {s}")),
            _ => return Err(fault("sstipulation", "the structured stipulation is empty".into())),
        }
    }
    handled.push("sstipulation");
    // Options and conditions.
    let mut words: Vec<String> = Vec::new();
    for key in ["options", "conditions", "condition"] {
        if let Some(v) = field(map, key) {
            for item in texts(v, false) {
                words.extend(item.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|w| !w.is_empty()).map(str::to_string));
            }
        }
        handled.push(key);
    }
    let (options, conditions) = sort_options(&merge_squares(&words));
    if !options.is_empty() {
        out.push(format!("Option {}", options.join(" ")));
    }
    if !conditions.is_empty() {
        out.push(format!("Condition {}", conditions.join(" ")));
    }
    // The position.
    out.extend(pieces(map, &fault, &mut carry)?);
    handled.extend(["algebraic", "fen"]);
    // Twins.
    if let Some(v) = field(map, "twins") {
        out.extend(twins(v, &fault)?);
    }
    handled.push("twins");
    // Everything else is copied.
    for k in &keys {
        if !handled.contains(&k.as_str()) && !carry.contains(k) {
            carry.push(k.clone());
        }
    }
    let secs = sections(&doc.text);
    for k in keys.iter().filter(|k| carry.contains(k)) {
        let Some((_, lines)) = secs.iter().find(|(sk, _)| sk == k) else {
            return Err(fault(k, format!("the field '{k}' is not written on lines of its own: it cannot be carried into Popeye input")));
        };
        out.extend(lines.iter().map(|l| format!("Remark {YAML_REMARK} {l}").trim_end().to_string()));
    }
    let body = out.join("\n");
    // The proof: the Popeye problem loads as the YAML one.
    let back = load_popeye_str(&format!("BeginProblem\n{body}\nEndProblem\n"), file);
    match back.first() {
        Some(b) => same_loaded(loaded, b).map_err(|d| fault("", format!("cannot be converted without loss: the Popeye input {d}")))?,
        None => return Err(fault("", "cannot be converted: the Popeye input is empty".into())),
    }
    Ok(body)
}

fn loaded_meta(l: &Loaded) -> super::Meta {
    match l {
        Loaded::Ready(p) => p.meta.clone(),
        Loaded::Unsupported { meta, .. } => meta.clone(),
        Loaded::Invalid(_) => super::Meta::default(),
    }
}

/// The `Pieces` command of the position (`algebraic`, or a chess `fen` whose text is also
/// carried, since it says more than the pieces: castling, en passant, reserves).
fn pieces(map: &Mapping, fault: &dyn Fn(&str, String) -> ProblemError, carry: &mut Vec<String>) -> Result<Vec<String>, ProblemError> {
    let mut lists: Vec<(&str, Vec<String>)> = Vec::new();
    if let Some(a) = field(map, "algebraic") {
        let Value::Mapping(m) = untag(a) else { return Err(fault("algebraic", "'algebraic' must be a mapping".into())) };
        for (k, _) in m {
            let k = scalar(k).unwrap_or_default().to_ascii_lowercase();
            if !["white", "black", "neutral"].contains(&k.as_str()) {
                return Err(fault("algebraic", format!("the list '{k}' has no Popeye input form")));
            }
        }
        for colour in ["white", "black", "neutral"] {
            if let Some(v) = field(m, colour) {
                lists.push((colour, texts(v, true)));
            }
        }
    } else if let Some(f) = field(map, "fen").and_then(scalar) {
        let setup = crate::notation::parse_fen(&f).map_err(|e| fault("fen", e.to_string()))?;
        for c in crate::piece::Color::BOTH {
            let ps: Vec<String> =
                setup.pieces.iter().filter(|(_, p)| p.color == c).map(|(s, p)| format!("{}{}", p.kind.code(), sq_name(*s))).collect();
            lists.push((c.name(), ps));
        }
        carry.push("fen".into());
    }
    let mut out = vec!["Pieces".to_string()];
    for (colour, items) in lists {
        let name = format!("{}{}", colour[..1].to_ascii_uppercase(), &colour[1..]);
        let mut line = name.clone();
        let mut after_attributes = false;
        for item in items {
            let words: Vec<&str> = item.split_whitespace().collect();
            let Some((piece, attrs)) = words.split_last() else { continue };
            let code_len = piece.len().saturating_sub(2);
            if !(1..=2).contains(&code_len) || !piece.chars().all(|c| c.is_ascii_alphanumeric()) {
                return Err(fault(
                    "algebraic",
                    format!("the piece '{item}' has no Popeye input form (a code of one or two letters, a square)"),
                ));
            }
            if !attrs.is_empty() || after_attributes {
                // Popeye's attributes hold for the pieces that follow them: a colour word ends them.
                line.push_str(&format!(" {name}"));
            }
            for a in attrs {
                line.push_str(&format!(" {a}"));
            }
            line.push_str(&format!(" {piece}"));
            after_attributes = !attrs.is_empty();
        }
        out.push(format!("  {line}"));
    }
    Ok(out)
}

/// The twins as `Twin` lines (`ZeroPosition` for a twin `a`): labels must follow Popeye's
/// order (b, c, …), which Popeye gives them.
fn twins(v: &Value, fault: &dyn Fn(&str, String) -> ProblemError) -> Result<Vec<String>, ProblemError> {
    let entries = super::load::twin_entries(v);
    let mut out = Vec::new();
    let zero = entries.first().is_some_and(|(l, _)| l == "a");
    for (i, (label, text)) in entries.iter().enumerate() {
        let expected = ((b'a' + (i + usize::from(!zero)).min(25) as u8) as char).to_string();
        if *label != expected {
            return Err(fault("twins", format!("twin '{label}': Popeye names its twins a, b, c… in order, here it would be '{expected}'")));
        }
        if let Ok(t) = super::twins::parse_twin(text)
            && t.commands.iter().any(|c| matches!(c, super::TwinCommand::Reserve { .. }))
        {
            return Err(fault("twins", format!("twin {label} ('{text}'): a twin that changes a reserve has no Popeye input form")));
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        out.push(format!("{} {}", if label == "a" { "ZeroPosition" } else { "Twin" }, words.join(" ")));
    }
    Ok(out)
}

/// Whether two loaded problems say the same to feerie: `Ok`, or the first thing that differs
/// (in words: "gives another position for twin c"). File, document number, lines and the
/// one-line summary are not compared.
pub fn same_loaded(a: &Loaded, b: &Loaded) -> Result<(), String> {
    match (a, b) {
        (Loaded::Ready(a), Loaded::Ready(b)) => same_problem(a, b),
        (
            Loaded::Unsupported { reason: r1, meta: m1, stipulation_text: s1, options: o1, diagram: d1, .. },
            Loaded::Unsupported { reason: r2, meta: m2, stipulation_text: s2, options: o2, diagram: d2, .. },
        ) => {
            let words = |o: &[String]| merge_squares(&o.iter().flat_map(|i| i.split_whitespace().map(str::to_string)).collect::<Vec<_>>());
            check(r1 == r2, "is unsupported for another reason")?;
            check(m1 == m2, "gives other metadata")?;
            check(s1.trim() == s2.trim(), "gives another stipulation")?;
            check(words(o1) == words(o2), "gives other options")?;
            check(d1 == d2, "gives another diagram")
        }
        (Loaded::Invalid(e1), Loaded::Invalid(e2)) => check(e1.message == e2.message, "is invalid for another reason"),
        (_, Loaded::Invalid(e)) => Err(format!("is invalid: {}", e.message)),
        (_, Loaded::Unsupported { reason, .. }) => Err(format!("is unsupported: {reason}")),
        (Loaded::Invalid(_), _) => Err("is valid, the source is not".into()),
        (Loaded::Unsupported { reason, .. }, _) => Err(format!("is supported, the source is not ({reason})")),
    }
}

/// Where two texts part: a few characters of each from there.
fn first_difference(a: &str, b: &str) -> String {
    let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let from = at.saturating_sub(20);
    let part = |s: &str| s.chars().skip(from).take(50).collect::<String>();
    format!("'…{}' where the source has '…{}'", part(b), part(a))
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what.to_string()) }
}

fn same_problem(a: &Problem, b: &Problem) -> Result<(), String> {
    check(a.rules == b.rules, "gives other rules")?;
    check(a.position == b.position, "gives another position")?;
    check(a.stipulation == b.stipulation, "gives another stipulation")?;
    check(a.options == b.options, "gives other options or conditions")?;
    check(a.intended_solutions == b.intended_solutions, "gives another intended number of solutions")?;
    check(a.castling_allowed == b.castling_allowed, "allows other castlings")?;
    check(a.proof_start == b.proof_start, "gives another start position")?;
    check(a.meta == b.meta, "gives other metadata")?;
    if a.stated != b.stated {
        return Err(format!(
            "gives another stated solution ({})",
            first_difference(&format!("{:?}", a.stated), &format!("{:?}", b.stated))
        ));
    }
    check(a.twins.len() == b.twins.len(), "gives another number of twins")?;
    for (x, y) in a.twins.iter().zip(&b.twins) {
        let same = x.label == y.label && x.continued == y.continued && x.commands == y.commands && x.xiangqi == y.xiangqi;
        check(same, &format!("gives another twin {}", x.label))?;
    }
    let (va, vb) = match (a.variants(), b.variants()) {
        (Ok(va), Ok(vb)) => (va, vb),
        (Err(e1), Err(e2)) if e1.message == e2.message => return Ok(()),
        _ => return Err("gives twins that apply otherwise".into()),
    };
    for (x, y) in va.iter().zip(&vb) {
        let same = x.label == y.label && x.position == y.position && x.stipulation == y.stipulation && x.options == y.options;
        check(same, &format!("gives another position, stipulation or options for twin {}", x.label))?;
    }
    Ok(())
}
