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
use crate::problem::stipulation::Play;
use crate::problem::{Loaded, Problem, StatedTwin, Variant};
use crate::report::Record;
use crate::solve::{Phase, SolveOptions, solve};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Instant;

/// The verdict on one problem (or twin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub enum VerdictKind {
    /// The stated solution is exactly what exists.
    #[serde(rename = "sound")]
    Sound,
    /// More solutions than intended.
    #[serde(rename = "cooked")]
    Cooked,
    /// No solution at all.
    #[serde(rename = "no solution")]
    NoSolution,
    /// The stated solution is not (all) among those found, or fewer solutions than intended.
    #[serde(rename = "differs")]
    Differs,
    /// A feature not supported yet.
    #[serde(rename = "unsupported")]
    Unsupported,
    /// The input is broken.
    #[serde(rename = "invalid")]
    Invalid,
    /// The time limit ran out (or the run was interrupted).
    #[serde(rename = "timed out")]
    TimedOut,
}

impl VerdictKind {
    /// The word used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Sound => "sound",
            VerdictKind::Cooked => "cooked",
            VerdictKind::NoSolution => "no solution",
            VerdictKind::Differs => "differs",
            VerdictKind::Unsupported => "unsupported",
            VerdictKind::Invalid => "invalid",
            VerdictKind::TimedOut => "timed out",
        }
    }
    /// Every kind, in report order.
    pub const ALL: [VerdictKind; 7] = [
        VerdictKind::Sound,
        VerdictKind::Cooked,
        VerdictKind::NoSolution,
        VerdictKind::Differs,
        VerdictKind::Unsupported,
        VerdictKind::Invalid,
        VerdictKind::TimedOut,
    ];
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
        post_key: o.post_key_play,
        ..base.clone()
    }
}

fn is_battle(v: &Variant) -> bool {
    !v.stipulation.series && matches!(v.stipulation.play, Play::Direct | Play::SelfPlay | Play::Reflex)
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

/// Solves every variant of a problem and judges each against the stated solution.
pub fn check_problem(p: &Problem, base: &SolveOptions) -> Vec<Record> {
    let title = if p.meta.title.is_empty() { p.first_line.clone() } else { p.meta.title.clone() };
    let variants = match p.variants() {
        Ok(v) => v,
        Err(e) => {
            return vec![Record {
                file: p.file.clone(),
                document: p.document,
                twin: "a".into(),
                twin_change: String::new(),
                stipulation: p.stipulation.to_string(),
                title,
                verdict: VerdictKind::Invalid,
                reason: e.to_string(),
                solutions: Vec::new(),
                tries: Vec::new(),
                tree: Vec::new(),
                stated: p.stated.as_ref().map(|s| s.text.clone()),
                elapsed_ms: 0,
                nodes: 0,
                reserve: None,
            }];
        }
    };
    let count = variants.len();
    let mut out = Vec::new();
    for (i, v) in variants.iter().enumerate() {
        let start = Instant::now();
        let opts = options_for(v, base);
        let solved = solve(&v.position, &v.stipulation, &opts);
        let battle = is_battle(v);
        let mut solutions = Vec::new();
        let mut tries = Vec::new();
        for ph in &solved.phases {
            solutions.extend(solutions_of(battle, ph));
            tries.extend(ph.tries.iter().map(|t| vec![t.mv.clone()]));
        }
        let stated = stated_for(p, &v.label, i, count);
        let found: Vec<String> = solutions.iter().map(|s| s.join(" ")).collect();
        let stated_list: Option<Vec<String>> =
            stated.map(|t| if battle { t.keys.clone() } else { t.lines.iter().map(|l| l.join(" ")).collect() });
        let usable = !opts.post_key && stated.is_some_and(|t| !t.illegal) && p.stated.as_ref().is_some_and(|s| s.problems.is_empty());
        let intended = if count > 1 { None } else { p.intended_solutions };
        let mut verdict = judge_sets(
            &found,
            if usable { stated_list.as_deref() } else { None },
            intended,
            usable && stated.is_some_and(|t| t.no_solution),
        );
        if !solved.complete {
            verdict.kind = VerdictKind::TimedOut;
            verdict.reason = format!("stopped before the search ended; {} found so far", found.len());
        }
        out.push(Record {
            file: p.file.clone(),
            document: p.document,
            twin: v.label.clone(),
            twin_change: if v.label == "a" { String::new() } else { v.description.clone() },
            stipulation: v.stipulation.to_string(),
            title: title.clone(),
            verdict: verdict.kind,
            reason: verdict.reason,
            solutions,
            tries,
            tree: solved.phases,
            stated: p.stated.as_ref().map(|s| s.text.clone()),
            elapsed_ms: start.elapsed().as_millis() as u64,
            nodes: solved.nodes,
            reserve: crate::report::ReserveState::of(&v.position),
        });
    }
    out
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

/// Text of one record, Popeye-like, in `lang`.
pub fn record_text(r: &Record, stip: Option<&crate::problem::Stipulation>, lang: Lang) -> String {
    let mut s = format!("{} #{}", r.file, r.document);
    if r.twin != "a" || !r.twin_change.is_empty() {
        s.push_str(&format!(" twin {}) {}", r.twin, r.twin_change));
    }
    s.push_str(&format!("  {}  {}\n", r.stipulation, r.title));
    if let Some(res) = &r.reserve {
        s.push_str(&crate::report::text::reserve_line(res, lang));
        s.push('\n');
    }
    if let Some(st) = stip {
        for ph in &r.tree {
            s.push_str(&crate::report::text::phase(st, ph, lang));
        }
    }
    s.push_str(&format!("verdict: {} ({}), {} ms\n", r.verdict, r.reason, r.elapsed_ms));
    s
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
}
