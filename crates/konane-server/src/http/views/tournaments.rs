//! What the tournament routes answer: the lists, one tournament with its standings, games
//! and byes, and a player's trophies.

use serde::{Deserialize, Serialize};

use crate::http::views::table_pages;
use crate::store::tournaments::{Listed, Played};
use crate::tournaments::errors::TournamentError;
use crate::tournaments::every::Every;
use crate::tournaments::model::{Entrant, EntryStatus, Format, Phase, Tournament};
use crate::tournaments::standings::Loaded;

/// A tournament's clock: minutes and seconds added a move.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct TourClockView {
    /// Minutes each.
    pub minutes: f64,
    /// Seconds added a move.
    pub increment: f64,
}

/// A tournament in a list.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentSummary {
    /// Its id.
    pub id: String,
    /// `arena`, `swiss`, `round-robin` or `league`.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// The clock of its games.
    pub clock: TourClockView,
    /// The board, as `8x8`.
    pub size: String,
    /// The opening rule.
    pub opening: String,
    /// Its games change ratings.
    pub rated: bool,
    /// `created`, `started` or `finished`.
    pub status: Phase,
    /// When it starts or started (Unix ms).
    pub starts_at: i64,
    /// When an arena stops pairing.
    pub ends_at: Option<i64>,
    /// An arena's length (minutes).
    pub minutes: Option<u32>,
    /// A Swiss's rounds, or a round robin's once it has started.
    pub rounds: Option<u32>,
    /// A round robin played twice.
    pub double: Option<bool>,
    /// A league: days for each move (its clock).
    pub days: Option<u32>,
    /// A league: which season, from 1.
    pub season: Option<u32>,
    /// Players in it.
    pub players: i64,
    /// One of the site's own events.
    pub by_site: bool,
    /// Needs an entry code.
    pub private: bool,
    /// Lowest rating that may join.
    pub min_rating: Option<u32>,
    /// Fewest rated games a player must have.
    pub min_games: Option<u32>,
    /// The winner's name, once over.
    pub winner: Option<String>,
    /// A site event named by the site ("Hourly 3+2 Arena"): how often it comes (`hour`,
    /// `day`, `week`), so pages word its name in their language; null otherwise.
    pub every: Option<Every>,
}

impl TournamentSummary {
    /// The summary of `t` with `players` in it.
    pub fn of(
        t: &Tournament,
        players: i64,
        rounds: Option<u32>,
        winner: Option<String>,
    ) -> TournamentSummary {
        let s = &t.settings;
        TournamentSummary {
            id: t.id.clone(),
            kind: s.format.kind().into(),
            name: s.name.clone(),
            clock: TourClockView {
                minutes: s.initial_ms as f64 / 60_000.0,
                increment: s.increment_ms as f64 / 1000.0,
            },
            size: s.size.clone(),
            opening: s.opening.clone(),
            rated: t.rated(),
            status: t.phase,
            starts_at: t.starts_at,
            ends_at: t.ends_at,
            minutes: match s.format {
                Format::Arena { minutes } => Some(minutes),
                _ => None,
            },
            rounds,
            double: match s.format {
                Format::RoundRobin { double } => Some(double),
                _ => None,
            },
            days: match s.format {
                Format::League { days } => Some(days),
                _ => None,
            },
            season: s.season.as_ref().map(|season| season.number),
            players,
            by_site: t.by_site,
            private: s.entry_code.is_some(),
            min_rating: s.min_rating,
            min_games: s.min_games,
            winner,
            every: s.site_title,
        }
    }

    /// The summary of a listed tournament.
    pub fn listed(l: &Listed) -> TournamentSummary {
        let rounds = match l.tournament.settings.format {
            Format::Swiss { rounds } => Some(rounds),
            _ => None,
        };
        TournamentSummary::of(&l.tournament, l.players, rounds, l.winner.clone())
    }
}

/// `GET /api/tournaments`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentList {
    /// The server's time (Unix ms), for countdowns.
    pub now: i64,
    /// Not started, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Under way.
    pub running: Vec<TournamentSummary>,
    /// Over, latest first.
    pub finished: Vec<TournamentSummary>,
}

/// Buchholz and Sonneborn-Berger.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct TiebreaksView {
    /// Sum of the opponents' points.
    pub buchholz: u32,
    /// Sum of the points of the opponents beaten.
    pub sonneborn_berger: u32,
}

