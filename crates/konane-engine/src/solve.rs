//! The exact solver: who wins with perfect play, and with which move.
//!
//! A depth-first AND/OR search on win/loss only (no scores, so every cut is as early as can
//! be), with a compact lock-free table of proven positions shared by all threads, moves
//! ordered by how few replies they leave (ties broken by how often a move has won), and an
//! enhanced transposition cutoff at every node (a move into a position the table already
//! knows as lost for the opponent wins at once, one into a position known as won for the
//! opponent is never searched). Threads that solve one position together start at
//! different root moves, leave for last the moves another thread is in ([`InProgress`]),
//! and share their proofs through the table. A solver may turn to proof numbers once a
//! position proves hard ([`Solver::with_proof_numbers`], `solve/proof_numbers.rs`).

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use konane_core::{Bits, Color, Move, Opening, Position, Size};

mod proof_numbers;

use crate::slots::Slots;
use crate::tt::{pack_move, unpack_move};

/// Proven positions, 8 bytes each, in buckets of two slots.
///
/// A slot is one atomic word, so no write can tear. Every position reached by play has its
/// stones on their own colour's squares (a jump moves a stone two squares), so on a board of
/// up to 63 squares it is its set of occupied squares and the side to move. That number,
/// put through a bijection and divided by the number of buckets, gives the bucket (by its
/// remainder) and a quotient the slot keeps whole: two positions can never share an entry, so no collision can forge a proof
/// ([`Keying::Exact`]). Where that does not fit (larger boards, a table too small for the
/// quotient, stones off their colour), the slot keeps 30 bits of the Zobrist hash beyond
/// the index instead ([`Keying::Hashed`]: a collision is unlikely, not impossible).
pub struct ProofTable {
    slots: Slots,
    /// Buckets of two slots: any number, so that a table fills the memory it is given.
    buckets: u64,
}

/// A proven result from the table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Proof {
    /// True when the side to move wins.
    pub win: bool,
    /// For a win, the winning move.
    pub best: Option<Move>,
}

/// How the positions of one board find their entries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Keying {
    /// By the whole position: entries cannot collide.
    Exact,
    /// By the Zobrist hash: entries can collide, with a chance of about one in 2^(30+index bits).
    Hashed(WhyHashed),
}

/// Why a board's positions cannot be keyed exactly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WhyHashed {
    /// The board has 64 squares or more: its key does not fit a word.
    LargeBoard,
    /// The table has too few buckets for the rest of the key to fit a slot; a table of
    /// `exact_from_mb` MiB has enough.
    SmallTable {
        /// The smallest table, in MiB, whose keys of this board are exact.
        exact_from_mb: usize,
    },
    /// A stone stands on a square of the other colour (no game reaches such a position), so
    /// the occupied squares do not say whose stones they are.
    OffColour,
}

// A slot: the move (17 bits), the win bit, the work (5 bits: the bit length of the proof's
// node count, capped), then the tag: side to move, size, opening, keying, quotient.
const WIN_SHIFT: u32 = 17;
const WORK_SHIFT: u32 = 18;
const WORK_MAX: u64 = 31;
const TURN_SHIFT: u32 = 23;
const SIZE_SHIFT: u32 = 24;
const OPENING_SHIFT: u32 = 32;
const HASHED_SHIFT: u32 = 33;
const QUOTIENT_SHIFT: u32 = 34;
/// Bits of the key that the slot keeps beside the bucket index.
const QUOTIENT_BITS: u32 = 64 - QUOTIENT_SHIFT;
const RESULT_MASK: u64 = (1 << TURN_SHIFT) - 1;

