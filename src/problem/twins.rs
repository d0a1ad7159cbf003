//! Twins: Popeye's English twin commands, several in one line, `Continued` first for a
//! cumulative twin (`b: Stipulation h=4 Move g6 e6`, `c: Continued Remove h2`).

use super::options::parse_options;
use super::stipulation::{Stipulation, StipulationError};
use crate::geometry::Square;
use crate::piece::{Color, Kind, Piece};
use crate::position::{ReserveRule, parse_sq, sq_name};
use std::fmt;

/// A mirror of the board, named by the two corners it swaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// `a1<-->h1`: files are mirrored (left and right swap).
    Files,
    /// `a1<-->a8`: ranks are mirrored (top and bottom swap).
    Ranks,
    /// `a1<-->h8`: mirrored in the a1–h8 diagonal.
    Diagonal,
    /// `a8<-->h1`: mirrored in the a8–h1 diagonal.
    AntiDiagonal,
}

impl Mirror {
    fn text(self) -> &'static str {
        match self {
            Mirror::Files => "a1<-->h1",
            Mirror::Ranks => "a1<-->a8",
            Mirror::Diagonal => "a1<-->h8",
            Mirror::AntiDiagonal => "a8<-->h1",
        }
    }
}

/// One twin command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinCommand {
    /// `Move b4 f3`: the piece on the first square goes to the second (what stood there is
    /// removed).
    Move {
        /// Departure.
        from: Square,
        /// Arrival.
        to: Square,
    },
    /// `Exchange e8 a8`: the contents of two squares swap.
    Exchange {
        /// One square.
        a: Square,
        /// The other.
        b: Square,
    },
    /// `Add black Pa7`: pieces are added (replacing what stands on their squares, as in Popeye).
    Add {
        /// Their colour.
        color: Color,
        /// Kinds and squares.
        pieces: Vec<(Kind, Square)>,
    },
    /// `Remove f1`: pieces are taken off.
    Remove {
        /// Their squares.
        squares: Vec<Square>,
    },
    /// `Substitute R B`: every piece of one kind (both colours) becomes another kind.
    Substitute {
        /// The kind replaced.
        from: Kind,
        /// The kind it becomes.
        to: Kind,
    },
    /// `Rotate 90|180|270`: the board turns counter-clockwise by that many degrees.
    Rotate {
        /// 90, 180 or 270.
        degrees: u32,
    },
    /// `Mirror a1<-->h1` and the three other mirrors.
    Mirror {
        /// Which mirror.
        mirror: Mirror,
    },
    /// `Shift a1 b2`: every piece moves by the vector from the first square to the second.
    Shift {
        /// Start of the vector.
        from: Square,
        /// End of the vector.
        to: Square,
    },
    /// `Stipulation h#3`: a new stipulation.
    Stipulation {
        /// The new stipulation.
        stipulation: Stipulation,
    },
    /// `SStipulation black 6hh[#]`: a structured stipulation replaces the stipulation (the
    /// last command of a twin: it takes the rest of the twin's words).
    SStipulation {
        /// The structured stipulation.
        structured: std::sync::Arc<crate::problem::sstip::SStipulation>,
        /// Its synonym, or the stand-in the interpreter needs
        /// ([`crate::solve::structured::stand_in`]).
        stipulation: Stipulation,
        /// Whether the synonym is played under `PostKeyPlay`.
        post_key_play: bool,
    },
    /// `Condition Reserve`: the conditions are replaced.
    Condition {
        /// The Réserve rule the new conditions give (none when they name no Réserve).
        reserve: ReserveRule,
        /// The other fairy conditions the new conditions give.
        conditions: crate::rules::fairy::Conditions,
        /// The conditions as written.
        text: String,
    },
    /// `PolishType`: White and Black pieces swap colours.
    PolishType,
    /// `Add white reserve S P` / `Remove black reserve P` (feerie's own syntax, Popeye has
    /// none): pieces enter or leave a side's reserve (Échecs Réserve). Kinds are Popeye codes;
    /// removing a kind the reserve does not hold is an error.
    Reserve {
        /// Whose reserve.
        color: Color,
        /// `Add` (true) or `Remove` (false).
        add: bool,
        /// The kinds, repeats allowed.
        kinds: Vec<Kind>,
    },
}

