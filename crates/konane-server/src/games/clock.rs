//! A chess-style clock kept by the server, or a correspondence game's days a move.

use serde::{Deserialize, Serialize};

/// A chess-style clock kept by the server.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ClockState {
    /// Time each side starts with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Time left for Black and White when the running side's clock last started.
    pub remaining_ms: [i64; 2],
    /// When the side to move's clock started (Unix ms); `None` when stopped.
    pub running_since: Option<i64>,
    /// Correspondence: `initial_ms` is the time for each move, given afresh after every move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_move: bool,
}

impl ClockState {
    /// A stopped clock with `initial_ms` for each side.
    pub fn new(initial_ms: i64, increment_ms: i64) -> ClockState {
        ClockState {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms, initial_ms],
            running_since: None,
            per_move: false,
        }
    }

    /// A correspondence clock: `days` for every move.
    pub fn per_move_days(days: i64) -> ClockState {
        ClockState {
            per_move: true,
            ..ClockState::new(days * 86_400_000, 0)
        }
    }

    /// The same setting, not started.
    pub fn fresh(&self) -> ClockState {
        ClockState {
            per_move: self.per_move,
            ..ClockState::new(self.initial_ms, self.increment_ms)
        }
    }
}
