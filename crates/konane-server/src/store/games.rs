//! The games' statements: insert, load, conditional updates (a move changes no indexed
//! column), the lists (lobby, live, idle, in progress) and the notification of each change.

use sqlx::Row;

use crate::games::game::{ServedGame, Status};
use crate::net::peers::message::Notice;
use crate::store::db::{Backend, Store, StoreError};
use crate::store::row::GameRow;
use crate::store::writer::Update;

/// The minute of a time in Unix ms, as the `changed_minute` column keeps it.
fn minute(ms: i64) -> i64 {
    ms.div_euclid(60_000)
}

impl Store {
    /// Stores a new game with sequence number 1. Nobody watches a game before it exists
    /// (a page's socket reads the stored state when it opens), so nothing is announced.
    pub async fn insert(&self, game: &ServedGame, now: i64) -> Result<(), StoreError> {
        if !seats_accounts(game) {
            insert_query(game, now)?.execute(&self.pool).await?;
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        insert_query(game, now)?.execute(&mut *tx).await?;
        link_accounts(&mut tx, game).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new challenge `game` unless its challenger already has `most` challenges
    /// waiting for answers or the account it waits for has `most` waiting for its own. The
    /// count and the insert are one transaction that first locks both accounts (a write on
    /// SQLite, which takes its write lock before anything is read; their rows `FOR UPDATE`
    /// on PostgreSQL, in a fixed order so that two challenges between the same players
    /// cannot deadlock), so challenges sent at once are counted one after the other, on one
    /// instance or many.
    pub async fn insert_challenge(
        &self,
        game: &ServedGame,
        now: i64,
        most: usize,
    ) -> Result<ChallengeInsert, StoreError> {
        let (Some(challenger), Some(target)) = (
            game.seats.iter().find_map(|s| s.account.as_deref()),
            game.challenge.as_ref().map(|c| c.account.as_str()),
        ) else {
            return Err(StoreError::NotAChallenge(game.id.clone()));
        };
        let mut accounts = [challenger, target];
        accounts.sort_unstable();
        let mut tx = self.pool.begin().await?;
        for account in accounts {
            let found = match self.backend {
                Backend::Sqlite => sqlx::query("UPDATE accounts SET id = id WHERE id = $1")
                    .bind(account.to_string())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected(),
                Backend::Postgres => {
                    sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
                        .bind(account.to_string())
                        .fetch_all(&mut *tx)
                        .await?
                        .len() as u64
                }
            };
            if found != 1 {
                tx.rollback().await?;
                return Ok(ChallengeInsert::AccountGone);
            }
        }
        let waiting = |rows: Vec<(ServedGame, i64)>, to: bool, account: &str| {
            rows.iter()
                .filter(|(g, _)| {
                    g.status == Status::Waiting
                        && g.challenge
                            .as_ref()
                            .is_some_and(|c| (c.account == account) == to)
                })
                .count()
        };
        let sent = waiting(waiting_games(&mut tx, challenger).await?, false, challenger);
        let received = waiting(waiting_games(&mut tx, target).await?, true, target);
        if sent >= most || received >= most {
            tx.rollback().await?;
            return Ok(ChallengeInsert::TooMany);
        }
        insert_query(game, now)?.execute(&mut *tx).await?;
        link_accounts(&mut tx, game).await?;
        tx.commit().await?;
        Ok(ChallengeInsert::Stored)
    }

    /// A game and its sequence number.
    pub async fn load(&self, id: &str) -> Result<Option<(ServedGame, i64)>, StoreError> {
        let row = sqlx::query("SELECT data, seq FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| decode(id, r.try_get("data")?, r.try_get("seq")?))
            .transpose()
    }

    /// Stores `game` if it is still at `seq`, and announces it to the other instances,
    /// with `state` (the JSON its pages are sent) when given; false when someone else
    /// changed it first.
    pub async fn update(
        &self,
        game: &ServedGame,
        seq: i64,
        now: i64,
        state: Option<&str>,
    ) -> Result<bool, StoreError> {
        let stored = match &self.writer {
            Some(writer) => {
                let data = row_json(game)?;
                writer
                    .update(Update {
                        id: game.id.clone(),
                        seq,
                        status: game.status.as_str(),
                        listed: i64::from(game.listed()),
                        data,
                        now,
                        minute: minute(now),
                    })
                    .await?
            }
            None => {
                update_query(game, seq, now)?
                    .execute(&self.pool)
                    .await?
                    .rows_affected()
                    == 1
            }
        };
        if stored {
            self.announce(game, seq + 1, state).await;
        }
        Ok(stored)
    }

    /// [`Store::update`] for a change that seated an account (a join): the game and the
    /// link from the account to it in one transaction.
    pub async fn update_seated(
        &self,
        game: &ServedGame,
        seq: i64,
        now: i64,
        state: Option<&str>,
    ) -> Result<bool, StoreError> {
        let Some(mut tx) = self.begin_update(game, seq, now).await? else {
            return Ok(false);
        };
        link_accounts(&mut tx, game).await?;
        tx.commit().await?;
        self.announce(game, seq + 1, state).await;
        Ok(true)
    }

    /// A transaction that has stored `game` over `seq`, for more to join it; none (and
    /// nothing stored) when someone else changed the game first.
    pub(crate) async fn begin_update(
        &self,
        game: &ServedGame,
        seq: i64,
        now: i64,
    ) -> Result<Option<sqlx::Transaction<'static, sqlx::Any>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if update_query(game, seq, now)?
            .execute(&mut *tx)
            .await?
            .rows_affected()
            != 1
        {
            tx.rollback().await?;
            return Ok(None);
        }
        Ok(Some(tx))
    }

    /// The unfinished games `account` holds a seat in or is challenged to, with their
    /// sequence numbers.
    pub async fn account_games(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.data, g.seq FROM account_games l JOIN games g ON g.id = l.game_id \
             WHERE l.account_id = $1 AND g.status <> 'finished' ORDER BY g.updated_at DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        decode_rows(rows)
    }

    /// Stores `old` (if still at `seq`) and inserts `new` in one transaction: both or
    /// neither. False when `old` changed first, and then nothing is stored.
    pub async fn update_and_insert(
        &self,
        old: &ServedGame,
        seq: i64,
        new: &ServedGame,
        now: i64,
    ) -> Result<bool, StoreError> {
        let Some(mut tx) = self.begin_update(old, seq, now).await? else {
            return Ok(false);
        };
        insert_query(new, now)?.execute(&mut *tx).await?;
        link_accounts(&mut tx, new).await?;
        tx.commit().await?;
        self.announce(old, seq + 1, None).await;
        Ok(true)
    }

    /// Games in progress whose last change is older than `before` (Unix ms), oldest
    /// first: candidates for aborting when nobody has moved.
    pub async fn idle_playing(
        &self,
        before: i64,
        limit: i64,
    ) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, data, seq FROM games WHERE status = 'playing' AND changed_minute <= $1 \
             AND updated_at < $2 ORDER BY updated_at LIMIT $3",
        )
        .bind(minute(before))
        .bind(before)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        decode_rows(rows)
    }

