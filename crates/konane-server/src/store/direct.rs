//! PostgreSQL connections kept beside sqlx's pool for the moves' statements
//! ([`crate::store::writer`]).
//!
//! sqlx's pool pings every connection that comes back to it (`return_to_pool`), in case a
//! dropped future left it in the middle of a statement: on PostgreSQL one more round trip
//! for every statement, as dear as the move's own update (docs/benchmarks.md). Here a
//! connection goes back only from a statement that finished, so it needs no ping; one whose
//! statement failed or was dropped half-way is closed instead. The connections are native
//! PostgreSQL ones: the writer binds arrays, which sqlx's `Any` driver cannot.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, PgConnection};
use tokio::sync::{Semaphore, SemaphorePermit};

/// How long a connection may sit idle and still be used without a ping.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// At most `size` connections to one database, opened when first needed.
pub struct DirectPool {
    options: PgConnectOptions,
    idle: Mutex<Vec<(PgConnection, Instant)>>,
    permits: Semaphore,
}

/// A connection of a [`DirectPool`], for one finished statement or none.
pub struct Direct<'a> {
    conn: Option<PgConnection>,
    pool: &'a DirectPool,
    _permit: SemaphorePermit<'a>,
}

impl DirectPool {
    /// A pool of at most `size` connections made with `options`.
    pub fn new(options: PgConnectOptions, size: usize) -> DirectPool {
        DirectPool {
            options,
            idle: Mutex::new(Vec::new()),
            permits: Semaphore::new(size.max(1)),
        }
    }

    /// The most recently used idle connection (pinged first when it sat idle), or a new
    /// one, once fewer than `size` are in use.
    pub async fn get(&self) -> Result<Direct<'_>, sqlx::Error> {
        let permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        // A panic elsewhere cannot leave the list half-changed: push and pop are whole.
        let kept = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match kept {
            Some((mut conn, since)) if since.elapsed() >= PING_AFTER_IDLE => {
                match conn.ping().await {
                    Ok(()) => conn,
                    Err(_) => self.options.connect().await?,
                }
            }
            Some((conn, _)) => conn,
            None => self.options.connect().await?,
        };
        Ok(Direct {
            conn: Some(conn),
            pool: self,
            _permit: permit,
        })
    }

    /// Connections open and idle now.
    pub fn idle(&self) -> usize {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl Direct<'_> {
    /// Gives the connection back for the next statement: its last one finished.
    pub fn finished(mut self) {
        if let Some(conn) = self.conn.take() {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((conn, Instant::now()));
        }
    }
}

impl std::ops::Deref for Direct<'_> {
    type Target = PgConnection;

    fn deref(&self) -> &PgConnection {
        self.conn
            .as_ref()
            .expect("only `finished` takes the connection, consuming self")
    }
}

impl std::ops::DerefMut for Direct<'_> {
    fn deref_mut(&mut self) -> &mut PgConnection {
        self.conn
            .as_mut()
            .expect("only `finished` takes the connection, consuming self")
    }
}
