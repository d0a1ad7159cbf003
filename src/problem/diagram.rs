//! A diagram for display: the board, the pieces on it and the reserves, for every rule system.
//!
//! A [`Problem`](super::Problem) keeps its game's position and gives its diagram on demand
//! ([`GamePosition::diagram`](super::GamePosition::diagram)); a problem that is valid input but not
//! supported yet (an unsupported condition or piece) keeps only this, so that reports can still
//! draw it. Reports see only diagrams, never a game's position.
//!
//! ```
//! use feerie::problem::{Diagram, Figure, Rules, load_str, Loaded};
//! let docs = load_str("rules: xiangqi\nstipulation: '#1'\nfen: 4k4/9/9/9/9/9/9/9/4A4/3K5 w\n", "x.yaml");
//! let Loaded::Ready(p) = &docs[0] else { panic!("{docs:?}") };
//! let d = p.position.diagram();
//! assert_eq!(d.rules, Rules::Xiangqi);
//! assert_eq!((d.files(), d.ranks()), (9, 10));
//! assert!(d.pieces.iter().any(|p| p.figure == Figure::Xiangqi('A') && (p.file, p.rank) == (4, 1)));
//! ```

use super::Rules;
use super::board::{CPiece, XPiece};
use crate::geometry::Square;
use crate::piece::{Color, Kind};
use crate::position::{Position, Setup};

/// What stands on a square or point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A piece of the chess rule system (orthodox or fairy; Cheskers uses the king, bishop,
    /// camel and pawn).
    Chess(Kind),
    /// A Xiangqi piece by its FEN letter, upper case: `K A B N R C P`.
    Xiangqi(char),
}

/// One piece of a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiagramPiece {
    /// Its side (White is Red in Xiangqi).
    pub color: Color,
    /// The piece.
    pub figure: Figure,
    /// File, from 0 (`a`).
    pub file: u8,
    /// Rank, from 0 (the bottom rank: `1` in chess, `0` in Xiangqi).
    pub rank: u8,
}

/// A diagram: the board kind, the pieces and the reserves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The rule system, which gives the board: 8×8 (chess), 9×10 points (Xiangqi), 8×8 with the
    /// dark squares only (Cheskers).
    pub rules: Rules,
    /// The pieces, in no particular order.
    pub pieces: Vec<DiagramPiece>,
    /// Pieces in reserve, White's then Black's (Réserve only).
    pub reserves: [Vec<Kind>; 2],
    /// Neutral pieces (their `color` is meaningless).
    pub neutral: Vec<DiagramPiece>,
    /// Holes, as (file, rank).
    pub holes: Vec<(u8, u8)>,
}

