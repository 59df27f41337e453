//! The puzzles' statements: the shipped set loaded, puzzles chosen near a rating, and
//! the ratings of puzzles and players moved by an attempt, in one transaction.

use konane_engine::puzzle::{Puzzle, Theme};
use sqlx::Row;

use crate::players::glicko::{Rating, Score};
use crate::players::ratings::Standing;
use crate::store::{Store, StoreError};
use crate::time;

/// What a puzzle chosen near a rating must be.
pub struct PuzzleFilter {
    /// Its board size (`6x6`), or empty for any.
    pub size: String,
    /// Its theme, if one is asked for.
    pub theme: Option<Theme>,
    /// Not this puzzle (empty: none).
    pub after: String,
    /// The rating to be near.
    pub rating: f64,
    /// The account whose rated puzzles are left out (empty: a guest).
    pub account: String,
}

impl Store {
    /// Writes every puzzle of `puzzles` the database does not hold yet; existing ratings
    /// stay. How many the set has, or 0 when all were there.
    pub async fn load_puzzles(&self, puzzles: &[Puzzle]) -> Result<usize, StoreError> {
        let known: i64 = sqlx::query("SELECT COUNT(*) AS n FROM puzzles")
            .fetch_one(self.pool())
            .await?
            .try_get("n")?;
        if known as usize >= puzzles.len() {
            return Ok(0);
        }
        let mut tx = self.pool().begin().await?;
        for p in puzzles {
            let start = Rating::starting(p.initial_rating());
            sqlx::query(
                "INSERT INTO puzzles (id, size, themes, body, rating, deviation, volatility, \
             attempts, solved) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0) \
             ON CONFLICT (id) DO NOTHING",
            )
            .bind(p.id.to_string())
            .bind(p.position.size().to_string())
            .bind(theme_column(&p.themes))
            .bind(p.to_string())
            .bind(start.rating)
            .bind(start.deviation)
            .bind(start.volatility)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(puzzles.len())
    }

    /// A puzzle's rating now.
    pub async fn puzzle_rating(&self, id: &str) -> Result<Option<Rating>, StoreError> {
        let row = sqlx::query("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(rating_in).transpose()
    }

    /// The ids of at most `limit` puzzles that pass `filter`, the nearest to its rating
    /// first.
    pub async fn puzzles_near(
        &self,
        filter: &PuzzleFilter,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM puzzles WHERE ($1 = '' OR size = $1) AND themes LIKE $2 AND id <> $3 \
         AND id NOT IN (SELECT puzzle_id FROM puzzle_attempts WHERE account_id = $6) \
         ORDER BY ABS(rating - $4) LIMIT $5",
        )
        .bind(&filter.size)
        .bind(filter.theme.map_or("%".to_string(), |t| format!("%,{t},%")))
        .bind(&filter.after)
        .bind(filter.rating)
        .bind(limit)
        .bind(&filter.account)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// An account's puzzle rating: a newcomer's until its first rated attempt.
    pub async fn puzzle_standing(&self, account: &str) -> Result<Standing, StoreError> {
        Ok(standing_row(self.pool(), account)
            .await?
            .unwrap_or_default())
    }

    /// Moves a puzzle's rating after a guest's rated attempt.
    pub async fn store_puzzle_rating(
        &self,
        id: &str,
        r: Rating,
        solved: bool,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, \
         attempts = attempts + 1, solved = solved + $4 WHERE id = $5",
        )
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(i64::from(solved))
        .bind(id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// One try of a logged-in player's rated attempt: both ratings move in one
    /// transaction if the account's rating is still at `version` and the puzzle was never
    /// rated for it; `None` when the puzzle's rating moved under it.
    pub async fn try_rate_puzzle(
        &self,
        account: &str,
        id: &str,
        version: i64,
        solved: bool,
    ) -> Result<Option<(Standing, Rating)>, StoreError> {
        let now = time::now_ms();
        let newcomer = Rating::default();
        let mut tx = self.pool().begin().await?;
        // Writing first takes SQLite's write lock before anything is read: a transaction that
        // reads first cannot write once another has committed.
        sqlx::query(
            "INSERT INTO puzzle_ratings (account_id, rating, deviation, volatility, attempts, \
         updated_at) VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (account_id) DO NOTHING",
        )
        .bind(account)
        .bind(newcomer.rating)
        .bind(newcomer.deviation)
        .bind(newcomer.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // The row exists: it was made above or before.
        let before = standing_row(&mut *tx, account).await?.unwrap_or_default();
        let first = sqlx::query(
        "INSERT INTO puzzle_attempts (account_id, puzzle_id, solved, at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (account_id, puzzle_id) DO NOTHING",
    )
    .bind(account)
    .bind(id)
    .bind(i64::from(solved))
    .bind(now)
    .execute(&mut *tx)
    .await
    ?
    .rows_affected()
        == 1;
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, attempts FROM puzzles WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let puzzle = rating_in(&row)?;
        let puzzle_attempts: i64 = row.try_get("attempts")?;
        if !first || before.games != version {
            tx.rollback().await?;
            return Ok(Some((before, puzzle)));
        }
        let score = if solved { Score::Win } else { Score::Loss };
        let after = Standing {
            rating: before.rating.update(&[(puzzle, score)]),
            games: before.games + 1,
        };
        let moved = puzzle.update(&[(before.rating, score.opposite())]);
        let ours = sqlx::query(
        "UPDATE puzzle_ratings SET rating = $1, deviation = $2, volatility = $3, attempts = $4, \
         updated_at = $5 WHERE account_id = $6 AND attempts = $7",
    )
    .bind(after.rating.rating)
    .bind(after.rating.deviation)
    .bind(after.rating.volatility)
    .bind(after.games)
    .bind(now)
    .bind(account)
    .bind(version)
    .execute(&mut *tx)
    .await
    ?
    .rows_affected()
        == 1;
        if !ours {
            // Another attempt of this account was stored first (PostgreSQL): this one is stale.
            tx.rollback().await?;
            return Ok(Some((before, puzzle)));
        }
        let stored = sqlx::query(
            "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, \
         attempts = attempts + 1, solved = solved + $4 WHERE id = $5 AND attempts = $6",
        )
        .bind(moved.rating)
        .bind(moved.deviation)
        .bind(moved.volatility)
        .bind(i64::from(solved))
        .bind(id)
        .bind(puzzle_attempts)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !stored {
            tx.rollback().await?;
            return Ok(None);
        }
        tx.commit().await?;
        Ok(Some((after, moved)))
    }
}

/// An account's stored puzzle rating, if it has one.
async fn standing_row<'c>(
    ex: impl sqlx::Executor<'c, Database = sqlx::Any>,
    account: &str,
) -> Result<Option<Standing>, StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings WHERE account_id = $1",
    )
    .bind(account)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(Standing {
            rating: rating_in(&r)?,
            games: r.try_get("attempts")?,
        })
    })
    .transpose()
}

fn rating_in(row: &sqlx::any::AnyRow) -> Result<Rating, StoreError> {
    let read = |c: &str| row.try_get::<f64, _>(c);
    Ok(Rating {
        rating: read("rating")?,
        deviation: read("deviation")?,
        volatility: read("volatility")?,
    })
}

fn theme_column(themes: &[Theme]) -> String {
    let names: Vec<&str> = themes.iter().map(|t| t.name()).collect();
    format!(",{},", names.join(","))
}
