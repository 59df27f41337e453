//! What a tournament is made of: games played, byes, and rounds to play.

use konane_core::Color;

/// One game between two entrants, by index; `winner` none while it is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The round (1-based) the game belongs to.
    pub round: u32,
    /// The entrant who had Black (moves first).
    pub black: usize,
    /// The entrant who had White.
    pub white: usize,
    /// The winner's colour, once the game is over.
    pub winner: Option<Color>,
}

impl Played {
    /// The winner's index, once the game is over.
    pub fn winner_index(&self) -> Option<usize> {
        self.winner.map(|c| match c {
            Color::Black => self.black,
            Color::White => self.white,
        })
    }

    /// The other entrant of this game, if `player` is one of its two.
    pub fn opponent_of(&self, player: usize) -> Option<usize> {
        if self.black == player {
            Some(self.white)
        } else if self.white == player {
            Some(self.black)
        } else {
            None
        }
    }
}

/// A bye: `player` sat out `round` (scores 1 point in Swiss / round robin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    /// The round (1-based) sat out.
    pub round: u32,
    /// The entrant who sat out.
    pub player: usize,
}

/// A round to play: pairs as (black, white), and the player with the bye, if any.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Round {
    /// The games, board by board, each as (black, white).
    pub pairs: Vec<(usize, usize)>,
    /// The entrant who sits this round out.
    pub bye: Option<usize>,
}
