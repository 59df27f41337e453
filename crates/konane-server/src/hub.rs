//! Realtime fan-out and presence: every open page of a game holds a [`Watch`] of that
//! game's channel, and each change of the game is sent to all of them as the full new
//! state. A page that proves a seat marks that side as present, so the server knows when a
//! player has left. A game's channel lives exactly as long as somebody watches it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use konane_core::Color;
use tokio::sync::broadcast;

/// Messages a slow page may fall behind by before it is told to resync.
const BACKLOG: usize = 32;

struct Channel {
    tx: broadcast::Sender<Arc<str>>,
    watchers: usize,
    /// Pages holding each seat.
    present: [usize; 2],
    /// When each seat's last page closed (Unix ms).
    left_at: [Option<i64>; 2],
}

/// The channels of all games with at least one page open on this instance.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
}

/// Where a seat's player is, as this instance sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Presence {
    /// A page of theirs is open.
    Here,
    /// Their last page closed at this time (Unix ms).
    LeftAt(i64),
    /// No page of theirs was seen.
    Unseen,
}

/// One page's subscription; dropping it leaves the game.
pub struct Watch<'a> {
    hub: &'a Hub,
    id: String,
    seat: Option<Color>,
    /// The game's changes.
    pub changes: broadcast::Receiver<Arc<str>>,
    /// Nobody watched the game here before this page.
    pub first: bool,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Channel>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Listens to a game's changes.
    pub fn watch(&self, id: &str) -> Watch<'_> {
        let mut channels = self.lock();
        let channel = channels.entry(id.to_string()).or_insert_with(|| Channel {
            tx: broadcast::channel(BACKLOG).0,
            watchers: 0,
            present: [0; 2],
            left_at: [None; 2],
        });
        channel.watchers += 1;
        Watch {
            hub: self,
            id: id.to_string(),
            seat: None,
            changes: channel.tx.subscribe(),
            first: channel.watchers == 1,
        }
    }

    /// Sends a game's new state to its pages.
    pub fn publish(&self, id: &str, state: Arc<str>) {
        if let Some(channel) = self.lock().get(id) {
            let _ = channel.tx.send(state);
        }
    }

    /// Whether any page watches the game here.
    pub fn watched_here(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// Where the player of `seat` is.
    pub fn presence(&self, id: &str, seat: Color) -> Presence {
        match self.lock().get(id) {
            Some(c) if c.present[seat.index()] > 0 => Presence::Here,
            Some(c) => c.left_at[seat.index()].map_or(Presence::Unseen, Presence::LeftAt),
            None => Presence::Unseen,
        }
    }

    /// Ids of the games with pages open here.
    pub fn watched(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Games with pages open here.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when no game is watched here.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

impl Watch<'_> {
    /// Marks this page as the player of `seat` (once; a second call changes nothing).
    pub fn hold_seat(&mut self, seat: Color) {
        if self.seat.is_some() {
            return;
        }
        if let Some(c) = self.hub.lock().get_mut(&self.id) {
            c.present[seat.index()] += 1;
            self.seat = Some(seat);
        }
    }
}

impl Drop for Watch<'_> {
    fn drop(&mut self) {
        let mut channels = self.hub.lock();
        let Some(c) = channels.get_mut(&self.id) else {
            return;
        };
        if let Some(seat) = self.seat {
            c.present[seat.index()] -= 1;
            if c.present[seat.index()] == 0 {
                c.left_at[seat.index()] = Some(crate::time::now_ms());
            }
        }
        c.watchers -= 1;
        // The channel (and what it knows of who left) goes with the last page; a player
        // who never comes back counts from the clock's start instead.
        if c.watchers == 0 {
            channels.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_go_with_their_last_page() {
        let hub = Hub::default();
        let mut a = hub.watch("g");
        let b = hub.watch("g");
        a.hold_seat(Color::Black);
        assert_eq!(hub.presence("g", Color::Black), Presence::Here);
        assert_eq!(hub.presence("g", Color::White), Presence::Unseen);
        drop(a);
        assert!(matches!(
            hub.presence("g", Color::Black),
            Presence::LeftAt(_)
        ));
        assert!(hub.watched_here("g"));
        drop(b);
        assert!(!hub.watched_here("g"));
        assert!(hub.is_empty());
    }
}
