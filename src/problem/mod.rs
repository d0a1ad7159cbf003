//! Problem files: the YACPDB-compatible model, stipulations, options, twins and errors.
//!
//! A problem file is a YAML stream (`.yaml`, `.yml`, `.olv`), one problem per document. Each
//! document becomes a [`Loaded`]: a validated [`Problem`] ready to solve, a problem that is
//! valid input but uses something feerie does not support yet, or a [`ProblemError`] that names
//! the file, the document, the problem's first line and the line and column of the fault. One
//! bad document never stops the others.
//!
//! ```
//! use feerie::problem::{load_str, Loaded};
//! let text = "---\nauthors: [Loyd, Samuel]\nstipulation: '#2'\nalgebraic:\n  white: [Kb6, Rh1]\n  black: [Ka8]\n\
//!             ---\nstipulation: '#2'\nalgebraic: {white: [Ki9], black: [Ka8]}\n";
//! let docs = load_str(text, "x.yaml");
//! assert!(matches!(&docs[0], Loaded::Ready(p) if p.stipulation.to_string() == "#2"));
//! match &docs[1] {
//!     Loaded::Invalid(e) => assert_eq!(e.to_string(), "x.yaml: document 2 (\"#2: Ki9 / Ka8\"), line 9, column 21: square 'i9' is off the board"),
//!     other => panic!("{other:?}"),
//! }
//! ```

mod board;
pub mod condition_names;
pub mod convert;
mod diagram;
mod error;
mod load;
mod meta;
pub mod options;
pub mod popeye;
mod popeye_input;
pub mod solution;
pub mod sstip;
pub mod stipulation;
pub mod twins;
pub mod xiangqi;
mod yaml;

pub use diagram::{Diagram, DiagramPiece, Figure};
pub use error::{LoadError, ProblemError};
pub use meta::{Meta, join_authors};
pub use options::Options;
pub use solution::{SolutionHint, StatedSolution, StatedTwin};
pub use stipulation::{Play, Stipulation, StipulationError};
pub use twins::{Twin, TwinCommand};

use crate::piece::Piece;
use crate::position::{Position, Setup};
use crate::rules::cheskers::CheskersPosition;
use crate::rules::fairy::FairyPosition;
use crate::rules::xiangqi::XiangqiPosition;
use serde::Serialize;
use std::path::Path;

/// The rule system of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Rules {
    /// Orthodox chess, with fairy pieces and Réserve (the default).
    Chess,
    /// Xiangqi (Chinese chess).
    Xiangqi,
    /// Cheskers (Golomb).
    Cheskers,
}

/// A problem's position in its game: one variant per rule system. This is the one place a
/// problem picks its game; everything below the `match` on it (solving, judging) is generic
/// over [`Game`](crate::rules::Game) and compiled once per game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GamePosition {
    /// Orthodox chess, with fairy pieces and Réserve.
    Chess(Position),
    /// Xiangqi.
    Xiangqi(XiangqiPosition),
    /// Cheskers.
    Cheskers(CheskersPosition),
    /// Chess with fairy conditions, the fairy rules' pieces, neutral pieces or holes.
    Fairy(Box<FairyPosition>),
}

impl GamePosition {
    /// The rule system.
    pub fn rules(&self) -> Rules {
        match self {
            GamePosition::Chess(_) => Rules::Chess,
            GamePosition::Xiangqi(_) => Rules::Xiangqi,
            GamePosition::Cheskers(_) => Rules::Cheskers,
            GamePosition::Fairy(_) => Rules::Chess,
        }
    }
    /// The side to move (White is Red in Xiangqi).
    pub fn side_to_move(&self) -> crate::piece::Color {
        match self {
            GamePosition::Chess(p) => p.side_to_move(),
            GamePosition::Xiangqi(p) => p.side_to_move(),
            GamePosition::Cheskers(p) => p.side_to_move(),
            GamePosition::Fairy(p) => p.side_to_move(),
        }
    }
    /// The position as FEN (X-FEN with reserves in chess, WXF FEN in Xiangqi, the rules
    /// file's FEN in Cheskers).
    pub fn to_fen(&self) -> String {
        match self {
            GamePosition::Chess(p) => p.to_fen(),
            GamePosition::Xiangqi(p) => p.to_fen(),
            GamePosition::Cheskers(p) => p.to_fen(),
            GamePosition::Fairy(p) => p.to_fen(),
        }
    }
    /// The diagram, for reports.
    pub fn diagram(&self) -> Diagram {
        match self {
            GamePosition::Chess(p) => Diagram::of_position(p),
            GamePosition::Xiangqi(p) => Diagram::of_xiangqi_position(p),
            GamePosition::Cheskers(p) => Diagram::of_cheskers_position(p),
            GamePosition::Fairy(p) => Diagram::of_fairy_position(p),
        }
    }
    /// The chess position, when the game is chess.
    pub fn as_chess(&self) -> Option<&Position> {
        match self {
            GamePosition::Chess(p) => Some(p),
            GamePosition::Xiangqi(_) | GamePosition::Cheskers(_) | GamePosition::Fairy(_) => None,
        }
    }
}

