//! Follows and blocks: `POST`/`DELETE /api/players/{name}/follow` and `…/block`, and the
//! account's lists of each.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::error::ApiError;
use crate::http::extract::{ApiJson, LoggedIn};
use crate::http::players::player;
use crate::http::views::{BlockedPlayerView, BlockedView, FollowedView, FollowingView};
use crate::players::social::{MAX_BLOCKS, MAX_FOLLOWS, ONLINE_MS, SocialError};
use crate::state::Shared;
use crate::store::accounts::Account;
use crate::time::now_ms;

/// The routes, under `/api`.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/players/{name}/follow", post(follow).delete(unfollow))
        .route("/players/{name}/block", post(block).delete(unblock))
        .route("/account/following", get(following))
        .route("/account/blocked", get(blocked))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// The player `name`, who must not be `me`.
async fn other(state: &Shared, me: &Account, name: &str) -> Result<Account, ApiError> {
    let them = player(state, name).await?;
    if them.id == me.id {
        return Err(SocialError::Yourself.into());
    }
    Ok(them)
}

async fn follow(
    State(state): State<Shared>,
    Path(name): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(Empty {}): ApiJson<Empty>,
) -> Result<StatusCode, ApiError> {
    let them = other(&state, &me, &name).await?;
    if state.store.social_counts(&me.id).await?.0 >= MAX_FOLLOWS {
        return Err(SocialError::TooMany(MAX_FOLLOWS).into());
    }
    state.store.follow(&me.id, &them.id, now_ms()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn unfollow(
    State(state): State<Shared>,
    Path(name): Path<String>,
    LoggedIn(me, _): LoggedIn,
) -> Result<StatusCode, ApiError> {
    let them = other(&state, &me, &name).await?;
    state.store.unfollow(&me.id, &them.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn block(
    State(state): State<Shared>,
    Path(name): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(Empty {}): ApiJson<Empty>,
) -> Result<StatusCode, ApiError> {
    let them = other(&state, &me, &name).await?;
    if state.store.social_counts(&me.id).await?.1 >= MAX_BLOCKS {
        return Err(SocialError::TooMany(MAX_BLOCKS).into());
    }
    state.store.block(&me.id, &them.id, now_ms()).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn unblock(
    State(state): State<Shared>,
    Path(name): Path<String>,
    LoggedIn(me, _): LoggedIn,
) -> Result<StatusCode, ApiError> {
    let them = other(&state, &me, &name).await?;
    state.store.unblock(&me.id, &them.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn following(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
) -> Result<Json<FollowingView>, ApiError> {
    let now = now_ms();
    let players = state
        .store
        .following(&me.id, now - ONLINE_MS)
        .await?
        .into_iter()
        .map(|f| FollowedView {
            online: f.seen_at.is_some_and(|at| now - at < ONLINE_MS),
            name: f.name,
            playing: f.playing,
        })
        .collect();
    Ok(Json(FollowingView { players }))
}

async fn blocked(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
) -> Result<Json<BlockedView>, ApiError> {
    let players = state
        .store
        .blocked(&me.id)
        .await?
        .into_iter()
        .map(|name| BlockedPlayerView { name })
        .collect();
    Ok(Json(BlockedView { players }))
}