    /// Open games waiting for an opponent, newest first.
    pub async fn lobby(&self, limit: i64) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        self.select(
            "SELECT id, data, seq FROM games WHERE listed = 1 ORDER BY created_at DESC LIMIT $1",
            limit,
        )
        .await
    }

    /// Games in progress changed after `since` (Unix ms), most recently changed first, with
    /// when they changed: the games being played now, for the start page.
    pub async fn live(&self, since: i64, limit: i64) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, data, updated_at AS seq FROM games WHERE status = 'playing' \
             AND changed_minute >= $1 AND updated_at > $2 ORDER BY updated_at DESC LIMIT $3",
        )
        .bind(minute(since))
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        decode_rows(rows)
    }

    /// How many games in progress changed after `since` (Unix ms).
    pub async fn count_live(&self, since: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE status = 'playing' \
             AND changed_minute >= $1 AND updated_at > $2",
        )
        .bind(minute(since))
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// Games in progress, to pick up their engines and clocks after a restart.
    pub async fn playing(&self) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        self.select(
            "SELECT id, data, seq FROM games WHERE status = 'playing' LIMIT $1",
            i64::MAX,
        )
        .await
    }

    async fn select(
        &self,
        sql: &'static str,
        limit: i64,
    ) -> Result<Vec<(ServedGame, i64)>, StoreError> {
        let rows = sqlx::query(sql).bind(limit).fetch_all(&self.pool).await?;
        decode_rows(rows)
    }

    /// The announcement of `game` at `seq`.
    fn notice<'a>(&self, game: &'a ServedGame, seq: i64, state: Option<&'a str>) -> Notice<'a> {
        Notice {
            instance: self.instance,
            id: &game.id,
            seq,
            self_play: game.engine_turn().is_some_and(|t| t.self_play),
            state,
        }
    }

    /// Tells the other instances (PostgreSQL) that `game`, as just committed, is at `seq`,
    /// with `state` (the JSON its pages are sent) when given; without, they read it back if
    /// they show it.
    pub(crate) async fn announce(&self, game: &ServedGame, seq: i64, state: Option<&str>) {
        if let Some(notifier) = &self.notifier {
            notifier.send(self.notice(game, seq, state).encode()).await;
        }
    }
}

