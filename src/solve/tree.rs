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
}

/// One move of a solution tree with what follows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// The move in Popeye's long algebraic notation (`Sc5-e4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// `#`, `=`, `==`, `+` or empty: what the move does to the side that must answer.
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
}

impl Node {
    /// A bare node.
    pub fn new(mv: String, mark: String, role: Role) -> Node {
        Node { mv, mark, role, threat: Vec::new(), zugzwang: false, replies: Vec::new(), refutations: Vec::new(), dual: false }
    }
}

/// One move of a help or series line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord, Hash)]
pub struct LineMove {
    /// The move (`Sc5-e4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// `#`, `=`, `+` or empty.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub mark: String,
}

/// A full help or series line.
pub type Line = Vec<LineMove>;
