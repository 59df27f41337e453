//! PostgreSQL's moves, written many to a statement.
//!
//! A move on PostgreSQL cost a round trip and a commit of its own: at saturation the
//! database's backends spent most of their time being woken for one small statement each
//! and the kernel's network and scheduling work rivalled the statements themselves
//! (docs/benchmarks.md). Here every conditional update of a game joins a queue that one task
//! per instance drains: whatever is waiting goes to PostgreSQL as one `UPDATE … FROM
//! unnest(…)`, which stores each game that is still at its expected sequence number and
//! returns which were; each waiting move is answered once that statement has committed, so
//! every move is still stored before it is acknowledged. When the queue holds one move, the
//! statement is that move's alone: an idle server answers as soon as before.
//!
//! A batch never holds two updates of one game (the later waits for the next batch, so
//! the guard sees them in the order they came). Two instances' batches may lock the same
//! games in other orders; PostgreSQL then ends one statement with a deadlock, and so a batch
//! ended by a deadlock is tried again one update a statement, each answered on its own. Any
//! other failure fails every move of the batch. The price of one statement at a time: a
//! game whose row another transaction holds (a result and its ratings being stored) holds
//! up the instance's other moves until that short transaction ends, or for
//! [`LOCK_TIMEOUT`] at most; then the batch is written move by move, and only that game's
//! move fails.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::postgres::PgConnectOptions;
use tokio::sync::{mpsc, oneshot};

use crate::store::direct::DirectPool;

/// Updates waiting to be written before a move waits for room.
const QUEUE: usize = 4096;
/// Updates written in one statement at most (a state is about a kilobyte).
const BATCH: usize = 256;

/// One conditional update: store the row if the game is still at `seq`.
pub struct Update {
    /// The game.
    pub id: String,
    /// The sequence number it must still have.
    pub seq: i64,
    /// The `status` column.
    pub status: &'static str,
    /// The `listed` column.
    pub listed: i64,
    /// The game as stored JSON.
    pub data: String,
    /// The time of the change (Unix ms).
    pub now: i64,
    /// The minute of it, as `changed_minute` keeps it.
    pub minute: i64,
}

/// Why a move was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The database refused or failed.
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// The statement of the batch the move was in failed.
    #[error("the moves written with this one failed: {0}")]
    Batch(String),
    /// The writing task is gone (the server is stopping).
    #[error("the moves' writer has stopped")]
    Stopped,
}

/// PostgreSQL's code for a transaction ended to break a deadlock.
const DEADLOCK: &str = "40P01";
/// PostgreSQL's code for a lock not had within `lock_timeout`.
const LOCK_NOT_AVAILABLE: &str = "55P03";
/// How long the writer's statement waits for a game's row that another transaction holds
/// (a result and its ratings take milliseconds): past it the batch is written again one move
/// a statement, so a row held by a transaction that hangs fails that game's move alone
/// instead of holding up every move of the instance.
const LOCK_TIMEOUT: &str = "2s";

struct Waiting {
    update: Update,
    answer: oneshot::Sender<Result<bool, WriteError>>,
}

/// The queue into the task that writes the moves.
#[derive(Clone)]
pub struct Writer {
    queue: mpsc::Sender<Waiting>,
    counts: Arc<Counts>,
}

/// What the task has done so far.
#[derive(Default)]
struct Counts {
    statements: AtomicU64,
    failed_batches: AtomicU64,
}

impl Writer {
    /// Starts the writing task, on a connection to the PostgreSQL database at `url`; it ends
    /// when the last clone of the writer is dropped, after writing what is queued.
    pub fn start(url: &str) -> Result<Writer, sqlx::Error> {
        let options = url
            .parse::<PgConnectOptions>()?
            .options([("lock_timeout", LOCK_TIMEOUT)]);
        let connections = Arc::new(DirectPool::new(options, 1));
        let (queue, waiting) = mpsc::channel(QUEUE);
        let counts = Arc::new(Counts::default());
        tokio::spawn(write_all(connections, waiting, counts.clone()));
        Ok(Writer { queue, counts })
    }

    /// Statements run so far (a batch that failed and was tried again one update a
    /// statement counts each of them).
    pub fn statements(&self) -> u64 {
        self.counts.statements.load(Ordering::Relaxed)
    }

    /// Batches that failed as a whole and were tried again one update a statement.
    pub fn failed_batches(&self) -> u64 {
        self.counts.failed_batches.load(Ordering::Relaxed)
    }

