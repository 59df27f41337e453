//! Engine moves off the async runtime: a bounded number of searches run at once on
//! blocking threads, each with its own engine, so a flood of engine games waits its turn
//! instead of starving the human games.

use std::sync::Mutex;

use konane_core::{AnyPosition, Move};
use konane_engine::{Engine, EngineConfig, Rng, SystemClock};
use tokio::sync::Semaphore;

/// A pool of engines.
pub struct EnginePool {
    permits: Semaphore,
    idle: Mutex<Vec<Engine>>,
}

impl EnginePool {
    /// A pool running at most `size` searches at once.
    pub fn new(size: usize) -> EnginePool {
        EnginePool {
            permits: Semaphore::new(size.max(1)),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The engine's move at `level`, computed on a blocking thread once a place is free.
    pub async fn choose(&self, pos: AnyPosition, level: u8, seed: u64) -> Option<Move> {
        let queued = std::time::Instant::now();
        metrics::gauge!("konane_engine_queue").increment(1.0);
        let permit = self.permits.acquire().await;
        metrics::gauge!("konane_engine_queue").decrement(1.0);
        metrics::histogram!("konane_engine_wait_seconds").record(queued.elapsed().as_secs_f64());
        let _permit = permit.ok()?;
        let engine = self
            .idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_else(|| {
                Engine::new(EngineConfig {
                    hash_mb: 16,
                    proof_mb: 16,
                    threads: 1,
                    ..EngineConfig::default()
                })
            });
        let (engine, best) = tokio::task::spawn_blocking(move || {
            engine.new_game();
            let best = engine.choose(&pos, level, &SystemClock::start(), &mut Rng::new(seed));
            (engine, best)
        })
        .await
        .ok()?;
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(engine);
        }
        best
    }
}
