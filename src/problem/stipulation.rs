//! Stipulations: `[exact-][ser-|pser-|phser-][reci-|semi-][h|s|r|hs|hr]GOAL n[.5]`, with Popeye's
//! meaning.

use crate::rules::Goal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who plays against whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Play {
    /// Direct play (`#n`): White forces the goal against every defence.
    Direct,
    /// Help play (`h#n`): both sides cooperate.
    Help,
    /// Self play (`s#n`): White forces Black to reach the goal against White.
    SelfPlay,
    /// Reflex play (`r#n`): as self play, but a side that can reach the goal in one must.
    Reflex,
    /// Help-self play (`hs#n`): help play, then Black is forced to reach the goal.
    HelpSelf,
    /// Semi-reflex play (`semi-r#n`): as self play, but the defender that can reach the goal
    /// in one must (the attacker is not bound).
    SemiReflex,
    /// Help-reflex play (`hr#n`, Popeye's "help forced reflexmate"): help play, then Black
    /// must reach the goal in one; on the way, a side that can reach the goal in one must
    /// (Black then ends a short solution, White spoils the line).
    HelpReflex,
}

/// How the opponent of the series side answers a check in parry series play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parry {
    /// `pser-` (direct, self and reflex ends): every parry must be answered; the lines show
    /// each parry with the series side's shortest continuations after it.
    Defence,
    /// `phser-`, and `pser-h`: the parry is a help move, one that leads on is enough.
    Help,
}

/// A parsed stipulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stipulation {
    /// Series play (`ser-`): one side makes all its moves in a row.
    pub series: bool,
    /// The kind of play.
    pub play: Play,
    /// The goal.
    pub goal: Goal,
    /// Number of (full) moves `n`.
    pub moves: u32,
    /// `n.5`: help play with one half-move more (White begins).
    pub half: bool,
    /// Parry series (`pser-`, `phser-`; with `series`): a series move may give check, and the
    /// opponent then parries it with one move before the series goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parry: Option<Parry>,
    /// `exact-`: only play of the full length counts (no short solutions).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// Reciprocal help play (`reci-h#n`, `reci-h(=)#n`): the goal Black reaches with its own
    /// last move, besides the help play in which White reaches [`Stipulation::goal`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reci: Option<Goal>,
    /// Intro moves (`N->ser-#n`, series play only): before the series, the other side makes
    /// this many moves in a row (none of them giving check), numbered on their own
    /// (`1.b6-b7   1.a7-a5   2.a5-a4 …`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub intro: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Stipulation {
    /// A plain stipulation (no `exact-`, parry or reciprocal form).
    ///
    /// ```
    /// use feerie::problem::stipulation::{Play, Stipulation};
    /// use feerie::rules::Goal;
    /// assert_eq!(Stipulation::new(false, Play::Help, Goal::Mate, 2, true).to_string(), "h#2.5");
    /// ```
    pub fn new(series: bool, play: Play, goal: Goal, moves: u32, half: bool) -> Stipulation {
        Stipulation { series, play, goal, moves, half, parry: None, exact: false, reci: None, intro: 0 }
    }

    /// Number of half-moves of a help line: `2n` for `h#n`, `2n+1` for `h#n.5`.
    pub fn help_plies(&self) -> u32 {
        2 * self.moves + self.half as u32
    }

    /// Whether the play is a tree of keys, threats and defences (direct, self, reflex and
    /// semi-reflex play, not in series) rather than lines.
    pub fn is_battle(&self) -> bool {
        !self.series && matches!(self.play, Play::Direct | Play::SelfPlay | Play::Reflex | Play::SemiReflex)
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.intro > 0 {
            write!(f, "{}->", self.intro)?;
        }
        if self.exact {
            f.write_str("exact-")?;
        }
        if self.series {
            f.write_str(match self.parry {
                None => "ser-",
                Some(Parry::Defence) => "pser-",
                Some(Parry::Help) if self.play == Play::Help => "pser-",
                Some(Parry::Help) => "phser-",
            })?;
        }
        if self.reci.is_some() {
            f.write_str("reci-")?;
        }
        f.write_str(match self.play {
            Play::Direct => "",
            // Proof games are help play without the letter (`dia4`, but `ser-hdia2`).
            Play::Help if self.goal.is_proof() && !self.series => "",
            Play::Help => "h",
            Play::SelfPlay => "s",
            Play::Reflex => "r",
            Play::HelpSelf => "hs",
            Play::HelpReflex => "hr",
            Play::SemiReflex => "semi-r",
        })?;
        if let Some(g) = self.reci.filter(|&g| g != self.goal) {
            write!(f, "({g})")?;
        }
        write!(f, "{}", self.goal)?;
        write!(f, "{}", self.moves)?;
        if self.half {
            f.write_str(".5")?;
        }
        Ok(())
    }
}

