//! Realtime fan-out: every open page of a game holds a receiver of that game's channel, and
//! each change of the game is sent to all of them as the full new state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// Messages a slow page may fall behind by before it is told to resync.
const BACKLOG: usize = 32;

/// The channels of all games with at least one page open on this instance.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
}

impl Hub {
    /// Listens to a game's changes.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<str>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Sends a game's new state to its pages; forgets games nobody watches any more.
    pub fn publish(&self, id: &str, state: Arc<str>) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(id)
            && tx.send(state).is_err()
        {
            channels.remove(id);
        }
    }

    /// Ids of the games with pages open here.
    pub fn watched(&self) -> Vec<String> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.keys().cloned().collect()
    }
}
