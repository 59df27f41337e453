//! What the players' routes answer: the session, an account's games and seats, profiles,
//! archives and leaderboards.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::http::views::games::{GameView, SeatView};
use crate::http::views::puzzles::StandingView;
use crate::players::ratings::Category;
use crate::store::results::{ArchivedGame, HistoryPoint, Leader, Tally};

/// Who is logged in, as the page asks at start.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SessionView {
    /// The account's name; none when nobody is logged in.
    pub name: Option<String>,
}
/// How many seats a claim put on the account.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ClaimView {
    /// Seats now the account's.
    pub claimed: usize,
}
/// A game in progress (or waiting for an opponent) that the logged-in account sits in.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AccountGame {
    /// The game's id.
    pub id: String,
    /// The account's seat.
    pub seat: SeatView,
    /// That seat's token: the session proves whose seat it is, so any device the account
    /// logs in on can play it.
    pub token: String,
    /// Whether it is the account's move.
    pub your_turn: bool,
    /// The game's state.
    pub game: GameView,
}
/// A challenge waiting for the logged-in account's answer.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct IncomingChallenge {
    /// The game the challenge is.
    pub id: String,
    /// The challenger's name.
    pub from: Option<String>,
    /// The game's state: its settings, the challenger's seat and rating.
    pub game: GameView,
}
/// The logged-in account's unfinished games, those waiting for its move first, and the
/// challenges waiting for its answer.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AccountGamesView {
    /// The games, the account's turn first, then the most recently changed.
    pub games: Vec<AccountGame>,
    /// Challenges to the account, the newest first.
    pub challenges: Vec<IncomingChallenge>,
}
/// The seat the logged-in account holds in one game, with its token: a game opened
/// directly on a device that has no token for it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AccountSeat {
    /// The account's seat.
    pub seat: SeatView,
    /// That seat's token.
    pub token: String,
}
/// A rating as a profile shows it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RatingView {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub deviation: i32,
    /// Rated games played.
    pub games: i64,
    /// Still provisional (shown with `?`).
    pub provisional: bool,
    /// The rating after each rated game, oldest first.
    pub history: Vec<HistoryPoint>,
}
/// A player's profile.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ProfileView {
    /// The name, as registered.
    pub name: String,
    /// Ratings per category.
    pub ratings: BTreeMap<Category, RatingView>,
    /// The puzzle rating.
    pub puzzles: StandingView,
    /// Games won and lost by colour.
    pub tally: Tally,
    /// The finished tournaments played, latest first (ranks 1 to 3 are trophies).
    #[serde(default)]
    pub tournaments: Vec<crate::http::views::tournaments::TrophyView>,
    /// The logged-in viewer's ties to this player (none when logged out or their own).
    #[serde(default)]
    pub relation: Option<crate::http::views::social::RelationView>,
}
/// A page of a player's archive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ArchivePage {
    /// The games, newest first.
    pub games: Vec<ArchivedGame>,
    /// This page's number (0 is the newest).
    pub page: i64,
    /// Whether an older page follows.
    pub more: bool,
}
/// A category's best players.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LeaderboardView {
    /// The category.
    pub category: Category,
    /// Rated games a player needs to be listed.
    pub min_games: i64,
    /// The players, best first.
    pub players: Vec<Leader>,
}
