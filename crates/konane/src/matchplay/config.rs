//! The settings of a match, as the subcommand's flags give them.

use std::path::PathBuf;

use konane_core::{Opening, Size};

use super::spec::PlayerSpec;
use super::suite::Openings;
use crate::stats::Sprt;

/// The settings of a match.
pub struct MatchConfig {
    /// First player (Black in the first game of each pair).
    pub a: PlayerSpec,
    /// How `a` is named in the report.
    pub a_name: String,
    /// Second player.
    pub b: PlayerSpec,
    /// How `b` is named in the report.
    pub b_name: String,
    /// Games in all, an even number (with a sequential test, the most it may play).
    pub games: usize,
    /// Board size.
    pub size: Size,
    /// Opening rule.
    pub opening: Opening,
    /// Where each pair starts.
    pub openings: Openings,
    /// The sequential test that may end the match early.
    pub sprt: Option<Sprt>,
    /// Pairs played at once.
    pub concurrency: usize,
    /// Seed of the random openings and of the levels' choices.
    pub seed: u64,
    /// Arguments of `go` for external players.
    pub go: String,
    /// Where to write every game's record, if anywhere.
    pub records: Option<PathBuf>,
}
