//! Puzzles (`/api/puzzles`, docs/api.md): the shipped set, loaded into the database on first
//! start, chosen near the player's rating, and checked move by move here, so the page never
//! holds a solution before the player has moved. A visitor's rating lives in the browser and
//! comes with each rated attempt; a logged-in player's is stored here (`puzzle_ratings`).

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use konane_core::AnyPosition;
use konane_engine::puzzle::{Puzzle, Theme};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::accounts::Account;
use crate::error::ApiError;
use crate::game::GameError;
use crate::glicko::{Rating, Score};
use crate::players::Viewer;
use crate::ratings::Standing;
use crate::store::{Store, StoreError};
use crate::{Shared, time};

/// The shipped set; docs/puzzles.md describes it and how it was proven.
const SET: &str = include_str!("../../../data/puzzles.txt");

/// Puzzles considered when choosing one near a rating.
const NEAREST: i64 = 24;

/// Times a logged-in player's rated attempt is tried again when the puzzle's rating moved
/// under it (other players' attempts at the same moment).
const RATING_TRIES: usize = 8;

/// The rating a streak of `n` solved puzzles asks for: each one a little harder.
fn streak_rating(n: u32) -> f64 {
    1000.0 + 100.0 * f64::from(n)
}

/// The shipped puzzles, read once.
struct Book {
    puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
}

fn book() -> Result<&'static Book, ApiError> {
    static BOOK: OnceLock<Result<Book, String>> = OnceLock::new();
    BOOK.get_or_init(|| {
        let puzzles = Puzzle::parse_set(SET).map_err(|e| format!("data/puzzles.txt: {e}"))?;
        let by_id = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.to_string(), i))
            .collect();
        Ok(Book { puzzles, by_id })
    })
    .as_ref()
    .map_err(|e| ApiError::Internal(e.clone()))
}

impl Book {
    fn get(&self, id: &str) -> Result<&Puzzle, ApiError> {
        self.by_id
            .get(id)
            .map(|&i| &self.puzzles[i])
            .ok_or_else(|| ApiError::NotFound(id.to_string()))
    }
}

/// The routes under `/api`, for `api::router` to merge.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/puzzles/next", get(next))
        .route("/puzzles/daily", get(daily))
        .route("/puzzles/{id}", get(show))
        .route("/puzzles/{id}/moves", post(answer))
}

/// Writes every shipped puzzle the database does not hold yet; existing ratings stay.
pub async fn load_set(store: &Store) -> Result<usize, StoreError> {
    let Ok(book) = book() else {
        return Ok(0);
    };
    let known: i64 = sqlx::query("SELECT COUNT(*) AS n FROM puzzles")
        .fetch_one(store.pool())
        .await?
        .try_get("n")?;
    if known as usize >= book.puzzles.len() {
        return Ok(0);
    }
    let mut tx = store.pool().begin().await?;
    for p in &book.puzzles {
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
    Ok(book.puzzles.len())
}

fn theme_column(themes: &[Theme]) -> String {
    let names: Vec<&str> = themes.iter().map(|t| t.name()).collect();
    format!(",{},", names.join(","))
}

/// A puzzle as the page sees it before solving: no solution, no refutation.
#[derive(Serialize, Debug)]
struct PuzzleView {
    id: String,
    position: String,
    opening: String,
    size: String,
    turn: &'static str,
    rating: i64,
    themes: Vec<&'static str>,
    legal_moves: Vec<String>,
    /// A logged-in player's own puzzle rating; guests keep theirs in the browser.
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<StandingView>,
}

/// A logged-in player's puzzle rating as the page and the profile show it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct StandingView {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Still provisional (shown with `?`).
    pub provisional: bool,
    /// Rated attempts so far: the version a rated attempt names.
    pub attempts: i64,
}

impl From<Standing> for StandingView {
    fn from(s: Standing) -> StandingView {
        StandingView {
            rating: s.shown(),
            deviation: s.rating.deviation.round() as i32,
            provisional: s.provisional(),
            attempts: s.games,
        }
    }
}

