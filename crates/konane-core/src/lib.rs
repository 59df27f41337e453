//! The rules of Konane, the Hawaiian jump-capture game, on bitboards.
//!
//! Everything in `shared/spec/RULES.md`: boards from 1x1 to 16x16, both opening rules,
//! move generation, Zobrist hashing, square and move notation, position text and game
//! records. No I/O and no dependencies, so it builds for any target, the browser included.
//! Each error type sits beside the type whose parsing or checking it reports, written by
//! hand (no `thiserror`) to keep the core free of dependencies.
//!
//! The fast path is generic: [`Position<B>`] over a bitboard [`Bits`] (`u64`, `u128` or
//! [`U256`]). [`AnyPosition`] and [`Game`] pick the width from the board size.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bitboard;
pub mod game;
pub mod geometry;
pub mod illegal;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod position_text;
pub mod record;
mod zobrist;

pub use bitboard::{Bits, U256};
pub use game::{AnyPosition, Game, Outcome, PlayError};
pub use geometry::{Color, Direction, Geometry, Opening, OpeningError, Size, SizeError, Square};
pub use illegal::{IllegalMove, IllegalReason};
pub use movegen::MoveIter;
pub use moves::Move;
pub use notation::NotationError;
pub use position::{Phase, Position, PositionError};
pub use position_text::Layout;
pub use record::{Record, RecordError};
