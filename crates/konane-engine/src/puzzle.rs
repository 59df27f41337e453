//! Puzzles proven by the exact solver: positions where exactly one move wins, the forced
//! line that follows it, the opponent's winning answer to every other move, themes that are
//! computed from the position, and the one-line text format of the shipped set
//! (docs/puzzles.md).
//!
//! Everything here is pure: the miner in the `konane` binary feeds it positions, the server
//! reads the set, and the tests re-prove it, all through [`find`], [`verify`] and
//! [`Puzzle`]'s parser and writer.

mod find;
mod text;
mod verify;

pub use find::{Found, MAX_STEPS, SHALLOW_DEPTH, find};
pub use text::{FormatError, Puzzle, PuzzleId, SetError, Source, Theme};
pub use verify::{VerifyError, verify};
