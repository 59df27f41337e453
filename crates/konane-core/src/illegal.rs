//! Why a move is not legal: a code, its squares, and an English sentence.

use core::fmt;

use crate::geometry::{Color, Opening, Size, Square};

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

impl std::error::Error for IllegalMove {}

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
