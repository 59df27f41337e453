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
use konane_core::{AnyPosition, Color, Game, Opening, Size};
use konane_engine::Level;
use serde::Deserialize;

use crate::error::ApiError;
use crate::game::{
    Challenge, ClockState, EngineHost, GameError, Holder, Mode, Seat, SeatToken, ServedGame, Status,
};
use crate::listener::ClientAddr;
use crate::name::PlayerName;
use crate::players::Viewer;
use crate::store::ChallengeInsert;
use crate::time::now_ms;
use crate::view::{
    GameView, LiveGame, LiveView, LobbyGame, LobbyView, PositionView, PositionsView, SeatView,
    SeatedView, SeveralView,
};
use crate::{Shared, headers, limits, ops, web, ws};

/// Largest request body accepted.
const BODY_LIMIT: usize = 16 * 1024;

/// Every route of the site.
pub fn router(state: Shared) -> Router {
    let api = Router::new()
        .route("/games", post(create).get(several))
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
            get(socket).layer(middleware::from_fn_with_state(
                Arc::clone(&state),
                limits::socket_cap,
            )),
        )
        .route("/lobby", get(lobby))
        .route("/live", get(live))
        .route("/position", post(position))
        .merge(crate::books::router())
        .merge(crate::puzzles::router())
        .merge(crate::players::router())
        .merge(crate::pairing::router())
        .fallback(|| async { ApiError::NoRoute })
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
        .route("/analysis", get(web::index))
        .route("/play", get(web::index))
        .route("/sw.js", get(web::service_worker))
        .route("/puzzles", get(web::index))
        .route("/puzzles/{id}", get(web::index))
        .route("/@/{name}", get(web::index))
        .route("/players", get(web::index))
        .route("/account", get(web::index))
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

/// A seat token, or a 500 when the system has no randomness to give.
pub(crate) fn token() -> Result<SeatToken, ApiError> {
    SeatToken::random().map_err(|e| ApiError::Internal(format!("no randomness: {e}")))
}

/// A short id (games, accounts): 60 random bits in base 32, 12 characters.
pub(crate) fn random_id() -> Result<String, ApiError> {
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

/// Largest board the engine plays itself on: watching costs a deep search a move.
const MAX_SELF_PLAY_SQUARES: usize = 100;

/// A clock as a request asks for it: minutes and an increment in seconds, or (a
/// correspondence game) days for every move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    #[serde(default)]
    minutes: Option<f64>,
    #[serde(default)]
    increment: f64,
    #[serde(default)]
    days: Option<i64>,
}

/// The days a correspondence game may give for a move.
pub const CORRESPONDENCE_DAYS: [i64; 5] = [1, 2, 3, 5, 7];

impl ClockRequest {
    /// The clock, if its values are allowed.
    pub(crate) fn clock(&self) -> Result<ClockState, ApiError> {
        match (self.minutes, self.days) {
            (Some(minutes), None)
                if minutes > 0.0 && minutes <= 180.0 && (0.0..=60.0).contains(&self.increment) =>
            {
                Ok(ClockState::new(
                    (minutes * 60_000.0).round() as i64,
                    (self.increment * 1000.0).round() as i64,
                ))
            }
            (None, Some(days)) if CORRESPONDENCE_DAYS.contains(&days) && self.increment == 0.0 => {
                Ok(ClockState::per_move_days(days))
            }
            _ => Err(ApiError::BadRequest(
                "a clock has 0 to 180 minutes and an increment of 0 to 60 seconds, or 1, 2, 3, 5 or 7 days a move".into(),
            )),
        }
    }
}

/// Who a new game's creator plays.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
enum ColorChoice {
    Black,
    White,
    #[default]
    Random,
    /// Nobody: the engine plays itself.
    None,
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
    color: ColorChoice,
    #[serde(default)]
    level: Option<i64>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    rated: bool,
    /// Who plays the computer, in an engine game.
    #[serde(default)]
    engine_host: Option<EngineHost>,
    /// The name of the one player who may take the free seat (a friend game).
    #[serde(default)]
    challenge: Option<String>,
}

