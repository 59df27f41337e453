//! The WebSocket of a game: the full state on connect, then every change as it happens.
//! The server pings every `--ping-interval`; a socket that says nothing (browsers answer
//! pings by themselves) for two intervals is closed, so dead peers free their place.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast::error::RecvError;

use crate::Shared;

/// Serves one page's socket until either side closes it.
pub async fn serve(socket: WebSocket, state: Shared, id: String) {
    // Subscribe before reading the state, so no change can slip between the two.
    let mut changes = state.hub.subscribe(&id);
    let (mut tx, mut rx) = socket.split();
    let current = match state.store.load(&id).await {
        Ok(Some((game, seq))) => game.view(seq, crate::time::now_ms()).ok(),
        _ => None,
    };
    let Some(current) = current else {
        let _ = tx.send(Message::Close(None)).await;
        return;
    };
    if tx
        .send(Message::Text(current.to_string().into()))
        .await
        .is_err()
    {
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
            change = changes.recv() => match change {
                Ok(state_json) => {
                    if tx.send(Message::Text(Arc::clone(&state_json).to_string().into())).await.is_err() {
                        return;
                    }
                }
                // Fell behind: send the current state instead of the missed ones.
                Err(RecvError::Lagged(_)) => {
                    if let Ok(Some((game, seq))) = state.store.load(&id).await
                        && let Ok(v) = game.view(seq, crate::time::now_ms())
                        && tx.send(Message::Text(v.to_string().into())).await.is_err()
                    {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                // The page sends nothing we act on (moves go through HTTP), but any frame,
                // a pong above all, shows it is alive.
                Some(Ok(_)) => heard = true,
            },
        }
    }
}