async fn view(store: &Store, p: &Puzzle, viewer: &Viewer) -> Result<PuzzleView, ApiError> {
    let rating = rating_of(store, p.id.as_str()).await?;
    let player = match &viewer.0 {
        Some(a) => Some(store.puzzle_standing(&a.id).await?.into()),
        None => None,
    };
    Ok(PuzzleView {
        id: p.id.to_string(),
        position: p.position.to_string(),
        opening: p.position.opening().to_string(),
        size: p.position.size().to_string(),
        turn: p.position.turn().name(),
        rating: rating.rating.round() as i64,
        themes: p.themes.iter().map(|t| t.name()).collect(),
        legal_moves: p.position.legal_move_texts(),
        player,
    })
}

async fn rating_of(store: &Store, id: &str) -> Result<Rating, ApiError> {
    let row = sqlx::query("SELECT rating, deviation, volatility FROM puzzles WHERE id = $1")
        .bind(id)
        .fetch_optional(store.pool())
        .await
        .map_err(StoreError::from)?
        .ok_or_else(|| ApiError::NotFound(id.to_string()))?;
    Ok(rating_in(&row)?)
}

/// What `/puzzles/next` may be told.
#[derive(Deserialize, Debug)]
struct NextQuery {
    /// A guest's rating; a puzzle near it is chosen. A logged-in player's stored rating is
    /// used instead.
    rating: Option<f64>,
    /// Streak mode: puzzles solved in a row so far; the puzzle gets harder with each.
    streak: Option<u32>,
    /// Only puzzles of this theme.
    theme: Option<String>,
    /// Only puzzles on this board size.
    size: Option<String>,
    /// Not this puzzle (the one just played).
    after: Option<String>,
}

async fn next(
    State(state): State<Shared>,
    viewer: Viewer,
    Query(q): Query<NextQuery>,
) -> Result<Json<PuzzleView>, ApiError> {
    let book = book()?;
    if q.rating.is_some_and(|r| !r.is_finite()) {
        return Err(ApiError::BadRequest("rating must be a number".into()));
    }
    let account = viewer.0.as_ref().map(|a| a.id.as_str());
    let rating = match (q.streak, account) {
        (Some(n), _) => streak_rating(n),
        (None, Some(id)) => state.store.puzzle_standing(id).await?.rating.rating,
        (None, None) => q.rating.unwrap_or(1500.0),
    };
    let theme = match q.theme.as_deref().filter(|t| !t.is_empty()) {
        Some(t) => Some(
            t.parse::<Theme>()
                .map_err(|e| ApiError::BadRequest(e.to_string()))?,
        ),
        None => None,
    };
    let size = match q.size.as_deref().filter(|s| !s.is_empty()) {
        Some(s) => Some(
            s.parse::<konane_core::Size>()
                .map_err(|e| ApiError::BadRequest(e.to_string()))?
                .to_string(),
        ),
        None => None,
    };
    // A logged-in player is not given a puzzle already rated for them: it could not count.
    let rows = sqlx::query(
        "SELECT id FROM puzzles WHERE ($1 = '' OR size = $1) AND themes LIKE $2 AND id <> $3 \
         AND id NOT IN (SELECT puzzle_id FROM puzzle_attempts WHERE account_id = $6) \
         ORDER BY ABS(rating - $4) LIMIT $5",
    )
    .bind(size.unwrap_or_default())
    .bind(theme.map_or("%".to_string(), |t| format!("%,{t},%")))
    .bind(q.after.unwrap_or_default())
    .bind(rating)
    .bind(NEAREST)
    .bind(account.unwrap_or_default())
    .fetch_all(state.store.pool())
    .await
    .map_err(StoreError::from)?;
    let ids: Vec<String> = rows
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()
        .map_err(StoreError::from)?;
    if ids.is_empty() {
        return Err(ApiError::NotFound("puzzle of that kind".into()));
    }
    let pick = &ids[(time::now_ms() as usize) % ids.len()];
    Ok(Json(view(&state.store, book.get(pick)?, &viewer).await?))
}

/// The puzzle of a UTC date (`YYYY.MM.DD`): the same for everyone that day.
pub fn daily_index(date: &str, count: usize) -> usize {
    let hash = date.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % count.max(1) as u64) as usize
}

async fn daily(State(state): State<Shared>, viewer: Viewer) -> Result<Json<PuzzleView>, ApiError> {
    let book = book()?;
    if book.puzzles.is_empty() {
        return Err(ApiError::NotFound("daily puzzle".into()));
    }
    let date = time::date_of(time::now_ms());
    let p = &book.puzzles[daily_index(&date, book.puzzles.len())];
    Ok(Json(view(&state.store, p, &viewer).await?))
}

