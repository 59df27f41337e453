//! Every way a request can fail, and the JSON body each one gets:
//! `{"error": "<code>", "message": "<for a human, in English>"}`, and for a refused move
//! also `"reason": "<code>", "params": {...}`, which the page words in its language.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use konane_core::{IllegalMove, IllegalReason, NotationError};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::games::game::GameError;
use crate::players::name::NameError;
use crate::players::secrets::PasswordError;
use crate::players::social::SocialError;
use crate::tournaments::errors::TournamentError;

/// An API error; it becomes the status code and the JSON body of the response.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the JSON the route expects, or a field is malformed (400).
    #[error("{0}")]
    BadRequest(String),
    /// A display name that cannot be shown as given (400).
    #[error("{0}")]
    BadName(#[from] NameError),
    /// A rule of the game service refused the request (400, 403, 409 or 422).
    #[error("{0}")]
    Game(#[from] GameError),
    /// No such game (404).
    #[error("no game with id {0}")]
    NotFound(String),
    /// No such player or seek (404): what was asked for, as "player Ana".
    #[error("there is no {0}")]
    Missing(String),
    /// No such route (404).
    #[error("there is no such address")]
    NoRoute,
    /// A puzzle attempt whose earlier moves are not the puzzle's line (409).
    #[error("move {0} is not the puzzle's line")]
    NotInLine(usize),
    /// The body is larger than allowed (413).
    #[error("the request body is too large")]
    TooLarge,
    /// Too many requests from this client (429).
    #[error("too many requests: slow down")]
    TooManyRequests,
    /// This client already watches the engine play itself (429).
    #[error("the engine is already playing itself for you: one such game at a time")]
    EngineQuota,
    /// The engine has more work queued than it can take (503).
    #[error("the engine is busy: try again in a moment")]
    EngineBusy,
    /// This server runs no engine (`--engine-threads 0`): the browser must play the
    /// computer's side, `"engine_host": "browser"` (503).
    #[error(
        "this server runs no engine: ask for \"engine_host\": \"browser\" and play the computer in the browser"
    )]
    EngineUnavailable,
    /// Something broke on our side (500); the cause is logged, never sent.
    #[error("internal error")]
    Internal(String),
    /// A POST whose body is not declared `application/json` (415).
    #[error("send the body as Content-Type: application/json")]
    UnsupportedMediaType,
    /// The server cannot take the request now: full, or its database unreachable (503).
    #[error("{0}")]
    Unavailable(String),
    /// The client's address holds as many connections or sockets as it may (429).
    #[error("too many connections from your address: close some and try again")]
    TooManyConnections,
    /// An account of that name exists (409).
    #[error("the name {0} is taken: choose another or log in")]
    NameTaken(String),
    /// A new password that is not good enough (400).
    #[error("{0}")]
    BadPassword(#[from] PasswordError),
    /// No account of that name with that password (401).
    #[error("wrong name or password")]
    WrongCredentials,
    /// The request needs a logged-in player (401).
    #[error("log in first")]
    LoginRequired,
    /// A rated game asked for where none can be (400).
    #[error("{0}")]
    NotRatable(String),
    /// Too many failed logins or new accounts from here or for this account (429).
    #[error("too many attempts: wait a quarter of an hour and try again")]
    TooManyAttempts,
    /// The challenger, or the player challenged, has as many open challenges as allowed
    /// (429).
    #[error("too many open challenges: wait until some are answered")]
    TooManyChallenges,
    /// A tournament request refused (403, 409, 422 or 429).
    #[error("{0}")]
    Tournament(#[from] TournamentError),
    /// A follow or block refused, or a challenge a block stops (403, 422 or 429).
    #[error("{0}")]
    Social(#[from] SocialError),
}

/// The body of every refusal.
#[derive(Serialize)]
struct ErrorBody {
    error: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<Map<String, Value>>,
    /// The request's field a refusal is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'static str>,
}

impl ApiError {
    /// Every `error` code a body can carry.
    pub const CODES: [&'static str; 46] = [
        "bad_request",
        "bad_name",
        "bad_move",
        "illegal_move",
        "forbidden",
        "not_found",
        "not_your_turn",
        "stale_ply",
        "game_over",
        "not_started",
        "no_takeback",
        "seats_taken",
        "not_over",
        "cannot_claim",
        "too_large",
        "too_many_requests",
        "engine_quota",
        "engine_busy",
        "engine_unavailable",
        "internal",
        "unsupported_media_type",
        "unavailable",
        "too_many_connections",
        "not_in_line",
        "name_taken",
        "bad_password",
        "wrong_credentials",
        "login_required",
        "too_many_attempts",
        "own_game",
        "not_ratable",
        "not_challenged",
        "too_many_challenges",
        "bad_field",
        "entry_code",
        "rating_too_low",
        "too_few_games",
        "finished",
        "started",
        "not_creator",
        "not_joined",
        "no_pause",
        "yourself",
        "too_many_follows",
        "blocked",
        "too_many_tournaments",
    ];

    /// Every `reason` code of move text that is not a move.
    pub const NOTATION_REASONS: [&'static str; 4] =
        ["not_a_square", "off_board", "not_a_move", "not_a_jump"];

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) | ApiError::BadName(_) => StatusCode::BAD_REQUEST,
            ApiError::Game(g) => match g {
                GameError::BadMove(_) => StatusCode::BAD_REQUEST,
                GameError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
                GameError::NoToken | GameError::WrongToken | GameError::NotChallenged => {
                    StatusCode::FORBIDDEN
                }
                GameError::LoginRequired => StatusCode::UNAUTHORIZED,
                GameError::Corrupt { .. } => StatusCode::INTERNAL_SERVER_ERROR,
                _ => StatusCode::CONFLICT,
            },
            ApiError::NotFound(_) | ApiError::Missing(_) | ApiError::NoRoute => {
                StatusCode::NOT_FOUND
            }
            ApiError::NotInLine(_) => StatusCode::CONFLICT,
            ApiError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests | ApiError::EngineQuota => StatusCode::TOO_MANY_REQUESTS,
            ApiError::EngineBusy | ApiError::EngineUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooManyConnections => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NameTaken(_) => StatusCode::CONFLICT,
            ApiError::NotRatable(_) => StatusCode::BAD_REQUEST,
            ApiError::BadPassword(_) => StatusCode::BAD_REQUEST,
            ApiError::WrongCredentials | ApiError::LoginRequired => StatusCode::UNAUTHORIZED,
            ApiError::TooManyAttempts | ApiError::TooManyChallenges => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Tournament(t) => match t {
                TournamentError::BadField { .. } => StatusCode::UNPROCESSABLE_ENTITY,
                TournamentError::EntryCode
                | TournamentError::RatingTooLow(_)
                | TournamentError::TooFewGames(_)
                | TournamentError::NotCreator => StatusCode::FORBIDDEN,
                TournamentError::Finished
                | TournamentError::Started
                | TournamentError::NotJoined
                | TournamentError::NoPause => StatusCode::CONFLICT,
                TournamentError::TooManyCreated(_) => StatusCode::TOO_MANY_REQUESTS,
            },
            ApiError::Social(e) => match e {
                SocialError::Yourself => StatusCode::UNPROCESSABLE_ENTITY,
                SocialError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
                SocialError::Blocked => StatusCode::FORBIDDEN,
            },
        }
    }

    /// The `error` code of the body.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::BadName(_) => "bad_name",
            ApiError::Game(g) => g.code(),
            ApiError::NotFound(_) | ApiError::Missing(_) | ApiError::NoRoute => "not_found",
            ApiError::NotInLine(_) => "not_in_line",
            ApiError::TooLarge => "too_large",
            ApiError::TooManyRequests => "too_many_requests",
            ApiError::EngineQuota => "engine_quota",
            ApiError::EngineBusy => "engine_busy",
            ApiError::EngineUnavailable => "engine_unavailable",
            ApiError::Internal(_) => "internal",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::TooManyConnections => "too_many_connections",
            ApiError::NameTaken(_) => "name_taken",
            ApiError::NotRatable(_) => "not_ratable",
            ApiError::BadPassword(_) => "bad_password",
            ApiError::WrongCredentials => "wrong_credentials",
            ApiError::LoginRequired => "login_required",
            ApiError::TooManyAttempts => "too_many_attempts",
            ApiError::TooManyChallenges => "too_many_challenges",
            ApiError::Tournament(t) => t.code(),
            ApiError::Social(e) => e.code(),
        }
    }

    fn body(&self) -> ErrorBody {
        let (reason, params) = match self {
            ApiError::Game(GameError::Illegal(m)) => {
                (Some(m.reason.code()), Some(illegal_params(m)))
            }
            ApiError::Game(GameError::BadMove(n)) => {
                (Some(notation_code(n)), Some(notation_params(n)))
            }
            ApiError::BadName(n) => (Some(n.code()), Some(name_params(n))),
            ApiError::BadPassword(p) => (
                Some(p.code()),
                Some(params([
                    ("min", json!(crate::players::secrets::MIN_PASSWORD_CHARS)),
                    ("max", json!(crate::players::secrets::MAX_PASSWORD_CHARS)),
                ])),
            ),
            _ => (None, None),
        };
        let message = match self {
            ApiError::Game(GameError::Corrupt { .. }) => "internal error".to_string(),
            e => e.to_string(),
        };
        let field = match self {
            ApiError::Tournament(t) => t.field(),
            _ => None,
        };
        ErrorBody {
            error: self.code(),
            message,
            reason,
            params,
            field,
        }
    }
}

