//! Xiangqi twins: Popeye's twin commands on the 9×10 board, with ICCS point names (`a0`–`i9`)
//! and the Xiangqi piece letters (`K A B N R C P`; `E` for `B`, `H` for `N`).
//!
//! `Move`, `Exchange`, `Remove`, `Add red|black`, `Mirror a0<-->i0` (files swap: the board is
//! symmetric left to right) and `Stipulation`, after an optional `Continued`. The other chess
//! twin commands (`Rotate`, `Shift`, `PolishType`, `Substitute`, `Condition`) would carry the
//! pieces out of their palaces or halves, or name no Xiangqi piece: they are refused with a
//! clear message.
//!
//! ```
//! use feerie::problem::xiangqi::{parse_xiangqi_twin, XiangqiTwinCommand};
//! let t = parse_xiangqi_twin("Continued Move h2 e2 Remove a9").unwrap();
//! assert!(t.0);
//! assert_eq!(t.1.len(), 2);
//! assert_eq!(t.1[0].to_string(), "Move h2 e2");
//! assert!(parse_xiangqi_twin("Move j2 e2").is_err());
//! ```

use super::stipulation::{Stipulation, StipulationError};
use super::twins::TwinFault;
use crate::geometry::{Square, Xiangqi9x10};
use crate::piece::Color;
use crate::rules::xiangqi::XiangqiKind;
use std::fmt;

/// One twin command on the Xiangqi board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XiangqiTwinCommand {
    /// `Move h2 e2`: the piece on the first point goes to the second (what stood there goes).
    Move {
        /// Departure.
        from: Square,
        /// Arrival.
        to: Square,
    },
    /// `Exchange a0 i0`: the contents of two points swap.
    Exchange {
        /// One point.
        a: Square,
        /// The other.
        b: Square,
    },
    /// `Remove a9 c6`: pieces are taken off.
    Remove {
        /// Their points.
        points: Vec<Square>,
    },
    /// `Add black Ce7 Pc6`: pieces are added (replacing what stands there).
    Add {
        /// Their side (White is Red).
        color: Color,
        /// Kinds and points.
        pieces: Vec<(XiangqiKind, Square)>,
    },
    /// `Mirror a0<-->i0`: the files swap, left and right.
    MirrorFiles,
    /// `Stipulation #4`: a new stipulation.
    Stipulation {
        /// The new stipulation.
        stipulation: Stipulation,
    },
}

fn name(s: Square) -> String {
    s.name::<Xiangqi9x10>()
}

impl fmt::Display for XiangqiTwinCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XiangqiTwinCommand::Move { from, to } => write!(f, "Move {} {}", name(*from), name(*to)),
            XiangqiTwinCommand::Exchange { a, b } => write!(f, "Exchange {} {}", name(*a), name(*b)),
            XiangqiTwinCommand::Remove { points } => {
                f.write_str("Remove")?;
                points.iter().try_for_each(|p| write!(f, " {}", name(*p)))
            }
            XiangqiTwinCommand::Add { color, pieces } => {
                write!(f, "Add {}", if *color == Color::White { "red" } else { "black" })?;
                pieces.iter().try_for_each(|(k, p)| write!(f, " {}{}", k.letter(), name(*p)))
            }
            XiangqiTwinCommand::MirrorFiles => f.write_str("Mirror a0<-->i0"),
            XiangqiTwinCommand::Stipulation { stipulation } => write!(f, "Stipulation {stipulation}"),
        }
    }
}

fn fault(message: impl Into<String>, word: &str) -> TwinFault {
    TwinFault { message: message.into(), word: word.to_string() }
}

fn point(word: &str, command: &str) -> Result<Square, TwinFault> {
    let looks = word.len() >= 2 && word.as_bytes()[0].is_ascii_alphabetic() && word[1..].bytes().all(|b| b.is_ascii_digit());
    if !looks {
        return Err(fault(format!("'{command}' needs points such as e0, found '{word}'"), word));
    }
    Square::parse::<Xiangqi9x10>(word).ok_or_else(|| fault(format!("point '{word}' is off the Xiangqi board (a0–i9)"), word))
}

