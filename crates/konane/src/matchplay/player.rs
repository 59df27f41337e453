//! A player ready to move: our engine in this process, or an external program.

use std::time::Duration;

use anyhow::{Result, anyhow};
use konane_core::{Game, Move, Opening, Size};
use konane_engine::{Engine, EngineConfig, Limits, Rng, SystemClock};

use super::external::External;
use super::spec::PlayerSpec;

/// One side of a match.
pub trait Player {
    /// Prepares for a new game; `seed` drives whatever random choices the player makes.
    fn new_game(&mut self, size: Size, opening: Opening, seed: u64) -> Result<()>;
    /// The move to play in the game's current position.
    fn choose(&mut self, game: &Game) -> Result<Move>;
}

/// Our engine, at a level or within limits.
struct Internal {
    engine: Engine,
    level: Option<u8>,
    limits: Limits,
    rng: Rng,
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

/// Builds the player `spec` describes; `go` is what an external engine is told after `go`.
pub fn make_player(spec: &PlayerSpec, go: &str) -> Result<Box<dyn Player>> {
    Ok(match spec {
        PlayerSpec::Internal {
            level,
            limits,
            threads,
            weights,
        } => Box::new(Internal {
            engine: Engine::new(EngineConfig {
                hash_mb: 32,
                proof_mb: 32,
                threads: *threads,
                weights: *weights,
            }),
            level: *level,
            limits: *limits,
            rng: Rng::new(0),
        }),
        PlayerSpec::External { command } => {
            let budget = go
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .find(|w| w[0] == "time")
                .and_then(|w| w[1].parse::<u64>().ok())
                .unwrap_or(10_000);
            Box::new(External::start(
                command,
                go,
                Duration::from_millis(budget * 5 + 5_000),
            )?)
        }
    })
}
