//! The Konane game server: the page, a JSON and WebSocket API, storage, clocks and the
//! engine pool. The server is the only authority on the rules: every move is replayed
//! through `konane-core` before it is stored, and stored before it is acknowledged.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod account;
pub mod accounts;
pub mod api;
pub mod books;
pub mod direct;
pub mod engine_pool;
pub mod error;
pub mod game;
pub mod glicko;
pub mod headers;
pub mod hub;
pub mod limits;
pub mod listener;
pub mod name;
pub mod notice;
pub mod notifier;
pub mod ops;
pub mod pairing;
pub mod players;
pub mod puzzles;
pub mod rate;
pub mod ratings;
pub mod row;
pub mod seeks;
pub mod store;
pub mod time;
pub mod view;
pub mod web;
pub mod writer;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::game::{EngineTurn, GameError, ServedGame, Status};
use crate::hub::{Hub, Presence};
use crate::limits::{Limits, Occupancy};
use crate::notice::Notice;
use crate::rate::RateLimiter;
use crate::store::{Backend, Store, StoreError};
use crate::view::GameView;

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
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            abort_after_ms: 10 * 60_000,
            claim_after_ms: 30_000,
            self_play_pace_ms: 1_000,
            janitor_every_ms: 30_000,
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
        }
    }
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
    /// The rules of time.
    pub timing: Timing,
    /// Each client's game of the engine against itself (client → game id).
    pub self_play: tokio::sync::Mutex<std::collections::HashMap<String, String>>,
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

/// The key engine fairness counts a game against when it has no creator on record.
const NO_CLIENT: &str = "-";

/// First wait before a failed store write of the engine or the clock is tried again (ms);
/// it doubles up to [`RETRY_MAX_MS`].
const RETRY_FIRST_MS: u64 = 50;
/// Longest wait between two tries (ms).
const RETRY_MAX_MS: u64 = 5_000;

impl AppState {
    /// Called after every stored change of a game: tells the pages here (other instances
    /// hear of it from the store's notification), and lets the engine or the clock act if
    /// it is their turn. Returns the state it sent.
    pub fn changed(self: &Arc<Self>, game: &ServedGame, seq: i64) -> GameView {
        let view = GameView::of(game, seq, time::now_ms());
        self.announce(game, seq, Arc::from(view.to_json()));
        view
    }

    /// Sends `state`, the view of `game` at `seq`, to the pages here and schedules what
    /// comes next.
    fn announce(self: &Arc<Self>, game: &ServedGame, seq: i64, state: Arc<str>) {
        self.hub.remember(game, seq);
        self.hub.publish(&game.id, seq, state);
        self.schedule(game, seq);
    }

    /// Sends a game's state, as just stored or read, to its pages on this instance.
    pub fn publish(&self, game: &ServedGame, seq: i64) {
        let view = GameView::of(game, seq, time::now_ms());
        self.hub.remember(game, seq);
        self.hub.publish(&game.id, seq, Arc::from(view.to_json()));
    }

    /// Starts the engine's move or the clock's watch, when the game needs one. The engine
    /// playing itself moves only while somebody watches it here, at a pace they can follow.
    /// A game whose computer the browser plays gets only the clock's watch.
    pub fn schedule(self: &Arc<Self>, game: &ServedGame, seq: i64) {
        if let Some(turn) = game.engine_turn() {
            if turn.self_play && !self.hub.watched_here(&game.id) {
                return;
            }
            if !self.engines.available() {
                // Created by a server that had an engine: it waits, as for an absent player.
                tracing::warn!(
                    "game {} waits for an engine this server does not run",
                    game.id
                );
                return;
            }
            let state = Arc::clone(self);
            let id = game.id.clone();
            let client = game.client.clone().unwrap_or_else(|| NO_CLIENT.to_string());
            tokio::spawn(async move { state.engine_move(id, client, turn, seq).await });
        } else if let Some(deadline) = game.deadline() {
            let state = Arc::clone(self);
            let id = game.id.clone();
            tokio::spawn(async move {
                let wait = (deadline - time::now_ms()).max(0) as u64;
                tokio::time::sleep(std::time::Duration::from_millis(wait + 1)).await;
                state.until_stored(&id, || state.flag(&id, seq)).await;
            });
        }
    }

