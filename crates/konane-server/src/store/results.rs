//! Storage of what games leave to their players: ratings (a finished game's result and
//! both ratings in one transaction), the archive of finished games, tallies, rating
//! histories and leaderboards.

use std::collections::BTreeMap;

use konane_core::Color;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::games::game::{EndReason, ServedGame};
use crate::players::glicko::Rating;
use crate::players::ratings::{Category, Standing, settle};
use crate::store::accounts::Account;
use crate::store::db::RATING_TRIES;
use crate::store::{Store, StoreError, corrupt_row, link_accounts, update_query};

/// Accounts whose ratings one query reads (each a bound parameter).
const ACCOUNTS_A_QUERY: usize = 500;

/// One finished game in a player's archive.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ArchivedGame {
    /// The game.
    pub id: String,
    /// The colour the player had.
    pub color: String,
    /// `win` or `loss`.
    pub outcome: String,
    /// How it ended (an end reason code).
    pub reason: String,
    /// The opponent's name; none for a guest without one or the engine.
    pub opponent: Option<String>,
    /// Whether the opponent has an account (their name links to a profile).
    pub opponent_registered: bool,
    /// The engine's level, when the opponent was the engine.
    pub opponent_level: Option<i64>,
    /// The rating category, if the game had one.
    pub category: Option<Category>,
    /// Whether it changed the ratings.
    pub rated: bool,
    /// Board size.
    pub size: String,
    /// Moves played.
    pub moves: i64,
    /// The player's rating before (rated games).
    pub rating_before: Option<f64>,
    /// And after.
    pub rating_after: Option<f64>,
    /// When it ended (Unix ms).
    pub ended_at: i64,
}

/// What a player's archive list may be narrowed to.
#[derive(Clone, Default, Debug)]
pub struct ArchiveFilter {
    /// Rated games only (true) or casual only (false).
    pub rated: Option<bool>,
    /// One category.
    pub category: Option<Category>,
    /// `win` or `loss`.
    pub outcome: Option<Outcome>,
    /// Games against this opponent.
    pub opponent: Option<String>,
}

/// A game's outcome for one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
        }
    }
}

/// Games played, won and lost, by colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Tally {
    /// Wins with Black.
    pub black_wins: i64,
    /// Losses with Black.
    pub black_losses: i64,
    /// Wins with White.
    pub white_wins: i64,
    /// Losses with White.
    pub white_losses: i64,
}

/// A rated game's point on a rating history.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// When the game ended (Unix ms).
    pub at: i64,
    /// The rating after it.
    pub rating: f64,
}

/// A line of a leaderboard.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Leader {
    /// The player.
    pub name: String,
    /// Their rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games in the category.
    pub games: i64,
}

