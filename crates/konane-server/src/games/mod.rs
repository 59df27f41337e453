//! The games: the typed game and its rules of service, the one path every change takes
//! (`pipeline`), the engine that plays in them, and what keeps them moving by themselves.

pub mod clock;
pub mod create;
pub mod engine_pool;
pub mod errors;
pub mod game;
pub mod janitor;
pub mod outcome;
pub mod peers;
pub mod pipeline;
pub mod seats;
