//! The budgets of proof-number search and its table of open positions' numbers, kept between
//! the visits of one solver.

use super::table::Slot;

/// When a [`Solver`] turns from depth-first search to proof numbers, and how hard it
/// tries a new leaf depth-first before giving it proof numbers of its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ProofNumberSearch {
    /// Nodes searched depth-first before the turn (0: proof numbers from the start).
    pub after: u64,
    /// Nodes a new leaf gets to be proven depth-first.
    pub leaf: u64,
    /// Size of the table of open positions' numbers, in KiB (32 entries each, 1 at least):
    /// long searches need room for the open nodes they come back to.
    pub table_kib: usize,
}

impl Default for ProofNumberSearch {
    /// The budgets that did best on the benchmark and the whole 6x7 table (docs/solved.md):
    /// small boards stay depth-first, where proof numbers cost twice the nodes.
    fn default() -> Self {
        ProofNumberSearch {
            after: 4_000_000,
            leaf: 100,
            table_kib: 64 << 10,
        }
    }
}

impl ProofNumberSearch {
    /// The default budgets beside a proof table of `proof_mb` MiB that `threads` solvers
    /// share: their numbers tables take an eighth as much again between them, as a long
    /// df-pn search comes back to more open nodes than a small table keeps, and a table
    /// is only allocated when a solve turns.
    pub fn beside(proof_mb: usize, threads: usize) -> Self {
        ProofNumberSearch {
            table_kib: ((proof_mb << 7) / threads.max(1)).max(1),
            ..ProofNumberSearch::default()
        }
    }
}

/// Proof and disproof numbers at or above this are infinite: the node is settled.
pub(super) const INF: u64 = u32::MAX as u64;

/// One entry of the numbers table: the position's tag and bucket in the proof table,
/// φ << 32 | δ (never 0 in a used entry), and the nodes searched below it so far.
type Entry = [u64; 4];

/// The numbers of open positions, kept between visits of one solver's search.
pub(super) struct Numbers {
    /// Buckets of two entries: the first keeps the bucket's most searched position, the
    /// second the latest other one, so the big subtrees df-pn comes back to outlive the
    /// stream of new leaves. A lost entry costs only a search again.
    pub(super) entries: Vec<Entry>,
    /// When to turn to proof numbers, the leaves' budget and the table's size.
    pub(super) search: ProofNumberSearch,
}

impl Numbers {
    /// Numbers for a search with these budgets; the table comes on first use.
    pub(super) fn new(search: ProofNumberSearch) -> Numbers {
        Numbers {
            entries: Vec::new(),
            search,
        }
    }

    /// Allocates the table, the largest power of two entries that fits the search's size.
    pub(super) fn allocate(&mut self) {
        let bytes = self.search.table_kib.max(1) << 10;
        let fit = bytes / std::mem::size_of::<Entry>();
        self.entries = vec![[0; 4]; 1 << fit.ilog2()];
    }

    /// The slot's bucket of two entries, if the table is there.
    fn bucket(&self, s: Slot) -> Option<std::ops::Range<usize>> {
        let mixed = s.bucket as u64 ^ s.tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        let first = (mixed as usize & (self.entries.len() / 2).checked_sub(1)?) * 2;
        Some(first..first + 2)
    }

    fn holds(e: &Entry, s: Slot) -> bool {
        e[2] != 0 && e[0] == s.tag && e[1] == s.bucket as u64
    }

    /// φ, δ and the work so far of an open position, if the table still has them.
    pub(super) fn get(&self, s: Slot) -> Option<(u64, u64, u64)> {
        let e = self.entries[self.bucket(s)?]
            .iter()
            .find(|e| Self::holds(e, s))?;
        Some((e[2] >> 32, e[2] & INF, e[3]))
    }

    pub(super) fn put(&mut self, s: Slot, phi: u64, delta: u64, work: u64) {
        let Some(range) = self.bucket(s) else { return };
        let [first, second] = &mut self.entries[range] else {
            return;
        };
        let new = [
            s.tag,
            s.bucket as u64,
            phi.min(INF) << 32 | delta.min(INF),
            work,
        ];
        if Self::holds(first, s) || first[2] == 0 {
            *first = new;
        } else if work >= first[3] {
            // The first entry moves down, over this position's older numbers if they were
            // there.
            *second = *first;
            *first = new;
        } else {
            *second = new;
        }
    }
}
