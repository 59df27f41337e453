//! A game's routes (`docs/api.md`): create, show, join, move, resign, take back, claim,
//! cancel, decline, rematch, its record and positions, its WebSocket; and a position
//! checked on its own.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use konane_core::{AnyPosition, Color};
use serde::Deserialize;

use crate::error::ApiError;
use crate::games::create::{
    self, CreateRequest, Created, engine_ready, parse_opening, person, random_id, token,
};
use crate::games::game::{EngineHost, GameError, Holder, Mode, Seat, ServedGame, Status};
use crate::http::extract::{ApiJson, Viewer};
use crate::http::middleware::socket_cap;
use crate::http::views::{GameView, PositionView, PositionsView, SeatView, SeatedView};
use crate::http::ws;
use crate::net::listener::ClientAddr;
use crate::notices::notice::{Details, Kind, Notice};
use crate::state::Shared;
use crate::time::now_ms;

/// A game's routes, merged into the API router.
pub fn router(state: &Shared) -> Router<Shared> {
    Router::new()
        .route("/games", post(create))
        .route("/games/{id}", get(show))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/moves", post(play))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/rematch", post(rematch))
        .route("/games/{id}/takeback", post(takeback))
        .route("/games/{id}/claim", post(claim))
        .route("/games/{id}/cancel", post(cancel))
        .route("/games/{id}/decline", post(decline))
        .route("/games/{id}/record", get(record))
        .route("/games/{id}/positions", get(positions))
        .route(
            "/games/{id}/ws",
            get(socket).layer(from_fn_with_state(Arc::clone(state), socket_cap)),
        )
        .route("/position", post(position))
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

/// The key a client's engine work is counted under.
fn client_key(addr: std::net::IpAddr) -> String {
    addr.to_string()
}

/// `POST /api/games`: a new game ([`create::create`] has its rules).
async fn create(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    viewer: Viewer,
    ApiJson(req): ApiJson<CreateRequest>,
) -> Result<Response, ApiError> {
    let Created {
        game,
        creator,
        token,
    } = create::create(&state, client_key(addr), viewer.0, &req).await?;
    let waiting = game.status == Status::Waiting;
    let engine_host = game.engine_host;
    let view = state.changed(&game, 1);
    let seat = match (game.mode, creator) {
        (Mode::Local, _) => Some(SeatView::Both),
        (_, c) => c.map(SeatView::from),
    };
    let body = SeatedView {
        id: game.id.clone(),
        seat,
        token: (creator.is_some()
            || game.mode == Mode::Local
            || engine_host == EngineHost::Browser)
            .then(|| token.as_str().to_string()),
        invite_url: waiting.then(|| format!("/game/{}?join", game.id)),
        game: view,
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// A game, or 404.
async fn load(state: &Shared, id: &str) -> Result<(ServedGame, i64), ApiError> {
    state
        .store
        .load(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(id.to_string()))
}

async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let (mut game, seq) = load(&state, &id).await?;
    // A clock that ran out while nobody watched ends the game now.
    let now = now_ms();
    if game.flag_fall(now) {
        if let Ok((_, view)) = state
            .mutate(&id, Some(seq), |g| {
                g.flag_fall(now);
                Ok(())
            })
            .await
        {
            return Ok(Json(view));
        }
        let (game, seq) = load(&state, &id).await?;
        return Ok(Json(GameView::of(&game, seq, now)));
    }
    Ok(Json(GameView::of(&game, seq, now)))
}

/// A request body that may be left out (empty or blanks): the default then.
fn optional_body<T: serde::de::DeserializeOwned + Default>(
    body: &[u8],
    what: &str,
) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("bad {what} request: {e}")))
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
    viewer: Viewer,
    body: axum::body::Bytes,
) -> Result<Json<SeatedView>, ApiError> {
    // The body is optional: `{"name": "Ana"}` or nothing.
    let req: JoinRequest = optional_body(&body, "join")?;
    let token = token()?;
    let mut joiner = person(&state, viewer.0, req.name.as_deref(), token.clone()).await?;
    // The joiner's rating in the game's category, read before the game is (a waiting
    // game's settings never change).
    if let Some((game, _)) = state.store.load(&id).await? {
        let mut probe = game;
        probe.seats = [joiner.clone(), Seat::default()];
        state.store.rate_seats(&mut probe).await?;
        joiner.rating = probe.seats[0].rating;
    }
    let mut seat = Color::Black;
    let (game, view) = state
        .mutate(&id, None, |g| {
            seat = g.join(joiner.clone(), now_ms())?;
            Ok(())
        })
        .await?;
    answered(&state, &game, Kind::ChallengeAccepted).await;
    Ok(Json(SeatedView {
        id,
        seat: Some(seat.into()),
        token: Some(token.as_str().to_string()),
        invite_url: None,
        game: view,
    }))
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
    action: impl Fn(&mut ServedGame, Option<&str>, i64) -> Result<(), GameError>,
) -> Result<Json<GameView>, ApiError> {
    let token = bearer(headers).map(str::to_string);
    let (_, view) = state
        .mutate(&id, None, |g| Ok(action(g, token.as_deref(), now_ms())?))
        .await?;
    Ok(Json(view))
}

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<GameView>, ApiError> {
    seat_action(state, id, &headers, |g, token, now| {
        g.play(token, &req.text, req.ply, now)
    })
    .await
}