/// A bijection on the numbers below `2^bits` (`1 <= bits <= 64`) that spreads them over
/// the buckets: xor-shifts and multiplications by odd numbers, each invertible mod `2^bits`.
fn mix(mut x: u64, bits: u32) -> u64 {
    let mask = u64::MAX >> (64 - bits);
    let s = bits.div_ceil(2);
    for c in [0x9e37_79b9_7f4a_7c15_u64, 0xbf58_476d_1ce4_e5b9] {
        x ^= x >> s;
        x = x.wrapping_mul(c) & mask;
    }
    x ^ (x >> s)
}

/// The inverse of [`mix`].
fn unmix(mut x: u64, bits: u32) -> u64 {
    let mask = u64::MAX >> (64 - bits);
    let s = bits.div_ceil(2);
    // A shift by at least half the bits undoes itself.
    x ^= x >> s;
    for c in [0xbf58_476d_1ce4_e5b9_u64, 0x9e37_79b9_7f4a_7c15] {
        x = x.wrapping_mul(inverse_mod_2_64(c)) & mask;
        x ^= x >> s;
    }
    x
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits).
fn inverse_mod_2_64(c: u64) -> u64 {
    let mut y = c;
    for _ in 0..5 {
        y = y.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(y)));
    }
    y
}

/// An exactly keyed tag without its opening rule once the removals are over: the rule
/// decides only which stones may be removed, so a jumping position has one value (and one
/// entry) under both rules, and one rule's proofs serve the other's games.
fn untag_opening(board_tag: u64, occupied: u64, squares: u32) -> u64 {
    if occupied.count_ones() + 1 < squares {
        board_tag & !(1 << OPENING_SHIFT)
    } else {
        board_tag
    }
}

/// Spreads each board's buckets over the whole table: keys of small boards are fewer than
/// the buckets, and boards of one size would otherwise crowd the same first buckets. It
/// depends on the size alone, so the slot word it is read back from always gives it.
fn board_salt(word: u64) -> u64 {
    ((word >> SIZE_SHIFT) & 0xff).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16
}

/// Where one position lives: its bucket and the tag its slot must carry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Slot {
    bucket: usize,
    tag: u64,
}

/// The parts of a position's tag that stay the same on one board, and how it is keyed.
#[derive(Clone, Copy, Debug)]
pub struct BoardKey {
    keying: Keying,
    squares: u32,
    board_tag: u64,
    /// The board's salt, below the table's number of buckets.
    salt: u64,
}

impl BoardKey {
    /// Whether the board's entries are exact or hashed.
    pub fn keying(&self) -> Keying {
        self.keying
    }
}

impl ProofTable {
    /// A table of `megabytes` MiB (at least one).
    pub fn new(megabytes: usize) -> ProofTable {
        let buckets = (megabytes.max(1) << 20) / 16;
        ProofTable {
            slots: Slots::zeroed(2 * buckets),
            buckets: buckets as u64,
        }
    }

    /// A key's bucket and the quotient its slot keeps. The bucket is the key's remainder
    /// turned by the board's `salt`, so an exact key is whole again from the two (see
    /// [`ProofTable::key_of`]); one division, where a power of two of buckets would waste
    /// up to half the memory asked for.
    fn place(&self, key: u64, salt: u64) -> (usize, u64) {
        let (quotient, remainder) = (key / self.buckets, key % self.buckets);
        let turned = remainder + salt;
        let bucket = if turned >= self.buckets {
            turned - self.buckets
        } else {
            turned
        };
        (bucket as usize, quotient)
    }

    /// The key that [`ProofTable::place`] put in `bucket` with `quotient`.
    fn key_of(&self, bucket: u64, quotient: u64, salt: u64) -> u64 {
        let remainder = if bucket >= salt {
            bucket - salt
        } else {
            bucket + self.buckets - salt
        };
        quotient * self.buckets + remainder
    }

    /// Whether every key below `2^bits` leaves a quotient that fits a slot.
    fn keys_fit(&self, bits: u32) -> bool {
        1u128 << bits <= u128::from(self.buckets) << QUOTIENT_BITS
    }

