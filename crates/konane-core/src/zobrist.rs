//! Zobrist keys: a fixed random 64-bit key per (colour, square) and one for the side to move.
//!
//! The table is built at compile time from a fixed seed, so hashes are the same in every
//! build and on every platform (the engine's opening books and tests can rely on them).

/// Keys for Black's stones (index 0) and White's (index 1), per square index.
pub(crate) static STONE_KEYS: [[u64; 256]; 2] = stone_keys();

/// XORed in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix(0x4b6f_6e61_6e65_2121);

/// The key of a board: its size and opening rule.
pub(crate) const fn board(rows: usize, cols: usize, opening: usize) -> u64 {
    splitmix(0x626f_6172_6400_0000 ^ (rows as u64) << 16 ^ (cols as u64) << 8 ^ opening as u64)
}

const fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn stone_keys() -> [[u64; 256]; 2] {
    let mut keys = [[0; 256]; 2];
    let mut state: u64 = 0x5a0b_1157_0000_0001;
    let mut i = 0;
    while i < 512 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        keys[i / 256][i % 256] = splitmix(state);
        i += 1;
    }
    keys
}

/// The key of one stone.
#[inline]
pub(crate) fn stone(color: usize, square: usize) -> u64 {
    STONE_KEYS[color][square]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 513);
    }
}
