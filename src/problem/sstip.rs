//! Popeye's structured stipulations (`SStipulation`, German `SForderung`, French `SEnonce`):
//! the play as a tree of branches, forks, leaves and constraints (Popeye's manual
//! `py-engl.txt`, "sstipulation").
//!
//! ```text
//! sstipulation white 5s[#]            five series moves, then Black is mate (ser-#5)
//! sstipulation white 3a[1a[#]d]d      semi-r#2
//! sstipulation black 6hh[/2da[#]{!+}] a help play after which White's mate cannot be parried
//! ```
//!
//! [`SStipulation::parse`] reads the text into an [`SStipulation`] (typed errors with the
//! column, never a panic); [`SStipulation::translate`] gives the ordinary [`Stipulation`] a
//! structured one is a synonym of (the manual's table: `5s[#]` = `ser-#5`, `3a[+]d` = `+2`, …),
//! when there is one; the others are played by [`crate::solve::structured`].
//!
//! ```
//! use feerie::problem::sstip::SStipulation;
//! use feerie::piece::Color;
//! let s = SStipulation::parse("white 3a[1a[#]d]d{!1a[#]d}").unwrap();
//! assert_eq!(s.side, Color::White);
//! assert_eq!(s.to_string(), "white 3a[1a[#]d]d{!1a[#]d}");
//! assert_eq!(s.translate().unwrap().stipulation.to_string(), "r#2");
//! let e = SStipulation::parse("white 3a[#d").unwrap_err();
//! assert_eq!(e.column, 11);
//! ```

use super::stipulation::{Parry, Play, Stipulation};
use crate::piece::Color;
use crate::rules::Goal;
use std::fmt;

/// Largest length of a branch, in half-moves.
pub const MAX_HALF_MOVES: u32 = 999;

/// Deepest nesting of brackets, braces and parentheses the reader accepts.
const MAX_DEPTH: usize = 32;

/// A structured stipulation: the side that moves first and the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SStipulation {
    /// The side at the move at the root (before any `-`).
    pub side: Color,
    /// The play.
    pub expr: Expr,
}

/// An expression: a leaf, a branch, or a logical combination of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A goal tested after a move (or, in a constraint, on the position).
    Leaf(Leaf),
    /// A nested branch.
    Branch(Box<Branch>),
    /// `!e`: the negation.
    Not(Box<Expr>),
    /// `a & b`.
    And(Box<Expr>, Box<Expr>),
    /// `a | b`.
    Or(Box<Expr>, Box<Expr>),
}

/// The goal of a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// A goal feerie plays.
    Goal(Goal),
    /// A goal of Popeye's that feerie does not play yet (`##`, `c81`, `ct`, …), as written.
    Other(String),
}

/// The kind of a branch: which letters it alternates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    /// `s`: series moves of one side.
    Series,
    /// `ad`: attack, then defence (battle play).
    AttackDefence,
    /// `da`: defence, then attack (battle play from the defender's move).
    DefenceAttack,
    /// `hh`: help moves.
    Help,
}

/// What follows one letter of a branch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Leaves and forks (`[...]`): what the move must reach (after `d`: what it defends
    /// against).
    pub forks: Vec<Expr>,
    /// Constraints (`{...}`), tested before each attacking move.
    pub constraints: Vec<Expr>,
    /// `?R?` before the letter: the move is granted only if R holds (R = `+`, in check).
    pub condition: Option<Leaf>,
}

/// A branch: `[>][/][-][m:]n` and its letters with their forks and constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// `>`: play in the containing branch ends where this branch has a solution.
    pub ends_play: bool,
    /// `/`: the moves of this branch are not printed.
    pub hidden: bool,
    /// `-`: the side to move is changed at the start of the branch.
    pub flip: bool,
    /// `m:` minimal length in half-moves, when given.
    pub min: Option<u32>,
    /// The maximal length in half-moves.
    pub max: u32,
    /// The letters.
    pub kind: BranchKind,
    /// The first letter's forks and constraints.
    pub first: Step,
    /// The second letter's (empty in series branches).
    pub second: Step,
}

/// Why a structured stipulation is refused, with the column (from 1, in the text given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("structured stipulation '{text}', column {column}: {kind}")]
pub struct SStipError {
    /// The text as given.
    pub text: String,
    /// The column of the fault, from 1 (one past the end when the text ends too early).
    pub column: usize,
    /// What is wrong.
    pub kind: SStipErrorKind,
}

/// What is wrong in a structured stipulation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SStipErrorKind {
    /// No side (`white`, `black`, `weiss`, `schwarz`, `blanc`, `noir`) at the start.
    #[error("expected the side to move (white or black), found '{0}'")]
    Side(String),
    /// The text ends where more is needed.
    #[error("the text ends too early: expected {0}")]
    End(&'static str),
    /// A character that does not fit where it stands.
    #[error("unexpected '{found}': expected {expected}")]
    Unexpected {
        /// The character found.
        found: char,
        /// What would fit.
        expected: &'static str,
    },
    /// A length that is too large or a minimum above the maximum.
    #[error("{0}")]
    Length(String),
    /// Operands of `&` or `|` of different groups (leaf, attack, defence).
    #[error("the operands of '{0}' must both be leaves, both attack branches (ad, hh, s) or both defence branches (da)")]
    Groups(char),
    /// Too deeply nested.
    #[error("nested more than {MAX_DEPTH} levels deep")]
    TooDeep,
}

