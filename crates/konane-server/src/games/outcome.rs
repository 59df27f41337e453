//! How a game ended: the reason (a code the page words) and the winner.

use konane_core::Color;

/// Why a game ended: a code for the page, which words it in each language.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// The side to move had no move (the rules' only ending).
    NoMoves,
    /// The side to move ran out of time.
    Timeout,
    /// A player gave up.
    Resignation,
    /// A player left a timed game and the opponent claimed the win.
    Abandoned,
    /// Nobody moved for too long at the start: no winner.
    Aborted,
}

impl EndReason {
    /// Every reason.
    pub const ALL: [EndReason; 5] = [
        EndReason::NoMoves,
        EndReason::Timeout,
        EndReason::Resignation,
        EndReason::Abandoned,
        EndReason::Aborted,
    ];

    /// The code the API sends.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::Timeout => "timeout",
            EndReason::Resignation => "resignation",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
        }
    }

    /// The reason of a stored result: a code, or the English sentence older rows hold.
    pub fn from_stored(text: &str) -> Option<EndReason> {
        let reason = match text {
            "no_moves" => EndReason::NoMoves,
            "timeout" => EndReason::Timeout,
            "resignation" => EndReason::Resignation,
            "abandoned" => EndReason::Abandoned,
            "aborted" => EndReason::Aborted,
            t if t.ends_with(" has no move") => EndReason::NoMoves,
            t if t.ends_with(" ran out of time") => EndReason::Timeout,
            t if t.ends_with(" resigned") => EndReason::Resignation,
            _ => return None,
        };
        Some(reason)
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// Who won; nobody when the game was aborted.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

impl GameResult {
    /// The record's `Termination` tag: "white has no move", "black resigned".
    pub fn termination(self) -> String {
        let loser = self.winner.map(Color::opponent);
        match (self.reason, loser) {
            (EndReason::NoMoves, Some(l)) => format!("{l} has no move"),
            (EndReason::Timeout, Some(l)) => format!("{l} ran out of time"),
            (EndReason::Resignation, Some(l)) => format!("{l} resigned"),
            (EndReason::Abandoned, Some(l)) => format!("{l} left the game"),
            _ => "aborted".to_string(),
        }
    }
}
