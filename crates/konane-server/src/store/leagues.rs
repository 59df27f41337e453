//! Storage of league seasons. A season starts in one transaction that deals its players
//! into divisions and groups and stores every game of every group, moving the season from
//! created to started only from created: of several instances exactly one starts it. The
//! next season is found by its key, so it too is made once.

use crate::store::tournaments::{COLUMNS, Pairing, insert_paired, still_playing, tournament_of};
use crate::store::{Store, StoreError};
use crate::tournaments::model::Tournament;

/// A player's place in a season: division (0 at the top), group, and number in the
/// group's table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GroupPlace {
    /// The account.
    pub account: String,
    /// The division, 0 at the top.
    pub division: u32,
    /// The group in the division.
    pub group: u32,
    /// Its number in the group's round robin.
    pub seat: u32,
}

/// A player entered in a season from the one before.
#[derive(Clone, PartialEq, Debug)]
pub struct Carried {
    /// The account.
    pub account: String,
    /// Its name.
    pub name: String,
    /// Its rating now.
    pub rating: f64,
}

impl Store {
    /// The tournament stored under `key` (a site event's or a league season's).
    pub async fn tournament_by_key(&self, key: &str) -> Result<Option<Tournament>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM tournaments WHERE schedule_key = $1"
        )))
        .bind(key)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| tournament_of(&r)).transpose()
    }

    /// Starts league season `id`: its players' places and every game of its groups, each
    /// `(round, games)` of the groups' round robins; false when it had started already or a
    /// player left meanwhile (the director tries again on its next look).
    pub async fn start_season(
        &self,
        id: &str,
        now: i64,
        places: &[GroupPlace],
        rounds: &[(u32, Vec<Pairing>)],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let started = sqlx::query(
            "UPDATE tournaments SET status = 'started', starts_at = $1, round = 1, version = version + 1 \
             WHERE id = $2 AND status = 'created'",
        )
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let mut playing = started == 1;
        for (_, games) in rounds {
            playing = playing && still_playing(&mut tx, id, games, true).await?;
        }
        if !playing {
            tx.rollback().await?;
            return Ok(false);
        }
        for p in places {
            sqlx::query(
                "UPDATE tournament_players SET division = $1, group_no = $2, seat = $3 \
                 WHERE tournament_id = $4 AND account_id = $5",
            )
            .bind(i64::from(p.division))
            .bind(i64::from(p.group))
            .bind(i64::from(p.seat))
            .bind(id)
            .bind(&p.account)
            .execute(&mut *tx)
            .await?;
        }
        for (round, games) in rounds {
            for p in games {
                insert_paired(&mut tx, id, *round, p, now).await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Whether any game of tournament `id` is still being played: a running season's only
    /// question on most of the director's looks, answered without reading the season.
    pub async fn games_running(&self, id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT 1 AS playing FROM tournament_games WHERE tournament_id = $1 AND winner IS NULL LIMIT 1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.is_some())
    }

    /// Moves the start of a season not yet started (too few players came) to `starts_at`.
    pub async fn postpone(&self, id: &str, starts_at: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET starts_at = $1, version = version + 1 WHERE id = $2 AND status = 'created'",
        )
        .bind(starts_at)
        .bind(id)
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(done == 1)
    }

    /// Enters the players of the season before into season `id`; one already in it (who
    /// joined it, or was carried by another instance) is left as it is.
    pub async fn carry_over(
        &self,
        id: &str,
        players: &[Carried],
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        for p in players {
            sqlx::query(
                "INSERT INTO tournament_players (tournament_id, account_id, name, rating, status, seat, missed, place, joined_at) \
                 VALUES ($1, $2, $3, $4, 'active', NULL, 0, NULL, $5) ON CONFLICT (tournament_id, account_id) DO NOTHING",
            )
            .bind(id)
            .bind(&p.account)
            .bind(&p.name)
            .bind(p.rating)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