/// The group of an expression (the manual's "leaf", "attack" and "defense").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// A goal.
    Leaf,
    /// `ad`, `hh` or `s` branches.
    Attack,
    /// `da` branches.
    Defence,
}

impl Expr {
    /// The group of the expression.
    pub fn group(&self) -> Group {
        match self {
            Expr::Leaf(_) => Group::Leaf,
            Expr::Branch(b) if b.kind == BranchKind::DefenceAttack => Group::Defence,
            Expr::Branch(_) => Group::Attack,
            Expr::Not(e) | Expr::And(e, _) | Expr::Or(e, _) => e.group(),
        }
    }
}

/// The goals of a leaf, longest first where one begins another.
const GOALS: &[(&str, Option<Goal>)] = &[
    ("##!", None),
    ("##", None),
    ("#=", Some(Goal::MateOrStalemate)),
    ("#", Some(Goal::Mate)),
    ("!=", Some(Goal::AutoStalemate)),
    ("==", Some(Goal::DoubleStalemate)),
    ("=", Some(Goal::Stalemate)),
    ("+", Some(Goal::Check)),
    ("~", Some(Goal::AnyMove)),
    ("%", Some(Goal::WinPiece)),
    ("x", Some(Goal::Capture)),
    ("ep", Some(Goal::EnPassant)),
    ("00", Some(Goal::Castling)),
    ("<>r", None),
    ("<>", None),
    ("c81", None),
    ("ctr", None),
    ("ct", None),
    ("dia", None),
    ("a=>b", None),
];