/// What [`Store::insert_challenge`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChallengeInsert {
    /// The challenge is stored.
    Stored,
    /// The challenger or the challenged has as many waiting challenges as allowed:
    /// nothing is stored.
    TooMany,
    /// One of the two accounts was deleted in the meantime: nothing is stored.
    AccountGone,
}

/// Most waiting games of one account read when its challenges are counted.
const MAX_WAITING_READ: i64 = 100;

/// The games waiting for an opponent that `account` sits in or is challenged to, read in
/// `tx`.
async fn waiting_games(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: &str,
) -> Result<Vec<(ServedGame, i64)>, StoreError> {
    let rows = sqlx::query(
        "SELECT g.id, g.data, g.seq FROM account_games l JOIN games g ON g.id = l.game_id \
         WHERE l.account_id = $1 AND g.status = 'waiting' ORDER BY g.updated_at DESC LIMIT $2",
    )
    .bind(account.to_string())
    .bind(MAX_WAITING_READ)
    .fetch_all(&mut **tx)
    .await?;
    decode_rows(rows)
}

/// Whether a person with an account sits in `game`, or a challenge waits for one.
fn seats_accounts(game: &ServedGame) -> bool {
    game.seats.iter().any(|s| s.account.is_some()) || game.challenge.is_some()
}

/// Links each account seated in unfinished `game` to it, and the account a challenge waits
/// for, for [`Store::account_games`]; guests and finished games get none.
pub(crate) async fn link_accounts(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &ServedGame,
) -> Result<(), StoreError> {
    if game.status == Status::Finished {
        return Ok(());
    }
    let challenged = game.challenge.as_ref().map(|c| c.account.as_str());
    for account in game
        .seats
        .iter()
        .filter_map(|s| s.account.as_deref())
        .chain(challenged)
    {
        sqlx::query(
            "INSERT INTO account_games (account_id, game_id) VALUES ($1, $2) \
             ON CONFLICT (account_id, game_id) DO NOTHING",
        )
        .bind(account.to_string())
        .bind(game.id.clone())
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

pub(crate) type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

pub(crate) fn insert_query(game: &ServedGame, now: i64) -> Result<Query<'static>, StoreError> {
    let data = row_json(game)?;
    Ok(sqlx::query(
        "INSERT INTO games (id, seq, status, listed, data, created_at, updated_at, \
         changed_minute) VALUES ($1, 1, $2, $3, $4, $5, $5, $6)",
    )
    .bind(game.id.clone())
    .bind(game.status.as_str())
    .bind(i64::from(game.listed()))
    .bind(data)
    .bind(now)
    .bind(minute(now)))
}

/// The JSON of `game`'s row.
fn row_json(game: &ServedGame) -> Result<String, StoreError> {
    serde_json::to_string(&GameRow::of(game)).map_err(|e| corrupt(&game.id, e))
}

/// The conditional update that stores `game` over `seq`.
pub(crate) fn update_query(
    game: &ServedGame,
    seq: i64,
    now: i64,
) -> Result<Query<'static>, StoreError> {
    let data = row_json(game)?;
    Ok(sqlx::query(
        "UPDATE games SET seq = $1, status = $2, listed = $3, data = $4, updated_at = $5, \
         changed_minute = $6 WHERE id = $7 AND seq = $8",
    )
    .bind(seq + 1)
    .bind(game.status.as_str())
    .bind(i64::from(game.listed()))
    .bind(data)
    .bind(now)
    .bind(minute(now))
    .bind(game.id.clone())
    .bind(seq))
}

/// A stored row (a game, an account, a rating) that does not read back.
pub(crate) fn corrupt_row(id: &str, e: impl std::fmt::Display) -> StoreError {
    corrupt(id, e)
}

fn corrupt(id: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        id: id.to_string(),
        message: e.to_string(),
    }
}

fn decode(id: &str, data: String, seq: i64) -> Result<(ServedGame, i64), StoreError> {
    let row: GameRow = serde_json::from_str(&data).map_err(|e| corrupt(id, e))?;
    let game = row.load().map_err(|e| corrupt(id, e))?;
    Ok((game, seq))
}

fn decode_rows(rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<(ServedGame, i64)>, StoreError> {
    rows.into_iter()
        .map(|r| {
            let id: String = r.try_get("id")?;
            decode(&id, r.try_get("data")?, r.try_get("seq")?)
        })
        .collect()
}
