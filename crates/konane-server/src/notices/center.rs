//! The notification centre: a notice is stored, then the account's sockets on this
//! instance are woken; a socket also looks at the store every few seconds, which brings
//! the notices other instances stored.

use crate::games::create::random_id;
use crate::notices::notice::Notice;
use crate::state::AppState;

impl AppState {
    /// Stores each notice and wakes its account's sockets. A notice that cannot be stored
    /// is logged and dropped: it never undoes the change that raised it.
    pub async fn notify(&self, notices: Vec<Notice>, now: i64) {
        for n in notices {
            let stored = match random_id() {
                Ok(id) => self
                    .store
                    .insert_notice(&id, &n, now)
                    .await
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match stored {
                Ok(()) => self.listeners.wake(&n.account),
                Err(e) => tracing::warn!("a {} notice: {e}", n.kind.as_str()),
            }
        }
    }
}
