//! Every way a request can fail, and the JSON body each one gets:
//! `{"error": "<code>", "message": "<what was wrong, for a human>"}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An API error; it becomes the status code and the JSON body of the response.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the JSON the route expects, or a field is malformed (400).
    #[error("{0}")]
    BadRequest(String),
    /// The move text is not a move on this board (400).
    #[error("{0}")]
    BadMove(String),
    /// The move is well-formed but breaks the rules here (422).
    #[error("{0}")]
    IllegalMove(String),
    /// No seat token, or one that does not fit this game (403).
    #[error("{0}")]
    Forbidden(String),
    /// No such game (404).
    #[error("no game with id {0}")]
    NotFound(String),
    /// The request does not fit the game's state: not your turn, stale ply, over (409).
    #[error("{message}")]
    Conflict {
        /// A short machine-readable reason.
        code: &'static str,
        /// What happened, for a human.
        message: String,
    },
    /// The body is larger than allowed (413).
    #[error("the request body is too large")]
    TooLarge,
    /// Too many requests from this client (429).
    #[error("too many requests: slow down")]
    TooManyRequests,
    /// Something broke on our side (500).
    #[error("internal error: {0}")]
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
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::BadMove(_) => (StatusCode::BAD_REQUEST, "bad_move"),
            ApiError::IllegalMove(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict { code, .. } => (StatusCode::CONFLICT, code),
            ApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::TooManyRequests => (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::UnsupportedMediaType => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::TooManyConnections => (StatusCode::TOO_MANY_REQUESTS, "too_many_connections"),
        }
    }

    /// A 409 with its code.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Conflict {
            code,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        // The cause (a database's own words, a path) is for the log, not for the client.
        let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!("{self}");
            "internal error".to_string()
        } else {
            self.to_string()
        };
        error_response(status, code, &message)
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

    #[tokio::test]
    async fn a_500_keeps_its_cause_to_itself() {
        let r = ApiError::Internal("relation \"games\" does not exist".into()).into_response();
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(r.into_body(), 1024).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v, json!({"error": "internal", "message": "internal error"}));
    }
}
