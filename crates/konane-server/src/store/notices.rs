//! Storage of notifications: stored once each, listed newest first, marked read, dropped
//! after 30 days.

use sqlx::Row;

use crate::notices::notice::{Details, Kind, Notice};
use crate::store::{Store, StoreError, corrupt_row};

/// A stored notification.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredNotice {
    /// Its id.
    pub id: String,
    /// What happened.
    pub kind: Kind,
    /// About what.
    pub details: Details,
    /// When (Unix ms).
    pub at: i64,
    /// Read already.
    pub read: bool,
}

impl Store {
    /// Stores a notice under `id`.
    pub async fn insert_notice(&self, id: &str, n: &Notice, now: i64) -> Result<(), StoreError> {
        let data = serde_json::to_string(&n.details).map_err(|e| corrupt_row(id, e))?;
        sqlx::query(
            "INSERT INTO notifications (id, account_id, kind, data, created_at, read_at) VALUES ($1, $2, $3, $4, $5, NULL)",
        )
        .bind(id)
        .bind(&n.account)
        .bind(n.kind.as_str())
        .bind(data)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// `account`'s notifications stored after `since`, newest first, at most `limit`.
    pub async fn notices(
        &self,
        account: &str,
        since: i64,
        limit: i64,
    ) -> Result<Vec<StoredNotice>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, kind, data, created_at, read_at FROM notifications \
             WHERE account_id = $1 AND created_at > $2 ORDER BY created_at DESC, id DESC LIMIT $3",
        )
        .bind(account)
        .bind(since)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let id: String = r.try_get("id")?;
                let kind: String = r.try_get("kind")?;
                let data: String = r.try_get("data")?;
                let read_at: Option<i64> = r.try_get("read_at")?;
                Ok(StoredNotice {
                    kind: Kind::parse(&kind)
                        .ok_or_else(|| corrupt_row(&id, format!("notice kind {kind}")))?,
                    details: serde_json::from_str(&data)
                        .map_err(|e| corrupt_row(&id, format!("notice: {e}")))?,
                    at: r.try_get("created_at")?,
                    read: read_at.is_some(),
                    id,
                })
            })
            .collect()
    }

    /// How many of `account`'s notifications are unread.
    pub async fn unread_notices(&self, account: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query(
            "SELECT COUNT(*) AS n FROM notifications WHERE account_id = $1 AND read_at IS NULL",
        )
        .bind(account)
        .fetch_one(self.pool())
        .await?
        .try_get("n")?)
    }

    /// Marks `account`'s notifications `ids` read (all of them with none given); an id of
    /// another account's is left alone.
    pub async fn read_notices(
        &self,
        account: &str,
        ids: Option<&[String]>,
        now: i64,
    ) -> Result<(), StoreError> {
        match ids {
            None => {
                sqlx::query(
                    "UPDATE notifications SET read_at = $1 WHERE account_id = $2 AND read_at IS NULL",
                )
                .bind(now)
                .bind(account)
                .execute(self.pool())
                .await?;
            }
            Some(ids) => {
                for id in ids {
                    sqlx::query(
                        "UPDATE notifications SET read_at = $1 WHERE account_id = $2 AND id = $3 AND read_at IS NULL",
                    )
                    .bind(now)
                    .bind(account)
                    .bind(id)
                    .execute(self.pool())
                    .await?;
                }
            }
        }
        Ok(())
    }

    /// Drops the notifications stored before `before`.
    pub async fn drop_old_notices(&self, before: i64) -> Result<u64, StoreError> {
        Ok(
            sqlx::query("DELETE FROM notifications WHERE created_at < $1")
                .bind(before)
                .execute(self.pool())
                .await?
                .rows_affected(),
        )
    }
}
