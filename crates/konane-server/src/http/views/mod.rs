//! What the API answers (docs/api.md), as types, one file per resource: the server
//! serializes them, and `konane loadtest` and the tests read them back with the same
//! definitions.

pub mod games;
pub mod notices;
pub mod pairing;
pub mod players;
pub mod puzzles;
pub mod site;
pub mod social;
pub mod table_pages;
pub mod tournaments;

pub use games::*;
pub use notices::*;
pub use pairing::*;
pub use players::*;
pub use puzzles::*;
pub use site::*;
pub use social::*;
pub use tournaments::*;
