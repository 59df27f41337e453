//! Quick pairing (`docs/api.md`): a player asks for a time control, rated or casual, and is
//! paired with a waiting player of similar rating; the range widens while they wait. The
//! page asks every second or so; a seek whose page stopped asking is dead.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use konane_core::{Color, Game, Opening, Size};
use serde::Deserialize;

use crate::error::ApiError;
use crate::games::clock::ClockState;
use crate::games::create::{ClockRequest, person, random_id, token};
use crate::games::game::{EngineHost, Mode, NewGame, ServedGame};
use crate::games::seats::{Seat, SeatToken};
use crate::http::extract::{ApiJson, Viewer};
use crate::http::views::SeatView;
use crate::http::views::SeekView;
use crate::players::pairing::{ALIVE_MS, Seek, compatible, range};
use crate::players::ratings::Category;
use crate::time::now_ms;
use crate::{state::Shared, time};

/// The pairing routes, merged into the API router.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/seeks", post(create))
        .route("/seeks/{id}", get(show).delete(cancel))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    clock: ClockRequest,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    name: Option<String>,
}

async fn view(state: &Shared, s: &Seek, now: i64) -> Result<SeekView, ApiError> {
    let mut v = SeekView {
        id: s.id.clone(),
        status: "waiting".into(),
        range: range(s.created_at, now).round() as i32,
        game: None,
        token: None,
        seat: None,
    };
    if let Some((game, token)) = &s.paired {
        v.status = "paired".into();
        if let Some((g, _)) = state.store.load(game).await? {
            v.seat = [Color::Black, Color::White]
                .into_iter()
                .find(|c| g.seat(*c).token.as_ref().is_some_and(|t| t.matches(token)))
                .map(SeatView::from);
        }
        v.game = Some(game.clone());
        v.token = Some(token.clone());
    }
    Ok(v)
}

/// Tries to pair a waiting seek with the oldest compatible one; returns it as stored after.
async fn try_pair(state: &Shared, s: Seek, now: i64) -> Result<Seek, ApiError> {
    if s.paired.is_some() {
        return Ok(s);
    }
    for other in state.store.waiting_like(&s, now - ALIVE_MS).await? {
        if !compatible(&s, &other, now) {
            continue;
        }
        let tokens = [token()?, token()?];
        let game = paired_game(state, [&s, &other], [&tokens[0], &tokens[1]], now).await?;
        let texts = [tokens[0].as_str(), tokens[1].as_str()];
        if state.store.pair([&s, &other], texts, &game, now).await? {
            state.changed(&game, 1);
            break;
        }
        // Refused: `other` was taken meanwhile, or `s` itself (then no later try can work).
        if state
            .store
            .seen_seek(&s.id, now)
            .await?
            .is_none_or(|again| again.paired.is_some())
        {
            break;
        }
    }
    Ok(state.store.seen_seek(&s.id, now).await?.unwrap_or(s))
}

/// A seek's clock. A whole number of days is a correspondence clock: a game clock has at
/// most 180 minutes, so the two never meet.
fn seek_clock(s: &Seek) -> ClockState {
    const DAY: i64 = 86_400_000;
    if s.increment_ms == 0 && s.initial_ms >= DAY && s.initial_ms % DAY == 0 {
        ClockState::per_move_days(s.initial_ms / DAY)
    } else {
        ClockState::new(s.initial_ms, s.increment_ms)
    }
}

/// The game two seeks meet in: colours drawn at random, the clock running.
async fn paired_game(
    state: &Shared,
    seeks: [&Seek; 2],
    tokens: [&SeatToken; 2],
    now: i64,
) -> Result<ServedGame, ApiError> {
    let first_black = tokens[0].as_str().as_bytes()[0].is_multiple_of(2);
    let mut seats: [Seat; 2] = Default::default();
    for (i, s) in seeks.iter().enumerate() {
        let color = if (i == 0) == first_black {
            Color::Black
        } else {
            Color::White
        };
        seats[color.index()] = Seat {
            token: Some(tokens[i].clone()),
            engine: false,
            name: s.name.clone(),
            account: s.account.clone(),
            rating: None,
        };
    }
    let size = Size::new(8, 8).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut game = ServedGame::new(NewGame {
        id: random_id()?,
        mode: Mode::Open,
        level: None,
        seats,
        game: Game::new(size, Opening::CenterOrCorner),
        clock: Some(seek_clock(seeks[0])),
        now,
        client: None,
        rated: seeks[0].rated,
        engine_host: EngineHost::Server,
        challenge: None,
        tournament: None,
    });
    state.store.rate_seats(&mut game).await?;
    Ok(game)
}

async fn create(
    State(state): State<Shared>,
    viewer: Viewer,
    ApiJson(req): ApiJson<SeekRequest>,
) -> Result<Response, ApiError> {
    if req.rated && viewer.0.is_none() {
        return Err(ApiError::LoginRequired);
    }
    let clock = req.clock.clock()?;
    let size = Size::new(8, 8).map_err(|e| ApiError::Internal(e.to_string()))?;
    let category = Category::of(size, Opening::CenterOrCorner, Some(&clock));
    let seat = person(&state, viewer.0, req.name.as_deref(), token()?).await?;
    let rating = match (&seat.account, category) {
        (Some(account), Some(c)) => state
            .store
            .standings(account)
            .await?
            .get(&c)
            .map_or(1500.0, |s| s.rating.rating),
        _ => 1500.0,
    };
    let now = time::now_ms();
    let seek = Seek {
        id: token()?.as_str().to_string(),
        account: seat.account,
        name: seat.name,
        rating,
        rated: req.rated,
        initial_ms: clock.initial_ms,
        increment_ms: clock.increment_ms,
        paired: None,
        created_at: now,
        seen_at: now,
    };
    state.store.insert_seek(&seek).await?;
    let seek = try_pair(&state, seek, now).await?;
    let body = view(&state, &seek, now).await?;
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SeekView>, ApiError> {
    let now = now_ms();
    let seek = state
        .store
        .seen_seek(&id, now)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("seek {id}")))?;
    let seek = try_pair(&state, seek, now).await?;
    Ok(Json(view(&state, &seek, now).await?))
}

/// Withdraws a waiting seek (`204`); one already paired answers its game instead, so a
/// page that cancels in the same moment still finds its opponent.
async fn cancel(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if state.store.cancel_seek(&id).await? {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let now = now_ms();
    match state.store.seen_seek(&id, now).await? {
        Some(seek) => Ok(Json(view(&state, &seek, now).await?).into_response()),
        None => Err(ApiError::Missing(format!("seek {id}"))),
    }
}
