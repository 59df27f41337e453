//! The round robin against the published Berger tables (FIDE Handbook C.05 Annex 1, as
//! reprinted at http://c.w.fox.tripod.com/chess/berger.html), and its properties.

use konane_tournament::{Round, round_robin};

/// The published table for an even `n`, players numbered from 1, first named has Black.
const TABLES: [(usize, &str); 5] = [
    (4, "1-4 2-3 | 4-3 1-2 | 2-4 3-1"),
    (
        6,
        "1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1",
    ),
    (
        8,
        "1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3 | \
         3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1",
    ),
    (
        10,
        "1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7 | \
         10-7 8-6 9-5 1-4 2-3 | 3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4 | \
         4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 | 5-10 6-4 7-3 8-2 9-1",
    ),
    (
        12,
        "1-12 2-11 3-10 4-9 5-8 6-7 | 12-7 8-6 9-5 10-4 11-3 1-2 | \
         2-12 3-1 4-11 5-10 6-9 7-8 | 12-8 9-7 10-6 11-5 1-4 2-3 | \
         3-12 4-2 5-1 6-11 7-10 8-9 | 12-9 10-8 11-7 1-6 2-5 3-4 | \
         4-12 5-3 6-2 7-1 8-11 9-10 | 12-10 11-9 1-8 2-7 3-6 4-5 | \
         5-12 6-4 7-3 8-2 9-1 10-11 | 12-11 1-10 2-9 3-8 4-7 5-6 | \
         6-12 7-5 8-4 9-3 10-2 11-1",
    ),
];

/// The table's rounds for `n` players (odd: the table of `n + 1`, whose last player is the
/// bye), 0-based.
fn published(n: usize) -> Vec<Round> {
    let table = TABLES
        .iter()
        .find(|(size, _)| *size == n + n % 2)
        .expect("a table for n")
        .1;
    table
        .split('|')
        .map(|round| {
            let mut out = Round::default();
            for board in round.split_whitespace() {
                let (a, b) = board.split_once('-').expect("a-b");
                let (a, b): (usize, usize) = (a.parse().expect("a"), b.parse().expect("b"));
                if b > n {
                    out.bye = Some(a - 1);
                } else if a > n {
                    out.bye = Some(b - 1);
                } else {
                    out.pairs.push((a - 1, b - 1));
                }
            }
            out
        })
        .collect()
}

#[test]
fn reproduces_the_published_tables() {
    for n in 3..=12 {
        assert_eq!(round_robin(n, false), published(n), "{n} players");
    }
}

#[test]
fn five_players_sit_out_in_the_tables_order() {
    let byes: Vec<Option<usize>> = round_robin(5, false).iter().map(|r| r.bye).collect();
    assert_eq!(byes, [Some(0), Some(3), Some(1), Some(4), Some(2)]);
}

#[test]
fn each_pair_meets_once_colours_balanced_byes_once() {
    for n in 3..=12 {
        let rounds = round_robin(n, false);
        assert_eq!(rounds.len(), if n % 2 == 0 { n - 1 } else { n });
        let mut met = vec![vec![0; n]; n];
        let mut blacks = vec![0; n];
        let mut byes = vec![0; n];
        for round in &rounds {
            let mut seen = vec![false; n];
            for &(b, w) in &round.pairs {
                met[b][w] += 1;
                met[w][b] += 1;
                blacks[b] += 1;
                assert!(!seen[b] && !seen[w], "{n}: someone twice in a round");
                seen[b] = true;
                seen[w] = true;
            }
            if let Some(p) = round.bye {
                byes[p] += 1;
                assert!(!seen[p]);
                seen[p] = true;
            }
            assert!(seen.iter().all(|&s| s), "{n}: everyone plays or sits out");
            assert_eq!(round.bye.is_some(), n % 2 == 1);
        }
        for a in 0..n {
            for (b, &times) in met[a].iter().enumerate() {
                assert_eq!(times, usize::from(a != b), "{n}: {a} v {b}");
            }
            let most = (n - 1).div_ceil(2);
            assert!(
                blacks[a] <= most && n - 1 - blacks[a] <= most,
                "{n}: colours of {a}"
            );
            assert_eq!(byes[a], n % 2, "{n}: byes of {a}");
        }
    }
}

#[test]
fn double_swaps_the_colours_of_the_first_cycle() {
    for n in 3..=12 {
        let single = round_robin(n, false);
        let double = round_robin(n, true);
        assert_eq!(double.len(), 2 * single.len());
        assert_eq!(double[..single.len()], single[..]);
        for (first, second) in single.iter().zip(&double[single.len()..]) {
            let swapped: Vec<(usize, usize)> = first.pairs.iter().map(|&(b, w)| (w, b)).collect();
            assert_eq!(second.pairs, swapped);
            assert_eq!(second.bye, first.bye);
        }
    }
}

#[test]
fn too_few_players_make_no_rounds() {
    assert!(round_robin(0, false).is_empty());
    assert!(round_robin(1, true).is_empty());
    assert_eq!(round_robin(2, true).len(), 2);
}
