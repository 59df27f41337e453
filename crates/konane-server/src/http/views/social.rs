//! What the follow and block routes answer: the players followed, with who is online and
//! playing, the players blocked, and the viewer's ties to a profile's player.

use serde::{Deserialize, Serialize};

/// A followed player.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct FollowedView {
    /// The name.
    pub name: String,
    /// Seen in the last five minutes.
    pub online: bool,
    /// A game of theirs being played now, to watch.
    pub playing: Option<String>,
}

/// `GET /api/account/following`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct FollowingView {
    /// The players followed, by name.
    pub players: Vec<FollowedView>,
}

/// A blocked player.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct BlockedPlayerView {
    /// The name.
    pub name: String,
}

/// `GET /api/account/blocked`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct BlockedView {
    /// The players blocked, by name.
    pub players: Vec<BlockedPlayerView>,
}

/// The logged-in viewer's ties to a profile's player (none on their own profile).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelationView {
    /// The viewer follows them.
    pub following: bool,
    /// The viewer blocks them.
    pub blocking: bool,
}