/// One line of the standings.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentLine {
    /// Rank, from 1.
    pub rank: u32,
    /// The player's name.
    pub name: String,
    /// The rating they entered with.
    pub rating: i32,
    /// Points.
    pub score: u32,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Swiss and round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiebreaks: Option<TiebreaksView>,
    /// Arena: performance rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<i32>,
    /// Arena: on fire, the next win scores 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streak: Option<bool>,
    /// Not paired until they come back.
    pub paused: bool,
    /// Left the tournament.
    pub withdrawn: bool,
    /// Each game in order: `w`, `l`, `b` (bye), `.` (being played).
    pub results: Vec<String>,
    /// A league: the division, 0 at the top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<u32>,
    /// A league: the group in the division, from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// A league: `up` or `down` a division, were the season over now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MovementView>,
}

/// Which way a league player moves at the season's end.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MovementView {
    /// Up a division.
    Up,
    /// Down a division.
    Down,
}

/// One game of a tournament.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentGameView {
    /// The game's id.
    pub id: String,
    /// The round (arena: the pairing wave).
    pub round: u32,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// `playing` or `finished`.
    pub status: String,
    /// `black` or `white`, once over.
    pub winner: Option<String>,
}

/// A bye.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ByeView {
    /// The round.
    pub round: u32,
    /// Who sat out.
    pub name: String,
}

/// The viewer's part in the tournament.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MeView {
    /// In it (not withdrawn).
    pub joined: bool,
    /// Paused.
    pub paused: bool,
    /// Withdrew.
    pub withdrawn: bool,
    /// The game they are playing now.
    pub game: Option<String>,
    /// They created it.
    pub creator: bool,
    /// A league season they joined once it had started: they play from the next.
    pub waiting: bool,
    /// Their own line of the standings with its neighbours, where `standings` is one page
    /// of the table (the socket, `?page=`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<TournamentLine>>,
}

/// What every viewer of a tournament sees alike.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentShown {
    /// Everything the list says.
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// Rounds (arena: waves) paired so far.
    pub round: u32,
    /// When the next round is paired, once the round before is over.
    pub next_round_at: Option<i64>,
    /// The creator's name (none for the site's events).
    pub created_by: Option<String>,
    /// The table, best first: all of it, or one page (see `standings_pages`).
    pub standings: Vec<TournamentLine>,
    /// Lines in the whole table.
    pub standings_total: usize,
    /// Pages of the table (`GET /api/tournaments/{id}?page=N`).
    pub standings_pages: usize,
    /// Games being played first, then the finished ones, latest first (at most 100).
    pub games: Vec<TournamentGameView>,
    /// The byes.
    pub byes: Vec<ByeView>,
    /// A league: who joined the running season and plays from the next.
    pub waiting: Vec<String>,
    /// The first three, once over.
    pub podium: Vec<String>,
    /// Changes seen so far.
    pub version: i64,
}

/// `GET /api/tournaments/{id}`, and each message of its socket: what everyone sees, the
/// server's time and the viewer's part.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TournamentView {
    /// What everyone sees.
    #[serde(flatten)]
    pub shown: TournamentShown,
    /// The server's time (Unix ms), for countdowns.
    pub now: i64,
    /// The viewer's part, when logged in and playing (or the creator).
    pub me: Option<MeView>,
}

/// Most games a tournament's view lists.
const MAX_GAMES_SHOWN: usize = 100;

impl TournamentView {
    /// The view of a loaded tournament for the account `viewer`, at `now`.
    pub fn of(
        l: &Loaded,
        viewer: Option<&str>,
        next_round_at: Option<i64>,
        now: i64,
    ) -> TournamentView {
        TournamentView {
            shown: TournamentShown::of(l, next_round_at),
            now,
            me: viewer.and_then(|account| part_of(l, account)),
        }
    }
}

impl TournamentShown {
    /// What everyone sees of a loaded tournament.
    pub fn of(l: &Loaded, next_round_at: Option<i64>) -> TournamentShown {
        let t = &l.tournament;
        let seated = l.entrants.iter().filter(|e| e.seat.is_some()).count();
        let rounds = match t.settings.format {
            Format::RoundRobin { .. } if t.phase == Phase::Created => None,
            _ => t.rounds(seated),
        };
        let players = l
            .entrants
            .iter()
            .filter(|e| e.status != EntryStatus::Withdrawn)
            .count() as i64;
        let standings = lines(l);
        let finished = t.phase == Phase::Finished;
        let winner = standings
            .first()
            .filter(|_| finished)
            .map(|s| s.name.clone());
        let podium = standings
            .iter()
            .filter(|s| finished && s.games > 0)
            .take(3)
            .map(|s| s.name.clone())
            .collect();
        TournamentShown {
            summary: TournamentSummary::of(t, players, rounds, winner),
            round: t.round,
            next_round_at,
            created_by: t.settings.creator_name.clone(),
            podium,
            standings_total: standings.len(),
            standings_pages: table_pages::pages(standings.len()),
            standings,
            games: games(l),
            byes: l
                .byes
                .iter()
                .map(|b| ByeView {
                    round: b.round,
                    name: name_of(l, &b.account),
                })
                .collect(),
            waiting: l
                .entrants
                .iter()
                .filter(|e| waiting(l, e))
                .map(|e| e.name.clone())
                .collect(),
            version: t.version,
        }
    }
}

