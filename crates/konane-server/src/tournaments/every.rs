//! How often a site event comes round: a word of its own, as games and the schedule both
//! name it.

use serde::{Deserialize, Serialize};

/// How often a rule's event comes round.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Every {
    /// Every hour, at `minute`.
    Hour,
    /// Every day, at `hour`:`minute` UTC.
    Day,
    /// Every week, on `weekday` at `hour`:`minute` UTC.
    Week,
    /// Every month, on its first day at `hour`:`minute` UTC (a league: its seasons start
    /// on the first of a month).
    Month,
}
