//! The API's guards, in front of its handlers: requests per client, and sockets per
//! client on the WebSocket route.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::net::listener::{ClientAddr, SocketHold};
use crate::state::Shared;

/// Refuses a client over its rate of requests (429).
pub async fn limit_rate(
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

/// The WebSocket route's guard: refuses a client that holds its share of sockets, and
/// hands the place of an accepted one to its connection, which frees it when it closes.
pub async fn socket_cap(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    request: Request,
    next: Next,
) -> Response {
    let slot = match state.occupancy.socket(addr) {
        Ok(slot) => slot,
        Err(refusal) => return ApiError::from(refusal).into_response(),
    };
    let hold = request.extensions().get::<SocketHold>().cloned();
    let response = next.run(request).await;
    if response.status() == StatusCode::SWITCHING_PROTOCOLS
        && let Some(hold) = hold
    {
        hold.keep(slot);
    }
    response
}
