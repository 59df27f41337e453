//! The arena: points and streaks, pairing, performance.

use konane_tournament::{ArenaCandidate, arena_points, pair_arena, performance};
use proptest::prelude::*;

fn wins(text: &str) -> Vec<bool> {
    text.chars().map(|c| c == 'W').collect()
}

#[test]
fn points_and_streaks() {
    let table: [(&str, &[u32], bool); 7] = [
        ("", &[], false),
        ("L", &[0], false),
        ("W", &[2], false),
        ("WW", &[2, 2], true),
        ("WWWLWWWW", &[2, 2, 4, 0, 2, 2, 4, 4], true),
        ("WWWWL", &[2, 2, 4, 4, 0], false),
        ("LWLWW", &[0, 2, 0, 2, 2], true),
    ];
    for (games, per_game, on_fire) in table {
        let score = arena_points(&wins(games));
        assert_eq!(score.per_game, per_game, "{games}");
        assert_eq!(score.points, per_game.iter().sum::<u32>(), "{games}");
        assert_eq!(score.on_fire, on_fire, "{games}");
    }
    assert_eq!(arena_points(&wins("WWWLWWWW")).points, 20);
}

#[test]
fn performance_is_average_plus_500_a_net_win() {
    assert_eq!(performance(&[], 0), None);
    assert_eq!(performance(&[1500.0, 1700.0], 1), Some(1600.0));
    assert_eq!(performance(&[1500.0, 1700.0], 2), Some(2100.0));
    assert_eq!(performance(&[1500.0, 1700.0, 1600.0], 0), Some(1100.0));
    assert_eq!(
        performance(&[1000.0, 1400.0, 1600.0, 2000.0], 3),
        Some(1750.0)
    );
    assert_eq!(performance(&[1500.0], 5), Some(2000.0));
}

fn candidate(player: usize, points: u32, rating: f64, last: Option<usize>) -> ArenaCandidate {
    ArenaCandidate {
        player,
        points,
        rating,
        last_opponent: last,
        blacks: 0,
        whites: 0,
    }
}

#[test]
fn neighbours_in_points_meet_and_the_lowest_waits() {
    let free = [
        candidate(0, 2, 1500.0, None),
        candidate(1, 10, 1500.0, None),
        candidate(2, 4, 1500.0, None),
        candidate(3, 9, 1500.0, None),
        candidate(4, 4, 1600.0, None),
    ];
    let mut pairs: Vec<(usize, usize)> = pair_arena(&free)
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort_unstable();
    assert_eq!(pairs, [(1, 3), (2, 4)]);
}

#[test]
fn a_rematch_is_avoided_and_colours_go_to_who_had_them_less() {
    let mut free = [
        candidate(0, 10, 1500.0, Some(1)),
        candidate(1, 10, 1400.0, Some(0)),
        candidate(2, 8, 1500.0, None),
        candidate(3, 8, 1400.0, None),
    ];
    free[0].whites = 2;
    free[2].blacks = 1;
    free[1].blacks = 3;
    let pairs = pair_arena(&free);
    assert_eq!(pairs, [(0, 2), (3, 1)]);
    // Only two free, just played each other: they meet again rather than wait.
    assert_eq!(pair_arena(&free[..2]).len(), 1);
}

/// Every way of pairing `n` players (one waiting if odd), by partner of each.
fn matchings(n: usize) -> Vec<Vec<Option<usize>>> {
    fn go(
        slots: &mut Vec<Option<Option<usize>>>,
        may_wait: bool,
        out: &mut Vec<Vec<Option<usize>>>,
    ) {
        let Some(i) = slots.iter().position(|s| s.is_none()) else {
            out.push(slots.iter().map(|s| s.flatten()).collect());
            return;
        };
        for j in i + 1..slots.len() {
            if slots[j].is_none() {
                slots[i] = Some(Some(j));
                slots[j] = Some(Some(i));
                go(slots, may_wait, out);
                slots[j] = None;
            }
        }
        if may_wait {
            slots[i] = Some(None);
            go(slots, false, out);
        }
        slots[i] = None;
    }
    let mut out = Vec::new();
    go(&mut vec![None; n], n % 2 == 1, &mut out);
    out
}

