//! A tiny deterministic generator for choosing moves in random playouts.

/// Xorshift64: seeded by proptest, so a failing case replays exactly.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
