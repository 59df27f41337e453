//! A league season's divisions and groups, dealt when it starts: the first season by
//! rating, each later one from the final order of the season before (the movement rules
//! are `konane_tournament::league`'s; here accounts become its player numbers and back).
//! Pure: the director reads the seasons and stores what this deals.

use std::collections::HashMap;

use konane_tournament as pairing;

use crate::store::leagues::GroupPlace;
use crate::tournaments::model::EntryStatus;
use crate::tournaments::standings::Loaded;

/// The fewest players a season starts with (a group of three).
pub const MIN_PLAYERS: usize = 3;

/// Where each active player of `season` plays: by `previous`'s final tables when there is
/// one (its players who are in this season keep their order; the others are newcomers, by
/// rating), else everyone by rating. Seats number each group's players in dealing order.
pub fn deal(season: &Loaded, previous: Option<&Loaded>) -> Vec<GroupPlace> {
    let active: Vec<usize> = season
        .entrants
        .iter()
        .enumerate()
        .filter(|(_, e)| e.status == EntryStatus::Active)
        .map(|(i, _)| i)
        .collect();
    let index: HashMap<&str, usize> = active
        .iter()
        .map(|&i| (season.entrants[i].account.as_str(), i))
        .collect();
    let mut placed = vec![false; season.entrants.len()];
    let mut order: pairing::Divisions = Vec::new();
    if let Some(before) = previous {
        let table = before.table();
        for line in &table {
            let Some((d, g)) = line.group else { continue };
            let (d, g) = (d as usize, g as usize);
            if order.len() <= d {
                order.resize(d + 1, Vec::new());
            }
            if order[d].len() <= g {
                order[d].resize(g + 1, Vec::new());
            }
            let account = before.entrants[line.entrant].account.as_str();
            if let Some(&i) = index.get(account) {
                order[d][g].push(i);
                placed[i] = true;
            }
        }
    }
    let mut newcomers: Vec<usize> = active.iter().copied().filter(|&i| !placed[i]).collect();
    newcomers.sort_by(|&a, &b| {
        let (a, b) = (&season.entrants[a], &season.entrants[b]);
        b.rating
            .total_cmp(&a.rating)
            .then(a.joined_at.cmp(&b.joined_at))
            .then(a.account.cmp(&b.account))
    });
    let divisions = if order.iter().flatten().any(|g| !g.is_empty()) {
        pairing::next_season(&order, &newcomers)
    } else {
        pairing::first_season(&newcomers)
    };
    let mut places = Vec::new();
    for (d, groups) in divisions.iter().enumerate() {
        for (g, group) in groups.iter().enumerate() {
            for (seat, &i) in group.iter().enumerate() {
                places.push(GroupPlace {
                    account: season.entrants[i].account.clone(),
                    division: d as u32,
                    group: g as u32,
                    seat: seat as u32,
                });
            }
        }
    }
    places
}