async fn resign(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    seat_action(state, id, &headers, ServedGame::resign).await
}

async fn takeback(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    seat_action(state, id, &headers, ServedGame::take_back).await
}

/// The win, when the opponent left a timed game on their turn and stayed away.
async fn claim(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let token = bearer(&headers).map(str::to_string);
    let shared = Arc::clone(&state);
    let (_, view) = state
        .mutate(&id, None, |g| {
            let gone = match g.holder(token.as_deref())? {
                Holder::One(me) => shared.opponent_gone(g, me),
                Holder::Both => false,
            };
            Ok(g.claim(token.as_deref(), gone, now_ms())?)
        })
        .await?;
    Ok(Json(view))
}

/// The host takes back an invitation nobody has accepted: the game ends, aborted. Once the
/// guest has joined it is a game like any other (resign to leave it).
async fn cancel(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    seat_action(state, id, &headers, |g, token, now| {
        g.holder(token)?;
        match g.status {
            Status::Waiting => {
                g.abort(now);
                Ok(())
            }
            Status::Playing => Err(GameError::SeatsTaken),
            Status::Finished => Err(GameError::Over),
        }
    })
    .await
}

/// The player a challenge waits for says no: the game ends, aborted. Only that player's
/// session may, and only while nobody has taken the seat.
async fn decline(
    State(state): State<Shared>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<GameView>, ApiError> {
    let (account, _) = viewer.required()?;
    let (game, view) = state
        .mutate(&id, None, |g| {
            if g.challenge.as_ref().is_none_or(|c| c.account != account.id) {
                return Err(GameError::NotChallenged.into());
            }
            match g.status {
                Status::Waiting => {
                    g.abort(now_ms());
                    Ok(())
                }
                Status::Playing => Err(GameError::SeatsTaken.into()),
                Status::Finished => Err(GameError::Over.into()),
            }
        })
        .await?;
    answered(&state, &game, Kind::ChallengeDeclined).await;
    Ok(Json(view))
}

/// Tells the challenger of `game` (a challenge just taken or declined) the answer.
async fn answered(state: &Shared, game: &ServedGame, kind: Kind) {
    let Some(challenge) = &game.challenge else {
        return;
    };
    let challenger = game
        .seats
        .iter()
        .find_map(|s| s.account.as_ref().filter(|a| **a != challenge.account));
    if let Some(account) = challenger {
        let notice = Notice {
            account: account.clone(),
            kind,
            details: Details {
                game: Some(game.id.clone()),
                from: Some(challenge.name.as_str().to_string()),
                ..Details::default()
            },
        };
        state.notify(vec![notice], now_ms()).await;
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RematchRequest {
    /// Who plays the computer in the new game (a game against it); the old game's host
    /// when not given.
    #[serde(default)]
    engine_host: Option<EngineHost>,
}

/// A new game with the same settings and the colours swapped; both players get it. The
/// link from the old game and the new game are stored in one transaction, so of two
/// players asking at once, one creates it and the other finds it.
async fn rematch(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    // The body is optional: `{"engine_host": "browser"}` or nothing.
    let req: RematchRequest = optional_body(&body, "rematch")?;
    let token = bearer(&headers).map(str::to_string);
    loop {
        let (old, seq) = load(&state, &id).await?;
        let holder = old.holder(token.as_deref())?;
        if old.status != Status::Finished {
            return Err(GameError::NotOver.into());
        }
        let seat = match holder {
            // The browser that played the computer against itself only watches.
            Holder::Both if old.self_play() => None,
            Holder::Both => Some(SeatView::Both),
            Holder::One(c) => Some(c.opponent().into()),
        };
        let seated = |game: GameView| SeatedView {
            id: game.id.clone(),
            seat,
            token: token.clone(),
            invite_url: None,
            game,
        };
        if let Some(next) = &old.rematch {
            let (game, next_seq) = load(&state, next).await?;
            let view = GameView::of(&game, next_seq, now_ms());
            return Ok(Json(seated(view)).into_response());
        }
        let now = now_ms();
        let mut new = old.rematch_of(random_id()?, now);
        if old.mode == Mode::Engine {
            // Only a game with a person in it may change hosts: the engine seats of a
            // browser's self-play hold its token, a server's hold none.
            if !old.self_play()
                && let Some(host) = req.engine_host
            {
                new.engine_host = host;
            }
            engine_ready(&state, new.engine_host)?;
        } else if req.engine_host.is_some() {
            return Err(ApiError::BadRequest(
                "engine_host is for games against the engine".into(),
            ));
        }
        state.store.rate_seats(&mut new).await?;
        let mut linked = old;
        linked.rematch = Some(new.id.clone());
        if state
            .store
            .update_and_insert(&linked, seq, &new, now)
            .await?
        {
            state.changed(&linked, seq + 1);
            let view = state.changed(&new, 1);
            return Ok((StatusCode::CREATED, Json(seated(view))).into_response());
        }
        // The other player asked at the same moment and won: theirs is the rematch.
    }
}

async fn record(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (game, _) = load(&state, &id).await?;
    let disposition = format!("attachment; filename=\"konane-{id}.txt\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        game.record(),
    )
        .into_response())
}

/// The position text after each ply, from the start: the page steps through them.
async fn positions(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<PositionsView>, ApiError> {
    let (game, _) = load(&state, &id).await?;
    let mut pos = *game.game.start();
    let mut list = vec![pos.to_string()];
    for &m in game.game.moves() {
        pos.play(m).map_err(|e| ApiError::Internal(e.to_string()))?;
        list.push(pos.to_string());
    }
    Ok(Json(PositionsView { positions: list }))
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
async fn position(ApiJson(req): ApiJson<PositionRequest>) -> Result<Json<PositionView>, ApiError> {
    let opening = parse_opening(req.opening.as_deref())?;
    let mut pos = AnyPosition::parse(&req.position, opening)
        .map_err(|e| ApiError::BadRequest(format!("position: {e}")))?;
    let Some(text) = req.text else {
        return Ok(Json(PositionView::of(&pos)));
    };
    let m = pos.play_text(&text).map_err(GameError::from)?;
    let mut view = PositionView::of(&pos);
    view.played = Some(pos.move_text(m));
    Ok(Json(view))
}

async fn socket(
    State(state): State<Shared>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    load(&state, &id).await?;
    // Writes go out at once (every send is flushed anyway), so no write buffer is kept.
    Ok(upgrade
        .read_buffer_size(ws::READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(64 * 1024)
        .on_upgrade(move |s| ws::serve(s, state, id)))
}
