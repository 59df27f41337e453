//! The network: the accept loop, what one client may hold and send, the headers of every
//! response, the realtime hub of a game's pages, and the channel between instances.

pub mod caps;
pub mod headers;
pub mod hub;
pub mod listener;
pub mod peers;
pub mod rate_limit;