async fn show(
    State(state): State<Shared>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    let p = book()?.get(&id)?;
    Ok(Json(view(&state.store, p, &viewer).await?))
}

/// The moves so far and, once, the player's rating for a rated attempt.
#[derive(Deserialize, Debug)]
struct Attempt {
    /// Every move from the puzzle's position: the player's and the replies the server gave;
    /// the last one is the player's new move.
    moves: Vec<String>,
    /// A guest's rating before this attempt; given on a first try, it rates the attempt
    /// once it ends. Ignored with a session: an account's rating is the stored one.
    rating: Option<Rating>,
    /// A logged-in player's rated attempts when this one began (`player.attempts` of the
    /// puzzle's view); given on a first try, it rates the attempt once it ends, once only.
    version: Option<i64>,
}

/// The server's answer to one move.
#[derive(Serialize, Debug)]
struct Verdict {
    /// Whether the move was the only winning one.
    correct: bool,
    /// Whether the puzzle is now solved.
    solved: bool,
    /// The opponent's reply: the forced defence after a right move, the winning answer after
    /// a wrong one; none once solved.
    reply: Option<String>,
    /// The position after the move and the reply.
    position: String,
    /// Legal moves there, for the board.
    legal_moves: Vec<String>,
    /// After a wrong move only: the line from this step on.
    solution: Option<Vec<String>>,
    /// A guest's rating after a rated attempt ended.
    player: Option<Rating>,
    /// A logged-in player's puzzle rating now (after this attempt, if it was rated).
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<StandingView>,
    /// The puzzle's rating now.
    rating: i64,
}