/// Whether `e` joined a running league season and so plays from the next.
fn waiting(l: &Loaded, e: &Entrant) -> bool {
    matches!(l.tournament.settings.format, Format::League { .. })
        && l.tournament.phase == Phase::Started
        && e.group.is_none()
        && e.status == EntryStatus::Active
}

impl TournamentShown {
    /// Keeps page `page` of the standings only; returns the whole table.
    pub fn keep_page(&mut self, page: usize) -> Result<Vec<TournamentLine>, TournamentError> {
        let shown = table_pages::page_of(&self.standings, page)?.to_vec();
        Ok(std::mem::replace(&mut self.standings, shown))
    }
}

/// An account's name in the tournament.
fn name_of(l: &Loaded, account: &str) -> String {
    l.entrants
        .iter()
        .find(|e| e.account == account)
        .map_or_else(|| "?".to_string(), |e| e.name.clone())
}

/// The standings, best first.
fn lines(l: &Loaded) -> Vec<TournamentLine> {
    l.table()
        .iter()
        .map(|line| {
            let e = &l.entrants[line.entrant];
            TournamentLine {
                rank: line.rank,
                name: e.name.clone(),
                rating: e.rating.round() as i32,
                score: line.score,
                games: line.games,
                wins: line.wins,
                tiebreaks: line
                    .tiebreaks
                    .map(|(buchholz, sonneborn_berger)| TiebreaksView {
                        buchholz,
                        sonneborn_berger,
                    }),
                performance: line.performance,
                streak: line.streak,
                paused: e.status == EntryStatus::Paused,
                withdrawn: e.status == EntryStatus::Withdrawn,
                results: line.results.iter().map(char::to_string).collect(),
                division: line.group.map(|(d, _)| d),
                group: line.group.map(|(_, g)| g),
                movement: line.movement.map(|m| match m {
                    konane_tournament::Move::Up => MovementView::Up,
                    konane_tournament::Move::Down => MovementView::Down,
                }),
            }
        })
        .collect()
}

/// The games being played, then the finished ones, latest first.
fn games(l: &Loaded) -> Vec<TournamentGameView> {
    let mut games: Vec<&crate::tournaments::model::TourGame> = l.games.iter().collect();
    games.sort_by_key(|g| {
        (
            g.winner.is_some(),
            std::cmp::Reverse((g.round, g.created_at)),
        )
    });
    games
        .into_iter()
        .take(MAX_GAMES_SHOWN)
        .map(|g| TournamentGameView {
            id: g.game.clone(),
            round: g.round,
            black: name_of(l, &g.black),
            white: name_of(l, &g.white),
            status: if g.winner.is_some() {
                "finished"
            } else {
                "playing"
            }
            .into(),
            winner: g.winner.map(|c| c.name().to_string()),
        })
        .collect()
}

/// The part of `account` (none when it neither plays nor created the tournament).
pub fn part_of(l: &Loaded, account: &str) -> Option<MeView> {
    let e = l.entrants.iter().find(|e| e.account == account);
    let creator = l.tournament.created_by.as_deref() == Some(account);
    (e.is_some() || creator).then(|| MeView {
        joined: e.is_some_and(|e| e.status != EntryStatus::Withdrawn),
        paused: e.is_some_and(|e| e.status == EntryStatus::Paused),
        withdrawn: e.is_some_and(|e| e.status == EntryStatus::Withdrawn),
        game: l.current_game(account).map(|g| g.game.clone()),
        creator,
        waiting: e.is_some_and(|e| waiting(l, e)),
        lines: None,
    })
}

/// A finished tournament on a player's profile.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TrophyView {
    /// The tournament's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// The player's final rank.
    pub rank: u32,
    /// How many played.
    pub players: i64,
    /// When it ended (Unix ms).
    pub ended_at: Option<i64>,
    /// A site event named by the site: how often it comes (see [`TournamentSummary`]).
    pub every: Option<Every>,
    /// Its games' clock.
    pub clock: TourClockView,
}

impl TrophyView {
    /// The line of a tournament played.
    pub fn of(p: &Played) -> TrophyView {
        TrophyView {
            id: p.tournament.id.clone(),
            name: p.tournament.settings.name.clone(),
            kind: p.tournament.settings.format.kind().into(),
            rank: p.place,
            players: p.players,
            ended_at: p.tournament.finished_at,
            every: p.tournament.settings.site_title,
            clock: TourClockView {
                minutes: p.tournament.settings.initial_ms as f64 / 60_000.0,
                increment: p.tournament.settings.increment_ms as f64 / 1000.0,
            },
        }
    }
}
