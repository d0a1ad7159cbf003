//! Reports: Popeye-like text, Popeye's own output layout ([`popeye`]), JSON Lines and YAML
//! records, and an HTML page ([`html`]).
//!
//! A [`Record`] is the result for one problem and twin, with stable field names (`file`,
//! `document`, `twin`, `stipulation`, `verdict`, `reason`, `solutions`, `tree`, `stated`,
//! `elapsed_ms`); the text form is written from the same record.

pub mod html;
pub mod popeye;
pub mod text;

pub use crate::record::{Record, ReserveState};

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
