//! Leagues: a season worked by hand, small leagues, and random leagues over seasons.

use konane_tournament::{Divisions, first_season, next_season};
use proptest::prelude::*;

#[test]
fn promotion_and_relegation_worked_by_hand() {
    // Division 0: one group of 0-5, finished in that order; division 1: 6-11 and 12-17.
    let order: Divisions = vec![
        vec![(0..6).collect()],
        vec![(6..12).collect(), (12..18).collect()],
    ];
    // Up: 6, 7 and 12, 13 (promoted first, by place then group); 0-3 stay.
    // Down: 4 and 5, after division 1's stayers (by place then group), then the newcomers;
    // 12 players dealt into two groups in snake order.
    let expected: Divisions = vec![
        vec![vec![6, 12, 7, 13, 0, 1, 2, 3]],
        vec![vec![8, 15, 10, 17, 4, 19], vec![14, 9, 16, 11, 5, 18]],
    ];
    assert_eq!(next_season(&order, &[18, 19]), expected);
}

#[test]
fn the_first_season_fills_divisions_from_the_top() {
    let players: Vec<usize> = (0..25).collect();
    let league = first_season(&players);
    assert_eq!(league.len(), 2);
    assert_eq!(league[0], vec![(0..10).collect::<Vec<usize>>()]);
    // 15 players in two groups, snake order: 10 to group 1, 11 and 12 to group 2, 13 and 14
    // to group 1, …
    assert_eq!(
        league[1],
        vec![
            vec![10, 13, 14, 17, 18, 21, 22],
            vec![11, 12, 15, 16, 19, 20, 23, 24]
        ]
    );
}

#[test]
fn small_leagues_play_in_one_group_or_not_at_all() {
    assert!(first_season(&[0, 1]).is_empty());
    assert_eq!(first_season(&[4, 2, 9]), vec![vec![vec![4, 2, 9]]]);
    let eleven: Vec<usize> = (0..11).collect();
    assert_eq!(first_season(&eleven), vec![vec![eleven.clone()]]);
    assert_eq!(
        next_season(&vec![vec![vec![3, 1, 2]]], &[7, 1]),
        vec![vec![vec![3, 1, 2, 7]]]
    );
}

fn placed(league: &Divisions) -> Vec<usize> {
    let mut all: Vec<usize> = league.iter().flatten().flatten().copied().collect();
    all.sort_unstable();
    all
}

fn division_of(league: &Divisions, player: usize) -> Option<usize> {
    league
        .iter()
        .position(|groups| groups.iter().any(|g| g.contains(&player)))
}

fn check_shape(league: &Divisions, players: usize) -> Result<(), TestCaseError> {
    if players >= 6 && players != 11 {
        for (d, groups) in league.iter().enumerate() {
            prop_assert!(!groups.is_empty());
            prop_assert!(
                groups.len() <= 3usize.pow(d as u32),
                "division {} has {} groups",
                d,
                groups.len()
            );
            for group in groups {
                prop_assert!(
                    (6..=10).contains(&group.len()),
                    "a group of {}",
                    group.len()
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn seasons_place_everyone_once_and_move_the_top_up(
        start in 3usize..160,
        seasons in prop::collection::vec((0usize..40, any::<u64>()), 1..4),
    ) {
        let mut next_id = start;
        let mut league = first_season(&(0..start).collect::<Vec<usize>>());
        prop_assert_eq!(placed(&league), (0..start).collect::<Vec<usize>>());
        check_shape(&league, start)?;
        for (new, seed) in seasons {
            // A season's results: each group's order shuffled by the seed.
            let mut x = seed | 1;
            let order: Divisions = league
                .iter()
                .map(|groups| {
                    groups
                        .iter()
                        .map(|g| {
                            let mut g = g.clone();
                            for i in (1..g.len()).rev() {
                                x ^= x << 13;
                                x ^= x >> 7;
                                x ^= x << 17;
                                g.swap(i, (x % (i as u64 + 1)) as usize);
                            }
                            g
                        })
                        .collect()
                })
                .collect();
            let newcomers: Vec<usize> = (next_id..next_id + new).collect();
            next_id += new;
            league = next_season(&order, &newcomers);
            prop_assert_eq!(placed(&league), (0..next_id).collect::<Vec<usize>>());
            check_shape(&league, next_id)?;
            let lowest = order.len() - 1;
            for (d, groups) in order.iter().enumerate() {
                for group in groups.iter().filter(|g| g.len() >= 4) {
                    let now = |p: usize| division_of(&league, p).unwrap_or(usize::MAX);
                    if d > 0 {
                        prop_assert!(now(group[0]) < d && now(group[1]) < d, "top two of division {}", d);
                    }
                    if d < lowest {
                        let n = group.len();
                        prop_assert!(now(group[n - 1]) > d && now(group[n - 2]) > d, "bottom two of division {}", d);
                    }
                }
            }
        }
    }
}

#[test]
fn movement_names_who_goes_up_and_down() {
    use konane_tournament::{Move, movement};
    // A middle division's group of 8: two up, two down, four stay.
    let moves: Vec<_> = (0..8).map(|p| movement(1, 3, 8, p)).collect();
    assert_eq!(
        moves,
        [
            Some(Move::Up),
            Some(Move::Up),
            None,
            None,
            None,
            None,
            Some(Move::Down),
            Some(Move::Down)
        ]
    );
    // The top division: nobody up; the lowest: nobody down.
    assert_eq!(movement(0, 3, 8, 0), None);
    assert_eq!(movement(0, 3, 8, 7), Some(Move::Down));
    assert_eq!(movement(2, 3, 8, 7), None);
    assert_eq!(movement(2, 3, 8, 1), Some(Move::Up));
    // A group of three: one each way.
    assert_eq!(movement(1, 3, 3, 1), None);
    assert_eq!(movement(1, 3, 3, 2), Some(Move::Down));
    // A single division: nobody moves.
    assert!((0..10).all(|p| movement(0, 1, 10, p).is_none()));
}
