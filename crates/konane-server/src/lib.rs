//! The Konane game server: the page, a JSON and WebSocket API, storage, clocks and the
//! engine pool. The server is the only authority on the rules: every move is replayed
//! through `konane-core` before it is stored, and stored before it is acknowledged.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod engine_pool;
pub mod error;
pub mod game;
pub mod headers;
pub mod hub;
pub mod limits;
pub mod listener;
pub mod ops;
pub mod rate;
pub mod store;
pub mod time;
pub mod web;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::game::StoredGame;
use crate::hub::Hub;
use crate::limits::{Limits, Occupancy};
use crate::rate::RateLimiter;
use crate::store::{Backend, Store, StoreError};

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Address to listen on.
    pub bind: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// `sqlite://FILE` or `postgres://…`.
    pub database_url: String,
    /// Engine searches running at once.
    pub engine_threads: usize,
    /// Requests per second allowed from one client address (0: no limit).
    pub rate_limit: u32,
    /// Timeouts and per-address caps of connections and sockets.
    pub limits: Limits,
    /// Where to serve Prometheus metrics (`/metrics`); `None` serves none.
    pub metrics_bind: Option<String>,
}

/// What every request handler shares.
pub struct AppState {
    /// The games database.
    pub store: Store,
    /// Pages listening for changes.
    pub hub: Hub,
    /// Engine searches.
    pub engines: EnginePool,
    /// Requests per client.
    pub rate: RateLimiter,
    /// Connections and sockets open, per client address.
    pub occupancy: Arc<Occupancy>,
}

/// Shared state, as handlers receive it.
pub type Shared = Arc<AppState>;

