//! Popeye's recorded output as a yardstick: split an output file into one section per problem
//! (and per twin), read each solution into a comparable tree, and find the first difference.
//! Feerie's side goes through the same text: its solution written in Popeye's layout
//! (`--format popeye`, [`crate::report::popeye`]) is split and read by the same functions
//! ([`feerie_section`]).
//!
//! The comparison is by structure, not by text: every printed line becomes an [`Item`] whose
//! children are the lines indented under it (a key's threat and defences, a defence's
//! continuations), and siblings compare as a multiset, so that the order in which two solvers
//! print keys, defences or help lines does not matter. Help and series lines have no children:
//! a twin's help play compares as the set of its lines.
//!
//! What is normalised, and why (each is cosmetic):
//! - runs of spaces inside a line become one space, and the indentation only gives the nesting
//!   (Popeye writes `1.a b   2.c d #` with three spaces between move pairs);
//! - Popeye's counters (`add_to_move_generation_stack: …`, `play_move: …`, …), the closing
//!   `solution finished.` and blank lines are dropped; a counter that Popeye glued to the end of
//!   a message line is cut off; so are feerie's verdict lines after the end (`feerie: sound`);
//! - the diagram, the title lines, the stipulation and condition lines before the solution and
//!   the twin headers (`b) h=2`) are not part of the solution;
//! - Popeye's progress lines (`option MoveNumbers`: `  3  (Ka1-b1 )`), the counts of
//!   `option Intelligent` (`25 potential positions in 1+2`) and its warning `the side to play
//!   can capture the king` (it solves on) are dropped;
//! - Popeye's `ep.` after an en-passant capture is dropped (feerie's orthodox moves do not
//!   carry it).
//!
//! ```
//! use feerie::popeye_output::{parse_tree, compare};
//! let popeye = parse_tree(&["  1.Ka1-b1 Kc3-c2   2.Kb1-a1 Qd4-a4 #".to_string()]);
//! let feerie = parse_tree(&[" 1.Ka1-b1 Kc3-c2 2.Kb1-a1 Qd4-a4 #".to_string()]);
//! assert!(compare(&popeye, &feerie).is_none());
//! ```

use crate::piece::Lang;
use crate::problem::{Loaded, Problem, Variant};
use crate::record::Record;

/// The solution Popeye printed for one twin (or for a problem without twins, label `a`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwinOutput {
    /// The twin's label without the `+` of a continued twin: `a`, `b`, … `z1`.
    pub label: String,
    /// The lines of the solution, in order, without counters and blank lines, indentation kept.
    pub lines: Vec<String>,
}

/// The output Popeye printed for one problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputSection {
    /// The lines before the solution: title, diagram, stipulation and conditions.
    pub header: Vec<String>,
    /// The twins in order; one twin labelled `a` when the problem has none.
    pub twins: Vec<TwinOutput>,
    /// Whether Popeye stopped before the end (`Partial solution`).
    pub partial: bool,
}

impl OutputSection {
    /// The twin with this label (`+` ignored).
    pub fn twin(&self, label: &str) -> Option<&TwinOutput> {
        let label = label.trim_start_matches('+');
        self.twins.iter().find(|t| t.label == label)
    }
}

/// The language Popeye wrote an output in: German when it ends its problems with
/// `Loesung beendet.`, French with `solution terminee.`, else English.
pub fn output_language(text: &str) -> Lang {
    if text.contains("Loesung beendet.") {
        Lang::De
    } else if text.contains("solution terminee.") || text.contains("solution terminée.") {
        Lang::Fr
    } else {
        Lang::En
    }
}

const COUNTERS: [&str; 5] =
    ["add_to_move_generation_stack:", "play_move:", "is_white_king_square_attacked:", "is_black_king_square_attacked:", "TI decisions:"];

/// Whether a line ends a problem's output: `Some(true)` when Popeye stopped before the end
/// (`Partial solution`: `MaxSolutions`, `MaxTime`, or an interrupted run).
fn is_terminator(line: &str) -> Option<bool> {
    match line.trim() {
        "solution finished." | "Loesung beendet." | "solution terminee." | "solution terminée." => Some(false),
        "Partial solution" | "Partielle Loesung" | "solution partielle" | "Bearbeitung abgebrochen." => Some(true),
        _ => None,
    }
}

