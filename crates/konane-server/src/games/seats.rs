//! The seats of a game: who sits there (a person's token, name and account, or the
//! engine), the token that proves a seat, and the one account a challenge waits for.

use std::fmt;

use konane_core::Color;
use serde::{Deserialize, Serialize};

use crate::players::name::PlayerName;

/// The secret that proves a seat: 128 random bits as 32 hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl SeatToken {
    /// A new random token.
    pub fn random() -> Result<SeatToken, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(SeatToken(
            bytes.iter().map(|b| format!("{b:02x}")).collect(),
        ))
    }

    /// A token as stored.
    pub fn from_stored(text: String) -> SeatToken {
        SeatToken(text)
    }

    /// The token as the client holds it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Compares with what a client sent in time independent of where they differ, so the
    /// answer's timing tells nothing about a guessed token.
    pub fn matches(&self, sent: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), sent.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

/// One side of the board.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Seat {
    /// The secret that proves the seat (never sent in a game's state).
    pub token: Option<SeatToken>,
    /// The engine plays this seat.
    pub engine: bool,
    /// A display name: the account's when a logged-in player took the seat.
    pub name: Option<PlayerName>,
    /// The account of the player, when logged in.
    pub account: Option<String>,
    /// The player's rating in the game's category when the game began, and (rated games,
    /// once over) what the result changed it by.
    pub rating: Option<SeatRating>,
}

/// A seat's rating as the board and the record show it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeatRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Still provisional (shown with `?`).
    pub provisional: bool,
    /// The change the game's result made, once a rated game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<i32>,
}

/// The one account a challenge waits for: only it may take the free seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Challenge {
    /// The challenged account's id.
    pub account: String,
    /// Its name, as the challenger's page and the lists show it.
    pub name: PlayerName,
}

impl Seat {
    /// Taken by a person or the engine.
    pub fn is_taken(&self) -> bool {
        self.engine || self.token.is_some()
    }
}

/// The seats a token holds: one colour, or both on a shared device.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Holder {
    /// One side.
    One(Color),
    /// Both sides (a game on one device).
    Both,
}

impl Holder {
    /// Whether the holder may act for `c`.
    pub fn holds(self, c: Color) -> bool {
        match self {
            Holder::One(mine) => mine == c,
            Holder::Both => true,
        }
    }
}