struct Reader<'a> {
    text: &'a str,
    chars: Vec<char>,
    i: usize,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, kind: SStipErrorKind) -> SStipError {
        SStipError { text: self.text.to_string(), column: self.i + 1, kind }
    }
    fn skip_ws(&mut self) {
        while self.chars.get(self.i).is_some_and(|c| c.is_whitespace()) {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.chars.get(self.i).copied()
    }
    /// The next character, right here (no spaces skipped).
    fn here(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn unexpected(&self, expected: &'static str) -> SStipError {
        match self.here() {
            Some(found) => self.err(SStipErrorKind::Unexpected { found, expected }),
            None => self.err(SStipErrorKind::End(expected)),
        }
    }
    fn expect(&mut self, c: char, expected: &'static str) -> Result<(), SStipError> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }
    fn starts_with(&self, s: &str) -> bool {
        let mut j = self.i;
        for c in s.chars() {
            match self.chars.get(j) {
                Some(d) if d.eq_ignore_ascii_case(&c) => j += 1,
                _ => return false,
            }
        }
        true
    }
    fn enter(&mut self) -> Result<(), SStipError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(self.err(SStipErrorKind::TooDeep)) } else { Ok(()) }
    }

    /// expr := unary (('&' | '|') unary)*, from left to right.
    fn expr(&mut self) -> Result<Expr, SStipError> {
        self.enter()?;
        let mut left = self.unary()?;
        while let Some(op @ ('&' | '|')) = self.peek() {
            let at = self.i;
            self.i += 1;
            let right = self.unary()?;
            if left.group() != right.group() {
                self.i = at;
                return Err(self.err(SStipErrorKind::Groups(op)));
            }
            left = if op == '&' { Expr::And(Box::new(left), Box::new(right)) } else { Expr::Or(Box::new(left), Box::new(right)) };
        }
        self.depth -= 1;
        Ok(left)
    }

    /// unary := '!' unary | '(' expr ')' | branch | leaf.
    fn unary(&mut self) -> Result<Expr, SStipError> {
        match self.peek() {
            // `!=` is the goal auto-stalemate, not the negation of `=`.
            Some('!') if !self.starts_with("!=") => {
                self.i += 1;
                self.enter()?;
                let e = self.unary()?;
                self.depth -= 1;
                Ok(Expr::Not(Box::new(e)))
            }
            Some('(') => {
                self.i += 1;
                let e = self.expr()?;
                self.expect(')', "')'")?;
                Ok(e)
            }
            Some('>' | '/' | '-') => Ok(Expr::Branch(Box::new(self.branch()?))),
            Some(c) if c.is_ascii_digit() && !self.starts_with("00") => Ok(Expr::Branch(Box::new(self.branch()?))),
            Some(_) => Ok(Expr::Leaf(self.leaf()?)),
            None => Err(self.err(SStipErrorKind::End("a goal or a branch"))),
        }
    }

    fn leaf(&mut self) -> Result<Leaf, SStipError> {
        self.skip_ws();
        for &(t, g) in GOALS {
            if self.starts_with(t) {
                self.i += t.chars().count();
                return Ok(match g {
                    Some(g) => Leaf::Goal(g),
                    None => Leaf::Other(t.to_string()),
                });
            }
        }
        for (t, is_kiss) in [("z", false), ("k", true)] {
            if self.starts_with(t) {
                let sq: String = self.chars.iter().skip(self.i + 1).take(2).collect();
                match crate::position::parse_sq(&sq.to_ascii_lowercase()) {
                    Some(s) if sq.chars().count() == 2 => {
                        self.i += 3;
                        return Ok(if is_kiss { Leaf::Other(format!("k{sq}")) } else { Leaf::Goal(Goal::Target(s)) });
                    }
                    _ => {
                        self.i += 1;
                        return Err(self.unexpected("a square after the goal"));
                    }
                }
            }
        }
        Err(self.unexpected("a goal (#, =, ==, +, x, …) or a branch (e.g. 2hh[#])"))
    }

    fn number(&mut self) -> Result<u32, SStipError> {
        self.skip_ws();
        let start = self.i;
        while self.here().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return Err(self.unexpected("a number of half-moves"));
        }
        let digits: String = self.chars[start..self.i].iter().collect();
        match digits.parse::<u32>() {
            Ok(n) if n <= MAX_HALF_MOVES => Ok(n),
            _ => {
                self.i = start;
                Err(self.err(SStipErrorKind::Length(format!("{digits} half-moves is too many (at most {MAX_HALF_MOVES})"))))
            }
        }
    }

    /// branch := ['>'] ['/'] ['-'] [m ':'] n letter step [['?' R '?'] letter step].
    fn branch(&mut self) -> Result<Branch, SStipError> {
        let mut ends_play = false;
        let mut hidden = false;
        let mut flip = false;
        if self.peek() == Some('>') {
            ends_play = true;
            self.i += 1;
        }
        if self.peek() == Some('/') {
            hidden = true;
            self.i += 1;
        }
        if self.peek() == Some('-') {
            flip = true;
            self.i += 1;
        }
        let first_number = self.number()?;
        let (min, max) = if self.peek() == Some(':') {
            self.i += 1;
            let at = self.i;
            let max = self.number()?;
            if first_number > max {
                self.i = at;
                return Err(self.err(SStipErrorKind::Length(format!("the minimal length {first_number} is above the maximal {max}"))));
            }
            (Some(first_number), max)
        } else {
            (None, first_number)
        };
        let first_letter = self.letter()?;
        let first = self.step()?;
        if first_letter == 's' {
            return Ok(Branch { ends_play, hidden, flip, min, max, kind: BranchKind::Series, first, second: Step::default() });
        }
        let mut second = Step::default();
        if self.peek() == Some('?') {
            self.i += 1;
            self.enter()?;
            second.condition = Some(self.leaf()?);
            self.depth -= 1;
            self.expect('?', "'?' closing the condition")?;
        }
        let (want, kind) = match first_letter {
            'a' => ('d', BranchKind::AttackDefence),
            'd' => ('a', BranchKind::DefenceAttack),
            _ => ('h', BranchKind::Help),
        };
        let at = self.i;
        let second_letter = self.letter()?;
        if second_letter != want {
            self.i = at;
            self.skip_ws();
            return Err(self.unexpected(match want {
                'd' => "'d' after 'a'",
                'a' => "'a' after 'd'",
                _ => "'h' after 'h'",
            }));
        }
        let rest = self.step()?;
        second.forks = rest.forks;
        second.constraints = rest.constraints;
        Ok(Branch { ends_play, hidden, flip, min, max, kind, first, second })
    }

    fn letter(&mut self) -> Result<char, SStipError> {
        match self.peek().map(|c| c.to_ascii_lowercase()) {
            Some(c @ ('a' | 'd' | 'h' | 's')) => {
                self.i += 1;
                Ok(c)
            }
            _ => Err(self.unexpected("a branch letter (a, d, h or s)")),
        }
    }

    /// The forks `[...]` and constraints `{...}` after a letter.
    fn step(&mut self) -> Result<Step, SStipError> {
        let mut step = Step::default();
        loop {
            match self.peek() {
                Some('[') => {
                    self.i += 1;
                    step.forks.push(self.expr()?);
                    self.expect(']', "']'")?;
                }
                Some('{') => {
                    self.i += 1;
                    step.constraints.push(self.expr()?);
                    self.expect('}', "'}'")?;
                }
                _ => return Ok(step),
            }
        }
    }
}

/// The side words of the three languages.
const SIDES: &[(&str, Color)] = &[
    ("white", Color::White),
    ("black", Color::Black),
    ("weiss", Color::White),
    ("schwarz", Color::Black),
    ("blanc", Color::White),
    ("noir", Color::Black),
];

