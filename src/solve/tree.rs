//! The solution tree and the lines of help and series play, as text ready for reports.

use serde::{Deserialize, Serialize};

/// What a move is in the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A key (first move that solves).
    Key,
    /// A try (first move refuted by few defences).
    Try,
    /// A defence that refutes a try.
    Refutation,
    /// A defence.
    Defence,
    /// The attacker's continuation (or the threat).
    Attack,
    /// A defender's move in the diagram position (set play).
    Set,
    /// Reflex play: a first move of the attacker that reaches the goal at once, so that the
    /// reflex obligation forces it in the diagram and the stipulation cannot be met. Listed
    /// with the tries; Popeye prints it followed by `?!?`.
    Violation,
}

/// One move of a solution tree with what follows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// The move in Popeye's long algebraic notation (`Sc5-e4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// `#`, `=`, `==`, `+` or empty: what the move does to the side that must answer; after
    /// the move that reaches a goal of the move, that goal's own mark too (`+ x`, `z`, `%`,
    /// `!=`, `#=`: [`crate::rules::Goal::end_mark`]).
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub mark: String,
    /// Its role.
    pub role: Role,
    /// After an attacker's move: the threat (the attacker's continuations after a null move).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub threat: Vec<Node>,
    /// After an attacker's move: no threat, every defence worsens the defender's position.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub zugzwang: bool,
    /// After an attacker's move: the defences shown; after a defence: the attacker's
    /// continuations (several = duals).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub replies: Vec<Node>,
    /// After a try: the defences that refute it.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub refutations: Vec<Node>,
    /// For an attacker's continuation: one of several equally short continuations.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub dual: bool,
    /// What fairy conditions did in the move (rebirths, colour changes), read from its text.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub effects: Vec<Effect>,
}

impl Node {
    /// A bare node.
    pub fn new(mv: String, mark: String, role: Role) -> Node {
        let effects = Effect::all_in(&mv);
        Node { mv, mark, role, threat: Vec::new(), zugzwang: false, replies: Vec::new(), refutations: Vec::new(), dual: false, effects }
    }
}

/// One move of a help or series line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord, Hash)]
pub struct LineMove {
    /// The move (`Sc5-e4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// `#`, `=`, `+` or empty; on the move that reaches a goal of the move, that goal's mark too
    /// (`+ x`, `z`: [`crate::rules::Goal::end_mark`]).
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub mark: String,
    /// What fairy conditions did in the move, read from its text.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub effects: Vec<Effect>,
    /// Parry series play: the opponent's answer to a check within the series (not one of
    /// the series moves, so not numbered).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub parry: bool,
    /// Intro moves (`N->ser-…`): one of the other side's moves before the series, numbered
    /// on their own.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub intro: bool,
}

impl LineMove {
    /// A line move; its effects are read from the text.
    pub fn new(mv: String, mark: String) -> LineMove {
        let effects = Effect::all_in(&mv);
        LineMove { mv, mark, effects, parry: false, intro: false }
    }

    /// The move as an intro move ([`LineMove::intro`]).
    pub fn as_intro(self) -> LineMove {
        LineMove { intro: true, ..self }
    }

    /// The move as a parry ([`LineMove::parry`]).
    pub fn as_parry(self) -> LineMove {
        LineMove { parry: true, ..self }
    }
}

/// One effect of a fairy condition in a move, as fields for JSON and YAML reports. The text
/// of the move keeps Popeye's notation (`d4*e5[+bSb8]`, `Sc3*b1[wSb1->b1]`, `Le4*d3=w`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord, Hash)]
#[serde(tag = "effect", rename_all = "lowercase")]
pub enum Effect {
    /// A piece is reborn (Circe): `[+bSb8]`.
    Rebirth {
        /// Colour letter (`w`, `b`, `n`) and code.
        piece: String,
        /// Where.
        square: String,
    },
    /// A piece is moved by a condition (AntiCirce's rebirth of the capturer): `[wSf5->e8]`.
    Transfer {
        /// Colour letter and code.
        piece: String,
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// The moving piece changes colour (Andernach chess): `=w`.
    Recolour {
        /// The new colour letter.
        color: String,
    },
    /// Any other note in brackets, as written.
    Note {
        /// The text.
        text: String,
    },
}

impl Effect {
    /// The effects written in a move's text.
    ///
    /// ```
    /// use feerie::solve::tree::Effect;
    /// let e = Effect::all_in("d4*e5=b[+bSb8]");
    /// assert_eq!(e[0], Effect::Recolour { color: "b".into() });
    /// assert_eq!(e[1], Effect::Rebirth { piece: "bS".into(), square: "b8".into() });
    /// assert!(Effect::all_in("e7-e8=Q").is_empty());
    /// ```
    pub fn all_in(mv: &str) -> Vec<Effect> {
        let mut out = Vec::new();
        if !mv.contains('[') && !mv.contains("=w") && !mv.contains("=b") {
            return out;
        }
        let head = mv.split('[').next().unwrap_or(mv);
        for part in head.split('=').skip(1) {
            if part == "w" || part == "b" {
                out.push(Effect::Recolour { color: part.to_string() });
            }
        }
        for group in mv.split('[').skip(1) {
            let text = group.split(']').next().unwrap_or("");
            let is_square = |t: &str| t.len() == 2 && t.as_bytes()[0].is_ascii_lowercase() && t.as_bytes()[1].is_ascii_digit();
            if let Some(rest) = text.strip_prefix('+')
                && rest.len() >= 3
                && is_square(&rest[rest.len() - 2..])
            {
                out.push(Effect::Rebirth { piece: rest[..rest.len() - 2].to_string(), square: rest[rest.len() - 2..].to_string() });
            } else if let Some((a, b)) = text.split_once("->")
                && a.len() >= 3
                && is_square(&a[a.len() - 2..])
                && b.len() >= 2
                && is_square(&b[..2])
            {
                out.push(Effect::Transfer {
                    piece: a[..a.len() - 2].to_string(),
                    from: a[a.len() - 2..].to_string(),
                    to: b[..2].to_string(),
                });
            } else {
                out.push(Effect::Note { text: text.to_string() });
            }
        }
        out
    }
}

/// The text of a null move (`NullMoves`) in a line; Popeye writes it `...` where the move would
/// stand (`2.Kg7*g8 ...   3.Rb7-g7`).
pub const NULL_MOVE: &str = "...";

/// A full help or series line.
pub type Line = Vec<LineMove>;
