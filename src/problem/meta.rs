//! Metadata of a problem (authors, source, award, keywords, comments), read tolerantly: numbers
//! as strings, dates in several shapes, one author or a list.

use super::yaml::{field, scalar, texts, untag};
use serde::Serialize;
use serde_yaml::{Mapping, Value};

/// What a problem file says about a problem besides the problem itself; kept for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Meta {
    /// Authors, as written (`Loyd, Samuel`).
    pub authors: Vec<String>,
    /// The source in words: name, issue, date (`Le Sphinx, 1866`).
    pub source: Option<String>,
    /// The award in words (`1st Prize, Meredith Memorial Tourney`).
    pub award: Option<String>,
    /// Keywords.
    pub keywords: Vec<String>,
    /// Comments.
    pub comments: Vec<String>,
    /// A one-line title: authors, source name and year (`Loyd, Samuel, Le Sphinx 1866`).
    pub title: String,
}

/// A date in words: `{year: 1866, month: 3}` → `1866-03`, `1866` → `1866`, text as written.
fn date(v: &Value) -> Option<String> {
    match untag(v) {
        Value::Mapping(m) => {
            let y = field(m, "year").and_then(scalar)?;
            let mut s = y;
            if let Some(mo) = field(m, "month").and_then(scalar) {
                s.push_str(&format!("-{mo:0>2}"));
                if let Some(d) = field(m, "day").and_then(scalar) {
                    s.push_str(&format!("-{d:0>2}"));
                }
            }
            Some(s)
        }
        v => scalar(v),
    }
}

fn year(v: &Value) -> Option<String> {
    match untag(v) {
        Value::Mapping(m) => field(m, "year").and_then(scalar),
        v => scalar(v),
    }
}

/// The source: a text, or `{name, issue, volume, date}`; also its name and year for the title.
fn source(v: &Value) -> (Option<String>, Option<String>, Option<String>) {
    match untag(v) {
        Value::Mapping(m) => {
            let name = field(m, "name").and_then(scalar);
            let mut parts: Vec<String> = name.iter().cloned().collect();
            if let Some(vol) = field(m, "volume").and_then(scalar) {
                parts.push(format!("vol. {vol}"));
            }
            if let Some(i) = field(m, "issue").and_then(scalar) {
                parts.push(format!("issue {i}"));
            }
            if let Some(p) = field(m, "problemno").or_else(|| field(m, "problem")).and_then(scalar) {
                parts.push(format!("no. {p}"));
            }
            let y = field(m, "date").and_then(year);
            if let Some(d) = field(m, "date").and_then(date) {
                parts.push(d);
            }
            let text = if parts.is_empty() { field(m, "problemid").and_then(scalar) } else { Some(parts.join(", ")) };
            (text, name, y)
        }
        v => {
            let s = scalar(v);
            (s.clone(), s, None)
        }
    }
}

fn award(v: &Value) -> Option<String> {
    match untag(v) {
        Value::Mapping(m) => {
            let mut parts: Vec<String> = Vec::new();
            if let Some(n) = field(m, "name").and_then(scalar) {
                parts.push(n);
            }
            if let Some(t) = field(m, "tourney") {
                match untag(t) {
                    Value::Mapping(tm) => {
                        if let Some(n) = field(tm, "name").and_then(scalar) {
                            parts.push(n);
                        }
                    }
                    t => parts.extend(scalar(t)),
                }
            }
            if parts.is_empty() { None } else { Some(parts.join(", ")) }
        }
        v => scalar(v),
    }
}

/// Authors in one line: `Loyd, Samuel & Shinkman, William` for names written "Last, First";
/// joined with commas otherwise (so that `[Loyd, Samuel]`, which YAML reads as two items, still
/// shows as `Loyd, Samuel`).
pub fn join_authors(authors: &[String]) -> String {
    if authors.iter().any(|a| a.contains(',')) { authors.join(" & ") } else { authors.join(", ") }
}

/// Reads the metadata of a document.
pub(crate) fn read_meta(map: &Mapping) -> Meta {
    let authors = field(map, "authors").or_else(|| field(map, "author")).map(|v| texts(v, false)).unwrap_or_default();
    let (source_text, source_name, source_year) = field(map, "source").map(source).unwrap_or((None, None, None));
    let award = field(map, "award").and_then(award);
    let keywords = field(map, "keywords").map(|v| texts(v, false)).unwrap_or_default();
    let comments = field(map, "comments").or_else(|| field(map, "comment")).map(|v| texts(v, false)).unwrap_or_default();
    let mut title_parts: Vec<String> = Vec::new();
    if !authors.is_empty() {
        title_parts.push(join_authors(&authors));
    }
    match (source_name, source_year) {
        (Some(n), Some(y)) => title_parts.push(format!("{n} {y}")),
        (Some(n), None) => title_parts.push(n),
        (None, Some(y)) => title_parts.push(y),
        (None, None) => {}
    }
    let title = title_parts.join(", ").replace(['\n', '\r'], " ");
    Meta { authors, source: source_text, award, keywords, comments, title }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerant_shapes() {
        let v: Value = serde_yaml::from_str(
            "authors: Loyd, Samuel\nsource: {name: Le Sphinx, issue: '50', date: {year: 1866}}\naward: {name: 1st Prize, tourney: {name: T}}",
        )
        .unwrap();
        let m = read_meta(v.as_mapping().unwrap());
        assert_eq!(m.authors, vec!["Loyd, Samuel"]);
        assert_eq!(m.source.as_deref(), Some("Le Sphinx, issue 50, 1866"));
        assert_eq!(m.title, "Loyd, Samuel, Le Sphinx 1866");
        assert_eq!(m.award.as_deref(), Some("1st Prize, T"));
        let v: Value = serde_yaml::from_str("source: {name: X, date: '1965-1967'}").unwrap();
        assert_eq!(read_meta(v.as_mapping().unwrap()).title, "X 1965-1967");
    }
}
