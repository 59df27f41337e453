//! Storage of quick pairing's seeks: players waiting for an opponent with a time control.
//! Pairing two seeks and creating their game is one transaction, so of several instances
//! pairing at once each seek ends up in one game only.

use sqlx::Row;

use crate::games::game::ServedGame;
use crate::players::name::PlayerName;
use crate::players::pairing::Seek;
use crate::store::{Store, StoreError, corrupt_row, insert_query, link_accounts};

const COLUMNS: &str = "id, account_id, name, rating, rated, initial_ms, increment_ms, status, game_id, token, created_at, seen_at";

impl Store {
    /// Stores a new seek.
    pub async fn insert_seek(&self, s: &Seek) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO seeks (id, account_id, name, rating, rated, initial_ms, increment_ms, status, created_at, seen_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8, $9)",
        )
        .bind(&s.id)
        .bind(s.account.clone())
        .bind(s.name.as_ref().map(|n| n.as_str().to_string()))
        .bind(s.rating)
        .bind(i64::from(s.rated))
        .bind(s.initial_ms)
        .bind(s.increment_ms)
        .bind(s.created_at)
        .bind(s.seen_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// A seek, noting that its page is still there.
    pub async fn seen_seek(&self, id: &str, now: i64) -> Result<Option<Seek>, StoreError> {
        sqlx::query("UPDATE seeks SET seen_at = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(self.pool())
            .await?;
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM seeks WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| seek_of(&r)).transpose()
    }

    /// Withdraws a waiting seek; false when there was none (gone, or already paired).
    pub async fn cancel_seek(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM seeks WHERE id = $1 AND status = 'waiting'")
            .bind(id)
            .execute(self.pool())
            .await?
            .rows_affected();
        Ok(done == 1)
    }

    /// The other waiting seeks of the same time control and kind whose pages asked since
    /// `alive_since`, oldest first; none of a player who blocks this seek's, or whom it
    /// blocks.
    pub async fn waiting_like(&self, s: &Seek, alive_since: i64) -> Result<Vec<Seek>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM seeks WHERE status = 'waiting' AND initial_ms = $1 AND increment_ms = $2 \
             AND rated = $3 AND id <> $4 AND seen_at >= $5 AND NOT EXISTS (SELECT 1 FROM blocks b \
             WHERE (b.blocker = $6 AND b.blocked = seeks.account_id) OR (b.blocker = seeks.account_id AND b.blocked = $6)) \
             ORDER BY created_at LIMIT 100"
        )))
        .bind(s.initial_ms)
        .bind(s.increment_ms)
        .bind(i64::from(s.rated))
        .bind(&s.id)
        .bind(alive_since)
        // No account has an empty id: a guest's seek is blocked by nobody.
        .bind(s.account.as_deref().unwrap_or(""))
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(seek_of).collect()
    }

    /// Pairs two waiting seeks in `game`, whose seats hold `tokens` (the first seek's, the
    /// second's): both seeks and the game in one transaction. False when either seek was
    /// paired or withdrawn first; then nothing is stored.
    pub async fn pair(
        &self,
        seeks: [&Seek; 2],
        tokens: [&str; 2],
        game: &ServedGame,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        for (s, token) in seeks.iter().zip(tokens) {
            let taken = sqlx::query(
                "UPDATE seeks SET status = 'paired', game_id = $1, token = $2 WHERE id = $3 AND status = 'waiting'",
            )
            .bind(&game.id)
            .bind(token)
            .bind(&s.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if taken != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        insert_query(game, now)?.execute(&mut *tx).await?;
        link_accounts(&mut tx, game).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Forgets seeks whose pages stopped asking before `before`, and paired ones older
    /// than that (their pages have long fetched their game).
    pub async fn drop_stale_seeks(&self, before: i64) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM seeks WHERE seen_at < $1")
            .bind(before)
            .execute(self.pool())
            .await?
            .rows_affected())
    }
}

fn seek_of(r: &sqlx::any::AnyRow) -> Result<Seek, StoreError> {
    let id: String = r.try_get("id")?;
    let name: Option<String> = r.try_get("name")?;
    let name = name
        .map(|n| PlayerName::parse(&n))
        .transpose()
        .map_err(|e| corrupt_row(&id, e))?;
    let status: String = r.try_get("status")?;
    let game: Option<String> = r.try_get("game_id")?;
    let token: Option<String> = r.try_get("token")?;
    let paired = match (status.as_str(), game, token) {
        ("paired", Some(g), Some(t)) => Some((g, t)),
        ("waiting", _, _) => None,
        (s, _, _) => return Err(corrupt_row(&id, format!("seek status {s}"))),
    };
    let rated: i64 = r.try_get("rated")?;
    Ok(Seek {
        account: r.try_get("account_id")?,
        name,
        rating: r.try_get("rating")?,
        rated: rated == 1,
        initial_ms: r.try_get("initial_ms")?,
        increment_ms: r.try_get("increment_ms")?,
        paired,
        created_at: r.try_get("created_at")?,
        seen_at: r.try_get("seen_at")?,
        id,
    })
}
