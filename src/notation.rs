//! Text forms: FEN (with Réserve reserves in brackets) in and out, and Popeye-style long
//! algebraic moves out, in English, French or German.
//!
//! ```
//! use feerie::notation::{parse_fen, write_fen};
//! use feerie::position::Position;
//! let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1").unwrap();
//! assert_eq!(write_fen(&p), "4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1");
//! assert!(parse_fen("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1").is_err());
//! ```

pub(crate) mod grid;

use crate::piece::{Kind, Lang};
pub use crate::position::fen::{parse_fen, write_fen};
use crate::position::{Move, Position, sq_name};

/// Options for writing moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStyle {
    /// Piece letters.
    pub lang: Lang,
    /// Write `^` / `v` instead of `↑` / `↓`.
    pub ascii: bool,
}

/// Replaces Échecs Réserve's arrows by their ASCII forms: `↑` (into reserve) by `^`, `↓`
/// (drop) by `v`; the stated-solution reader accepts both forms.
///
/// ```
/// assert_eq!(feerie::notation::ascii_arrows("1.Sd4↑ Pa1↓=B"), "1.Sd4^ Pa1v=B");
/// ```
pub fn ascii_arrows(text: &str) -> String {
    text.replace('↑', "^").replace('↓', "v")
}

/// Writes a move in Popeye's long algebraic notation, without check or mate marks:
/// `Sc5-e4`, `e5*d6` (also en passant, without `ep.`), `e7-e8=Q`, `0-0`, `0-0-0`,
/// `Sd4↑`, `Sd4↓`, `Pa1↓=B`.
///
/// ```
/// use feerie::notation::{move_text, MoveStyle};
/// use feerie::position::{Move, Position, parse_sq};
/// let p = Position::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").unwrap();
/// let m = Move::Normal { from: parse_sq("g1").unwrap(), to: parse_sq("f3").unwrap(), promotion: None };
/// assert_eq!(move_text(&p, m, MoveStyle::default()), "Sg1-f3");
/// ```
pub fn move_text(p: &Position, m: Move, style: MoveStyle) -> String {
    let letter = |k: Kind| -> &'static str { if k == Kind::Pawn { "" } else { k.code_in(style.lang) } };
    match m {
        Move::Normal { from, to, promotion } => {
            let kind = p.piece_at(from).map(|x| x.kind).unwrap_or(Kind::Pawn);
            let sep = if p.piece_at(to).is_some() { '*' } else { '-' };
            let mut s = format!("{}{}{}{}", letter(kind), sq_name(from), sep, sq_name(to));
            if let Some(k) = promotion {
                s.push('=');
                s.push_str(k.code_in(style.lang));
            }
            s
        }
        Move::EnPassant { from, to } => format!("{}*{}", sq_name(from), sq_name(to)),
        Move::Castle { king, rook } => if rook.0 > king.0 { "0-0" } else { "0-0-0" }.to_string(),
        Move::Put { from } => {
            let kind = p.piece_at(from).map(|x| x.kind).unwrap_or(Kind::Pawn);
            let l = if kind == Kind::Pawn { Kind::Pawn.code_in(style.lang) } else { kind.code_in(style.lang) };
            format!("{}{}{}", l, sq_name(from), if style.ascii { "^" } else { "↑" })
        }
        Move::Drop { kind, to, promotion } => {
            let mut s = format!("{}{}{}", kind.code_in(style.lang), sq_name(to), if style.ascii { "v" } else { "↓" });
            if let Some(k) = promotion {
                s.push('=');
                s.push_str(k.code_in(style.lang));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Square;
    use crate::piece::Color;

    #[test]
    fn fen_round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] b - - 3 40",
            "4k3/8/2(G)5/8/8/8/(ca)7/4K3 w - - 0 1",
            // The nightrider is `(N)`, the knight `N`: a black nightrider in reserve and on d3.
            "4k3/8/8/8/8/3(n)4/8/4K3[N(n)] w - - 0 1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(write_fen(&p), fen);
        }
    }

    #[test]
    fn parenthesised_codes_are_popeye_codes() {
        let p = Position::from_fen("4k3/8/8/8/8/3(n)(S)3/8/4K3[(N)] w - - 0 1").unwrap();
        assert_eq!(p.piece_at(Square(19)).map(|x| x.kind), Some(Kind::Nightrider));
        assert_eq!(p.piece_at(Square(20)).map(|x| (x.color, x.kind)), Some((Color::White, Kind::Knight)));
        assert_eq!(p.reserve_count(Color::White, Kind::Nightrider), 1);
        assert_eq!(p.reserve_count(Color::White, Kind::Knight), 0);
    }

    #[test]
    fn bad_fen_is_an_error() {
        for bad in [
            "",
            "8/8/8",
            "9/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KX - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
            "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "4k3/8/8/8/8/8/8/4KX2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K(zz3 w - - 0 1",
            // Long digit runs: errors, not arithmetic overflow.
            "99999999999999999999/8/8/8/8/8/8/4K2k w - - 0 1",
            "4294967295k/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(Position::from_fen(bad).is_err(), "{bad}");
        }
    }
}
