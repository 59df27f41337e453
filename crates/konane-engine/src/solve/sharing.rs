//! What the threads of one solve share besides the table: the marks of the positions each is
//! in, so that the others leave those for last.

use std::sync::atomic::{AtomicU8, Ordering};

use super::table::Slot;

/// The positions that the threads of one solve are searching at the moment, so that a thread
/// coming to a node searches first the moves no other thread is in and leaves the others for
/// last (the deferral of ABDADA, Weill 1996). Where every move must be refuted, the threads
/// split the refutations at every node instead of walking one subtree side by side, and a
/// move left for last is often proven by the time it comes round again. A mark can stand for
/// several positions (a small array, indexed by the slot), which changes only the order.
pub struct InProgress {
    pub(super) marks: Box<[AtomicU8]>,
}

/// Marks in [`InProgress`]: small enough to stay in the caches.
const IN_PROGRESS_MARKS: usize = 1 << 16;

/// Plies from the root whose nodes are marked: deeper subtrees are too cheap to share (on
/// the whole 6x7 table, 8 beat 4, 12, 16 and 40; docs/solved.md).
pub(super) const SHARED_PLIES: usize = 8;

impl Default for InProgress {
    fn default() -> Self {
        InProgress {
            marks: (0..IN_PROGRESS_MARKS).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

impl InProgress {
    fn mark(&self, s: Slot) -> &AtomicU8 {
        &self.marks[s.bucket & (IN_PROGRESS_MARKS - 1)]
    }

    pub(super) fn enter(&self, s: Slot) {
        self.mark(s).fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn leave(&self, s: Slot) {
        self.mark(s).fetch_sub(1, Ordering::Relaxed);
    }

    pub(super) fn busy(&self, s: Slot) -> bool {
        self.mark(s).load(Ordering::Relaxed) != 0
    }
}