/// A validated problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The file it came from, as given.
    pub file: String,
    /// Its document's number in the file, from 1.
    pub document: usize,
    /// The line where its document starts (its `---` line).
    pub line: usize,
    /// A one-line summary: authors and stipulation (or the stipulation and the pieces).
    pub first_line: String,
    /// The rule system.
    pub rules: Rules,
    /// The diagram, validated, in its game; its side to move makes the first move of the
    /// stipulation.
    pub position: GamePosition,
    /// The stipulation.
    pub stipulation: Stipulation,
    /// Options and conditions.
    pub options: Options,
    /// The intended number of solutions (`intended-solutions`; first number of `2.1.1.1`).
    pub intended_solutions: Option<u32>,
    /// Twins, in file order.
    pub twins: Vec<Twin>,
    /// The stated solution, if the file gives one.
    pub stated: Option<StatedSolution>,
    /// Authors, source and the rest, for reports.
    pub meta: Meta,
    /// Castling rights the file allows ([`crate::position::castle`] bits): all but those removed
    /// by `NoCastling`, or those of the FEN. A twin has the rights of its placement within these.
    pub castling_allowed: u8,
    /// The start position of an `a=>b` proof game (YAML `start`), its first mover to move;
    /// the diagram ([`Problem::position`]) is the position to reach. `None` otherwise (`dia`
    /// starts from the game array).
    pub proof_start: Option<Box<crate::position::Position>>,
}

/// One position to solve: the diagram (`a`) or a twin.
#[derive(Clone, Debug)]
pub struct Variant {
    /// `a` for the diagram, then the twins' labels.
    pub label: String,
    /// What makes it (`Move b4 f3`; `diagram` for `a`).
    pub description: String,
    /// The position, in its game; its side to move makes the first move.
    pub position: GamePosition,
    /// Its stipulation.
    pub stipulation: Stipulation,
    /// Its options and conditions.
    pub options: Options,
}

impl Variant {
    /// Why this variant is not solved as asked, where Popeye refuses the same input:
    /// `StopOnShortSolutions` in direct, self or reflex play (it applies to help and series
    /// play; Popeye: `Option StopOnShortSolutions not supported with direct play.`).
    pub fn refusal(&self) -> Option<String> {
        let s = &self.stipulation;
        (self.options.stop_on_short && !s.series && matches!(s.play, Play::Direct | Play::SelfPlay | Play::Reflex))
            .then(|| "option 'StopOnShortSolutions' applies to help and series play, not to direct, self or reflex play".to_string())
    }
}

/// What one document of a problem file gave.
#[derive(Clone, Debug)]
pub enum Loaded {
    /// A valid problem, ready to solve.
    Ready(Box<Problem>),
    /// Valid input using something not supported yet (a Popeye option or condition, a
    /// stipulation, Xiangqi or Cheskers rules).
    Unsupported {
        /// The file, as given.
        file: String,
        /// The document's number, from 1.
        document: usize,
        /// The line where the document starts.
        line: usize,
        /// A one-line summary of the problem.
        first_line: String,
        /// Why it cannot be solved yet.
        reason: String,
        /// Its metadata.
        meta: Meta,
        /// The stipulation as written.
        stipulation_text: String,
        /// The options and conditions as written.
        options: Vec<String>,
        /// The diagram, when the position could be read (for reports).
        diagram: Option<Box<Diagram>>,
    },
    /// A document that cannot be used, with the fault.
    Invalid(ProblemError),
}

