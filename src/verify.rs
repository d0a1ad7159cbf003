//! Judges what the solver found against the stated solution: `sound`, `cooked`,
//! `no solution`, `differs`.
//!
//! Battle play (`#n`, `s#n`, `r#n`) compares keys; help and series play compare whole lines.
//! The intended number of solutions is `intended-solutions`, else the number of stated
//! solutions, else one.
//!
//! ```
//! use feerie::verify::{judge_sets, VerdictKind};
//! let found = vec!["Qd1-d5".to_string()];
//! let v = judge_sets(&found, Some(&["Qd1-d5".to_string()][..]), None, false);
//! assert_eq!(v.kind, VerdictKind::Sound);
//! let v = judge_sets(&["Qd1-d5".into(), "Qd1-d4".into()], Some(&["Qd1-d5".to_string()][..]), None, false);
//! assert_eq!(v.kind, VerdictKind::Cooked);
//! assert_eq!(v.extra, vec!["Qd1-d4".to_string()]);
//! ```

use crate::piece::Lang;
use crate::problem::{GamePosition, Loaded, Problem, StatedTwin, Variant};
pub use crate::record::VerdictKind;
use crate::record::{Record, ReserveState};
use crate::rules::{Game, Notation};
use crate::solve::{Phase, SolveOptions, solve};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// A verdict with its explanation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The kind.
    pub kind: VerdictKind,
    /// Plain words: why.
    pub reason: String,
    /// Solutions found beyond the stated ones (the cooks).
    pub extra: Vec<String>,
    /// Stated solutions that were not found.
    pub missing: Vec<String>,
}

/// Judges found solutions (keys, or lines written as one string each) against the stated
/// ones (`None` when the file states none) and the intended count.
pub fn judge_sets(found: &[String], stated: Option<&[String]>, intended: Option<u32>, stated_no_solution: bool) -> Verdict {
    let intended = intended.map(|n| n as usize).or_else(|| stated.filter(|s| !s.is_empty()).map(|s| s.len())).unwrap_or(1);
    let missing: Vec<String> = stated.map(|s| s.iter().filter(|x| !found.contains(x)).cloned().collect()).unwrap_or_default();
    let extra: Vec<String> = match stated {
        Some(s) if !s.is_empty() => found.iter().filter(|x| !s.contains(x)).cloned().collect(),
        _ => found.iter().skip(intended).cloned().collect(),
    };
    let (kind, reason) = if found.is_empty() {
        if stated_no_solution {
            (VerdictKind::NoSolution, "no solution, as stated".to_string())
        } else {
            (VerdictKind::NoSolution, "no solution exists".to_string())
        }
    } else if stated_no_solution {
        (VerdictKind::Differs, format!("stated 'no solution', but {} found", found.len()))
    } else if !missing.is_empty() {
        (VerdictKind::Differs, format!("stated {} not found: {}", plural(missing.len(), "solution"), missing.join("; ")))
    } else if found.len() > intended {
        (VerdictKind::Cooked, format!("{} found, {} intended; cooks: {}", found.len(), intended, extra.join("; ")))
    } else if found.len() < intended {
        (VerdictKind::Differs, format!("{} intended, only {} found", intended, found.len()))
    } else {
        (VerdictKind::Sound, format!("{} as intended", plural(found.len(), "solution")))
    };
    Verdict { kind, reason, extra, missing }
}

