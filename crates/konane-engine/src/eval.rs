//! Static evaluation: how good a position is for the side to move, in centi-moves.
//!
//! Konane is a game of running out of moves, so the terms are about moves, not material:
//! - **mobility**: jumps the side to move has, minus the opponent's;
//! - **movable stones**: own stones with a jump, minus the opponent's (many moves from one
//!   stone vanish together when that stone is captured);
//! - **exposed stones**: own stones the opponent could capture, minus the opponent's;
//! - **safe movers**: own stones with a jump that the opponent cannot capture first;
//! - **tempo**: a bonus for having the move.

use konane_core::{Bits, Phase, Position};

/// The weights of the evaluation terms; tuned by self-play (see docs/strength.md).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    /// Per jump of difference.
    pub mobility: i32,
    /// Per stone with a jump of difference.
    pub movable: i32,
    /// Per exposed stone of difference (subtracted).
    pub exposed: i32,
    /// Per safe mover of difference.
    pub safe: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Weights {
    /// The names of the weights, as `by_name_mut` and player specs spell them.
    pub const NAMES: [&'static str; 5] = ["mobility", "movable", "exposed", "safe", "tempo"];

    /// One weight by name.
    pub fn by_name_mut(&mut self, name: &str) -> Option<&mut i32> {
        match name {
            "mobility" => Some(&mut self.mobility),
            "movable" => Some(&mut self.movable),
            "exposed" => Some(&mut self.exposed),
            "safe" => Some(&mut self.safe),
            "tempo" => Some(&mut self.tempo),
            _ => None,
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            mobility: 100,
            movable: 40,
            exposed: 20,
            safe: 45,
            tempo: 25,
        }
    }
}

/// The score of a quiet position, for the side to move; the caller handles "no move".
pub fn evaluate<B: Bits>(pos: &Position<B>, w: &Weights) -> i32 {
    if pos.phase() != Phase::Jumping {
        return 0;
    }
    let me = pos.turn();
    let opp = me.opponent();
    let mobility = pos.mobility(me) as i32 - pos.mobility(opp) as i32;
    let (my_movable, their_movable) = (pos.movable(me), pos.movable(opp));
    let (my_exposed, their_exposed) = (pos.capturable(me), pos.capturable(opp));
    let movable = my_movable.count() as i32 - their_movable.count() as i32;
    let exposed = my_exposed.count() as i32 - their_exposed.count() as i32;
    let safe =
        (my_movable & !my_exposed).count() as i32 - (their_movable & !their_exposed).count() as i32;
    w.mobility * mobility + w.movable * movable - w.exposed * exposed + w.safe * safe + w.tempo
}