impl SStipulation {
    /// Reads a structured stipulation: the side (`white`, `black`, or the German and French
    /// words), then the play. Spaces between the parts are ignored; letters may be upper case.
    ///
    /// ```
    /// use feerie::problem::sstip::{SStipulation, SStipErrorKind};
    /// assert!(SStipulation::parse("schwarz 6hh[/2da[#]{!+}]").is_ok());
    /// let e = SStipulation::parse("white 4hh[#] & 3d[#]a").unwrap_err();
    /// assert!(matches!(e.kind, SStipErrorKind::Groups('&')));
    /// assert!(SStipulation::parse("green 2hh[#]").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<SStipulation, SStipError> {
        let mut r = Reader { text, chars: text.chars().collect(), i: 0, depth: 0 };
        r.skip_ws();
        let start = r.i;
        while r.here().is_some_and(|c| c.is_alphabetic()) {
            r.i += 1;
        }
        let word: String = r.chars[start..r.i].iter().collect::<String>().to_lowercase();
        let Some(&(_, side)) = SIDES.iter().find(|(w, _)| *w == word) else {
            r.i = start;
            let shown: String = r.chars[start..].iter().take_while(|c| !c.is_whitespace()).collect();
            return Err(r.err(SStipErrorKind::Side(shown)));
        };
        let expr = r.expr()?;
        if r.peek().is_some() {
            return Err(r.unexpected("the end, '&' or '|'"));
        }
        Ok(SStipulation { side, expr })
    }

    /// The side that makes the first move: [`SStipulation::side`], changed by a `-` at the
    /// start of the (first) branch.
    pub fn first_mover(&self) -> Color {
        let mut e = &self.expr;
        loop {
            match e {
                Expr::Branch(b) => return if b.flip { self.side.opponent() } else { self.side },
                Expr::Not(x) | Expr::And(x, _) | Expr::Or(x, _) => e = x,
                Expr::Leaf(_) => return self.side,
            }
        }
    }
}

impl fmt::Display for Leaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leaf::Goal(g) => write!(f, "{g}"),
            Leaf::Other(t) => f.write_str(t),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.forks {
            write!(f, "[{e}]")?;
        }
        for e in &self.constraints {
            write!(f, "{{{e}}}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ends_play {
            f.write_str(">")?;
        }
        if self.hidden {
            f.write_str("/")?;
        }
        if self.flip {
            f.write_str("- ")?;
        }
        if let Some(m) = self.min {
            write!(f, "{m}:")?;
        }
        write!(f, "{}", self.max)?;
        let (a, b) = match self.kind {
            BranchKind::Series => return write!(f, "s{}", self.first),
            BranchKind::AttackDefence => ('a', 'd'),
            BranchKind::DefenceAttack => ('d', 'a'),
            BranchKind::Help => ('h', 'h'),
        };
        write!(f, "{a}{}", self.first)?;
        if let Some(c) = &self.second.condition {
            write!(f, "?{c}?")?;
        }
        write!(f, "{b}{}", self.second)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Operands that are themselves `&` or `|` get parentheses when they stand on the
        // right (the reading is from left to right).
        let operand = |f: &mut fmt::Formatter<'_>, e: &Expr, right: bool| match e {
            Expr::And(..) | Expr::Or(..) if right => write!(f, "({e})"),
            _ => write!(f, "{e}"),
        };
        match self {
            Expr::Leaf(l) => write!(f, "{l}"),
            Expr::Branch(b) => write!(f, "{b}"),
            Expr::Not(e) => match e.as_ref() {
                Expr::And(..) | Expr::Or(..) => write!(f, "!({e})"),
                // `!=` would read back as the goal auto-stalemate: the stalemate negated
                // (or anything written from `=`) keeps its parentheses.
                _ if e.to_string().starts_with('=') => write!(f, "!({e})"),
                _ => write!(f, "!{e}"),
            },
            Expr::And(a, b) | Expr::Or(a, b) => {
                operand(f, a, false)?;
                f.write_str(if matches!(self, Expr::And(..)) { " & " } else { " | " })?;
                operand(f, b, true)
            }
        }
    }
}

impl fmt::Display for SStipulation {
    /// The stipulation in English, as Popeye reads it back (`white 3a[#]d`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", if self.side == Color::White { "white" } else { "black" }, self.expr)
    }
}

/// The ordinary stipulation a structured one is a synonym of, with what goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Translation {
    /// The stipulation.
    pub stipulation: Stipulation,
    /// Whether Popeye's `PostKeyPlay` goes with it (`3d[==]a` = `s==2` from the position
    /// after the key).
    pub post_key_play: bool,
}

impl Step {
    fn is_empty(&self) -> bool {
        self.forks.is_empty() && self.constraints.is_empty() && self.condition.is_none()
    }
    /// The one goal of a step that has a single leaf and nothing else.
    fn only_goal(&self) -> Option<Goal> {
        match (self.forks.as_slice(), self.constraints.is_empty(), &self.condition) {
            ([Expr::Leaf(Leaf::Goal(g))], true, None) => Some(*g),
            _ => None,
        }
    }
    /// The one nested branch of a step that has nothing else.
    fn only_branch(&self) -> Option<&Branch> {
        match (self.forks.as_slice(), self.constraints.is_empty(), &self.condition) {
            ([Expr::Branch(b)], true, None) => Some(b),
            _ => None,
        }
    }
}

