//! The database behind the store: which backend, how it is opened (connections,
//! migrations, the PostgreSQL writer and notifier), and the errors of every statement.

use std::path::Path;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Connection};

use crate::store::direct::PING_AFTER_IDLE;

use crate::net::peers::channel::Notifier;

use crate::store::writer::Writer;

/// Times a transaction over games and ratings is tried again when another game of one of
/// its players changed in the same moment.
pub(crate) const RATING_TRIES: usize = 8;

/// Which database is behind the store.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    /// A local file, one server instance.
    Sqlite,
    /// A shared server, any number of instances.
    Postgres,
}

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// PostgreSQL's moves' writer failed.
    #[error("writing a move: {0}")]
    Write(#[from] crate::store::writer::WriteError),
    /// Migrations failed.
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored game could not be read back.
    #[error("stored game {id} is unreadable: {message}")]
    Corrupt {
        /// The game.
        id: String,
        /// What failed.
        message: String,
    },
    /// A rated result kept meeting other results of its players in the same moment.
    #[error("game {0}: the players' ratings kept changing while its result was stored")]
    Contended(String),
    /// A game stored as a challenge lacks the challenger's account or the challenged one.
    #[error("game {0} is no challenge from one account to another")]
    NotAChallenge(String),
    /// The system gave no randomness for this instance's tag.
    #[error("no randomness for the instance's tag: {0}")]
    Randomness(String),
    /// The URL names no database we speak.
    #[error("'{0}' is not a database URL: use sqlite://FILE or postgres://...")]
    Url(String),
    /// The data folder could not be created.
    #[error("cannot create {path}: {source}")]
    Folder {
        /// The folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The games database.
#[derive(Clone)]
pub struct Store {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
    pub(super) url: String,
    pub(super) instance: u64,
    /// PostgreSQL's: sends the notifications after their changes commit.
    pub(super) notifier: Option<Notifier>,
    /// PostgreSQL's: writes the moves, many to a statement.
    pub(super) writer: Option<Writer>,
}

impl Store {
    /// Opens (and for SQLite, creates) the database at `url` with the default number of
    /// connections and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, None).await
    }

    /// [`Store::open`] with `connections` in the pool (none: the backend's default).
    pub async fn open_with(url: &str, connections: Option<u32>) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Url(url.to_string()));
        };
        let mut connect_url = url.to_string();
        if backend == Backend::Sqlite {
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:");
            let path = path.split('?').next().unwrap_or(path);
            if let Some(parent) = Path::new(path)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
            {
                std::fs::create_dir_all(parent).map_err(|source| StoreError::Folder {
                    path: parent.display().to_string(),
                    source,
                })?;
            }
            if !url.contains('?') {
                connect_url.push_str("?mode=rwc");
            }
        }
        let connections = connections.unwrap_or(match backend {
            Backend::Sqlite => 8,
            Backend::Postgres => 16,
        });
        // PostgreSQL's moves take one connection of their own, beside the pool.
        let writer = (backend == Backend::Postgres && connections > 1)
            .then(|| Writer::start(&connect_url))
            .transpose()?;
        let pooled = connections - u32::from(writer.is_some());
        let pool = AnyPoolOptions::new()
            .max_connections(pooled)
            // sqlx pings each connection as it comes back to the pool, and by default again
            // as it goes out: on PostgreSQL a round trip as dear as the statement's own. The
            // second is worth it only for a connection that sat idle since.
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_AFTER_IDLE {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // In WAL mode NORMAL loses nothing when the process dies (kill -9);
                        // only a power cut can take the last commits. It spares an fsync
                        // per move.
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&connect_url)
            .await?;
        match backend {
            Backend::Sqlite => {
                // WAL lets readers run beside the one writer; it persists in the file.
                sqlx::query("PRAGMA journal_mode = WAL")
                    .execute(&pool)
                    .await?;
                sqlx::migrate!("migrations/sqlite").run(&pool).await?;
            }
            Backend::Postgres => sqlx::migrate!("migrations/postgres").run(&pool).await?,
        }
        let mut instance = [0u8; 8];
        getrandom::fill(&mut instance).map_err(|e| StoreError::Randomness(e.to_string()))?;
        let instance = u64::from_le_bytes(instance);
        let notifier =
            (backend == Backend::Postgres).then(|| Notifier::start(pool.clone(), instance));
        Ok(Store {
            pool,
            backend,
            url: url.to_string(),
            instance,
            notifier,
            writer,
        })
    }

    /// This instance's tag in notifications, so it can tell its own from the others'.
    pub fn instance(&self) -> u64 {
        self.instance
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The connection pool, for storage that lives beside the games (puzzles, players).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The URL the store was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }
}