/// Counts the short solutions among those `found` (help and series lines shorter than
/// stipulated) as cooks: a short solution that is not stated makes a sound or cooked verdict
/// `cooked`, the short ones named first (`short solution Ke8-f8 Rc4-c8; 4 found, 3 intended`),
/// then any other cooks. Without a stated solution the intended ones are taken among the lines
/// of full length. A stated short solution is intended and no cook; a verdict that is already
/// `differs` says which short solutions were found besides.
///
/// ```
/// use feerie::verify::{count_short_cooks, judge_sets, VerdictKind};
/// let found: Vec<String> = vec!["Ke8-f8 Rc4-c8".into(), "Ke8-d8 Kf6-e6 Kd8-e8 Rc4-c8".into()];
/// let stated = ["Ke8-d8 Kf6-e6 Kd8-e8 Rc4-c8".to_string()];
/// let mut v = judge_sets(&found, Some(&stated[..]), None, false);
/// count_short_cooks(&mut v, &found, &found[..1], Some(&stated[..]), None);
/// assert_eq!(v.kind, VerdictKind::Cooked);
/// assert_eq!(v.reason, "short solution Ke8-f8 Rc4-c8; 2 found, 1 intended");
/// ```
pub fn count_short_cooks(v: &mut Verdict, found: &[String], short: &[String], stated: Option<&[String]>, intended: Option<u32>) {
    let stated = stated.filter(|s| !s.is_empty());
    let cooks: Vec<String> = short.iter().filter(|s| !stated.is_some_and(|st| st.contains(s))).cloned().collect();
    if cooks.is_empty() {
        return;
    }
    let what = if cooks.len() == 1 { "short solution" } else { "short solutions" };
    let list = cooks.join("; ");
    match v.kind {
        VerdictKind::Sound | VerdictKind::Cooked => {
            let intended = intended.map(|n| n as usize).or(stated.map(|s| s.len())).unwrap_or(1);
            let others: Vec<String> = match stated {
                Some(st) => found.iter().filter(|f| !st.contains(f) && !cooks.contains(f)).cloned().collect(),
                None => found.iter().filter(|f| !short.contains(f)).skip(intended).cloned().collect(),
            };
            v.kind = VerdictKind::Cooked;
            v.reason = format!("{what} {list}; {} found, {intended} intended", found.len());
            if !others.is_empty() {
                v.reason.push_str(&format!("; other cooks: {}", others.join("; ")));
            }
            v.extra = cooks.into_iter().chain(others).collect();
        }
        VerdictKind::Differs => {
            v.reason = format!("{}; {what} {list}", v.reason);
            for c in cooks {
                if !v.extra.contains(&c) {
                    v.extra.push(c);
                }
            }
        }
        _ => {}
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

/// Solve options for one variant: the problem's own options over the run's settings.
pub fn options_for(v: &Variant, base: &SolveOptions) -> SolveOptions {
    let o = &v.options;
    SolveOptions {
        set_play: o.set_play,
        tries: o.try_play,
        defence: o.defence.max(1),
        threat: o.threat,
        no_threat: o.no_threat,
        duplex: o.duplex,
        half_duplex: o.half_duplex,
        max_solutions: o.max_solutions.map(|n| n as usize),
        stop_on_short: o.stop_on_short,
        post_key: o.post_key_play,
        null_moves: o.null_moves,
        quodlibet: o.quodlibet,
        mates_in_1: o.mates_in_1,
        trivial_tries_avoid: o.trivial_tries_avoid,
        non_trivial: o.non_trivial,
        max_flights: o.max_flights,
        goal_is_end: o.goal_is_end,
        // Without the tree asked for by the run (Popeye's layout), the problems that show
        // it all the same: Popeye's `Variation` and `PostKeyPlay`, and `Threat n`, which
        // keeps the keys by their threat's length.
        tree: base.tree || o.variations || o.post_key_play || o.threat.is_some(),
        ..base.clone()
    }
}

fn is_battle(v: &Variant) -> bool {
    v.stipulation.is_battle()
}

/// The solutions of a phase as move lists: keys (one-move lists) for battle play, whole
/// lines for help and series play.
pub fn solutions_of(battle: bool, ph: &Phase) -> Vec<Vec<String>> {
    if battle {
        ph.keys.iter().map(|k| vec![k.mv.clone()]).collect()
    } else {
        ph.lines.iter().map(|l| l.iter().map(|m| m.mv.clone()).collect()).collect()
    }
}

/// Finds the stated part for a twin: by label, else by position.
fn stated_for<'a>(p: &'a Problem, label: &str, index: usize, count: usize) -> Option<&'a StatedTwin> {
    let st = p.stated.as_ref()?;
    if let Some(t) = st.twins.iter().find(|t| t.label.as_deref() == Some(label)) {
        return Some(t);
    }
    if st.twins.len() == count {
        st.twins.get(index)
    } else if count == 1 {
        st.twins.first()
    } else {
        None
    }
}

/// The record of a problem or twin that cannot be solved as given (`reason`): invalid, with
/// nothing found.
fn invalid_record(p: &Problem, twin: &str, twin_change: String, stipulation: String, title: String, reason: String) -> Record {
    Record {
        file: p.file.clone(),
        document: p.document,
        twin: twin.to_string(),
        twin_change,
        stipulation,
        title,
        verdict: VerdictKind::Invalid,
        reason,
        solutions: Vec::new(),
        short_solutions: Vec::new(),
        tries: Vec::new(),
        tree: Vec::new(),
        stated: p.stated.as_ref().map(|s| s.text.clone()),
        elapsed_ms: 0,
        nodes: 0,
        reserve: None,
    }
}