impl Branch {
    /// The ordinary help or series stipulation a nested help or series branch plays, from
    /// the position it starts from (after its `-`), whatever its prefixes `/` and `>` (which
    /// only say what the enclosing play does with it); `None` when it is no synonym.
    pub fn nested_ordinary(&self) -> Option<Stipulation> {
        if !matches!(self.kind, BranchKind::Help | BranchKind::Series) {
            return None;
        }
        let plain = Branch { hidden: false, ends_play: false, flip: false, ..self.clone() };
        let t = translate_branch(&plain)?;
        (!t.post_key_play && !t.stipulation.is_battle()).then_some(t.stipulation)
    }

    /// A plain branch: no prefix, no minimum, no constraint.
    fn plain(&self) -> bool {
        !self.ends_play && !self.hidden && !self.flip && self.min.is_none()
    }
    /// `1a[g]d` or `1h[g]h` (one move that reaches the goal): the goal.
    fn one_move_to(&self) -> Option<Goal> {
        (self.plain() && self.max == 1 && matches!(self.kind, BranchKind::AttackDefence | BranchKind::Help) && self.second.is_empty())
            .then(|| self.first.only_goal())
            .flatten()
    }
    /// `1d[g]a`: one forced move that reaches the goal.
    fn forced_to(&self) -> Option<Goal> {
        (self.plain() && self.max == 1 && self.kind == BranchKind::DefenceAttack && self.second.is_empty())
            .then(|| self.first.only_goal())
            .flatten()
    }
    /// The exactness: `None` for no minimum, `Some(true)` for `n:n`, refused otherwise.
    fn exactness(&self) -> Option<bool> {
        match self.min {
            None => Some(false),
            Some(m) if m == self.max => Some(true),
            Some(_) => None,
        }
    }
}

fn stip(series: bool, play: Play, goal: Goal, moves: u32, half: bool) -> Stipulation {
    Stipulation::new(series, play, goal, moves, half)
}

impl SStipulation {
    /// The ordinary stipulation this one is a synonym of, as the manual's table has them,
    /// when there is one and its first mover is this one's: `Ns[g]` = `ser-gN`,
    /// `Ns[1h[g]h]` (or `1a[g]d`) = `ser-hgN`, `Ns[1d[g]a]` = `ser-sgN`, `Na[g]d` = `g(N+1)/2`,
    /// `Nad[g]` = `sgN/2`, `Nd[g]a` and `Nda[g]` the same under `PostKeyPlay`,
    /// `Na[1a[g]d]d` (with or without `>`) = `semi-rg`, with `{!1a[g]d}` = `rg`, `Nhh[g]` =
    /// `hgN/2`, `Nh[g]h` = `hg(N-1)/2.5`, `Nh[1d[g]a]h` = `hsg…`, `Nh[g]?+?h` = `phser-g…`,
    /// `Na[g]?+?d` = `pser-g…`, `n:n` = `exact-`, `1h[g]h & 2hh[g]` = `reci-hg1`, and
    /// `Nhh[2hh[g] & 1h[g]h]` = `reci-hg(N/2+1)`.
    ///
    /// ```
    /// use feerie::problem::sstip::SStipulation;
    /// let t = |s: &str| SStipulation::parse(s).unwrap().translate().map(|t| (t.stipulation.to_string(), t.post_key_play));
    /// assert_eq!(t("white 5s[#]"), Some(("ser-#5".into(), false)));
    /// assert_eq!(t("white 3d[==]a"), None); // White would not make the first move
    /// assert_eq!(t("black 3d[==]a"), Some(("s==2".into(), true)));
    /// assert_eq!(t("black - 7h[#]h"), Some(("h#3.5".into(), false)));
    /// ```
    pub fn translate(&self) -> Option<Translation> {
        let first = self.first_mover();
        let t = match &self.expr {
            Expr::Branch(b) => translate_branch(b).or_else(|| translate_nested_reci(b))?,
            Expr::And(a, b) => translate_reci(a, b, 1)?,
            _ => return None,
        };
        let battle = t.stipulation.is_battle();
        let mover = if t.post_key_play && battle { Color::Black } else { t.stipulation.first_mover(false) };
        (mover == first).then_some(t)
    }
}

/// `1h[g]h & 2hh[g]` in either order (reci-h#1), or the two nested ends of a longer one.
fn translate_reci(a: &Expr, b: &Expr, moves: u32) -> Option<Translation> {
    let (Expr::Branch(a), Expr::Branch(b)) = (a, b) else { return None };
    let pair = |own: &Branch, help: &Branch| -> Option<(Goal, Goal)> {
        let g_own = own.one_move_to()?;
        (help.plain() && help.kind == BranchKind::Help && help.max == 2 && help.first.is_empty()).then_some(())?;
        Some((g_own, help.second.only_goal()?))
    };
    let (own, help) = pair(a, b).or_else(|| pair(b, a))?;
    if own.by_move() || help.by_move() {
        return None;
    }
    let s = Stipulation { reci: Some(own), ..stip(false, Play::Help, help, moves, false) };
    Some(Translation { stipulation: s, post_key_play: false })
}