impl fmt::Display for TwinCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TwinCommand::Move { from, to } => write!(f, "Move {} {}", sq_name(*from), sq_name(*to)),
            TwinCommand::Exchange { a, b } => write!(f, "Exchange {} {}", sq_name(*a), sq_name(*b)),
            TwinCommand::Add { color, pieces } => {
                write!(f, "Add {}", color.name())?;
                for (k, s) in pieces {
                    write!(f, " {}{}", k.code(), sq_name(*s))?;
                }
                Ok(())
            }
            TwinCommand::Remove { squares } => {
                f.write_str("Remove")?;
                for s in squares {
                    write!(f, " {}", sq_name(*s))?;
                }
                Ok(())
            }
            TwinCommand::Substitute { from, to } => write!(f, "Substitute {} {}", from.code(), to.code()),
            TwinCommand::Rotate { degrees } => write!(f, "Rotate {degrees}"),
            TwinCommand::Mirror { mirror } => write!(f, "Mirror {}", mirror.text()),
            TwinCommand::Shift { from, to } => write!(f, "Shift {} {}", sq_name(*from), sq_name(*to)),
            TwinCommand::Stipulation { stipulation } => write!(f, "Stipulation {stipulation}"),
            TwinCommand::SStipulation { structured, .. } => write!(f, "SStipulation {structured}"),
            TwinCommand::Condition { text, .. } => write!(f, "Condition {text}"),
            TwinCommand::PolishType => f.write_str("PolishType"),
            TwinCommand::Reserve { color, add, kinds } => {
                write!(f, "{} {} reserve", if *add { "Add" } else { "Remove" }, color.name())?;
                for k in kinds {
                    write!(f, " {}", k.code())?;
                }
                Ok(())
            }
        }
    }
}

/// A twin: a label and the commands that make it from the diagram (or from the previous twin
/// when `continued`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// Its label: `b`, `c`, … (`a` describes a zero position: the diagram itself is then not
    /// solved).
    pub label: String,
    /// `Continued`: the commands apply to the previous twin.
    pub continued: bool,
    /// The commands, in order (chess).
    pub commands: Vec<TwinCommand>,
    /// The commands, in order, of a Xiangqi problem (on its 9×10 board).
    pub xiangqi: Vec<super::xiangqi::XiangqiTwinCommand>,
    /// The text as written.
    pub text: String,
    /// Line of the twin in the file (for errors).
    pub line: usize,
    /// Column of the twin in the file (for errors).
    pub column: usize,
}

impl Twin {
    /// The commands as Popeye text (`Continued Remove h2`).
    pub fn description(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.continued {
            parts.push("Continued".into());
        }
        parts.extend(self.commands.iter().map(|c| c.to_string()));
        parts.extend(self.xiangqi.iter().map(|c| c.to_string()));
        parts.join(" ")
    }
}

/// What parsing a twin's text found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedTwin {
    /// Whether `Continued` came first.
    pub continued: bool,
    /// The commands that feerie can apply.
    pub commands: Vec<TwinCommand>,
    /// Commands that are well-formed but not supported yet, with the reason.
    pub unsupported: Vec<String>,
}

/// A fault in a twin's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwinFault {
    /// What is wrong.
    pub message: String,
    /// The word to point at.
    pub word: String,
}

const COMMANDS: &[&str] = &[
    "move",
    "exchange",
    "add",
    "remove",
    "substitute",
    "rotate",
    "mirror",
    "shift",
    "stipulation",
    "sstipulation",
    "condition",
    "polishtype",
    "continued",
];

