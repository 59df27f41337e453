//! Storage of players: accounts, sessions, ratings, the archive of finished games and the
//! attempts behind the login limits. Beside the games in the same database, through the
//! same [`Store`]; SQL that runs on SQLite and PostgreSQL alike.

use std::collections::BTreeMap;

use konane_core::Color;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::account::SessionToken;
use crate::game::{EndReason, ServedGame, Status};
use crate::glicko::Rating;
use crate::name::PlayerName;
use crate::ratings::{Category, Standing, settle};
use crate::store::{Store, StoreError, corrupt_row, link_accounts, update_query};

/// An account as the server knows it once a request has been matched to one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Account {
    /// The account's id (seats and the archive refer to it).
    pub id: String,
    /// Its name, as registered.
    pub name: PlayerName,
}

/// Times a rated result is tried again when another game of one of its players was rated
/// in the same moment.
const RATING_TRIES: usize = 8;

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
        let Some(category) = game.category() else {
            return Ok(());
        };
        for seat in &mut game.seats {
            seat.rating = None;
            if let Some(account) = &seat.account
                && let Some(s) = self.standings(account).await?.get(&category)
            {
                seat.rating = Some(crate::game::SeatRating {
                    rating: s.shown(),
                    provisional: s.provisional(),
                    change: None,
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
                seat.rating = Some(crate::game::SeatRating {
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
        .bind(crate::ratings::PROVISIONAL_DEVIATION)
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

fn account_of(r: &sqlx::any::AnyRow) -> Result<Account, StoreError> {
    let id: String = r.try_get("id")?;
    let name: String = r.try_get("name")?;
    let name = PlayerName::parse(&name).map_err(|e| corrupt_row(&id, e))?;
    Ok(Account { id, name })
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
