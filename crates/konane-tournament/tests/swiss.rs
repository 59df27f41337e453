//! Swiss pairings: a worked example by the Dutch rules, and random tournaments checked
//! against the hard rules and, for small fields, against every possible pairing.

use konane_tournament::{Bye, Color, Played, Round, SwissEntrant, pair_swiss};
use proptest::prelude::*;

fn entrants(n: usize) -> Vec<SwissEntrant> {
    (0..n)
        .map(|i| SwissEntrant {
            rating: 2000.0 - 100.0 * i as f64,
            active: true,
        })
        .collect()
}

fn finish(
    round: u32,
    pairs: &[(usize, usize)],
    winner: impl Fn(usize, usize) -> Color,
) -> Vec<Played> {
    pairs
        .iter()
        .map(|&(black, white)| Played {
            round,
            black,
            white,
            winner: Some(winner(black, white)),
        })
        .collect()
}

/// FIDE Handbook C.04.3 (Dutch system), applied by hand to 8 players rated in index order,
/// the higher rated winning every game. Round 1: top half against bottom half, colours
/// alternating by board (A.6, and the initial-colour rule): 1-5, 6-2, 3-7, 8-4 in the
/// handbook's numbering. Round 2: the 1-point bracket {1,2,3,4} splits S1 = {1,2},
/// S2 = {3,4}; 1-3 and 2-4 would each give two players the same colour preference, and
/// meeting colour preferences (C.12) comes before the order of transpositions, so the
/// transposition S2 = {4,3} is taken: 4-1 and 2-3; the 0-point bracket likewise: 5-8, 7-6.
/// (Our Black moves first, as chess's White: the first of a pair below.)
#[test]
fn dutch_worked_example_eight_players() {
    let field = entrants(8);
    let higher_wins = |b: usize, w: usize| if b < w { Color::Black } else { Color::White };
    let one = pair_swiss(&field, &[], &[], 1);
    assert_eq!(
        one,
        Round {
            pairs: vec![(0, 4), (5, 1), (2, 6), (7, 3)],
            bye: None
        }
    );
    let played = finish(1, &one.pairs, higher_wins);
    let two = pair_swiss(&field, &played, &[], 2);
    assert_eq!(
        two,
        Round {
            pairs: vec![(3, 0), (1, 2), (4, 7), (6, 5)],
            bye: None
        }
    );
}

#[test]
fn round_one_of_an_odd_field_gives_the_bye_to_the_lowest_rated() {
    let one = pair_swiss(&entrants(7), &[], &[], 1);
    assert_eq!(
        one,
        Round {
            pairs: vec![(0, 3), (4, 1), (2, 5)],
            bye: Some(6)
        }
    );
}

#[test]
fn withdrawn_players_are_left_out() {
    let mut field = entrants(5);
    field[0].active = false;
    let one = pair_swiss(&field, &[], &[], 1);
    assert_eq!(
        one,
        Round {
            pairs: vec![(1, 3), (4, 2)],
            bye: None
        }
    );
}

#[test]
fn four_players_past_their_round_robin_repeat_as_little_as_possible() {
    let field = entrants(4);
    let mut played = Vec::new();
    for round in 1..=5u32 {
        let pairing = pair_swiss(&field, &played, &[], round);
        assert_eq!(pairing.pairs.len(), 2);
        let repeats = pairing
            .pairs
            .iter()
            .filter(|&&(a, b)| played.iter().any(|g: &Played| g.opponent_of(a) == Some(b)))
            .count();
        assert_eq!(repeats, if round <= 3 { 0 } else { 2 }, "round {round}");
        played.extend(finish(round, &pairing.pairs, |b, w| {
            if b < w { Color::Black } else { Color::White }
        }));
    }
}

/// What the rounds before say about each player.
struct Past {
    points: Vec<u32>,
    met: Vec<Vec<bool>>,
    colours: Vec<Vec<Color>>,
    had_bye: Vec<bool>,
}

impl Past {
    fn new(n: usize, played: &[Played], byes: &[Bye]) -> Past {
        let mut past = Past {
            points: vec![0; n],
            met: vec![vec![false; n]; n],
            colours: vec![Vec::new(); n],
            had_bye: vec![false; n],
        };
        for g in played {
            past.met[g.black][g.white] = true;
            past.met[g.white][g.black] = true;
            past.colours[g.black].push(Color::Black);
            past.colours[g.white].push(Color::White);
            if let Some(w) = g.winner_index() {
                past.points[w] += 1;
            }
        }
        for b in byes {
            past.points[b.player] += 1;
            past.had_bye[b.player] = true;
        }
        past
    }

    fn must(&self, p: usize) -> Option<Color> {
        match self.colours[p].as_slice() {
            [.., x, y] if x == y => Some(*x),
            _ => None,
        }
    }

    /// Rules a pair breaks whatever the colours: a repeat, two who must have the same colour.
    fn broken(&self, a: usize, b: usize) -> usize {
        usize::from(self.met[a][b])
            + usize::from(self.must(a).is_some() && self.must(a) == self.must(b))
    }
}

