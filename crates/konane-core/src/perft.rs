//! Perft: the number of move sequences of a given length, the standard check and benchmark
//! of a move generator. The last ply is counted, not played (bulk counting).

use crate::bitboard::Bits;
use crate::movegen::{count_jumps, shift};
use crate::moves::Move;
use crate::position::{Phase, Position};

/// The number of leaves `depth` plies below `pos`.
pub fn perft<B: Bits>(pos: &mut Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_moves()),
        2 if pos.phase() == Phase::Jumping => count_grandchildren(pos),
        _ => {
            let mut n = 0;
            for m in pos.moves() {
                pos.make(m);
                n += perft(pos, depth - 1);
                pos.unmake(m);
            }
            n
        }
    }
}

/// Perft at depth 2 in the jumping phase, the innermost and hottest loop: each stone walks
/// its jump line, carrying the captured set along, and the reply count of each landing is
/// taken on the two bitboards alone (the hash and the turn do not matter to a count).
fn count_grandchildren<B: Bits>(pos: &Position<B>) -> u64 {
    let geo = pos.geometry();
    let cols = pos.size().cols() as u32;
    let own = pos.stones(pos.turn());
    let opp = pos.stones(pos.turn().opponent());
    let sources = pos.jump_sources();
    let mut n = 0;
    for (dir, &src) in sources.iter().enumerate() {
        for start in (own & src).squares() {
            let from = B::single(start);
            let mut at = from;
            let mut captured = B::ZERO;
            loop {
                captured |= shift(at, dir, 1, cols);
                at = shift(at, dir, 2, cols);
                n += u64::from(count_jumps(geo, opp ^ captured, own ^ from ^ at));
                if (at & src).is_empty() {
                    break;
                }
            }
        }
    }
    n
}

/// The perft count below each first move (`depth >= 1`), in move-generator order.
pub fn divide<B: Bits>(pos: &mut Position<B>, depth: u32) -> Vec<(Move, u64)> {
    pos.moves()
        .map(|m| {
            pos.make(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake(m);
            (m, n)
        })
        .collect()
}

#[cfg(feature = "parallel")]
pub use parallel::divide_parallel;

#[cfg(feature = "parallel")]
mod parallel {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

    use super::perft;
    use crate::bitboard::Bits;
    use crate::moves::Move;
    use crate::position::Position;

    /// Work items per thread to aim for: enough that uneven subtrees even out.
    const ITEMS_PER_THREAD: usize = 64;

    /// [`divide`](super::divide) on `threads` threads (`depth >= 1`).
    ///
    /// The tree is split a few plies down into many small items that the threads take in
    /// turn; `progress(done, total)` is called after each item.
    pub fn divide_parallel<B: Bits>(
        pos: &Position<B>,
        depth: u32,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Vec<(Move, u64)> {
        let roots: Vec<Move> = pos.moves().collect();
        // Each item: the index of its first move, the position, the plies left below it.
        let mut items: Vec<(usize, Position<B>)> = roots
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut p = *pos;
                p.make(m);
                (i, p)
            })
            .collect();
        let mut left = depth.saturating_sub(1);
        while left > 2 && items.len() < ITEMS_PER_THREAD * threads.max(1) {
            items = items
                .into_iter()
                .flat_map(|(i, p)| {
                    p.moves().map(move |m| {
                        let mut c = p;
                        c.make(m);
                        (i, c)
                    })
                })
                .collect();
            left -= 1;
        }
        let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(root, mut p)) = items.get(k) else {
                            break;
                        };
                        counts[root].fetch_add(perft(&mut p, left), Ordering::Relaxed);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, items.len());
                    }
                });
            }
        });
        roots
            .into_iter()
            .zip(counts)
            .map(|(m, c)| (m, c.into_inner()))
            .collect()
    }
}
