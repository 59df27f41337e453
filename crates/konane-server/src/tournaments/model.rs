//! A tournament as the server works on it, typed: its format, its settings, who plays and
//! the games played. A stored row is read once into these; nothing here does I/O.

use konane_core::{Color, Opening, Size};
use serde::{Deserialize, Serialize};

use crate::games::game::ClockState;
use crate::players::ratings::Category;
use crate::tournaments::every::Every;

/// What kind of event, with what makes its length.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    /// Players are paired as soon as they are free, for `minutes`.
    Arena {
        /// How long pairing goes on.
        minutes: u32,
    },
    /// `rounds` rounds, each paired within score groups.
    Swiss {
        /// The rounds to play.
        rounds: u32,
    },
    /// Everyone plays everyone, once or (double) twice with colours swapped.
    RoundRobin {
        /// Twice, colours swapped.
        double: bool,
    },
    /// A season of a correspondence league: divisions dealt into groups of 6 to 10, each a
    /// double round robin whose games all run at once, `days` a move.
    League {
        /// Days for each move.
        days: u32,
    },
}

impl Format {
    /// The kind's code, as the API names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Format::Arena { .. } => "arena",
            Format::Swiss { .. } => "swiss",
            Format::RoundRobin { .. } => "round-robin",
            Format::League { .. } => "league",
        }
    }

    /// Whether it is played in rounds that start one after another (Swiss, round robin).
    pub fn in_rounds(&self) -> bool {
        matches!(self, Format::Swiss { .. } | Format::RoundRobin { .. })
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Taking players, not started.
    Created,
    /// Games are being paired and played.
    Started,
    /// Over: final standings.
    Finished,
}

impl Phase {
    /// As stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Created => "created",
            Phase::Started => "started",
            Phase::Finished => "finished",
        }
    }

    /// Reads a stored status.
    pub fn parse(text: &str) -> Option<Phase> {
        match text {
            "created" => Some(Phase::Created),
            "started" => Some(Phase::Started),
            "finished" => Some(Phase::Finished),
            _ => None,
        }
    }
}

/// A tournament's settings, stored as its row's JSON.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// The name shown.
    pub name: String,
    /// The kind and its length.
    pub format: Format,
    /// Each player's time at the start (ms).
    pub initial_ms: i64,
    /// Added after each move (ms).
    pub increment_ms: i64,
    /// The board, as `8x8`.
    pub size: String,
    /// The opening rule's name.
    pub opening: String,
    /// The games change ratings.
    pub rated: bool,
    /// A private event's code; never sent to anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_code: Option<String>,
    /// The lowest rating (in the event's category) that may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<u32>,
    /// The fewest rated games (in the event's category) a player must have played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_games: Option<u32>,
    /// The creator's name, as shown (none for the site's events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_name: Option<String>,
    /// A site event named by the site itself ("Hourly 3+2 Arena"): how often it comes,
    /// so pages word its name in their language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_title: Option<Every>,
    /// A league's season: which league and which season of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<Season>,
}

/// A season of a league: the seasons of one league share its `league` key and follow one
/// another, each made when the one before ends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Season {
    /// The league's key (its schedule rule's title).
    pub league: String,
    /// 1 for the first season.
    pub number: u32,
}

impl Season {
    /// The store's key of this season, unique, so that it is made once.
    pub fn key(&self) -> String {
        format!("league:{}#{}", self.league, self.number)
    }

    /// The season after this one.
    pub fn next(&self) -> Season {
        Season {
            league: self.league.clone(),
            number: self.number + 1,
        }
    }
}

/// A player's part in a tournament.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EntryStatus {
    /// Paired when free (or in the next round).
    Active,
    /// Not paired until they come back (arena; two games missed in a row).
    Paused,
    /// Left: never paired again; their games so far count.
    Withdrawn,
}

impl EntryStatus {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Active => "active",
            EntryStatus::Paused => "paused",
            EntryStatus::Withdrawn => "withdrawn",
        }
    }

    /// Reads a stored status.
    pub fn parse(text: &str) -> Option<EntryStatus> {
        match text {
            "active" => Some(EntryStatus::Active),
            "paused" => Some(EntryStatus::Paused),
            "withdrawn" => Some(EntryStatus::Withdrawn),
            _ => None,
        }
    }
}

