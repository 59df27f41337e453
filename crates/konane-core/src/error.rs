//! The errors of the core: each says what was wrong and where.
//!
//! Written by hand so the core keeps no dependencies at all.

use core::fmt;

use crate::geometry::{Color, Opening, Size, Square};

macro_rules! impl_error {
    ($($t:ty),*) => { $(impl std::error::Error for $t {})* };
}

/// A board size that is malformed or outside 1..16.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SizeError {
    /// Not of the form `RxC`.
    Syntax(String),
    /// Rows outside 1..16.
    Rows(usize),
    /// Columns outside 1..16.
    Cols(usize),
    /// More squares than the chosen bitboard holds.
    TooWide {
        /// The board asked for.
        size: Size,
        /// Squares the bitboard holds.
        capacity: usize,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Syntax(s) => write!(
                f,
                "'{s}' is not a board size: write rows x columns, like 8x8 or 6x8"
            ),
            SizeError::Rows(n) => write!(f, "{n} rows: a board has 1 to 16 rows"),
            SizeError::Cols(n) => write!(f, "{n} columns: a board has 1 to 16 columns"),
            SizeError::TooWide { size, capacity } => {
                write!(
                    f,
                    "a {size} board does not fit in a {capacity}-square bitboard"
                )
            }
        }
    }
}

/// An opening rule name that is neither `center-or-corner` nor `center`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpeningError(pub String);

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not an opening rule: use center-or-corner or center",
            self.0
        )
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

/// Position text that breaks RULES.md.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Nothing but white space.
    Empty,
    /// The board and the side to move are not separated by a space, or more follows.
    Fields(usize),
    /// The side to move is neither `b` nor `w`.
    Side(String),
    /// More than 16 rows.
    TooManyRows(usize),
    /// A row with no squares.
    EmptyRow(usize),
    /// A row longer than 16 squares.
    RowTooLong {
        /// 1-based, from the top.
        row: usize,
        /// Squares in that row.
        len: usize,
    },
    /// Rows of unequal length.
    RowLength {
        /// 1-based, from the top.
        row: usize,
        /// Squares in that row.
        len: usize,
        /// Squares in the first row.
        expected: usize,
    },
    /// A character other than `b`, `w` or `.`.
    Char {
        /// 1-based, from the top.
        row: usize,
        /// 1-based, from the left.
        col: usize,
        /// The character found.
        found: char,
    },
    /// A full board with White to move.
    FullBoardWhiteToMove,
    /// Exactly one empty square with Black to move.
    OneEmptyBlackToMove,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => f.write_str("the position text is empty"),
            PositionError::Fields(n) => write!(
                f,
                "expected the board, a space and the side to move (b or w), found {n} field(s)"
            ),
            PositionError::Side(s) => {
                write!(f, "the side to move is '{s}': it must be b or w")
            }
            PositionError::TooManyRows(n) => {
                write!(f, "the board has {n} rows: at most 16 are allowed")
            }
            PositionError::EmptyRow(r) => write!(f, "row {r} is empty"),
            PositionError::RowTooLong { row, len } => {
                write!(f, "row {row} has {len} squares: at most 16 are allowed")
            }
            PositionError::RowLength { row, len, expected } => {
                write!(f, "row {row} has {len} squares, expected {expected}")
            }
            PositionError::Char { row, col, found } => write!(
                f,
                "row {row}, square {col}: '{}' is not b, w or .",
                found.escape_debug()
            ),
            PositionError::FullBoardWhiteToMove => f.write_str(
                "the board is full, so Black is to move (Black removes the first stone)",
            ),
            PositionError::OneEmptyBlackToMove => f.write_str(
                "exactly one square is empty, so White is to move (White removes the second stone)",
            ),
        }
    }
}

/// Why a well-formed move is not legal: a code for machines, its parameters, and (through
/// [`IllegalMove`]'s `Display`) an English sentence for people.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalReason {
    /// The game's first move is Black's removal, and this is a jump.
    FirstMoveIsRemoval,
    /// The move starts on a square that holds none of the mover's stones.
    NotYourStone {
        /// The square the move starts on.
        square: Square,
        /// What is there instead: empty, or the opponent's stone.
        found: Option<Color>,
    },
    /// Black's first removal is from a square the opening rule does not allow.
    FirstRemovalSquare {
        /// The squares Black may remove from.
        allowed: Vec<Square>,
    },
    /// White's first move must be a removal next to the hole, and this is a jump.
    SecondMoveIsRemoval {
        /// The square Black emptied.
        hole: Square,
    },
    /// White's removal is not orthogonally next to the hole.
    NotNextToHole {
        /// The square Black emptied.
        hole: Square,
    },
    /// Both removals are made: every move is a jump now.
    RemovalsOver,
    /// A square the jump passes holds no opposing stone.
    NoStoneToJump {
        /// The square jumped over.
        square: Square,
    },
    /// A square the jump lands on (or passes as a stop) is not empty.
    LandingNotEmpty {
        /// The landing square.
        square: Square,
    },
}

