//! The YAML stream: documents found in the raw text (with their line numbers), tags that
//! serde_yaml would refuse blanked out, tolerant readers of `serde_yaml::Value`, and the search
//! for the line and column of a key or a value.

use serde_yaml::Value;

/// One document of a stream, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawDoc {
    /// Number in the file, from 1 (documents holding only comments are not counted).
    pub number: usize,
    /// The document's text; document markers and directives are blanked, so that its line
    /// `k` (from 1) is the file's line `offset + k`.
    pub text: String,
    /// Lines of the file before the document's first line.
    pub offset: usize,
}

fn is_marker(line: &str, m: &str) -> bool {
    line.strip_prefix(m).is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r']))
}

fn has_content(lines: &[String]) -> bool {
    lines.iter().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    })
}

/// Tags that old Olive files carry and that only wrap strings.
const BLANKED_TAGS: &[&str] = &["!!python/unicode", "!!python/str", "!<tag:yaml.org,2002:python/unicode>"];

fn blank_tags(line: &str) -> String {
    let mut s = line.to_string();
    for t in BLANKED_TAGS {
        while let Some(i) = s.find(t) {
            s.replace_range(i..i + t.len(), &" ".repeat(t.len()));
        }
    }
    s
}

/// Splits a stream on `---` and `...` lines.
pub(crate) fn split_documents(text: &str) -> Vec<RawDoc> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut docs = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut start = 0usize;
    let mut in_doc = false; // a `---` has been seen for the current document
    let mut number = 0;
    let mut finish = |lines: &mut Vec<String>, start: usize, docs: &mut Vec<RawDoc>| {
        if has_content(lines) {
            number += 1;
            docs.push(RawDoc { number, text: lines.join("\n"), offset: start });
        }
        lines.clear();
    };
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if is_marker(line, "---") {
            finish(&mut current, start, &mut docs);
            start = i;
            in_doc = true;
            current.push(format!("   {}", blank_tags(&line[3..])));
        } else if is_marker(line, "...") {
            current.push(String::new());
            finish(&mut current, start, &mut docs);
            start = i + 1;
            in_doc = false;
        } else if line.starts_with('%') && !in_doc && !has_content(&current) {
            // A directive before the document.
            current.push(String::new());
        } else {
            current.push(blank_tags(line));
        }
    }
    finish(&mut current, start, &mut docs);
    docs
}

/// The first line of a document that holds something, trimmed and shortened (for errors
/// about documents that cannot be read).
pub(crate) fn first_text_line(text: &str) -> String {
    let l = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')).unwrap_or("");
    // Without a trailing comment.
    let l = match l.find(" #") {
        Some(i) => l[..i].trim_end(),
        None => l,
    };
    shorten(l, 60)
}

/// Cuts a text to `n` characters, with `…` when cut.
pub(crate) fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { format!("{}…", s.chars().take(n.saturating_sub(1)).collect::<String>()) }
}

/// Whether a text must be quoted to be read back as the same text: in a block (`key: text`)
/// or in a flow list (`[text]`). YAML itself decides: the text is plain only when the parser
/// reads it back unchanged as a string (so `#2`, `yes`, `1.5`, `a: b`, `[x]` are quoted).
pub(crate) fn needs_quotes(text: &str, flow: bool) -> bool {
    if plainly_plain(text) {
        return false;
    }
    needs_quotes_parsed(text, flow)
}

/// Words that YAML reads as something else than a string whatever follows them.
const NOT_STRINGS: &[&str] = &["true", "false", "null"];

/// A cheap sufficient test for plain text (most of a Popeye file's words): a letter first, then
/// only letters, digits, single spaces and `&`, `+`, `-`, `.`, `/`, `_`, `=`, `(`, `)`, and not
/// one of YAML's words for true, false and null. None of these can open or end a YAML token
/// after a letter, in a block or in a flow list (`tests` below checks it against the parser).
fn plainly_plain(text: &str) -> bool {
    let b = text.as_bytes();
    let Some(first) = b.first() else { return false };
    first.is_ascii_alphabetic()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || b" &+-./_=()".contains(c))
        && !text.ends_with(' ')
        && !text.contains("  ")
        && !NOT_STRINGS.iter().any(|w| w.eq_ignore_ascii_case(text))
}

