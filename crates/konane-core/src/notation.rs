//! Square names (`d5`) and move text (`d5`, `f4-f6`, `f4xf6`) of RULES.md.

use core::fmt;

use crate::geometry::{Size, Square};
use crate::moves::Move;

impl Size {
    /// Reads a square name such as `d5` (any case) on this board.
    pub fn parse_square(self, text: &str) -> Result<Square, NotationError> {
        let t = text.trim();
        let bad = || NotationError::Square(t.to_string());
        let mut chars = t.chars();
        let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return Err(bad());
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
            || rank_text.starts_with('0')
        {
            return Err(bad());
        }
        let rank: usize = rank_text.parse().map_err(|_| bad())?;
        let col = (file as u8 - b'a') as usize;
        let off_board = || NotationError::OffBoard {
            square: t.to_ascii_lowercase(),
            size: self,
        };
        if rank > self.rows() {
            return Err(off_board());
        }
        self.square(self.rows() - rank, col).ok_or_else(off_board)
    }

    /// The name of a square, such as `d5`.
    pub fn square_name(self, sq: Square) -> SquareName {
        SquareName {
            file: b'a' + self.col(sq) as u8,
            rank: (self.rows() - self.row(sq)) as u8,
        }
    }

    /// Reads a move: a square (a removal) or two squares joined by `-` or `x` (a jump).
    ///
    /// This checks the shape only (on the board, in one line, an even distance apart);
    /// whether the move is legal is the position's business.
    pub fn parse_move(self, text: &str) -> Result<Move, NotationError> {
        let t = text.trim();
        match t.split_once(['-', 'x', 'X']) {
            None => {
                if t.is_empty() {
                    return Err(NotationError::Move(t.to_string()));
                }
                self.parse_square(t).map(Move::removal)
            }
            Some((a, b)) => {
                if a.is_empty() || b.is_empty() {
                    return Err(NotationError::Move(t.to_string()));
                }
                let (from, to) = (self.parse_square(a)?, self.parse_square(b)?);
                let m = Move::jump_unchecked(from, to);
                if from == to || m.jump_shape(self).is_none() {
                    return Err(NotationError::NotAJump(t.to_ascii_lowercase()));
                }
                Ok(m)
            }
        }
    }

    /// The text of a move on this board: `d5` or `f4-f6`.
    pub fn move_text(self, m: Move) -> MoveText {
        MoveText {
            from: self.square_name(m.from()),
            to: (!m.is_removal()).then(|| self.square_name(m.to())),
        }
    }
}

impl Move {
    /// A jump that may still be malformed; the parser checks its shape before use.
    fn jump_unchecked(from: Square, to: Square) -> Move {
        if from == to {
            Move::removal(from)
        } else {
            Move::jump(from, to)
        }
    }
}

/// A square's name, ready to print.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file as char, self.rank)
    }
}

/// A move's text, ready to print.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveText {
    from: SquareName,
    to: Option<SquareName>,
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to {
            None => self.from.fmt(f),
            Some(to) => write!(f, "{}-{}", self.from, to),
        }
    }
}

/// Square or move text that cannot be read on the given board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Not a file letter followed by a rank number.
    Square(String),
    /// A well-formed square that lies outside the board.
    OffBoard {
        /// The square as written.
        square: String,
        /// The board.
        size: Size,
    },
    /// Not a square, nor two squares joined by `-` or `x`.
    Move(String),
    /// Two squares that no jump can join: not in one line, or an odd distance apart.
    NotAJump(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Square(s) => write!(
                f,
                "'{s}' is not a square: write a file letter and a rank number, like d5"
            ),
            NotationError::OffBoard { square, size } => {
                write!(f, "{square} is not on a {size} board")
            }
            NotationError::Move(s) => write!(
                f,
                "'{s}' is not a move: write a square to remove (d5) or a jump like f4-f6"
            ),
            NotationError::NotAJump(s) => write!(
                f,
                "{s} is not a jump: a jump goes straight along a row or column, an even number of squares"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_match_the_rules() {
        let s = Size::DEFAULT;
        assert_eq!(s.square_name(s.square(0, 0).unwrap()).to_string(), "a8");
        assert_eq!(s.square_name(s.square(7, 7).unwrap()).to_string(), "h1");
        assert_eq!(s.parse_square("D5").unwrap(), s.square(3, 3).unwrap());
        let big: Size = "16x16".parse().unwrap();
        assert_eq!(
            big.square_name(big.square(0, 15).unwrap()).to_string(),
            "p16"
        );
        assert_eq!(big.parse_square("p16").unwrap().index(), 15);
    }

    #[test]
    fn bad_squares_are_explained() {
        let s = Size::DEFAULT;
        for bad in ["", "5", "d", "d0", "d05", "dd5", "d5x", "ä5", "d-5", "d123"] {
            assert!(
                matches!(s.parse_square(bad), Err(NotationError::Square(_))),
                "{bad}"
            );
        }
        assert_eq!(
            s.parse_square("i1").unwrap_err().to_string(),
            "i1 is not on a 8x8 board"
        );
        assert!(matches!(
            s.parse_square("a9"),
            Err(NotationError::OffBoard { .. })
        ));
    }

    #[test]
    fn moves_parse_and_print() {
        let s = Size::DEFAULT;
        for (text, canon) in [
            ("d5", "d5"),
            ("f4-f6", "f4-f6"),
            ("F4xF6", "f4-f6"),
            (" d7-d3 ", "d7-d3"),
        ] {
            let m = s.parse_move(text).unwrap();
            assert_eq!(s.move_text(m).to_string(), canon);
        }
        for bad in [
            "", "-", "d5-", "-d5", "d5-d5", "d5-e6", "d5-d6", "a1-h8", "d5--d7",
        ] {
            assert!(s.parse_move(bad).is_err(), "{bad}");
        }
        let m = s.parse_move("d7-d3").unwrap();
        let caps: Vec<String> = m
            .captured(s)
            .map(|q| s.square_name(q).to_string())
            .collect();
        assert_eq!(caps, ["d6", "d4"]);
    }
}
