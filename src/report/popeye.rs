//! Popeye's output layout (`--format popeye`): a problem's solution written as Popeye writes
//! it, so that a Popeye user reads it at once, and so that Popeye's recorded outputs and
//! feerie's can be read by the same parser ([`crate::popeye_output`]) and compared.
//!
//! The layout, as Popeye's recorded outputs show it:
//! - the header: authors, source, award and titles, each centred over the 37 columns of the
//!   diagram; the diagram (8×8 boards, none for Xiangqi: `-` before a black piece, `=` before a neutral
//!   one, piece codes in the chosen language); the stipulation with the piece counts
//!   (`  #2                          3 + 2`, neutral pieces `+ 2n`); the conditions, centred;
//! - twins: `a) ` before the diagram's solution, `b) wRb4-->f3  ` before each twin's (what its
//!   commands do: [`twin_change`]), `+c) ` for a twin that continues the previous one;
//! - battle play: set play first (`      1...Kb8-a8` with the continuations under it), then the
//!   tries and keys, each followed by a blank line: `   1.Rc6*c5 ! zugzwang.`, `   1.Ka6-b6 ?
//!   threat:`, the threat under the move, the defences at `      1...`, the continuations at
//!   `          2.`, each move number one level (8 columns) deeper; a try ends with `    but`
//!   and its refutations `      1...c5-c4 !`. Without `Variations` (and `PostKeyPlay`),
//!   Popeye prints only the keys and the tries with their refutations, and so does this;
//! - help and series play: one line per solution, `  1.Kb7-a8 Sd5-b6 #`, three spaces before
//!   each move number (right-aligned in three columns: `  9.a  10.b`), `  1...` first when
//!   the line has an odd number of moves (`h#1.5`); set play lines first, apart;
//! - the end of the problem: `solution finished.` (`Loesung beendet.`, `solution terminee.`),
//!   or `Partial solution` (`Partielle Loesung`, `solution partielle`) when feerie stopped
//!   early (the time limit, or `MaxSolutions` reached); Popeye's counters are not written.
//!
//! After the end, feerie's verdict follows on lines of its own, `feerie: sound (…)` (one per
//! twin, labelled, when the problem has twins); the parser of recorded outputs ignores them.

use crate::piece::{Color, Lang};
use crate::problem::stipulation::Play;
use crate::problem::{Diagram, Figure, Problem, Rules, Variant};
use crate::record::{Record, VerdictKind};
use crate::report::text::{translate, words};
use crate::solve::{Line, LineMove, Node, Phase};

/// The width Popeye centres header lines in: the width of its diagram.
const WIDTH: usize = 37;

/// The line that ends a problem's output: `solution finished.` in `lang`, or Popeye's words
/// for a solution cut short.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::popeye::end_line;
/// assert_eq!(end_line(Lang::De, false), "Loesung beendet.");
/// assert_eq!(end_line(Lang::Fr, true), "solution partielle");
/// ```
pub fn end_line(lang: Lang, partial: bool) -> &'static str {
    match (lang, partial) {
        (Lang::En, false) => "solution finished.",
        (Lang::De, false) => "Loesung beendet.",
        (Lang::Fr, false) => "solution terminee.",
        (Lang::En, true) => "Partial solution",
        (Lang::De, true) => "Partielle Loesung",
        (Lang::Fr, true) => "solution partielle",
    }
}

/// The prefix of feerie's verdict lines after a problem.
pub const VERDICT_PREFIX: &str = "feerie:";

/// A line centred as Popeye centres its header lines (left as it is when it is wider).
///
/// ```
/// use feerie::report::popeye::centred;
/// assert_eq!(centred("Uri Avner"), "              Uri Avner");
/// ```
pub fn centred(s: &str) -> String {
    let n = s.chars().count();
    format!("{}{s}", " ".repeat(WIDTH.saturating_sub(n) / 2))
}

fn with_mark(mv: &str, mark: &str) -> String {
    if mark.is_empty() { mv.to_string() } else { format!("{mv} {mark}") }
}

fn node_text(n: &Node, lang: Lang) -> String {
    with_mark(&translate(&n.mv, lang), &n.mark)
}

fn line_move(m: &LineMove, lang: Lang) -> String {
    with_mark(&translate(&m.mv, lang), &m.mark)
}

/// A move of a help line; a null move (`NullMoves`) as Popeye writes it, after a space
/// (`1. ... Rb1-h1`, `2.Kg7*g8  ...`).
fn help_move(m: &LineMove, lang: Lang) -> String {
    if m.mv == crate::solve::tree::NULL_MOVE { format!(" {}", m.mv) } else { line_move(m, lang) }
}