/// Most challenges an account may have sent that wait for an answer, and most it may be
/// sent that wait for its own: nobody can bury a player in challenges.
pub const MAX_CHALLENGES: usize = 5;

/// The challenge of a game to the player `name`, if the logged-in creator may send it.
/// How many challenges wait is counted when the game is stored
/// ([`crate::store::Store::insert_challenge`]), in the transaction that stores it.
async fn challenge_to(
    state: &Shared,
    viewer: &Viewer,
    mode: Mode,
    name: &str,
) -> Result<Challenge, ApiError> {
    let me = viewer.0.as_ref().ok_or(ApiError::LoginRequired)?;
    if mode != Mode::Friend {
        return Err(ApiError::BadRequest(
            "a challenge is a game between two players: mode 'friend'".into(),
        ));
    }
    let (target, _) = state
        .store
        .account_named(name)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("player {name}")))?;
    if target.id == me.id {
        return Err(GameError::OwnGame.into());
    }
    Ok(Challenge {
        account: target.id,
        name: target.name,
    })
}

/// Most unfinished games of one account read at once (its list, its challenges).
pub const MAX_OPEN_GAMES: i64 = 100;

/// Whether this server can host an engine game played by `host`: without engine threads
/// only a browser can play the computer, and a busy engine takes no new games.
fn engine_ready(state: &Shared, host: EngineHost) -> Result<(), ApiError> {
    match host {
        EngineHost::Browser => Ok(()),
        EngineHost::Server if !state.engines.available() => Err(ApiError::EngineUnavailable),
        EngineHost::Server if state.engines.overloaded() => Err(ApiError::EngineBusy),
        EngineHost::Server => Ok(()),
    }
}

fn parse_size(text: Option<&str>) -> Result<Size, ApiError> {
    let size: Size = text
        .unwrap_or("8x8")
        .parse()
        .map_err(|e: konane_core::SizeError| ApiError::BadRequest(e.to_string()))?;
    if size.rows() < 4 || size.cols() < 4 {
        return Err(ApiError::BadRequest(format!(
            "{size}: games are played on boards from 4x4 to 16x16"
        )));
    }
    Ok(size)
}

/// The opening rule a request names, `center-or-corner` when it names none.
fn parse_opening(text: Option<&str>) -> Result<Opening, ApiError> {
    text.unwrap_or("center-or-corner")
        .parse()
        .map_err(|e: konane_core::OpeningError| ApiError::BadRequest(e.to_string()))
}

/// A name as sent: none, or one that can be shown as it is.
fn parse_name(name: Option<&str>) -> Result<Option<PlayerName>, ApiError> {
    match name {
        Some(n) if !n.trim().is_empty() => Ok(Some(PlayerName::parse(n)?)),
        _ => Ok(None),
    }
}

/// The seat a person takes with `token`: the logged-in account's name, or a guest's name,
/// which may not be an account's (nobody passes for a registered player).
pub(crate) async fn person(
    state: &Shared,
    viewer: Viewer,
    name: Option<&str>,
    token: SeatToken,
) -> Result<Seat, ApiError> {
    let (name, account) = match viewer.0 {
        Some(a) => (Some(a.name), Some(a.id)),
        None => {
            let name = parse_name(name)?;
            if let Some(n) = &name
                && state.store.name_registered(n).await?
            {
                return Err(ApiError::NameTaken(n.to_string()));
            }
            (name, None)
        }
    };
    Ok(Seat {
        token: Some(token),
        engine: false,
        name,
        account,
        rating: None,
    })
}

/// The key a client's engine work is counted under.
fn client_key(addr: std::net::IpAddr) -> String {
    addr.to_string()
}

