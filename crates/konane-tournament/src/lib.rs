//! Tournament arithmetic for the Kōnane site: Swiss pairings, round-robin tables, the arena's
//! points and pairings, standings with tiebreaks, and leagues of divisions.
//!
//! Pure: no I/O, no clock, no randomness, no async; the same input always gives the same
//! output (ties broken by index). Players are indices `0..n` into the caller's own list.
//! Kōnane has no draws, so every finished game has a winner.

mod arena;
mod berger;
mod league;
mod round;
mod standings;
mod swiss;

pub use arena::{ArenaCandidate, ArenaScore, arena_points, pair_arena, performance};
pub use berger::round_robin;
pub use konane_core::Color;
pub use league::{Divisions, Move, first_season, movement, next_season};
pub use round::{Bye, Played, Round};
pub use standings::{Standing, standings};
pub use swiss::{SwissEntrant, pair_swiss};