    async fn engine_move(self: Arc<Self>, id: String, client: String, turn: EngineTurn, seq: i64) {
        let started = std::time::Instant::now();
        let seed = time::now_ms() as u64 ^ seq as u64;
        let Some(m) = self
            .engines
            .choose(&client, turn.position, turn.level, seed)
            .await
        else {
            tracing::error!("the engine found no move in game {id}");
            return;
        };
        if turn.self_play {
            let pace = std::time::Duration::from_millis(self.timing.self_play_pace_ms);
            tokio::time::sleep(pace.saturating_sub(started.elapsed())).await;
        }
        let text = turn.position.move_text(m);
        let mover = turn.position.turn();
        self.until_stored(&id, || {
            self.mutate(&id, Some(seq), |g| {
                Ok(g.play_as(mover, &text, turn.ply, time::now_ms())?)
            })
        })
        .await;
    }

    /// Runs a change the server makes by itself (the engine's move, a clock's flag) until
    /// the database takes it: a failed write is retried with backoff, never forgotten. A
    /// refusal (the game moved on meanwhile) is the end of it.
    async fn until_stored<F, T>(&self, id: &str, mut attempt: impl FnMut() -> F)
    where
        F: std::future::Future<Output = Result<T, ApiError>>,
    {
        let mut wait = RETRY_FIRST_MS;
        loop {
            match attempt().await {
                Err(ApiError::Internal(cause)) => {
                    tracing::warn!("game {id}: {cause}; trying again in {wait} ms");
                    tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
                    wait = (wait * 2).min(RETRY_MAX_MS);
                }
                _ => return,
            }
        }
    }

    /// Ends a game whose running clock has run out, if it is still at `seq`.
    async fn flag(self: &Arc<Self>, id: &str, seq: i64) -> Result<(), ApiError> {
        self.mutate(id, Some(seq), |g| {
            if g.flag_fall(time::now_ms()) {
                Ok(())
            } else {
                Err(GameError::Changed.into())
            }
        })
        .await
        .map(drop)
    }

    /// Loads a game, applies `change` and stores it if nothing else changed it meanwhile
    /// (and, with `expect`, only if it is still at that sequence number). Returns the stored
    /// game and the state sent to its pages; on any error nothing is stored.
    ///
    /// A game shown here starts from the copy the hub keeps; when that copy turns out stale
    /// (the change is refused or the store's sequence check fails) it is read from the store
    /// and `change` runs again on that.
    pub async fn mutate(
        self: &Arc<Self>,
        id: &str,
        expect: Option<i64>,
        mut change: impl FnMut(&mut ServedGame) -> Result<(), ApiError>,
    ) -> Result<(ServedGame, GameView), ApiError> {
        let mut kept = self
            .hub
            .latest(id)
            .filter(|(_, seq)| expect.is_none_or(|e| e == *seq));
        loop {
            let from_kept = kept.is_some();
            let (game, seq) = match kept.take() {
                Some(copy) => copy,
                None => self
                    .store
                    .load(id)
                    .await?
                    .ok_or_else(|| ApiError::NotFound(id.to_string()))?,
            };
            match self.try_mutate(game, seq, expect, &mut change).await {
                Err(ApiError::Internal(cause)) => return Err(ApiError::Internal(cause)),
                Err(_) | Ok(None) if from_kept => continue,
                Ok(None) => return Err(GameError::Changed.into()),
                Ok(Some(done)) => return Ok(done),
                Err(refused) => return Err(refused),
            }
        }
    }