impl Loaded {
    /// The document's number in its file.
    pub fn document(&self) -> usize {
        match self {
            Loaded::Ready(p) => p.document,
            Loaded::Unsupported { document, .. } => *document,
            Loaded::Invalid(e) => e.document,
        }
    }
    /// The problem's one-line summary.
    pub fn first_line(&self) -> &str {
        match self {
            Loaded::Ready(p) => &p.first_line,
            Loaded::Unsupported { first_line, .. } => first_line,
            Loaded::Invalid(e) => &e.first_line,
        }
    }
    /// Whether the document is invalid input.
    pub fn is_invalid(&self) -> bool {
        matches!(self, Loaded::Invalid(_))
    }
}

/// Reads every document of a YAML stream. `file` names the stream in messages.
pub fn load_str(text: &str, file: &str) -> Vec<Loaded> {
    yaml::split_documents(text).iter().map(|d| load::load_document(d, file)).collect()
}

/// Reads every problem of a Popeye input file (`.inp`: `BeginProblem` … `NextProblem` …
/// `EndProblem`, in English, German or French keywords). `file` names it in messages; faults
/// are placed at the `.inp` file's lines and columns, problems numbered from 1.
///
/// ```
/// use feerie::problem::{load_popeye_str, Loaded};
/// let text = "BeginProblem\nStipulation #2\nPieces White Kb6 Rh1 Black Ka8\nNextProblem\n\
///             Stip #2\nPiec Whit Kb6 Ri1 Blac Ka8\nEndProblem\n";
/// let docs = load_popeye_str(text, "x.inp");
/// assert!(matches!(&docs[0], Loaded::Ready(p) if p.stipulation.to_string() == "#2"));
/// match &docs[1] {
///     Loaded::Invalid(e) => assert_eq!((e.document, e.line, e.column), (2, 6, 15)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn load_popeye_str(text: &str, file: &str) -> Vec<Loaded> {
    popeye_input::load_popeye_str(text, file)
}

/// The YACPDB YAML text generated for each problem of a Popeye input file.
pub fn popeye_to_yaml(text: &str) -> Vec<String> {
    popeye_input::popeye_to_yaml(text)
}

/// Whether a path names a problem file by its extension (`.yaml`, `.yml`, `.olv`, `.inp`).
pub fn is_problem_path(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref(), Some("yaml" | "yml" | "olv" | "inp"))
}

/// Reads a problem file: a Popeye input (`.inp`, or a text whose first word opens a Popeye
/// problem) or a YAML stream (`.yaml`, `.yml`, `.olv`).
pub fn load_path(path: &Path) -> Result<Vec<Loaded>, LoadError> {
    let shown = path.display().to_string();
    let (text, popeye) = read_problem_file(path)?;
    if popeye {
        return Ok(load_popeye_str(&text, &shown));
    }
    Ok(load_str(&text, &shown))
}

/// The text of a problem file and whether it is Popeye input (`.inp`, or a text whose first
/// word opens a Popeye problem). Popeye input that is not UTF-8 is read as Latin-1.
pub fn read_problem_file(path: &Path) -> Result<(String, bool), LoadError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LoadError { path: shown.clone(), source })?;
    let inp = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("inp"));
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        // Popeye's inputs are often Latin-1 (`J"org`, but also `Jörg` in ISO 8859-1).
        Err(e) if inp => e.into_bytes().iter().map(|&b| b as char).collect(),
        Err(e) => {
            return Err(LoadError {
                path: shown,
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                ),
            });
        }
    };
    let popeye = inp || popeye_input::looks_like_popeye(&text);
    Ok((text, popeye))
}

/// The side that makes the first move of a stipulation under these options: as
/// [`Stipulation::first_mover`], and Black in direct, self and reflex play under `PostKeyPlay`
/// (the diagram is the position after the key).
pub fn first_mover(stipulation: &Stipulation, options: &Options) -> crate::piece::Color {
    if let Some(s) = &options.structured {
        return s.first_mover();
    }
    let battle = stipulation.is_battle();
    if options.post_key_play && battle { crate::piece::Color::Black } else { stipulation.first_mover(options.white_to_play) }
}

impl Problem {
    /// Applies a twin's `Stipulation` or `SStipulation` command to the twin's stipulation and
    /// options; `false` for the other commands, which are left to the caller.
    fn apply_stipulation_twin(&self, cmd: &TwinCommand, stipulation: &mut Stipulation, options: &mut Options) -> bool {
        match cmd {
            TwinCommand::Stipulation { stipulation: s } => {
                *stipulation = s.with_white_to_play(options.white_to_play);
                options.structured = None;
            }
            TwinCommand::SStipulation { structured, stipulation: s, post_key_play } => {
                *stipulation = *s;
                options.structured = Some(structured.clone());
                options.post_key_play = *post_key_play || self.options.post_key_play;
            }
            _ => return false,
        }
        true
    }

