//! The Konane game server: the page, a JSON and WebSocket API, storage, clocks and the
//! engine pool. The server is the only authority on the rules: every move is replayed
//! through `konane-core` before it is stored, and stored before it is acknowledged.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod config;
pub mod error;
pub mod games;
pub mod http;
pub mod net;
pub mod notices;
pub mod players;
pub mod puzzles;
pub mod server;
pub mod state;
pub mod store;
pub mod time;
pub mod tournaments;

pub use config::{ServerConfig, Timing};
pub use server::{Server, ServerError, run_blocking, shutdown_signal};
pub use tournaments::schedule::Schedule;