/// One player of a tournament.
#[derive(Clone, PartialEq, Debug)]
pub struct Entrant {
    /// The account.
    pub account: String,
    /// Its name as shown.
    pub name: String,
    /// The rating it entered with (the event's category; 1500 without one).
    pub rating: f64,
    /// Playing, paused or gone.
    pub status: EntryStatus,
    /// Its number in a round robin's table (a league: in its group's), from the start.
    pub seat: Option<u32>,
    /// A league's division (0 at the top) and group in it, from the season's start; none
    /// for a player who joined a running season, who plays from the next.
    pub group: Option<(u32, u32)>,
    /// Games lost in a row without a move.
    pub missed: u32,
    /// Final rank, once the tournament is over.
    pub place: Option<u32>,
    /// When it joined (Unix ms).
    pub joined_at: i64,
}

/// One game of a tournament, as its table keeps it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TourGame {
    /// The game.
    pub game: String,
    /// The round (Swiss, round robin) or arena wave it was paired in.
    pub round: u32,
    /// Black's account.
    pub black: String,
    /// White's account.
    pub white: String,
    /// The winner, once over.
    pub winner: Option<Color>,
    /// The loser never moved.
    pub absent: bool,
    /// When it was paired (Unix ms).
    pub created_at: i64,
    /// When it ended.
    pub ended_at: Option<i64>,
}

/// A bye: `account` sat out `round`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TourBye {
    /// The round.
    pub round: u32,
    /// Who sat out.
    pub account: String,
}

/// A tournament, loaded and typed.
#[derive(Clone, PartialEq, Debug)]
pub struct Tournament {
    /// Its id.
    pub id: String,
    /// Where it stands.
    pub phase: Phase,
    /// Created by the site's schedule.
    pub by_site: bool,
    /// The creating account (none for the site's).
    pub created_by: Option<String>,
    /// What it is.
    pub settings: Settings,
    /// The board.
    pub size: Size,
    /// The opening rule.
    pub opening: Opening,
    /// Rounds (or arena waves) paired so far.
    pub round: u32,
    /// Changes seen by pages so far.
    pub version: i64,
    /// When it starts (or started).
    pub starts_at: i64,
    /// When an arena stops pairing.
    pub ends_at: Option<i64>,
    /// When it ended.
    pub finished_at: Option<i64>,
}

impl Tournament {
    /// A fresh clock for each of its games.
    pub fn clock(&self) -> ClockState {
        match self.settings.format {
            Format::League { days } => ClockState::per_move_days(i64::from(days)),
            _ => ClockState::new(self.settings.initial_ms, self.settings.increment_ms),
        }
    }

    /// The rating category its games count in, if rated games of its kind exist.
    pub fn category(&self) -> Option<Category> {
        Category::of(self.size, self.opening, Some(&self.clock()))
    }

    /// Whether its games change ratings.
    pub fn rated(&self) -> bool {
        self.settings.rated && self.category().is_some()
    }

    /// Whether it takes new players now: before its start; after it an arena until its
    /// end, a Swiss until round 1 is paired (a round robin's table is fixed at the start),
    /// and a league season throughout (who joins a running season plays from the next).
    pub fn open_for_entry(&self) -> bool {
        match (self.phase, self.settings.format) {
            (Phase::Finished, _) => false,
            (Phase::Created, _) => true,
            (Phase::Started, Format::Arena { .. } | Format::League { .. }) => true,
            (Phase::Started, Format::Swiss { .. }) => self.round == 0,
            (Phase::Started, Format::RoundRobin { .. }) => false,
        }
    }

    /// The rounds a round-based event will have with `players` players.
    pub fn rounds(&self, players: usize) -> Option<u32> {
        match self.settings.format {
            Format::Arena { .. } => None,
            Format::Swiss { rounds } => Some(rounds),
            Format::RoundRobin { double } => {
                let once = if players.is_multiple_of(2) {
                    players.saturating_sub(1)
                } else {
                    players
                };
                Some((once * if double { 2 } else { 1 }) as u32)
            }
            Format::League { .. } => None,
        }
    }
}