/// The line without a Popeye counter (`play_move:   1234`) at its end; `None` when nothing
/// else is left.
fn strip_counter(line: &str) -> Option<&str> {
    for c in COUNTERS {
        if let Some(at) = line.find(c) {
            let rest = line[at + c.len()..].trim();
            if rest.chars().all(|ch| ch.is_ascii_digit()) {
                let before = &line[..at];
                return if before.trim().is_empty() { None } else { Some(before.trim_end()) };
            }
        }
    }
    Some(line)
}

/// Whether a line is the one under the diagram with the stipulation and the piece counts
/// (`  #2                          5 + 7`, `  ser-h#5                3 + 3 + 2n`).
fn is_count_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = words.len();
    let num = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit());
    // A long stipulation runs into the count (`3a[#]d&-4hh[#]&4ad[#]&-4hh[=]8 + 10`).
    let ends_in_num = |w: &str| w.ends_with(|c: char| c.is_ascii_digit());
    let tail3 = n >= 3 && ends_in_num(words[n - 3]) && words[n - 2] == "+" && num(words[n - 1]);
    let tail5 = n >= 5
        && num(words[n - 5])
        && words[n - 4] == "+"
        && num(words[n - 3])
        && words[n - 2] == "+"
        && words[n - 1].len() > 1
        && words[n - 1][..words[n - 1].len() - 1].chars().all(|c| c.is_ascii_digit());
    line.starts_with("  ") && (tail3 || tail5)
}

/// Popeye's warning on a diagram where the side to move could capture the king; Popeye goes on
/// and solves (or prints nothing), feerie says why in its own words or not at all.
const KING_CAPTURE_WARNING: &str = "the side to play can capture the king";

/// Popeye's warning on a diagram where a side has no king (and no `NoWk`/`NoBk`); Popeye
/// solves it as if that option were given, and so does feerie, without the warning.
const NO_KING_WARNING: &str = "both sides need a king";

/// Whether a line is one of `option MoveNumbers`'s progress lines (`  3  (Ka1-b1 )`, with
/// timings in a run without `-regression`).
fn is_move_number_line(line: &str) -> bool {
    let t = line.trim();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && t[digits..].trim_start().starts_with('(') && t.ends_with(')')
}

/// Whether a line is `option Intelligent`'s count of the mating positions it tried
/// (`  25 potential positions in 1+2`, German `moegliche Stellungen`).
fn is_intelligent_count(line: &str) -> bool {
    let t = line.trim();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = t[digits..].trim_start();
    digits > 0 && (rest.starts_with("potential positions in ") || rest.starts_with("moegliche Stellungen in "))
}

/// The twin label of a twin header line (`b) h=2`, `+c) rotate 90`), without the `+`.
fn twin_label(line: &str) -> Option<String> {
    let (head, _) = line.split_once(") ")?;
    let head = head.strip_prefix('+').unwrap_or(head);
    let mut chars = head.chars();
    let first = chars.next()?;
    (first.is_ascii_lowercase() && chars.all(|c| c.is_ascii_digit()) && !line.starts_with(' ')).then(|| head.to_string())
}

/// Splits a Popeye output file into one section per problem, in input order: each problem's
/// output ends with `solution finished.` (`Loesung beendet.` in German). Lines after the last
/// of these make one more section when they hold anything but blanks.
///
/// ```
/// use feerie::popeye_output::split_output;
/// let text = "\n  title\n\n  h#1                         2 + 1\n\n  1.Ka1-a2 Rb3-b1 #\n  play_move:   12\n\nsolution finished.\n";
/// let s = split_output(text);
/// assert_eq!(s.len(), 1);
/// assert_eq!(s[0].twins[0].lines, vec!["  1.Ka1-a2 Rb3-b1 #".to_string()]);
/// ```
pub fn split_output(text: &str) -> Vec<OutputSection> {
    let mut sections = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines() {
        if let Some(partial) = is_terminator(line) {
            sections.push(OutputSection { partial, ..section(&current) });
            current.clear();
        } else {
            current.push(line);
        }
    }
    // Feerie's verdict lines after the last problem (`feerie: sound`) are no section.
    if current.iter().any(|l| !l.trim().is_empty() && !l.starts_with(crate::report::popeye::VERDICT_PREFIX)) {
        sections.push(section(&current));
    }
    sections
}