/// The number of an attacker's move `n` in a tree: `   1.` for the key, then one level of
/// 8 columns per move (`          2.`), the number right-aligned.
fn attack_number(n: u32) -> String {
    let width = if n <= 1 { 4 } else { 8 * (n as usize - 1) + 3 };
    format!("{n:>width$}.")
}

/// The number of a defender's move `n` in a tree: `      1...`, `              2...`.
fn defence_number(n: u32) -> String {
    let width = 8 * (n.max(1) as usize - 1) + 7;
    format!("{n:>width$}...")
}

/// ` threat:` or ` zugzwang.` after an attacker's move that has one.
fn threat_word(n: &Node, lang: Lang) -> String {
    let w = words(lang);
    if n.zugzwang {
        format!(" {}", w.zugzwang)
    } else if !n.threat.is_empty() {
        format!(" {}", w.threat)
    } else {
        String::new()
    }
}

/// What follows an attacker's move `number`: its threat and the defences with their
/// continuations.
fn after_attack(out: &mut Vec<String>, n: &Node, number: u32, lang: Lang) {
    for t in &n.threat {
        attack(out, t, number + 1, lang);
    }
    for d in &n.replies {
        defence_tree(out, d, number, lang);
    }
}

/// A defender's move `number` with the attacker's continuations under it (set play, and
/// the variations after an attacker's move).
pub(crate) fn defence_tree(out: &mut Vec<String>, d: &Node, number: u32, lang: Lang) {
    out.push(format!("{}{}", defence_number(number), node_text(d, lang)));
    for a in &d.replies {
        attack(out, a, number + 1, lang);
    }
}

fn attack(out: &mut Vec<String>, n: &Node, number: u32, lang: Lang) {
    out.push(format!("{}{}{}", attack_number(number), node_text(n, lang), threat_word(n, lang)));
    after_attack(out, n, number, lang);
}

/// A key (`!`) or a try (`?`) with what follows it, and a try's `but` with its refutations.
pub(crate) fn key(out: &mut Vec<String>, n: &Node, is_try: bool, lang: Lang) {
    if n.role == crate::solve::Role::Violation {
        // A move the reflex obligation forces in the diagram: Popeye's `?!?`.
        out.push(format!("{}{} ?!?", attack_number(1), node_text(n, lang)));
        return;
    }
    let mark = if is_try { "?" } else { "!" };
    out.push(format!("{}{} {mark}{}", attack_number(1), node_text(n, lang), threat_word(n, lang)));
    after_attack(out, n, 1, lang);
    if is_try {
        out.push(format!("    {}", words(lang).but));
        for r in &n.refutations {
            out.push(format!("{}{} !", defence_number(1), node_text(r, lang)));
        }
    }
}

/// The number of a help or series move, right-aligned in three columns (`  1.`, ` 10.`),
/// with a space before it inside a line.
fn help_number(out: &mut String, n: usize, dots: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(&format!("{n:>3}{dots}"));
}

/// A help line: `  1.B W   2.B W #`, or `  1...W   2.B W` when it has an odd number of moves.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::popeye::help_line;
/// use feerie::solve::LineMove;
/// let l = vec![LineMove::new("e2-e3".into(), String::new()), LineMove::new("Kg8-f7".into(), String::new()), LineMove::new("e3-e4".into(), "#".into())];
/// assert_eq!(help_line(&l, Lang::En), "  1...e2-e3   2.Kg8-f7 e3-e4 #");
/// ```
pub fn help_line(line: &Line, lang: Lang) -> String {
    help_line_from(line, line.len() % 2, lang)
}

/// A line of set play in help play: the set play of `h#n.5` (a line of even length), which
/// Black begins a half-move later than the solution, starts at move 2 after both gaps
/// (`  1... ...   2.B W`), as Popeye numbers it.
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::problem::stipulation::Stipulation;
/// use feerie::report::popeye::set_help_line;
/// use feerie::solve::LineMove;
/// let l: Vec<LineMove> = ["Ke5-f6", "g2-g3", "Kf6-g7", "g3-g4"].iter().map(|m| LineMove::new(m.to_string(), String::new())).collect();
/// let stip = Stipulation::parse("h=4.5").unwrap();
/// assert_eq!(set_help_line(&stip, &l, Lang::En), "  1... ...   2.Ke5-f6 g2-g3   3.Kf6-g7 g3-g4");
/// ```
pub fn set_help_line(stip: &crate::problem::stipulation::Stipulation, line: &Line, lang: Lang) -> String {
    let slot = if stip.half && line.len().is_multiple_of(2) { 2 } else { line.len() % 2 };
    help_line_from(line, slot, lang)
}

