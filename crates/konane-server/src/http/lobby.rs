//! The lists of games: the lobby's open games, the games being played now, and several
//! games by id (a page's own games).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::error::ApiError;
use crate::http::views::{GameView, LiveGame, LiveView, LobbyGame, LobbyView, SeveralView};
use crate::state::Shared;
use crate::time::now_ms;

/// The lists' routes, merged into the API router.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/games", get(several))
        .route("/lobby", get(lobby))
        .route("/live", get(live))
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
