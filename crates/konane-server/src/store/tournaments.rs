//! Storage of tournaments: the events, their players, games and byes. Pairing a round (or
//! an arena's wave) and storing its games is one transaction that moves the tournament's
//! `round` on only from the value the pairing was computed from, so of several instances
//! exactly one pairs each round; a game's end is written into its tournament in the
//! transaction that stores the end ([`record_result`]).

use konane_core::Color;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::games::game::{EndReason, ServedGame};
use crate::store::{Store, StoreError, corrupt_row, insert_query, link_accounts};
use crate::tournaments::model::{
    EntryStatus, Format, Phase, Settings, TourBye, TourGame, Tournament,
};

pub(crate) const COLUMNS: &str =
    "id, status, by_site, created_by, data, round, version, starts_at, ends_at, finished_at";

/// A game paired in a tournament, with its players' accounts (Black's, White's).
pub struct Pairing {
    /// The new game, both seats taken, its clock running.
    pub game: ServedGame,
    /// Black's and White's accounts.
    pub accounts: [String; 2],
}

/// A tournament in a list: the tournament and how many play in it.
pub struct Listed {
    /// The tournament.
    pub tournament: Tournament,
    /// Players not withdrawn.
    pub players: i64,
    /// The winner's name, once over.
    pub winner: Option<String>,
}

/// A finished tournament an account played in.
pub struct Played {
    /// The tournament.
    pub tournament: Tournament,
    /// Its final rank.
    pub place: u32,
    /// How many played.
    pub players: i64,
}

impl Store {
    /// Stores a new tournament; a site event whose `schedule_key` is stored already is not
    /// stored again (false).
    pub async fn insert_tournament(
        &self,
        t: &Tournament,
        schedule_key: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let data = serde_json::to_string(&t.settings).map_err(|e| corrupt_row(&t.id, e))?;
        let done = sqlx::query(
            "INSERT INTO tournaments (id, kind, status, by_site, schedule_key, created_by, data, round, version, \
             starts_at, ends_at, finished_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 1, $8, $9, NULL, $10) \
             ON CONFLICT (schedule_key) DO NOTHING",
        )
        .bind(&t.id)
        .bind(t.settings.format.kind())
        .bind(t.phase.as_str())
        .bind(i64::from(t.by_site))
        .bind(schedule_key)
        .bind(t.created_by.clone())
        .bind(data)
        .bind(t.starts_at)
        .bind(t.ends_at)
        .bind(now)
        .execute(self.pool())
        .await?
        .rows_affected();
        Ok(done == 1)
    }