/// Why a stipulation text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StipulationError {
    /// Nothing was given.
    #[error("the stipulation is empty")]
    Empty,
    /// The goal is not followed by a number of moves (`h#`).
    #[error("stipulation '{0}' has no length")]
    NoLength(String),
    /// Well-formed, but feerie cannot solve it yet (`reci-h#`, goal `##`, …).
    #[error("not supported yet: {0}")]
    Unsupported(String),
    /// Not a stipulation at all.
    #[error("stipulation '{text}' is not understood: {reason}")]
    Malformed {
        /// The text as given.
        text: String,
        /// What is wrong, in plain words.
        reason: String,
    },
}

/// Largest number of moves a stipulation may ask for.
pub const MAX_MOVES: u32 = 999;

/// The goals feerie solves, longest first (so that `#=` is read before `#`, `==` before
/// `=`, `<>r` before `<>`, `ctr` before `ct`); the target square `zxy` and the kiss `kxy` are
/// read apart.
const GOALS: &[(&str, Goal)] = &[
    ("<>r", Goal::ExchangeByRebirth),
    ("<>", Goal::Exchange),
    ("ctr", Goal::CircuitByRebirth),
    ("ct", Goal::Circuit),
    ("##!", Goal::CounterMate),
    ("##", Goal::DoubleMate),
    ("#=", Goal::MateOrStalemate),
    ("#", Goal::Mate),
    ("!=", Goal::AutoStalemate),
    ("!#", Goal::AutoMate),
    ("==", Goal::DoubleStalemate),
    ("=", Goal::Stalemate),
    ("+", Goal::Check),
    ("~", Goal::AnyMove),
    ("%", Goal::WinPiece),
    ("x", Goal::Capture),
    ("ep", Goal::EnPassant),
    ("00", Goal::Castling),
    ("c81", Goal::Chess81),
];

/// A prefix of the play: `exact-`, `ser-`, `pser-`, `phser-`, `reci-`, `semi-`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prefix {
    Exact,
    Series,
    Parry,
    HelpParry,
    Reci,
    Semi,
}

/// The prefixes as written (longest first where one begins another).
const PREFIXES: [(&str, Prefix); 7] = [
    ("exact-", Prefix::Exact),
    ("phser-", Prefix::HelpParry),
    ("pser-", Prefix::Parry),
    ("pser", Prefix::Parry),
    ("ser-", Prefix::Series),
    ("reci-", Prefix::Reci),
    ("semi-", Prefix::Semi),
];

fn malformed(text: &str, reason: impl Into<String>) -> StipulationError {
    StipulationError::Malformed { text: text.to_string(), reason: reason.into() }
}

/// Reads `n` or `n.5` at the start of `rest`; returns (moves, half, what follows).
fn parse_length<'a>(text: &str, rest: &'a str) -> Result<(u32, bool, &'a str), StipulationError> {
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(match rest.chars().next() {
            None => StipulationError::NoLength(text.to_string()),
            Some(c) => malformed(text, format!("expected the number of moves, found '{c}'")),
        });
    }
    let moves: u32 = match rest[..digits].parse() {
        Ok(n) if n <= MAX_MOVES => n,
        _ => return Err(malformed(text, format!("{} moves is too many (at most {MAX_MOVES})", &rest[..digits]))),
    };
    let mut after = &rest[digits..];
    let mut half = false;
    if let Some(frac) = after.strip_prefix(['.', ',']) {
        let fd = frac.bytes().take_while(|b| b.is_ascii_digit()).count();
        if &frac[..fd] != "5" {
            return Err(malformed(text, format!("a length is a whole number or n.5, not '{}'", &rest[..digits + 1 + fd])));
        }
        half = true;
        after = &frac[fd..];
    }
    Ok((moves, half, after))
}

