//! A tournament's table from its players, games and byes: scores, tiebreaks or arena
//! streaks and performance, ranks. Pure: the arithmetic is `konane-tournament`'s, the
//! mapping from accounts to its player numbers is here.

use std::collections::{BTreeMap, HashMap};

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
    /// A league: the division (0 at the top) and group the line belongs to.
    pub group: Option<(u32, u32)>,
    /// A league: up or down a division if the season ended now.
    pub movement: Option<pairing::Move>,
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

    /// The table, best first (a league: each group's, top division first). Withdrawn
    /// players keep their line (their games count).
    pub fn table(&self) -> Vec<Line> {
        let results = self.results();
        let mut lines = match self.tournament.settings.format {
            Format::Arena { .. } => self.arena_table(),
            Format::League { .. } => self.league_table(),
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
                        group: None,
                        movement: None,
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
                    group: None,
                    movement: None,
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

    /// A league season's groups, top division first: each group's players (entrant
    /// indices) by their number in its table. Who joined the running season is in none.
    pub fn groups(&self) -> BTreeMap<(u32, u32), Vec<usize>> {
        let mut groups: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
        for (i, e) in self.entrants.iter().enumerate() {
            if let Some(at) = e.group {
                groups.entry(at).or_default().push(i);
            }
        }
        for members in groups.values_mut() {
            members.sort_by_key(|&i| (self.entrants[i].seat, i));
        }
        groups
    }

    /// League lines: each group's standings (points, Buchholz, Sonneborn-Berger) from the
    /// games within it, with who would move up or down.
    fn league_table(&self) -> Vec<Line> {
        let groups = self.groups();
        let divisions = groups
            .keys()
            .map(|&(d, _)| d as usize + 1)
            .max()
            .unwrap_or(0);
        let played = self.played();
        let mut lines = Vec::new();
        for (&(division, group), members) in &groups {
            let local: HashMap<usize, usize> =
                members.iter().enumerate().map(|(k, &i)| (i, k)).collect();
            let finished: Vec<pairing::Played> = played
                .iter()
                .filter(|p| p.winner.is_some())
                .filter_map(|p| {
                    Some(pairing::Played {
                        black: *local.get(&p.black)?,
                        white: *local.get(&p.white)?,
                        ..*p
                    })
                })
                .collect();
            for s in pairing::standings(members.len(), &finished, &[]) {
                lines.push(Line {
                    rank: s.rank as u32,
                    entrant: members[s.player],
                    score: s.points,
                    games: s.games,
                    wins: s.wins,
                    tiebreaks: Some((s.buchholz, s.sonneborn_berger)),
                    performance: None,
                    streak: None,
                    results: Vec::new(),
                    group: Some((division, group)),
                    movement: pairing::movement(
                        division as usize,
                        divisions,
                        members.len(),
                        s.rank - 1,
                    ),
                });
            }
        }
        lines
    }

    /// The final places written when the tournament ends (account, place): a league's
    /// counted down the table from the top division's winner, the others' ranks; who
    /// played nothing gets none.
    pub fn final_places(&self) -> Vec<(String, u32)> {
        let league = matches!(self.tournament.settings.format, Format::League { .. });
        self.table()
            .iter()
            .filter(|line| line.games > 0 || line.results.contains(&'b'))
            .enumerate()
            .map(|(i, line)| {
                let place = if league { i as u32 + 1 } else { line.rank };
                (self.entrants[line.entrant].account.clone(), place)
            })
            .collect()
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
