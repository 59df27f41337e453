//! Engine moves off the async runtime, shared fairly.
//!
//! The engine is the server's scarce resource, so searches go through two lanes: quick
//! levels (a fixed shallow depth, milliseconds) and deep ones (up to a second each), each
//! with at most `threads` searches at once, so a level-1 reply never waits behind a long
//! search. Within a lane every client (an address) has one place in the queue at a time:
//! ten games of one client wait behind each other, not in front of everybody else.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use konane_core::{AnyPosition, Move};
use konane_engine::{Engine, EngineConfig, Level, Rng, SystemClock};
use tokio::sync::Semaphore;

/// Deep searches that may wait per search thread before new engine games are refused.
const QUEUE_PER_THREAD: usize = 16;

/// One lane: its search places, and each client's single place in its queue.
struct Lane {
    permits: Semaphore,
    clients: Mutex<HashMap<String, Arc<Semaphore>>>,
    waiting: AtomicUsize,
}

impl Lane {
    fn new(threads: usize) -> Lane {
        Lane {
            permits: Semaphore::new(threads),
            clients: Mutex::new(HashMap::new()),
            waiting: AtomicUsize::new(0),
        }
    }

    fn client(&self, client: &str) -> Arc<Semaphore> {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            clients
                .entry(client.to_string())
                .or_insert_with(|| Arc::new(Semaphore::new(1))),
        )
    }

    /// Forgets a client's queue place once nobody holds or waits for it.
    fn release(&self, client: &str) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if clients
            .get(client)
            .is_some_and(|s| Arc::strong_count(s) == 1)
        {
            clients.remove(client);
        }
    }
}

/// Counts a search as waiting or running until dropped.
struct Pending<'a>(&'a AtomicUsize);

impl<'a> Pending<'a> {
    fn new(n: &'a AtomicUsize) -> Pending<'a> {
        n.fetch_add(1, Ordering::Relaxed);
        Pending(n)
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A pool of engines.
pub struct EnginePool {
    threads: usize,
    quick: Lane,
    deep: Lane,
    max_queue: usize,
    idle: Mutex<Vec<Engine>>,
}

impl EnginePool {
    /// A pool running at most `threads` searches at once in each lane; with 0 it runs
    /// none, and browsers play the computer.
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            threads,
            quick: Lane::new(threads),
            deep: Lane::new(threads),
            max_queue: threads * QUEUE_PER_THREAD,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Whether this server searches at all (`--engine-threads` above 0).
    pub fn available(&self) -> bool {
        self.threads > 0
    }

    /// Too much deep work is queued to take on another engine game.
    pub fn overloaded(&self) -> bool {
        self.deep.waiting.load(Ordering::Relaxed) >= self.max_queue
    }

    /// Searches waiting or running, quick and deep.
    pub fn queued(&self) -> (usize, usize) {
        (
            self.quick.waiting.load(Ordering::Relaxed),
            self.deep.waiting.load(Ordering::Relaxed),
        )
    }

    /// The engine's move at `level` for `client`, computed on a blocking thread once the
    /// client's turn in its lane has come and a place is free.
    pub async fn choose(
        &self,
        client: &str,
        pos: AnyPosition,
        level: Level,
        seed: u64,
    ) -> Option<Move> {
        // No search place would ever free up.
        if !self.available() {
            return None;
        }
        let lane = if level.is_quick() {
            &self.quick
        } else {
            &self.deep
        };
        let _pending = Pending::new(&lane.waiting);
        let place = lane.client(client);
        let queued = std::time::Instant::now();
        metrics::gauge!("konane_engine_queue").increment(1.0);
        let best = async {
            let turn = place.acquire().await;
            let permit = lane.permits.acquire().await;
            metrics::gauge!("konane_engine_queue").decrement(1.0);
            metrics::histogram!("konane_engine_wait_seconds")
                .record(queued.elapsed().as_secs_f64());
            let (_turn, _permit) = (turn.ok()?, permit.ok()?);
            self.search(pos, level, seed).await
        }
        .await;
        drop(place);
        lane.release(client);
        best
    }

    async fn search(&self, pos: AnyPosition, level: Level, seed: u64) -> Option<Move> {
        let engine = self
            .idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_else(|| {
                let mut engine = Engine::new(EngineConfig {
                    hash_mb: 16,
                    proof_mb: 16,
                    threads: 1,
                    ..EngineConfig::default()
                });
                // The solved boards' proofs: on those the computer plays perfectly.
                engine.learn_solved();
                engine
            });
        let (engine, best) = tokio::task::spawn_blocking(move || {
            engine.new_game();
            let best = engine.choose(
                &pos,
                level.get(),
                &SystemClock::start(),
                &mut Rng::new(seed),
            );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_client_place_is_forgotten_after_its_search() {
        let pool = EnginePool::new(1);
        let pos = AnyPosition::start("6x6".parse().unwrap(), Default::default());
        let level = Level::new(1).unwrap();
        assert!(pool.choose("a", pos, level, 1).await.is_some());
        assert!(pool.quick.clients.lock().unwrap().is_empty());
        assert_eq!(pool.queued(), (0, 0));
    }

    #[tokio::test]
    async fn a_pool_without_threads_answers_at_once_with_no_move() {
        let pool = EnginePool::new(0);
        assert!(!pool.available());
        let pos = AnyPosition::start("6x6".parse().unwrap(), Default::default());
        assert_eq!(pool.choose("a", pos, Level::new(1).unwrap(), 1).await, None);
        assert_eq!(pool.queued(), (0, 0));
    }
}
