//! Storage of follows, blocks and when an account was last seen.

use sqlx::Row;

use crate::store::{Store, StoreError};

/// A followed player as the "Following" list shows them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Followed {
    /// The player's name.
    pub name: String,
    /// When they were last seen (Unix ms), if ever.
    pub seen_at: Option<i64>,
    /// A game of theirs in progress that moved lately, if any.
    pub playing: Option<String>,
}

impl Store {
    /// `follower` follows `followed` (again: nothing changes).
    pub async fn follow(&self, follower: &str, followed: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO follows (follower, followed, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (follower, followed) DO NOTHING",
        )
        .bind(follower)
        .bind(followed)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// `follower` stops following `followed`.
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// `blocker` blocks `blocked` (again: nothing changes); a block also ends a follow
    /// either way, as a blocked player has no business watching the blocker's games.
    pub async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (blocker, blocked) DO NOTHING",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM follows WHERE (follower = $1 AND followed = $2) OR (follower = $2 AND followed = $1)",
        )
        .bind(blocker)
        .bind(blocked)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `blocker` lifts its block of `blocked`.
    pub async fn unblock(&self, blocker: &str, blocked: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// How many players `account` follows, and how many it blocks.
    pub async fn social_counts(&self, account: &str) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM follows WHERE follower = $1) AS follows, \
             (SELECT COUNT(*) FROM blocks WHERE blocker = $1) AS blocks",
        )
        .bind(account)
        .fetch_one(self.pool())
        .await?;
        Ok((row.try_get("follows")?, row.try_get("blocks")?))
    }

    /// Whether `viewer` follows `other`, and whether it blocks them.
    pub async fn relation(&self, viewer: &str, other: &str) -> Result<(bool, bool), StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM follows WHERE follower = $1 AND followed = $2) AS following, \
             (SELECT COUNT(*) FROM blocks WHERE blocker = $1 AND blocked = $2) AS blocking",
        )
        .bind(viewer)
        .bind(other)
        .fetch_one(self.pool())
        .await?;
        let (following, blocking): (i64, i64) =
            (row.try_get("following")?, row.try_get("blocking")?);
        Ok((following > 0, blocking > 0))
    }

    /// Whether `blocker` blocks `blocked`.
    pub async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
        Ok(self.relation(blocker, blocked).await?.1)
    }

    /// The players `account` follows, by name, each with when they were last seen and a
    /// game of theirs in progress that changed after `live_since`.
    pub async fn following(
        &self,
        account: &str,
        live_since: i64,
    ) -> Result<Vec<Followed>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name AS name, a.seen_at AS seen_at, \
             (SELECT g.id FROM account_games ag JOIN games g ON g.id = ag.game_id \
              WHERE ag.account_id = a.id AND g.status = 'playing' AND g.updated_at > $2 \
              ORDER BY g.updated_at DESC LIMIT 1) AS playing \
             FROM follows f JOIN accounts a ON a.id = f.followed WHERE f.follower = $1 ORDER BY a.name_key",
        )
        .bind(account)
        .bind(live_since)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Followed {
                    name: r.try_get("name")?,
                    seen_at: r.try_get("seen_at")?,
                    playing: r.try_get("playing")?,
                })
            })
            .collect()
    }

    /// The names of the players `account` blocks, by name.
    pub async fn blocked(&self, account: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name AS name FROM blocks b JOIN accounts a ON a.id = b.blocked \
             WHERE b.blocker = $1 ORDER BY a.name_key",
        )
        .bind(account)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get("name")?)).collect()
    }

    /// Writes that `account` was seen at `now`.
    pub async fn seen(&self, account: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET seen_at = $1 WHERE id = $2")
            .bind(now)
            .bind(account)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}
