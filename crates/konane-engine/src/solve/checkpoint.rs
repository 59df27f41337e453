//! Checkpoints: a table's expensive exact proofs as bytes, put back into a table of any size,
//! and thinned to the most worked of them.

use std::sync::atomic::Ordering;

use konane_core::Size;

use super::table::{
    HASHED_SHIFT, ProofTable, QUOTIENT_SHIFT, SIZE_SHIFT, WORK_MAX, WORK_SHIFT, board_salt, unmix,
    untag_opening,
};

/// Why a checkpoint could not be loaded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CheckpointError {
    /// The bytes do not start with the checkpoint's header.
    NotACheckpoint,
    /// The length is not the header plus whole entries.
    Truncated,
    /// This line (from 1) of a table of proven positions ([`crate::book::Table`]) is not
    /// one: its position, result or winning move is missing or wrong.
    BadTableLine(usize),
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckpointError::NotACheckpoint => f.write_str("not a proof checkpoint"),
            CheckpointError::Truncated => f.write_str("the checkpoint is cut short"),
            CheckpointError::BadTableLine(n) => {
                write!(f, "line {n} of the table is not a proven position")
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

const CHECKPOINT_MAGIC: &[u8; 8] = b"KNPROOF1";

/// The little-endian word at byte `at` of a checkpoint's 16-byte entry.
fn entry_word(entry: &[u8], at: usize) -> u64 {
    let mut b = [0; 8];
    b.copy_from_slice(&entry[at..at + 8]);
    u64::from_le_bytes(b)
}

impl ProofTable {
    /// The exactly keyed proofs that took at least `2^(min_work - 1)` nodes, as bytes that
    /// [`ProofTable::load`] puts back into a table of any size: a header, then per entry
    /// the whole mixed key and the rest of the slot (16 bytes, little-endian).
    pub fn checkpoint(&self, min_work: u32) -> Vec<u8> {
        let mut out = CHECKPOINT_MAGIC.to_vec();
        for (i, slot) in self.slots.iter().enumerate() {
            let v = slot.load(Ordering::Relaxed);
            if v == 0
                || v >> HASHED_SHIFT & 1 == 1
                || (v >> WORK_SHIFT & WORK_MAX) < u64::from(min_work)
            {
                continue;
            }
            let salt = board_salt(v) % self.buckets;
            let mixed = self.key_of((i / 2) as u64, v >> QUOTIENT_SHIFT, salt);
            out.extend_from_slice(&mixed.to_le_bytes());
            out.extend_from_slice(&(v & ((1 << QUOTIENT_SHIFT) - 1)).to_le_bytes());
        }
        out
    }

    /// Whether `bytes` are a checkpoint (start with its header), not some other form.
    pub fn is_checkpoint(bytes: &[u8]) -> bool {
        bytes.starts_with(CHECKPOINT_MAGIC)
    }

    /// Puts the proofs of a [`ProofTable::checkpoint`] back; returns how many fitted (the
    /// entries of a board whose keys this table cannot keep exactly are left out).
    pub fn load(&self, bytes: &[u8]) -> Result<usize, CheckpointError> {
        let body = bytes
            .strip_prefix(CHECKPOINT_MAGIC.as_slice())
            .ok_or(CheckpointError::NotACheckpoint)?;
        if body.len() % 16 != 0 {
            return Err(CheckpointError::Truncated);
        }
        let mut loaded = 0;
        for entry in body.chunks_exact(16) {
            let (mixed, rest) = (
                entry_word(entry, 0),
                entry_word(entry, 8) & ((1 << QUOTIENT_SHIFT) - 1),
            );
            let size = (rest >> SIZE_SHIFT) & 0xff;
            let squares = ((size >> 4) + 1) as u32 * ((size & 15) + 1) as u32;
            if rest >> HASHED_SHIFT & 1 == 1
                || rest == 0
                || squares >= 64
                || mixed >> (squares + 1) != 0
                || !self.keys_fit(squares + 1)
            {
                continue;
            }
            // Checkpoints written before jumping positions dropped their opening rule from
            // the tag still carry it; the key says whether the removals are over.
            let occupied = unmix(mixed, squares + 1) & ((1 << squares) - 1);
            let rest = untag_opening(rest, occupied, squares);
            let (bucket, quotient) = self.place(mixed, board_salt(rest) % self.buckets);
            let i = 2 * bucket;
            let value = quotient << QUOTIENT_SHIFT | rest;
            // Into the bucket's first free slot, or over its cheaper proof.
            let work_of = |v: u64| (v >> WORK_SHIFT) & WORK_MAX;
            let (a, b) = (
                self.slots[i].load(Ordering::Relaxed),
                self.slots[i + 1].load(Ordering::Relaxed),
            );
            let target = if a == 0 {
                i
            } else if b == 0 || work_of(b) < work_of(a) {
                i + 1
            } else {
                i
            };
            self.slots[target].store(value, Ordering::Relaxed);
            loaded += 1;
        }
        Ok(loaded)
    }

    /// The most worked proofs of `checkpoints`, at most `max_entries` of them, as one
    /// checkpoint: every proof of the most worked levels of work that fit whole. A small
    /// table that holds the tops of the proof trees proves what lies below them quickly.
    pub fn thin(checkpoints: &[&[u8]], max_entries: usize) -> Result<Vec<u8>, CheckpointError> {
        let mut bodies = Vec::with_capacity(checkpoints.len());
        for bytes in checkpoints {
            let body = bytes
                .strip_prefix(CHECKPOINT_MAGIC.as_slice())
                .ok_or(CheckpointError::NotACheckpoint)?;
            if body.len() % 16 != 0 {
                return Err(CheckpointError::Truncated);
            }
            bodies.push(body);
        }
        let work = |entry: &[u8]| ((entry_word(entry, 8) >> WORK_SHIFT) & WORK_MAX) as usize;
        let mut at_work = [0usize; WORK_MAX as usize + 1];
        for entry in bodies.iter().flat_map(|b| b.chunks_exact(16)) {
            at_work[work(entry)] += 1;
        }
        let mut least = at_work.len();
        let mut kept = 0;
        while least > 0 && kept + at_work[least - 1] <= max_entries {
            least -= 1;
            kept += at_work[least];
        }
        let mut out = CHECKPOINT_MAGIC.to_vec();
        for entry in bodies.iter().flat_map(|b| b.chunks_exact(16)) {
            if work(entry) >= least {
                out.extend_from_slice(entry);
            }
        }
        Ok(out)
    }

    /// The boards a checkpoint holds proofs of, each once.
    pub fn boards_in(bytes: &[u8]) -> Vec<Size> {
        let body = bytes
            .strip_prefix(CHECKPOINT_MAGIC.as_slice())
            .unwrap_or_default();
        let mut sizes: Vec<Size> = Vec::new();
        for entry in body.chunks_exact(16) {
            let id = entry[8 + 3];
            if let Ok(size) = Size::new(usize::from(id >> 4) + 1, usize::from(id & 15) + 1)
                && !sizes.contains(&size)
            {
                sizes.push(size);
            }
        }
        sizes
    }
}