fn translate_branch(b: &Branch) -> Option<Translation> {
    if b.hidden || b.ends_play {
        return None;
    }
    let exact = b.exactness()?;
    let plain = |s: Stipulation| Some(Translation { stipulation: Stipulation { exact, ..s }, post_key_play: false });
    let n = b.max;
    match b.kind {
        BranchKind::Series => {
            if n == 0 || !b.second.is_empty() {
                return None;
            }
            if let Some(g) = b.first.only_goal() {
                return plain(stip(true, Play::Direct, g, n, false));
            }
            // `Ns[...]{!1a[g]d}` = ser-r, with `>` in the fork or not.
            let (fork, reflex) = match (b.first.forks.as_slice(), b.first.constraints.as_slice(), &b.first.condition) {
                ([Expr::Branch(f)], [], None) => (f.as_ref(), false),
                ([Expr::Branch(f)], [Expr::Not(c)], None) => match c.as_ref() {
                    Expr::Branch(c) if c.one_move_to().is_some() && c.one_move_to() == strip_end(f).one_move_to() => (f.as_ref(), true),
                    _ => return None,
                },
                _ => return None,
            };
            if reflex {
                if exact {
                    return None;
                }
                let g = strip_end(fork).one_move_to()?;
                return plain(stip(true, Play::Reflex, g, n, false));
            }
            // With a goal of the move the series goes on after a move from which the goal
            // could be reached (`2s[1a[x]d]`: `1.g7-g6   2.g6-g5 h4*g5 x`), where `ser-hx2`
            // stops: the interpreter plays it.
            if let Some(g) = fork.one_move_to().filter(|g| !g.by_move()) {
                return plain(stip(true, Play::Help, g, n, false));
            }
            if let Some(g) = fork.forced_to() {
                return plain(stip(true, Play::SelfPlay, g, n, false));
            }
            None
        }
        BranchKind::AttackDefence | BranchKind::DefenceAttack => {
            if !b.first.constraints.is_empty() && !b.second.constraints.is_empty() {
                return None;
            }
            let post_key = b.kind == BranchKind::DefenceAttack;
            // Name the steps by side: `a` the attacker's, `d` the defender's.
            let (a, d) = if post_key { (&b.second, &b.first) } else { (&b.first, &b.second) };
            if a.condition.is_some() {
                return None;
            }
            // Half-moves in the full length counted from an attacker's move: the post-key
            // forms have the key taken off.
            let full = if post_key { n + 1 } else { n };
            let parry = d.condition.as_ref().map(|c| *c == Leaf::Goal(Goal::Check));
            if parry == Some(false) {
                return None;
            }
            let d_clean = d.forks.is_empty() && d.constraints.is_empty();
            let with = |s: Stipulation| {
                let s = if parry == Some(true) { Stipulation { series: true, parry: Some(Parry::Defence), ..s } } else { s };
                if parry == Some(true) && (post_key || exact || s.play == Play::SemiReflex) {
                    return None;
                }
                Some(Translation { stipulation: Stipulation { exact, ..s }, post_key_play: post_key })
            };
            // Direct play: the goal after the attacker's move, an odd number of half-moves.
            if d_clean && full % 2 == 1 {
                if let Some(g) = a.only_goal() {
                    return with(stip(false, Play::Direct, g, full.div_ceil(2), false));
                }
                // Semi-reflex and reflex play: a nested `1a[g]d` after the attacker's move.
                let (fork, reflex) = match (a.forks.as_slice(), a.constraints.as_slice()) {
                    ([Expr::Branch(f)], []) => (f.as_ref(), false),
                    _ => return None,
                };
                let g = strip_end(fork).one_move_to()?;
                let _ = reflex;
                return with(stip(false, Play::SemiReflex, g, full.div_ceil(2), false));
            }
            // `{!1a[g]d}` on the defender's step: reflex play.
            if full % 2 == 1 && d.forks.is_empty() && a.constraints.is_empty() {
                if let ([Expr::Branch(f)], [Expr::Not(c)]) = (a.forks.as_slice(), d.constraints.as_slice())
                    && let Expr::Branch(c) = c.as_ref()
                {
                    let g = strip_end(f).one_move_to()?;
                    if c.one_move_to() == Some(g) {
                        return with(stip(false, Play::Reflex, g, full.div_ceil(2), false));
                    }
                }
                return None;
            }
            // Self play: the goal after the defender's move, an even number of half-moves.
            if full.is_multiple_of(2)
                && a.forks.is_empty()
                && a.constraints.is_empty()
                && d.constraints.is_empty()
                && let Some(g) = d.only_goal()
            {
                return with(stip(false, Play::SelfPlay, g, full / 2, false));
            }
            // Quodlibet and the rest are not.
            None
        }
        BranchKind::Help => {
            if !b.first.constraints.is_empty() || !b.second.constraints.is_empty() || b.first.condition.is_some() {
                return None;
            }
            // The step that ends the play: the second letter for an even length.
            let (last, other) = if n.is_multiple_of(2) { (&b.second, &b.first) } else { (&b.first, &b.second) };
            if !other.forks.is_empty() || n == 0 {
                return None;
            }
            // `- ` changes who begins; feerie's help play begins with Black (White in n.5):
            // the check on the first mover is made by the caller.
            let parry = last.condition.is_some() || other.condition.is_some();
            let help = |g: Goal, play: Play, plies: u32| -> Option<Translation> {
                let s = stip(false, play, g, plies / 2, plies % 2 == 1);
                plain(s)
            };
            if parry {
                // `Nh[g]?+?h` = phser-g(N+1)/2, `Nh[1h[g]h]?+?h` = pser-hg…, `Nh[1d[g]a]?+?h` =
                // phser-sg…: an odd length, the condition on the second h.
                if n.is_multiple_of(2) || b.second.condition != Some(Leaf::Goal(Goal::Check)) || b.first.condition.is_some() || exact {
                    return None;
                }
                let (play, g) = match (last.only_goal(), last.only_branch()) {
                    (Some(g), _) => (Play::Direct, g),
                    (None, Some(f)) => match (f.one_move_to(), f.forced_to()) {
                        (Some(g), _) => (Play::Help, g),
                        (None, Some(g)) => (Play::SelfPlay, g),
                        _ => return None,
                    },
                    _ => return None,
                };
                if g.by_move() {
                    return None;
                }
                let s = Stipulation { parry: Some(Parry::Help), ..stip(true, play, g, n.div_ceil(2), false) };
                return Some(Translation { stipulation: s, post_key_play: false });
            }
            if let Some(g) = last.only_goal() {
                return help(g, Play::Help, n);
            }
            let fork = last.only_branch()?;
            // `Nh[1d[g]a]h`: help-self play.
            if let Some(g) = fork.forced_to() {
                return help(g, Play::HelpSelf, n + 1);
            }
            None
        }
    }
}