fn is_command(w: &str) -> bool {
    COMMANDS.contains(&w.to_ascii_lowercase().as_str())
}

fn fault(message: impl Into<String>, word: &str) -> TwinFault {
    TwinFault { message: message.into(), word: word.to_string() }
}

fn square(word: &str, command: &str) -> Result<Square, TwinFault> {
    let looks = word.len() >= 2 && word.as_bytes()[0].is_ascii_alphabetic() && word[1..].bytes().all(|b| b.is_ascii_digit());
    if looks {
        parse_sq(word).ok_or_else(|| fault(format!("square '{word}' is off the board"), word))
    } else {
        Err(fault(format!("'{command}' needs squares, found '{word}'"), word))
    }
}

/// A piece code and a square (`Pa7`, `CAb2`).
pub(crate) fn piece_square(word: &str) -> Option<(Kind, Option<Square>, String)> {
    let digits = word.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || word.len() < digits + 2 {
        return None;
    }
    let sq_start = word.len() - digits - 1;
    if !word.is_char_boundary(sq_start) {
        return None;
    }
    let (code, sq) = word.split_at(sq_start);
    if !sq.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let kind = Kind::from_code(code)?;
    Some((kind, parse_sq(sq), sq.to_string()))
}

/// Parses a twin's text.
///
/// ```
/// use feerie::problem::twins::{parse_twin, TwinCommand};
/// let t = parse_twin("Continued Remove h2").unwrap();
/// assert!(t.continued);
/// assert_eq!(t.commands[0].to_string(), "Remove h2");
/// assert!(parse_twin("Mvoe a1 a2").is_err());
/// ```
pub fn parse_twin(text: &str) -> Result<ParsedTwin, TwinFault> {
    let spaced = text.replace("<-->", " ").replace("-->", " ").replace("==>", " ");
    let words: Vec<&str> = spaced.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return Err(fault("the twin has no command", text));
    }
    let mut out = ParsedTwin { continued: false, commands: Vec::new(), unsupported: Vec::new() };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let lw = w.to_ascii_lowercase();
        let arg = |k: usize| -> Result<&str, TwinFault> {
            words.get(i + k).copied().ok_or_else(|| fault(format!("'{w}' is missing its arguments ({})", usage(&lw)), w))
        };
        match lw.as_str() {
            "continued" => {
                if i != 0 {
                    return Err(fault("'Continued' must come first in a twin", w));
                }
                out.continued = true;
                i += 1;
            }
            "move" | "exchange" | "shift" => {
                let a = square(arg(1)?, w)?;
                let b = square(arg(2)?, w)?;
                if a == b {
                    return Err(fault(format!("'{w}' needs two different squares"), w));
                }
                out.commands.push(match lw.as_str() {
                    "move" => TwinCommand::Move { from: a, to: b },
                    "exchange" => TwinCommand::Exchange { a, b },
                    _ => TwinCommand::Shift { from: a, to: b },
                });
                i += 3;
            }
            "add" | "remove" if reserve_twin(&words, i).is_some() => {
                let (color, j) = reserve_twin(&words, i).unwrap_or((Color::White, i + 3));
                let mut kinds = Vec::new();
                let mut j = j;
                while let Some(&kw) = words.get(j) {
                    if is_command(kw) {
                        break;
                    }
                    match Kind::from_code(kw) {
                        Some(Kind::King) => return Err(fault("a king cannot be in reserve", kw)),
                        Some(k) => kinds.push(k),
                        None => {
                            return Err(fault(
                                format!("'{w} … reserve' needs piece codes (e.g. 'Add white reserve S P'), found '{kw}'"),
                                kw,
                            ));
                        }
                    }
                    j += 1;
                }
                if kinds.is_empty() {
                    return Err(fault(format!("'{w} … reserve' needs at least one piece code, e.g. 'Add white reserve S P'"), w));
                }
                out.commands.push(TwinCommand::Reserve { color, add: lw == "add", kinds });
                i = j;
            }
            "add" => {
                let cw = arg(1)?;
                let color = match cw.to_ascii_lowercase().as_str() {
                    "white" | "w" => Color::White,
                    "black" | "b" => Color::Black,
                    "neutral" | "n" => {
                        out.unsupported.push("neutral pieces are not supported yet".into());
                        Color::White
                    }
                    _ => return Err(fault(format!("'Add' needs a colour (white or black) first, found '{cw}'"), cw)),
                };
                let mut pieces = Vec::new();
                let mut j = i + 2;
                while let Some(&pw) = words.get(j) {
                    if is_command(pw) {
                        break;
                    }
                    match piece_square(pw) {
                        Some((kind, Some(s), _)) => pieces.push((kind, s)),
                        Some((_, None, sq)) => return Err(fault(format!("square '{sq}' is off the board"), pw)),
                        None => return Err(fault(format!("'Add' needs pieces with squares (e.g. 'Add black Pa7'), found '{pw}'"), pw)),
                    }
                    j += 1;
                }
                if pieces.is_empty() {
                    return Err(fault("'Add' needs at least one piece with its square, e.g. 'Add black Pa7'", w));
                }
                out.commands.push(TwinCommand::Add { color, pieces });
                i = j;
            }
            "remove" => {
                let mut squares = Vec::new();
                let mut j = i + 1;
                while let Some(&sw) = words.get(j) {
                    if is_command(sw) {
                        break;
                    }
                    squares.push(square(sw, w)?);
                    j += 1;
                }
                if squares.is_empty() {
                    return Err(fault("'Remove' needs at least one square, e.g. 'Remove f1'", w));
                }
                out.commands.push(TwinCommand::Remove { squares });
                i = j;
            }
            "substitute" => {
                let a = arg(1)?;
                let b = arg(2)?;
                let ka = Kind::from_code(a).ok_or_else(|| fault(format!("unknown piece code '{a}'"), a))?;
                let kb = Kind::from_code(b).ok_or_else(|| fault(format!("unknown piece code '{b}'"), b))?;
                out.commands.push(TwinCommand::Substitute { from: ka, to: kb });
                i += 3;
            }
            "rotate" => {
                let d = arg(1)?;
                let degrees = match d {
                    "90" => 90,
                    "180" => 180,
                    "270" => 270,
                    _ => return Err(fault(format!("'Rotate' takes 90, 180 or 270, found '{d}'"), d)),
                };
                out.commands.push(TwinCommand::Rotate { degrees });
                i += 2;
            }
            "mirror" => {
                let a = square(arg(1)?, w)?;
                let b = square(arg(2)?, w)?;
                let pair = (sq_name(a.min(b)), sq_name(a.max(b)));
                let mirror = match pair {
                    ("a1", "h1") => Mirror::Files,
                    ("a1", "a8") => Mirror::Ranks,
                    ("a1", "h8") => Mirror::Diagonal,
                    ("h1", "a8") => Mirror::AntiDiagonal,
                    _ => {
                        return Err(fault(
                            format!("'Mirror' takes a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1, found {} {}", sq_name(a), sq_name(b)),
                            w,
                        ));
                    }
                };
                out.commands.push(TwinCommand::Mirror { mirror });
                i += 3;
            }
            "sstipulation" => {
                // A structured stipulation takes the rest of the twin.
                arg(1)?;
                let text = words[i + 1..].join(" ");
                let st = crate::problem::sstip::SStipulation::parse(&text).map_err(|e| fault(e.to_string(), words[i + 1]))?;
                match st.translate() {
                    Some(t) => out.commands.push(TwinCommand::SStipulation {
                        stipulation: t.stipulation,
                        post_key_play: t.post_key_play,
                        structured: std::sync::Arc::new(st),
                    }),
                    None => match crate::solve::structured::stand_in(&st) {
                        Ok(stand_in) => out.commands.push(TwinCommand::SStipulation {
                            stipulation: stand_in,
                            post_key_play: false,
                            structured: std::sync::Arc::new(st),
                        }),
                        Err(reason) => out.unsupported.push(reason),
                    },
                }
                i = words.len();
            }
            "stipulation" => {
                let s = arg(1)?;
                {
                    match Stipulation::parse(s) {
                        Ok(st) => out.commands.push(TwinCommand::Stipulation { stipulation: st }),
                        Err(StipulationError::Unsupported(r)) => out.unsupported.push(format!("not supported yet: {r}")),
                        Err(e) => return Err(fault(e.to_string(), s)),
                    }
                }
                i += 2;
            }
            "condition" => {
                let mut j = i + 1;
                while j < words.len() && !is_command(words[j]) {
                    j += 1;
                }
                if j == i + 1 {
                    return Err(fault("'Condition' needs a condition, e.g. 'Condition Reserve'", w));
                }
                let text = words[i + 1..j].join(" ");
                let parsed = parse_options(std::slice::from_ref(&text)).map_err(|f| fault(f.message, &f.word))?;
                out.unsupported.extend(parsed.unsupported);
                out.commands.push(TwinCommand::Condition { reserve: parsed.options.reserve, conditions: parsed.options.conditions, text });
                i = j;
            }
            "polishtype" => {
                out.commands.push(TwinCommand::PolishType);
                i += 1;
            }
            _ => {
                return Err(fault(
                    format!(
                        "unknown twin command '{w}' (expected Move, Exchange, Add, Remove, Substitute, Rotate, Mirror, Shift, Stipulation, Condition, PolishType or Continued)"
                    ),
                    w,
                ));
            }
        }
    }
    if out.commands.is_empty() && out.unsupported.is_empty() {
        return Err(fault("the twin has no command after 'Continued'", text));
    }
    Ok(out)
}

