//! Realtime fan-out and presence: every open page of a game holds a [`Watch`] of that
//! game's channel, and each change of the game is sent to all of them as the full new
//! state. A page that proves a seat marks that side as present, so the server knows when a
//! player has left. A game's channel lives exactly as long as somebody watches it, and
//! keeps the last state of the game this instance stored or read, so that the next change
//! need not read it back: a stale copy (another instance changed the game) is caught by the
//! store's sequence check and read again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use konane_core::Color;
use tokio::sync::broadcast;

use crate::games::game::ServedGame;

/// Messages a slow page may fall behind by before it is sent the current state instead.
/// Every message is a whole state, so a short backlog loses nothing; each slot is kept
/// for the channel's life, and so is the last state sent through it.
const BACKLOG: usize = 8;

struct Channel {
    tx: broadcast::Sender<Arc<str>>,
    watchers: usize,
    /// The sequence number of the last state sent: an older one that arrives late (a
    /// slow task, another instance's notification overtaking) is dropped.
    sent: i64,
    /// The game as last stored or read here, and its sequence number (boxed: the map
    /// keeps room for more channels than it holds).
    latest: Option<Box<(ServedGame, i64)>>,
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
            sent: 0,
            latest: None,
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

    /// Sends a game's state at `seq` to its pages, unless they were sent a newer one. A
    /// kept copy older than `seq` is forgotten.
    pub fn publish(&self, id: &str, seq: i64, state: Arc<str>) {
        if let Some(channel) = self.lock().get_mut(id) {
            if channel.latest.as_deref().is_some_and(|(_, s)| *s < seq) {
                channel.latest = None;
            }
            if seq > channel.sent {
                channel.sent = seq;
                let _ = channel.tx.send(state);
            }
        }
    }

    /// Keeps `game` at `seq` (stored or read just now) while its pages are open here,
    /// unless a newer copy is kept.
    pub fn remember(&self, game: &ServedGame, seq: i64) {
        if let Some(channel) = self.lock().get_mut(&game.id)
            && channel.latest.as_deref().is_none_or(|(_, s)| *s <= seq)
        {
            channel.latest = Some(Box::new((game.clone(), seq)));
        }
    }

    /// The kept copy of a game and its sequence number, if its pages are open here.
    pub fn latest(&self, id: &str) -> Option<(ServedGame, i64)> {
        self.lock()
            .get(id)
            .and_then(|c| c.latest.as_deref().cloned())
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

    #[test]
    fn a_late_older_state_is_not_sent() {
        let hub = Hub::default();
        let mut w = hub.watch("g");
        hub.publish("g", 3, Arc::from("three"));
        hub.publish("g", 2, Arc::from("two"));
        hub.publish("g", 3, Arc::from("three again"));
        hub.publish("g", 4, Arc::from("four"));
        assert_eq!(&*w.changes.try_recv().unwrap(), "three");
        assert_eq!(&*w.changes.try_recv().unwrap(), "four");
        assert!(w.changes.try_recv().is_err());
    }
}
