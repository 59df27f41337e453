//! The HTTP routes (`docs/api.md`): short handlers over [`AppState`](crate::AppState).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use konane_core::{AnyPosition, Opening, Size};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::game::{ClockState, Mode, Seat, Status, StoredGame, play_error, position_view};
use crate::listener::ClientAddr;
use crate::time::now_ms;
use crate::{Shared, headers, limits, ops, web, ws};

/// Largest request body accepted.
const BODY_LIMIT: usize = 16 * 1024;

/// Every route of the site.
pub fn router(state: Shared) -> Router {
    let api = Router::new()
        .route("/games", post(create))
        .route("/games/{id}", get(show))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/takeback", post(takeback))
        .route("/games/{id}/record", get(record))
        .route("/games/{id}/positions", get(positions))
        .route(
            "/games/{id}/ws",
            get(socket).layer(middleware::from_fn_with_state(
                Arc::clone(&state),
                limits::socket_cap,
            )),
        )
        .route("/lobby", get(lobby))
        .route("/position", post(position))
        .fallback(|| async { ApiError::NotFound("route".into()) })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            limit_rate,
        ));
    Router::new()
        .nest("/api", api)
        .route("/", get(web::index))
        .route("/game/{id}", get(web::index))
        .route("/learn", get(web::index))
        .route("/rules", get(web::index))
        .route("/history", get(web::index))
        .route("/healthz", get(ops::healthz))
        .fallback(web::static_file)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(headers::require_json))
        .layer(middleware::from_fn(headers::json_errors))
        .layer(middleware::from_fn(headers::security_headers))
        .with_state(state)
}

async fn limit_rate(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    request: Request,
    next: Next,
) -> Response {
    if state.rate.allow(addr) {
        next.run(request).await
    } else {
        ApiError::TooManyRequests.into_response()
    }
}

/// The seat token of `Authorization: Bearer <token>`.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// 128 random bits as 32 hex digits.
fn token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A short game id: 60 random bits in base 32, 12 characters.
fn game_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8; 32] = b"abcdefghjkmnpqrstuvwxyz023456789";
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    let mut n = u64::from_le_bytes(bytes);
    Ok((0..12)
        .map(|_| {
            let c = ALPHABET[(n & 31) as usize] as char;
            n >>= 5;
            c
        })
        .collect())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    minutes: f64,
    #[serde(default)]
    increment: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    mode: Mode,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    opening: Option<String>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    name: Option<String>,
}

fn parse_settings(req: &CreateRequest) -> Result<(Size, Opening), ApiError> {
    let size: Size = req
        .size
        .as_deref()
        .unwrap_or("8x8")
        .parse()
        .map_err(|e: konane_core::SizeError| ApiError::BadRequest(e.to_string()))?;
    if size.rows() < 4 || size.cols() < 4 {
        return Err(ApiError::BadRequest(format!(
            "{size}: games are played on boards from 4x4 to 16x16"
        )));
    }
    Ok((size, parse_opening(req.opening.as_deref())?))
}

/// The opening rule a request names, `center-or-corner` when it names none.
fn parse_opening(text: Option<&str>) -> Result<Opening, ApiError> {
    text.unwrap_or("center-or-corner")
        .parse()
        .map_err(|e: konane_core::OpeningError| ApiError::BadRequest(e.to_string()))
}

fn clean_name(name: Option<String>) -> Option<String> {
    name.map(|n| {
        n.trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect::<String>()
    })
    .filter(|n| !n.is_empty())
}

