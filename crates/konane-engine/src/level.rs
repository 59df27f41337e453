//! Playing levels 1 to 8: from a beginner who makes plausible moves and real mistakes to
//! the full engine.
//!
//! Every level scores the moves with a search and then picks one at random, weighted by
//! `exp(score / temperature)`: a low level sees little (shallow search) and often takes a
//! move that only looks good; a high level searches deeply and never strays from the best.

use crate::search::Limits;

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;
/// The full engine.
pub const MAX_LEVEL: u8 = 8;

/// A playing level, 1 (a beginner) to 8 (the full engine): the one place that knows the
/// range and the default.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Level(u8);

/// A number outside the levels' range.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LevelError(pub String);

impl core::fmt::Display for LevelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "level '{}': levels run from {MIN_LEVEL} to {MAX_LEVEL}",
            self.0
        )
    }
}

impl std::error::Error for LevelError {}

impl Level {
    /// The level a game gets when none is asked for.
    pub const DEFAULT: Level = Level(4);
    /// The weakest level.
    pub const MIN: Level = Level(MIN_LEVEL);
    /// The full engine.
    pub const MAX: Level = Level(MAX_LEVEL);

    /// The level numbered `n`, if there is one.
    pub fn new(n: i64) -> Result<Level, LevelError> {
        u8::try_from(n)
            .ok()
            .filter(|n| (MIN_LEVEL..=MAX_LEVEL).contains(n))
            .map(Level)
            .ok_or_else(|| LevelError(n.to_string()))
    }

    /// Its number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Levels that answer within a few milliseconds (a fixed shallow depth, no solver):
    /// they never need to wait behind a long search.
    pub fn is_quick(self) -> bool {
        !LevelConfig::of(self.0).solver
    }

    /// How it plays.
    pub fn config(self) -> LevelConfig {
        LevelConfig::of(self.0)
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (MIN_LEVEL..=MAX_LEVEL).map(Level)
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl core::fmt::Display for Level {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl core::str::FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        let n: i64 = s.trim().parse().map_err(|_| LevelError(s.to_string()))?;
        Level::new(n)
    }
}

impl TryFrom<i64> for Level {
    type Error = LevelError;

    fn try_from(n: i64) -> Result<Level, LevelError> {
        Level::new(n)
    }
}

impl From<Level> for u8 {
    fn from(l: Level) -> u8 {
        l.0
    }
}

/// How one level plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LevelConfig {
    /// The level, 1 to 8.
    pub level: u8,
    /// How deep and how long it looks.
    pub limits: Limits,
    /// Softness of the choice in centi-moves; 0 always plays the best move.
    pub temperature: i32,
    /// Whether the exact solver may decide endgames.
    pub solver: bool,
}

impl LevelConfig {
    /// The configuration of `level` (clamped to 1..=8).
    pub fn of(level: u8) -> LevelConfig {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let limits = |depth: Option<u32>, time_ms: u64| Limits {
            depth,
            nodes: None,
            time_ms: Some(time_ms),
        };
        let (limits, temperature, solver) = match level {
            1 => (limits(Some(1), 100), 250, false),
            2 => (limits(Some(2), 100), 150, false),
            3 => (limits(Some(3), 100), 90, false),
            4 => (limits(Some(4), 100), 45, false),
            5 => (limits(None, 100), 20, true),
            6 => (limits(None, 200), 0, true),
            7 => (limits(None, 500), 0, true),
            _ => (limits(None, 1000), 0, true),
        };
        LevelConfig {
            level,
            limits,
            temperature,
            solver,
        }
    }
}

/// SplitMix64's finaliser: a bijection of `u64` that spreads every input bit over the output,
/// so neighbouring seeds give unrelated states.
const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of stream `index` under `seed`: one match seed gives each game and each player
/// a stream of its own, and no two (seed, index) pairs are related by a simple bit flip.
pub fn substream(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ splitmix64(index))
}

/// A small deterministic random source (xorshift64*), so a seeded game replays exactly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value, zero included); every seed gives its own stream.
    pub fn new(seed: u64) -> Rng {
        // Xorshift must not start at zero. Splitmix64 is a bijection, so exactly one seed maps
        // there; it has to share a state with one other seed (2^64 seeds, 2^64 - 1 states).
        match splitmix64(seed) {
            0 => Rng(0x9e37_79b9_7f4a_7c15),
            state => Rng(state),
        }
    }

    /// A uniform value in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform index below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n - 1)
    }
}

/// Picks one of `scored` (move, score) by softmax at `temperature`; the best at 0.
pub fn pick<M: Copy>(scored: &[(M, i32)], temperature: i32, rng: &mut Rng) -> Option<M> {
    let &(best_move, best) = scored.iter().max_by_key(|&&(_, s)| s)?;
    if temperature <= 0 {
        return Some(best_move);
    }
    let weights: Vec<f64> = scored
        .iter()
        .map(|&(_, s)| {
            (f64::from((s - best).max(-20 * temperature)) / f64::from(temperature)).exp()
        })
        .collect();
    let mut x = rng.unit() * weights.iter().sum::<f64>();
    for (&(m, _), w) in scored.iter().zip(&weights) {
        if x < *w {
            return Some(m);
        }
        x -= w;
    }
    Some(best_move)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        for l in MIN_LEVEL..MAX_LEVEL {
            let (a, b) = (LevelConfig::of(l), LevelConfig::of(l + 1));
            assert!(a.temperature >= b.temperature);
            assert!(a.limits.depth.unwrap_or(99) <= b.limits.depth.unwrap_or(99));
            assert!(a.limits.time_ms <= b.limits.time_ms);
        }
        assert_eq!(LevelConfig::of(0).level, 1);
        assert_eq!(LevelConfig::of(200).level, 8);
    }

    #[test]
    fn every_seed_gives_its_own_stream() {
        let firsts: std::collections::HashSet<u64> = (0..10_000u64)
            .map(|seed| Rng::new(seed).unit().to_bits())
            .collect();
        assert_eq!(firsts.len(), 10_000);
        let streams: std::collections::HashSet<u64> = (0..100u64)
            .flat_map(|seed| (0..100).map(move |i| substream(seed, i)))
            .collect();
        assert_eq!(streams.len(), 10_000);
    }

    #[test]
    fn softmax_prefers_good_moves_but_not_always() {
        let scored = [('a', 0), ('b', -100), ('c', -1000)];
        let mut rng = Rng::new(7);
        let mut counts = [0; 3];
        for _ in 0..10_000 {
            let m = pick(&scored, 100, &mut rng).unwrap();
            counts[(m as u8 - b'a') as usize] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[1] > 1_000, "{counts:?}");
        assert_eq!(pick(&scored, 0, &mut rng), Some('a'));
        assert_eq!(pick::<char>(&[], 10, &mut rng), None);
    }
}