    /// How positions of `pos`'s board (and every position reached from it) are keyed here.
    pub fn board_key<B: Bits>(&self, pos: &Position<B>) -> BoardKey {
        let size = pos.size();
        let squares = size.squares() as u32;
        let on_own_colour = [Color::Black, Color::White].into_iter().all(|c| {
            pos.stones(c)
                .squares()
                .all(|i| size.start_color(konane_core::Square::from_index(i)) == c)
        });
        // The key is the occupied squares and one bit for the side to move.
        let keying = if squares >= 64 {
            Keying::Hashed(WhyHashed::LargeBoard)
        } else if !on_own_colour {
            Keying::Hashed(WhyHashed::OffColour)
        } else if !self.keys_fit(squares + 1) {
            // A MiB holds 2^16 buckets, and the buckets must reach 2^(squares + 1) keys
            // over the quotient's 2^30.
            let bits = (squares + 1 - QUOTIENT_BITS).saturating_sub(16);
            Keying::Hashed(WhyHashed::SmallTable {
                exact_from_mb: 1 << bits,
            })
        } else {
            Keying::Exact
        };
        let size_id = ((size.rows() as u64 - 1) & 15) << 4 | ((size.cols() as u64 - 1) & 15);
        let board_tag = size_id << SIZE_SHIFT
            | u64::from(pos.opening() == Opening::Center) << OPENING_SHIFT
            | u64::from(keying != Keying::Exact) << HASHED_SHIFT;
        BoardKey {
            keying,
            squares,
            board_tag,
            salt: board_salt(board_tag) % self.buckets,
        }
    }

    fn slot<B: Bits>(&self, board: &BoardKey, pos: &Position<B>) -> Slot {
        let white = u64::from(pos.turn() == Color::White);
        let (mixed, board_tag) = match board.keying {
            Keying::Exact => {
                let occupied = (pos.stones(Color::Black) | pos.stones(Color::White)).low_u64();
                let tag = untag_opening(board.board_tag, occupied, board.squares);
                (
                    mix(occupied | white << board.squares, board.squares + 1),
                    tag,
                )
            }
            Keying::Hashed(_) => (pos.hash(), board.board_tag),
        };
        let (bucket, quotient) = self.place(mixed, board.salt);
        // An exact key's quotient fits whole (`board_key` saw to it); a hash keeps its
        // low bits.
        let quotient = quotient & ((1 << QUOTIENT_BITS) - 1);
        Slot {
            bucket,
            tag: quotient << QUOTIENT_SHIFT | board_tag | white << TURN_SHIFT,
        }
    }

    /// What is proven about `pos`.
    pub fn probe<B: Bits>(&self, pos: &Position<B>) -> Option<Proof> {
        self.probe_with(&self.board_key(pos), pos)
    }

    /// What is proven about `pos`, keyed as `board` says (from [`ProofTable::board_key`] of
    /// `pos` or of a position it was reached from).
    pub fn probe_with<B: Bits>(&self, board: &BoardKey, pos: &Position<B>) -> Option<Proof> {
        self.lookup(self.slot(board, pos))
    }

    /// What the table holds for one slot.
    fn lookup(&self, s: Slot) -> Option<Proof> {
        let i = 2 * s.bucket;
        self.slots[i..i + 2].iter().find_map(|slot| {
            let v = slot.load(Ordering::Relaxed);
            (v != 0 && v & !RESULT_MASK == s.tag).then(|| Proof {
                win: v >> WIN_SHIFT & 1 == 1,
                best: unpack_move(v & ((1 << WIN_SHIFT) - 1)),
            })
        })
    }

    /// Stores a proof about `pos` that took `nodes` nodes.
    pub fn store<B: Bits>(&self, pos: &Position<B>, proof: Proof, nodes: u64) {
        self.store_with(&self.board_key(pos), pos, proof, nodes);
    }