/// The proof-game goal at the start of `rest` (`dia`, YACPDB's `pg`, `a=>b`) and what follows.
fn proof_goal(rest: &str) -> Option<(Goal, &str)> {
    [("dia", Goal::Proof), ("pg", Goal::Proof), ("a=>b", Goal::AToB)].iter().find_map(|&(t, g)| rest.strip_prefix(t).map(|r| (g, r)))
}

/// The parry of a stipulation with these prefixes: `phser-` (or `pser-` in help play) is
/// parried by the help side, `pser-` otherwise by the defender.
fn parry_of(prefixes: &[Prefix], play: Play) -> Option<Parry> {
    let has = |p: Prefix| prefixes.contains(&p);
    if has(Prefix::HelpParry) || (has(Prefix::Parry) && play == Play::Help) {
        Some(Parry::Help)
    } else if has(Prefix::Parry) {
        Some(Parry::Defence)
    } else {
        None
    }
}

/// A proof game's stipulation (`dia4`, `dia3.5`, `exact-dia4`, `ser-dia8`, `ser-hdia2`,
/// `pser-hdia10`, `a=>b6`, `ser-a=>b2`, YACPDB's `PG 4.0`): its length is `n`, `n.5` (help
/// play only) or `n.0`; `reci-`, `semi-` and self, reflex and help-self play are refused.
fn proof_stipulation(shown: &str, goal: Goal, rest: &str, play: Play, prefixes: &[Prefix]) -> Result<Stipulation, StipulationError> {
    // `n.0` (YACPDB's `PG 4.0`, Popeye's `a=>b1.0`) is `n`.
    let rest = rest.strip_suffix(".0").or_else(|| rest.strip_suffix(",0")).unwrap_or(rest);
    let (moves, half, after) = parse_length(shown, rest)?;
    if !after.is_empty() {
        return Err(malformed(shown, format!("unexpected '{after}' after the length")));
    }
    let has = |p: Prefix| prefixes.contains(&p);
    if has(Prefix::Reci) || has(Prefix::Semi) {
        return Err(StipulationError::Unsupported(format!("reciprocal and semi-reflex proof games ('{shown}')")));
    }
    let series = has(Prefix::Series) || has(Prefix::Parry) || has(Prefix::HelpParry);
    let play = match (series, play) {
        (false, Play::Direct) => Play::Help,
        (true, Play::Direct) => Play::Direct,
        (true, Play::Help) => Play::Help,
        _ => return Err(malformed(shown, "a proof game is help play (dia, a=>b) or series play (ser-dia, ser-hdia)")),
    };
    if half && series {
        return Err(malformed(shown, "a length n.5 exists only in help play (dia n.5, a=>b n.5)"));
    }
    if moves == 0 && !half {
        return Err(malformed(shown, "the number of moves is 0"));
    }
    let parry = parry_of(prefixes, play);
    Ok(Stipulation { series, play, goal, moves, half, parry, exact: has(Prefix::Exact), reci: None, intro: 0 })
}

