//! How far a solve has got, for a progress display: the moves being searched at its first
//! plies.

use std::sync::atomic::{AtomicU64, Ordering};

/// How far a solve has got, read from the moves being searched at its first few plies: at
/// each, which of the node's moves is being searched and how many it has. A share of the
/// whole from that, and so an estimate of the time left, assumes the moves of a node cost
/// alike, which they do not (the order puts the cheap ones first, and a win cuts the rest
/// short), so it is a guide, not a promise.
pub struct TreeProgress {
    /// Per ply, the move's index (high half) and the node's move count (low half).
    plies: [AtomicU64; TREE_PLIES],
}

/// Plies that [`TreeProgress`] follows.
pub(super) const TREE_PLIES: usize = 6;

impl Default for TreeProgress {
    fn default() -> Self {
        TreeProgress {
            plies: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl TreeProgress {
    /// The `index`-th of `count` moves is being searched at `ply`; the plies below start anew.
    pub(super) fn enter(&self, ply: usize, index: usize, count: usize) {
        self.plies[ply].store((index as u64) << 32 | count as u64, Ordering::Relaxed);
        for below in &self.plies[ply + 1..] {
            below.store(0, Ordering::Relaxed);
        }
    }

    /// The share of the search done, from 0 to 1: the moves finished at the root, plus the
    /// share of the one being searched, found the same way one ply down.
    pub fn share(&self) -> f64 {
        let (mut done, mut weight) = (0.0, 1.0);
        for ply in &self.plies {
            let v = ply.load(Ordering::Relaxed);
            let (index, count) = ((v >> 32) as f64, (v & 0xffff_ffff) as f64);
            if count == 0.0 {
                break;
            }
            done += weight * index / count;
            weight /= count;
        }
        done.min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_progress_counts_finished_moves_and_a_share_of_the_one_searched() {
        let t = TreeProgress::default();
        assert_eq!(t.share(), 0.0);
        t.enter(0, 1, 4);
        assert_eq!(t.share(), 0.25, "the second of four root moves");
        t.enter(1, 1, 2);
        assert_eq!(t.share(), 0.375, "and the second of its two replies");
        t.enter(0, 2, 4);
        assert_eq!(
            t.share(),
            0.5,
            "the next root move: the ply below starts anew"
        );
        t.enter(0, 3, 4);
        t.enter(1, 0, 1);
        t.enter(2, 4, 5);
        assert!((t.share() - 0.95).abs() < 1e-12, "{}", t.share());
    }
}