/// A line of reciprocal help play (`reci-h#n`), numbered from Black's first move even when
/// it has an odd number of moves (Black's own ending: `1.B W   2.B #`); proof games are
/// numbered so too, from their first move (`dia3.5`: `1.W B … 4.W dia`).
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::popeye::reci_help_line;
/// use feerie::solve::LineMove;
/// let l: Vec<LineMove> = ["e3-e2", "g7-g8=Q", "e2-e1=Q"].iter().map(|m| LineMove::new(m.to_string(), String::new())).collect();
/// assert_eq!(reci_help_line(&l, Lang::En), "  1.e3-e2 g7-g8=Q   2.e2-e1=Q");
/// ```
pub fn reci_help_line(line: &Line, lang: Lang) -> String {
    help_line_from(line, 0, lang)
}

/// A help line written from `slot`: Popeye numbers help play from the stipulation's first
/// half-move, Black's at move 1 (slot 0: `1.B W   2.B W`), or White's after it in `h#n.5`
/// (slot 1: `1...W   2.B W`), or after both gaps (slot 2: `1... ...   2.B W`).
fn help_line_from(line: &[LineMove], slot: usize, lang: Lang) -> String {
    // Moves numbered on their own (a help move before a nested `-` help play, Popeye's
    // `sford.inp` #36: `1.Df3-f8   1.Tg2-g7 Ld7-a4   2.…`): the play after them is numbered
    // from 1 again, its first mover first.
    let intro = line.iter().take_while(|m| m.intro).count();
    if intro > 0 && intro < line.len() {
        let (head, tail) = line.split_at(intro);
        return format!("{} {}", help_line_from(head, slot, lang), help_line_from(tail, 0, lang));
    }
    let mut s = String::new();
    let mut rest: &[LineMove] = line;
    let mut number = 1;
    match slot {
        1 if !line.is_empty() => {
            help_number(&mut s, 1, "...");
            s.push_str(&help_move(&line[0], lang));
            rest = &line[1..];
            number = 2;
        }
        2 => {
            help_number(&mut s, 1, "...");
            s.push_str(" ...");
            number = 2;
        }
        _ => {}
    }
    for pair in rest.chunks(2) {
        help_number(&mut s, number, ".");
        let moves: Vec<String> = pair.iter().map(|m| help_move(m, lang)).collect();
        s.push_str(&moves.join(" "));
        number += 1;
    }
    s
}

/// A series line: the series moves numbered, the other side's closing move after the last
/// (`has_reply`), and in parry series its parries after the checks they answer, unnumbered
/// (`1.Rh4*h7 + Qg8*h7   2.Qh3*h7 #`); intro moves numbered on their own before the series
/// (`1.b6-b7   1.a7-a5   2.a5-a4`).
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::report::popeye::series_line;
/// use feerie::solve::LineMove;
/// let l: Vec<LineMove> = ["0-0", "Kg8-h8", "Rf8-g8", "Rd1-h1"].iter().map(|m| LineMove::new(m.to_string(), String::new())).collect();
/// assert_eq!(series_line(&l, true, Lang::En), "  1.0-0   2.Kg8-h8   3.Rf8-g8 Rd1-h1");
/// ```
pub fn series_line(line: &Line, has_reply: bool, lang: Lang) -> String {
    let mut s = String::new();
    let n = if has_reply { line.len().saturating_sub(1) } else { line.len() };
    let mut number = 0;
    for (i, m) in line.iter().enumerate() {
        if i > 0 && line[i - 1].intro && !m.intro {
            // The series after intro moves is numbered from 1 again.
            number = 0;
        }
        if i < n && !m.parry {
            number += 1;
            help_number(&mut s, number, ".");
        } else {
            s.push(' ');
        }
        s.push_str(&line_move(m, lang));
    }
    s
}

/// For a help play of a structured stipulation that [`crate::solve::structured`] plays: the
/// slot its lines are numbered from (Popeye numbers them from the side the stipulation names:
/// 0, or 1 when a `-` lets the other side begin).
fn structured_slot(v: &Variant) -> Option<usize> {
    let s = v.options.structured.as_ref().filter(|s| s.translate().is_none())?;
    Some(usize::from(s.first_mover() != s.side))
}