    /// One attempt of [`AppState::mutate`] on `game` at `seq`: none when the store had
    /// moved on.
    async fn try_mutate(
        self: &Arc<Self>,
        mut game: ServedGame,
        seq: i64,
        expect: Option<i64>,
        change: &mut impl FnMut(&mut ServedGame) -> Result<(), ApiError>,
    ) -> Result<Option<(ServedGame, GameView)>, ApiError> {
        if expect.is_some_and(|e| e != seq) {
            return Err(GameError::Changed.into());
        }
        let played = game.ply();
        let was_over = game.status == Status::Finished;
        let accounts = game.seats.each_ref().map(|s| s.account.clone());
        change(&mut game)?;
        let seated = game.seats.iter().map(|s| &s.account).ne(accounts.iter());
        // Stored and announced in a task of its own, which a request dropped half-way (its
        // client gone) does not cancel: that would cut the statement off, closing the
        // move's connection, or leave the change stored and never sent to its pages, its
        // clock watch or the other instances.
        let state = Arc::clone(self);
        tokio::spawn(async move {
            state
                .store_change(game, seq, played, was_over, seated)
                .await
        })
        .await
        .map_err(|e| ApiError::Internal(format!("storing a change: {e}")))?
    }

    /// The rest of [`AppState::try_mutate`] once the change is judged: stores `game` over
    /// `seq` (none when the store had moved on) and announces it.
    async fn store_change(
        self: Arc<Self>,
        mut game: ServedGame,
        seq: i64,
        played: usize,
        was_over: bool,
        seated: bool,
    ) -> Result<Option<(ServedGame, GameView)>, ApiError> {
        let now = time::now_ms();
        // The end of a game is stored with what it does to its players: their archive and,
        // rated, both ratings, all in one transaction, which writes the ratings into the
        // game; any other change travels to the other instances with its state.
        let (stored, view, json) = if !was_over && game.status == Status::Finished {
            let stored = self.store.update_finished(&mut game, seq, now).await?;
            let view = GameView::of(&game, seq + 1, now);
            let json = view.to_json();
            (stored, view, json)
        } else {
            let view = GameView::of(&game, seq + 1, now);
            let json = view.to_json();
            // A join links the account to the game (its list on every device); a move,
            // the common change, stays one statement.
            let stored = if seated {
                self.store
                    .update_seated(&game, seq, now, Some(&json))
                    .await?
            } else {
                self.store.update(&game, seq, now, Some(&json)).await?
            };
            (stored, view, json)
        };
        if !stored {
            return Ok(None);
        }
        metrics::counter!("konane_moves_total").increment(game.ply().saturating_sub(played) as u64);
        self.announce(&game, seq + 1, Arc::from(json));
        Ok(Some((game, view)))
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

    /// Aborts the games in progress that nobody has touched for `abort_after_ms` and whose
    /// players have not both moved, or where the engine plays itself unwatched; returns how
    /// many.
    pub async fn abort_idle(self: &Arc<Self>) -> Result<usize, StoreError> {
        let now = time::now_ms();
        let idle = self
            .store
            .idle_playing(now - self.timing.abort_after_ms, 100)
            .await?;
        let mut aborted = 0;
        for (game, seq) in idle {
            // A browser playing the computer is as absent as a person who never moved.
            let unstarted = game.ply() < 2 && game.engine_turn().is_none();
            // Watched anywhere, the engine playing itself moves every second or so: idle
            // this long, nobody has watched it for a while.
            let unwatched_show = game.self_play();
            if (unstarted || unwatched_show)
                && self
                    .mutate(&game.id, Some(seq), |g| {
                        g.abort(time::now_ms());
                        Ok(())
                    })
                    .await
                    .is_ok()
            {
                aborted += 1;
            }
        }
        Ok(aborted)
    }

    /// The table of self-play games, once `client` has none still running: the caller adds
    /// the new game while holding it.
    pub async fn self_play_slot(
        &self,
        client: &str,
    ) -> Result<tokio::sync::MutexGuard<'_, std::collections::HashMap<String, String>>, ApiError>
    {
        let slots = self.self_play.lock().await;
        if let Some(id) = slots.get(client)
            && let Some((game, _)) = self.store.load(id).await?
            && game.status == Status::Playing
        {
            return Err(ApiError::EngineQuota);
        }
        Ok(slots)
    }

    /// Whether the opponent of `claimant` has left for long enough that the claimant may
    /// take the win: away from every page here, on their own turn.
    pub fn opponent_gone(&self, game: &ServedGame, claimant: konane_core::Color) -> bool {
        let opponent = claimant.opponent();
        if game.status != Status::Playing || game.turn() != opponent {
            return false;
        }
        let turn_began = game
            .clock
            .as_ref()
            .and_then(|c| c.running_since)
            .unwrap_or(game.created_at);
        let since = match self.hub.presence(&game.id, opponent) {
            Presence::Here => return false,
            Presence::LeftAt(t) => t.max(turn_began),
            Presence::Unseen => turn_began,
        };
        time::now_ms() - since >= self.timing.claim_after_ms
    }
}

/// Every `janitor_every_ms`, aborts games that never got going and forgets dead seeks and
/// ended sessions.
async fn janitor(state: Shared) {
    let every = std::time::Duration::from_millis(state.timing.janitor_every_ms);
    loop {
        tokio::time::sleep(every).await;
        match state.abort_idle().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("aborted {n} game(s) nobody started"),
            Err(e) => tracing::warn!("janitor: {e}"),
        }
        let stale = time::now_ms() - 6 * pairing::ALIVE_MS;
        if let Err(e) = state.store.drop_stale_seeks(stale).await {
            tracing::warn!("janitor: seeks: {e}");
        }
        if let Err(e) = state.store.drop_expired_sessions(time::now_ms()).await {
            tracing::warn!("janitor: sessions: {e}");
        }
    }
}