/// Solves every variant of a problem and judges each against the stated solution.
pub fn check_problem(p: &Problem, base: &SolveOptions) -> Vec<Record> {
    let title = if p.meta.title.is_empty() { p.first_line.clone() } else { p.meta.title.clone() };
    let variants = match p.variants() {
        Ok(v) => v,
        Err(e) => return vec![invalid_record(p, "a", String::new(), p.stipulation.to_string(), title, e.to_string())],
    };
    let count = variants.len();
    variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let start = Instant::now();
            if let Some(why) = v.refusal() {
                let change = if v.label == "a" { String::new() } else { v.description.clone() };
                return invalid_record(p, &v.label, change, v.stipulation.to_string(), title.clone(), why);
            }
            let opts = options_for(v, base);
            let stated = stated_for(p, &v.label, i, count);
            // The one place where a problem picks its game: below, all is generic.
            let (solved, stated, reserve) = match &v.position {
                // Proof games: from the game array (`dia`) or the start position (`a=>b`) to
                // the diagram.
                GamePosition::Chess(pos) if v.stipulation.goal.is_proof() => {
                    let start = p.proof_start.as_deref().copied().unwrap_or_else(crate::solve::proof::game_array);
                    let stated = stated.map(|t| restate(&start, t, opts.notation, false));
                    (crate::solve::proof::solve_proof(&start, pos, &v.stipulation, &opts), stated, None)
                }
                GamePosition::Chess(pos) => (solve_variant(pos, v, &opts), stated.cloned(), ReserveState::of(pos)),
                GamePosition::Xiangqi(pos) => {
                    let stated = stated.map(|t| restate(pos, t, opts.notation, is_battle(v)));
                    (solve_variant(pos, v, &opts), stated, None)
                }
                GamePosition::Cheskers(pos) => {
                    let stated = stated.map(|t| restate(pos, t, opts.notation, is_battle(v)));
                    (solve_variant(pos, v, &opts), stated, None)
                }
                GamePosition::Fairy(pos) => {
                    let pos = pos.as_ref();
                    let stated = stated.map(|t| restate(pos, t, opts.notation, is_battle(v)));
                    // Chess under the Maximummers plays on the chess board, which writes its
                    // moves as the fairy position does (the stated solution is read there).
                    match crate::rules::fairy::MaximummerChess::of(pos) {
                        Some(chess) if plays_as_chess(v) => (solve_variant(&chess, v, &opts), stated, None),
                        _ => (solve_variant(pos, v, &opts), stated, None),
                    }
                }
            };
            judge_variant(p, v, &opts, Outcome { solved, stated, reserve }, count, &title, start)
        })
        .collect()
}

/// Whether a variant of a chess board under the Maximummers can be played as chess
/// ([`crate::rules::fairy::MaximummerChess`]): its goal does not follow pieces from the
/// diagram (which only the fairy position records), and it has no structured stipulation,
/// whose parts may name such goals.
fn plays_as_chess(v: &Variant) -> bool {
    v.options.structured.is_none() && !v.stipulation.goal.tracks_pieces()
}

/// Solves one variant: its stipulation, or its structured stipulation when it has one that
/// is no ordinary stipulation ([`crate::solve::structured`]).
fn solve_variant<G: crate::rules::Game>(pos: &G, v: &Variant, opts: &SolveOptions) -> crate::solve::Solved {
    match &v.options.structured {
        Some(s) if s.translate().is_none() => crate::solve::structured::solve(pos, s, opts),
        _ => solve(pos, &v.stipulation, opts),
    }
}

/// The stated solution of a twin with its moves read in `pos`'s game and written as the
/// solver writes them (in `notation`), so that both compare as text: keys from the diagram,
/// help and series lines replayed move by move (a move that is not legal where it stands is
/// tried after a pass, as in series play). A move that cannot be read is kept as written, so
/// that the verdict shows it as not found.
pub fn restate<G: Game>(pos: &G, t: &StatedTwin, notation: Notation, battle: bool) -> StatedTwin {
    let mut out = t.clone();
    let write = |p: &G, text: &str| p.parse_move(text).map(|m| (p.move_text_in(m, Lang::En, notation), p.play(m)));
    out.keys = t.keys.iter().map(|k| write(pos, k).map_or_else(|| k.clone(), |(w, _)| w)).collect();
    out.tries = t.tries.iter().map(|k| write(pos, k).map_or_else(|| k.clone(), |(w, _)| w)).collect();
    if !battle {
        out.lines = t
            .lines
            .iter()
            .map(|line| {
                let mut p = pos.clone();
                let mut lost = false;
                line.iter()
                    .map(|mv| {
                        if lost {
                            return mv.clone();
                        }
                        match write(&p, mv).or_else(|| write(&p.pass(), mv)) {
                            Some((w, q)) => {
                                p = q;
                                w
                            }
                            None => {
                                lost = true;
                                mv.clone()
                            }
                        }
                    })
                    .collect()
            })
            .collect();
    }
    out
}

