//! What the notification routes answer, and what the account's socket sends.

use serde::{Deserialize, Serialize};

use crate::notices::notice::{Details, Kind};
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
    /// The game, the other player, how a game ended and whether the account won it.
    #[serde(flatten)]
    pub details: Details,
}

impl NotificationView {
    /// The view of a stored notification.
    pub fn of(n: &StoredNotice) -> NotificationView {
        NotificationView {
            id: n.id.clone(),
            kind: n.kind,
            at: n.at,
            read: n.read,
            details: n.details.clone(),
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