impl Diagram {
    /// The diagram of a chess position, with its reserves.
    pub fn of_position(p: &Position) -> Diagram {
        let mut pieces = Vec::new();
        for i in 0..64u8 {
            if let Some(pc) = p.piece_at(Square(i)) {
                pieces.push(DiagramPiece { color: pc.color, figure: Figure::Chess(pc.kind), file: i % 8, rank: i / 8 });
            }
        }
        let mut reserves = [Vec::new(), Vec::new()];
        for c in Color::BOTH {
            for &k in Kind::CHESS {
                for _ in 0..p.reserve_count(c, k) {
                    reserves[c.index()].push(k);
                }
            }
        }
        Diagram { rules: Rules::Chess, pieces, reserves, neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of a chess setup that may not be a legal position.
    pub(crate) fn of_setup(s: &Setup) -> Diagram {
        let pieces = s
            .pieces
            .iter()
            .map(|(sq, pc)| DiagramPiece { color: pc.color, figure: Figure::Chess(pc.kind), file: sq.0 % 8, rank: sq.0 / 8 })
            .collect();
        Diagram { rules: Rules::Chess, pieces, reserves: s.reserves.clone(), neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of a Xiangqi position.
    pub fn of_xiangqi_position(p: &crate::rules::xiangqi::XiangqiPosition) -> Diagram {
        let pieces = (0..90u8)
            .filter_map(|i| {
                p.piece_at(Square(i)).map(|(color, kind)| DiagramPiece {
                    color,
                    figure: Figure::Xiangqi(kind.letter()),
                    file: i % 9,
                    rank: i / 9,
                })
            })
            .collect();
        Diagram { rules: Rules::Xiangqi, pieces, reserves: [Vec::new(), Vec::new()], neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of Xiangqi pieces.
    pub(crate) fn of_xiangqi(ps: &[XPiece]) -> Diagram {
        let pieces = ps
            .iter()
            .map(|p| DiagramPiece { color: p.color, figure: Figure::Xiangqi(p.kind.letter()), file: p.file, rank: p.rank })
            .collect();
        Diagram { rules: Rules::Xiangqi, pieces, reserves: [Vec::new(), Vec::new()], neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of Cheskers pieces.
    pub(crate) fn of_cheskers(ps: &[CPiece]) -> Diagram {
        let pieces = ps
            .iter()
            .map(|p| DiagramPiece { color: p.color, figure: Figure::Chess(p.kind.chess_kind()), file: p.file, rank: p.rank })
            .collect();
        Diagram { rules: Rules::Cheskers, pieces, reserves: [Vec::new(), Vec::new()], neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of a Cheskers position.
    pub fn of_cheskers_position(p: &crate::rules::cheskers::CheskersPosition) -> Diagram {
        let pieces = p
            .pieces()
            .into_iter()
            .map(|(sq, color, kind)| DiagramPiece { color, figure: Figure::Chess(kind.chess_kind()), file: sq.0 % 8, rank: sq.0 / 8 })
            .collect();
        Diagram { rules: Rules::Cheskers, pieces, reserves: [Vec::new(), Vec::new()], neutral: Vec::new(), holes: Vec::new() }
    }

    /// The diagram of a fairy position: its pieces, neutral pieces and holes.
    pub fn of_fairy_position(p: &crate::rules::fairy::FairyPosition) -> Diagram {
        let mut pieces = Vec::new();
        let mut neutral = Vec::new();
        for (sq, pc) in p.pieces() {
            let d = DiagramPiece {
                color: pc.owner.color().unwrap_or(Color::White),
                figure: Figure::Chess(pc.kind),
                file: sq.0 % 8,
                rank: sq.0 / 8,
            };
            if pc.owner.color().is_some() {
                pieces.push(d);
            } else {
                neutral.push(d);
            }
        }
        let holes = crate::geometry::Squares(p.holes()).map(|s| (s.0 % 8, s.0 / 8)).collect();
        Diagram { rules: Rules::Chess, pieces, reserves: [Vec::new(), Vec::new()], neutral, holes }
    }

    /// Number of files (9 in Xiangqi, else 8).
    pub fn files(&self) -> u8 {
        if self.rules == Rules::Xiangqi { 9 } else { 8 }
    }

    /// Number of ranks (10 in Xiangqi, else 8).
    pub fn ranks(&self) -> u8 {
        if self.rules == Rules::Xiangqi { 10 } else { 8 }
    }

    /// The name of the bottom rank (0 in Xiangqi, else 1).
    pub fn first_rank(&self) -> u8 {
        if self.rules == Rules::Xiangqi { 0 } else { 1 }
    }

    /// The name of a square or point: `e4`, or `e0` in Xiangqi.
    pub fn square_name(&self, file: u8, rank: u8) -> String {
        format!("{}{}", (b'a' + file) as char, rank as u32 + self.first_rank() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{Loaded, load_str};

    #[test]
    fn chess_position_and_reserves() {
        let docs = load_str(
            "stipulation: '#2'\noptions: [Reserve]\nalgebraic: {white: [Ke1, Sc5, Gd4], black: [Ke8]}\nreserve: {white: [S, 2P]}\n",
            "r.yaml",
        );
        let Loaded::Ready(p) = &docs[0] else { panic!("{docs:?}") };
        let d = p.position.diagram();
        assert_eq!(d.rules, Rules::Chess);
        assert_eq!(d.pieces.len(), 4);
        assert!(d.pieces.contains(&DiagramPiece { color: Color::White, figure: Figure::Chess(Kind::Grasshopper), file: 3, rank: 3 }));
        assert_eq!(d.reserves[0], vec![Kind::Knight, Kind::Pawn, Kind::Pawn]);
        assert!(d.reserves[1].is_empty());
        assert_eq!(d.square_name(3, 3), "d4");
    }

    #[test]
    fn unsupported_documents_keep_their_diagram() {
        let text = "stipulation: '#2'\noptions: [Volage]\nalgebraic: {white: [Ke1, Qd1], black: [Ke8]}\n";
        let docs = load_str(text, "u.yaml");
        let Loaded::Unsupported { diagram: Some(d), options, .. } = &docs[0] else { panic!("{docs:?}") };
        assert_eq!(d.rules, Rules::Chess);
        assert_eq!(d.pieces.len(), 3);
        assert_eq!(options, &vec!["Volage".to_string()]);
    }

    #[test]
    fn cheskers_diagram_shows_the_dark_squares_pieces() {
        let docs = load_str("rules: cheskers\nstipulation: '#2'\nfen: 1c1k1k1b/8/8/8/8/8/8/B1K1K3 w\n", "c.yaml");
        let Loaded::Ready(p) = &docs[0] else { panic!("{docs:?}") };
        let d = p.position.diagram();
        assert_eq!(d.rules, Rules::Cheskers);
        assert!(d.pieces.contains(&DiagramPiece { color: Color::Black, figure: Figure::Chess(Kind::Camel), file: 1, rank: 7 }));
        assert_eq!(d.pieces.len(), 7);
        assert_eq!(d.square_name(1, 7), "b8");
    }
}
