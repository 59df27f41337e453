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
use konane_core::Color;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use crate::games::game::{Holder, ServedGame};
use crate::http::views::GameView;
use crate::state::Shared;

/// Bytes a socket reads at a time. Pages send little (a hello, pongs, closes) and this
/// buffer is kept for the socket's whole life; a longer message is read in pieces.
pub const READ_BUFFER: usize = 256;

/// What a page may say on its socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hello {
    token: String,
}

/// Serves one page's socket until either side closes it.
///
/// The task lives as long as the socket, and a task keeps room for everything alive at
/// any of its awaits: so no game is held across one here, only its JSON (the game is
/// large, and the store's futures too; an idle open game's socket task was 3.3 KiB).
pub async fn serve(socket: WebSocket, state: Shared, id: String) {
    // Subscribe before reading the state, so no change can slip between the two.
    let mut watch = state.hub.watch(&id);
    let (mut tx, mut rx) = socket.split();
    let Some(current) = first_state(&state, &id, watch.first).await else {
        let _ = tx.send(Message::Close(None)).await;
        return;
    };
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
                    if let Some(v) = current_state(&state, &id).await
                        && tx.send(Message::Text(v.into())).await.is_err()
                    {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(Message::Text(text))) => {
                    heard = true;
                    if let Ok(hello) = serde_json::from_str::<Hello>(&text)
                        && let Some(seat) = seat_of(&state, &id, &hello.token).await
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

/// The game as stored now, if it can be read (boxed: the store's future is large and
/// rarely awaited here).
async fn stored(state: &Shared, id: &str) -> Option<(ServedGame, i64)> {
    Box::pin(state.store.load(id)).await.ok().flatten()
}

/// The state a new page is sent; the game is kept for its next change, and the engine
/// playing itself, which waits for a watcher, may start for the `first` one.
async fn first_state(state: &Shared, id: &str, first: bool) -> Option<String> {
    let (game, seq) = stored(state, id).await?;
    state.hub.remember(&game, seq);
    if first && game.engine_turn().is_some_and(|t| t.self_play) {
        state.schedule(&game, seq);
    }
    Some(GameView::of(&game, seq, crate::time::now_ms()).to_json())
}

/// The game's state now, as its pages are sent it.
async fn current_state(state: &Shared, id: &str) -> Option<String> {
    let (game, seq) = stored(state, id).await?;
    Some(GameView::of(&game, seq, crate::time::now_ms()).to_json())
}

/// The seat `token` proves in the game, if one.
async fn seat_of(state: &Shared, id: &str, token: &str) -> Option<Color> {
    let (game, _) = stored(state, id).await?;
    match game.holder(Some(token)) {
        Ok(Holder::One(seat)) => Some(seat),
        _ => None,
    }
}
