//! The result of checking one problem (or twin), as verify writes it and report renders it:
//! game-neutral (moves as text with marks), so that neither needs a game's position.

use crate::solve::Phase;
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// The search stopped before its end: the time limit ran out, the run was interrupted,
    /// or `MaxSolutions` ended it before the verdict was known.
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

/// The result for one problem and twin.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The file it came from.
    pub file: String,
    /// 1-based number of the document in the file.
    pub document: usize,
    /// The twin: `a` for the diagram, `b`, `c`, … for the twins.
    pub twin: String,
    /// The twin's change, e.g. `Move b4 f3` (empty for the diagram).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub twin_change: String,
    /// The stipulation as written.
    pub stipulation: String,
    /// A one-line title: authors, source.
    #[serde(default)]
    pub title: String,
    /// The verdict.
    pub verdict: VerdictKind,
    /// Why.
    pub reason: String,
    /// Every solution: for `#n`, `s#n`, `r#n` the one-move list of its key; for help and
    /// series play the whole line. Moves in Popeye's English long algebraic, without marks.
    pub solutions: Vec<Vec<String>>,
    /// The short solutions among `solutions` (help and series play): lines with fewer moves
    /// than stipulated, each a cook unless stated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_solutions: Vec<Vec<String>>,
    /// Tries (battle play with `Try`), as one-move lists.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tries: Vec<Vec<String>>,
    /// The full solution tree (one phase, two with duplex).
    #[serde(default)]
    pub tree: Vec<Phase>,
    /// The stated solution text, if the file has one.
    #[serde(default)]
    pub stated: Option<String>,
    /// Wall-clock time of the solve.
    pub elapsed_ms: u64,
    /// Positions the search visited (0 when nothing was solved). Not written in JSON or YAML:
    /// it depends on the thread count, and the records must not (`solve --stats` shows it).
    #[serde(skip)]
    pub nodes: u64,
    /// Échecs Réserve: the condition and the reserves of the twin's position (absent when no
    /// Réserve condition is in force).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve: Option<ReserveState>,
}

/// The Réserve condition and the reserves of a position, as reports show them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ReserveState {
    /// `Reserve`, `WhiteReserve` or `BlackReserve`.
    pub condition: String,
    /// White's reserve as Popeye codes in English (`[S, P]`), repeats for several pieces.
    pub white: Vec<String>,
    /// Black's reserve.
    pub black: Vec<String>,
}

impl ReserveState {
    /// The state of `p`, or `None` when no Réserve condition is in force.
    ///
    /// ```
    /// use feerie::position::{Position, ReserveRule};
    /// use feerie::report::ReserveState;
    /// let mut p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[SPp] w - - 0 1").unwrap();
    /// assert_eq!(ReserveState::of(&p), None);
    /// p.set_reserve_rule(ReserveRule { white: true, black: true });
    /// let r = ReserveState::of(&p).unwrap();
    /// assert_eq!((r.condition.as_str(), r.white.len(), r.black.len()), ("Reserve", 2, 1));
    /// ```
    pub fn of(p: &crate::position::Position) -> Option<ReserveState> {
        let condition = crate::problem::options::reserve_name(p.reserve_rule())?.to_string();
        let side = |c: crate::piece::Color| -> Vec<String> {
            crate::piece::Kind::CHESS
                .iter()
                .flat_map(|&k| std::iter::repeat_n(k.code().to_string(), p.reserve_count(c, k) as usize))
                .collect()
        };
        Some(ReserveState { condition, white: side(crate::piece::Color::White), black: side(crate::piece::Color::Black) })
    }
}