/// `Add|Remove white|black reserve …` at `i`: the colour and the index of the first code.
fn reserve_twin(words: &[&str], i: usize) -> Option<(Color, usize)> {
    let color = match words.get(i + 1)?.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        _ => return None,
    };
    words.get(i + 2)?.eq_ignore_ascii_case("reserve").then_some((color, i + 3))
}

fn usage(cmd: &str) -> &'static str {
    match cmd {
        "move" => "e.g. 'Move b4 f3'",
        "exchange" => "e.g. 'Exchange e8 a8'",
        "shift" => "e.g. 'Shift a1 b1'",
        "add" => "e.g. 'Add black Pa7'",
        "substitute" => "e.g. 'Substitute R B'",
        "rotate" => "90, 180 or 270",
        "mirror" => "e.g. 'Mirror a1<-->h1'",
        "stipulation" | "sstipulation" => "e.g. 'Stipulation h#3'; quote the twin when it holds '#', which otherwise starts a YAML comment",
        _ => "see the documentation",
    }
}

/// A board being twinned: the pieces by square, with the errors in plain words.
pub(crate) fn apply(board: &mut [Option<Piece>; 64], cmd: &TwinCommand) -> Result<(), String> {
    let name = |s: Square| sq_name(s);
    match cmd {
        TwinCommand::Move { from, to } => {
            let p = board[from.index()].take().ok_or_else(|| format!("no piece on {}", name(*from)))?;
            board[to.index()] = Some(p);
        }
        TwinCommand::Exchange { a, b } => {
            if board[a.index()].is_none() && board[b.index()].is_none() {
                return Err(format!("no piece on {} nor on {}", name(*a), name(*b)));
            }
            board.swap(a.index(), b.index());
        }
        TwinCommand::Add { color, pieces } => {
            // As in Popeye, a piece added on an occupied square replaces the one there.
            for &(k, s) in pieces {
                board[s.index()] = Some(Piece::new(*color, k));
            }
        }
        TwinCommand::Remove { squares } => {
            for &s in squares {
                if board[s.index()].take().is_none() {
                    return Err(format!("no piece on {}", name(s)));
                }
            }
        }
        TwinCommand::Substitute { from, to } => {
            let mut any = false;
            for p in board.iter_mut().flatten() {
                if p.kind == *from {
                    p.kind = *to;
                    any = true;
                }
            }
            if !any {
                return Err(format!("no piece of kind {} on the board", from.code()));
            }
        }
        TwinCommand::Rotate { degrees } => {
            let mut out = [None; 64];
            for (i, p) in board.iter().enumerate() {
                let (f, r) = (i % 8, i / 8);
                // Counter-clockwise: a1 goes to h1 under a quarter turn.
                let (nf, nr) = match degrees {
                    90 => (7 - r, f),
                    180 => (7 - f, 7 - r),
                    _ => (r, 7 - f),
                };
                out[nr * 8 + nf] = *p;
            }
            *board = out;
        }
        TwinCommand::Mirror { mirror } => {
            let mut out = [None; 64];
            for (i, p) in board.iter().enumerate() {
                let (f, r) = (i % 8, i / 8);
                let (nf, nr) = match mirror {
                    Mirror::Files => (7 - f, r),
                    Mirror::Ranks => (f, 7 - r),
                    Mirror::Diagonal => (r, f),
                    Mirror::AntiDiagonal => (7 - r, 7 - f),
                };
                out[nr * 8 + nf] = *p;
            }
            *board = out;
        }
        TwinCommand::Shift { from, to } => {
            let df = (to.0 % 8) as i32 - (from.0 % 8) as i32;
            let dr = (to.0 / 8) as i32 - (from.0 / 8) as i32;
            let mut out = [None; 64];
            for (i, p) in board.iter().enumerate() {
                if let Some(p) = p {
                    let (f, r) = ((i % 8) as i32 + df, (i / 8) as i32 + dr);
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        return Err(format!("the piece on {} would leave the board", name(Square(i as u8))));
                    }
                    out[(r * 8 + f) as usize] = Some(*p);
                }
            }
            *board = out;
        }
        TwinCommand::PolishType => {
            for p in board.iter_mut().flatten() {
                p.color = p.color.opponent();
            }
        }
        TwinCommand::Stipulation { .. }
        | TwinCommand::SStipulation { .. }
        | TwinCommand::Condition { .. }
        | TwinCommand::Reserve { .. } => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_commands_in_one_line() {
        let t = parse_twin("Stipulation h=4 Move g6 e6").unwrap();
        assert_eq!(t.commands.len(), 2);
        let t = parse_twin("Remove e7 Add white Se8").unwrap();
        assert_eq!(t.commands[1].to_string(), "Add white Se8");
        let t = parse_twin("Stipulation 2->h#3").unwrap();
        assert_eq!(t.unsupported.len(), 1);
        assert!(parse_twin("Move a1").is_err());
        assert!(parse_twin("Move a1 i9").unwrap_err().message.contains("off the board"));
        assert!(parse_twin("Rotate 45").is_err());
        assert!(parse_twin("Remove a1 Continued").is_err());
    }

    #[test]
    fn rotate_and_mirror() {
        let mut b = [None; 64];
        b[0] = Some(Piece::new(Color::White, Kind::King));
        apply(&mut b, &TwinCommand::Rotate { degrees: 90 }).unwrap();
        assert!(b[7].is_some());
        apply(&mut b, &TwinCommand::Mirror { mirror: Mirror::Files }).unwrap();
        assert!(b[0].is_some());
        apply(&mut b, &TwinCommand::Mirror { mirror: Mirror::Diagonal }).unwrap();
        assert!(b[0].is_some());
        apply(&mut b, &TwinCommand::Mirror { mirror: Mirror::AntiDiagonal }).unwrap();
        assert!(b[63].is_some());
    }
}