    /// The positions to solve: the diagram (`a`), then each twin applied to the diagram, or to
    /// the previous twin when `Continued`. When the twins start with an `a` (a zero position),
    /// the diagram itself is not among them.
    pub fn variants(&self) -> Result<Vec<Variant>, ProblemError> {
        let base = Variant {
            label: "a".into(),
            description: "diagram".into(),
            position: self.position.clone(),
            stipulation: self.stipulation.with_white_to_play(self.options.white_to_play),
            options: self.options.clone(),
        };
        let zero = self.twins.first().is_some_and(|t| t.label == "a");
        let mut out = Vec::new();
        if !zero {
            out.push(base.clone());
        }
        let mut prev = base.clone();
        for t in &self.twins {
            let start = if t.continued { &prev } else { &base };
            let v = self.apply_twin(start, t)?;
            prev = v.clone();
            out.push(v);
        }
        Ok(out)
    }

    fn twin_error(&self, t: &Twin, message: String) -> ProblemError {
        ProblemError {
            file: self.file.clone(),
            document: self.document,
            first_line: self.first_line.clone(),
            line: t.line,
            column: t.column,
            message: format!("twin {} ({}): {message}", t.label, t.description()),
        }
    }

    fn apply_twin(&self, start: &Variant, t: &Twin) -> Result<Variant, ProblemError> {
        match &start.position {
            GamePosition::Chess(p) => self.apply_chess_twin(start, p, t),
            GamePosition::Xiangqi(p) => self.apply_xiangqi_twin(start, p, t),
            GamePosition::Cheskers(p) => self.apply_cheskers_twin(start, p, t),
            GamePosition::Fairy(p) => self.apply_fairy_twin(start, p, t),
        }
    }