/// Whether a line begins with a move number (`1.`, `1...`), as a solution line does.
fn starts_with_move_number(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && t[digits..].starts_with('.')
}

/// One problem's lines (without the terminator) as a section.
fn section(lines: &[&str]) -> OutputSection {
    // The solution starts after the first blank line that follows the stipulation line under
    // the diagram (conditions may take several lines); without that line (an input error, or
    // nothing printed before a message) everything is solution.
    // An `a=>b` proof game draws two diagrams, the second after `=> (White ->)`: its count
    // line is the one.
    let second = lines.iter().position(|l| l.trim_start().starts_with("=> (")).unwrap_or(0);
    let start = match lines[second..].iter().position(|l| is_count_line(l)) {
        // Under `PostKeyPlay` with the defender in check Popeye writes ` +` and the play
        // right under the stipulation line, with no blank line between.
        Some(i) => {
            let i = second + i;
            lines[i + 1..]
                .iter()
                .position(|l| l.trim().is_empty() || l.trim() == "+" || starts_with_move_number(l))
                .map_or(lines.len(), |j| i + 1 + j)
        }
        None => 0,
    };
    let header = lines[..start].iter().map(|l| l.to_string()).collect();
    let mut twins: Vec<TwinOutput> = Vec::new();
    let mut in_twin_header = false;
    for line in &lines[start..] {
        if line.trim().is_empty() {
            in_twin_header = false;
            continue;
        }
        if let Some(label) = twin_label(line) {
            twins.push(TwinOutput { label, lines: Vec::new() });
            in_twin_header = true;
            continue;
        }
        if in_twin_header {
            // A twin's description that goes on over several lines.
            continue;
        }
        let Some(line) = strip_counter(line) else { continue };
        if is_move_number_line(line) || is_intelligent_count(line) || line.trim() == KING_CAPTURE_WARNING || line.trim() == NO_KING_WARNING
        {
            continue;
        }
        if twins.is_empty() {
            twins.push(TwinOutput { label: "a".into(), lines: Vec::new() });
        }
        twins.last_mut().expect("a twin").lines.push(line.to_string());
    }
    if twins.is_empty() {
        twins.push(TwinOutput { label: "a".into(), lines: Vec::new() });
    }
    OutputSection { header, twins, partial: false }
}

/// One printed line of a solution with the lines indented under it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    /// The line, its runs of spaces made one, trimmed.
    pub text: String,
    /// The lines nested under it, sorted.
    pub children: Vec<Item>,
}

/// Reads lines into a forest by their indentation: a line belongs under the nearest line
/// above it that is indented less. Siblings are sorted, so that two forests that differ only
/// in the order of siblings are equal.
pub fn parse_tree(lines: &[String]) -> Vec<Item> {
    // (indent, item) of the open ancestors.
    let mut stack: Vec<(usize, Item)> = Vec::new();
    let mut roots: Vec<Item> = Vec::new();
    fn close(stack: &mut Vec<(usize, Item)>, roots: &mut Vec<Item>) {
        let (_, mut item) = stack.pop().expect("an open item");
        item.children.sort();
        match stack.last_mut() {
            Some((_, parent)) => parent.children.push(item),
            None => roots.push(item),
        }
    }
    for line in lines {
        let text = normalise(line);
        if text.is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            close(&mut stack, &mut roots);
        }
        stack.push((indent, Item { text, children: Vec::new() }));
    }
    while !stack.is_empty() {
        close(&mut stack, &mut roots);
    }
    roots.sort();
    roots
}

