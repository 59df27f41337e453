//! `konane match`: two players, many pairs of games (each opening twice, colours swapped),
//! in parallel, scored by pairs, optionally until a sequential test decides.
//!
//! A player is our engine (`level 6`, `time 300`, `depth 5`, `threads 2`, in any mix) or an
//! external program that speaks the engine protocol (`cmd:./other-engine --flag`).

mod external;
mod game;
mod player;
mod pool;
mod report;
mod spec;
mod suite;

use anyhow::{Context, Result};
use konane_core::{Opening, Size};

pub use pool::play_match;
pub use spec::PlayerSpec;
pub use suite::{Openings, random_opening};

use crate::stats::{PairCounts, Sprt, Verdict};
use game::PairPlayed;

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
    pub records: Option<std::path::PathBuf>,
}

/// What a match came to.
pub struct MatchResult {
    pairs: Vec<PairPlayed>,
    verdict: Option<Verdict>,
}

impl MatchResult {
    /// Pairs lost, split and won by the first player.
    pub fn counts(&self) -> PairCounts {
        let mut counts = PairCounts::default();
        for p in &self.pairs {
            counts.add(p.result());
        }
        counts
    }

    /// What the sequential test decided, if there was one and it did.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }
}

/// Plays the match, writes the records if asked, and prints the result.
pub fn run(cfg: &MatchConfig) -> Result<()> {
    let result = play_match(cfg, true)?;
    if let Some(path) = &cfg.records {
        let text: Vec<String> = result
            .pairs
            .iter()
            .flat_map(|p| &p.games)
            .map(|g| g.record.to_string())
            .collect();
        std::fs::write(path, text.join("\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    report::print(cfg, &result);
    Ok(())
}