async fn create(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    viewer: Viewer,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body?;
    if req.rated {
        if viewer.0.is_none() {
            return Err(ApiError::LoginRequired);
        }
        if !matches!(req.mode, Mode::Friend | Mode::Open) {
            return Err(ApiError::NotRatable(
                "rated games are between two players: invite a friend or open a game in the lobby"
                    .into(),
            ));
        }
    }
    let size = parse_size(req.size.as_deref())?;
    let opening = parse_opening(req.opening.as_deref())?;
    let challenge = match req.challenge.as_deref() {
        Some(name) => Some(challenge_to(&state, &viewer, req.mode, name).await?),
        None => None,
    };
    let level = req
        .level
        .map(Level::new)
        .transpose()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let clock = req.clock.as_ref().map(ClockRequest::clock).transpose()?;
    let now = now_ms();
    let client = client_key(addr);
    let creator = match req.color {
        ColorChoice::Black => Some(Color::Black),
        ColorChoice::White => Some(Color::White),
        ColorChoice::Random if token()?.as_str().as_bytes()[0] % 2 == 1 => Some(Color::White),
        ColorChoice::Random => Some(Color::Black),
        ColorChoice::None if req.mode == Mode::Engine => None,
        ColorChoice::None => {
            return Err(ApiError::BadRequest(
                "color 'none' (the engine plays itself) is for engine games: choose black, white or random".into(),
            ));
        }
    };
    let engine_host = match (req.mode, req.engine_host) {
        (Mode::Engine, host) => host.unwrap_or_default(),
        (_, None) => EngineHost::Server,
        (_, Some(_)) => {
            return Err(ApiError::BadRequest(
                "engine_host is for games against the engine (mode 'engine')".into(),
            ));
        }
    };
    if req.mode == Mode::Engine {
        engine_ready(&state, engine_host)?;
        if creator.is_none() && size.squares() > MAX_SELF_PLAY_SQUARES {
            return Err(ApiError::BadRequest(format!(
                "{size}: the engine plays itself on boards of up to {MAX_SELF_PLAY_SQUARES} squares"
            )));
        }
    }
    // Held until the game is stored, so one client's two requests cannot both pass.
    let mut self_play = match (req.mode, creator) {
        (Mode::Engine, None) => Some(state.self_play_slot(&client).await?),
        _ => None,
    };
    let token = token()?;
    let mut seats: [Seat; 2] = Default::default();
    // Only a seat of the creator's own carries a name: watching the computer or sharing a
    // device needs none, so a guest name that is no longer free stops neither.
    match (req.mode, creator) {
        (Mode::Local, _) => {
            for seat in &mut seats {
                seat.token = Some(token.clone());
            }
        }
        (_, None) => {
            // A browser playing the computer for itself holds both engine seats, so that
            // its page (and only its) may move them.
            let host_token = (engine_host == EngineHost::Browser).then(|| token.clone());
            for seat in &mut seats {
                seat.engine = true;
                seat.token = host_token.clone();
            }
        }
        (Mode::Engine, Some(c)) => {
            seats[c.index()] = person(&state, viewer, req.name.as_deref(), token.clone()).await?;
            seats[c.opponent().index()].engine = true;
        }
        (Mode::Friend | Mode::Open, Some(c)) => {
            seats[c.index()] = person(&state, viewer, req.name.as_deref(), token.clone()).await?;
        }
    }
    let waiting = matches!(req.mode, Mode::Friend | Mode::Open);
    let mut game = ServedGame {
        id: random_id()?,
        mode: req.mode,
        level: (req.mode == Mode::Engine).then(|| level.unwrap_or_default()),
        seats,
        game: Game::new(size, opening),
        status: if waiting {
            Status::Waiting
        } else {
            Status::Playing
        },
        result: None,
        clock,
        rematch: None,
        created_at: now,
        client: Some(client.clone()),
        rated: req.rated,
        engine_host,
        challenge,
    };
    if req.rated && game.category().is_none() {
        return Err(ApiError::NotRatable(
            "rated games are played on 8x8, center-or-corner, with a clock".into(),
        ));
    }
    state.store.rate_seats(&mut game).await?;
    if !waiting && let Some(c) = &mut game.clock {
        c.running_since = Some(now);
    }
    if let Some(c) = &game.challenge {
        match state
            .store
            .insert_challenge(&game, now, MAX_CHALLENGES)
            .await?
        {
            ChallengeInsert::Stored => {}
            ChallengeInsert::TooMany => return Err(ApiError::TooManyChallenges),
            ChallengeInsert::AccountGone => {
                return Err(ApiError::Missing(format!("player {}", c.name)));
            }
        }
    } else {
        state.store.insert(&game, now).await?;
    }
    if let Some(slots) = &mut self_play {
        slots.insert(client.clone(), game.id.clone());
    }
    drop(self_play);
    let view = state.changed(&game, 1);
    let seat = match (req.mode, creator) {
        (Mode::Local, _) => Some(SeatView::Both),
        (_, c) => c.map(SeatView::from),
    };
    let body = SeatedView {
        id: game.id.clone(),
        seat,
        token: (creator.is_some() || req.mode == Mode::Local || engine_host == EngineHost::Browser)
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
    let mut joiner = person(&state, viewer, req.name.as_deref(), token.clone()).await?;
    // The joiner's rating in the game's category, read before the game is (a waiting
    // game's settings never change).
    if let Some((game, _)) = state.store.load(&id).await? {
        let mut probe = game;
        probe.seats = [joiner.clone(), Seat::default()];
        state.store.rate_seats(&mut probe).await?;
        joiner.rating = probe.seats[0].rating;
    }
    let mut seat = Color::Black;
    let (_, view) = state
        .mutate(&id, None, |g| {
            seat = g.join(joiner.clone(), now_ms())?;
            Ok(())
        })
        .await?;
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
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
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
    let (_, view) = state
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
    Ok(Json(view))
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
async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let Json(req) = body?;
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

async fn lobby(State(state): State<Shared>) -> Result<Json<LobbyView>, ApiError> {
    let games = state.store.lobby(100).await?;
    Ok(Json(LobbyView {
        games: games.iter().map(|(g, _)| LobbyGame::of(g)).collect(),
    }))
}

/// A game counts as being played now when it moved within this long (ms): a game left
/// alone drops out of the list long before the janitor aborts it.
pub const LIVE_WINDOW_MS: i64 = 5 * 60_000;

/// Games listed on the start page.
const LIVE_LIST: i64 = 12;

/// Most games one request may ask for.
const SEVERAL_MAX: usize = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeveralQuery {
    ids: String,
}

/// Several games at once (`?ids=a,b,c`), as a page lists the games its seats are in; ids
/// of no game are left out.
async fn several(
    State(state): State<Shared>,
    query: Result<axum::extract::Query<SeveralQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<SeveralView>, ApiError> {
    let axum::extract::Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let ids: Vec<&str> = q.ids.split(',').filter(|i| !i.is_empty()).collect();
    if ids.len() > SEVERAL_MAX {
        return Err(ApiError::BadRequest(format!(
            "at most {SEVERAL_MAX} games at once"
        )));
    }
    let now = now_ms();
    let mut games = Vec::new();
    for id in ids {
        if let Some((game, seq)) = state.store.load(id).await? {
            games.push(GameView::of(&game, seq, now));
        }
    }
    Ok(Json(SeveralView { games }))
}

async fn live(State(state): State<Shared>) -> Result<Json<LiveView>, ApiError> {
    let since = now_ms() - LIVE_WINDOW_MS;
    let playing = state.store.count_live(since).await?;
    let mut games: Vec<LiveGame> = state
        .store
        .live(since, LIVE_LIST)
        .await?
        .iter()
        .map(|(g, updated_at)| LiveGame::of(g, *updated_at))
        .collect();
    // The longest game first: the one most worth watching.
    games.sort_by(|a, b| b.ply.cmp(&a.ply).then(b.updated_at.cmp(&a.updated_at)));
    Ok(Json(LiveView { playing, games }))
}