/// Whether a variant is played as a tree (direct, self, reflex or semi-reflex play, not
/// series).
pub fn is_battle(v: &Variant) -> bool {
    v.stipulation.is_battle()
}

/// The tree Popeye prints without `option Variation`: a key or try without its threat and
/// variations (a try keeps its refutations).
fn bare(n: &Node) -> Node {
    Node { threat: Vec::new(), zugzwang: false, replies: Vec::new(), ..n.clone() }
}

/// The move number at which the play below a defence `d` of move `number` ends: its deepest
/// line, counted in moves (the defender's own move when it reaches the goal in self play).
fn line_end(d: &Node, number: u32) -> u32 {
    d.replies.iter().map(|a| a.replies.iter().map(|dd| line_end(dd, number + 1)).max().unwrap_or(number + 1)).max().unwrap_or(number)
}

/// `NoShortVariations`: the tree after an attacker's move of move `number` without the
/// defences whose play ends before move `full` (the stipulation's length), at every depth.
fn without_short(n: &Node, number: u32, full: u32) -> Node {
    let replies = n
        .replies
        .iter()
        .filter(|d| line_end(d, number) >= full)
        .map(|d| Node { replies: d.replies.iter().map(|a| without_short(a, number + 1, full)).collect(), ..d.clone() })
        .collect();
    Node { replies, ..n.clone() }
}

/// One phase (the problem as set, or its duplex) in Popeye's layout: each block (set play,
/// a key or try with its play, the help or series lines) followed by a blank line. A phase
/// feerie did not solve (the duplex position is illegal) is one Popeye prints nothing for.
fn phase_lines(out: &mut Vec<String>, v: &Variant, ph: &Phase, lang: Lang) {
    if ph.note.is_some() {
        return;
    }
    let stip = &v.stipulation;
    if !ph.set_play.is_empty() || !ph.set_lines.is_empty() {
        for d in &ph.set_play {
            defence_tree(out, d, 1, lang);
        }
        for l in &ph.set_lines {
            if let Some(slot) = structured_slot(v) {
                out.push(help_line_from(l, slot + 1, lang));
                continue;
            }
            match l.first() {
                Some(first) if stip.series => out.push(format!("  1...{}", line_move(first, lang))),
                _ => out.push(set_help_line(stip, l, lang)),
            }
        }
        out.push(String::new());
    }
    if is_battle(v) {
        battle_lines(out, v, ph, lang);
    } else {
        // Help-reflex play whose first mover must reach the goal at once: those moves, each
        // followed by Popeye's `?!?`.
        for t in ph.tries.iter().filter(|t| t.role == crate::solve::Role::Violation) {
            out.push(format!("  1.{} ?!?", node_text(t, lang)));
        }
        let has_reply = stip.play != Play::Direct;
        for l in &ph.lines {
            out.push(if let Some(slot) = structured_slot(v).filter(|_| !stip.series) {
                help_line_from(l, slot, lang)
            } else if stip.series {
                // Reciprocal series: the ending of the series side's own goal has no reply.
                series_line(l, has_reply && (stip.reci.is_none() || l.len() > stip.moves as usize), lang)
            } else if stip.reci.is_some() || stip.goal.is_proof() {
                reci_help_line(l, lang)
            } else {
                help_line(l, lang)
            });
        }
        if !ph.lines.is_empty() {
            out.push(String::new());
        }
    }
}

/// The keys and tries of battle play, each with its play, in Popeye's layout.
fn battle_lines(out: &mut Vec<String>, v: &Variant, ph: &Phase, lang: Lang) {
    let stip = &v.stipulation;
    // A structured stipulation that begins with the defender's move and names its side
    // (`black 1d[#]a`, not `white - 1d[#]a`).
    let named_defender = v.options.structured.as_ref().is_some_and(|s| {
        s.first_mover() == s.side
            && matches!(&s.expr, crate::problem::sstip::Expr::Branch(b) if b.kind == crate::problem::sstip::BranchKind::DefenceAttack)
    });
    let cut = !v.options.variations && !v.options.post_key_play;
    for (n, is_try) in ph.tries.iter().map(|t| (t, true)).chain(ph.keys.iter().map(|k| (k, false))) {
        let mut shown = if cut { bare(n) } else { n.clone() };
        if v.options.ignored.iter().any(|o| o == "NoShortVariations") {
            shown = without_short(&shown, 1, stip.moves);
        }
        if v.options.post_key_play && shown.mv == "..." {
            // Play after the key: the diagram is the position after it, and Popeye writes
            // no key, only ` threat:` or ` zugzwang.` over the play when there is one.
            let word = if shown.mark.is_empty() { threat_word(&shown, lang) } else { format!(" {}", shown.mark) };
            if !word.is_empty() {
                out.push(word);
            }
            if named_defender {
                // The structured stipulation names the defender, who moves first
                // (`black 1d[#]a`): Popeye numbers its moves as the first side's.
                for d in &shown.replies {
                    named_defence(out, d, 1, lang);
                }
            } else {
                after_attack(out, &shown, 1, lang);
            }
            // The defences that refute it (the diagram does not work), each followed by
            // Popeye's `refutes.`.
            for r in &shown.refutations {
                out.push(format!("{}{}", defence_number(1), node_text(r, lang)));
                out.push(format!("        {}", words(lang).refutes));
            }
        } else {
            key(out, &shown, is_try, lang);
        }
        out.push(String::new());
    }
}