/// A line with its runs of white space made one space, trimmed, and without Popeye's `ep.`
/// after an en-passant capture (feerie does not write it; the capture `d5*e6` of a pawn on an
/// empty square says it already).
pub fn normalise(line: &str) -> String {
    line.split_whitespace().filter(|w| *w != "ep.").collect::<Vec<_>>().join(" ")
}

/// The first difference between Popeye's forest and feerie's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The lines above the difference (the key, the defence, …), outermost first.
    pub path: Vec<String>,
    /// Popeye's line there, if it has one.
    pub popeye: Option<String>,
    /// Feerie's line there, if it has one.
    pub feerie: Option<String>,
    /// A short class of the difference, for counting (`popeye only: key`, …).
    pub kind: String,
}

/// The first move of a line, for pairing lines that differ only in their marks or
/// annotations: the text up to the first space after the move number.
fn first_move(text: &str) -> &str {
    text.split(' ').next().unwrap_or(text)
}

/// The number of moves in a help or series line (`1.a b 2.c d #` → 4).
fn move_count(text: &str) -> usize {
    text.split(' ')
        .filter(|w| {
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            !w.is_empty() && !matches!(w, "#" | "=" | "==" | "+" | "!" | "?" | "##" | "##!" | "!=" | "!#" | "x" | "z")
        })
        .count()
}

/// What kind of line this is, for the class of a difference.
fn shape(text: &str, depth: usize, siblings: &[Item]) -> &'static str {
    let digits = text.chars().take_while(|c| c.is_ascii_digit()).count();
    let numbered = digits > 0 && text[digits..].starts_with('.');
    if !numbered {
        return match text {
            "but" | "Aber" | "mais" => "but",
            t if t.ends_with("zugzwang.") || t.ends_with("Zugzwang.") || t.ends_with("blocus.") => "zugzwang",
            _ => "message",
        };
    }
    let words = text.split(' ').count();
    if text.ends_with(" !") && depth == 0 || text.contains(" ! ") {
        return "key";
    }
    if text.ends_with(" ?") || text.contains(" ? ") {
        return "try";
    }
    let defence = text.split(' ').next().is_some_and(|w| w.contains("..."));
    if defence && text.ends_with(" !") {
        return "refutation";
    }
    if depth == 0 && (words > 2 || words > 1 && !defence) {
        let longest = siblings.iter().map(|s| move_count(&s.text)).max().unwrap_or(0);
        return if move_count(text) < longest { "short help/series line" } else { "help/series line" };
    }
    if defence { if depth == 0 { "set-play defence" } else { "defence" } } else { "continuation/threat" }
}

/// The first difference between two forests read by [`parse_tree`], or `None` when they are
/// equal. Lines are matched by their text; a line found on one side only is paired, when it
/// can be, with a line on the other side that starts with the same move (then the two differ
/// in a mark or an annotation).
pub fn compare(popeye: &[Item], feerie: &[Item]) -> Option<Difference> {
    compare_at(popeye, feerie, &mut Vec::new(), false)
}

/// As [`compare`], but feerie may have more lines at the top (keys, help and series lines) than
/// Popeye printed: for a Popeye output that stopped early (`Partial solution`, `MaxSolutions`).
pub fn compare_within(popeye: &[Item], feerie: &[Item]) -> Option<Difference> {
    compare_at(popeye, feerie, &mut Vec::new(), true)
}

