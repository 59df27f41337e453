//! Leagues (as on Little Golem): divisions, top first, each dealt into groups that play a
//! round robin in a season; players move up and down between seasons.
//!
//! The rules, exactly:
//! 1. **Movement.** In a group of 4 or more, the top two move up a division and the bottom
//!    two down (a group of 3: one each way); nobody moves up from the top division or down
//!    from the lowest.
//! 2. **Pools.** Each division's players for next season, in order: those promoted into it,
//!    those who stayed, those relegated into it; each part by final place, then group.
//!    Newcomers join the end of the lowest division's pool; a player already placed, or
//!    named twice, is placed once.
//! 3. **Division sizes.** Division `d` (0 at the top) holds at most `10 * 3^d` players (at most
//!    `3^d` groups of at most 10), and at least 6. Going down from the top, each division
//!    keeps as close to its pool's size as those limits allow (its last players go down a
//!    division if it is too full, the first players of the next come up if it is too
//!    small), never leaving fewer than 6 or exactly 11 for the divisions below; players
//!    beyond the lowest division's room open a new division below, and a lowest division
//!    too small for a group of 6 is filled from, or merged into, the one above. Promoted
//!    players come first in a pool and relegated ones last, so a size change moves them
//!    further the way they were already going.
//! 4. **Groups.** A division of `m` players is dealt into `ceil(m / 10)` groups in snake
//!    order (1, 2, …, k, k, …, 2, 1, 1, 2, …), so groups differ by at most one player and
//!    are balanced; every group has 6 to 10 players.
//! 5. **Small leagues.** Fewer than 3 players: no group. 3 to 11 players: one division of
//!    one group of all of them (11 is the only number that cannot be split into groups of
//!    6 to 10).

use std::collections::HashSet;

/// A season's divisions, top first; each a list of groups; each group a list of players.
pub type Divisions = Vec<Vec<Vec<usize>>>;

/// The smallest and largest group.
const GROUP_MIN: usize = 6;
const GROUP_MAX: usize = 10;

/// Which way a player moves at a season's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Up a division.
    Up,
    /// Down a division.
    Down,
}

/// Where the player at `place` (0 first) of a group of `size` in division `division` (of
/// `divisions`, 0 at the top) moves at the season's end, by rule 1; none: it stays.
pub fn movement(division: usize, divisions: usize, size: usize, place: usize) -> Option<Move> {
    let moves = if size >= 4 { 2 } else { size / 2 };
    if division > 0 && place < moves {
        Some(Move::Up)
    } else if division + 1 < divisions && place + moves >= size && place < size {
        Some(Move::Down)
    } else {
        None
    }
}

/// The next season: in every group (its final order given by `standings` of its games),
/// the top two move up a division (not from the top one), the bottom two down (not from the
/// lowest); newcomers enter the lowest division; then each division is dealt into groups of
/// 6 to 10 (a division d has at most 3^d groups; players beyond the lowest division's room
/// open a new division below; a division too small for one group of 6 merges into the one
/// above it...). `order[g]` = final order of each group, same shape as `divisions`.
pub fn next_season(order: &Divisions, newcomers: &[usize]) -> Divisions {
    let count = order.len().max(1);
    let lowest = count - 1;
    // Per division: (part, place, group, player); part 0 promoted, 1 stayed, 2 relegated.
    let mut pools: Vec<Vec<(u8, usize, usize, usize)>> = vec![Vec::new(); count];
    for (d, groups) in order.iter().enumerate() {
        for (g, group) in groups.iter().enumerate() {
            for (place, &player) in group.iter().enumerate() {
                match movement(d, count, group.len(), place) {
                    Some(Move::Up) => pools[d - 1].push((0, place, g, player)),
                    Some(Move::Down) => pools[d + 1].push((2, place, g, player)),
                    None => pools[d].push((1, place, g, player)),
                }
            }
        }
    }
    let mut seen = HashSet::new();
    let mut ordered: Vec<usize> = Vec::new();
    let mut sizes = Vec::with_capacity(count);
    for pool in &mut pools {
        pool.sort_unstable();
        let before = ordered.len();
        ordered.extend(pool.iter().map(|e| e.3).filter(|&p| seen.insert(p)));
        sizes.push(ordered.len() - before);
    }
    let before = ordered.len();
    ordered.extend(newcomers.iter().copied().filter(|&p| seen.insert(p)));
    sizes[lowest] += ordered.len() - before;
    deal(&ordered, &sizes)
}

/// The first season: every player in the lowest division(s), dealt by rating.
///
/// With no divisions yet, the divisions are made from the top: the best 10 in division 0,
/// up to the next 30 in division 1, and so on, each dealt into groups as in `next_season`.
pub fn first_season(by_rating: &[usize]) -> Divisions {
    let mut seen = HashSet::new();
    let ordered: Vec<usize> = by_rating
        .iter()
        .copied()
        .filter(|&p| seen.insert(p))
        .collect();
    deal(&ordered, &[])
}

/// `ordered` cut into divisions as near the wanted `sizes` as the rules allow, then each
/// division dealt into groups.
fn deal(ordered: &[usize], sizes: &[usize]) -> Divisions {
    let mut divisions = Vec::new();
    let mut start = 0;
    for size in division_sizes(sizes, ordered.len()) {
        divisions.push(snake(&ordered[start..start + size]));
        start += size;
    }
    divisions
}

/// The size of each division for `n` players, each as near its wanted size as possible.
fn division_sizes(wanted: &[usize], n: usize) -> Vec<usize> {
    if n < 3 {
        return Vec::new();
    }
    if n <= GROUP_MAX + 1 {
        return vec![n];
    }
    let fits_below = |rest: usize| rest == 0 || (rest >= GROUP_MIN && rest != GROUP_MAX + 1);
    let mut sizes = Vec::new();
    let (mut done, mut boundary) = (0, 0);
    while done < n {
        let d = sizes.len();
        let left = n - done;
        let room = 3usize
            .checked_pow(u32::try_from(d).unwrap_or(u32::MAX))
            .map_or(usize::MAX, |groups| groups.saturating_mul(GROUP_MAX));
        let want = match wanted.get(d) {
            Some(&size) if d + 1 < wanted.len() => {
                boundary += size;
                boundary.saturating_sub(done)
            }
            _ => left,
        };
        let size = (GROUP_MIN..=room.min(left))
            .filter(|&c| c != GROUP_MAX + 1 && fits_below(left - c))
            .min_by_key(|&c| (c.abs_diff(want), std::cmp::Reverse(c)))
            .unwrap_or(left);
        sizes.push(size);
        done += size;
    }
    sizes
}

/// A division's players dealt into `ceil(m / 10)` groups in snake order.
fn snake(players: &[usize]) -> Vec<Vec<usize>> {
    let k = players.len().div_ceil(GROUP_MAX).max(1);
    let k = if players.len() == GROUP_MAX + 1 { 1 } else { k };
    let mut groups = vec![Vec::new(); k];
    for (i, &player) in players.iter().enumerate() {
        let lap = i / k;
        let g = if lap % 2 == 0 { i % k } else { k - 1 - i % k };
        groups[g].push(player);
    }
    groups
}
