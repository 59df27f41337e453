//! The WebSocket of a game: the full state on connect, then every change as it happens.
//!
//! A page may send `{"token": "<seat token>"}` once: the server then counts that player
//! as present, which decides whether the opponent may claim a win when they leave.
//!
//! The server pings every `--ping-interval`; a socket that says nothing (browsers answer
//! pings by themselves) for two intervals is closed, so dead peers free their place.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::Shared;
use crate::game::Holder;
use crate::view::GameView;

/// What a page may say on its socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hello {
    token: String,
}

/// Serves one page's socket until either side closes it.
pub async fn serve(socket: WebSocket, state: Shared, id: String) {
    // Subscribe before reading the state, so no change can slip between the two.
    let mut watch = state.hub.watch(&id);
    let (mut tx, mut rx) = socket.split();
    let Ok(Some((game, seq))) = state.store.load(&id).await else {
        let _ = tx.send(Message::Close(None)).await;
        return;
    };
    state.hub.remember(&game, seq);
    // The engine playing itself waits for a watcher: this may be the one.
    if watch.first && game.engine_turn().is_some_and(|t| t.self_play) {
        state.schedule(&game, seq);
    }
    let current = GameView::of(&game, seq, crate::time::now_ms()).to_json();
    if tx.send(Message::Text(current.into())).await.is_err() {
        return;
    }
    let every = state.occupancy.limits().ping_interval;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let mut heard = true;
    let mut silent = 0;
    loop {
        tokio::select! {
            _ = pings.tick() => {
                silent = if heard { 0 } else { silent + 1 };
                heard = false;
                if silent >= 2 {
                    tracing::debug!("closing a silent socket of game {id}");
                    let _ = tx.send(Message::Close(None)).await;
                    return;
                }
                if tx.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            },
            change = watch.changes.recv() => match change {
                Ok(state_json) => {
                    if tx.send(Message::Text(Arc::clone(&state_json).to_string().into())).await.is_err() {
                        return;
                    }
                }
                // Fell behind: send the current state instead of the missed ones.
                Err(RecvError::Lagged(_)) => {
                    if let Ok(Some((game, seq))) = state.store.load(&id).await {
                        let v = GameView::of(&game, seq, crate::time::now_ms()).to_json();
                        if tx.send(Message::Text(v.into())).await.is_err() {
                            return;
                        }
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(Message::Text(text))) => {
                    heard = true;
                    if let Ok(hello) = serde_json::from_str::<Hello>(&text)
                        && let Ok(Some((game, _))) = state.store.load(&id).await
                        && let Ok(Holder::One(seat)) = game.holder(Some(&hello.token))
                    {
                        watch.hold_seat(seat);
                    }
                }
                // Moves go through HTTP; nothing else a page sends is acted on, but any
                // frame, a pong above all, shows it is alive.
                Some(Ok(_)) => heard = true,
            },
        }
    }
}
