//! The proof table's memory: a zeroed array of atomic words that, on Linux and when large,
//! asks the kernel for huge pages.
//!
//! A table of gigabytes is read at random, a few entries a node, so with 4 KiB pages nearly
//! every read also misses the TLB and walks the page tables (in a virtual machine, two
//! levels of them). With 2 MiB pages the same table needs 512 times fewer translations.
//! Where transparent huge pages are only given to memory that asks (`madvise` mode, the
//! common default), a plain allocation never gets them: this one maps its memory itself
//! and asks before the first touch.

#![allow(unsafe_code)]

use std::ops::Deref;
use std::sync::atomic::AtomicU64;

/// Words in the smallest page.
#[cfg(unix)]
const PAGE_WORDS: usize = 4096 / std::mem::size_of::<AtomicU64>();

/// The smallest table given huge pages. Making them can stall on the kernel compacting
/// memory, up to about 10 s a GiB when free memory is in small pieces: a solve of hours does
/// not notice, but a game's engine (tables of 16-64 MiB, whose TLB misses cost less) must
/// not wait for it.
#[cfg(target_os = "linux")]
const HUGE_FROM: usize = 256 << 20;

/// `len` zeroed atomic words, on huge pages where the system gives them (from [`HUGE_FROM`]).
pub(crate) struct Slots {
    memory: Memory,
}

enum Memory {
    #[cfg(unix)]
    Mapped {
        start: std::ptr::NonNull<AtomicU64>,
        len: usize,
    },
    Boxed(Box<[AtomicU64]>),
}

// SAFETY: a mapping is owned by its `Slots` alone, like a `Box<[AtomicU64]>`, and atomics
// may be shared and sent between threads.
unsafe impl Send for Memory {}
// SAFETY: as above; every access through `Deref` is an atomic operation.
unsafe impl Sync for Memory {}

impl Slots {
    /// `len` words, every one zero.
    pub(crate) fn zeroed(len: usize) -> Slots {
        #[cfg(unix)]
        if let Some(memory) = Memory::map(len) {
            let slots = Slots { memory };
            // Every page touched now, as a boxed array's zeroing would: a table larger than
            // the memory there is fails at the start, not hours into a run.
            for word in slots.iter().step_by(PAGE_WORDS) {
                word.store(0, std::sync::atomic::Ordering::Relaxed);
            }
            return slots;
        }
        Slots {
            memory: Memory::Boxed((0..len).map(|_| AtomicU64::new(0)).collect()),
        }
    }
}

#[cfg(unix)]
impl Memory {
    /// An anonymous private mapping (zero-filled by the kernel, pages made on first touch),
    /// advised to use huge pages before anything touches it; `None` when the system refuses.
    fn map(len: usize) -> Option<Memory> {
        let bytes = len.checked_mul(std::mem::size_of::<AtomicU64>())?;
        if bytes == 0 {
            return None;
        }
        // SAFETY: a fresh anonymous mapping aliases nothing; the result is checked.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return None;
        }
        // Never null: the kernel maps nothing at address 0 unless asked to (MAP_FIXED).
        let start = std::ptr::NonNull::new(start)?;
        // Advice only: a kernel without huge pages refuses it and the table works as before.
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_FROM {
            // SAFETY: the range is the mapping just made; the advice changes no contents.
            unsafe {
                libc::madvise(start.as_ptr(), bytes, libc::MADV_HUGEPAGE);
            }
        }
        Some(Memory::Mapped {
            start: start.cast(),
            len,
        })
    }
}

impl Deref for Slots {
    type Target = [AtomicU64];

    fn deref(&self) -> &[AtomicU64] {
        match &self.memory {
            #[cfg(unix)]
            // SAFETY: the mapping holds `len` words, page-aligned, zero-filled at the start
            // (all-zero bits are a valid `AtomicU64`), and lives until `self` is dropped.
            Memory::Mapped { start, len } => unsafe {
                std::slice::from_raw_parts(start.as_ptr(), *len)
            },
            Memory::Boxed(words) => words,
        }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Memory::Mapped { start, len } = self.memory {
            // SAFETY: the mapping made in `map`, of this length, with no reference into it
            // left (they borrow `self`).
            unsafe {
                libc::munmap(
                    start.as_ptr().cast(),
                    len * std::mem::size_of::<AtomicU64>(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn every_word_starts_zero_and_keeps_what_is_stored() {
        // The last is past HUGE_FROM, so it has the huge pages' advice.
        for len in [0, 1, 1024, 3 << 18, (256 << 20) / 8 + 512] {
            let slots = Slots::zeroed(len);
            assert_eq!(slots.len(), len);
            assert!(slots.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            for (i, w) in slots.iter().enumerate().step_by(4099) {
                w.store(i as u64 + 1, Ordering::Relaxed);
            }
            for (i, w) in slots.iter().enumerate() {
                let want = if i % 4099 == 0 { i as u64 + 1 } else { 0 };
                assert_eq!(w.load(Ordering::Relaxed), want);
            }
        }
    }

    #[test]
    fn threads_share_one_table() {
        let slots = Slots::zeroed(1 << 16);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let slots = &slots;
                s.spawn(move || {
                    for w in slots.iter().skip(t as usize).step_by(4) {
                        w.store(t + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert!(
            slots
                .iter()
                .enumerate()
                .all(|(i, w)| w.load(Ordering::Relaxed) == i as u64 % 4 + 1)
        );
    }
}