/// A defence of post-key play numbered as the first side's move (`   1.Tb4*b6 #`), the
/// attacker's answers under it as the second side's (`      1...`).
fn named_defence(out: &mut Vec<String>, d: &Node, number: u32, lang: Lang) {
    out.push(format!("{}{}", attack_number(number), node_text(d, lang)));
    for a in &d.replies {
        out.push(format!("{}{}{}", defence_number(number), node_text(a, lang), threat_word(a, lang)));
        for t in &a.threat {
            out.push(format!("{}{}", attack_number(number + 1), node_text(t, lang)));
        }
        for dd in &a.replies {
            named_defence(out, dd, number + 1, lang);
        }
    }
}

/// For a structured stipulation with `&` at the root: for each operand (one phase each),
/// whether it is played as a tree, and the slot its help lines are numbered from
/// ([`help_line_from`]).
fn and_parts(v: &Variant) -> Option<Vec<(bool, usize)>> {
    use crate::problem::sstip::{Expr, SStipulation};
    let s = v.options.structured.as_ref().filter(|s| s.translate().is_none() && matches!(s.expr, Expr::And(..)))?;
    let parts = crate::solve::structured::and_operands(&s.expr)
        .into_iter()
        .map(|e| {
            let sub = SStipulation { side: s.side, expr: e.clone() };
            let stip = sub.translate().map(|t| t.stipulation).or_else(|| crate::solve::structured::stand_in(&sub).ok());
            (stip.is_some_and(|st| st.is_battle()), usize::from(sub.first_mover() != s.side))
        })
        .collect();
    Some(parts)
}

/// What Popeye prints for `StopOnShortSolutions` in direct play ([`Variant::refusal`]).
pub const POPEYE_STOP_ON_SHORT_REFUSAL: &str = "Option  StopOnShortSolutions  not supported with direct play.";

/// One twin's solution in Popeye's layout: the lines (blank lines included) of every phase of
/// the record, cut to what Popeye's options print.
pub fn solution_lines(v: &Variant, record: &Record, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if v.refusal().is_some() {
        // Popeye refuses it too, in these words.
        out.push(POPEYE_STOP_ON_SHORT_REFUSAL.to_string());
        return out;
    }
    let parts = and_parts(v);
    for (i, ph) in record.tree.iter().enumerate() {
        match parts.as_ref().and_then(|p| p.get(i)) {
            Some(&(true, _)) => battle_lines(&mut out, v, ph, lang),
            Some(&(false, slot)) => {
                out.extend(ph.lines.iter().map(|l| help_line_from(l, slot, lang)));
                if !ph.lines.is_empty() {
                    out.push(String::new());
                }
            }
            None => phase_lines(&mut out, v, ph, lang),
        }
    }
    out
}

/// A diagram as Popeye draws it (8×8 boards only): the frame with the file letters, each
/// square four columns wide, `-` before a black piece and `=` before a neutral one.
pub fn diagram_lines(d: &Diagram, lang: Lang) -> Vec<String> {
    let frame = "+---a---b---c---d---e---f---g---h---+".to_string();
    let empty = format!("|{}|", " ".repeat(WIDTH - 2));
    let mut out = vec![frame.clone(), empty.clone()];
    for rank in (0..8u8).rev() {
        let mut row = format!("{}", rank + 1);
        for file in 0..8u8 {
            let code = |f: Figure| match f {
                Figure::Chess(k) => k.code_in(lang).to_string(),
                Figure::Xiangqi(c) => c.to_string(),
            };
            let cell = if let Some(p) = d.pieces.iter().find(|p| p.file == file && p.rank == rank) {
                format!("{}{}", if p.color == Color::Black { "-" } else { "" }, code(p.figure))
            } else if let Some(p) = d.neutral.iter().find(|p| p.file == file && p.rank == rank) {
                format!("={}", code(p.figure))
            } else {
                ".".to_string()
            };
            row.push_str(&format!("{cell:>4}"));
        }
        row.push_str(&format!("   {}", rank + 1));
        out.push(row);
        out.push(empty.clone());
    }
    out.push(frame);
    out
}

