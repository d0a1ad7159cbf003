//! FEN placements of any board size (Xiangqi's 9×10, Cheskers' 8×8): ranks from the top down,
//! separated by `/`, a letter per piece (upper case White or Red), digits for runs of empty
//! squares; then the side to move and optional trailing fields. Each game maps the faults to
//! its own typed error and reads the side letter its own way.

use crate::piece::Color;

/// What is wrong with a FEN's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GridFault {
    /// Nothing at all.
    Empty,
    /// Not the board's number of ranks.
    RankCount(usize),
    /// A rank (from the bottom, 0-based) with another number of squares than the board's.
    FileCount {
        /// The rank, 0 the bottom one.
        rank: u8,
        /// How many squares the FEN gives it.
        squares: usize,
    },
    /// A character that is neither a piece letter of the game nor a digit 1–9.
    Letter(char),
    /// A field after the side that is not `-` or a number, or a fifth one.
    Field(String),
}

/// The pieces of a FEN's placement, as (file, rank, colour, kind) with rank 0 at the bottom,
/// and its side-to-move field if any. Up to four fields may follow the side, each `-` or a
/// number (a move counter); they are ignored.
pub(crate) type Grid<K> = (Vec<(u8, u8, Color, K)>, Option<String>);

/// Reads a FEN on a board of `files` × `ranks`, the kind of each letter given by `kind` (in
/// either case; the case gives the colour).
pub(crate) fn read_grid<K>(fen: &str, files: u8, ranks: u8, kind: impl Fn(char) -> Option<K>) -> Result<Grid<K>, GridFault> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or(GridFault::Empty)?;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(GridFault::RankCount(rows.len()));
    }
    let mut pieces = Vec::new();
    for (i, text) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file = 0usize;
        for ch in text.chars() {
            match ch.to_digit(10) {
                Some(0) => return Err(GridFault::Letter(ch)),
                Some(d) => file += d as usize,
                None => {
                    let k = kind(ch).ok_or(GridFault::Letter(ch))?;
                    let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if file < files as usize {
                        pieces.push((file as u8, rank, color, k));
                    }
                    file += 1;
                }
            }
        }
        if file != files as usize {
            return Err(GridFault::FileCount { rank, squares: file });
        }
    }
    let side = fields.next().map(str::to_string);
    for (i, f) in fields.enumerate() {
        if i >= 4 || !(f == "-" || f.bytes().all(|b| b.is_ascii_digit())) {
            return Err(GridFault::Field(f.to_string()));
        }
    }
    Ok((pieces, side))
}

/// Writes a placement of `files` × `ranks`, top rank first, `letter` giving the letter on a
/// (file, rank) square (upper case for White) or `None` for an empty one.
pub(crate) fn write_grid(files: u8, ranks: u8, letter: impl Fn(u8, u8) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..ranks).rev() {
        let mut empty = 0u8;
        for file in 0..files {
            match letter(file, rank) {
                None => empty += 1,
                Some(l) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(l);
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The letter of a piece in a FEN: upper case for White, lower case for Black.
pub(crate) fn cased(letter: char, color: Color) -> char {
    if color == Color::White { letter } else { letter.to_ascii_lowercase() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_read_and_write() {
        let kind = |c: char| "KP".find(c.to_ascii_uppercase());
        let (pieces, side) = read_grid("2k/3/P1K w - - 0 1", 3, 3, kind).unwrap();
        assert_eq!(pieces, vec![(2, 2, Color::Black, 0), (0, 0, Color::White, 1), (2, 0, Color::White, 0)]);
        assert_eq!(side.as_deref(), Some("w"));
        let back = write_grid(3, 3, |f, r| pieces.iter().find(|p| (p.0, p.1) == (f, r)).map(|p| cased(['K', 'P'][p.3], p.2)));
        assert_eq!(back, "2k/3/P1K");
        assert_eq!(read_grid("", 3, 3, kind), Err(GridFault::Empty));
        assert_eq!(read_grid("3/3", 3, 3, kind), Err(GridFault::RankCount(2)));
        assert_eq!(read_grid("3/4/3", 3, 3, kind), Err(GridFault::FileCount { rank: 1, squares: 4 }));
        assert_eq!(read_grid("3/0K2/3", 3, 3, kind), Err(GridFault::Letter('0')));
        assert_eq!(read_grid("3/x2/3", 3, 3, kind), Err(GridFault::Letter('x')));
        assert_eq!(read_grid("3/3/3 w x", 3, 3, kind), Err(GridFault::Field("x".into())));
        assert_eq!(read_grid("3/3/3 w - - 0 1 2", 3, 3, kind), Err(GridFault::Field("2".into())));
        assert_eq!(read_grid("3/3/3", 3, 3, kind), Ok((Vec::new(), None)));
    }
}
