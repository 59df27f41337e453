//! The account's notifications: the list, marking them read, and the account's socket,
//! which sends each new one as it comes.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::middleware::from_fn_with_state;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::http::extract::{ApiJson, LoggedIn};
use crate::http::middleware::socket_cap;
use crate::http::views::{NotificationView, NotificationsView};
use crate::notices::notice::KEPT_MS;
use crate::state::Shared;
use crate::time::now_ms;

/// Most notifications a list holds.
const LISTED: i64 = 50;
/// Most ids one request marks read.
const MAX_IDS: usize = 100;
/// How often a socket looks at the store for notices other instances stored (ms).
const LOOK_EVERY_MS: u64 = 5_000;

/// The routes, under `/api`.
pub fn router(state: &Shared) -> Router<Shared> {
    Router::new()
        .route("/account/notifications", get(list))
        .route("/account/notifications/read", post(read))
        .route(
            "/account/ws",
            get(socket).layer(from_fn_with_state(Arc::clone(state), socket_cap)),
        )
}

async fn view(state: &Shared, account: &str) -> Result<NotificationsView, ApiError> {
    let since = now_ms() - KEPT_MS;
    Ok(NotificationsView {
        unread: state.store.unread_notices(account).await?,
        notifications: state
            .store
            .notices(account, since, LISTED)
            .await?
            .iter()
            .map(NotificationView::of)
            .collect(),
    })
}

async fn list(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
) -> Result<Json<NotificationsView>, ApiError> {
    Ok(Json(view(&state, &me.id).await?))
}

/// `{"ids": [...]}` or `{"all": true}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadRequest {
    #[serde(default)]
    ids: Option<Vec<String>>,
    #[serde(default)]
    all: bool,
}

async fn read(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(req): ApiJson<ReadRequest>,
) -> Result<Json<NotificationsView>, ApiError> {
    let ids = match (req.all, req.ids) {
        (true, None) => None,
        (false, Some(ids)) if !ids.is_empty() && ids.len() <= MAX_IDS => Some(ids),
        _ => {
            return Err(ApiError::BadRequest(format!(
                "send {{\"all\": true}} or {{\"ids\": [...]}} with 1 to {MAX_IDS} ids"
            )));
        }
    };
    state
        .store
        .read_notices(&me.id, ids.as_deref(), now_ms())
        .await?;
    Ok(Json(view(&state, &me.id).await?))
}

async fn socket(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .read_buffer_size(crate::http::ws::READ_BUFFER)
        .on_upgrade(move |s| serve(s, state, me.id))
}

/// Sends the account's latest notifications on open, then each new one (with the unread
/// count) as this instance stores it or the store shows it, until either side closes.
async fn serve(socket: WebSocket, state: Shared, account: String) {
    let mut wakes = state.listeners.subscribe(&account);
    let (mut tx, mut rx) = socket.split();
    let Ok(first) = view(&state, &account).await else {
        return;
    };
    // Notices are sent once each: the latest moment sent, and the ids sent at it.
    let mut last = first
        .notifications
        .first()
        .map_or(now_ms() - KEPT_MS, |n| n.at);
    let mut at_last: HashSet<String> = first
        .notifications
        .iter()
        .filter(|n| n.at == last)
        .map(|n| n.id.clone())
        .collect();
    let hello = json!({"type": "notifications", "unread": first.unread, "notifications": first.notifications});
    if tx
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let every = state.occupancy.limits().ping_interval;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let look = std::time::Duration::from_millis(LOOK_EVERY_MS);
    let mut looks = tokio::time::interval_at(tokio::time::Instant::now() + look, look);
    let (mut heard, mut silent) = (true, 0);
    loop {
        tokio::select! {
            _ = pings.tick() => {
                silent = if heard { 0 } else { silent + 1 };
                heard = false;
                if silent >= 2 || tx.send(Message::Ping(Default::default())).await.is_err() {
                    let _ = tx.send(Message::Close(None)).await;
                    return;
                }
                continue;
            },
            _ = looks.tick() => {},
            change = wakes.changed() => {
                if change.is_err() {
                    return;
                }
            },
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {
                    heard = true;
                    continue;
                }
            },
        }
        let Ok(fresh) = state.store.notices(&account, last - 1, LISTED).await else {
            continue;
        };
        let fresh: Vec<_> = fresh
            .into_iter()
            .rev()
            .filter(|n| n.at > last || (n.at == last && !at_last.contains(&n.id)))
            .collect();
        if fresh.is_empty() {
            continue;
        }
        let Ok(unread) = state.store.unread_notices(&account).await else {
            continue;
        };
        for n in fresh {
            if n.at > last {
                last = n.at;
                at_last.clear();
            }
            at_last.insert(n.id.clone());
            let message = json!({"type": "notification", "unread": unread, "notification": NotificationView::of(&n)});
            if tx
                .send(Message::Text(message.to_string().into()))
                .await
                .is_err()
            {
                return;
            }
        }
    }
}