/// The line under the diagram: the stipulation at the left, the piece counts (`3 + 2`, with
/// neutral pieces `0 + 0 + 5n`) ending in column 35.
///
/// ```
/// use feerie::report::popeye::count_line;
/// assert_eq!(count_line("#2", 3, 2, 0), "  #2                          3 + 2");
/// assert_eq!(count_line("h#3", 0, 0, 5), "  h#3                    0 + 0 + 5n");
/// ```
pub fn count_line(stipulation: &str, white: usize, black: usize, neutral: usize) -> String {
    let counts = if neutral > 0 { format!("{white} + {black} + {neutral}n") } else { format!("{white} + {black}") };
    let width = 33usize.saturating_sub(stipulation.chars().count()).max(counts.len() + 1);
    format!("  {stipulation}{counts:>width$}")
}

/// The header of a problem: authors, source, award and titles centred, a blank line, the
/// diagram (chess boards), the stipulation and piece counts, the conditions centred.
pub fn header_lines(p: &Problem, stipulation: &str, lang: Lang) -> Vec<String> {
    let m = &p.meta;
    let mut out: Vec<String> = m.authors.iter().map(|a| centred(a)).collect();
    out.extend(m.source.iter().chain(&m.award).chain(&m.comments).map(|s| centred(s)));
    out.push(String::new());
    // `a=>b`: the start position first, then who begins (`=> (White ->)`), as Popeye draws it.
    if let Some(start) = &p.proof_start {
        let d = crate::problem::Diagram::of_position(start);
        out.extend(diagram_lines(&d, lang));
        let count = |c: Color| d.pieces.iter().filter(|x| x.color == c).count();
        out.push(count_line("", count(Color::White), count(Color::Black), 0));
        out.push(String::new());
        let side = match (start.side_to_move(), lang) {
            (Color::White, Lang::De) => "Weiss",
            (Color::Black, Lang::De) => "Schwarz",
            (Color::White, Lang::Fr) => "Blanc",
            (Color::Black, Lang::Fr) => "Noir",
            (Color::White, _) => "White",
            (Color::Black, _) => "Black",
        };
        out.push(centred(&format!("=> ({side} ->)")));
        out.push(String::new());
        out.push(String::new());
    }
    let d = p.position.diagram();
    if d.rules != Rules::Xiangqi {
        out.extend(diagram_lines(&d, lang));
    }
    let count = |c: Color| d.pieces.iter().filter(|x| x.color == c).count();
    out.push(count_line(stipulation, count(Color::White), count(Color::Black), d.neutral.len()));
    for c in conditions(p) {
        out.push(centred(&c));
    }
    out
}

/// The conditions and the options Popeye names under the diagram.
fn conditions(p: &Problem) -> Vec<String> {
    let o = &p.options;
    let mut v: Vec<String> = crate::problem::options::reserve_name(o.reserve).map(str::to_string).into_iter().collect();
    v.extend(o.conditions.names());
    if o.holes != 0 {
        let squares: Vec<&str> = crate::geometry::Squares(o.holes).map(crate::position::sq_name).collect();
        v.push(format!("Hole {}", squares.join(" ")));
    }
    for (on, name) in [(o.duplex, "Duplex"), (o.half_duplex, "HalfDuplex")] {
        if on {
            v.push(name.to_string());
        }
    }
    v
}

/// A colour letter of Popeye's twin lines in `lang`: `w`/`b` (English), `w`/`s` (German),
/// `b`/`n` (French).
fn colour_letter(c: Color, lang: Lang) -> char {
    match (lang, c) {
        (Lang::En | Lang::De, Color::White) => 'w',
        (Lang::En, Color::Black) => 'b',
        (Lang::De, Color::Black) => 's',
        (Lang::Fr, Color::White) => 'b',
        (Lang::Fr, Color::Black) => 'n',
    }
}