async fn answer(
    State(state): State<Shared>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<Attempt>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<Verdict>, ApiError> {
    let Json(attempt) = body?;
    let guest_rating = attempt.rating.filter(|_| viewer.0.is_none());
    if guest_rating.is_some_and(|r| !r.is_valid()) {
        return Err(ApiError::BadRequest(
            "the player's rating is out of range".into(),
        ));
    }
    let p = book()?.get(&id)?;
    let judged = judge(p, &attempt.moves)?;
    if let Some(account) = &viewer.0 {
        let version = attempt.version.filter(|_| judged.ended());
        let (standing, rating) =
            rate_account(&state.store, account, &id, version, judged.solved).await?;
        return Ok(Json(verdict(judged, None, Some(standing.into()), rating)));
    }
    let mut rating = rating_of(&state.store, &id).await?;
    let mut player = None;
    if let (true, Some(before)) = (judged.ended(), guest_rating) {
        let score = if judged.solved {
            Score::Win
        } else {
            Score::Loss
        };
        player = Some(before.update(&[(rating, score)]));
        rating = rating.update(&[(before, score.opposite())]);
        store_rating(&state.store, &id, rating, judged.solved).await?;
    }
    Ok(Json(verdict(judged, player, None, rating)))
}

fn verdict(
    judged: Judged,
    player: Option<Rating>,
    account: Option<StandingView>,
    rating: Rating,
) -> Verdict {
    Verdict {
        correct: judged.correct,
        solved: judged.solved,
        reply: judged.reply.map(|m| judged.after.move_text(m)),
        position: judged.shown.to_string(),
        legal_moves: judged.shown.legal_move_texts(),
        solution: judged.solution,
        player,
        account,
        rating: rating.rating.round() as i64,
    }
}

/// A logged-in player's answer: with `version` (a rated attempt that has just ended) both
/// ratings move in one transaction, if the account's rating is still at `version` and the
/// puzzle was never rated for it; otherwise nothing changes. The account's standing and the
/// puzzle's rating after it.
async fn rate_account(
    store: &Store,
    account: &Account,
    id: &str,
    version: Option<i64>,
    solved: bool,
) -> Result<(Standing, Rating), ApiError> {
    let Some(version) = version else {
        return Ok((
            store.puzzle_standing(&account.id).await?,
            rating_of(store, id).await?,
        ));
    };
    for _ in 0..RATING_TRIES {
        if let Some(done) = try_rate(store, &account.id, id, version, solved).await? {
            return Ok(done);
        }
    }
    Err(ApiError::Internal(format!(
        "puzzle {id}: its rating kept changing while an attempt was stored"
    )))
}

/// One try of `rate_account`'s transaction; `None` when the puzzle's rating moved under it.
async fn try_rate(
    store: &Store,
    account: &str,
    id: &str,
    version: i64,
    solved: bool,
) -> Result<Option<(Standing, Rating)>, ApiError> {
    let now = time::now_ms();
    let newcomer = Rating::default();
    let mut tx = store.pool().begin().await.map_err(StoreError::from)?;
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
    .await
    .map_err(StoreError::from)?;
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
    .map_err(StoreError::from)?
    .rows_affected()
        == 1;
    let row =
        sqlx::query("SELECT rating, deviation, volatility, attempts FROM puzzles WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .map_err(StoreError::from)?;
    let puzzle = rating_in(&row)?;
    let puzzle_attempts: i64 = row.try_get("attempts").map_err(StoreError::from)?;
    if !first || before.games != version {
        tx.rollback().await.map_err(StoreError::from)?;
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
    .map_err(StoreError::from)?
    .rows_affected()
        == 1;
    if !ours {
        // Another attempt of this account was stored first (PostgreSQL): this one is stale.
        tx.rollback().await.map_err(StoreError::from)?;
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
    .await
    .map_err(StoreError::from)?
    .rows_affected()
        == 1;
    if !stored {
        tx.rollback().await.map_err(StoreError::from)?;
        return Ok(None);
    }
    tx.commit().await.map_err(StoreError::from)?;
    Ok(Some((after, moved)))
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

impl Store {
    /// An account's puzzle rating: a newcomer's until its first rated attempt.
    pub async fn puzzle_standing(&self, account: &str) -> Result<Standing, StoreError> {
        Ok(standing_row(self.pool(), account)
            .await?
            .unwrap_or_default())
    }
}

async fn store_rating(store: &Store, id: &str, r: Rating, solved: bool) -> Result<(), ApiError> {
    sqlx::query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, \
         attempts = attempts + 1, solved = solved + $4 WHERE id = $5",
    )
    .bind(r.rating)
    .bind(r.deviation)
    .bind(r.volatility)
    .bind(i64::from(solved))
    .bind(id)
    .execute(store.pool())
    .await
    .map_err(StoreError::from)?;
    Ok(())
}

/// A judged move.
#[derive(Debug)]
pub struct Judged {
    /// The move was the line's.
    pub correct: bool,
    /// The line is complete.
    pub solved: bool,
    /// The opponent's answer.
    pub reply: Option<konane_core::Move>,
    /// The position after the player's move, where the reply is played.
    pub after: AnyPosition,
    /// The position after the reply.
    pub shown: AnyPosition,
    /// The rest of the line, after a wrong move.
    pub solution: Option<Vec<String>>,
}

impl Judged {
    /// Whether the attempt is over: solved, or failed.
    pub fn ended(&self) -> bool {
        self.solved || !self.correct
    }
}

/// Judges the last of `moves` (all from the puzzle's position); everything before it must be
/// the line as the server gave it. Pure, so the tests can drive it without a server.
pub fn judge(p: &Puzzle, moves: &[String]) -> Result<Judged, ApiError> {
    if moves.len().is_multiple_of(2) || moves.len() > p.line.len() {
        return Err(ApiError::BadRequest(format!(
            "{} moves: send the moves so far, ending with yours",
            moves.len()
        )));
    }
    let step = moves.len() / 2;
    let mut pos = p.position;
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .size()
            .parse_move(text)
            .map_err(|e| ApiError::Game(GameError::BadMove(e)))?;
        if i + 1 < moves.len() && m != p.line[i] {
            return Err(ApiError::NotInLine(i + 1));
        }
        pos.play(m)
            .map_err(|e| ApiError::Game(GameError::Illegal(e)))?;
        if i + 1 == moves.len() {
            let after = pos;
            let correct = m == p.line[i];
            let solved = correct && i + 1 == p.line.len();
            let reply = if correct {
                p.line.get(i + 1).copied()
            } else {
                p.refutations[step]
                    .iter()
                    .find(|&&(w, _)| w == m)
                    .map(|&(_, a)| a)
            };
            if let Some(r) = reply {
                pos.play(r).map_err(|e| ApiError::Internal(e.to_string()))?;
            }
            let solution = (!correct).then(|| {
                p.line[i..]
                    .iter()
                    .map(|&m| p.position.size().move_text(m).to_string())
                    .collect()
            });
            return Ok(Judged {
                correct,
                solved,
                reply,
                after,
                shown: pos,
                solution,
            });
        }
    }
    Err(ApiError::BadRequest("no move".into()))
}