/// Every game of a season dealt as `places`: each group's double round robin by the
/// Berger tables, as (round, Black's account, White's account), all to be played at once.
pub fn games(places: &[GroupPlace]) -> Vec<(u32, String, String)> {
    let mut groups: std::collections::BTreeMap<(u32, u32), Vec<&GroupPlace>> =
        std::collections::BTreeMap::new();
    for p in places {
        groups.entry((p.division, p.group)).or_default().push(p);
    }
    let mut out = Vec::new();
    for members in groups.values_mut() {
        members.sort_by_key(|p| p.seat);
        for (r, round) in pairing::round_robin(members.len(), true).iter().enumerate() {
            for &(b, w) in &round.pairs {
                out.push((
                    r as u32 + 1,
                    members[b].account.clone(),
                    members[w].account.clone(),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::model::{Entrant, Phase, Season, Settings, TourGame, Tournament};
    use konane_core::Color;

    fn entrant(n: usize, rating: f64) -> Entrant {
        Entrant {
            account: format!("a{n:02}"),
            name: format!("P{n:02}"),
            rating,
            status: EntryStatus::Active,
            seat: None,
            group: None,
            missed: 0,
            place: None,
            joined_at: n as i64,
        }
    }

    fn season(number: u32, entrants: Vec<Entrant>) -> Loaded {
        let settings = Settings {
            name: "League".into(),
            format: crate::tournaments::model::Format::League { days: 3 },
            initial_ms: 3 * 86_400_000,
            increment_ms: 0,
            size: "8x8".into(),
            opening: "center-or-corner".into(),
            rated: true,
            entry_code: None,
            min_rating: None,
            min_games: None,
            creator_name: None,
            site_title: None,
            season: Some(Season {
                league: "L".into(),
                number,
            }),
        };
        Loaded {
            tournament: Tournament {
                id: format!("s{number}"),
                phase: Phase::Created,
                by_site: true,
                created_by: None,
                size: konane_core::Size::new(8, 8).expect("8x8"),
                opening: konane_core::Opening::CenterOrCorner,
                settings,
                round: 0,
                version: 1,
                starts_at: 0,
                ends_at: None,
                finished_at: None,
            },
            entrants,
            games: Vec::new(),
            byes: Vec::new(),
        }
    }

    #[test]
    fn a_first_season_is_dealt_by_rating_and_every_pair_of_a_group_meets_twice() {
        let entrants: Vec<Entrant> = (0..12).map(|n| entrant(n, 1000.0 + n as f64)).collect();
        let places = deal(&season(1, entrants), None);
        assert_eq!(places.len(), 12);
        // Two divisions of six: the six best rated on top.
        let top: Vec<&str> = places
            .iter()
            .filter(|p| p.division == 0)
            .map(|p| p.account.as_str())
            .collect();
        assert_eq!(top, ["a11", "a10", "a09", "a08", "a07", "a06"]);
        let games = games(&places);
        assert_eq!(games.len(), 2 * 6 * 5, "two groups, 30 games each");
        let mut met = std::collections::HashMap::new();
        for (_, b, w) in &games {
            *met.entry((b.clone(), w.clone())).or_insert(0) += 1;
        }
        assert!(met.values().all(|&n| n == 1), "each pair once each way");
        assert_eq!(games.iter().map(|g| g.0).max(), Some(10), "ten rounds");
    }

    #[test]
    fn a_second_season_moves_the_top_two_up_and_the_bottom_two_down() {
        let mut entrants: Vec<Entrant> = (0..12).map(|n| entrant(n, 1500.0)).collect();
        let places = deal(&season(1, entrants.clone()), None);
        for p in &places {
            let e = entrants
                .iter_mut()
                .find(|e| e.account == p.account)
                .expect("placed");
            e.group = Some((p.division, p.group));
            e.seat = Some(p.seat);
        }
        // Every game is won by the player who joined first.
        let mut before = season(1, entrants.clone());
        for (round, b, w) in games(&places) {
            let winner = if b < w { Color::Black } else { Color::White };
            before.games.push(TourGame {
                game: format!("{b}-{w}"),
                round,
                black: b,
                white: w,
                winner: Some(winner),
                absent: false,
                created_at: 0,
                ended_at: Some(1),
            });
        }
        let mut next: Vec<Entrant> = (0..12).map(|n| entrant(n, 1500.0)).collect();
        next.push(entrant(12, 2400.0));
        let places = deal(&season(2, next), Some(&before));
        let division = |a: &str| {
            places
                .iter()
                .find(|p| p.account == a)
                .map(|p| p.division)
                .expect("placed")
        };
        // Division 0 held a00-a05 (equal ratings: by joining); its last two go down.
        assert_eq!(division("a04"), 1);
        assert_eq!(division("a05"), 1);
        // Division 1's first two (a06, a07) come up; the newcomer starts at the bottom.
        assert_eq!(division("a06"), 0);
        assert_eq!(division("a07"), 0);
        assert_eq!(division("a12"), 1);
        assert_eq!(places.iter().filter(|p| p.division == 0).count(), 6);
        assert_eq!(places.iter().filter(|p| p.division == 1).count(), 7);
    }
}