    /// Stores a proof that took `nodes` nodes, keyed as `board` says, over the cheaper of
    /// the two slots of its bucket.
    pub fn store_with<B: Bits>(
        &self,
        board: &BoardKey,
        pos: &Position<B>,
        proof: Proof,
        nodes: u64,
    ) {
        self.store_slot(self.slot(board, pos), proof, nodes);
    }

    /// Stores a proof that took `nodes` nodes in its slot.
    fn store_slot(&self, s: Slot, proof: Proof, nodes: u64) {
        let work = u64::from(64 - nodes.leading_zeros()).clamp(1, WORK_MAX);
        let value =
            s.tag | work << WORK_SHIFT | u64::from(proof.win) << WIN_SHIFT | pack_move(proof.best);
        let i = 2 * s.bucket;
        let (a, b) = (
            self.slots[i].load(Ordering::Relaxed),
            self.slots[i + 1].load(Ordering::Relaxed),
        );
        let work_of = |v: u64| (v >> WORK_SHIFT) & WORK_MAX;
        let mine = |v: u64| v & !RESULT_MASK == s.tag;
        let target = if a == 0 || mine(a) {
            i
        } else if b == 0 || mine(b) || work_of(b) <= work_of(a) {
            i + 1
        } else {
            i
        };
        let old = self.slots[target].load(Ordering::Relaxed);
        if old == 0 || mine(old) || work_of(old) <= work + 1 {
            self.slots[target].store(value, Ordering::Relaxed);
        }
    }
}

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

    /// The share of slots in use, in thousandths, from a sample of up to 65,536 slots.
    pub fn fill_permille(&self) -> u32 {
        let step = (self.slots.len() / 65_536).max(1);
        let sample = self.slots.iter().step_by(step);
        let (used, seen) = sample.fold((0u64, 0u64), |(u, n), s| {
            (u + u64::from(s.load(Ordering::Relaxed) != 0), n + 1)
        });
        (used * 1000 / seen.max(1)) as u32
    }
}

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
const TREE_PLIES: usize = 6;