impl Stipulation {
    /// Parses Popeye's stipulation grammar `[N->][exact-][ser-|pser-|phser-][reci-|semi-][h|s|r|hs|hr]GOAL
    /// n[.5]` with GOAL one of `#`, `=`, `==`, `+`, `#=`, `!=`, `~`, `%`, `x`, `ep`, `00`, `##`,
    /// `##!`, `!#`, `<>`, `<>r`, `ct`, `ctr`, `z` with a square (`hzd54`) or `k` with a square
    /// (`hka71`), and `reci-h(G)GOAL n` (Black's own goal G in parentheses).
    /// Proof games: `[exact-][ser-|pser-|phser-][h]dia n[.5]`, `a=>b n[.5]` (YACPDB's `PG n.0`
    /// is `dia n`). Spaces are ignored and letters may be upper case. Forms Popeye knows but feerie does not
    /// solve yet (`pser-semi-r#2`, `2->h#3`) give
    /// [`StipulationError::Unsupported`].
    ///
    /// ```
    /// use feerie::problem::stipulation::{Play, Stipulation, StipulationError};
    /// let s = Stipulation::parse("ser-h#3").unwrap();
    /// assert!(s.series && s.play == Play::Help && s.moves == 3);
    /// assert_eq!(Stipulation::parse("h#2.5").unwrap().to_string(), "h#2.5");
    /// assert!(matches!(Stipulation::parse("h#"), Err(StipulationError::NoLength(_))));
    /// let p = Stipulation::parse("pser-s#7").unwrap();
    /// assert!(p.series && p.parry.is_some() && p.to_string() == "pser-s#7");
    /// assert_eq!(Stipulation::parse("reci-h(=)#3").unwrap().to_string(), "reci-h(=)#3");
    /// assert_eq!(Stipulation::parse("dia 5.5").unwrap().to_string(), "dia5.5");
    /// assert_eq!(Stipulation::parse("PG 4.0").unwrap().to_string(), "dia4");
    /// assert_eq!(Stipulation::parse("ser-a=>b2").unwrap().to_string(), "ser-a=>b2");
    /// ```
    pub fn parse(text: &str) -> Result<Stipulation, StipulationError> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(StipulationError::Empty);
        }
        let shown = text.trim();
        let lower = compact.to_lowercase();
        let mut rest = lower.as_str();
        // Intro moves: `N->`.
        let mut intro = 0;
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0
            && let Some(r) = rest[digits..].strip_prefix("->")
        {
            intro = match rest[..digits].parse() {
                Ok(n) if (1..=MAX_MOVES).contains(&n) => n,
                _ => return Err(malformed(shown, format!("{} intro moves is not a number of moves (1 to {MAX_MOVES})", &rest[..digits]))),
            };
            rest = r;
        }

        let mut prefixes: Vec<Prefix> = Vec::new();
        while let Some(&(text, pfx)) = PREFIXES.iter().find(|(t, _)| rest.starts_with(t)) {
            if prefixes.contains(&pfx) {
                return Err(malformed(shown, format!("'{}' is written twice", text.trim_end_matches('-'))));
            }
            prefixes.push(pfx);
            rest = &rest[text.len()..];
        }
        let has = |p: Prefix| prefixes.contains(&p);
        let plays_in_series = [Prefix::Series, Prefix::Parry, Prefix::HelpParry].iter().filter(|&&p| has(p)).count();
        if plays_in_series > 1 {
            return Err(malformed(shown, "ser-, pser- and phser- exclude each other"));
        }
        let series = plays_in_series == 1;
        let play = if let Some(r) = rest.strip_prefix("hs") {
            rest = r;
            Play::HelpSelf
        } else if let Some(r) = rest.strip_prefix("hr") {
            rest = r;
            Play::HelpReflex
        } else if let Some(r) = rest.strip_prefix('h') {
            rest = r;
            Play::Help
        } else if let Some(r) = rest.strip_prefix('s') {
            rest = r;
            Play::SelfPlay
        } else if let Some(r) = rest.strip_prefix('r') {
            rest = r;
            if has(Prefix::Semi) { Play::SemiReflex } else { Play::Reflex }
        } else {
            Play::Direct
        };
        if let Some((goal, r)) = proof_goal(rest) {
            if intro > 0 {
                return Err(StipulationError::Unsupported(format!("intro moves before a proof game ('{shown}')")));
            }
            return proof_stipulation(shown, goal, r, play, &prefixes);
        }
        if has(Prefix::Semi) && play != Play::SemiReflex {
            return Err(malformed(shown, "semi- goes only with reflex play (semi-r#n)"));
        }
        // `reci-h(=)#n`: the goal of Black's own last move, when it is not the help goal.
        let mut reci_goal = None;
        if has(Prefix::Reci)
            && let Some(r) = rest.strip_prefix('(')
        {
            let Some((inner, after)) = r.split_once(')') else {
                return Err(malformed(shown, "'(' without ')' in a reciprocal goal"));
            };
            match GOALS.iter().find(|(t, g)| *t == inner && !g.by_move()) {
                Some(&(_, g)) => reci_goal = Some(g),
                None => return Err(malformed(shown, format!("'({inner})' is not a goal of reciprocal play (#, =, ==, +)"))),
            }
            rest = after;
        }
        // Goal: the listed ones (longest first), then the target square `z` and the kiss `k`,
        // each with its square.
        let mut goal = None;
        if let Some(&(g, gl)) = GOALS.iter().find(|(g, _)| rest.starts_with(g) && !rest.starts_with("=>")) {
            goal = Some(gl);
            rest = &rest[g.len()..];
        } else if let Some((r, kiss)) = rest.strip_prefix('z').map(|r| (r, false)).or_else(|| rest.strip_prefix('k').map(|r| (r, true))) {
            let sq: String = r.chars().take(2).collect();
            match crate::position::parse_sq(&sq) {
                Some(s) if sq.len() == 2 => {
                    goal = Some(if kiss { Goal::Kiss(s) } else { Goal::Target(s) });
                    rest = &r[2..];
                }
                _ if kiss => return Err(malformed(shown, format!("the kiss goal 'k' needs a square (e.g. 'ka7'), found '{sq}'"))),
                _ => return Err(malformed(shown, format!("the target square goal 'z' needs a square (e.g. 'zd5'), found '{sq}'"))),
            }
        }
        let Some(goal) = goal else {
            return Err(match rest.chars().next() {
                None => malformed(shown, "no goal: expected a goal (#, =, ==, +, x, ~, …) followed by the number of moves"),
                Some(c) if c.is_ascii_digit() => {
                    malformed(shown, "the goal is missing before the number of moves (#, =, == or +), e.g. '#2' or 'h=3'")
                }
                Some(c) => malformed(
                    shown,
                    format!(
                        "unknown goal '{c}': expected [exact-][ser-|pser-|phser-][reci-|semi-][h|s|r|hs]GOAL n[.5] with GOAL one of #, =, ==, +, #=, !=, ~, %, x, ep, 00, zxy, <>, <>r, ct, ctr, kxy, e.g. '#2' or 'h#3.5'"
                    ),
                ),
            });
        };
        let (moves, half, after) = parse_length(shown, rest)?;
        if !after.is_empty() {
            return Err(malformed(shown, format!("unexpected '{after}' after the length")));
        }
        if half && (series || !matches!(play, Play::Help | Play::HelpSelf | Play::HelpReflex)) {
            return Err(malformed(shown, "a length n.5 exists only in help play (h, hs or hr, without ser-)"));
        }
        if moves == 0 && !half {
            return Err(malformed(shown, "the number of moves is 0"));
        }
        let parry = parry_of(&prefixes, play);
        let unsupported = |what: &str| Err(StipulationError::Unsupported(format!("{what} ('{shown}')")));
        if parry.is_some() && matches!(play, Play::HelpSelf | Play::SemiReflex | Play::HelpReflex) {
            return unsupported("parry series in help-self, help-reflex and semi-reflex play");
        }
        if series && play == Play::HelpReflex {
            return unsupported("help-reflex series play");
        }
        if parry.is_some() && goal.by_move() {
            return unsupported("parry series with a goal of the move");
        }
        if has(Prefix::Semi) && series {
            return unsupported("semi-reflex series play");
        }
        let reci = has(Prefix::Reci).then_some(reci_goal.unwrap_or(goal));
        if reci.is_some() && (play != Play::Help || half) {
            return Err(malformed(shown, "reci- goes only with help play of whole moves (reci-h#n)"));
        }
        if reci.is_some() && goal.by_move() {
            return unsupported("reciprocal play with a goal of the move");
        }
        if intro > 0 && !series {
            return unsupported("intro moves before anything but series play");
        }
        Ok(Stipulation { series, play, goal, moves, half, parry, exact: has(Prefix::Exact), reci, intro })
    }

    /// The side that makes the first move: White in `#n`, `s#n`, `r#n`, `hs#n` and the series
    /// forms except `ser-h`; Black in `h#n` and `ser-h#n` (and `hs#n.5`); White in `h#n.5`;
    /// the other side of the series with intro moves (`1->ser-h#3`: White).
    /// `white_to_play` (Popeye's `WhiteToPlay`) makes White begin in help play.
    pub fn first_mover(&self, white_to_play: bool) -> crate::piece::Color {
        use crate::piece::Color;
        // Proof games: from the game array White begins; `a=>b` begins with Black, or with
        // White under `WhiteToPlay` (its length stays), as Popeye plays it; `ser-a=>b` with
        // White and `ser-ha=>b` with Black.
        match self.goal {
            Goal::Proof => return Color::White,
            Goal::AToB if !self.series => return if white_to_play { Color::White } else { Color::Black },
            _ => {}
        }
        let black = match (self.series, self.play) {
            (true, Play::Help) => true,
            (true, _) => false,
            (false, Play::Help) => !self.half,
            (false, Play::HelpSelf | Play::HelpReflex) => self.half,
            (false, _) => false,
        };
        let help = matches!(self.play, Play::Help | Play::HelpSelf | Play::HelpReflex) && !self.series;
        // Intro moves are the other side's, before the series.
        let black = black != (self.intro > 0);
        if black && !(white_to_play && help) { Color::Black } else { Color::White }
    }
}