/// A nested branch without its `>` (the forms where `>` changes nothing: `3a[>1a[#]d]d`).
fn strip_end(b: &Branch) -> Branch {
    Branch { ends_play: false, ..b.clone() }
}

/// Reciprocal help play nested in a help branch: `Nhh[2hh[g]&1h[g]h]`.
fn translate_nested_reci(b: &Branch) -> Option<Translation> {
    if b.kind != BranchKind::Help
        || !b.plain()
        || b.max % 2 == 1
        || !b.first.is_empty()
        || b.second.constraints.len() + usize::from(b.second.condition.is_some()) > 0
    {
        return None;
    }
    match b.second.forks.as_slice() {
        [Expr::And(x, y)] => translate_reci(x, y, b.max / 2 + 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> SStipulation {
        SStipulation::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn synonym(s: &str) -> Option<(String, bool)> {
        parse(s).translate().map(|t| (t.stipulation.to_string(), t.post_key_play))
    }

    /// Every example of Popeye's manual with the synonym it names (the side added where the
    /// manual leaves it out: the side that makes the synonym's first move).
    #[test]
    fn the_manuals_synonyms() {
        for (text, want, post_key) in [
            ("white 5s[#]", "ser-#5", false),
            ("white 3a[+]d", "+2", false),
            ("white 4ad[x]", "sx2", false),
            ("black 3d[==]a", "s==2", true),
            ("white 5h[=]h", "h=2.5", false),
            ("white 3a[1a[#]d]d", "semi-r#2", false),
            ("white 6s[1d[#]a]", "ser-s#6", false),
            ("white 3a[1a[#]d]d{!1a[#]d}", "r#2", false),
            ("white 3a[>1a[#]d]d{!1a[#]d}", "r#2", false),
            ("black 4:4hh[#]", "exact-h#2", false),
            ("black - 7h[#]h", "h#3.5", false),
            ("white 7h[#]?+?h", "phser-#4", false),
            ("black 1h[#]h & 2hh[#]", "reci-h#1", false),
            ("white 15a[#]?+?d", "pser-#8", false),
            ("white 15a[>1a[#]d]?+?d{!1a[#]d}", "pser-r#8", false),
            ("black 15h[1a[#]d]?+?h", "pser-h#8", false),
            ("white 15h[1d[#]a]?+?h", "phser-s#8", false),
            // Popeye's suite (sford.inp), with the stipulation its remarks name.
            ("weiss 1a[#]d", "#1", false),
            ("weiss - 6da[#]", "#4", true),
            ("schwarz 1d[#]a", "s#1", true),
            ("weiss - 1d[#]a", "s#1", true),
            ("weiss 1a[za7]d", "za71", false),
            ("schwarz 2hh[#]", "h#1", false),
            ("weiss 2s[#]", "ser-#2", false),
            ("schwarz 1s[1h[#]h]", "ser-h#1", false),
            ("schwarz 2hh[#]&1h[#]h", "reci-h#1", false),
            ("weiss 3a[>1a[#]d]d", "semi-r#2", false),
            ("schwarz 2hh[2hh[#]&1h[#]h]", "reci-h#2", false),
            ("schwarz 2hh[1h[#]h&2hh[#]]", "reci-h#2", false),
            ("schwarz 4hh[x]", "hx2", false),
            ("schwarz 2s[1a[#]d]", "ser-h#2", false),
            ("schwarz 2:2s[1a[=]d]", "exact-ser-h=2", false),
            ("weiss 2s[1a[x]d]{!1a[x]d}", "ser-rx2", false),
            ("weiss 3:3a[#]d", "exact-#2", false),
            ("black 13h[1h[#]h]?+?h", "pser-h#7", false),
            ("white 3h[1d[#]a]h", "hs#2", false),
        ] {
            assert_eq!(synonym(text), Some((want.to_string(), post_key)), "{text}");
        }
    }

    /// The manual's forms that are no ordinary stipulation.
    #[test]
    fn forms_without_synonym() {
        for text in [
            "black 4hh[1a[#]d]",
            "white 4a[#=]d[#=]",
            "white 3a[#][1a[#]d]d",
            "white 3:5s[#]",
            "white 3h[- 4hh[#]]h",
            "white 3h[1a[x]d]h",
            "black 2s[1a[x]d]",
            "white 3h[>1a[x]d]h",
            "black 6hh[/2da[#]{!+}]",
            "white 1a[!#]d",
            "black 1h[- 14hh[#]]h",
            "black - 5h[/1d[x]a{!+}]h",
            "white 15a[>1a[#]d]?+?d",
            "white 3d[==]a",
            "black 4hh[#] & ( 4ad[#] | 4hh[=] )",
        ] {
            assert_eq!(synonym(text), None, "{text}");
        }
    }

    /// Regression (found by `tests/sstip_grammar.rs`): `white ! =`, the stalemate negated,
    /// was written `white !=` and read back as the goal auto-stalemate.
    #[test]
    fn negated_stalemate_reads_back() {
        let s = parse("white ! =");
        assert_eq!(s.expr, Expr::Not(Box::new(Expr::Leaf(Leaf::Goal(Goal::Stalemate)))));
        assert_eq!(s.to_string(), "white !(=)");
        assert_eq!(parse(&s.to_string()), s);
        let auto = parse("white !=");
        assert_eq!(auto.expr, Expr::Leaf(Leaf::Goal(Goal::AutoStalemate)));
        assert_eq!(parse(&auto.to_string()), auto);
    }

    #[test]
    fn structure_and_text() {
        let s = parse("schwarz 6hh[/2da[#]{!+}]");
        let Expr::Branch(b) = &s.expr else { panic!() };
        assert_eq!((b.max, b.kind, b.min), (6, BranchKind::Help, None));
        let Expr::Branch(n) = &b.second.forks[0] else { panic!() };
        assert!(n.hidden && !n.flip && n.kind == BranchKind::DefenceAttack);
        assert_eq!(n.second.forks, vec![Expr::Leaf(Leaf::Goal(Goal::Mate))]);
        assert_eq!(n.second.constraints, vec![Expr::Not(Box::new(Expr::Leaf(Leaf::Goal(Goal::Check))))]);
        // Written back as Popeye reads it, and read again the same.
        for text in [
            "white 3a[#]d & - 4hh[#] & 4ad[#] & - 4hh[=]",
            "black 4hh[#] & (4ad[#] | 4hh[=])",
            "white 9s [- 1d[x]a]",
            "black 3s[1s[-1s[+]]{x}]",
            "black 4h{!x}h[x]",
            "white 4a[#=]d[#=]",
            "white 1a[!x&#]d",
            "black 10:12hh[#]",
            "white 13h[00]?+?h",
            "black 4hh[##]",
            "white 2hh[!=]",
        ] {
            let s = parse(text);
            assert_eq!(parse(&s.to_string()), s, "{text} → {s}");
        }
        assert_eq!(parse("black 4hh[##]").translate(), None);
        assert_eq!(parse("white 2hh[!=]").expr.to_string(), "2hh[!=]");
        assert_eq!(parse("white 2hh[!#]").expr.to_string(), "2hh[!#]");
        assert_eq!(parse("white - 6da[#]").first_mover(), Color::Black);
    }

    #[test]
    fn errors_name_the_column() {
        for (text, column) in [
            ("", 1),
            ("purple 2hh[#]", 1),
            ("white", 6),
            ("white 2hh[#", 12),
            ("white 2hx[#]", 9),
            ("white 2ha[#]", 9),
            ("white 5:3hh[#]", 9),
            ("white 99999999999hh[#]", 7),
            ("white 2hh[#] 3", 14),
            ("white 2hh[q]", 11),
            ("white 2hh[#] & 1d[#]a", 14),
            ("white 2hh[z]", 12),
        ] {
            let e = SStipulation::parse(text).unwrap_err();
            assert_eq!(e.column, column, "{text}: {e}");
        }
        let deep = format!("white {}#{}", "(".repeat(100), ")".repeat(100));
        assert!(matches!(SStipulation::parse(&deep).unwrap_err().kind, SStipErrorKind::TooDeep));
        let deep = format!("white {}", "!".repeat(10_000));
        assert!(SStipulation::parse(&deep).is_err());
    }
}