    /// A tournament.
    pub async fn tournament(&self, id: &str) -> Result<Option<Tournament>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM tournaments WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| tournament_of(&r)).transpose()
    }

    /// The tournaments in `phase` with their player counts: upcoming soonest first, the
    /// others latest first; at most `limit`.
    pub async fn tournaments_in(
        &self,
        phase: Phase,
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        let order = match phase {
            Phase::Created => "starts_at ASC",
            Phase::Started => "starts_at DESC",
            Phase::Finished => "finished_at DESC",
        };
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS}, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id \
             AND p.status <> 'withdrawn') AS players, (SELECT p.name FROM tournament_players p \
             WHERE p.tournament_id = t.id AND p.place = 1) AS winner \
             FROM tournaments t WHERE status = $1 ORDER BY {order} LIMIT $2"
        )))
        .bind(phase.as_str())
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Listed {
                    tournament: tournament_of(r)?,
                    players: r.try_get("players")?,
                    winner: r.try_get("winner")?,
                })
            })
            .collect()
    }

    /// The tournaments the director has work in: started, or due to start by `now`.
    pub async fn due_tournaments(&self, now: i64) -> Result<Vec<Tournament>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status = 'started' \
             OR (status = 'created' AND starts_at <= $1) ORDER BY starts_at LIMIT 200"
        )))
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(tournament_of).collect()
    }

    /// How many tournaments `account` created that are not over.
    pub async fn unfinished_created_by(&self, account: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments WHERE created_by = $1 AND status <> 'finished'",
        )
        .bind(account)
        .fetch_one(self.pool())
        .await?
        .try_get("n")?)
    }

    /// The changes of a tournament seen so far (its `version`), none if there is no such.
    pub async fn tournament_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT version FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.try_get("version")).transpose()?)
    }

    /// The players of a tournament, in the order they joined.
    pub async fn entrants(
        &self,
        id: &str,
    ) -> Result<Vec<crate::tournaments::model::Entrant>, StoreError> {
        let rows = sqlx::query(
            "SELECT account_id, name, rating, status, seat, missed, place, joined_at, division, group_no \
             FROM tournament_players \
             WHERE tournament_id = $1 ORDER BY joined_at, account_id",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                let seat: Option<i64> = r.try_get("seat")?;
                let missed: i64 = r.try_get("missed")?;
                let place: Option<i64> = r.try_get("place")?;
                let division: Option<i64> = r.try_get("division")?;
                let group: Option<i64> = r.try_get("group_no")?;
                Ok(crate::tournaments::model::Entrant {
                    account: r.try_get("account_id")?,
                    name: r.try_get("name")?,
                    rating: r.try_get("rating")?,
                    status: EntryStatus::parse(&status)
                        .ok_or_else(|| corrupt_row(id, format!("entry status {status}")))?,
                    seat: seat.map(|s| s as u32),
                    group: division.zip(group).map(|(d, g)| (d as u32, g as u32)),
                    missed: missed as u32,
                    place: place.map(|p| p as u32),
                    joined_at: r.try_get("joined_at")?,
                })
            })
            .collect()
    }

    /// The games of a tournament, in the order they were paired.
    pub async fn tour_games(&self, id: &str) -> Result<Vec<TourGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, round, black, white, winner, absent, created_at, ended_at FROM tournament_games \
             WHERE tournament_id = $1 ORDER BY round, created_at, game_id",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let winner: Option<String> = r.try_get("winner")?;
                let round: i64 = r.try_get("round")?;
                let absent: i64 = r.try_get("absent")?;
                Ok(TourGame {
                    game: r.try_get("game_id")?,
                    round: round as u32,
                    black: r.try_get("black")?,
                    white: r.try_get("white")?,
                    winner: match winner.as_deref() {
                        None => None,
                        Some("black") => Some(Color::Black),
                        Some("white") => Some(Color::White),
                        Some(w) => return Err(corrupt_row(id, format!("winner {w}"))),
                    },
                    absent: absent == 1,
                    created_at: r.try_get("created_at")?,
                    ended_at: r.try_get("ended_at")?,
                })
            })
            .collect()
    }

    /// The byes of a tournament.
    pub async fn tour_byes(&self, id: &str) -> Result<Vec<TourBye>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, account_id FROM tournament_byes WHERE tournament_id = $1 ORDER BY round, account_id",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let round: i64 = r.try_get("round")?;
                Ok(TourBye {
                    round: round as u32,
                    account: r.try_get("account_id")?,
                })
            })
            .collect()
    }

    /// Enters `account` (or brings it back, active) while the tournament takes players:
    /// before its start, and after it an arena until its end, a Swiss until round 1 is
    /// paired (a round robin's table is fixed at the start), a league's season throughout
    /// (for the next season, when it has started). False when it takes nobody.
    pub async fn enter(
        &self,
        id: &str,
        account: &str,
        name: &str,
        rating: f64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND (status = 'created' \
             OR (status = 'started' AND (kind IN ('arena', 'league') OR (kind = 'swiss' AND round = 0))))",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if open != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO tournament_players (tournament_id, account_id, name, rating, status, seat, missed, place, joined_at) \
             VALUES ($1, $2, $3, $4, 'active', NULL, 0, NULL, $5) \
             ON CONFLICT (tournament_id, account_id) DO UPDATE SET status = 'active', missed = 0",
        )
        .bind(id)
        .bind(account)
        .bind(name)
        .bind(rating)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Sets a player's status in a tournament not yet over; false when it plays in none
    /// such. Leaving before the start removes the player altogether.
    pub async fn set_entry(
        &self,
        id: &str,
        account: &str,
        status: EntryStatus,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND status <> 'finished'",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if open != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        let before_start = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND account_id = $2 AND $3 = 'withdrawn' \
             AND NOT EXISTS (SELECT 1 FROM tournament_games g WHERE g.tournament_id = $1 AND (g.black = $2 OR g.white = $2)) \
             AND NOT EXISTS (SELECT 1 FROM tournament_byes b WHERE b.tournament_id = $1 AND b.account_id = $2)",
        )
        .bind(id)
        .bind(account)
        .bind(status.as_str())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let changed = before_start == 1
            || sqlx::query(
                "UPDATE tournament_players SET status = $1, missed = 0 WHERE tournament_id = $2 AND account_id = $3",
            )
            .bind(status.as_str())
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
        if !changed {
            tx.rollback().await?;
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Starts a tournament that has not started, numbering a round robin's players by
    /// `seats` (account, number); false when it had started already.
    pub async fn start_tournament(
        &self,
        id: &str,
        now: i64,
        ends_at: Option<i64>,
        seats: &[(String, u32)],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let started = sqlx::query(
            "UPDATE tournaments SET status = 'started', starts_at = $1, ends_at = $2, version = version + 1 \
             WHERE id = $3 AND status = 'created'",
        )
        .bind(now)
        .bind(ends_at)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if started != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for (account, seat) in seats {
            sqlx::query("UPDATE tournament_players SET seat = $1 WHERE tournament_id = $2 AND account_id = $3")
                .bind(i64::from(*seat))
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores round `round` (or an arena's wave) of a tournament that has paired
    /// `round - 1`: its games, linked to their players' accounts, and its byes. False when
    /// another pairing came first, or a player of its games left (or, `only_active`, paused)
    /// since it was computed; then nothing is stored.
    pub async fn pair_round(
        &self,
        id: &str,
        round: u32,
        pairings: &[Pairing],
        byes: &[String],
        only_active: bool,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let ours = sqlx::query(
            "UPDATE tournaments SET round = $1, version = version + 1 WHERE id = $2 AND round = $3 AND status = 'started'",
        )
        .bind(i64::from(round))
        .bind(id)
        .bind(i64::from(round) - 1)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if ours != 1 || !still_playing(&mut tx, id, pairings, only_active).await? {
            tx.rollback().await?;
            return Ok(false);
        }
        for p in pairings {
            insert_paired(&mut tx, id, round, p, now).await?;
        }
        for account in byes {
            sqlx::query("INSERT INTO tournament_byes (tournament_id, round, account_id) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(i64::from(round))
                .bind(account)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Ends a started tournament with its final ranks (account, place); false when it had
    /// ended already.
    pub async fn finish_tournament(
        &self,
        id: &str,
        places: &[(String, u32)],
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let ours = sqlx::query(
            "UPDATE tournaments SET status = 'finished', finished_at = $1, version = version + 1 \
             WHERE id = $2 AND status <> 'finished'",
        )
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if ours != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for (account, place) in places {
            sqlx::query("UPDATE tournament_players SET place = $1 WHERE tournament_id = $2 AND account_id = $3")
                .bind(i64::from(*place))
                .bind(id)
                .bind(account)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The finished tournaments `account` played in, latest first, at most `limit`.
    pub async fn tournaments_of(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<Played>, StoreError> {
        // Both tables have a status: the tournament's columns are named by their table.
        let columns = COLUMNS
            .split(", ")
            .map(|c| format!("t.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {columns}, p.place AS place, (SELECT COUNT(*) FROM tournament_players q \
             WHERE q.tournament_id = t.id) AS players FROM tournament_players p \
             JOIN tournaments t ON t.id = p.tournament_id \
             WHERE p.account_id = $1 AND p.place IS NOT NULL ORDER BY t.finished_at DESC LIMIT $2"
        )))
        .bind(account)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let place: i64 = r.try_get("place")?;
                Ok(Played {
                    tournament: tournament_of(r)?,
                    place: place as u32,
                    players: r.try_get("players")?,
                })
            })
            .collect()
    }
}

/// Stores a paired game and its place in tournament `id` as a game of `round`.
pub(crate) async fn insert_paired(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    round: u32,
    p: &Pairing,
    now: i64,
) -> Result<(), StoreError> {
    insert_query(&p.game, now)?.execute(&mut **tx).await?;
    link_accounts(tx, &p.game).await?;
    sqlx::query(
        "INSERT INTO tournament_games (game_id, tournament_id, round, black, white, winner, absent, created_at, ended_at) \
         VALUES ($1, $2, $3, $4, $5, NULL, 0, $6, NULL)",
    )
    .bind(&p.game.id)
    .bind(id)
    .bind(i64::from(round))
    .bind(&p.accounts[0])
    .bind(&p.accounts[1])
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether every player of `pairings` is still in tournament `id` (and, `only_active`, not
/// paused), read after the tournament's row is locked: a pause or a withdrawal that came
/// while the pairing was computed is seen here.
pub(crate) async fn still_playing(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    pairings: &[Pairing],
    only_active: bool,
) -> Result<bool, StoreError> {
    let accounts: Vec<&str> = pairings
        .iter()
        .flat_map(|p| p.accounts.iter().map(String::as_str))
        .collect();
    if accounts.is_empty() {
        return Ok(true);
    }
    let list = (0..accounts.len())
        .map(|i| format!("${}", i + 2))
        .collect::<Vec<_>>()
        .join(", ");
    let status = if only_active {
        "status = 'active'"
    } else {
        "status <> 'withdrawn'"
    };
    let sql = format!(
        "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = $1 AND {status} \
         AND account_id IN ({list})"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id);
    for account in &accounts {
        query = query.bind(*account);
    }
    let n: i64 = query.fetch_one(&mut **tx).await?.try_get("n")?;
    Ok(n == accounts.len() as i64)
}

/// Writes the end of a tournament's game into the tournament, in the transaction that
/// stores the end: the winner (an aborted game is lost by the side that never moved), and
/// the players' count of games missed in a row, pausing one who missed two.
pub(crate) async fn record_result(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &ServedGame,
    now: i64,
) -> Result<(), StoreError> {
    let Some(link) = &game.tournament else {
        return Ok(());
    };
    let winner = game
        .result
        .and_then(|r| r.winner)
        .unwrap_or_else(|| game.turn().opponent());
    let loser = winner.opponent();
    // Black moves first: a loser who never moved is Black at ply 0, White before ply 2.
    // One who resigned was there, moves or not.
    let never_moved = match loser {
        Color::Black => game.ply() == 0,
        Color::White => game.ply() < 2,
    };
    let resigned = game
        .result
        .is_some_and(|r| r.reason == EndReason::Resignation);
    let absent = never_moved && !resigned;
    sqlx::query(
        "UPDATE tournament_games SET winner = $1, absent = $2, ended_at = $3 WHERE game_id = $4 AND winner IS NULL",
    )
    .bind(winner.name())
    .bind(i64::from(absent))
    .bind(now)
    .bind(&game.id)
    .execute(&mut **tx)
    .await?;
    for c in [Color::Black, Color::White] {
        let Some(account) = &game.seat(c).account else {
            continue;
        };
        let missed = c == loser && absent;
        sqlx::query(
            "UPDATE tournament_players SET missed = CASE WHEN $1 = 1 THEN missed + 1 ELSE 0 END, \
             status = CASE WHEN $1 = 1 AND missed >= 1 AND status = 'active' THEN 'paused' ELSE status END \
             WHERE tournament_id = $2 AND account_id = $3",
        )
        .bind(i64::from(missed))
        .bind(&link.id)
        .bind(account)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
        .bind(&link.id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(crate) fn tournament_of(r: &AnyRow) -> Result<Tournament, StoreError> {
    let id: String = r.try_get("id")?;
    let corrupt = |m: String| corrupt_row(&id, m);
    let status: String = r.try_get("status")?;
    let data: String = r.try_get("data")?;
    let settings: Settings =
        serde_json::from_str(&data).map_err(|e| corrupt(format!("settings: {e}")))?;
    let size = settings
        .size
        .parse()
        .map_err(|e: konane_core::SizeError| corrupt(e.to_string()))?;
    let opening = settings
        .opening
        .parse()
        .map_err(|e: konane_core::OpeningError| corrupt(e.to_string()))?;
    let by_site: i64 = r.try_get("by_site")?;
    let round: i64 = r.try_get("round")?;
    if let Format::Swiss { rounds: 0 } = settings.format {
        return Err(corrupt("a Swiss of no rounds".into()));
    }
    Ok(Tournament {
        phase: Phase::parse(&status).ok_or_else(|| corrupt(format!("status {status}")))?,
        by_site: by_site == 1,
        created_by: r.try_get("created_by")?,
        settings,
        size,
        opening,
        round: round as u32,
        version: r.try_get("version")?,
        starts_at: r.try_get("starts_at")?,
        ends_at: r.try_get("ends_at")?,
        finished_at: r.try_get("finished_at")?,
        id,
    })
}