impl Default for TreeProgress {
    fn default() -> Self {
        TreeProgress {
            plies: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

impl TreeProgress {
    /// The `index`-th of `count` moves is being searched at `ply`; the plies below start anew.
    fn enter(&self, ply: usize, index: usize, count: usize) {
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

/// The positions that the threads of one solve are searching at the moment, so that a thread
/// coming to a node searches first the moves no other thread is in and leaves the others for
/// last (the deferral of ABDADA, Weill 1996). Where every move must be refuted, the threads
/// split the refutations at every node instead of walking one subtree side by side, and a
/// move left for last is often proven by the time it comes round again. A mark can stand for
/// several positions (a small array, indexed by the slot), which changes only the order.
pub struct InProgress {
    marks: Box<[AtomicU8]>,
}

/// Marks in [`InProgress`]: small enough to stay in the caches.
const IN_PROGRESS_MARKS: usize = 1 << 16;

/// Plies from the root whose nodes are marked: deeper subtrees are too cheap to share (on
/// the whole 6x7 table, 8 beat 4, 12, 16 and 40; docs/solved.md).
const SHARED_PLIES: usize = 8;

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

    fn enter(&self, s: Slot) {
        self.mark(s).fetch_add(1, Ordering::Relaxed);
    }

    fn leave(&self, s: Slot) {
        self.mark(s).fetch_sub(1, Ordering::Relaxed);
    }

    fn busy(&self, s: Slot) -> bool {
        self.mark(s).load(Ordering::Relaxed) != 0
    }
}

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

/// A solve that stopped before its budget ran out with a proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unfinished;

/// One thread of the solver.
pub struct Solver<'a> {
    table: &'a ProofTable,
    stop: &'a AtomicBool,
    node_limit: u64,
    nodes: u64,
    progress: Option<&'a AtomicU64>,
    tree: Option<&'a TreeProgress>,
    board: Option<BoardKey>,
    root_best: Option<Move>,
    root_offset: usize,
    in_progress: Option<&'a InProgress>,
    lists: Vec<Vec<Child>>,
    /// Set when the solve turns to proof numbers once the depth-first search finds it hard.
    numbers: Option<proof_numbers::Numbers>,
    /// How many times each move (from, to; indices mod 64) has been a node's winning move:
    /// the move order's last tie-break. A move that refutes here tends to refute in the
    /// positions around, which differ from this one in a few distant stones.
    history: Vec<u32>,
}

/// A move of the node being searched, with its rank in the move order and, for an enhanced
/// transposition cutoff, the tag and bucket words of the position it leads to.
#[derive(Clone, Copy)]
struct Child {
    m: Move,
    order: u64,
    slot: Slot,
    /// Left for last: another thread was searching it when its turn came.
    deferred: bool,
}

/// Nodes between looks at the stop flag (and reports to the progress counter).
const CHECK_EVERY: u64 = 4096;

impl<'a> Solver<'a> {
    /// A solver on a shared table; it gives up after `node_limit` nodes or when `stop` rises.
    pub fn new(table: &'a ProofTable, stop: &'a AtomicBool, node_limit: u64) -> Self {
        Solver {
            table,
            stop,
            node_limit,
            nodes: 0,
            progress: None,
            tree: None,
            board: None,
            root_best: None,
            root_offset: 0,
            in_progress: None,
            lists: Vec::new(),
            numbers: None,
            history: vec![0; 64 * 64],
        }
    }

    /// Solves depth-first for the first `search.after` nodes, then by proof numbers
    /// (df-pn), which go where the proof is cheapest instead of finishing each move before
    /// trying the next: the cure for a wrong first move near the root.
    pub fn with_proof_numbers(mut self, search: ProofNumberSearch) -> Self {
        self.numbers = Some(proof_numbers::Numbers::new(search));
        self
    }

    /// Starts the root's moves at the `offset`-th in the move order (wrapping round), so that
    /// threads solving one position on a shared table begin on different moves. Where every
    /// move must be refuted, the threads split the refutations between them; where a move
    /// wins, the one that finds it first stores the proof and the others meet it in the table.
    pub fn with_root_offset(mut self, offset: usize) -> Self {
        self.root_offset = offset;
        self
    }

    /// Shares `in_progress` with the other threads solving on this table: each marks the
    /// nodes of its first plies there, and leaves for last the moves another thread is in.
    pub fn with_in_progress(mut self, in_progress: &'a InProgress) -> Self {
        self.in_progress = Some(in_progress);
        self
    }

    /// Adds the nodes visited to `counter` as the solve goes, for a progress display.
    pub fn with_progress(mut self, counter: &'a AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Shows in `tree` which moves of the first plies are being searched, for an estimate
    /// of how far the solve has got.
    pub fn with_tree_progress(mut self, tree: &'a TreeProgress) -> Self {
        self.tree = Some(tree);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// How this solver's positions are keyed in the table (after the first solve).
    pub fn keying(&self) -> Option<Keying> {
        self.board.map(|b| b.keying)
    }

    /// Proves whether the side to move wins, and how.
    pub fn solve<B: Bits>(&mut self, pos: &Position<B>) -> Result<Proof, Unfinished> {
        let board = self.table.board_key(pos);
        self.board = Some(board);
        let mut p = *pos;
        self.root_best = None;
        let slot = self.table.slot(&board, &p);
        let win = if self.numbers.is_some() {
            self.prove_by_numbers(&mut p, &board, slot)?
        } else {
            self.wins(&mut p, &board, slot, 0)?
        };
        Ok(Proof {
            win,
            best: self.root_best.filter(|_| win),
        })
    }

    /// True when the side to move wins with perfect play.
    fn wins<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        slot: Slot,
        ply: usize,
    ) -> Result<bool, Unfinished> {
        self.count_node()?;
        if let Some(p) = self.table.lookup(slot) {
            if ply == 0 {
                self.root_best = p.best;
            }
            return Ok(p.win);
        }
        let start_nodes = self.nodes;
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let mut winning = None;
        for m in pos.moves() {
            pos.make(m);
            let replies = pos.count_moves();
            if replies == 0 {
                pos.unmake(m);
                winning = Some(m);
                break;
            }
            let order = self.move_order(pos, m, replies);
            let slot = self.table.slot(board, pos);
            pos.unmake(m);
            list.push(Child {
                m,
                order,
                slot,
                deferred: false,
            });
        }
        if winning.is_none() {
            // Enhanced transposition cutoff at every node: a child proven lost for the
            // opponent wins at once, one proven won for the opponent needs no search. The
            // entries are read in a pass of their own, after all children are generated, so
            // that their cache misses overlap instead of stalling one after another (1.5x
            // faster than probing each child as it is made).
            list.retain(|c| match self.table.lookup(c.slot) {
                Some(p) => {
                    if !p.win && winning.is_none() {
                        winning = Some(c.m);
                    }
                    false
                }
                None => true,
            });
        }
        if winning.is_none() {
            // Fewest replies first: forcing moves end the game, or the proof, soonest.
            list.sort_unstable_by_key(|c| c.order);
            if ply == 0 && !list.is_empty() {
                let by = self.root_offset % list.len();
                list.rotate_left(by);
            }
            let shared = self.in_progress.filter(|_| ply < SHARED_PLIES);
            if let Some(s) = shared {
                s.enter(slot);
            }
            let found = self.first_win(pos, board, &mut list, ply);
            if let Some(s) = shared {
                s.leave(slot);
            }
            match found {
                Ok(m) => winning = m,
                Err(e) => {
                    self.lists[ply] = list;
                    return Err(e);
                }
            }
        }
        self.lists[ply] = list;
        Ok(self.record(slot, ply, winning, self.nodes - start_nodes + 1))
    }

    /// Records a node's result, a win by `winning` or a loss, that took `nodes` nodes: in
    /// the table, the history, and at the root the root's move; true for a win.
    fn record(&mut self, slot: Slot, ply: usize, winning: Option<Move>, nodes: u64) -> bool {
        if let Some(m) = winning {
            // One count a win, whatever the proof cost: weighting by its nodes cut 5x6 and
            // 6x6 by a quarter but cost 6x7 nodes (docs/solved.md).
            let won = &mut self.history[history_index(m)];
            *won = won.saturating_add(1);
        }
        if ply == 0 {
            // The root's move is kept here: the table may have no room for the root's proof.
            self.root_best = winning;
        }
        let proof = Proof {
            win: winning.is_some(),
            best: winning,
        };
        self.table.store_slot(slot, proof, nodes);
        proof.win
    }

    /// Counts a node, and gives up when the budget is spent or the stop flag rises.
    fn count_node(&mut self) -> Result<(), Unfinished> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(p) = self.progress {
                p.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) {
                return Err(Unfinished);
            }
        }
        if self.nodes > self.node_limit {
            return Err(Unfinished);
        }
        Ok(())
    }

    /// Where move `m`, just made in `pos`, leaving the opponent `replies` moves, goes in
    /// the move order (smaller first): fewest replies first; among equals, the most moves
    /// left for us, then the move that has won most often.
    fn move_order<B: Bits>(&self, pos: &Position<B>, m: Move, replies: u32) -> u64 {
        let ours = pos.mobility(pos.turn().opponent());
        let won = self.history[history_index(m)];
        u64::from(replies) << 40 | u64::from(255 - ours.min(255)) << 32 | u64::from(u32::MAX - won)
    }

    /// The first of the node's moves (in `list`'s order) after which the opponent loses.
    /// Sharing the search with other threads, a move another thread is in is left for last
    /// (never the first move: every thread starts where the proof most likely is), and is
    /// looked up again when its turn comes round, since that thread may have proven it.
    fn first_win<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        list: &mut [Child],
        ply: usize,
    ) -> Result<Option<Move>, Unfinished> {
        let shared = self.in_progress.filter(|_| ply + 1 < SHARED_PLIES);
        for i in 0..list.len() {
            if i > 0 && shared.is_some_and(|s| s.busy(list[i].slot)) {
                list[i].deferred = true;
                continue;
            }
            if self.loses_after(pos, board, list, i, ply)? {
                return Ok(Some(list[i].m));
            }
        }
        for i in 0..list.len() {
            if !list[i].deferred {
                continue;
            }
            if let Some(p) = self.table.lookup(list[i].slot) {
                if !p.win {
                    return Ok(Some(list[i].m));
                }
                continue;
            }
            if self.loses_after(pos, board, list, i, ply)? {
                return Ok(Some(list[i].m));
            }
        }
        Ok(None)
    }

    /// True when the opponent loses after the node's `i`-th move.
    fn loses_after<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        list: &[Child],
        i: usize,
        ply: usize,
    ) -> Result<bool, Unfinished> {
        if ply < TREE_PLIES
            && let Some(tree) = self.tree
        {
            tree.enter(ply, i, list.len());
        }
        let Child { m, slot, .. } = list[i];
        pos.make(m);
        let reply_wins = self.wins(pos, board, slot, ply + 1);
        pos.unmake(m);
        Ok(!reply_wins?)
    }
}