fn params(pairs: impl IntoIterator<Item = (&'static str, Value)>) -> Map<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The parameters of a refused move's reason: the squares and colours its sentence names.
fn illegal_params(m: &IllegalMove) -> Map<String, Value> {
    let name = |sq: &konane_core::Square| json!(m.size.square_name(*sq).to_string());
    let mut p = params([("move", json!(m.text)), ("color", json!(m.mover.name()))]);
    let extra = match &m.reason {
        IllegalReason::FirstMoveIsRemoval | IllegalReason::RemovalsOver => params([]),
        IllegalReason::NotYourStone { square, found } => params([
            ("square", name(square)),
            ("found", json!(found.map_or("empty", |c| c.name()))),
        ]),
        IllegalReason::FirstRemovalSquare { allowed } => params([
            ("allowed", Value::Array(allowed.iter().map(name).collect())),
            ("opening", json!(m.opening.to_string())),
        ]),
        IllegalReason::SecondMoveIsRemoval { hole } | IllegalReason::NotNextToHole { hole } => {
            params([("hole", name(hole))])
        }
        IllegalReason::NoStoneToJump { square } => params([
            ("square", name(square)),
            ("opponent", json!(m.mover.opponent().name())),
        ]),
        IllegalReason::LandingNotEmpty { square } => params([("square", name(square))]),
    };
    p.extend(extra);
    p
}

/// What a refused name's sentence names: the limits, the character.
fn name_params(n: &NameError) -> Map<String, Value> {
    use crate::players::name::{MAX_NAME_CHARS, MIN_NAME_CHARS};
    let mut p = params([
        ("min", json!(MIN_NAME_CHARS)),
        ("max", json!(MAX_NAME_CHARS)),
    ]);
    match n {
        NameError::Character(c) => {
            p.insert("character".into(), json!(c.to_string()));
        }
        NameError::Hidden(c) => {
            p.insert("character".into(), json!(format!("U+{c:04X}")));
        }
        NameError::Reserved(name) => {
            p.insert("name".into(), json!(name));
        }
        NameError::Empty | NameError::TooShort(_) | NameError::TooLong(_) => {}
    }
    p
}

/// The reason code of move text that is not a move on the board.
fn notation_code(n: &NotationError) -> &'static str {
    let [square, off_board, not_a_move, not_a_jump] = ApiError::NOTATION_REASONS;
    match n {
        NotationError::Square(_) => square,
        NotationError::OffBoard { .. } => off_board,
        NotationError::Move(_) => not_a_move,
        NotationError::NotAJump(_) => not_a_jump,
    }
}

fn notation_params(n: &NotationError) -> Map<String, Value> {
    match n {
        NotationError::Square(t) | NotationError::Move(t) | NotationError::NotAJump(t) => {
            params([("text", json!(t))])
        }
        NotationError::OffBoard { square, size } => {
            params([("text", json!(square)), ("size", json!(size.to_string()))])
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            match &self {
                ApiError::Internal(cause) => tracing::error!("internal error: {cause}"),
                e => tracing::error!("{e:?}"),
            }
        }
        metrics::counter!("konane_refusals_total", "code" => self.code()).increment(1);
        (status, Json(self.body())).into_response()
    }
}

/// The JSON error body of `docs/api.md` with its status; every refusal is counted by code.
pub fn error_response(status: StatusCode, code: &'static str, message: &str) -> Response {
    metrics::counter!("konane_refusals_total", "code" => code).increment(1);
    (status, Json(json!({ "error": code, "message": message }))).into_response()
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(r.body_text())
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use konane_core::Color;

    #[test]
    fn every_code_is_listed() {
        let errors = [
            ApiError::BadRequest(String::new()),
            ApiError::BadName(NameError::Empty),
            ApiError::NotFound(String::new()),
            ApiError::NoRoute,
            ApiError::Missing(String::new()),
            ApiError::TooLarge,
            ApiError::TooManyRequests,
            ApiError::EngineQuota,
            ApiError::EngineBusy,
            ApiError::EngineUnavailable,
            ApiError::Internal(String::new()),
            ApiError::UnsupportedMediaType,
            ApiError::Unavailable(String::new()),
            ApiError::TooManyConnections,
            ApiError::NotInLine(1),
            ApiError::NameTaken(String::new()),
            ApiError::NotRatable(String::new()),
            ApiError::BadPassword(PasswordError::TooShort),
            ApiError::WrongCredentials,
            ApiError::LoginRequired,
            ApiError::TooManyAttempts,
            ApiError::TooManyChallenges,
        ]
        .into_iter()
        .chain(
            [
                TournamentError::bad("name", ""),
                TournamentError::EntryCode,
                TournamentError::RatingTooLow(1),
                TournamentError::TooFewGames(1),
                TournamentError::Finished,
                TournamentError::Started,
                TournamentError::NotCreator,
                TournamentError::NotJoined,
                TournamentError::NoPause,
                TournamentError::TooManyCreated(1),
            ]
            .map(ApiError::Tournament),
        )
        .chain(
            [
                SocialError::Yourself,
                SocialError::TooMany(1),
                SocialError::Blocked,
            ]
            .map(ApiError::Social),
        )
        .chain(
            [
                GameError::NoToken,
                GameError::WrongToken,
                GameError::NotStarted,
                GameError::Over,
                GameError::NotYourTurn(Color::Black),
                GameError::StalePly { sent: 0, at: 1 },
                GameError::TakebackNotAllowed,
                GameError::NothingToTakeBack,
                GameError::SeatsTaken,
                GameError::Changed,
                GameError::NotOver,
                GameError::CannotClaim,
                GameError::LoginRequired,
                GameError::OwnGame,
                GameError::NotChallenged,
                GameError::BadMove(NotationError::Move(String::new())),
                GameError::Corrupt {
                    id: String::new(),
                    message: String::new(),
                },
            ]
            .map(ApiError::Game),
        );
        for e in errors {
            assert!(
                ApiError::CODES.contains(&e.code()),
                "{} is not listed",
                e.code()
            );
        }
    }

    #[test]
    fn a_500_tells_nothing_of_its_cause() {
        let body = ApiError::Internal("database: disk I/O error at /var/db".into()).body();
        assert_eq!(body.message, "internal error");
        let corrupt = ApiError::Game(GameError::Corrupt {
            id: "x".into(),
            message: "row 7".into(),
        });
        assert_eq!(corrupt.body().message, "internal error");
    }

    #[tokio::test]
    async fn a_500_keeps_its_cause_to_itself() {
        let r = ApiError::Internal("relation \"games\" does not exist".into()).into_response();
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(r.into_body(), 1024).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v, json!({"error": "internal", "message": "internal error"}));
    }
}
