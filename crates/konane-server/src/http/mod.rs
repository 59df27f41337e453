//! The HTTP edge: every route, composed here; the short handlers of each resource; what
//! requests bring (`extract`), the guards in front (`middleware`), and what the API
//! answers (`views`).

pub mod books;
pub mod extract;
pub mod games;
pub mod lobby;
pub mod middleware;
pub mod notices;
pub mod ops;
pub mod pairing;
pub mod players;
pub mod puzzles;
pub mod social;
pub mod tournaments;
pub mod views;
pub mod web;
pub mod ws;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::get;

use crate::error::ApiError;
use crate::net::headers;
use crate::state::Shared;

/// Largest request body accepted.
const BODY_LIMIT: usize = 16 * 1024;

/// Every route of the site.
pub fn router(state: Shared) -> Router {
    let api = Router::new()
        .merge(games::router(&state))
        .merge(lobby::router())
        .merge(books::router())
        .merge(puzzles::router())
        .merge(players::router())
        .merge(pairing::router())
        .merge(social::router())
        .merge(notices::router(&state))
        .merge(tournaments::router(&state))
        .fallback(|| async { ApiError::NoRoute })
        .layer(from_fn_with_state(
            Arc::clone(&state),
            middleware::limit_rate,
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
        .route("/tournaments", get(web::index))
        .route("/tournaments/{id}", get(web::index))
        .route("/healthz", get(ops::healthz))
        .fallback(web::static_file)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(from_fn(headers::require_json))
        .layer(from_fn(headers::json_errors))
        .layer(from_fn(headers::security_headers))
        .with_state(state)
}
