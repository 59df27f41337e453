//! Player ratings: the speed categories a game is rated in, and what one rated game does
//! to both players' ratings (Glicko-2, one game a rating period, as lichess does). Pure.

use std::fmt;
use std::str::FromStr;

use konane_core::{Color, Opening, Size};
use serde::{Deserialize, Serialize};

use crate::games::clock::ClockState;
use crate::games::game::ServedGame;
use crate::players::glicko::{Rating, Score};

/// A deviation above this marks a rating as provisional (shown with `?`): it still moves a
/// lot and says little.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The moves a game is assumed to last when its clock is put in a category: the time it
/// takes is `initial + 40 × increment`, as on lichess.
const ASSUMED_MOVES: i64 = 40;

/// A speed category; each has its own rating.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// Under 3 minutes a side (initial + 40 increments).
    Bullet,
    /// Under 8 minutes: the six-minute game is blitz.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days for every move.
    Correspondence,
}

impl Category {
    /// Every category, fastest first.
    pub const ALL: [Category; 5] = [
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    /// The category of a game, if it has one: the standard 8x8 board, the center-or-corner
    /// opening and a clock. Other games are played casual.
    pub fn of(size: Size, opening: Opening, clock: Option<&ClockState>) -> Option<Category> {
        if size != Size::new(8, 8).ok()? || opening != Opening::CenterOrCorner {
            return None;
        }
        let clock = clock?;
        if clock.per_move {
            return Some(Category::Correspondence);
        }
        let estimate = clock.initial_ms + ASSUMED_MOVES * clock.increment_ms;
        Some(match estimate {
            t if t < 3 * 60_000 => Category::Bullet,
            t if t < 8 * 60_000 => Category::Blitz,
            t if t < 25 * 60_000 => Category::Rapid,
            _ => Category::Classical,
        })
    }

    /// The name the API and the database use.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no category.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is no rating category: bullet, blitz, rapid, classical or correspondence")]
pub struct CategoryError(pub String);

impl FromStr for Category {
    type Err = CategoryError;
    fn from_str(s: &str) -> Result<Category, CategoryError> {
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| CategoryError(s.to_string()))
    }
}

/// A player's rating in one category, and how many rated games made it (the row's
/// version: a change names the count it started from).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Standing {
    /// The Glicko-2 rating.
    pub rating: Rating,
    /// Rated games played in the category.
    pub games: i64,
}

impl Standing {
    /// Whether the rating is still provisional.
    pub fn provisional(&self) -> bool {
        self.rating.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as players read it: a whole number.
    pub fn shown(&self) -> i32 {
        self.rating.rating.round() as i32
    }
}

/// Both players' standings after a rated game that `winner` won (Black's, White's).
pub fn settle(black: Standing, white: Standing, winner: Color) -> [Standing; 2] {
    let black_score = if winner == Color::Black {
        Score::Win
    } else {
        Score::Loss
    };
    let after = |me: Standing, them: Standing, score: Score| Standing {
        rating: me.rating.update(&[(them.rating, score)]),
        games: me.games + 1,
    };
    [
        after(black, white, black_score),
        after(white, black, black_score.opposite()),
    ]
}

impl ServedGame {
    /// The rating category of the game, if it has one (rated or not).
    pub fn category(&self) -> Option<Category> {
        Category::of(
            self.game.size(),
            self.game.start().opening(),
            self.clock.as_ref(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(minutes: i64, increment_s: i64) -> ClockState {
        ClockState::new(minutes * 60_000, increment_s * 1000)
    }

    #[test]
    fn clocks_fall_in_their_categories() {
        let standard = |c: &ClockState| {
            Category::of(Size::new(8, 8).unwrap(), Opening::CenterOrCorner, Some(c))
        };
        assert_eq!(standard(&clock(1, 0)), Some(Category::Bullet));
        assert_eq!(standard(&clock(2, 1)), Some(Category::Bullet));
        assert_eq!(standard(&clock(3, 0)), Some(Category::Blitz));
        assert_eq!(standard(&clock(3, 2)), Some(Category::Blitz));
        assert_eq!(standard(&clock(6, 0)), Some(Category::Blitz));
        assert_eq!(standard(&clock(10, 5)), Some(Category::Rapid));
        assert_eq!(standard(&clock(15, 10)), Some(Category::Rapid));
        assert_eq!(standard(&clock(25, 0)), Some(Category::Classical));
        assert_eq!(standard(&clock(30, 0)), Some(Category::Classical));
        assert_eq!(
            standard(&ClockState::per_move_days(3)),
            Some(Category::Correspondence)
        );
    }

    #[test]
    fn other_boards_openings_and_untimed_games_are_casual() {
        let c = clock(6, 0);
        let eight = Size::new(8, 8).unwrap();
        assert_eq!(
            Category::of(Size::new(6, 6).unwrap(), Opening::CenterOrCorner, Some(&c)),
            None
        );
        assert_eq!(Category::of(eight, Opening::Center, Some(&c)), None);
        assert_eq!(Category::of(eight, Opening::CenterOrCorner, None), None);
    }

    #[test]
    fn names_read_back() {
        for c in Category::ALL {
            assert_eq!(c.as_str().parse::<Category>(), Ok(c));
        }
        assert!("correspondence2".parse::<Category>().is_err());
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses_between_equals() {
        let [b, w] = settle(Standing::default(), Standing::default(), Color::White);
        assert!(w.rating.rating > 1500.0 && b.rating.rating < 1500.0);
        assert!((w.rating.rating - 1500.0 + b.rating.rating - 1500.0).abs() < 1e-9);
        assert_eq!((b.games, w.games), (1, 1));
        assert!(b.provisional() && Standing::default().provisional());
    }

    #[test]
    fn a_rating_stops_being_provisional_after_enough_games() {
        let mut me = Standing::default();
        let other = Standing {
            rating: Rating {
                deviation: 60.0,
                ..Rating::default()
            },
            games: 100,
        };
        let mut games = 0;
        while me.provisional() {
            let winner = if games % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            me = settle(me, other, winner)[0];
            games += 1;
            assert!(games < 40, "still provisional after {games} games");
        }
        assert!(games >= 5, "sure of itself after {games} games only");
    }
}