/// The best any pairing could do, by brute force: fewest rules broken, then the bye to the
/// first in `bye_order` (among pairings that break that few), then least score differences.
fn oracle(past: &Past, active: &[usize], bye_order: &[usize]) -> (usize, Option<usize>, u32) {
    fn pairings(rest: &[usize], past: &Past, broken: usize, diff: u32, best: &mut (usize, u32)) {
        let Some((&first, others)) = rest.split_first() else {
            *best = (*best).min((broken, diff));
            return;
        };
        for k in 0..others.len() {
            let mut left = others.to_vec();
            let partner = left.remove(k);
            let d = past.points[first].abs_diff(past.points[partner]);
            pairings(
                &left,
                past,
                broken + past.broken(first, partner),
                diff + d,
                best,
            );
        }
    }
    let byes: Vec<Option<usize>> = if active.len() % 2 == 1 {
        bye_order.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    let mut best: Option<(usize, usize, Option<usize>, u32)> = None;
    for (rank, bye) in byes.into_iter().enumerate() {
        let rest: Vec<usize> = active.iter().copied().filter(|&p| Some(p) != bye).collect();
        let mut found = (usize::MAX, u32::MAX);
        pairings(&rest, past, 0, 0, &mut found);
        let broken = found.0 + bye.map_or(0, |p| usize::from(past.had_bye[p]));
        let candidate = (broken, rank, bye, found.1);
        if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
            best = Some(candidate);
        }
    }
    best.map_or((0, None, 0), |(broken, _, bye, diff)| (broken, bye, diff))
}

/// A random tournament: ratings, results, withdrawals (round, player).
#[derive(Debug, Clone)]
struct Tournament {
    ratings: Vec<u32>,
    rounds: u32,
    results: Vec<bool>,
    withdrawals: Vec<(u32, usize)>,
}

fn tournaments(smallest: usize, largest: usize) -> impl Strategy<Value = Tournament> {
    (smallest..=largest).prop_flat_map(|n| {
        let most = (n as u32 - 1).clamp(1, 11);
        (
            prop::collection::vec(1000u32..1100, n),
            1..=most,
            prop::collection::vec(any::<bool>(), 64),
            prop::collection::vec((2..=most + 1, 0..n), 0..3),
        )
            .prop_map(|(ratings, rounds, results, withdrawals)| Tournament {
                ratings,
                rounds,
                results,
                withdrawals,
            })
    })
}

/// The largest field compared with every possible pairing.
const EXACT: usize = 12;

/// Plays `t` out, checking every round: fields of up to `EXACT` active players against the
/// best of every possible pairing (so the bound on floaters is the least any pairing
/// within the fewest broken rules can have), larger ones against the hard rules.
fn play(t: &Tournament) -> Result<(), TestCaseError> {
    let n = t.ratings.len();
    let (mut played, mut byes) = (Vec::new(), Vec::new());
    let mut coin = t.results.iter().cycle();
    for round in 1..=t.rounds {
        let field: Vec<SwissEntrant> = (0..n)
            .map(|p| SwissEntrant {
                rating: f64::from(t.ratings[p]),
                active: !t.withdrawals.iter().any(|&(r, q)| q == p && r <= round),
            })
            .collect();
        let active: Vec<usize> = (0..n).filter(|&p| field[p].active).collect();
        let past = Past::new(n, &played, &byes);
        let pairing = pair_swiss(&field, &played, &byes, round);
        let mut seen = vec![0; n];
        for &(b, w) in &pairing.pairs {
            seen[b] += 1;
            seen[w] += 1;
        }
        if let Some(p) = pairing.bye {
            seen[p] += 1;
        }
        for p in 0..n {
            prop_assert_eq!(
                seen[p],
                usize::from(field[p].active),
                "round {}: player {}",
                round,
                p
            );
        }
        prop_assert_eq!(pairing.bye.is_some(), active.len() % 2 == 1);
        let repeats = pairing
            .pairs
            .iter()
            .filter(|&&(b, w)| past.met[b][w])
            .count();
        let second_byes = pairing.bye.map_or(0, |p| usize::from(past.had_bye[p]));
        let thirds = pairing
            .pairs
            .iter()
            .filter(|&&(b, w)| {
                past.must(b) == Some(Color::Black) || past.must(w) == Some(Color::White)
            })
            .count();
        let broken = repeats + second_byes + thirds;
        let diff: u32 = pairing
            .pairs
            .iter()
            .map(|&(b, w)| past.points[b].abs_diff(past.points[w]))
            .sum();
        if active.len() <= EXACT {
            let mut bye_order: Vec<usize> = active.clone();
            bye_order.sort_by(|&a, &b| {
                past.points[b]
                    .cmp(&past.points[a])
                    .then(t.ratings[b].cmp(&t.ratings[a]))
                    .then(a.cmp(&b))
            });
            bye_order.reverse();
            bye_order.sort_by_key(|&p| past.had_bye[p]);
            let best = oracle(&past, &active, &bye_order);
            prop_assert_eq!((broken, pairing.bye, diff), best, "round {}", round);
        } else if round as usize <= active.len() / 2 {
            // Each has met fewer than half the field, so the unplayed pairs have a perfect
            // matching (Dirac): a pairing within the rules is there to find.
            prop_assert_eq!(broken, 0, "round {}: {:?}", round, pairing);
        }
        played.extend(pairing.pairs.iter().map(|&(black, white)| Played {
            round,
            black,
            white,
            winner: Some(if *coin.next().unwrap_or(&true) {
                Color::Black
            } else {
                Color::White
            }),
        }));
        byes.extend(pairing.bye.map(|player| Bye { round, player }));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn small_fields_pair_as_well_as_any_pairing_could(t in tournaments(2, 12)) {
        play(&t)?;
    }

    #[test]
    fn large_fields_keep_every_rule(t in tournaments(13, 40)) {
        play(&t)?;
    }
}
