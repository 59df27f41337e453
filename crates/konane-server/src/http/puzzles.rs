//! The puzzles' routes (`/api/puzzles`, docs/api.md): the next puzzle near a rating, the
//! daily one, one by id, and a move judged.

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use konane_engine::puzzle::{Puzzle, Theme};
use serde::Deserialize;

use crate::error::ApiError;
use crate::http::extract::{ApiJson, Viewer};
use crate::http::views::{PuzzleView, StandingView, Verdict};
use crate::players::glicko::{Rating, Score};
use crate::puzzles::{
    Judged, NEAREST, book, daily_index, judge, rate_account, rating_of, streak_rating,
};
use crate::state::Shared;
use crate::store::Store;
use crate::store::puzzles::PuzzleFilter;
use crate::time;

/// The puzzles' routes, merged into the API router.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/puzzles/next", get(next))
        .route("/puzzles/daily", get(daily))
        .route("/puzzles/{id}", get(show))
        .route("/puzzles/{id}/moves", post(answer))
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
    let ids = state
        .store
        .puzzles_near(
            &PuzzleFilter {
                size: size.unwrap_or_default(),
                theme,
                after: q.after.unwrap_or_default(),
                rating,
                account: account.unwrap_or_default().to_string(),
            },
            NEAREST,
        )
        .await?;
    if ids.is_empty() {
        return Err(ApiError::NotFound("puzzle of that kind".into()));
    }
    let pick = &ids[(time::now_ms() as usize) % ids.len()];
    Ok(Json(view(&state.store, book.get(pick)?, &viewer).await?))
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

async fn answer(
    State(state): State<Shared>,
    viewer: Viewer,
    Path(id): Path<String>,
    ApiJson(attempt): ApiJson<Attempt>,
) -> Result<Json<Verdict>, ApiError> {
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
        state
            .store
            .store_puzzle_rating(&id, rating, judged.solved)
            .await?;
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