/// [`needs_quotes`] asked of the parser itself.
fn needs_quotes_parsed(text: &str, flow: bool) -> bool {
    if text.is_empty() || text.contains(['\n', '\r', '\t', '\'', '"']) || text.trim() != text {
        return true;
    }
    let doc = if flow { format!("k: [{text}]") } else { format!("k: {text}") };
    let Ok(Value::Mapping(m)) = serde_yaml::from_str::<Value>(&doc) else { return true };
    let v = m.get("k");
    let back = match v {
        Some(Value::Sequence(s)) if flow && s.len() == 1 => s.first(),
        Some(v) if !flow => Some(v),
        _ => None,
    };
    !matches!(back, Some(Value::String(s)) if s == text)
}

/// The value without its tag.
pub(crate) fn untag(v: &Value) -> &Value {
    match v {
        Value::Tagged(t) => untag(&t.value),
        v => v,
    }
}

/// A scalar as text (`None` for null, sequences and mappings).
pub(crate) fn scalar(v: &Value) -> Option<String> {
    match untag(v) {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A field of a mapping, looked up case-insensitively, with `_` and `-` alike.
pub(crate) fn field<'a>(map: &'a serde_yaml::Mapping, name: &str) -> Option<&'a Value> {
    let want = name.to_ascii_lowercase().replace('_', "-");
    map.iter().find(|(k, _)| scalar(k).is_some_and(|k| k.to_ascii_lowercase().replace('_', "-") == want)).map(|(_, v)| untag(v))
}

/// A list of texts: a sequence of scalars, or one scalar (split by `split` when given).
pub(crate) fn texts(v: &Value, split: bool) -> Vec<String> {
    match untag(v) {
        Value::Sequence(s) => s.iter().filter_map(scalar).collect(),
        Value::Null => Vec::new(),
        v => match scalar(v) {
            Some(s) if split => s.split([',', ' ', '\t', '\n']).filter(|w| !w.is_empty()).map(str::to_string).collect(),
            Some(s) => vec![s],
            None => Vec::new(),
        },
    }
}

/// The kind of a value in plain words.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match untag(v) {
        Value::Null => "nothing",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

/// Finds keys and values in a document's text, for line and column numbers.
pub(crate) struct Locator<'a> {
    lines: Vec<&'a str>,
    offset: usize,
}

/// A place in a document: line index (from 0) and byte index in the line.
type Place = (usize, usize);

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

impl<'a> Locator<'a> {
    /// A locator over a document's text; `offset` lines of the file come before it.
    pub(crate) fn new(text: &'a str, offset: usize) -> Locator<'a> {
        Locator { lines: text.split('\n').collect(), offset }
    }

    /// The file line (from 1) and column (from 1, in characters) of a place.
    pub(crate) fn file_pos(&self, (l, b): Place) -> (usize, usize) {
        let line = self.lines.get(l).copied().unwrap_or("");
        let b = b.min(line.len());
        let col = line.get(..b).map(|s| s.chars().count()).unwrap_or(0) + 1;
        (self.offset + l + 1, col)
    }

    /// The place of a byte index into the document's text (as the YAML parser reports its
    /// errors). The parser's own line numbers also count a lone `\r`, U+0085, U+2028 and
    /// U+2029 as line breaks, which the file's lines (split on `\n`) do not.
    pub(crate) fn place_of_index(&self, index: usize) -> Place {
        let mut rest = index;
        for (l, line) in self.lines.iter().enumerate() {
            if rest <= line.len() {
                return (l, rest);
            }
            rest -= line.len() + 1;
        }
        let last = self.lines.len().saturating_sub(1);
        (last, self.lines.get(last).map_or(0, |l| l.len()))
    }

    /// The first line that holds something.
    pub(crate) fn start(&self) -> Place {
        let l = self
            .lines
            .iter()
            .position(|l| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with('#')
            })
            .unwrap_or(0);
        (l, indent(self.lines.get(l).copied().unwrap_or("")))
    }

