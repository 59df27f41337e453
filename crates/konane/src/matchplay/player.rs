//! What one side of a match does, whether our engine in this process or an external program.

use anyhow::Result;
use konane_core::{Game, Move, Opening, Size};

/// One side of a match.
pub trait Player {
    /// Prepares for a new game; `seed` drives whatever random choices the player makes.
    fn new_game(&mut self, size: Size, opening: Opening, seed: u64) -> Result<()>;
    /// The move to play in the game's current position.
    fn choose(&mut self, game: &Game) -> Result<Move>;
}