    /// Writes `update` with whatever else is waiting; true when the game was still at its
    /// sequence number and is now stored.
    pub async fn update(&self, update: Update) -> Result<bool, WriteError> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Waiting { update, answer })
            .await
            .map_err(|_| WriteError::Stopped)?;
        answered.await.map_err(|_| WriteError::Stopped)?
    }
}

async fn write_all(
    connections: Arc<DirectPool>,
    mut queue: mpsc::Receiver<Waiting>,
    counts: Arc<Counts>,
) {
    // Moves of a game already in the batch, held for the next one; never more than a
    // batch, so the queue's bound still holds the senders back.
    let mut held: Vec<Waiting> = Vec::new();
    let mut pending = Vec::with_capacity(BATCH);
    loop {
        if held.is_empty() {
            if queue.recv_many(&mut pending, BATCH).await == 0 {
                return;
            }
        } else {
            pending.append(&mut held);
        }
        while pending.len() < BATCH
            && let Ok(w) = queue.try_recv()
        {
            pending.push(w);
        }
        let mut games = HashSet::with_capacity(pending.len());
        let mut batch = Vec::with_capacity(pending.len());
        for w in pending.drain(..) {
            if games.insert(w.update.id.clone()) {
                batch.push(w);
            } else {
                held.push(w);
            }
        }
        metrics::histogram!("konane_move_batch_size").record(batch.len() as f64);
        write(&connections, batch, &counts).await;
    }
}

/// Writes one batch and answers each of its moves.
async fn write(connections: &DirectPool, batch: Vec<Waiting>, counts: &Counts) {
    let updates: Vec<&Update> = batch.iter().map(|w| &w.update).collect();
    match store(connections, &updates, counts).await {
        Ok(stored) => {
            for w in batch {
                let _ = w.answer.send(Ok(stored.contains(&w.update.id)));
            }
        }
        Err(e) if batch.len() > 1 && is_contention(&e) => {
            tracing::debug!(
                "a batch of {} moves met a deadlock or a held row, each tried alone",
                batch.len()
            );
            counts.failed_batches.fetch_add(1, Ordering::Relaxed);
            for w in batch {
                let result = store(connections, &[&w.update], counts)
                    .await
                    .map(|stored| stored.contains(&w.update.id))
                    .map_err(WriteError::from);
                let _ = w.answer.send(result);
            }
        }
        Err(e) if batch.len() == 1 => {
            if let Some(w) = batch.into_iter().next() {
                let _ = w.answer.send(Err(WriteError::Database(e)));
            }
        }
        Err(e) => {
            let message = e.to_string();
            for w in batch {
                let _ = w.answer.send(Err(WriteError::Batch(message.clone())));
            }
        }
    }
}

/// The batch failed for a lock of another transaction, not for its own moves.
fn is_contention(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| code == DEADLOCK || code == LOCK_NOT_AVAILABLE)
}

/// Runs the statement for `updates` (no game twice) and returns the games it stored.
async fn store(
    connections: &DirectPool,
    updates: &[&Update],
    counts: &Counts,
) -> Result<HashSet<String>, sqlx::Error> {
    counts.statements.fetch_add(1, Ordering::Relaxed);
    let column = |f: fn(&Update) -> i64| updates.iter().map(|u| f(u)).collect::<Vec<i64>>();
    let query = sqlx::query_scalar::<_, String>(
        "UPDATE games AS g SET seq = u.seq + 1, status = u.status, listed = u.listed, \
         data = u.data, updated_at = u.updated_at, changed_minute = u.changed_minute \
         FROM unnest($1::text[], $2::int8[], $3::text[], $4::int8[], $5::text[], $6::int8[], \
         $7::int8[]) AS u(id, seq, status, listed, data, updated_at, changed_minute) \
         WHERE g.id = u.id AND g.seq = u.seq RETURNING g.id",
    )
    .bind(updates.iter().map(|u| u.id.as_str()).collect::<Vec<&str>>())
    .bind(column(|u| u.seq))
    .bind(updates.iter().map(|u| u.status).collect::<Vec<&str>>())
    .bind(column(|u| u.listed))
    .bind(
        updates
            .iter()
            .map(|u| u.data.as_str())
            .collect::<Vec<&str>>(),
    )
    .bind(column(|u| u.now))
    .bind(column(|u| u.minute));
    let mut conn = connections.get().await?;
    let stored = query.fetch_all(&mut *conn).await;
    // The database answered, even if with an error (a deadlock, a lock timeout): the
    // connection is between statements and serves the next one.
    if matches!(&stored, Ok(_) | Err(sqlx::Error::Database(_))) {
        conn.finished();
    }
    Ok(stored?.into_iter().collect())
}
