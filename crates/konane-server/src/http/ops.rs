//! For the people running the server: `GET /healthz` on the site, and Prometheus metrics
//! on their own address (`--metrics-bind`), never on the public one.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::error::ApiError;
use crate::http::views::Health;
use crate::state::Shared;
use crate::store::Backend;

/// `GET /healthz`: 200 when the database answers, 503 when it does not.
pub async fn healthz(State(state): State<Shared>) -> Result<Json<Health>, ApiError> {
    // No game has this id (ids never contain an "l"), so this is one cheap round trip.
    match state.store.load("healthz").await {
        Ok(_) => Ok(Json(Health {
            status: "ok",
            database: match state.store.backend() {
                Backend::Sqlite => "sqlite",
                Backend::Postgres => "postgres",
            },
        })),
        Err(e) => {
            tracing::error!("health check: {e}");
            Err(ApiError::Unavailable("the database does not answer".into()))
        }
    }
}

/// The process's Prometheus recorder, installed on first use; `None` when another recorder
/// was installed first.
pub fn recorder() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok().map(|()| handle)
        })
        .as_ref()
}

/// `GET /metrics` in Prometheus' text format.
async fn render(State(state): State<Shared>) -> Response {
    let Some(handle) = recorder() else {
        return ApiError::Unavailable("metrics are recorded elsewhere".into()).into_response();
    };
    metrics::gauge!("konane_games_watched").set(state.hub.watched().len() as f64);
    handle.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}

/// The metrics address's routes.
pub fn metrics_router(state: Shared) -> Router {
    Router::new()
        .route("/metrics", get(render))
        .with_state(state)
}
