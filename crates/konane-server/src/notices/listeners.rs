//! The accounts with a notification socket on this instance, each with a counter its
//! sockets watch: telling an account wakes them.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;

/// The accounts with a socket here, each with a counter its sockets watch.
#[derive(Default)]
pub struct Listeners {
    accounts: Mutex<HashMap<String, watch::Sender<u64>>>,
}

impl Listeners {
    /// A receiver that changes whenever `account` is told something here.
    pub fn subscribe(&self, account: &str) -> watch::Receiver<u64> {
        let mut map = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, tx| tx.receiver_count() > 0);
        map.entry(account.to_string())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// Wakes `account`'s sockets here.
    pub fn wake(&self, account: &str) {
        let map = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = map.get(account) {
            tx.send_modify(|n| *n += 1);
        }
    }
}