    /// Finds `word` in the lines from `from` (inclusive) to `to` (exclusive), as a whole word.
    fn find_word(&self, word: &str, from: Place, to: usize, key: bool) -> Option<Place> {
        if word.is_empty() {
            return None;
        }
        for l in from.0..to.min(self.lines.len()) {
            let line = self.lines[l];
            let mut start = if l == from.0 { from.1.min(line.len()) } else { 0 };
            while let Some(i) = line.get(start..).and_then(|s| s.find(word)) {
                let at = start + i;
                let end = at + word.len();
                let before_ok = at == 0 || !is_word_byte(line.as_bytes()[at - 1]) || !is_word_byte(word.as_bytes()[0]);
                let after_ok = end >= line.len() || !is_word_byte(line.as_bytes()[end]) || !is_word_byte(word.as_bytes()[word.len() - 1]);
                let key_ok = !key || line[end..].trim_start_matches(['"', '\'']).trim_start().starts_with(':');
                let comment = line[..at].contains(" #") || line.trim_start().starts_with('#');
                if before_ok && after_ok && key_ok && !comment {
                    return Some((l, at));
                }
                start = at + word.len().max(1);
                while start < line.len() && !line.is_char_boundary(start) {
                    start += 1;
                }
            }
        }
        None
    }

    /// The end (exclusive line index) of the block that starts at a key on line `l`.
    fn block_end(&self, l: usize) -> usize {
        let ind = indent(self.lines[l]);
        let mut e = l + 1;
        while e < self.lines.len() {
            let t = self.lines[e].trim();
            if !t.is_empty() && !t.starts_with('#') && indent(self.lines[e]) <= ind && !t.starts_with('-') {
                break;
            }
            if !t.is_empty() && indent(self.lines[e]) < ind {
                break;
            }
            e += 1;
        }
        e
    }

    /// The place of a key path (`["algebraic", "white"]`), each key searched in the block of
    /// the one before.
    pub(crate) fn key(&self, path: &[&str]) -> Option<Place> {
        let mut from: Place = (0, 0);
        let mut to = self.lines.len();
        let mut found = None;
        for (depth, k) in path.iter().enumerate() {
            let p = if depth == 0 {
                // A top-level key: prefer one at the smallest indentation.
                (0..self.lines.len())
                    .filter_map(|l| self.find_word(k, (l, 0), l + 1, true))
                    .min_by_key(|&(l, b)| (indent(self.lines[l]) < b, indent(self.lines[l]), l))
            } else {
                self.find_word(k, from, to, true)
            }?;
            found = Some(p);
            from = (p.0, p.1 + k.len());
            to = self.block_end(p.0);
        }
        found
    }

    /// The second place of a key at the smallest indentation where it occurs (a duplicate).
    pub(crate) fn second_key(&self, key: &str) -> Option<Place> {
        let found: Vec<Place> = (0..self.lines.len()).filter_map(|l| self.find_word(key, (l, 0), l + 1, true)).collect();
        let least = found.iter().map(|&(l, _)| indent(self.lines[l])).min()?;
        found.into_iter().filter(|&(l, _)| indent(self.lines[l]) == least).nth(1)
    }