/// What a twin's commands do, as Popeye writes it after the twin's label: the pieces they
/// move, add and remove by colour, code and square (`wKa1-->b1`, `+bPa7`, `-wBd3`,
/// `bBb2<-->wBc3`), a new stipulation or condition as its text; the commands apart by two
/// spaces. `before` is the position the commands apply to. Commands that change the whole
/// board (rotate, mirror, shift, substitute, PolishType) and Réserve commands are written
/// as feerie reads them (`Rotate 90`).
///
/// ```
/// use feerie::piece::Lang;
/// use feerie::position::{Position, parse_sq};
/// use feerie::problem::{Diagram, TwinCommand};
/// use feerie::report::popeye::twin_change;
/// let d = Diagram::of_position(&Position::from_fen("8/8/8/8/8/1R6/8/K1k5 w - - 0 1").unwrap());
/// let sq = |s| parse_sq(s).unwrap();
/// assert_eq!(twin_change(&d, &[TwinCommand::Move { from: sq("b3"), to: sq("d3") }], Lang::De), "wTb3-->d3");
/// assert_eq!(twin_change(&d, &[TwinCommand::Remove { squares: vec![sq("b3")] }, TwinCommand::Exchange { a: sq("a1"), b: sq("c1") }], Lang::En), "-wRb3  wKa1<-->bKc1");
/// ```
pub fn twin_change(before: &Diagram, commands: &[crate::problem::TwinCommand], lang: Lang) -> String {
    use crate::problem::TwinCommand as T;
    // The pieces by square as the commands go, each as Popeye names it without its square
    // (`wT`).
    let mut board: std::collections::BTreeMap<u8, String> = std::collections::BTreeMap::new();
    for p in &before.pieces {
        if let Figure::Chess(k) = p.figure {
            board.insert(p.rank * 8 + p.file, format!("{}{}", colour_letter(p.color, lang), k.code_in(lang)));
        }
    }
    for p in &before.neutral {
        if let Figure::Chess(k) = p.figure {
            board.insert(p.rank * 8 + p.file, format!("n{}", k.code_in(lang)));
        }
    }
    let name = |s: crate::geometry::Square| crate::position::sq_name(s);
    let mut parts: Vec<String> = Vec::new();
    for c in commands {
        match c {
            T::Move { from, to } => {
                let piece = board.remove(&from.0).unwrap_or_default();
                parts.push(format!("{piece}{}-->{}", name(*from), name(*to)));
                board.insert(to.0, piece);
            }
            T::Exchange { a, b } => {
                let pa = board.remove(&a.0).unwrap_or_default();
                let pb = board.remove(&b.0).unwrap_or_default();
                parts.push(format!("{pa}{}<-->{pb}{}", name(*a), name(*b)));
                board.insert(a.0, pb);
                board.insert(b.0, pa);
            }
            T::Add { color, pieces } => {
                for (k, sq) in pieces {
                    let piece = format!("{}{}", colour_letter(*color, lang), k.code_in(lang));
                    parts.push(format!("+{piece}{}", name(*sq)));
                    board.insert(sq.0, piece);
                }
            }
            T::Remove { squares } => {
                for sq in squares {
                    let piece = board.remove(&sq.0).unwrap_or_default();
                    parts.push(format!("-{piece}{}", name(*sq)));
                }
            }
            T::Stipulation { stipulation } => parts.push(stipulation.to_string()),
            T::SStipulation { structured, .. } => parts.push(structured.to_string()),
            T::Condition { text, .. } => parts.push(text.clone()),
            other => parts.push(other.to_string()),
        }
    }
    parts.join("  ")
}

/// Feerie's verdict line for one record: `feerie: sound (reason)`, with the twin's label
/// when the problem has twins.
pub fn verdict_line(r: &Record, twins: bool) -> String {
    let label = if twins { format!(" {})", r.twin) } else { String::new() };
    let reason = if r.reason.is_empty() { String::new() } else { format!(" ({})", r.reason) };
    format!("{VERDICT_PREFIX}{label} {}{reason}", r.verdict)
}

