//! Errors of problem files: every fault names the file, the document, the problem's first
//! line, and the line and column where it lies.

use std::fmt;
use thiserror::Error;

/// A fault in one document of a problem file.
///
/// ```
/// use feerie::problem::ProblemError;
/// let e = ProblemError {
///     file: "problems/x.yaml".into(),
///     document: 3,
///     first_line: "Loyd, Samuel — #3".into(),
///     line: 12,
///     column: 7,
///     message: "square 'i9' is off the board".into(),
/// };
/// assert_eq!(
///     e.to_string(),
///     "problems/x.yaml: document 3 (\"Loyd, Samuel — #3\"), line 12, column 7: square 'i9' is off the board"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ProblemError {
    /// The file, as given.
    pub file: String,
    /// The document's number in the file, from 1.
    pub document: usize,
    /// A one-line summary of the problem (authors and stipulation, or its first text line).
    pub first_line: String,
    /// Line of the fault in the file, from 1.
    pub line: usize,
    /// Column of the fault, from 1 (in characters).
    pub column: usize,
    /// What is wrong, in plain words.
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: document {} (\"{}\"), line {}, column {}: {}",
            self.file, self.document, self.first_line, self.line, self.column, self.message
        )
    }
}

/// A problem file that cannot be read at all.
#[derive(Debug, Error)]
#[error("{path}: cannot read the file: {source}")]
pub struct LoadError {
    /// The path, as given.
    pub path: String,
    /// The cause.
    #[source]
    pub source: std::io::Error,
}

/// A fault found while reading a document, before it has a line and column: the message, the
/// key path where it lies and the text to point at there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// What is wrong.
    pub message: String,
    /// Key path (`["algebraic", "white"]`); empty for the whole document.
    pub path: Vec<String>,
    /// The text to point at within that key's block, if any.
    pub needle: Option<String>,
}

impl Fault {
    /// A fault at a key's value.
    pub(crate) fn at(path: &[&str], message: impl Into<String>) -> Fault {
        Fault { message: message.into(), path: path.iter().map(|s| s.to_string()).collect(), needle: None }
    }
    /// A fault at a text within a key's block.
    pub(crate) fn on(path: &[&str], needle: &str, message: impl Into<String>) -> Fault {
        Fault { message: message.into(), path: path.iter().map(|s| s.to_string()).collect(), needle: Some(needle.to_string()) }
    }
}