/// A move's entry in [`Solver`]'s history (boards past 64 squares share entries, which
/// costs only order).
fn history_index(m: Move) -> usize {
    (m.from().index() % 64) * 64 + m.to().index() % 64
}

/// A line that follows the proof from `pos`: the winner's moves come from the table, the
/// loser's replies are its first legal moves, until the game ends or the table runs dry.
pub fn proven_line<B: Bits>(table: &ProofTable, pos: &Position<B>) -> Vec<Move> {
    let board = table.board_key(pos);
    let mut p = *pos;
    let mut line = Vec::new();
    while line.len() < crate::search::MAX_PLY {
        let next = match table.probe_with(&board, &p) {
            Some(Proof {
                win: true,
                best: Some(m),
            }) => Some(m),
            _ => p.moves().next(),
        };
        let Some(m) = next else { break };
        if !p.is_legal(m) {
            break;
        }
        p.make(m);
        line.push(m);
    }
    line
}

/// Why a result did not survive its re-check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecheckError {
    /// The re-check ran out of nodes or was stopped.
    Unfinished,
    /// The re-check proved the other result.
    Disagrees,
    /// A win was claimed without a winning move, or with an illegal one.
    NoLegalWinningMove,
}

impl std::fmt::Display for RecheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecheckError::Unfinished => "the re-check did not finish",
            RecheckError::Disagrees => "the re-check proved the other result",
            RecheckError::NoLegalWinningMove => "the claimed win has no legal winning move",
        })
    }
}

