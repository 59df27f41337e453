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
//!
//! Each instance listens on a channel of its own, and a notice goes to the channels of the
//! other instances listening at the moment it is sent, as PostgreSQL sees them: alone, an
//! instance sends nothing, and no instance is sent its own notices (on one shared channel
//! every listener was sent every notice, the sender too).
//!
//! Why no notice is missed: an instance takes its [`listener_name`] only after its `LISTEN`
//! has committed, and then reads back every game it shows. A sender looks for the names
//! after its change committed: one that does not see the newcomer's name yet had its change
//! committed before the name appeared, so the read-back that follows finds it; one that
//! sees it sends to a channel that is listened to.

use sqlx::AnyPool;
use sqlx::postgres::PgListener;
use tokio::sync::mpsc;

/// Notices waiting to be sent before a change that announces one waits for room: the
/// queue's length is how far the announcements may run behind the commits.
const QUEUE: usize = 4096;
/// Notices sent in one statement at most (each is under 8,000 bytes).
const BATCH: usize = 128;

/// What an instance's listening connection is called in `pg_stat_activity` once it
/// listens; the others find it by this name.
const NAME_PREFIX: &str = "konane-listen-";

/// The channel that instance `instance` listens on.
pub fn channel(instance: u64) -> String {
    format!("konane_{instance:016x}")
}

/// The `application_name` that instance `instance`'s listening connection takes once it
/// listens on its [`channel`].
pub fn listener_name(instance: u64) -> String {
    format!("{NAME_PREFIX}{instance:016x}")
}

/// A connection of instance `instance` that listens on its [`channel`] and then, only then,
/// takes its [`listener_name`]: the other instances send to the channel of every name they
/// see, so a name seen is always a channel listened on (the module docs say why no notice
/// falls between).
pub async fn listen(url: &str, instance: u64) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(&channel(instance)).await?;
    sqlx::query("SELECT set_config('application_name', $1, false)")
        .bind(listener_name(instance))
        .execute(&mut listener)
        .await?;
    Ok(listener)
}

/// The queue into the task that sends the notices.
#[derive(Clone)]
pub struct Notifier {
    queue: mpsc::Sender<String>,
}

impl Notifier {
    /// Starts the sending task of instance `instance` on `pool` (a PostgreSQL pool); it
    /// ends when the last clone of the notifier is dropped, after sending what is queued.
    pub fn start(pool: AnyPool, instance: u64) -> Notifier {
        let (queue, waiting) = mpsc::channel(QUEUE);
        tokio::spawn(send_all(pool, listener_name(instance), waiting));
        Notifier { queue }
    }

    /// Queues a notification's payload, to be sent after those queued before it.
    pub async fn send(&self, payload: String) {
        // The task only ends when every sender is gone, so this cannot fail while `self`
        // lives.
        let _ = self.queue.send(payload).await;
    }
}

async fn send_all(pool: AnyPool, own_name: String, mut waiting: mpsc::Receiver<String>) {
    let mut batch = Vec::with_capacity(BATCH);
    while waiting.recv_many(&mut batch, BATCH).await > 0 {
        if let Err(e) = send_batch(&pool, &own_name, &batch).await {
            // The other instances resync the games they show when their listener
            // reconnects; a failed send cannot be told apart from a lost one.
            tracing::warn!("{} notification(s) not sent: {e}", batch.len());
        }
        batch.clear();
    }
}

/// Why a batch of notices was not sent.
#[derive(Debug, thiserror::Error)]
enum SendError {
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

/// Sends `batch` to every other instance listening now (looked up after the changes
/// committed), in one statement however many.
async fn send_batch(pool: &AnyPool, own_name: &str, batch: &[String]) -> Result<(), SendError> {
    // The payloads travel as one JSON array, which the `Any` driver binds as text. The
    // lateral join reads the array once for each listener found (none when alone) and
    // sends it to that listener's channel in the array's order. The 15 is where a name
    // goes on after NAME_PREFIX.
    sqlx::query(
        "SELECT COUNT(pg_notify('konane_' || substr(a.name, 15), q.p)) AS n \
         FROM (SELECT DISTINCT application_name::text AS name FROM pg_stat_activity \
               WHERE datname = current_database() \
               AND application_name LIKE 'konane-listen-%' AND application_name <> $1) AS a, \
         LATERAL json_array_elements_text(CASE WHEN a.name IS NOT NULL THEN $2::json END) AS q(p)",
    )
    .bind(own_name)
    .bind(serde_json::to_string(batch)?)
    .execute(pool)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement finds the channel from the name by dropping `NAME_PREFIX` (14
    /// characters) and prefixing `konane_`.
    #[test]
    fn a_listeners_name_leads_to_its_channel() {
        for instance in [0, 1, 0xdead_beef, u64::MAX] {
            let name = listener_name(instance);
            assert_eq!(NAME_PREFIX, "konane-listen-");
            assert_eq!(NAME_PREFIX.len(), 14);
            assert_eq!(
                format!("konane_{}", &name[NAME_PREFIX.len()..]),
                channel(instance)
            );
            assert!(
                channel(instance).len() < 64,
                "PostgreSQL's identifier limit"
            );
        }
    }
}