    /// A twin of a fairy problem: the chess twin commands; `Condition` replaces the
    /// conditions. Neutral pieces and holes stay where they are only under twins that move
    /// no piece.
    fn apply_fairy_twin(&self, start: &Variant, position: &FairyPosition, t: &Twin) -> Result<Variant, ProblemError> {
        use crate::rules::fairy::{FPiece, FairySetup, Owner};
        let mut board: [Option<Piece>; 64] = [None; 64];
        let mut neutral = Vec::new();
        for (s, p) in position.pieces() {
            match p.owner.color() {
                Some(c) => board[s.index()] = Some(Piece::new(c, p.kind)),
                None => neutral.push((s, p)),
            }
        }
        let mut stipulation = start.stipulation;
        let mut options = start.options.clone();
        for cmd in &t.commands {
            if self.apply_stipulation_twin(cmd, &mut stipulation, &mut options) {
                continue;
            }
            match cmd {
                TwinCommand::Stipulation { .. } | TwinCommand::SStipulation { .. } => {}
                TwinCommand::Condition { reserve, conditions, .. } => {
                    if reserve.any() {
                        return Err(self.twin_error(t, "Réserve combined with other fairy conditions is not supported yet".into()));
                    }
                    options.reserve = *reserve;
                    options.conditions = *conditions;
                }
                TwinCommand::Reserve { .. } => {
                    return Err(self.twin_error(t, "Réserve combined with other fairy conditions is not supported yet".into()));
                }
                other => {
                    if !neutral.is_empty() || position.holes() != 0 {
                        return Err(self.twin_error(
                            t,
                            "twins that move pieces of a problem with neutral pieces or holes are not supported yet".into(),
                        ));
                    }
                    twins::apply(&mut board, other).map_err(|m| self.twin_error(t, m))?
                }
            }
        }
        let mut pieces: Vec<(crate::geometry::Square, FPiece)> = board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (crate::geometry::Square(i as u8), FPiece::new(Owner::of(p.color), p.kind))))
            .collect();
        pieces.extend(neutral);
        let side = first_mover(&stipulation, &options);
        // As from the diagram: the rights the squares allow (the rules keep those whose pieces
        // stand there, or may be reborn there).
        let setup = FairySetup {
            castling: self.castling_allowed,
            pieces,
            holes: position.holes(),
            side: Some(side),
            ep: None,
            conditions: options.conditions,
            extra_promotions: position.promotion_kinds().collect(),
            track_pieces: stipulation.goal.tracks_pieces(),
        };
        let position = FairyPosition::from_setup(&setup).map_err(|e| self.twin_error(t, e.to_string()))?;
        Ok(Variant {
            label: t.label.clone(),
            description: t.description(),
            position: GamePosition::Fairy(Box::new(position)),
            stipulation,
            options,
        })
    }

    /// A Cheskers twin: the chess twin commands on the 8×8 board, with the Cheskers pieces
    /// (`K B CA P`); the result must be a Cheskers diagram again (dark squares, a king each).
    fn apply_cheskers_twin(&self, start: &Variant, position: &CheskersPosition, t: &Twin) -> Result<Variant, ProblemError> {
        use crate::rules::cheskers::CheskersKind;
        let mut board: [Option<Piece>; 64] = [None; 64];
        for (sq, color, kind) in position.pieces() {
            board[sq.index()] = Some(Piece::new(color, kind.chess_kind()));
        }
        let mut stipulation = start.stipulation;
        for cmd in &t.commands {
            match cmd {
                TwinCommand::SStipulation { structured, .. } => {
                    return Err(
                        self.twin_error(t, format!("'SStipulation {structured}': structured stipulations are played in chess only"))
                    );
                }
                TwinCommand::Stipulation { stipulation: s } => {
                    if s.goal != crate::rules::Goal::Mate {
                        return Err(self.twin_error(t, format!("'{s}': the only goal in Cheskers is '#' (White wins)")));
                    }
                    stipulation = s.with_white_to_play(start.options.white_to_play)
                }
                TwinCommand::Condition { .. } | TwinCommand::Reserve { .. } => {
                    return Err(self.twin_error(t, "Cheskers takes no fairy condition and has no reserve".into()));
                }
                other => twins::apply(&mut board, other).map_err(|m| self.twin_error(t, m))?,
            }
        }
        let mut placed = Vec::new();
        for (i, p) in board.iter().enumerate() {
            let Some(p) = p else { continue };
            let Some(kind) = CheskersKind::ALL.into_iter().find(|k| k.chess_kind() == p.kind) else {
                return Err(self
                    .twin_error(t, format!("the {} piece '{}' does not exist in Cheskers (K, B, CA, P)", p.color.name(), p.kind.code())));
            };
            let (file, rank) = (i as u8 % 8, i as u8 / 8);
            placed.push(board::CPiece { color: p.color, kind, file, rank, text: String::new(), list: "fen" });
        }
        let side = first_mover(&stipulation, &start.options);
        let position = board::check_cheskers(&placed, side).map_err(|f| self.twin_error(t, f.message))?;
        Ok(Variant {
            label: t.label.clone(),
            description: t.description(),
            position: GamePosition::Cheskers(position),
            stipulation,
            options: start.options.clone(),
        })
    }

    fn apply_xiangqi_twin(&self, start: &Variant, position: &XiangqiPosition, t: &Twin) -> Result<Variant, ProblemError> {
        let mut board = [None; 90];
        for (i, b) in board.iter_mut().enumerate() {
            *b = position.piece_at(crate::geometry::Square(i as u8));
        }
        let mut stipulation = start.stipulation;
        for cmd in &t.xiangqi {
            match cmd {
                xiangqi::XiangqiTwinCommand::Stipulation { stipulation: s } => {
                    if matches!(s.goal, crate::rules::Goal::Stalemate | crate::rules::Goal::DoubleStalemate) {
                        return Err(self.twin_error(t, format!("'{s}': Xiangqi has no stalemate goal (a side without a move has lost)")));
                    }
                    if let Some(why) = <XiangqiPosition as crate::rules::Game>::refuses_goal(s.goal) {
                        return Err(self.twin_error(t, format!("'{s}': {why} (Xiangqi knows #, + and nothing else)")));
                    }
                    stipulation = s.with_white_to_play(start.options.white_to_play)
                }
                other => xiangqi::apply(&mut board, other).map_err(|m| self.twin_error(t, m))?,
            }
        }
        let pieces: Vec<_> =
            board.iter().enumerate().filter_map(|(i, p)| p.map(|(c, k)| (crate::geometry::Square(i as u8), c, k))).collect();
        let side = first_mover(&stipulation, &start.options);
        // The same placement rules as the diagram's (palaces, halves, points, counts, checks).
        let placed: Vec<board::XPiece> = pieces
            .iter()
            .map(|&(sq, color, kind)| board::XPiece { color, kind, file: sq.0 % 9, rank: sq.0 / 9, text: String::new(), list: "fen" })
            .collect();
        let position = board::check_xiangqi(&placed, side).map_err(|f| self.twin_error(t, f.message))?;
        Ok(Variant {
            label: t.label.clone(),
            description: t.description(),
            position: GamePosition::Xiangqi(position),
            stipulation,
            options: start.options.clone(),
        })
    }

    fn apply_chess_twin(&self, start: &Variant, position: &Position, t: &Twin) -> Result<Variant, ProblemError> {
        let mut board: [Option<Piece>; 64] = [None; 64];
        for (i, b) in board.iter_mut().enumerate() {
            *b = position.piece_at(crate::geometry::Square(i as u8));
        }
        let mut stipulation = start.stipulation;
        let mut options = start.options.clone();
        let base = position.to_setup();
        let mut reserves = base.reserves.clone();
        for cmd in &t.commands {
            if self.apply_stipulation_twin(cmd, &mut stipulation, &mut options) {
                continue;
            }
            match cmd {
                TwinCommand::Stipulation { .. } | TwinCommand::SStipulation { .. } => {}
                TwinCommand::Condition { reserve, conditions, .. } => {
                    options.reserve = *reserve;
                    if !conditions.is_empty() {
                        return Err(
                            self.twin_error(t, "a twin that brings a fairy condition into an orthodox problem is not supported yet".into())
                        );
                    }
                }
                TwinCommand::Reserve { color, add, kinds } => {
                    let r = &mut reserves[color.index()];
                    for &k in kinds {
                        if *add {
                            r.push(k);
                        } else if let Some(at) = r.iter().position(|&x| x == k) {
                            r.remove(at);
                        } else {
                            return Err(self.twin_error(t, format!("the {} reserve holds no {}", color.name(), k.code())));
                        }
                    }
                }
                other => {
                    if matches!(other, TwinCommand::PolishType) {
                        reserves.swap(0, 1);
                    }
                    twins::apply(&mut board, other).map_err(|m| self.twin_error(t, m))?
                }
            }
        }
        for c in crate::piece::Color::BOTH {
            if !reserves[c.index()].is_empty() && !options.reserve.allows(c) {
                let why = match options::reserve_name(options.reserve) {
                    Some(name) => format!("the condition {name} does not let {} use it", c.name()),
                    None => "no Réserve condition is in force".to_string(),
                };
                return Err(self.twin_error(t, format!("the {} reserve holds pieces, but {why}", c.name())));
            }
        }
        let pieces: Vec<_> = board.iter().enumerate().filter_map(|(i, p)| p.map(|p| (crate::geometry::Square(i as u8), p))).collect();
        let side = first_mover(&stipulation, &options);
        // Keep the en-passant square when the same side moves and the pawn still stands there.
        let ep = base.ep.filter(|&e| {
            let (pawn, from) =
                if side == crate::piece::Color::White { (e.0.wrapping_sub(8), e.0 + 8) } else { (e.0 + 8, e.0.wrapping_sub(8)) };
            side == position.side_to_move()
                && board.get(pawn as usize).copied().flatten() == Some(Piece::new(side.opponent(), crate::piece::Kind::Pawn))
                && board.get(e.index()).copied().flatten().is_none()
                && board.get(from as usize).copied().flatten().is_none()
        });
        let setup = Setup {
            castling: board::default_castling(&pieces) & self.castling_allowed,
            pieces,
            side: Some(side),
            ep,
            reserves,
            reserve_rule: options.reserve,
            extra_promotions: base.extra_promotions,
            halfmove: base.halfmove,
            fullmove: base.fullmove,
            castling_exclusive: options.castling_exclusive,
        };
        let position = Position::from_setup(&setup).map_err(|e| {
            let m = match e {
                crate::position::PositionError::OppositeCheck(c) => {
                    format!("the side not to move ({c}) is in check: {} makes the first move in {stipulation}", side.name())
                }
                e => load::position_message(&e),
            };
            self.twin_error(t, m)
        })?;
        if let Some(why) = <Position as crate::rules::Game>::refuses_goal(stipulation.goal) {
            return Err(
                self.twin_error(t, format!("'{stipulation}': {why}; a twin that brings it into a problem without it is not supported yet"))
            );
        }
        Ok(Variant { label: t.label.clone(), description: t.description(), position: GamePosition::Chess(position), stipulation, options })
    }
}