fn rematch(free: &[ArenaCandidate], a: usize, b: usize) -> bool {
    free[a].last_opponent == Some(free[b].player) || free[b].last_opponent == Some(free[a].player)
}

fn candidates(max: usize) -> impl Strategy<Value = Vec<ArenaCandidate>> {
    (2..=max).prop_flat_map(|n| {
        prop::collection::vec(
            (
                0u32..12,
                1000u32..2000,
                prop::option::of(0..n + 2),
                0u32..5,
                0u32..5,
            ),
            n,
        )
        .prop_map(|rows| {
            rows.into_iter()
                .enumerate()
                .map(
                    |(player, (points, rating, last, blacks, whites))| ArenaCandidate {
                        player,
                        points,
                        rating: f64::from(rating),
                        last_opponent: last.filter(|&l| l != player),
                        blacks,
                        whites,
                    },
                )
                .collect()
        })
    })
}

proptest! {
    #[test]
    fn pairs_are_disjoint_and_rematches_only_when_forced(free in candidates(10)) {
        let pairs = pair_arena(&free);
        let mut seen = vec![false; free.len()];
        for &(b, w) in &pairs {
            prop_assert!(b != w);
            prop_assert!(!seen[b] && !seen[w]);
            seen[b] = true;
            seen[w] = true;
        }
        prop_assert_eq!(pairs.len(), free.len() / 2);
        let fewest = matchings(free.len())
            .iter()
            .map(|m| (0..free.len()).filter(|&i| m[i].is_some_and(|j| i < j && rematch(&free, i, j))).count())
            .min()
            .unwrap_or(0);
        let rematches = pairs.iter().filter(|&&(b, w)| rematch(&free, b, w)).count();
        prop_assert_eq!(rematches, fewest);
    }

    #[test]
    fn without_rematches_neighbours_meet(free in candidates(60)) {
        let free: Vec<ArenaCandidate> = free.into_iter().map(|c| ArenaCandidate { last_opponent: None, ..c }).collect();
        let mut ranked: Vec<&ArenaCandidate> = free.iter().collect();
        ranked.sort_by(|a, b| b.points.cmp(&a.points).then(b.rating.total_cmp(&a.rating)).then(a.player.cmp(&b.player)));
        let pairs = pair_arena(&free);
        prop_assert_eq!(pairs.len(), free.len() / 2);
        for (k, &(b, w)) in pairs.iter().enumerate() {
            let expected = (ranked[2 * k].player, ranked[2 * k + 1].player);
            prop_assert!((b, w) == expected || (w, b) == expected);
            // The pair is next to each other in points: no one between them.
            let (pb, pw) = (free[b].points.max(free[w].points), free[b].points.min(free[w].points));
            prop_assert!(pb - pw <= ranked[2 * k].points - ranked[2 * k + 1].points);
            // Black went to who had it less (relative to White), ties to the lower ranked.
            let balance = |p: usize| i64::from(free[p].blacks) - i64::from(free[p].whites);
            prop_assert!(balance(b) <= balance(w));
        }
    }
}

#[test]
fn five_hundred_candidates_pair() {
    // Timing is not asserted; this shows the size runs, and every pair is disjoint.
    let free: Vec<ArenaCandidate> = (0..500)
        .map(|p| ArenaCandidate {
            player: p,
            points: (p as u32 * 7919) % 40,
            rating: 1000.0 + ((p * 104_729) % 1000) as f64,
            last_opponent: Some(p ^ 1),
            blacks: (p % 3) as u32,
            whites: (p % 5) as u32,
        })
        .collect();
    let pairs = pair_arena(&free);
    assert_eq!(pairs.len(), 250);
    let mut seen = [false; 500];
    for (b, w) in pairs {
        assert!(!seen[b] && !seen[w]);
        seen[b] = true;
        seen[w] = true;
        assert_ne!(free[b].last_opponent, Some(w));
    }
}