impl std::error::Error for RecheckError {}

/// Proves `claimed` about `pos` again on `table`, which must not be the table that found
/// it (a fresh one, or one keyed differently), so that no entry of the first run can vouch
/// for itself: a win by showing that its move is legal (the core's own check) and leaves
/// the opponent lost, a loss by solving it again.
pub fn recheck<B: Bits>(
    pos: &Position<B>,
    claimed: Proof,
    table: &ProofTable,
    stop: &AtomicBool,
    node_limit: u64,
) -> Result<(), RecheckError> {
    let mut solver = Solver::new(table, stop, node_limit);
    // Either way a position must turn out lost: the one after the winning move, or this one.
    let mut lost = *pos;
    if claimed.win {
        let best = claimed.best.ok_or(RecheckError::NoLegalWinningMove)?;
        if pos.check(best).is_err() {
            return Err(RecheckError::NoLegalWinningMove);
        }
        lost.make(best);
    }
    match solver.solve(&lost) {
        Err(Unfinished) => Err(RecheckError::Unfinished),
        Ok(p) if p.win => Err(RecheckError::Disagrees),
        Ok(_) => Ok(()),
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

    /// A third of the marks raised, as if other threads were in those positions: each node
    /// searches its first move, then the unmarked ones, then the marked ones (looking each up
    /// again first), and still proves what a solver alone proves at every position of some
    /// 5x6 games, with a winning move that wins.
    #[test]
    fn leaving_busy_moves_for_last_proves_the_same() {
        use konane_core::{Game, Size, with_position};
        let busy = InProgress::default();
        for mark in busy.marks.iter().step_by(3) {
            mark.store(1, Ordering::Relaxed);
        }
        let stop = AtomicBool::new(false);
        let mut seed = 7u64;
        let mut deferred_order_differs = false;
        for _ in 0..6 {
            let mut game = Game::new(Size::new(5, 6).unwrap(), Opening::CenterOrCorner);
            while !game.position().legal_moves().is_empty() {
                let pos = *game.position();
                let plain_table = ProofTable::new(4);
                let mut plain = Solver::new(&plain_table, &stop, u64::MAX);
                let expected = with_position!(pos, p => plain.solve(&p)).unwrap();
                let table = ProofTable::new(4);
                let mut solver = Solver::new(&table, &stop, u64::MAX).with_in_progress(&busy);
                let proof = with_position!(pos, p => solver.solve(&p)).unwrap();
                assert_eq!(proof.win, expected.win, "{pos}");
                deferred_order_differs |= solver.nodes() != plain.nodes();
                if let Some(best) = proof.best {
                    let mut after = pos;
                    after.play(best).unwrap();
                    let mut check = Solver::new(&plain_table, &stop, u64::MAX);
                    let reply = with_position!(after, p => check.solve(&p)).unwrap();
                    assert!(!reply.win, "{} does not win in {pos}", pos.move_text(best));
                }
                let moves = game.position().legal_moves();
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                game.play(moves[(seed >> 33) as usize % moves.len()])
                    .unwrap();
            }
        }
        assert!(deferred_order_differs, "the marks changed no search");
    }

    #[test]
    fn unmix_undoes_mix_for_every_width() {
        let mut x = 0x0123_4567_89ab_cdef_u64;
        for bits in 1..=64 {
            let mask = u64::MAX >> (64 - bits);
            for _ in 0..1000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let v = (x >> 7) & mask;
                let m = mix(v, bits);
                assert!(m <= mask, "mix leaves {bits} bits");
                assert_eq!(unmix(m, bits), v, "{bits} bits, {v:#x}");
            }
        }
    }

    #[test]
    fn a_table_takes_the_memory_asked_and_its_buckets_give_each_key_back() {
        for (mb, buckets) in [(0, 1 << 16), (1, 1 << 16), (3, 3 << 16), (6, 6 << 16)] {
            let table = ProofTable::new(mb);
            assert_eq!(table.buckets, buckets, "{mb} MiB");
            assert_eq!(table.slots.len() as u64, 2 * buckets, "{mb} MiB");
        }
        let mut x = 0x0123_4567_89ab_cdef_u64;
        for buckets in [512, 1 << 16, 3 << 16, 6 << 16, 96 << 16] {
            let table = ProofTable {
                slots: Slots::zeroed(2),
                buckets,
            };
            for salt in [0, 1, buckets / 2, buckets - 1] {
                for bits in [20, 43, 57, 64] {
                    for _ in 0..1000 {
                        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let key = x >> (64 - bits);
                        let (bucket, quotient) = table.place(key, salt);
                        assert!((bucket as u64) < buckets);
                        assert_eq!(table.key_of(bucket as u64, quotient, salt), key);
                    }
                }
            }
        }
    }
}