async fn create(
    State(state): State<Shared>,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    let (size, opening) = parse_settings(&req)?;
    let level = req.level.unwrap_or(4);
    if !(1..=8).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level}: levels run from 1 to 8"
        )));
    }
    let now = now_ms();
    let clock = match &req.clock {
        None => None,
        Some(c) if c.minutes > 0.0 && c.minutes <= 180.0 && (0.0..=60.0).contains(&c.increment) => {
            let initial_ms = (c.minutes * 60_000.0).round() as i64;
            Some(ClockState {
                initial_ms,
                increment_ms: (c.increment * 1000.0).round() as i64,
                remaining_ms: [initial_ms, initial_ms],
                running_since: None,
            })
        }
        Some(_) => {
            return Err(ApiError::BadRequest(
                "a clock has 0 to 180 minutes and an increment of 0 to 60 seconds".into(),
            ));
        }
    };
    let creator = match req.color.as_deref().unwrap_or("random") {
        "black" => Some(0),
        "white" => Some(1),
        "random" => Some(usize::from(token()?.as_bytes()[0] % 2 == 1)),
        "none" if req.mode == Mode::Engine => None,
        other => {
            return Err(ApiError::BadRequest(format!(
                "color '{other}': choose black, white or random"
            )));
        }
    };
    let token = token()?;
    let name = clean_name(req.name);
    let mut seats: [Seat; 2] = Default::default();
    match (req.mode, creator) {
        (Mode::Local, _) => {
            for seat in &mut seats {
                seat.token = Some(token.clone());
            }
        }
        // Only an engine game may have no creator's seat: the engine plays itself.
        (_, None) => {
            for seat in &mut seats {
                seat.engine = true;
            }
        }
        (Mode::Engine, Some(i)) => {
            seats[i].token = Some(token.clone());
            seats[i].name = name;
            seats[1 - i].engine = true;
        }
        (Mode::Friend | Mode::Open, Some(i)) => {
            seats[i].token = Some(token.clone());
            seats[i].name = name;
        }
    }
    let waiting = matches!(req.mode, Mode::Friend | Mode::Open);
    let mut game = StoredGame {
        id: game_id()?,
        mode: req.mode,
        size: size.to_string(),
        opening: opening.to_string(),
        level: (req.mode == Mode::Engine).then_some(level),
        seats,
        moves: Vec::new(),
        status: if waiting {
            Status::Waiting
        } else {
            Status::Playing
        },
        result: None,
        clock,
        rematch: None,
        created_at: now,
    };
    if !waiting && let Some(c) = &mut game.clock {
        c.running_since = Some(now);
    }
    state.store.insert(&game, now).await?;
    state.changed(&game, 1);
    let seat = match (req.mode, creator) {
        (Mode::Local, _) => json!("both"),
        (_, None) => Value::Null,
        (_, Some(i)) => {
            let name = ["black", "white"][i];
            json!(name)
        }
    };
    let mut body = json!({
        "id": game.id,
        "seat": seat,
        "token": if creator.is_some() || req.mode == Mode::Local { json!(token) } else { Value::Null },
        "game": game.view(1, now)?,
    });
    if waiting {
        body["invite_url"] = json!(format!("/game/{}?join", game.id));
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (mut game, seq) = state
        .store
        .load(&id)
        .await?
        .ok_or(ApiError::NotFound(id.clone()))?;
    // A clock that ran out while nobody watched ends the game now.
    let now = now_ms();
    if game.flag_fall(now) {
        if let Ok((g, s)) = state
            .mutate(&id, Some(seq), |g| {
                g.flag_fall(now);
                Ok(())
            })
            .await
        {
            return Ok(Json(g.view(s, now)?));
        }
        game = state
            .store
            .load(&id)
            .await?
            .ok_or(ApiError::NotFound(id.clone()))?
            .0;
    }
    Ok(Json(game.view(seq, now)?))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    #[serde(default)]
    name: Option<String>,
}

