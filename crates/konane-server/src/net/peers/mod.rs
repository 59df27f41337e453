//! Instances sharing a PostgreSQL database tell each other of every stored change.

pub mod channel;
pub mod message;