/// A whole problem in Popeye's layout: three blank lines (as in Popeye's recorded outputs), the header, a blank line, each
/// twin's solution (under its `a) `, `b) …` line when there are twins), the end line, then
/// feerie's verdict lines. `records` are those of `variants`, in order.
pub fn problem_text(p: &Problem, variants: &[Variant], records: &[Record], lang: Lang) -> String {
    let stipulation = records.first().map_or_else(|| p.stipulation.to_string(), |r| r.stipulation.clone());
    let mut lines = vec![String::new(); 3];
    // Popeye's word on an option the first twin cannot play, before the problem.
    if let Some(v) = variants.first()
        && post_key_ignored(v)
    {
        lines.push(post_key_message(lang).to_string());
        lines.push(String::new());
    }
    lines.extend(header_lines(p, &stipulation, lang));
    if let Some(res) = records.first().and_then(|r| r.reserve.as_ref()) {
        lines.push(crate::report::text::reserve_line(res, lang));
    }
    lines.push(String::new());
    // A zero position (the diagram is not solved, the twins begin with `a`): Popeye's word,
    // as its outputs print it, before the twins.
    if p.twins.first().is_some_and(|t| t.label == "a") {
        lines.push(if lang == Lang::De { "NullStellung" } else { "zeroposition" }.to_string());
        lines.push(String::new());
    }
    let twins = variants.len() > 1;
    for (i, (v, r)) in variants.iter().zip(records).enumerate() {
        if twins {
            // The same word before each later twin that cannot play the option.
            if i > 0 && post_key_ignored(v) {
                lines.push(post_key_message(lang).to_string());
                lines.push(String::new());
            }
            lines.push(match p.twins.iter().find(|t| t.label == v.label) {
                Some(t) => {
                    // The position the twin's commands apply to: the diagram, or the
                    // previous twin when `Continued`.
                    let before = match i.checked_sub(1).and_then(|j| variants.get(j)) {
                        Some(prev) if t.continued => prev.position.diagram(),
                        _ => p.position.diagram(),
                    };
                    let change = if t.commands.is_empty() {
                        r.twin_change.strip_prefix("Continued ").unwrap_or(&r.twin_change).to_string()
                    } else {
                        twin_change(&before, &t.commands, lang)
                    };
                    format!("{}{}) {change}  ", if t.continued { "+" } else { "" }, v.label)
                }
                None => format!("{}) ", v.label),
            });
            lines.push(String::new());
        }
        lines.extend(solution_lines(v, r, lang));
    }
    let partial = records.iter().any(|r| r.verdict == VerdictKind::TimedOut || r.tree.iter().any(|ph| ph.limited));
    lines.push(end_line(lang, partial).to_string());
    for r in records {
        lines.push(verdict_line(r, twins));
    }
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Whether `PostKeyPlay` is asked where there is no key to play after: help or series play,
/// where Popeye ignores it and says so ([`post_key_message`]).
fn post_key_ignored(v: &Variant) -> bool {
    v.options.post_key_play && !is_battle(v)
}

/// Popeye's message for an ignored `PostKeyPlay` (`help_play.inp` #12).
fn post_key_message(lang: Lang) -> &'static str {
    match lang {
        Lang::De => "NachSchluessel nicht anwendbar - ignoriert",
        Lang::Fr => "ApresCle pas applicable - ignore",
        Lang::En => "PostKeyPlay not applicable - ignored",
    }
}

/// A document feerie did not solve (unsupported or invalid), in the same frame: its title
/// centred and feerie's verdict line.
pub fn unsolved_text(r: &Record) -> String {
    let title = if r.title.is_empty() { format!("{} #{}", r.file, r.document) } else { r.title.clone() };
    format!("\n\n\n{}\n\n{}\n", centred(&title), verdict_line(r, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_right_aligned_one_level_deeper_per_move() {
        assert_eq!(attack_number(1), "   1.");
        assert_eq!(defence_number(1), "      1...");
        assert_eq!(attack_number(2), "          2.");
        assert_eq!(defence_number(2), "              2...");
        assert_eq!(attack_number(3), "                  3.");
        // Popeye's blackchk.ref: `10...Sc2-a3 +` after 77 spaces.
        assert_eq!(defence_number(10), format!("{}10...", " ".repeat(77)));
    }

    #[test]
    fn long_help_lines_keep_three_columns_per_number() {
        let l: Vec<LineMove> = (0..20).map(|i| LineMove::new(format!("m{i}"), String::new())).collect();
        let s = help_line(&l, Lang::En);
        assert!(s.contains("m15   9.m16 m17  10.m18 m19"), "{s}");
    }

    #[test]
    fn diagrams_as_popeye_draws_them() {
        let d = Diagram::of_position(&crate::position::Position::from_fen("1k6/8/K1R5/2p5/8/8/8/8 w - - 0 1").expect("a FEN"));
        let lines = diagram_lines(&d, Lang::De);
        assert_eq!(lines[0], "+---a---b---c---d---e---f---g---h---+");
        assert_eq!(lines[2], "8   .  -K   .   .   .   .   .   .   8");
        assert_eq!(lines[6], "6   K   .   T   .   .   .   .   .   6");
        assert_eq!(lines.len(), 19);
    }
}
