//! Our engine as a player, at a level or within limits.

use anyhow::{Result, anyhow};
use konane_core::{Game, Move, Opening, Size};
use konane_engine::{Engine, EngineConfig, Limits, Rng, SystemClock, Weights};

use super::player::Player;

/// Our engine, at a level or within limits.
pub struct Internal {
    engine: Engine,
    level: Option<u8>,
    limits: Limits,
    rng: Rng,
}

impl Internal {
    /// Our engine with `threads` search threads and `weights`, playing at `level`, or
    /// within `limits` when no level is given.
    pub fn new(level: Option<u8>, limits: Limits, threads: usize, weights: Weights) -> Internal {
        Internal {
            engine: Engine::new(EngineConfig {
                hash_mb: 32,
                proof_mb: 32,
                threads,
                weights,
            }),
            level,
            limits,
            rng: Rng::new(0),
        }
    }
}

impl Player for Internal {
    fn new_game(&mut self, _: Size, _: Opening, seed: u64) -> Result<()> {
        self.engine.new_game();
        self.rng = Rng::new(seed);
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move> {
        let pos = game.position();
        let clock = SystemClock::start();
        let m = match self.level {
            Some(level) => self.engine.choose(pos, level, &clock, &mut self.rng),
            None => {
                self.engine
                    .think(pos, self.limits, true, &clock, &mut |_| {})
                    .best
            }
        };
        m.ok_or_else(|| anyhow!("asked to move in a position without moves"))
    }
}
