//! What every request handler shares, and the questions about a game that need more than
//! the game itself (the presence of its players here).

use std::sync::Arc;

use crate::config::Timing;
use crate::error::ApiError;
use crate::games::engine_pool::EnginePool;
use crate::games::game::{ServedGame, Status};
use crate::net::caps::Occupancy;
use crate::net::hub::{Hub, Presence};
use crate::net::rate_limit::RateLimiter;
use crate::store::Store;
use crate::time;
use crate::tournaments::schedule::Schedule;
use crate::tournaments::watch::Watchers;

/// What every request handler shares.
pub struct AppState {
    /// The games database.
    pub store: Store,
    /// Pages listening for changes.
    pub hub: Hub,
    /// Engine searches.
    pub engines: EnginePool,
    /// Requests per client.
    pub rate: RateLimiter,
    /// Connections and sockets open, per client address.
    pub occupancy: Arc<Occupancy>,
    /// The rules of time.
    pub timing: Timing,
    /// Each client's game of the engine against itself (client → game id).
    pub self_play: tokio::sync::Mutex<std::collections::HashMap<String, String>>,
    /// The pages watching tournaments here, and the director's bell.
    pub tournaments: Watchers,
    /// The site's own tournaments.
    pub schedule: Schedule,
    /// The accounts with a notification socket here.
    pub listeners: crate::notices::listeners::Listeners,
    /// When this instance last wrote each account's last-seen time (Unix ms).
    pub seen: std::sync::Mutex<std::collections::HashMap<String, i64>>,
}

/// Shared state, as handlers receive it.
pub type Shared = Arc<AppState>;

impl AppState {
    /// Notes that `account` made a request at `now`: its last-seen time is written at most
    /// once a minute from this instance, which keeps it "online" for its followers. The
    /// write runs apart: a request never waits for it, nor fails with it.
    pub fn saw(&self, account: &str, now: i64) {
        use crate::players::social::{ONLINE_MS, SEEN_EVERY_MS};
        {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen
                .get(account)
                .is_some_and(|&at| now - at < SEEN_EVERY_MS)
            {
                return;
            }
            if seen.len() > 10_000 {
                seen.retain(|_, at| now - *at < ONLINE_MS);
            }
            seen.insert(account.to_string(), now);
        }
        let (store, account) = (self.store.clone(), account.to_string());
        tokio::spawn(async move {
            if let Err(e) = store.seen(&account, now).await {
                tracing::warn!("last seen of {account}: {e}");
            }
        });
    }

    /// The table of self-play games, once `client` has none still running: the caller adds
    /// the new game while holding it.
    pub async fn self_play_slot(
        &self,
        client: &str,
    ) -> Result<tokio::sync::MutexGuard<'_, std::collections::HashMap<String, String>>, ApiError>
    {
        let slots = self.self_play.lock().await;
        if let Some(id) = slots.get(client)
            && let Some((game, _)) = self.store.load(id).await?
            && game.status == Status::Playing
        {
            return Err(ApiError::EngineQuota);
        }
        Ok(slots)
    }

    /// Whether the opponent of `claimant` has left for long enough that the claimant may
    /// take the win: away from every page here, on their own turn.
    pub fn opponent_gone(&self, game: &ServedGame, claimant: konane_core::Color) -> bool {
        let opponent = claimant.opponent();
        if game.status != Status::Playing || game.turn() != opponent {
            return false;
        }
        let turn_began = game
            .clock
            .as_ref()
            .and_then(|c| c.running_since)
            .unwrap_or(game.created_at);
        let since = match self.hub.presence(&game.id, opponent) {
            Presence::Here => return false,
            Presence::LeftAt(t) => t.max(turn_began),
            Presence::Unseen => turn_began,
        };
        time::now_ms() - since >= self.timing.claim_after_ms
    }
}
