//! What quick pairing answers: a seek and, once paired, its game.

use serde::{Deserialize, Serialize};

use crate::http::views::games::SeatView;

/// A seek as its page sees it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SeekView {
    /// The seek's secret id.
    pub id: String,
    /// `waiting` or `paired`.
    pub status: String,
    /// The rating difference accepted now.
    pub range: i32,
    /// Once paired: the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Once paired: the seeker's seat token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Once paired: the seeker's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<SeatView>,
}
