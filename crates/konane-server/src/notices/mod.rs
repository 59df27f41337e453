//! Notifications: what an account is told (its turn in a correspondence game, a challenge
//! and its answer, a game's end), kept in the store and sent live to the account's sockets
//! on this instance. `notice.rs` is the pure part: the kinds, and which notices a stored
//! change of a game raises; `center.rs` stores and delivers them; `listeners.rs` keeps the sockets here to wake.

pub mod center;
pub mod listeners;
pub mod notice;
