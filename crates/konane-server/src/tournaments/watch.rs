//! Who watches which tournament on this instance, and the director's wake-up call.
//!
//! A page's socket holds a receiver of its tournament's `version`; whatever changes the
//! tournament here tells the watchers at once, and the director reads the versions of the
//! watched tournaments on every tick, which brings the changes other instances made. The
//! latest tournament read for its pages is kept with the JSON everyone is sent, so a change
//! watched by hundreds of pages is read and written out once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, watch};

use crate::http::views::TournamentLine;
use crate::tournaments::standings::Loaded;

/// A tournament as read for its pages: the version, what everyone is sent (JSON), and the
/// tournament itself with its whole table, for each page's own part.
#[derive(Clone)]
pub struct Page {
    /// The tournament's version when read.
    pub version: i64,
    /// What every page is sent alike, as a JSON object.
    pub shown: Arc<str>,
    /// The tournament read.
    pub loaded: Arc<Loaded>,
    /// The whole table, best first (`shown` holds its first page).
    pub table: Arc<Vec<TournamentLine>>,
}

/// The watched tournaments' versions, the pages last read for them, and the director's bell.
#[derive(Default)]
pub struct Watchers {
    versions: Mutex<HashMap<String, watch::Sender<i64>>>,
    pages: Mutex<HashMap<String, Page>>,
    /// One lock per watched tournament, held while its page is read: the pages that ask at
    /// once wait for that one read instead of each reading it again.
    reading: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    bell: Notify,
}

impl Watchers {
    /// A receiver of `id`'s version, for one page.
    pub fn subscribe(&self, id: &str) -> watch::Receiver<i64> {
        let mut map = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(id.to_string())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Tells `id`'s pages its version is now `version` (an older one is ignored).
    pub fn changed(&self, id: &str, version: i64) {
        let map = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = map.get(id) {
            tx.send_if_modified(|v| {
                let newer = version > *v;
                if newer {
                    *v = version;
                }
                newer
            });
        }
    }

    /// The tournaments some page here watches; forgets those nobody watches any more.
    pub fn watched(&self) -> Vec<String> {
        let mut map = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, tx| tx.receiver_count() > 0);
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.retain(|id, _| map.contains_key(id));
        let mut reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        reading.retain(|id, _| map.contains_key(id));
        map.keys().cloned().collect()
    }

    /// The lock to hold while reading `id`'s page.
    pub fn reading(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(reading.entry(id.to_string()).or_default())
    }

    /// The page of `id` last read, if it is at `version` or later.
    pub fn page(&self, id: &str, version: i64) -> Option<Page> {
        let pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        pages.get(id).filter(|p| p.version >= version).cloned()
    }

    /// Keeps `page` for the other pages of its tournament, unless a newer one is kept.
    pub fn keep(&self, id: &str, page: Page) {
        let mut pages = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        if pages.get(id).is_none_or(|p| p.version < page.version) {
            pages.insert(id.to_string(), page);
        }
    }

    /// Wakes the director before its next tick (a game of a tournament ended, one was
    /// created to start now).
    pub fn wake(&self) {
        self.bell.notify_one();
    }

    /// Waits for [`Watchers::wake`].
    pub async fn woken(&self) {
        self.bell.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_see_newer_versions_only_and_unwatched_ones_are_forgotten() {
        let w = Watchers::default();
        let mut rx = w.subscribe("t");
        w.changed("t", 3);
        assert!(rx.has_changed().expect("open"));
        assert_eq!(*rx.borrow_and_update(), 3);
        w.changed("t", 2);
        assert!(!rx.has_changed().expect("open"));
        w.changed("other", 9);
        assert_eq!(w.watched(), vec!["t".to_string()]);
        drop(rx);
        assert!(w.watched().is_empty());
    }
}
