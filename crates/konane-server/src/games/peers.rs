//! What this instance does when another instance sharing the PostgreSQL database changes
//! a game: its pages here get the new state.

use std::sync::Arc;

use crate::net::peers::channel;
use crate::net::peers::message::Notice;
use crate::state::Shared;

/// Follows PostgreSQL's notifications and publishes each changed game to this instance's
/// pages. A lost connection may have lost notifications, so every new one resyncs every
/// watched game once it listens.
pub(crate) async fn listen(state: Shared) {
    loop {
        match listen_once(&state).await {
            Ok(()) => tracing::warn!("notification listener lost its connection; reconnecting"),
            Err(e) => tracing::warn!("notification listener: {e}; reconnecting"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

/// One connection's listening, until it is lost.
async fn listen_once(state: &Shared) -> Result<(), sqlx::Error> {
    let mut listener = channel::listen(state.store.url(), state.store.instance()).await?;
    // Read back once named: a change whose notice missed the name committed before it.
    resync(state).await;
    // Not `recv`: it would reconnect by itself, and the new connection, unnamed, would be
    // sent nothing.
    while let Some(note) = listener.try_recv().await? {
        hear(state, note.payload()).await;
    }
    Ok(())
}

/// Acts on another instance's change of a game shown here: its pages get the new state
/// (read back only when it did not fit in the notification), and the engine playing itself
/// moves on. This instance's own changes were sent when they were stored.
async fn hear(state: &Shared, payload: &str) {
    let Some(notice) = Notice::parse(payload) else {
        tracing::warn!("a notification that is not ours: {payload:.80}");
        return;
    };
    if notice.instance == state.store.instance() || !state.hub.watched_here(notice.id) {
        return;
    }
    if let (Some(json), false) = (notice.state, notice.self_play) {
        state.hub.publish(notice.id, notice.seq, Arc::from(json));
    } else if let Ok(Some((game, seq))) = state.store.load(notice.id).await {
        state.publish(&game, seq);
        if game.engine_turn().is_some_and(|t| t.self_play) {
            state.schedule(&game, seq);
        }
    }
}

async fn resync(state: &Shared) {
    for id in state.hub.watched() {
        if let Ok(Some((game, seq))) = state.store.load(&id).await {
            state.publish(&game, seq);
        }
    }
}