async fn join(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    // The body is optional: `{"name": "Ana"}` or nothing.
    let req: JoinRequest = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("bad join request: {e}")))?
    };
    let name = clean_name(req.name);
    let token = token()?;
    let mut seat = 0;
    let (game, seq) = state
        .mutate(&id, None, |g| {
            if g.status != Status::Waiting {
                return Err(ApiError::conflict(
                    "seats_taken",
                    "both seats are taken: you can watch this game",
                ));
            }
            let free = g.seats.iter().position(|s| s.token.is_none() && !s.engine);
            let Some(i) = free else {
                return Err(ApiError::conflict(
                    "seats_taken",
                    "both seats are taken: you can watch this game",
                ));
            };
            g.seats[i].token = Some(token.clone());
            g.seats[i].name = name;
            g.status = Status::Playing;
            if let Some(c) = &mut g.clock {
                c.running_since = Some(now_ms());
            }
            seat = i;
            Ok(())
        })
        .await?;
    let seat_name = ["black", "white"][seat];
    Ok(Json(json!({
        "seat": seat_name,
        "token": token,
        "game": game.view(seq, now_ms())?,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    ply: usize,
}

/// Runs a seat's action on the game and answers its new state.
async fn seat_action(
    state: Shared,
    id: String,
    headers: &HeaderMap,
    action: impl FnOnce(&mut StoredGame, Option<&str>, i64) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    let token = bearer(headers).map(str::to_string);
    let (game, seq) = state
        .mutate(&id, None, |g| action(g, token.as_deref(), now_ms()))
        .await?;
    Ok(Json(game.view(seq, now_ms())?))
}

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(req) = body?;
    seat_action(state, id, &headers, |g, token, now| {
        g.play(token, &req.text, req.ply, now)
    })
    .await
}

async fn resign(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    seat_action(state, id, &headers, StoredGame::resign).await
}

async fn takeback(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    seat_action(state, id, &headers, StoredGame::take_back).await
}

/// A new game with the same settings and the colours swapped; both players get it.
async fn rematch(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = bearer(&headers).map(str::to_string);
    let (old, _) = state
        .store
        .load(&id)
        .await?
        .ok_or(ApiError::NotFound(id.clone()))?;
    let seats = old.seats_of(token.as_deref())?;
    if old.status != Status::Finished {
        return Err(ApiError::conflict(
            "not_over",
            "a rematch can start once the game is over",
        ));
    }
    let seat_of_new = |colors: &[konane_core::Color]| match colors {
        [_, _] => json!("both"),
        [c] => json!(c.opponent().name()),
        _ => Value::Null,
    };
    if let Some(next) = &old.rematch {
        let (game, seq) = state
            .store
            .load(next)
            .await?
            .ok_or(ApiError::NotFound(next.clone()))?;
        return Ok(Json(json!({ "id": game.id, "seat": seat_of_new(&seats), "token": token, "game": game.view(seq, now_ms())? })).into_response());
    }
    let now = now_ms();
    let mut seats_new = old.seats.clone();
    seats_new.swap(0, 1);
    let game = StoredGame {
        id: game_id()?,
        moves: Vec::new(),
        status: Status::Playing,
        result: None,
        rematch: None,
        created_at: now,
        seats: seats_new,
        clock: old.clock.as_ref().map(|c| ClockState {
            remaining_ms: [c.initial_ms, c.initial_ms],
            running_since: Some(now),
            ..c.clone()
        }),
        ..old.clone()
    };
    let new_id = game.id.clone();
    let linked = state
        .mutate(&id, None, |g| {
            if g.rematch.is_some() {
                return Err(ApiError::conflict("stale", "the rematch was just created"));
            }
            g.rematch = Some(new_id.clone());
            Ok(())
        })
        .await;
    match linked {
        Ok(_) => {
            state.store.insert(&game, now).await?;
            state.changed(&game, 1);
            Ok((StatusCode::CREATED, Json(json!({ "id": game.id, "seat": seat_of_new(&seats), "token": token, "game": game.view(1, now)? }))).into_response())
        }
        // The other player asked at the same moment: theirs is the rematch.
        Err(ApiError::Conflict { .. }) => Box::pin(rematch(State(state), Path(id), headers)).await,
        Err(e) => Err(e),
    }
}

async fn record(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (game, _) = state
        .store
        .load(&id)
        .await?
        .ok_or(ApiError::NotFound(id.clone()))?;
    let text = game.record()?;
    let disposition = format!("attachment; filename=\"konane-{id}.txt\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// The position text after each ply, from the start: the page steps through them.
async fn positions(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (game, _) = state
        .store
        .load(&id)
        .await?
        .ok_or(ApiError::NotFound(id.clone()))?;
    let played = game.replay()?;
    let mut pos = *played.start();
    let mut list = vec![pos.to_string()];
    for &m in played.moves() {
        pos.play(m).map_err(|e| ApiError::Internal(e.to_string()))?;
        list.push(pos.to_string());
    }
    Ok(Json(json!({ "positions": list })))
}

#[derive(Deserialize)]
struct PositionRequest {
    position: String,
    opening: Option<String>,
    #[serde(rename = "move")]
    text: Option<String>,
}

/// Any position's legal moves, and optionally one move played on it: the tutorial's and
/// the rules page's boards, judged by the same rules as a game.
async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(req) = body?;
    let opening = parse_opening(req.opening.as_deref())?;
    let mut pos = AnyPosition::parse(&req.position, opening)
        .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?;
    let Some(text) = req.text else {
        return Ok(Json(position_view(&pos)));
    };
    let m = pos.play_text(&text).map_err(play_error)?;
    let mut view = position_view(&pos);
    view["played"] = json!(pos.move_text(m));
    Ok(Json(view))
}

async fn socket(
    State(state): State<Shared>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if state.store.load(&id).await?.is_none() {
        return Err(ApiError::NotFound(id));
    }
    // Pages send nothing but pings and closes: small buffers keep an idle game cheap.
    Ok(upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_message_size(64 * 1024)
        .on_upgrade(move |s| ws::serve(s, state, id)))
}

async fn lobby(State(state): State<Shared>) -> Result<Json<Value>, ApiError> {
    let games = state.store.lobby(100).await?;
    let list: Vec<Value> = games
        .into_iter()
        .map(|(g, _)| {
            let free = if g.seats[0].token.is_none() { "black" } else { "white" };
            json!({
                "id": g.id,
                "size": g.size,
                "opening": g.opening,
                "clock": g.clock.as_ref().map(|c| json!({ "initial_ms": c.initial_ms, "increment_ms": c.increment_ms })),
                "free_seat": free,
                "host": g.seats.iter().find_map(|s| s.name.clone()),
                "created_at": g.created_at,
            })
        })
        .collect();
    Ok(Json(json!({ "games": list })))
}