fn compare_at(popeye: &[Item], feerie: &[Item], path: &mut Vec<String>, extra_allowed: bool) -> Option<Difference> {
    let depth = path.len();
    let mut used = vec![false; feerie.len()];
    let mut unmatched_popeye = Vec::new();
    let mut pairs = Vec::new();
    for (i, p) in popeye.iter().enumerate() {
        match (0..feerie.len()).find(|&j| !used[j] && feerie[j].text == p.text) {
            Some(j) => {
                used[j] = true;
                pairs.push((i, j));
            }
            None => unmatched_popeye.push(i),
        }
    }
    let unmatched_feerie: Vec<usize> = (0..feerie.len()).filter(|&j| !used[j]).collect();
    if let Some(&i) = unmatched_popeye.first() {
        let p = &popeye[i];
        let partner = unmatched_feerie.iter().find(|&&j| first_move(&feerie[j].text) == first_move(&p.text));
        let kind = shape(&p.text, depth, popeye);
        return Some(match partner {
            Some(&j) => Difference {
                path: path.clone(),
                popeye: Some(p.text.clone()),
                feerie: Some(feerie[j].text.clone()),
                kind: format!("marks differ: {kind}"),
            },
            None => Difference { path: path.clone(), popeye: Some(p.text.clone()), feerie: None, kind: format!("popeye only: {kind}") },
        });
    }
    if let Some(&j) = unmatched_feerie.first().filter(|_| !extra_allowed) {
        let f = &feerie[j];
        return Some(Difference {
            path: path.clone(),
            popeye: None,
            feerie: Some(f.text.clone()),
            kind: format!("feerie only: {}", shape(&f.text, depth, feerie)),
        });
    }
    for (i, j) in pairs {
        path.push(popeye[i].text.clone());
        let d = compare_at(&popeye[i].children, &feerie[j].children, path, false);
        path.pop();
        if d.is_some() {
            return d;
        }
    }
    None
}

/// How one twin of a problem compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinVerdict {
    /// The same solution as Popeye's.
    Same,
    /// A difference, the first one.
    Differs(Difference),
    /// Popeye printed no section for this twin.
    NoPopeyeTwin,
}

/// Compares feerie's solution of a problem with Popeye's, twin by twin (matched by label),
/// both read from text by [`split_output`]: `feerie` from the text feerie writes in Popeye's
/// layout ([`crate::report::popeye::problem_text`]), `popeye` from Popeye's recorded output.
/// Popeye's twins that feerie has no variant for are reported as a difference too. When
/// Popeye stopped early (a partial section) or the problem limits the number of solutions,
/// feerie may show more than Popeye printed ([`compare_within`]).
pub fn compare_problem(variants: &[Variant], feerie: &OutputSection, popeye: &OutputSection) -> Vec<(String, TwinVerdict)> {
    let mut out = Vec::new();
    for v in variants {
        let Some(t) = popeye.twin(&v.label) else {
            out.push((v.label.clone(), TwinVerdict::NoPopeyeTwin));
            continue;
        };
        let theirs = parse_tree(&t.lines);
        let ours = parse_tree(feerie.twin(&v.label).map(|t| t.lines.as_slice()).unwrap_or_default());
        let within = popeye.partial || v.options.max_solutions.is_some();
        let d = if within { compare_within(&theirs, &ours) } else { compare(&theirs, &ours) };
        out.push((v.label.clone(), d.map_or(TwinVerdict::Same, TwinVerdict::Differs)));
    }
    for t in &popeye.twins {
        if !variants.iter().any(|v| v.label.trim_start_matches('+') == t.label) {
            let theirs = parse_tree(&t.lines);
            let verdict = compare(&theirs, &[]).map_or(TwinVerdict::Same, |mut d| {
                d.kind = "popeye twin feerie lacks".into();
                TwinVerdict::Differs(d)
            });
            out.push((t.label.clone(), verdict));
        }
    }
    out
}

/// Feerie's solution of a problem as Popeye would print it, read back: the text of
/// `--format popeye` ([`crate::report::popeye::problem_text`]) split by [`split_output`].
/// `records` are those of `variants`, in order.
pub fn feerie_section(p: &Problem, variants: &[Variant], records: &[Record], lang: Lang) -> OutputSection {
    let text = crate::report::popeye::problem_text(p, variants, records, lang);
    split_output(&text).into_iter().next().unwrap_or(OutputSection { header: Vec::new(), twins: Vec::new(), partial: false })
}

/// How a problem came out against Popeye's recorded output ([`judge`]).
#[derive(Clone, Debug)]
pub enum Judgement {
    /// Every twin the same as Popeye's.
    Same,
    /// The first twin that differs, its first difference, and feerie's lines for that twin.
    Differs {
        /// The twin's label.
        twin: String,
        /// The first difference.
        difference: Difference,
        /// Feerie's solution of that twin, as it would print it in Popeye's layout.
        feerie_lines: Vec<String>,
    },
    /// The solver reached its time limit (the record's reason).
    TimedOut(String),
    /// The problem is invalid for feerie (a twin fails, or the solver says so).
    Invalid(String),
}

