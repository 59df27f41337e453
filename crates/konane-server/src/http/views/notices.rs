//! What the notification routes answer, and what the account's socket sends.

use serde::{Deserialize, Serialize};

use crate::notices::notice::Kind;
use crate::store::notices::StoredNotice;

/// One notification.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct NotificationView {
    /// Its id.
    pub id: String,
    /// What happened: `your_turn`, `challenge`, `challenge_accepted`, `challenge_declined`,
    /// `game_over`.
    pub kind: Kind,
    /// When (Unix ms).
    pub at: i64,
    /// Read already.
    pub read: bool,
    /// The game it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The other player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// How the game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether the account won the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub won: Option<bool>,
}

impl NotificationView {
    /// The view of a stored notification.
    pub fn of(n: &StoredNotice) -> NotificationView {
        NotificationView {
            id: n.id.clone(),
            kind: n.kind,
            at: n.at,
            read: n.read,
            game: n.details.game.clone(),
            from: n.details.from.clone(),
            reason: n.details.reason.clone(),
            won: n.details.won,
        }
    }
}

/// `GET /api/account/notifications`, and the first message of the account's socket.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct NotificationsView {
    /// How many are unread.
    pub unread: i64,
    /// The latest, newest first (at most 50).
    pub notifications: Vec<NotificationView>,
}