impl Store {
    /// An account's standing in every category.
    pub async fn standings(
        &self,
        account: &str,
    ) -> Result<BTreeMap<Category, Standing>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, rating, deviation, volatility, games FROM ratings WHERE account_id = $1",
        )
        .bind(account)
        .fetch_all(self.pool())
        .await?;
        let mut out = BTreeMap::new();
        for r in rows {
            let category: String = r.try_get("category")?;
            if let Ok(c) = category.parse::<Category>() {
                out.insert(c, standing_of(&r)?);
            }
        }
        // A category added after the account was made: a newcomer's rating until played.
        for c in Category::ALL {
            out.entry(c).or_default();
        }
        Ok(out)
    }

    /// Puts each logged-in player's current rating in the game's category on their seat.
    pub async fn rate_seats(&self, game: &mut ServedGame) -> Result<(), StoreError> {
        self.rate_all_seats([game]).await
    }

    /// [`Store::rate_seats`] for many games at once (an arena's wave): their players'
    /// ratings are read in one query for every [`ACCOUNTS_A_QUERY`] of them.
    pub async fn rate_all_seats<'a>(
        &self,
        games: impl IntoIterator<Item = &'a mut ServedGame>,
    ) -> Result<(), StoreError> {
        let mut games: Vec<&mut ServedGame> = games
            .into_iter()
            .filter(|g| g.category().is_some())
            .collect();
        let accounts: std::collections::BTreeSet<String> = games
            .iter()
            .flat_map(|g| g.seats.iter().filter_map(|s| s.account.clone()))
            .collect();
        let accounts: Vec<String> = accounts.into_iter().collect();
        let mut read = std::collections::HashMap::new();
        for chunk in accounts.chunks(ACCOUNTS_A_QUERY) {
            let list = (1..=chunk.len())
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ");
            let mut query = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT account_id, category, rating, deviation, volatility, games FROM ratings \
                 WHERE account_id IN ({list})"
            )));
            for account in chunk {
                query = query.bind(account.as_str());
            }
            for r in query.fetch_all(self.pool()).await? {
                let category: String = r.try_get("category")?;
                if let Ok(c) = category.parse::<Category>() {
                    let account: String = r.try_get("account_id")?;
                    read.insert((account, c), standing_of(&r)?);
                }
            }
        }
        for game in &mut games {
            let Some(category) = game.category() else {
                continue;
            };
            for seat in &mut game.seats {
                // A category added after the account was made: a newcomer's rating.
                seat.rating = seat.account.as_ref().map(|account| {
                    let s = read
                        .get(&(account.clone(), category))
                        .copied()
                        .unwrap_or_default();
                    crate::games::game::SeatRating {
                        rating: s.shown(),
                        provisional: s.provisional(),
                        change: None,
                    }
                });
            }
        }
        Ok(())
    }

    /// Stores a game that has just ended, if it is still at `seq`: in one transaction the
    /// game, both ratings of a rated game (each change naming the rating it started from)
    /// and the archive lines of its players. False when the game changed first; then
    /// nothing is stored. The seats' rating changes are written into `game`.
    pub async fn update_finished(
        &self,
        game: &mut ServedGame,
        seq: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        for _ in 0..RATING_TRIES {
            match self.try_finish(game, seq, now).await? {
                Finish::Stored => return Ok(true),
                Finish::Changed => return Ok(false),
                Finish::RatingMoved => continue,
            }
        }
        Err(StoreError::Contended(game.id.clone()))
    }

    async fn try_finish(
        &self,
        game: &mut ServedGame,
        seq: i64,
        now: i64,
    ) -> Result<Finish, StoreError> {
        let mut tx = self.pool().begin().await?;
        // Writing first takes SQLite's write lock before anything is read: a transaction
        // that reads first cannot write once another has committed. It also checks `seq`.
        let ours = sqlx::query("UPDATE games SET seq = seq WHERE id = $1 AND seq = $2")
            .bind(&game.id)
            .bind(seq)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !ours {
            tx.rollback().await?;
            return Ok(Finish::Changed);
        }
        let rated = rated_pair(game);
        let mut moved = Vec::new();
        if let Some((category, [black, white], winner)) = &rated {
            for account in [black, white] {
                ensure_rating(&mut tx, account, *category, now).await?;
            }
            let before = [
                standing_in(&mut tx, black, *category).await?,
                standing_in(&mut tx, white, *category).await?,
            ];
            let after = settle(before[0], before[1], *winner);
            for (i, seat) in game.seats.iter_mut().enumerate() {
                seat.rating = Some(crate::games::game::SeatRating {
                    rating: before[i].shown(),
                    provisional: before[i].provisional(),
                    change: Some(after[i].shown() - before[i].shown()),
                });
            }
            for (i, account) in [black, white].into_iter().enumerate() {
                let r = after[i].rating;
                let done = sqlx::query(
                    "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, updated_at = $5 \
                     WHERE account_id = $6 AND category = $7 AND games = $8",
                )
                .bind(r.rating)
                .bind(r.deviation)
                .bind(r.volatility)
                .bind(after[i].games)
                .bind(now)
                .bind(account.as_str())
                .bind(category.as_str())
                .bind(before[i].games)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if done != 1 {
                    tx.rollback().await?;
                    return Ok(Finish::RatingMoved);
                }
            }
            moved = vec![(before[0], after[0]), (before[1], after[1])];
        }
        update_query(game, seq, now)?.execute(&mut *tx).await?;
        for c in [Color::Black, Color::White] {
            let ratings = moved
                .get(c.index())
                .map(|(b, a)| (b.rating.rating, a.rating.rating));
            archive_line(&mut tx, game, c, ratings, now).await?;
        }
        sqlx::query("DELETE FROM account_games WHERE game_id = $1")
            .bind(&game.id)
            .execute(&mut *tx)
            .await?;
        crate::store::tournaments::record_result(&mut tx, game, now).await?;
        tx.commit().await?;
        self.announce(game, seq + 1, None).await;
        Ok(Finish::Stored)
    }

    /// Puts `account` on the seat of `game` that `token` holds, if a guest's, and (a
    /// finished game) its line in the archive, in one transaction. False when the game
    /// changed first, the token holds no such seat, or the seat is someone's already.
    pub async fn claim_seat(
        &self,
        id: &str,
        token: &str,
        account: &Account,
        now: i64,
    ) -> Result<bool, StoreError> {
        let Some((mut game, seq)) = self.load(id).await? else {
            return Ok(false);
        };
        let holds = |c: Color| {
            game.seat(c)
                .token
                .as_ref()
                .is_some_and(|t| t.matches(token))
        };
        // Both seats on one device are nobody's own games to claim.
        let color = match (holds(Color::Black), holds(Color::White)) {
            (true, false) => Color::Black,
            (false, true) => Color::White,
            _ => return Ok(false),
        };
        if game.seat(color).account.is_some()
            || game.seat(color.opponent()).account.as_deref() == Some(account.id.as_str())
        {
            return Ok(false);
        }
        let seat = &mut game.seats[color.index()];
        seat.account = Some(account.id.clone());
        seat.name = Some(account.name.clone());
        let Some(mut tx) = self.begin_update(&game, seq, now).await? else {
            return Ok(false);
        };
        archive_line(&mut tx, &game, color, None, now).await?;
        link_accounts(&mut tx, &game).await?;
        tx.commit().await?;
        self.announce(&game, seq + 1, None).await;
        Ok(true)
    }

    /// A player's games, newest first, `per_page` from `page` (0 is the first); one more
    /// than asked tells whether another page follows.
    pub async fn archive(
        &self,
        account: &str,
        filter: &ArchiveFilter,
        page: i64,
        per_page: i64,
    ) -> Result<Vec<ArchivedGame>, StoreError> {
        let mut sql = String::from(
            "SELECT game_id, color, outcome, reason, opponent, opponent_account, opponent_level, category, \
             rated, size, moves, rating_before, rating_after, ended_at FROM player_games WHERE account_id = $1",
        );
        let mut binds: Vec<String> = vec![account.to_string()];
        let mut add = |clause: &str, value: String| {
            binds.push(value);
            sql.push_str(&format!(" AND {clause} ${}", binds.len()));
        };
        if let Some(c) = filter.category {
            add("category =", c.as_str().to_string());
        }
        if let Some(o) = filter.outcome {
            add("outcome =", o.as_str().to_string());
        }
        if let Some(name) = filter.opponent.as_deref().filter(|n| !n.trim().is_empty()) {
            add("LOWER(opponent) =", name.trim().to_lowercase());
        }
        if let Some(rated) = filter.rated {
            sql.push_str(if rated {
                " AND rated = 1"
            } else {
                " AND rated = 0"
            });
        }
        sql.push_str(&format!(
            " ORDER BY ended_at DESC, game_id LIMIT {} OFFSET {}",
            per_page + 1,
            page.max(0) * per_page
        ));
        // Only fixed clauses and numbers are spliced in; every value sent is bound.
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for b in binds {
            q = q.bind(b);
        }
        let rows = q.fetch_all(self.pool()).await?;
        rows.iter().map(archived_of).collect()
    }

    /// Games won and lost by colour.
    pub async fn tally(&self, account: &str) -> Result<Tally, StoreError> {
        let rows = sqlx::query(
            "SELECT color, outcome, COUNT(*) AS n FROM player_games WHERE account_id = $1 GROUP BY color, outcome",
        )
        .bind(account)
        .fetch_all(self.pool())
        .await?;
        let mut t = Tally::default();
        for r in rows {
            let (color, outcome, n): (String, String, i64) =
                (r.try_get("color")?, r.try_get("outcome")?, r.try_get("n")?);
            match (color.as_str(), outcome.as_str()) {
                ("black", "win") => t.black_wins += n,
                ("black", _) => t.black_losses += n,
                ("white", "win") => t.white_wins += n,
                _ => t.white_losses += n,
            }
        }
        Ok(t)
    }

    /// The rating after each rated game of a category, oldest first.
    pub async fn history(
        &self,
        account: &str,
        category: Category,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT ended_at, rating_after FROM player_games \
             WHERE account_id = $1 AND category = $2 AND rated = 1 ORDER BY ended_at",
        )
        .bind(account)
        .bind(category.as_str())
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .filter_map(|r| {
                let rating: Option<f64> = r.try_get("rating_after").ok()?;
                Some(Ok(HistoryPoint {
                    at: r.try_get("ended_at").ok()?,
                    rating: rating?,
                }))
            })
            .collect()
    }

    /// The best established ratings of a category: `min_games` rated games or more and a
    /// deviation no longer provisional.
    pub async fn leaderboard(
        &self,
        category: Category,
        min_games: i64,
        limit: i64,
    ) -> Result<Vec<Leader>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, r.rating, r.deviation, r.games FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.category = $1 AND r.games >= $2 AND r.deviation <= $3 ORDER BY r.rating DESC, a.name LIMIT $4",
        )
        .bind(category.as_str())
        .bind(min_games)
        .bind(crate::players::ratings::PROVISIONAL_DEVIATION)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Leader {
                    name: r.try_get("name")?,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    games: r.try_get("games")?,
                })
            })
            .collect()
    }
}

