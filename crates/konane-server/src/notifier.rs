//! Sends this instance's notifications (PostgreSQL `NOTIFY`) after the changes they announce
//! have committed, all that are waiting in one statement.
//!
//! PostgreSQL lets one committing transaction with notifications through at a time: it
//! takes a lock before the commit and holds it until the commit record is flushed (async.c,
//! `PreCommit_Notify`), so a move that notified in its own transaction could never share a
//! WAL flush with another, and that lock capped the moves per second (docs/benchmarks.md).
//! Here a move commits on its own, like any update, and its notice joins a queue that one
//! task drains; under load, one notifying commit carries many moves' notices.
//!
//! The price: a notice follows its commit instead of being part of it. An instance that dies
//! between the two leaves the other instances' pages of that game one change behind until
//! its next change or their next reconnect, which reads the stored game.

use sqlx::AnyPool;
use tokio::sync::mpsc;

use crate::store::CHANNEL;

/// Notices waiting to be sent before a change that announces one waits for room: the
/// queue's length is how far the announcements may run behind the commits.
const QUEUE: usize = 4096;
/// Notices sent in one statement at most (each is under 8,000 bytes).
const BATCH: usize = 128;

/// The queue into the task that sends the notices.
#[derive(Clone)]
pub struct Notifier {
    queue: mpsc::Sender<String>,
}

impl Notifier {
    /// Starts the sending task on `pool` (a PostgreSQL pool); it ends when the last clone
    /// of the notifier is dropped, after sending what is queued.
    pub fn start(pool: AnyPool) -> Notifier {
        let (queue, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(send_all(pool, waiting));
        Notifier { queue }
    }

    /// Queues a notification's payload, to be sent after those queued before it.
    pub async fn send(&self, payload: String) {
        // The task only ends when every sender is gone, so this cannot fail while `self`
        // lives.
        let _ = self.queue.send(payload).await;
    }
}

async fn send_all(pool: AnyPool, mut waiting: mpsc::Receiver<String>) {
    let mut batch = Vec::with_capacity(BATCH);
    while waiting.recv_many(&mut batch, BATCH).await > 0 {
        // One statement however many: the payloads travel as one JSON array, which the
        // `Any` driver binds as text, and PostgreSQL queues them in the array's order.
        let payloads = match serde_json::to_string(&batch) {
            Ok(json) => json,
            Err(e) => {
                tracing::warn!("notifications not sent: {e}");
                batch.clear();
                continue;
            }
        };
        let sent = sqlx::query(
            "SELECT COUNT(pg_notify($1, p)) AS n FROM json_array_elements_text($2::json) AS p",
        )
        .bind(CHANNEL)
        .bind(payloads)
        .execute(&pool)
        .await;
        if let Err(e) = sent {
            // The other instances resync the games they show when their listener
            // reconnects; a failed send cannot be told apart from a lost one.
            tracing::warn!("{} notification(s) not sent: {e}", batch.len());
        }
        batch.clear();
    }
}
