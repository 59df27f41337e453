//! What the puzzles' routes answer: a puzzle before solving, a judged move, a player's
//! puzzle rating.

use serde::{Deserialize, Serialize};

use crate::players::glicko::Rating;
use crate::players::ratings::Standing;

/// A puzzle as the page sees it before solving: no solution, no refutation.
#[derive(Serialize, Debug)]
pub struct PuzzleView {
    /// The puzzle's id.
    pub id: String,
    /// Its position text.
    pub position: String,
    /// The opening rule.
    pub opening: String,
    /// The board size, as "6x6".
    pub size: String,
    /// The side to move (the player).
    pub turn: &'static str,
    /// The puzzle's rating, rounded.
    pub rating: i64,
    /// Its themes (shown after solving).
    pub themes: Vec<&'static str>,
    /// Legal moves, for the board.
    pub legal_moves: Vec<String>,
    /// A logged-in player's own puzzle rating; guests keep theirs in the browser.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<StandingView>,
}

/// A logged-in player's puzzle rating as the page and the profile show it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct StandingView {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Still provisional (shown with `?`).
    pub provisional: bool,
    /// Rated attempts so far: the version a rated attempt names.
    pub attempts: i64,
}

impl From<Standing> for StandingView {
    fn from(s: Standing) -> StandingView {
        StandingView {
            rating: s.shown(),
            deviation: s.rating.deviation.round() as i32,
            provisional: s.provisional(),
            attempts: s.games,
        }
    }
}

/// The server's answer to one move.
#[derive(Serialize, Debug)]
pub struct Verdict {
    /// Whether the move was the only winning one.
    pub correct: bool,
    /// Whether the puzzle is now solved.
    pub solved: bool,
    /// The opponent's reply: the forced defence after a right move, the winning answer after
    /// a wrong one; none once solved.
    pub reply: Option<String>,
    /// The position after the move and the reply.
    pub position: String,
    /// Legal moves there, for the board.
    pub legal_moves: Vec<String>,
    /// After a wrong move only: the line from this step on.
    pub solution: Option<Vec<String>>,
    /// A guest's rating after a rated attempt ended.
    pub player: Option<Rating>,
    /// A logged-in player's puzzle rating now (after this attempt, if it was rated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<StandingView>,
    /// The puzzle's rating now.
    pub rating: i64,
}