enum Finish {
    Stored,
    Changed,
    RatingMoved,
}

/// The category, both accounts and the winner of a game whose result changes ratings.
fn rated_pair(game: &ServedGame) -> Option<(Category, [String; 2], Color)> {
    let winner = game.result?.winner?;
    if !game.rated {
        return None;
    }
    let category = game.category()?;
    let black = game.seat(Color::Black).account.clone()?;
    let white = game.seat(Color::White).account.clone()?;
    Some((category, [black, white], winner))
}

/// Writes `color`'s line of a finished game into its account's archive (nothing for a
/// guest, an aborted game or one already there). `ratings`: before and after, when rated.
async fn archive_line(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &ServedGame,
    color: Color,
    ratings: Option<(f64, f64)>,
    now: i64,
) -> Result<(), StoreError> {
    let Some(result) = game.result.filter(|r| r.reason != EndReason::Aborted) else {
        return Ok(());
    };
    let (Some(winner), Some(account)) = (result.winner, &game.seat(color).account) else {
        return Ok(());
    };
    let other = game.seat(color.opponent());
    sqlx::query(
        "INSERT INTO player_games (account_id, game_id, color, outcome, reason, opponent, \
         opponent_account, opponent_level, category, rated, size, moves, rating_before, rating_after, ended_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
         ON CONFLICT (account_id, game_id) DO NOTHING",
    )
    .bind(account.as_str())
    .bind(&game.id)
    .bind(color.name())
    .bind(if winner == color { "win" } else { "loss" })
    .bind(result.reason.code())
    .bind(other.name.as_ref().map(|n| n.as_str().to_string()))
    .bind(other.account.clone())
    .bind(other.engine.then(|| i64::from(game.level.unwrap_or_default().get())))
    .bind(game.category().map(|c| c.as_str()))
    .bind(i64::from(ratings.is_some()))
    .bind(game.game.size().to_string())
    .bind(game.ply() as i64)
    .bind(ratings.map(|r| r.0))
    .bind(ratings.map(|r| r.1))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Makes the rating row of a category the account had none of (one added later).
async fn ensure_rating(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: &str,
    category: Category,
    now: i64,
) -> Result<(), StoreError> {
    let start = Rating::default();
    sqlx::query(
        "INSERT INTO ratings (account_id, category, rating, deviation, volatility, games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, category) DO NOTHING",
    )
    .bind(account)
    .bind(category.as_str())
    .bind(start.rating)
    .bind(start.deviation)
    .bind(start.volatility)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn standing_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: &str,
    category: Category,
) -> Result<Standing, StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM ratings WHERE account_id = $1 AND category = $2",
    )
    .bind(account)
    .bind(category.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    row.map_or(Ok(Standing::default()), |r| standing_of(&r))
}

fn standing_of(r: &sqlx::any::AnyRow) -> Result<Standing, StoreError> {
    let rating = Rating {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
    };
    if !rating.is_valid() {
        return Err(corrupt_row("ratings", format!("{rating:?}")));
    }
    Ok(Standing {
        rating,
        games: r.try_get("games")?,
    })
}

fn archived_of(r: &sqlx::any::AnyRow) -> Result<ArchivedGame, StoreError> {
    let category: Option<String> = r.try_get("category")?;
    let rated: i64 = r.try_get("rated")?;
    let opponent_account: Option<String> = r.try_get("opponent_account")?;
    Ok(ArchivedGame {
        id: r.try_get("game_id")?,
        color: r.try_get("color")?,
        outcome: r.try_get("outcome")?,
        reason: r.try_get("reason")?,
        opponent: r.try_get("opponent")?,
        opponent_registered: opponent_account.is_some(),
        opponent_level: r.try_get("opponent_level")?,
        category: category.and_then(|c| c.parse().ok()),
        rated: rated == 1,
        size: r.try_get("size")?,
        moves: r.try_get("moves")?,
        rating_before: r.try_get("rating_before")?,
        rating_after: r.try_get("rating_after")?,
        ended_at: r.try_get("ended_at")?,
    })
}