/// A failure to start or run the server.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The address could not be bound, or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl AppState {
    /// Called after every stored change of a game: tells the pages, and lets the engine
    /// or the clock act if it is their turn.
    pub fn changed(self: &Arc<Self>, game: &StoredGame, seq: i64) {
        // With PostgreSQL the notification listener publishes, for every instance alike.
        if self.store.backend() == Backend::Sqlite {
            self.publish(game, seq);
        }
        self.schedule(game, seq);
    }

    /// Sends a game's state to its pages on this instance.
    pub fn publish(&self, game: &StoredGame, seq: i64) {
        match game.view(seq, time::now_ms()) {
            Ok(v) => self.hub.publish(&game.id, Arc::from(v.to_string())),
            Err(e) => tracing::error!("cannot show game {}: {e}", game.id),
        }
    }

    /// Starts the engine's move or the clock's watch, when the game needs one.
    pub fn schedule(self: &Arc<Self>, game: &StoredGame, seq: i64) {
        if let Some((pos, level, ply)) = game.engine_turn() {
            let state = Arc::clone(self);
            let id = game.id.clone();
            tokio::spawn(async move { state.engine_move(id, pos, level, ply, seq).await });
        } else if let Some(deadline) = game.deadline() {
            let state = Arc::clone(self);
            let id = game.id.clone();
            tokio::spawn(async move {
                let wait = (deadline - time::now_ms()).max(0) as u64;
                tokio::time::sleep(std::time::Duration::from_millis(wait + 1)).await;
                if let Err(e) = state.flag(&id, seq).await {
                    tracing::warn!("clock of game {id}: {e}");
                }
            });
        }
    }

    async fn engine_move(
        self: Arc<Self>,
        id: String,
        pos: konane_core::AnyPosition,
        level: u8,
        ply: usize,
        seq: i64,
    ) {
        let seed = time::now_ms() as u64 ^ seq as u64;
        let Some(m) = self.engines.choose(pos, level, seed).await else {
            tracing::error!("the engine found no move in game {id}");
            return;
        };
        let text = pos.move_text(m);
        let mover = pos.turn();
        let result = self
            .mutate(&id, Some(seq), |g| {
                g.play_as(mover, &text, ply, time::now_ms())
            })
            .await;
        match result {
            Ok(_) | Err(ApiError::Conflict { .. }) => {}
            Err(e) => tracing::error!("engine move {text} in game {id}: {e}"),
        }
    }

    /// Ends a game whose running clock has run out, if it is still at `seq`.
    async fn flag(self: &Arc<Self>, id: &str, seq: i64) -> Result<(), ApiError> {
        match self
            .mutate(id, Some(seq), |g| {
                if g.flag_fall(time::now_ms()) {
                    Ok(())
                } else {
                    Err(ApiError::conflict("no_change", "the clock has not run out"))
                }
            })
            .await
        {
            Ok(_) | Err(ApiError::Conflict { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Loads a game, applies `change` and stores it if nothing else changed it meanwhile
    /// (and, with `expect`, only if it is still at that sequence number). Returns the stored
    /// game and its new sequence number; on any error nothing is stored.
    pub async fn mutate(
        self: &Arc<Self>,
        id: &str,
        expect: Option<i64>,
        change: impl FnOnce(&mut StoredGame) -> Result<(), ApiError>,
    ) -> Result<(StoredGame, i64), ApiError> {
        let (mut game, seq) = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(id.to_string()))?;
        if expect.is_some_and(|e| e != seq) {
            return Err(ApiError::conflict("stale", "the game changed meanwhile"));
        }
        let played = game.moves.len();
        change(&mut game)?;
        if !self.store.update(&game, seq, time::now_ms()).await? {
            return Err(ApiError::conflict(
                "stale_ply",
                "another move was made first",
            ));
        }
        metrics::counter!("konane_moves_total")
            .increment(game.moves.len().saturating_sub(played) as u64);
        self.changed(&game, seq + 1);
        Ok((game, seq + 1))
    }

    /// Picks up every game in progress (after a start or restart): engines think again,
    /// clocks are watched again, and games whose time ran out while down are ended.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let games = self.store.playing().await?;
        let n = games.len();
        for (game, seq) in games {
            self.schedule(&game, seq);
        }
        Ok(n)
    }
}

/// Follows PostgreSQL's notifications and publishes each changed game to this instance's
/// pages. A reconnect may have lost notifications, so it then resyncs every watched game.
async fn listen(state: Shared) {
    loop {
        if let Err(e) = listen_once(&state).await {
            tracing::warn!("notification listener: {e}; reconnecting");
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

async fn listen_once(state: &Shared) -> Result<(), sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(state.store.url()).await?;
    listener.listen(store::CHANNEL).await?;
    resync(state).await;
    loop {
        match listener.try_recv().await? {
            Some(note) => {
                let id = note
                    .payload()
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                if let Ok(Some((game, seq))) = state.store.load(&id).await {
                    state.publish(&game, seq);
                }
            }
            None => resync(state).await,
        }
    }
}

async fn resync(state: &Shared) {
    for id in state.hub.watched() {
        if let Ok(Some((game, seq))) = state.store.load(&id).await {
            state.publish(&game, seq);
        }
    }
}

/// A bound, ready server.
pub struct Server {
    listener: TcpListener,
    metrics: Option<TcpListener>,
    state: Shared,
}

impl Server {
    /// Opens the database, picks up games in progress and binds the address.
    pub async fn start(config: &ServerConfig) -> Result<Server, ServerError> {
        let store = Store::open(&config.database_url).await?;
        let state = Arc::new(AppState {
            store,
            hub: Hub::default(),
            engines: EnginePool::new(config.engine_threads),
            rate: RateLimiter::new(config.rate_limit),
            occupancy: Occupancy::new(config.limits.clone()),
        });
        if state.store.backend() == Backend::Postgres {
            tokio::spawn(listen(Arc::clone(&state)));
        }
        let resumed = state.resume().await?;
        if resumed > 0 {
            tracing::info!("picked up {resumed} game(s) in progress");
        }
        let listener = TcpListener::bind((config.bind.as_str(), config.port)).await?;
        let metrics = match &config.metrics_bind {
            Some(addr) => {
                ops::recorder();
                Some(TcpListener::bind(addr.as_str()).await?)
            }
            None => None,
        };
        Ok(Server {
            listener,
            metrics,
            state,
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The address of `/metrics`, when it is served.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().and_then(|l| l.local_addr().ok())
    }

    /// Serves until `shutdown` completes, then finishes the requests under way.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let shutdown = futures_util::FutureExt::shared(Box::pin(shutdown));
        if let Some(metrics) = self.metrics {
            // Its own caps: a busy site must not crowd out the scraper.
            let occupancy = Occupancy::new(Limits::default());
            let app = ops::metrics_router(Arc::clone(&self.state));
            tokio::spawn(listener::serve(metrics, app, occupancy, shutdown.clone()));
        }
        let occupancy = Arc::clone(&self.state.occupancy);
        let app = api::router(self.state);
        listener::serve(self.listener, app, occupancy, shutdown).await?;
        Ok(())
    }
}

/// Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}

/// Runs a server on a new Tokio runtime until Ctrl-C or SIGTERM, printing the address to
/// open once it listens.
pub fn run_blocking(config: ServerConfig) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let server = Server::start(&config).await?;
        let addr = server.local_addr()?;
        println!("Konane is running: open http://{addr}/ in a browser (Ctrl-C stops it)");
        if let Some(metrics) = server.metrics_addr() {
            println!("Metrics: http://{metrics}/metrics");
        }
        server.run(shutdown_signal()).await
    })
}
