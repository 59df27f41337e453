//! How to run a server: the address, the database, the engine's threads, the limits and
//! the rules of time.

use crate::net::caps::Limits;
use crate::tournaments::schedule::Schedule;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Address to listen on.
    pub bind: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// `sqlite://FILE` or `postgres://…`.
    pub database_url: String,
    /// Connections to the database (none: 8 for SQLite, 16 for PostgreSQL).
    pub database_connections: Option<u32>,
    /// Engine searches running at once (in each of the quick and the deep lane).
    pub engine_threads: usize,
    /// Requests per second allowed from one client address (0: no limit).
    pub rate_limit: u32,
    /// Timeouts and per-address caps of connections and sockets.
    pub limits: Limits,
    /// Where to serve Prometheus metrics (`/metrics`); `None` serves none.
    pub metrics_bind: Option<String>,
    /// The rules of time that keep games moving.
    pub timing: Timing,
    /// The site's own tournaments.
    pub schedule: Schedule,
}

/// How long the server waits before it acts on a game by itself.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// A game in progress whose players have not both moved is aborted after this long
    /// without a move (ms).
    pub abort_after_ms: i64,
    /// A player who left a timed game on their turn loses on the opponent's claim after
    /// this long (ms).
    pub claim_after_ms: i64,
    /// The engine playing itself waits this long between moves, so watchers can follow (ms).
    pub self_play_pace_ms: u64,
    /// How often the janitor looks for games to abort (ms).
    pub janitor_every_ms: u64,
    /// How often the tournament director looks for work (ms).
    pub tournament_every_ms: u64,
    /// The pause between the end of a tournament round's last game and the next round (ms).
    pub round_pause_ms: i64,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            abort_after_ms: 10 * 60_000,
            claim_after_ms: 30_000,
            self_play_pace_ms: 1_000,
            janitor_every_ms: 30_000,
            tournament_every_ms: 1_000,
            round_pause_ms: 20_000,
        }
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            bind: "127.0.0.1".into(),
            port: 8080,
            database_url: "sqlite://konane.db".into(),
            database_connections: None,
            engine_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            rate_limit: 50,
            limits: Limits::default(),
            metrics_bind: None,
            timing: Timing::default(),
            schedule: Schedule::site_default(),
        }
    }
}