/// Follows PostgreSQL's notifications and publishes each changed game to this instance's
/// pages. A lost connection may have lost notifications, so every new one resyncs every
/// watched game once it listens.
async fn listen(state: Shared) {
    loop {
        match listen_once(&state).await {
            Ok(()) => tracing::warn!("notification listener lost its connection; reconnecting"),
            Err(e) => tracing::warn!("notification listener: {e}; reconnecting"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// One connection's listening, until it is lost.
async fn listen_once(state: &Shared) -> Result<(), sqlx::Error> {
    let mut listener = notifier::listen(state.store.url(), state.store.instance()).await?;
    // Read back once named: a change whose notice missed the name committed before it.
    resync(state).await;
    // Not `recv`: it would reconnect by itself, and the new connection, unnamed, would be
    // sent nothing.
    while let Some(note) = listener.try_recv().await? {
        hear(state, note.payload()).await;
    }
    Ok(())
}

/// Acts on another instance's change of a game shown here: its pages get the new state
/// (read back only when it did not fit in the notification), and the engine playing itself
/// moves on. This instance's own changes were sent when they were stored.
async fn hear(state: &Shared, payload: &str) {
    let Some(notice) = Notice::parse(payload) else {
        tracing::warn!("a notification that is not ours: {payload:.80}");
        return;
    };
    if notice.instance == state.store.instance() || !state.hub.watched_here(notice.id) {
        return;
    }
    if let (Some(json), false) = (notice.state, notice.self_play) {
        state.hub.publish(notice.id, notice.seq, Arc::from(json));
    } else if let Ok(Some((game, seq))) = state.store.load(notice.id).await {
        state.publish(&game, seq);
        if game.engine_turn().is_some_and(|t| t.self_play) {
            state.schedule(&game, seq);
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
        let store = Store::open_with(&config.database_url, config.database_connections).await?;
        let state = Arc::new(AppState {
            store,
            hub: Hub::default(),
            engines: EnginePool::new(config.engine_threads),
            rate: RateLimiter::new(config.rate_limit),
            timing: config.timing,
            self_play: Default::default(),
            occupancy: Occupancy::new(config.limits.clone()),
        });
        tokio::spawn(janitor(Arc::clone(&state)));
        if state.store.backend() == Backend::Postgres {
            tokio::spawn(listen(Arc::clone(&state)));
        }
        puzzles::load_set(&state.store).await?;
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

    /// This instance's tag among the instances sharing a database.
    pub fn instance(&self) -> u64 {
        self.state.store.instance()
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
