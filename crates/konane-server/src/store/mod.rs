//! Storage of games: SQLite by default, PostgreSQL for several instances, one code path.
//!
//! Both go through sqlx's `Any` driver with runtime queries (`$1` placeholders work in
//! both), but for PostgreSQL's moves, and each backend has its own migrations folder. A
//! game is one row: its JSON and a sequence number that every update must name, so two
//! writers can never both win.
//!
//! With PostgreSQL every change of a game is announced to the other instances
//! ([`crate::net::peers::message`]) once it has committed, by [`crate::net::peers::channel`]; a move is a
//! conditional update that [`crate::store::writer`] writes together with the other moves waiting
//! at that moment: one round trip and one commit for all of them.

pub mod accounts;
pub(crate) mod db;
pub mod direct;
mod games;
pub mod leagues;
pub mod notices;
pub mod puzzles;
pub mod results;
pub mod row;
pub mod seeks;
pub mod social;
pub mod tournaments;
pub mod writer;

pub use db::{Backend, Store, StoreError};
pub use games::ChallengeInsert;
pub(crate) use games::{corrupt_row, insert_query, link_accounts, update_query};