/// What the game-specific part of a check gives the game-neutral judge.
struct Outcome {
    solved: crate::solve::Solved,
    /// The stated part for the variant, its moves written as the solver writes them.
    stated: Option<StatedTwin>,
    reserve: Option<ReserveState>,
}

/// Judges one variant's solve against its stated part and writes its record.
fn judge_variant(p: &Problem, v: &Variant, opts: &SolveOptions, o: Outcome, count: usize, title: &str, start: Instant) -> Record {
    let Outcome { solved, stated, reserve } = o;
    let stated = stated.as_ref();
    let battle = is_battle(v);
    let mut solutions = Vec::new();
    let mut short_solutions = Vec::new();
    let mut tries = Vec::new();
    for ph in &solved.phases {
        let of_phase = solutions_of(battle, ph);
        short_solutions.extend(ph.short.iter().filter_map(|&i| of_phase.get(i).cloned()));
        solutions.extend(of_phase);
        tries.extend(ph.tries.iter().filter(|t| t.role != crate::solve::Role::Violation).map(|t| vec![t.mv.clone()]));
    }
    let found: Vec<String> = solutions.iter().map(|s| s.join(" ")).collect();
    let stated_list: Option<Vec<String>> =
        stated.map(|t| if battle { t.keys.clone() } else { t.lines.iter().map(|l| l.join(" ")).collect() });
    let usable = !opts.post_key && stated.is_some_and(|t| !t.illegal) && p.stated.as_ref().is_some_and(|s| s.problems.is_empty());
    let intended = if count > 1 { None } else { p.intended_solutions };
    let stated_usable = if usable { stated_list.as_deref() } else { None };
    let stated_none = usable && stated.is_some_and(|t| t.no_solution);
    let mut verdict = judge_sets(&found, stated_usable, intended, stated_none);
    let short_found: Vec<String> = short_solutions.iter().map(|s| s.join(" ")).collect();
    count_short_cooks(&mut verdict, &found, &short_found, stated_usable, intended);
    if solved.phases.iter().any(|ph| ph.limited) {
        // `MaxSolutions` ended the search: the cooks found are cooks, but soundness, a
        // missing stated solution or the count cannot be judged.
        let max = opts.max_solutions.unwrap_or_default();
        if verdict.kind == VerdictKind::Cooked {
            verdict.reason = format!("{}; MaxSolutions {max} ended the search, more may exist", verdict.reason);
        } else if stated_none {
            // A solution found refutes a stated "no solution", whatever else exists.
        } else if !verdict.extra.is_empty() && !verdict.missing.is_empty() {
            // Solutions not stated were found before the stated ones: cooks all the same.
            verdict.kind = VerdictKind::Cooked;
            verdict.reason = format!(
                "cooks: {}; MaxSolutions {max} ended the search after {}, before {} was found",
                verdict.extra.join("; "),
                plural(found.len(), "solution"),
                verdict.missing.join("; ")
            );
        } else {
            verdict.kind = VerdictKind::TimedOut;
            verdict.reason = format!(
                "MaxSolutions {max} ended the search after {}: the verdict needs the whole search (without MaxSolutions)",
                plural(found.len(), "solution")
            );
        }
    }
    if !solved.complete {
        verdict.kind = VerdictKind::TimedOut;
        verdict.reason = format!("stopped before the search ended; {} found so far", found.len());
    } else if !opts.post_key
        && let Some(s) = p.stated.as_ref().filter(|s| !s.problems.is_empty())
    {
        // Say so when the stated solution was there but could not be read: only the count of
        // solutions was judged, not the moves.
        verdict.reason =
            format!("{}; the stated solution was not read ({}), only the count was judged", verdict.reason, s.problems.join("; "));
    }
    Record {
        file: p.file.clone(),
        document: p.document,
        twin: v.label.clone(),
        twin_change: if v.label == "a" { String::new() } else { v.description.clone() },
        stipulation: v.options.structured.as_ref().map_or_else(|| v.stipulation.to_string(), |s| s.to_string()),
        title: title.to_string(),
        verdict: verdict.kind,
        reason: verdict.reason,
        solutions,
        short_solutions,
        tries,
        tree: solved.phases,
        stated: p.stated.as_ref().map(|s| s.text.clone()),
        elapsed_ms: start.elapsed().as_millis() as u64,
        nodes: solved.nodes,
        reserve,
    }
}

