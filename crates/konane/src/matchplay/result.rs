//! What a match came to: its pairs and the sequential test's verdict.

use super::game::PairPlayed;
use crate::stats::{PairCounts, Verdict};

/// What a match came to.
pub struct MatchResult {
    /// The pairs the result counts, in their order.
    pub(super) pairs: Vec<PairPlayed>,
    /// What the sequential test decided, if it did.
    pub(super) verdict: Option<Verdict>,
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