/// Parses a Xiangqi twin's text: whether it starts with `Continued`, and its commands.
pub fn parse_xiangqi_twin(text: &str) -> Result<(bool, Vec<XiangqiTwinCommand>), TwinFault> {
    let spaced = text.replace("<-->", " ");
    let words: Vec<&str> = spaced.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return Err(fault("the twin has no command", text));
    }
    let commands = ["continued", "move", "exchange", "remove", "add", "mirror", "stipulation"];
    let is_command = |w: &str| commands.contains(&w.to_ascii_lowercase().as_str());
    let mut continued = false;
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let lw = w.to_ascii_lowercase();
        let arg = |k: usize| words.get(i + k).copied().ok_or_else(|| fault(format!("'{w}' is missing its arguments"), w));
        match lw.as_str() {
            "continued" if i == 0 => {
                continued = true;
                i += 1;
            }
            "continued" => return Err(fault("'Continued' must come first in a twin", w)),
            "move" | "exchange" => {
                let a = point(arg(1)?, w)?;
                let b = point(arg(2)?, w)?;
                if a == b {
                    return Err(fault(format!("'{w}' needs two different points"), w));
                }
                out.push(if lw == "move" { XiangqiTwinCommand::Move { from: a, to: b } } else { XiangqiTwinCommand::Exchange { a, b } });
                i += 3;
            }
            "remove" => {
                let mut points = Vec::new();
                i += 1;
                while i < words.len() && !is_command(words[i]) {
                    points.push(point(words[i], w)?);
                    i += 1;
                }
                if points.is_empty() {
                    return Err(fault("'Remove' needs at least one point", w));
                }
                out.push(XiangqiTwinCommand::Remove { points });
            }
            "add" => {
                let side = arg(1)?;
                let color = match side.to_ascii_lowercase().as_str() {
                    "red" | "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(fault(format!("'Add' needs a side (red or black), found '{side}'"), side)),
                };
                let mut pieces = Vec::new();
                i += 2;
                while i < words.len() && !is_command(words[i]) {
                    let pw = words[i];
                    let mut chars = pw.chars();
                    let kind = chars
                        .next()
                        .and_then(XiangqiKind::from_letter)
                        .ok_or_else(|| fault(format!("'{pw}' is not a Xiangqi piece and point such as Ce7 (K A B N R C P)"), pw))?;
                    pieces.push((kind, point(chars.as_str(), "Add")?));
                    i += 1;
                }
                if pieces.is_empty() {
                    return Err(fault("'Add' needs at least one piece, such as Ce7", w));
                }
                out.push(XiangqiTwinCommand::Add { color, pieces });
            }
            "mirror" => {
                let (a, b) = (arg(1)?, arg(2)?);
                let pair = [a.to_ascii_lowercase(), b.to_ascii_lowercase()];
                if pair != ["a0", "i0"] && pair != ["i0", "a0"] {
                    return Err(fault(
                        format!(
                            "only the files can be mirrored in Xiangqi (Mirror a0<-->i0), found {a}<-->{b}: another mirror moves the palaces"
                        ),
                        a,
                    ));
                }
                out.push(XiangqiTwinCommand::MirrorFiles);
                i += 3;
            }
            "stipulation" => {
                let s = arg(1)?;
                let stipulation = Stipulation::parse(s).map_err(|e| match e {
                    StipulationError::Unsupported(r) => fault(format!("stipulation '{s}' is not supported yet: {r}"), s),
                    e => fault(e.to_string(), s),
                })?;
                out.push(XiangqiTwinCommand::Stipulation { stipulation });
                i += 2;
            }
            "rotate" | "shift" | "polishtype" | "substitute" | "condition" | "sstipulation" => {
                return Err(fault(
                    format!(
                        "the twin command '{w}' does not apply to Xiangqi (Move, Exchange, Remove, Add, Mirror a0<-->i0, Stipulation do)"
                    ),
                    w,
                ));
            }
            _ => return Err(fault(format!("unknown twin command '{w}' (Move, Exchange, Remove, Add, Mirror, Stipulation)"), w)),
        }
    }
    Ok((continued, out))
}