impl IllegalReason {
    /// Every reason's code.
    pub const CODES: [&'static str; 8] = [
        "first_move_is_removal",
        "not_your_stone",
        "first_removal_square",
        "second_move_is_removal",
        "not_next_to_hole",
        "removals_over",
        "no_stone_to_jump",
        "landing_not_empty",
    ];

    /// The reason's code, as the API sends it (`snake_case`, stable).
    pub fn code(&self) -> &'static str {
        match self {
            IllegalReason::FirstMoveIsRemoval => "first_move_is_removal",
            IllegalReason::NotYourStone { .. } => "not_your_stone",
            IllegalReason::FirstRemovalSquare { .. } => "first_removal_square",
            IllegalReason::SecondMoveIsRemoval { .. } => "second_move_is_removal",
            IllegalReason::NotNextToHole { .. } => "not_next_to_hole",
            IllegalReason::RemovalsOver => "removals_over",
            IllegalReason::NoStoneToJump { .. } => "no_stone_to_jump",
            IllegalReason::LandingNotEmpty { .. } => "landing_not_empty",
        }
    }
}

/// A move that is well-formed but not legal in the position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// The board, to name the squares of the reason.
    pub size: Size,
    /// The side that tried the move.
    pub mover: Color,
    /// The opening rule in force.
    pub opening: Opening,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

impl IllegalMove {
    /// The reason as an English sentence: "d5 is a white stone, not one of black's stones".
    pub fn explanation(&self) -> String {
        let name = |sq: &Square| self.size.square_name(*sq).to_string();
        let me = self.mover;
        match &self.reason {
            IllegalReason::FirstMoveIsRemoval => {
                "the game starts with Black removing one of its stones".into()
            }
            IllegalReason::NotYourStone { square, found } => {
                let what = match found {
                    None => "empty".to_string(),
                    Some(c) => format!("a {c} stone"),
                };
                format!("{} is {what}, not one of {me}'s stones", name(square))
            }
            IllegalReason::FirstRemovalSquare { allowed } => {
                let place = match self.opening {
                    Opening::CenterOrCorner => "the centre or a corner",
                    Opening::Center => "the centre",
                };
                let allowed: Vec<String> = allowed.iter().map(name).collect();
                format!(
                    "Black's first removal must be from {place}: {}",
                    allowed.join(", ")
                )
            }
            IllegalReason::SecondMoveIsRemoval { hole } => {
                format!(
                    "White must now remove one of its stones next to {}",
                    name(hole)
                )
            }
            IllegalReason::NotNextToHole { hole } => format!(
                "White must remove a stone orthogonally next to the empty square {}",
                name(hole)
            ),
            IllegalReason::RemovalsOver => "the removals are over: every move now is a jump".into(),
            IllegalReason::NoStoneToJump { square } => format!(
                "there is no {} stone on {} to jump over",
                me.opponent(),
                name(square)
            ),
            IllegalReason::LandingNotEmpty { square } => format!("{} is not empty", name(square)),
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not legal: {}", self.text, self.explanation())
    }
}

/// A move that cannot be played: unreadable, or illegal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The text is not a move on this board.
    Notation(NotationError),
    /// The move breaks the rules here.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Notation(e) => e.fmt(f),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl From<NotationError> for PlayError {
    fn from(e: NotationError) -> Self {
        PlayError::Notation(e)
    }
}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> Self {
        PlayError::Illegal(e)
    }
}

/// A game record that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// 1-based line of the record where the problem is.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl_error!(
    SizeError,
    OpeningError,
    NotationError,
    PositionError,
    IllegalMove,
    PlayError,
    RecordError
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_code_is_listed() {
        let sq = Square::from_index(0);
        let reasons = [
            IllegalReason::FirstMoveIsRemoval,
            IllegalReason::NotYourStone {
                square: sq,
                found: None,
            },
            IllegalReason::FirstRemovalSquare { allowed: vec![sq] },
            IllegalReason::SecondMoveIsRemoval { hole: sq },
            IllegalReason::NotNextToHole { hole: sq },
            IllegalReason::RemovalsOver,
            IllegalReason::NoStoneToJump { square: sq },
            IllegalReason::LandingNotEmpty { square: sq },
        ];
        let codes: Vec<_> = reasons.iter().map(IllegalReason::code).collect();
        assert_eq!(codes, IllegalReason::CODES);
    }
}