impl Stipulation {
    /// In a proof game, the side to move in the diagram (the position to reach): the first
    /// mover after an even number of half-moves of help play, its opponent after an odd
    /// one; in series play the opponent of the series side, or the series side when the
    /// opponent closes (`ser-hdia`).
    pub fn proof_target_side(&self, white_to_play: bool) -> crate::piece::Color {
        let first = self.first_mover(white_to_play);
        let flip = if self.series { self.play != Play::Help } else { !self.help_plies().is_multiple_of(2) };
        if flip { first.opponent() } else { first }
    }
}

impl Stipulation {
    /// The stipulation actually solved under Popeye's `WhiteToPlay`: in help play where Black
    /// would begin, White begins instead and the play is half a move shorter (`h#2` becomes
    /// `h#1.5`, `hs#2.5` becomes `hs#2`, as Popeye does); any other stipulation is unchanged
    /// (in `h#n.5` White begins already). `h#1` stays as it is: White begins with its one move.
    pub fn with_white_to_play(self, white_to_play: bool) -> Stipulation {
        if !white_to_play
            || self.first_mover(false) == crate::piece::Color::White
            || self.series
            || self.reci.is_some()
            || self.goal.is_proof()
        {
            return self;
        }
        match (self.play, self.half) {
            (Play::Help, false) if self.moves > 1 => Stipulation { moves: self.moves - 1, half: true, ..self },
            (Play::HelpSelf | Play::HelpReflex, true) => Stipulation { half: false, ..self },
            _ => self,
        }
    }
}

impl std::str::FromStr for Stipulation {
    type Err = StipulationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Stipulation::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Color;

    fn st(s: &str) -> Stipulation {
        s.parse().expect(s)
    }

    #[test]
    fn white_to_play_shortens_help_play_by_half_a_move() {
        assert_eq!(st("h#2").with_white_to_play(true), st("h#1.5"));
        assert_eq!(st("h=3").with_white_to_play(true), st("h=2.5"));
        assert_eq!(st("hs#2.5").with_white_to_play(true), st("hs#2"));
        // White begins already: unchanged.
        for s in ["h#2.5", "#2", "s#3", "ser-h#4", "hs#2"] {
            assert_eq!(st(s).with_white_to_play(true), st(s), "{s}");
        }
        assert_eq!(st("h#2").with_white_to_play(false), st("h#2"));
        assert_eq!(st("h#2").first_mover(true), Color::White);
        assert_eq!(st("h#1.5").first_mover(false), Color::White);
    }
}
