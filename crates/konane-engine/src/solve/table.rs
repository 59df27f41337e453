//! The table of proven positions and its keys: how a position finds its bucket and the tag
//! its slot carries, exactly where the board allows it, by hash where not ([`Keying`]).

use std::sync::atomic::Ordering;

use konane_core::{Bits, Color, Move, Opening, Position};

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
    pub(super) slots: Slots,
    /// Buckets of two slots: any number, so that a table fills the memory it is given.
    pub(super) buckets: u64,
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
pub(super) const WIN_SHIFT: u32 = 17;
pub(super) const WORK_SHIFT: u32 = 18;
pub(super) const WORK_MAX: u64 = 31;
const TURN_SHIFT: u32 = 23;
pub(super) const SIZE_SHIFT: u32 = 24;
const OPENING_SHIFT: u32 = 32;
pub(super) const HASHED_SHIFT: u32 = 33;
pub(super) const QUOTIENT_SHIFT: u32 = 34;
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
pub(super) fn unmix(mut x: u64, bits: u32) -> u64 {
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
pub(super) fn untag_opening(board_tag: u64, occupied: u64, squares: u32) -> u64 {
    if occupied.count_ones() + 1 < squares {
        board_tag & !(1 << OPENING_SHIFT)
    } else {
        board_tag
    }
}

/// Spreads each board's buckets over the whole table: keys of small boards are fewer than
/// the buckets, and boards of one size would otherwise crowd the same first buckets. It
/// depends on the size alone, so the slot word it is read back from always gives it.
pub(super) fn board_salt(word: u64) -> u64 {
    ((word >> SIZE_SHIFT) & 0xff).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16
}

/// Where one position lives: its bucket and the tag its slot must carry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Slot {
    pub(super) bucket: usize,
    pub(super) tag: u64,
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
    pub(super) fn place(&self, key: u64, salt: u64) -> (usize, u64) {
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
    pub(super) fn key_of(&self, bucket: u64, quotient: u64, salt: u64) -> u64 {
        let remainder = if bucket >= salt {
            bucket - salt
        } else {
            bucket + self.buckets - salt
        };
        quotient * self.buckets + remainder
    }

    /// Whether every key below `2^bits` leaves a quotient that fits a slot.
    pub(super) fn keys_fit(&self, bits: u32) -> bool {
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

    pub(super) fn slot<B: Bits>(&self, board: &BoardKey, pos: &Position<B>) -> Slot {
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
    pub(super) fn lookup(&self, s: Slot) -> Option<Proof> {
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
    pub(super) fn store_slot(&self, s: Slot, proof: Proof, nodes: u64) {
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

impl ProofTable {
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

#[cfg(test)]
mod tests {
    use super::*;

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
