//! Storage of players: accounts, sessions and the attempts behind the login limits.
//! Beside the games in the same database, through the same [`Store`]; SQL that runs on
//! SQLite and PostgreSQL alike.

use sqlx::Row;

use crate::games::game::Status;
use crate::players::glicko::Rating;
use crate::players::name::PlayerName;
use crate::players::ratings::Category;
use crate::players::secrets::SessionToken;
use crate::store::db::RATING_TRIES;
use crate::store::{Store, StoreError, corrupt_row};

/// An account as the server knows it once a request has been matched to one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Account {
    /// The account's id (seats and the archive refer to it).
    pub id: String,
    /// Its name, as registered.
    pub name: PlayerName,
}

impl Store {
    /// Registers `name`; none when an account of that name (in any case) exists.
    pub async fn create_account(
        &self,
        id: &str,
        name: &PlayerName,
        password_hash: &str,
        now: i64,
    ) -> Result<Option<Account>, StoreError> {
        let mut tx = self.pool().begin().await?;
        let added = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING",
        )
        .bind(id)
        .bind(name.as_str())
        .bind(name.key())
        .bind(password_hash)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if added == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        let start = Rating::default();
        for category in Category::ALL {
            sqlx::query(
                "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, 0, $6)",
            )
            .bind(id)
            .bind(category.as_str())
            .bind(start.rating)
            .bind(start.deviation)
            .bind(start.volatility)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Some(Account {
            id: id.to_string(),
            name: name.clone(),
        }))
    }

    /// The account of a name (in any case) and its password hash.
    pub async fn account_named(&self, name: &str) -> Result<Option<(Account, String)>, StoreError> {
        let row = sqlx::query("SELECT id, name, password FROM accounts WHERE name_key = $1")
            .bind(name.trim().to_lowercase())
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| Ok((account_of(&r)?, r.try_get("password")?)))
            .transpose()
    }

    /// The account with this id.
    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query("SELECT id, name FROM accounts WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| account_of(&r)).transpose()
    }

    /// The password hash of an account.
    pub async fn password_hash(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT password FROM accounts WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.try_get("password")).transpose()?)
    }

    /// Replaces an account's password and logs out its other sessions.
    pub async fn set_password(
        &self,
        id: &str,
        hash: &str,
        keep: &SessionToken,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
            .bind(hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_digest <> $2")
            .bind(id)
            .bind(keep.digest())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Opens a session for an account until `expires_at`.
    pub async fn create_session(
        &self,
        account: &str,
        token: &SessionToken,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_digest, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(token.digest())
        .bind(account)
        .bind(now)
        .bind(expires_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The account a session token belongs to, while the session lasts.
    pub async fn session(
        &self,
        token: &SessionToken,
        now: i64,
    ) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_digest = $1 AND s.expires_at > $2",
        )
        .bind(token.digest())
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| account_of(&r)).transpose()
    }

    /// Ends a session (logging out).
    pub async fn delete_session(&self, token: &SessionToken) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_digest = $1")
            .bind(token.digest())
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Forgets the sessions that ended before `now`.
    pub async fn drop_expired_sessions(&self, now: i64) -> Result<u64, StoreError> {
        Ok(sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(self.pool())
            .await?
            .rows_affected())
    }

    /// Whether a name belongs to an account: a guest may not use it.
    pub async fn name_registered(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM accounts WHERE name_key = $1")
            .bind(name.key())
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    /// Deletes an account: its sessions, game and puzzle ratings and archive go; its games
    /// stay, finished or not, with the name taken off its seats, so a game still being
    /// played ends without writing ratings or archive lines for an account that is gone;
    /// challenges waiting for it are aborted.
    pub async fn delete_account(&self, account: &Account, now: i64) -> Result<(), StoreError> {
        // First, so that no request of the account seats it in another game meanwhile.
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(&account.id)
            .execute(self.pool())
            .await?;
        let ids: Vec<String> = sqlx::query(
            "SELECT game_id FROM player_games WHERE account_id = $1 \
             UNION SELECT game_id FROM account_games WHERE account_id = $1",
        )
        .bind(&account.id)
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|r| r.try_get("game_id"))
        .collect::<Result<_, _>>()?;
        for id in ids {
            // A finished game changes no more, so the first write normally wins; a game in
            // progress may move meanwhile, and a lost race only means trying again.
            for _ in 0..RATING_TRIES {
                let Some((mut game, seq)) = self.load(&id).await? else {
                    break;
                };
                for seat in &mut game.seats {
                    if seat.account.as_deref() == Some(account.id.as_str()) {
                        seat.account = None;
                        seat.name = None;
                    }
                }
                // A challenge to the account can never be answered now.
                if game.status == Status::Waiting
                    && game
                        .challenge
                        .as_ref()
                        .is_some_and(|c| c.account == account.id)
                {
                    game.abort(now);
                }
                if self.update(&game, seq, now, None).await? {
                    break;
                }
            }
        }
        let mut tx = self.pool().begin().await?;
        for sql in [
            "DELETE FROM sessions WHERE account_id = $1",
            "DELETE FROM ratings WHERE account_id = $1",
            "DELETE FROM puzzle_ratings WHERE account_id = $1",
            "DELETE FROM puzzle_attempts WHERE account_id = $1",
            "DELETE FROM player_games WHERE account_id = $1",
            "DELETE FROM account_games WHERE account_id = $1",
            "DELETE FROM follows WHERE follower = $1 OR followed = $1",
            "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
            "UPDATE player_games SET opponent = NULL, opponent_account = NULL WHERE opponent_account = $1",
            "DELETE FROM accounts WHERE id = $1",
        ] {
            sqlx::query(sql).bind(&account.id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Counts the attempts of `kind` by `subject` since `since`, then records this one.
    pub async fn attempt(
        &self,
        kind: &str,
        subject: &str,
        since: i64,
        now: i64,
    ) -> Result<i64, StoreError> {
        let n = self.attempts(kind, subject, since).await?;
        self.record_attempt(kind, subject, now).await?;
        Ok(n)
    }

    /// Counts the attempts of `kind` by `subject` since `since`.
    pub async fn attempts(&self, kind: &str, subject: &str, since: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM attempts WHERE kind = $1 AND subject = $2 AND at >= $3",
        )
        .bind(kind)
        .bind(subject)
        .bind(since)
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Records an attempt, and forgets the ones older than a day.
    pub async fn record_attempt(
        &self,
        kind: &str,
        subject: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM attempts WHERE at < $1")
            .bind(now - 86_400_000)
            .execute(self.pool())
            .await?;
        sqlx::query("INSERT INTO attempts (kind, subject, at) VALUES ($1, $2, $3)")
            .bind(kind)
            .bind(subject)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

fn account_of(r: &sqlx::any::AnyRow) -> Result<Account, StoreError> {
    let id: String = r.try_get("id")?;
    let name: String = r.try_get("name")?;
    let name = PlayerName::parse(&name).map_err(|e| corrupt_row(&id, e))?;
    Ok(Account { id, name })
}
