//! The janitor: every so often it aborts games that never got going, forgets dead seeks,
//! ended sessions and notifications older than 30 days.

use std::sync::Arc;

use crate::players::pairing::ALIVE_MS;
use crate::state::{AppState, Shared};
use crate::store::StoreError;
use crate::time;

impl AppState {
    /// Aborts the games in progress that nobody has touched for `abort_after_ms` and whose
    /// players have not both moved, or where the engine plays itself unwatched; returns how
    /// many.
    pub async fn abort_idle(self: &Arc<Self>) -> Result<usize, StoreError> {
        let now = time::now_ms();
        let idle = self
            .store
            .idle_playing(now - self.timing.abort_after_ms, 100)
            .await?;
        let mut aborted = 0;
        for (game, seq) in idle {
            // A browser playing the computer is as absent as a person who never moved.
            let unstarted = game.ply() < 2 && game.engine_turn().is_none();
            // Watched anywhere, the engine playing itself moves every second or so: idle
            // this long, nobody has watched it for a while.
            let unwatched_show = game.self_play();
            if (unstarted || unwatched_show)
                && self
                    .mutate(&game.id, Some(seq), |g| {
                        g.abort(time::now_ms());
                        Ok(())
                    })
                    .await
                    .is_ok()
            {
                aborted += 1;
            }
        }
        Ok(aborted)
    }
}

/// Every `janitor_every_ms`, aborts games that never got going and forgets dead seeks and
/// ended sessions.
pub(crate) async fn janitor(state: Shared) {
    let every = std::time::Duration::from_millis(state.timing.janitor_every_ms);
    loop {
        tokio::time::sleep(every).await;
        match state.abort_idle().await {
            Ok(0) => {}
            Ok(n) => tracing::info!("aborted {n} game(s) nobody started"),
            Err(e) => tracing::warn!("janitor: {e}"),
        }
        let stale = time::now_ms() - 6 * ALIVE_MS;
        if let Err(e) = state.store.drop_stale_seeks(stale).await {
            tracing::warn!("janitor: seeks: {e}");
        }
        if let Err(e) = state.store.drop_expired_sessions(time::now_ms()).await {
            tracing::warn!("janitor: sessions: {e}");
        }
        let kept = time::now_ms() - crate::notices::notice::KEPT_MS;
        if let Err(e) = state.store.drop_old_notices(kept).await {
            tracing::warn!("janitor: notifications: {e}");
        }
    }
}
