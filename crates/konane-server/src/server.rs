//! A server bound and running: the database opened, games in progress picked up, the
//! janitor and the notification listener started, the site served until shutdown.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::config::ServerConfig;
use crate::games::engine_pool::EnginePool;
use crate::games::{janitor, peers};
use crate::http;
use crate::http::ops;
use crate::net::caps::{Limits, Occupancy};
use crate::net::hub::Hub;
use crate::net::listener;
use crate::net::rate_limit::RateLimiter;
use crate::puzzles;
use crate::state::{AppState, Shared};
use crate::store::{Backend, Store, StoreError};
use crate::tournaments::director;

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
            tournaments: Default::default(),
            seen: Default::default(),
            listeners: Default::default(),
            schedule: config.schedule.clone(),
        });
        tokio::spawn(janitor::janitor(Arc::clone(&state)));
        // The coming site events exist before the first page asks for the list.
        if let Err(e) = state.create_scheduled(crate::time::now_ms()).await {
            tracing::warn!("tournament schedule: {e}");
        }
        tokio::spawn(director::director(Arc::clone(&state)));
        if state.store.backend() == Backend::Postgres {
            tokio::spawn(peers::listen(Arc::clone(&state)));
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
        let app = http::router(self.state);
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
