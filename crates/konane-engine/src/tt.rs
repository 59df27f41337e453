//! The transposition table of the heuristic search, shared by all search threads.
//!
//! Each slot is two atomics holding `key ^ data` and `data`: a slot torn by two threads
//! writing at once fails the key check and reads as empty, so no lock is needed.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use konane_core::{Move, Square};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// What the table knows about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The score, adjusted to the distance from this position for wins and losses.
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// How `score` bounds the value.
    pub bound: Bound,
    /// The best (or refuting) move found.
    pub best: Option<Move>,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size, lock-free hash table of search results.
pub struct Table {
    slots: Box<[Slot]>,
    generation: AtomicU8,
}

/// Bytes per slot.
const SLOT_BYTES: usize = 16;

/// Packs a move into 17 bits (a presence bit, then the two square indices).
pub(crate) fn pack_move(m: Option<Move>) -> u64 {
    m.map_or(0, |m| {
        1 << 16 | (m.from().index() as u64) << 8 | m.to().index() as u64
    })
}

/// The inverse of [`pack_move`].
pub(crate) fn unpack_move(bits: u64) -> Option<Move> {
    if bits & 1 << 16 == 0 {
        return None;
    }
    let from = Square::from_index((bits >> 8 & 0xff) as usize);
    let to = Square::from_index((bits & 0xff) as usize);
    Some(if from == to {
        Move::removal(from)
    } else {
        Move::jump(from, to)
    })
}

impl Table {
    /// A table of `megabytes` MiB (at least one).
    pub fn new(megabytes: usize) -> Table {
        let n = (megabytes.max(1) << 20) / SLOT_BYTES;
        let slots = (0..n)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            generation: AtomicU8::new(0),
        }
    }

    /// Marks older entries as stale, so a new search replaces them first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        // The key scaled to the number of slots (a multiply and a shift): any number of
        // slots, so a table takes the whole size asked. The slot checks the whole key.
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slot(key);
        let data = s.data.load(Ordering::Relaxed);
        if data == 0 || s.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        Some(decode(data))
    }

    /// Stores a result, unless the slot holds a deeper one for the same search.
    pub fn store(&self, key: u64, e: Entry) {
        let s = self.slot(key);
        let old = s.data.load(Ordering::Relaxed);
        let generation = self.generation.load(Ordering::Relaxed);
        if old != 0 {
            let same_key = s.check.load(Ordering::Relaxed) ^ old == key;
            let fresh = (old >> 56) as u8 == generation;
            let deeper = ((old >> 40) & 0xff) as i32 > e.depth.clamp(0, 255) + 2;
            if fresh && deeper && !(same_key && e.best.is_some()) {
                return;
            }
        }
        let data = encode(e, generation);
        s.check.store(key ^ data, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
    }
}

// Layout: generation 8 bits | depth 8 | bound 2 | score 16 | move 17 | a set bit 1.
fn encode(e: Entry, generation: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (generation as u64) << 56
        | (e.depth.clamp(0, 255) as u64) << 40
        | bound << 38
        | ((e.score as i16) as u16 as u64) << 18
        | pack_move(e.best) << 1
        | 1
}

fn decode(d: u64) -> Entry {
    Entry {
        score: ((d >> 18) & 0xffff) as u16 as i16 as i32,
        depth: ((d >> 40) & 0xff) as i32,
        bound: match (d >> 38) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
        best: unpack_move((d >> 1) & 0x1_ffff),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_a_round_trip() {
        let t = Table::new(1);
        let m = Move::jump(Square::from_index(3), Square::from_index(19));
        let e = Entry {
            score: -29_990,
            depth: 17,
            bound: Bound::Lower,
            best: Some(m),
        };
        t.store(0xdead_beef_1234, e);
        assert_eq!(t.probe(0xdead_beef_1234), Some(e));
        assert_eq!(t.probe(0xdead_beef_1235), None);
        let r = Entry {
            score: 5,
            depth: 0,
            bound: Bound::Exact,
            best: Some(Move::removal(Square::from_index(255))),
        };
        // The slot is chosen by the key's high bits.
        t.store(7 << 60 | 7, r);
        assert_eq!(t.probe(7 << 60 | 7), Some(r));
        assert_eq!(t.slots.len(), 1 << 16);
    }

    #[test]
    fn a_table_of_any_size_uses_all_of_it() {
        let t = Table::new(3);
        assert_eq!(t.slots.len(), 3 << 16, "3 MiB of 16-byte slots");
        let e = |depth| Entry {
            score: depth,
            depth,
            bound: Bound::Exact,
            best: None,
        };
        let mut key = 0x0123_4567_89ab_cdef_u64;
        let keys: Vec<u64> = (0..20_000)
            .map(|_| {
                key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                key
            })
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, e(i as i32 % 100));
        }
        let kept = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
        // 20,000 keys over 196,608 slots: about one in twenty lands on another's slot.
        assert!(kept > 18_500, "{kept}");
        let last_third = t.slots[2 << 16..]
            .iter()
            .filter(|s| s.data.load(Ordering::Relaxed) != 0)
            .count();
        assert!((5_500..7_500).contains(&last_third), "{last_third}");
        assert_eq!(Table::new(0).slots.len(), 1 << 16);
    }
}
