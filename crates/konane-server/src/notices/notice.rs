//! What an account is told, typed, and which notices a stored change of a game raises.
//! Pure.

use serde::{Deserialize, Serialize};

use crate::games::game::{ServedGame, Status};
use crate::games::outcome::EndReason;

/// How long a notification is kept (ms): 30 days.
pub const KEPT_MS: i64 = 30 * 86_400_000;

/// What happened.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The opponent moved in a correspondence game: the account's move.
    YourTurn,
    /// A player challenged the account.
    Challenge,
    /// The player the account challenged took the game.
    ChallengeAccepted,
    /// The player the account challenged said no.
    ChallengeDeclined,
    /// A game of the account's ended (on time, by resignation, aborted…).
    GameOver,
}

impl Kind {
    /// As stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::ChallengeAccepted => "challenge_accepted",
            Kind::ChallengeDeclined => "challenge_declined",
            Kind::GameOver => "game_over",
        }
    }

    /// Reads a stored kind.
    pub fn parse(text: &str) -> Option<Kind> {
        [
            Kind::YourTurn,
            Kind::Challenge,
            Kind::ChallengeAccepted,
            Kind::ChallengeDeclined,
            Kind::GameOver,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

/// The details of a notice, stored as its row's JSON.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Details {
    /// The game it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The other player's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// How the game ended (`timeout`, `resignation`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether the account won it (a game's end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
}

/// A notice for one account.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Notice {
    /// The account told.
    pub account: String,
    /// What happened.
    pub kind: Kind,
    /// About what.
    pub details: Details,
}

/// The game as it was before a change: what the notices of the change compare with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Before {
    /// Moves played.
    pub ply: usize,
    /// Waiting, playing or over.
    pub status: Status,
}

impl Before {
    /// The parts of `game` a change's notices compare with.
    pub fn of(game: &ServedGame) -> Before {
        Before {
            ply: game.ply(),
            status: game.status,
        }
    }
}

/// The notices a stored change of a game raises: in a correspondence game, the player to
/// move after a move is told it is their turn; when a game that had started ends, each
/// account seated in it is told, but for the one who resigned (they know). A challenge
/// that never started (declined, cancelled) tells nobody here: its handlers know who acted.
pub fn of_change(before: Before, after: &ServedGame) -> Vec<Notice> {
    let mut out = Vec::new();
    let name_of = |i: usize| after.seats[i].name.as_ref().map(|n| n.as_str().to_string());
    let per_move = after.clock.as_ref().is_some_and(|c| c.per_move);
    if per_move && after.status == Status::Playing && after.ply() > before.ply {
        let turn = after.turn().index();
        if let Some(account) = &after.seats[turn].account {
            out.push(Notice {
                account: account.clone(),
                kind: Kind::YourTurn,
                details: Details {
                    game: Some(after.id.clone()),
                    from: name_of(1 - turn),
                    ..Details::default()
                },
            });
        }
    }
    let ended = before.status == Status::Playing && after.status == Status::Finished;
    if let (true, Some(result)) = (ended, after.result) {
        for (i, seat) in after.seats.iter().enumerate() {
            let Some(account) = &seat.account else {
                continue;
            };
            let won = result.winner.map(|w| w.index() == i);
            if result.reason == EndReason::Resignation && won == Some(false) {
                continue;
            }
            out.push(Notice {
                account: account.clone(),
                kind: Kind::GameOver,
                details: Details {
                    game: Some(after.id.clone()),
                    from: name_of(1 - i),
                    reason: Some(result.reason.code().to_string()),
                    won,
                },
            });
        }
    }
    out
}
