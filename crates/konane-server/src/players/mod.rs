//! The players, pure: display names, secrets (passwords, session tokens), ratings.

pub mod glicko;
pub mod name;
pub mod pairing;
pub mod ratings;
pub mod secrets;
pub mod social;
