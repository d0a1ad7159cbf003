//! Stipulations: `[ser-][h|s|r|hs]GOAL n[.5]`, with Popeye's meaning.

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
}

impl Stipulation {
    /// Number of half-moves of a help line: `2n` for `h#n`, `2n+1` for `h#n.5`.
    pub fn help_plies(&self) -> u32 {
        2 * self.moves + self.half as u32
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.series {
            f.write_str("ser-")?;
        }
        f.write_str(match self.play {
            Play::Direct => "",
            Play::Help => "h",
            Play::SelfPlay => "s",
            Play::Reflex => "r",
            Play::HelpSelf => "hs",
        })?;
        f.write_str(match self.goal {
            Goal::Mate => "#",
            Goal::Stalemate => "=",
            Goal::DoubleStalemate => "==",
            Goal::Check => "+",
        })?;
        write!(f, "{}", self.moves)?;
        if self.half {
            f.write_str(".5")?;
        }
        Ok(())
    }
}
