//! A tournament's table from its players, games and byes: scores, tiebreaks or arena
//! streaks and performance, ranks. Pure: the arithmetic is `konane-tournament`'s, the
//! mapping from accounts to its player numbers is here.

use std::collections::HashMap;

use konane_core::Color;
use konane_tournament as pairing;

use crate::tournaments::model::{Entrant, EntryStatus, Format, TourBye, TourGame, Tournament};

/// One player's line of the table.
#[derive(Clone, PartialEq, Debug)]
pub struct Line {
    /// Rank, from 1.
    pub rank: u32,
    /// Index into the entrants.
    pub entrant: usize,
    /// Points.
    pub score: u32,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Buchholz and Sonneborn-Berger (Swiss, round robin).
    pub tiebreaks: Option<(u32, u32)>,
    /// Performance rating (arena).
    pub performance: Option<i32>,
    /// On fire: the next win scores double (arena).
    pub streak: Option<bool>,
    /// Each game in order: `w`, `l`, `b` (a bye), `.` (being played).
    pub results: Vec<char>,
}

/// Everything a tournament's page and director read, loaded together.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The tournament.
    pub tournament: Tournament,
    /// Its players, in the order they joined.
    pub entrants: Vec<Entrant>,
    /// Its games, in the order they were paired.
    pub games: Vec<TourGame>,
    /// Its byes.
    pub byes: Vec<TourBye>,
}

impl Loaded {
    /// Each account's index among the entrants.
    pub fn index(&self) -> HashMap<&str, usize> {
        self.entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.account.as_str(), i))
            .collect()
    }

    /// The games as the pairing arithmetic reads them (games of unknown players left out).
    pub fn played(&self) -> Vec<pairing::Played> {
        let index = self.index();
        self.games
            .iter()
            .filter_map(|g| {
                Some(pairing::Played {
                    round: g.round,
                    black: *index.get(g.black.as_str())?,
                    white: *index.get(g.white.as_str())?,
                    winner: g.winner,
                })
            })
            .collect()
    }

    /// The byes as the pairing arithmetic reads them.
    pub fn pairing_byes(&self) -> Vec<pairing::Bye> {
        let index = self.index();
        self.byes
            .iter()
            .filter_map(|b| {
                Some(pairing::Bye {
                    round: b.round,
                    player: *index.get(b.account.as_str())?,
                })
            })
            .collect()
    }

    /// The table, best first. Withdrawn players keep their line (their games count).
    pub fn table(&self) -> Vec<Line> {
        let results = self.results();
        let mut lines = match self.tournament.settings.format {
            Format::Arena { .. } => self.arena_table(),
            Format::Swiss { .. } | Format::RoundRobin { .. } => {
                let finished: Vec<pairing::Played> = self
                    .played()
                    .into_iter()
                    .filter(|p| p.winner.is_some())
                    .collect();
                pairing::standings(self.entrants.len(), &finished, &self.pairing_byes())
                    .into_iter()
                    .map(|s| Line {
                        rank: s.rank as u32,
                        entrant: s.player,
                        score: s.points,
                        games: s.games,
                        wins: s.wins,
                        tiebreaks: Some((s.buchholz, s.sonneborn_berger)),
                        performance: None,
                        streak: None,
                        results: Vec::new(),
                    })
                    .collect()
            }
        };
        for line in &mut lines {
            line.results = results[line.entrant].clone();
        }
        lines
    }

    /// Arena lines: points with streaks, then performance, then rating.
    fn arena_table(&self) -> Vec<Line> {
        let index = self.index();
        let n = self.entrants.len();
        let mut wins: Vec<Vec<bool>> = vec![Vec::new(); n];
        let mut opponents: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut finished: Vec<&TourGame> =
            self.games.iter().filter(|g| g.winner.is_some()).collect();
        finished.sort_by_key(|g| (g.ended_at, g.created_at));
        for g in finished {
            let (Some(&b), Some(&w)) = (index.get(g.black.as_str()), index.get(g.white.as_str()))
            else {
                continue;
            };
            let black_won = g.winner == Some(Color::Black);
            wins[b].push(black_won);
            wins[w].push(!black_won);
            opponents[b].push(self.entrants[w].rating);
            opponents[w].push(self.entrants[b].rating);
        }
        let mut lines: Vec<Line> = (0..n)
            .map(|i| {
                let score = pairing::arena_points(&wins[i]);
                let won = wins[i].iter().filter(|w| **w).count() as u32;
                Line {
                    rank: 0,
                    entrant: i,
                    score: score.points,
                    games: wins[i].len() as u32,
                    wins: won,
                    tiebreaks: None,
                    performance: pairing::performance(&opponents[i], won).map(|p| p.round() as i32),
                    streak: Some(score.on_fire),
                    results: Vec::new(),
                }
            })
            .collect();
        lines.sort_by(|a, b| {
            let rating = |l: &Line| self.entrants[l.entrant].rating;
            b.score
                .cmp(&a.score)
                .then(
                    b.performance
                        .unwrap_or(i32::MIN)
                        .cmp(&a.performance.unwrap_or(i32::MIN)),
                )
                .then(rating(b).total_cmp(&rating(a)))
                .then(a.entrant.cmp(&b.entrant))
        });
        for (i, line) in lines.iter_mut().enumerate() {
            line.rank = i as u32 + 1;
        }
        lines
    }

    /// Each entrant's results in the order played, byes in their rounds.
    fn results(&self) -> Vec<Vec<char>> {
        let index = self.index();
        let mut marks: Vec<Vec<(u32, i64, char)>> = vec![Vec::new(); self.entrants.len()];
        for g in &self.games {
            for (account, color) in [(&g.black, Color::Black), (&g.white, Color::White)] {
                if let Some(&i) = index.get(account.as_str()) {
                    let mark = match g.winner {
                        None => '.',
                        Some(w) if w == color => 'w',
                        Some(_) => 'l',
                    };
                    marks[i].push((g.round, g.created_at, mark));
                }
            }
        }
        for b in &self.byes {
            if let Some(&i) = index.get(b.account.as_str()) {
                marks[i].push((b.round, i64::MIN, 'b'));
            }
        }
        marks
            .into_iter()
            .map(|mut m| {
                m.sort();
                m.into_iter().map(|(_, _, c)| c).collect()
            })
            .collect()
    }

    /// The game `account` is playing now, if any.
    pub fn current_game(&self, account: &str) -> Option<&TourGame> {
        self.games
            .iter()
            .rev()
            .find(|g| g.winner.is_none() && (g.black == account || g.white == account))
    }

    /// The players who may be paired now: active and not in a game.
    pub fn free(&self) -> Vec<usize> {
        self.entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| e.status == EntryStatus::Active)
            .filter(|(_, e)| self.current_game(&e.account).is_none())
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether any game is still being played.
    pub fn games_running(&self) -> bool {
        self.games.iter().any(|g| g.winner.is_none())
    }
}
