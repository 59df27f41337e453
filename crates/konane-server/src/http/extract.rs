//! What a request brings, extracted once: a JSON body whose refusal is an [`ApiError`],
//! and the account of the session cookie.

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::players::secrets::SessionToken;
use crate::state::Shared;
use crate::store::accounts::Account;
use crate::time::now_ms;

/// The session cookie's name.
pub const COOKIE: &str = "konane_session";

/// A JSON request body: a body that is not the JSON asked for, or too large, is refused
/// with the API's error body.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(ApiJson(value))
    }
}

/// The account a request's session cookie belongs to, if it has a live one.
pub struct Viewer(pub Option<Account>, pub Option<SessionToken>);

impl Viewer {
    /// The account, or 401.
    pub fn required(self) -> Result<(Account, SessionToken), ApiError> {
        match self {
            Viewer(Some(a), Some(t)) => Ok((a, t)),
            _ => Err(ApiError::LoginRequired),
        }
    }
}

fn session_token(headers: &HeaderMap) -> Option<SessionToken> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            (k == COOKIE)
                .then(|| SessionToken::from_cookie(v))
                .flatten()
        })
}

impl FromRequestParts<Shared> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Shared) -> Result<Viewer, ApiError> {
        let Some(token) = session_token(&parts.headers) else {
            return Ok(Viewer(None, None));
        };
        let now = now_ms();
        let account = state.store.session(&token, now).await?;
        if let Some(a) = &account {
            state.saw(&a.id, now);
        }
        Ok(Viewer(account, Some(token)))
    }
}

/// The logged-in account of a request and its session, or 401 before the body is read.
pub struct LoggedIn(pub Account, pub SessionToken);

impl FromRequestParts<Shared> for LoggedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Shared) -> Result<LoggedIn, ApiError> {
        let (account, token) = Viewer::from_request_parts(parts, state).await?.required()?;
        Ok(LoggedIn(account, token))
    }
}