/// Solves a problem of Popeye's suite in full, with `timeout` for each twin, and compares it
/// with Popeye's recorded output for it (`section`, in `lang`) through the text of
/// `--format popeye`. With `MaxSolutions`, Popeye's first solutions need not be feerie's
/// first ones: feerie solves in full and Popeye's must be among its solutions.
pub fn judge(p: &Problem, section: &OutputSection, lang: Lang, timeout: std::time::Duration) -> Judgement {
    judge_with(p, section, lang, &crate::solve::SolveOptions { timeout: Some(timeout), ..crate::solve::SolveOptions::default() })
}

/// [`judge`] with the search's options given (its table budget, threads and time limit;
/// the tree of variations is built only where the problem shows it).
pub fn judge_with(p: &Problem, section: &OutputSection, lang: Lang, opts: &crate::solve::SolveOptions) -> Judgement {
    use crate::record::VerdictKind;
    let variants = match p.variants() {
        Ok(v) => v,
        Err(e) => return Judgement::Invalid(e.to_string()),
    };
    let mut full = p.clone();
    full.options.max_solutions = None;
    // Compared in Popeye's layout, which shows the tree only where the problem asks for it.
    let opts = crate::solve::SolveOptions { tree: false, ..opts.clone() };
    let records = crate::verify::check_problem(&full, &opts);
    if let Some(r) = records.iter().find(|r| r.verdict == VerdictKind::TimedOut) {
        return Judgement::TimedOut(format!("twin {}: {}", r.twin, r.reason));
    }
    // A twin feerie refuses as Popeye does ([`crate::problem::Variant::refusal`]) is
    // compared as it is printed: Popeye's words for the refusal.
    let refused = |r: &crate::record::Record| variants.iter().any(|v| v.label == r.twin && v.refusal().is_some());
    if let Some(r) = records.iter().find(|r| r.verdict == VerdictKind::Invalid && !refused(r)) {
        return Judgement::Invalid(r.reason.clone());
    }
    if records.len() != variants.len() {
        return Judgement::Invalid(format!("{} records for {} twins", records.len(), variants.len()));
    }
    let ours = feerie_section(p, &variants, &records, lang);
    for (label, verdict) in compare_problem(&variants, &ours, section) {
        let difference = match verdict {
            TwinVerdict::Same => continue,
            TwinVerdict::NoPopeyeTwin => Difference { path: Vec::new(), popeye: None, feerie: None, kind: "no such twin in Popeye".into() },
            TwinVerdict::Differs(d) => d,
        };
        let feerie_lines = ours.twin(&label).map(|t| t.lines.clone()).unwrap_or_default();
        return Judgement::Differs { twin: label, difference, feerie_lines };
    }
    Judgement::Same
}