    /// The place of the value of a key path: just after `key:`.
    pub(crate) fn value_of(&self, path: &[&str]) -> Option<Place> {
        let (l, b) = self.key(path)?;
        let line = self.lines[l];
        let colon = line[b..].find(':').map(|i| b + i + 1)?;
        let rest = &line[colon..];
        let skip = rest.len() - rest.trim_start().len();
        if colon + skip >= line.len() || rest.trim_start().starts_with('#') {
            // The value is on the next lines.
            let e = self.block_end(l);
            for n in l + 1..e {
                let t = self.lines[n].trim();
                if !t.is_empty() && !t.starts_with('#') {
                    return Some((n, indent(self.lines[n])));
                }
            }
            return Some((l, b));
        }
        Some((l, colon + skip))
    }

    /// The place of `needle` within the block of a key path (or anywhere when the path is
    /// empty); falls back on the key's place, then on the document's start.
    pub(crate) fn find(&self, path: &[&str], needle: &str) -> Place {
        let (from, to) = if path.is_empty() {
            ((0, 0), self.lines.len())
        } else {
            match self.key(path) {
                Some(p) => (p, self.block_end(p.0)),
                None => return self.start(),
            }
        };
        self.find_word(needle.trim(), from, to, false)
            .or_else(|| if path.is_empty() { None } else { self.value_of(path) })
            .unwrap_or_else(|| self.start())
    }

    /// The place of a key path's value, or the document's start.
    pub(crate) fn at(&self, path: &[&str]) -> Place {
        self.value_of(path).unwrap_or_else(|| self.start())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The quick test never calls plain what the parser would read back otherwise.
    #[test]
    fn plainly_plain_words_are_plain_for_the_parser() {
        let words = [
            "Circe",
            "Take&Make",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "n",
            "Yes",
            "NO",
            "True",
            "null",
            "Null",
            "nan",
            "inf",
            "NaN",
            "e5",
            "x1",
            "a-b",
            "h#2",
            "a b",
            "a  b",
            "a (b)",
            "R=x",
            "Kc1",
            "b/w",
            "a.b",
            "a_b",
            "a+b",
            "a =b",
        ];
        for w in words {
            for flow in [false, true] {
                assert!(!plainly_plain(w) || !needs_quotes_parsed(w, flow), "{w:?} flow {flow}");
            }
        }
        let plain = ["Circe", "Take&Make", "a-b", "Kc1", "a (b)"];
        assert!(plain.iter().all(|w| plainly_plain(w)));
        assert!(!plainly_plain("true") && !plainly_plain("h#2") && !plainly_plain("1.5") && !plainly_plain("a: b"));
    }

    proptest! {
        #[test]
        fn plainly_plain_agrees_with_the_parser(w in "[a-zA-Z][a-zA-Z0-9 &+./_=()-]{0,12}") {
            for flow in [false, true] {
                prop_assert!(!plainly_plain(&w) || !needs_quotes_parsed(&w, flow), "{:?} flow {}", w, flow);
            }
        }
    }

    #[test]
    fn documents_and_lines() {
        let text = "# comment\n---\na: 1\n---\n# only a comment\n---\nb: 2\n...\n";
        let docs = split_documents(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].offset, 1);
        assert_eq!(docs[1].number, 2);
        let loc = Locator::new(&docs[1].text, docs[1].offset);
        assert_eq!(loc.file_pos(loc.at(&["b"])), (7, 4));
    }

    #[test]
    fn nested_keys_and_values() {
        let text = "stipulation: '#2'\nalgebraic:\n  white: [Kb6, Ri9]\n  black:\n  - Kd6\n";
        let loc = Locator::new(text, 10);
        assert_eq!(loc.file_pos(loc.find(&["algebraic", "white"], "Ri9")), (13, 16));
        assert_eq!(loc.file_pos(loc.find(&["algebraic", "black"], "Kd6")), (15, 5));
        assert_eq!(loc.file_pos(loc.at(&["stipulation"])), (11, 14));
    }

    #[test]
    fn python_tags_are_blanked() {
        let docs = split_documents("---\nname: !!python/unicode 'x'\n");
        let v: Value = serde_yaml::from_str(&docs[0].text).unwrap();
        assert_eq!(v["name"], Value::String("x".into()));
    }
}