/// The record of a document that is not solved (unsupported or invalid).
pub fn record_unsolved(l: &Loaded) -> Option<Record> {
    let blank = |file: &str, document: usize, stip: String, title: String, kind: VerdictKind, reason: String| Record {
        file: file.to_string(),
        document,
        twin: "a".into(),
        twin_change: String::new(),
        stipulation: stip,
        title,
        verdict: kind,
        reason,
        solutions: Vec::new(),
        short_solutions: Vec::new(),
        tries: Vec::new(),
        tree: Vec::new(),
        stated: None,
        elapsed_ms: 0,
        nodes: 0,
        reserve: None,
    };
    match l {
        Loaded::Ready(_) => None,
        Loaded::Unsupported { file, document, first_line, reason, stipulation_text, .. } => {
            Some(blank(file, *document, stipulation_text.clone(), first_line.clone(), VerdictKind::Unsupported, reason.clone()))
        }
        Loaded::Invalid(e) => Some(blank(&e.file, e.document, String::new(), e.first_line.clone(), VerdictKind::Invalid, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn verdicts() {
        assert_eq!(judge_sets(&s(&[]), None, None, false).kind, VerdictKind::NoSolution);
        assert_eq!(judge_sets(&s(&[]), Some(&s(&[])), None, true).kind, VerdictKind::NoSolution);
        assert_eq!(judge_sets(&s(&["a"]), Some(&s(&[])), None, true).kind, VerdictKind::Differs);
        assert_eq!(judge_sets(&s(&["a"]), Some(&s(&["b"])), None, false).kind, VerdictKind::Differs);
        assert_eq!(judge_sets(&s(&["a", "b"]), Some(&s(&["a", "b"])), None, false).kind, VerdictKind::Sound);
        assert_eq!(judge_sets(&s(&["a", "b"]), Some(&s(&["a", "b"])), Some(1), false).kind, VerdictKind::Cooked);
        assert_eq!(judge_sets(&s(&["a"]), None, Some(2), false).kind, VerdictKind::Differs);
        assert_eq!(judge_sets(&s(&["a", "b"]), None, None, false).kind, VerdictKind::Cooked);
        assert_eq!(judge_sets(&s(&["a"]), None, None, false).kind, VerdictKind::Sound);
    }

    #[test]
    fn short_solutions_are_cooks() {
        // One short line and nothing stated: the count alone would say sound.
        let mut v = judge_sets(&s(&["a"]), None, None, false);
        count_short_cooks(&mut v, &s(&["a"]), &s(&["a"]), None, None);
        assert_eq!((v.kind, v.reason.as_str()), (VerdictKind::Cooked, "short solution a; 1 found, 1 intended"));
        // Nothing stated: the intended one is a line of full length, the others are cooks.
        let found = s(&["a", "c", "d"]);
        let mut v = judge_sets(&found, None, None, false);
        count_short_cooks(&mut v, &found, &s(&["a"]), None, None);
        assert_eq!(v.reason, "short solution a; 3 found, 1 intended; other cooks: d");
        assert_eq!(v.extra, s(&["a", "d"]));
        // Stated with the others: the short ones are named first, the other cooks after.
        let found = s(&["a", "b", "c", "d"]);
        let mut v = judge_sets(&found, Some(&s(&["c"])), None, false);
        count_short_cooks(&mut v, &found, &s(&["a", "b"]), Some(&s(&["c"])), None);
        assert_eq!(v.kind, VerdictKind::Cooked);
        assert_eq!(v.reason, "short solutions a; b; 4 found, 1 intended; other cooks: d");
        // A stated short solution is intended.
        let found = s(&["a", "c"]);
        let mut v = judge_sets(&found, Some(&found), None, false);
        count_short_cooks(&mut v, &found, &s(&["a"]), Some(&found), None);
        assert_eq!(v.kind, VerdictKind::Sound);
        // Differs stays differs, and says so.
        let mut v = judge_sets(&found, Some(&s(&["b"])), None, false);
        count_short_cooks(&mut v, &found, &s(&["a"]), Some(&s(&["b"])), None);
        assert_eq!(v.kind, VerdictKind::Differs);
        assert!(v.reason.ends_with("; short solution a"), "{}", v.reason);
    }
}