/// Whether a problem is orthodox chess: only the six chess pieces of the two sides, no fairy
/// condition (Réserve counts as one); options, goals and stipulation forms may be anything.
/// A problem not supported yet is orthodox when no reason names a condition, a piece or a
/// colour.
///
/// ```
/// use feerie::popeye_output::is_orthodox;
/// let loaded = feerie::problem::load_popeye_str("beginproblem stipulation #2 pieces white kc1 qd1 black ka1 endproblem", "x.inp");
/// assert!(is_orthodox(&loaded[0]));
/// ```
pub fn is_orthodox(l: &Loaded) -> bool {
    match l {
        Loaded::Ready(p) => p.variants().is_ok_and(|vs| {
            vs.iter().all(|v| match &v.position {
                crate::problem::GamePosition::Chess(pos) => {
                    let board = pos.to_fen();
                    let board = board.split(' ').next().unwrap_or_default();
                    !v.options.reserve.any()
                        && v.options.conditions.is_empty()
                        && v.options.holes == 0
                        && board.chars().all(|c| !c.is_ascii_alphabetic() || "kqrbnpKQRBNP".contains(c))
                }
                // The fairy rules play an orthodox diagram whose goal follows pieces (`<>`,
                // `ct`, `kxy`): orthodox still when it has no condition, hole, neutral or
                // fairy piece, and both kings.
                crate::problem::GamePosition::Fairy(f) => {
                    let pieces = f.pieces();
                    v.stipulation.goal.tracks_pieces()
                        && f.conditions().is_empty()
                        && f.holes() == 0
                        && pieces.iter().all(|(_, p)| p.owner.color().is_some() && p.kind.in_chess())
                        && [crate::rules::fairy::Owner::White, crate::rules::fairy::Owner::Black]
                            .iter()
                            .all(|&o| pieces.iter().any(|(_, p)| p.owner == o && p.kind == crate::piece::Kind::King))
                }
                _ => false,
            })
        }),
        Loaded::Unsupported { reason, options, .. } => {
            let r = reason.to_lowercase();
            // A condition feerie plays, with an option it does not: not orthodox either.
            let condition = |o: &String| {
                let w = o.split_whitespace().next().unwrap_or_default();
                crate::problem::options::CONDITIONS.iter().any(|c| c.eq_ignore_ascii_case(w))
                    || crate::problem::condition_names::CONDITION_NAMES
                        .iter()
                        .any(|c| [c.0, c.1, c.2].iter().any(|n| n.eq_ignore_ascii_case(w)))
            };
            !["condition", "piece", "colour", "neutral", "hole"].iter().any(|w| r.contains(w)) && !options.iter().any(condition)
        }
        Loaded::Invalid(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_cut() {
        assert_eq!(strip_counter("  play_move:   12"), None);
        assert_eq!(
            strip_counter("the side to play can capture the king  add_to_move_generation_stack:           0"),
            Some("the side to play can capture the king")
        );
        assert_eq!(strip_counter("   1.Ka1-b1 !"), Some("   1.Ka1-b1 !"));
        assert!(is_intelligent_count("  25 potential positions in 1+2"));
        assert!(is_move_number_line("  3  (Ka1-b1 )"));
        assert!(!is_move_number_line("  1.Ka1-b1 Ka3-a4   2.Kb1-a1 Qb2-a2 #"));
    }

    #[test]
    fn feerie_verdict_lines_after_the_end_are_no_section() {
        let text =
            "\n  #1                          2 + 1\n\n   1.Ra1-a8 # !\n\nsolution finished.\nfeerie: sound (1 solution as intended)\n";
        let s = split_output(text);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].twins[0].lines, vec!["   1.Ra1-a8 # !".to_string()]);
        assert!(split_output("x\nsolution partielle\n")[0].partial);
    }

    #[test]
    fn count_lines() {
        assert!(is_count_line("  #2                          5 + 7"));
        assert!(is_count_line("  ser-h#5                3 + 3 + 2n"));
        assert!(is_count_line("  Weiss 3a[#]d&-4hh[#]&4ad[#]&-4hh[=]8 + 10"));
        assert!(!is_count_line("   1.Ka1-b1 !"));
    }

    #[test]
    fn order_of_siblings_does_not_matter() {
        let a = parse_tree(&[
            "   1.a !".into(),
            "      1...b".into(),
            "          2.c #".into(),
            "      1...d".into(),
            "          2.e #".into(),
        ]);
        let b = parse_tree(&[
            "   1.a !".into(),
            "      1...d".into(),
            "          2.e #".into(),
            "      1...b".into(),
            "          2.c #".into(),
        ]);
        assert_eq!(compare(&a, &b), None);
        let c = parse_tree(&[
            "   1.a !".into(),
            "      1...d".into(),
            "          2.f #".into(),
            "      1...b".into(),
            "          2.c #".into(),
        ]);
        let d = compare(&a, &c).expect("a difference");
        assert_eq!(d.path, vec!["1.a !".to_string(), "1...d".to_string()]);
        assert_eq!(d.kind, "popeye only: continuation/threat");
    }
}