/// Applies a command to a board of 90 points (`None` empty); an error names what is wrong.
pub(crate) fn apply(board: &mut [Option<(Color, XiangqiKind)>; 90], cmd: &XiangqiTwinCommand) -> Result<(), String> {
    match cmd {
        XiangqiTwinCommand::Move { from, to } => {
            let p = board[from.index()].take().ok_or_else(|| format!("no piece on {}", name(*from)))?;
            board[to.index()] = Some(p);
        }
        XiangqiTwinCommand::Exchange { a, b } => board.swap(a.index(), b.index()),
        XiangqiTwinCommand::Remove { points } => {
            for p in points {
                if board[p.index()].take().is_none() {
                    return Err(format!("no piece on {}", name(*p)));
                }
            }
        }
        XiangqiTwinCommand::Add { color, pieces } => {
            for (k, p) in pieces {
                board[p.index()] = Some((*color, *k));
            }
        }
        XiangqiTwinCommand::MirrorFiles => {
            for r in 0..10 {
                for f in 0..4 {
                    board.swap(r * 9 + f, r * 9 + 8 - f);
                }
            }
        }
        XiangqiTwinCommand::Stipulation { .. } => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_back_from_their_description() {
        for text in [
            "Move h2 e2",
            "Continued Exchange a0 i9 Remove c3 e3 g3",
            "Add black Ce7 Pc6 Hh7 Stipulation h#2.5",
            "add White Ra0, Mirror i0<-->a0",
            "Mirror a0<-->i0 Stipulation ser-#3",
        ] {
            let (continued, cmds) = parse_xiangqi_twin(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let mut shown: Vec<String> = cmds.iter().map(|c| c.to_string()).collect();
            if continued {
                shown.insert(0, "Continued".into());
            }
            assert_eq!(parse_xiangqi_twin(&shown.join(" ")), Ok((continued, cmds)), "{text}");
        }
    }

    #[test]
    fn faults_name_the_word() {
        for (text, word, says) in [
            ("Move e0", "Move", "missing its arguments"),
            ("Move e0 e0", "Move", "two different points"),
            ("Remove", "Remove", "at least one point"),
            ("Add green Ce7", "green", "needs a side"),
            ("Add red Qe7", "Qe7", "not a Xiangqi piece"),
            ("Mirror a0<-->a9", "a0", "only the files can be mirrored"),
            ("Continued Continued", "Continued", "must come first"),
            ("Shift a0 b0", "Shift", "does not apply to Xiangqi"),
            ("Stipulation #x", "#x", ""),
            ("Jump e0", "Jump", "unknown twin command"),
        ] {
            let f = parse_xiangqi_twin(text).expect_err(text);
            assert_eq!(f.word, word, "{text}: {}", f.message);
            assert!(f.message.contains(says), "{text}: {}", f.message);
        }
    }

    #[test]
    fn commands_change_the_board() {
        let mut b = [None; 90];
        b[4] = Some((Color::White, XiangqiKind::General));
        b[0] = Some((Color::White, XiangqiKind::Chariot));
        let (_, cmds) = parse_xiangqi_twin("Move a0 a9 Mirror a0<-->i0 Add black Ke9").expect("twin");
        for c in &cmds {
            apply(&mut b, c).expect("applies");
        }
        assert_eq!(b[89], Some((Color::White, XiangqiKind::Chariot)));
        assert_eq!(b[4], Some((Color::White, XiangqiKind::General)));
        assert_eq!(b[85], Some((Color::Black, XiangqiKind::General)));
        assert_eq!(apply(&mut b, &XiangqiTwinCommand::Remove { points: vec![Square(1)] }), Err("no piece on b0".to_string()));
    }
}
