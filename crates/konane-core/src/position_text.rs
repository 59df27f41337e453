//! Position text (RULES.md): rows top to bottom joined by `/`, `b`, `w` or `.` per square,
//! a space, and the side to move.

use core::fmt;

use crate::bitboard::Bits;
use crate::geometry::{Color, Geometry, MAX_SIDE, Opening, Size};
use crate::position::{Position, PositionError};

/// The squares of a position text, checked for shape but not yet placed on a bitboard.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Layout {
    /// The board's size.
    pub size: Size,
    /// Each square's content in index order (top row first).
    pub cells: Vec<Option<Color>>,
    /// The side to move.
    pub turn: Color,
}

impl Layout {
    /// Reads position text, checking everything that needs no bitboard.
    pub fn parse(text: &str) -> Result<Layout, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (board, side) = match fields.as_slice() {
            [] => return Err(PositionError::Empty),
            [board, side] => (*board, *side),
            other => return Err(PositionError::Fields(other.len())),
        };
        let turn = match side {
            "b" | "B" => Color::Black,
            "w" | "W" => Color::White,
            other => return Err(PositionError::Side(other.to_string())),
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() > MAX_SIDE as usize {
            return Err(PositionError::TooManyRows(rows.len()));
        }
        let mut cells = Vec::new();
        let mut width = 0;
        for (r, row) in rows.iter().enumerate() {
            let mut len = 0;
            for (c, ch) in row.chars().enumerate() {
                cells.push(match ch {
                    'b' | 'B' => Some(Color::Black),
                    'w' | 'W' => Some(Color::White),
                    '.' => None,
                    found => {
                        return Err(PositionError::Char {
                            row: r + 1,
                            col: c + 1,
                            found,
                        });
                    }
                });
                len += 1;
            }
            if len == 0 {
                return Err(PositionError::EmptyRow(r + 1));
            }
            if len > MAX_SIDE as usize {
                return Err(PositionError::RowTooLong { row: r + 1, len });
            }
            if r == 0 {
                width = len;
            } else if len != width {
                return Err(PositionError::RowLength {
                    row: r + 1,
                    len,
                    expected: width,
                });
            }
        }
        let size =
            Size::new(rows.len(), width).map_err(|_| PositionError::TooManyRows(rows.len()))?;
        let empties = cells.iter().filter(|c| c.is_none()).count();
        match (empties, turn) {
            (0, Color::White) => Err(PositionError::FullBoardWhiteToMove),
            (1, Color::Black) => Err(PositionError::OneEmptyBlackToMove),
            _ => Ok(Layout { size, cells, turn }),
        }
    }
}

impl<B: Bits> Position<B> {
    /// The position with this layout, under `opening`; fails if the board does not fit `B`.
    pub fn from_layout(
        layout: &Layout,
        opening: Opening,
    ) -> Result<Self, crate::geometry::SizeError> {
        let geo = Geometry::new(layout.size, opening)?;
        let mut stones = [B::ZERO; 2];
        for (i, cell) in layout.cells.iter().enumerate() {
            if let Some(c) = cell {
                stones[c.index()] |= B::single(i);
            }
        }
        // The layout passed the same checks `from_stones` makes.
        Ok(Position::assemble(geo, stones, layout.turn))
    }

    /// The position text, ready to print.
    pub fn text(&self) -> PositionText<'_, B> {
        PositionText(self)
    }
}

/// Prints a position as position text.
pub struct PositionText<'a, B>(&'a Position<B>);

impl<B: Bits> fmt::Display for PositionText<'_, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        let size = p.size();
        for r in 0..size.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..size.cols() {
                let ch = match size.square(r, c).and_then(|sq| p.stone_at(sq)) {
                    Some(color) => color.letter(),
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
        }
        write!(f, " {}", p.turn().letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Layout::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn start_text_round_trips() {
        let geo = Geometry::<u64>::new("4x4".parse().unwrap(), Opening::CenterOrCorner).unwrap();
        let p = Position::start(geo);
        assert_eq!(p.text().to_string(), "bwbw/wbwb/bwbw/wbwb b");
        let back = Position::<u64>::from_layout(
            &Layout::parse("bwbw/wbwb/bwbw/wbwb b").unwrap(),
            Opening::CenterOrCorner,
        )
        .unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(err("bwbwbwbw/wbwbwbw b"), "row 2 has 7 squares, expected 8");
        assert_eq!(err("bw/wq b"), "row 2, square 2: 'q' is not b, w or .");
        assert_eq!(
            err("bw/wb w"),
            "the board is full, so Black is to move (Black removes the first stone)"
        );
        assert!(err("bw/w. b").contains("White is to move"));
        assert!(err("bw/wb x").contains("side to move"));
        assert!(err("").contains("empty"));
        assert!(err("bw/wb").contains("field"));
        assert!(err("bw/wb b extra").contains("3 field"));
        assert!(err("bw//wb b").contains("row 2 is empty"));
        assert!(err(&format!("{} b", "b".repeat(17))).contains("at most 16"));
        assert!(err(&format!("{} b", vec!["b"; 17].join("/"))).contains("17 rows"));
    }
}
