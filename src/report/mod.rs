//! Reports: Popeye-like text, JSON Lines and YAML records, and an HTML page ([`html`]).
//!
//! A [`Record`] is the result for one problem and twin, with stable field names (`file`,
//! `document`, `twin`, `stipulation`, `verdict`, `reason`, `solutions`, `tree`, `stated`,
//! `elapsed_ms`); the text form is written from the same record.

pub mod html;
pub mod text;

use crate::solve::Phase;
use crate::verify::VerdictKind;
use serde::{Deserialize, Serialize};

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
    /// Positions the search visited (0 when nothing was solved).
    #[serde(default)]
    pub nodes: u64,
}

/// Writes one record as a JSON line.
pub fn json_line(r: &Record) -> String {
    serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// Writes one record as a YAML document (with its `---` separator).
pub fn yaml_doc(r: &Record) -> String {
    match serde_yaml::to_string(r) {
        Ok(s) => format!("---\n{s}"),
        Err(e) => format!("---\nerror: '{e}'\n"),
    }
}
