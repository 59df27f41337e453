//! The arena (as on lichess): a clock for the whole event, players paired again as soon as
//! they are free, points with streaks.
//!
//! Pairing: the free players are ranked by points, then rating, then index, and paired
//! neighbour with neighbour (1-2, 3-4, …; an odd one out, the lowest, waits). Where a
//! neighbour pair just played each other, the pairing is redone exactly for a window of
//! nearby players (every matching of up to `WINDOW` players is tried, least rematches first,
//! then least distance in the ranking), so a rematch is left only when no pairing of that
//! window avoids it; a window is small enough that this stays well under a millisecond,
//! and with the real arena's last opponents (each the other's) a window always has one.

use std::cmp::Ordering;

/// Points won, whether the player is on fire, and what each game scored.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ArenaScore {
    /// The total.
    pub points: u32,
    /// Two wins or more in a row: the next win scores 4.
    pub on_fire: bool,
    /// What each game scored, in order.
    pub per_game: Vec<u32>,
}

/// A free player waiting for an arena game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArenaCandidate {
    /// The player's index.
    pub player: usize,
    /// Arena points so far.
    pub points: u32,
    /// Rating, the tiebreak between equal points.
    pub rating: f64,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<usize>,
    /// Games played with Black so far.
    pub blacks: u32,
    /// Games played with White so far.
    pub whites: u32,
}

/// The most players whose pairing is searched exhaustively when a rematch must be avoided.
const WINDOW: usize = 10;

/// Points of one player's finished games in order (true = win): 2 a win, 0 a loss; after
/// two wins in a row each further win scores 4 until a loss.
pub fn arena_points(wins: &[bool]) -> ArenaScore {
    let mut streak = 0u32;
    let mut score = ArenaScore::default();
    for &won in wins {
        let points = if !won {
            streak = 0;
            0
        } else {
            streak += 1;
            if streak > 2 { 4 } else { 2 }
        };
        score.points += points;
        score.per_game.push(points);
    }
    score.on_fire = streak >= 2;
    score
}

/// Performance rating (lichess's): average opponent rating + 500 * (wins - losses) / games.
/// None without games; `wins` beyond the number of games counts as all won.
pub fn performance(opponent_ratings: &[f64], wins: u32) -> Option<f64> {
    if opponent_ratings.is_empty() {
        return None;
    }
    let games = opponent_ratings.len() as f64;
    let wins = f64::from(wins).min(games);
    let average = opponent_ratings.iter().sum::<f64>() / games;
    Some(average + 500.0 * (wins - (games - wins)) / games)
}

/// Pairs the free players: near points (then rating) together, never two who just played
/// each other if another pairing exists; an odd one out waits. Returns (black, white) by
/// player index; colour to who had it less (then the other way from their last game…).
pub fn pair_arena(free: &[ArenaCandidate]) -> Vec<(usize, usize)> {
    let mut ranked: Vec<&ArenaCandidate> = free.iter().collect();
    ranked.sort_by(|a, b| rank_order(a, b));
    let mut slots: Vec<Option<usize>> = (0..ranked.len()).map(|i| Some(i ^ 1)).collect();
    if ranked.len() % 2 == 1 {
        slots[ranked.len() - 1] = None;
    }
    let mut start = 0;
    while start < ranked.len() {
        // Windows start at even ranks, so a window's neighbour pairs are its own.
        let end = (start + WINDOW).min(ranked.len());
        let end = if ranked.len() - end == 1 {
            ranked.len()
        } else {
            end
        };
        let has_rematch = (start..end).any(|i| slots[i].is_some_and(|j| rematch(&ranked, i, j)));
        if has_rematch {
            let best = best_matching(&ranked, start, end);
            slots[start..end].copy_from_slice(&best);
        }
        start = end;
    }
    let mut pairs = Vec::with_capacity(ranked.len() / 2);
    for (i, slot) in slots.iter().enumerate() {
        if let Some(j) = *slot
            && i < j
        {
            pairs.push(colours(ranked[i], ranked[j]));
        }
    }
    pairs
}

/// Points, then rating, higher first; then index.
fn rank_order(a: &ArenaCandidate, b: &ArenaCandidate) -> Ordering {
    b.points
        .cmp(&a.points)
        .then(b.rating.total_cmp(&a.rating))
        .then(a.player.cmp(&b.player))
}

/// Whether ranks `i` and `j` just played each other.
fn rematch(ranked: &[&ArenaCandidate], i: usize, j: usize) -> bool {
    ranked[i].last_opponent == Some(ranked[j].player)
        || ranked[j].last_opponent == Some(ranked[i].player)
}

/// The partner of each rank in `start..end` (None waits) over every matching of the window:
/// fewest rematches, then least summed distance in the ranking, a waiting player costing
/// twice its distance from the bottom; the first found wins ties.
fn best_matching(ranked: &[&ArenaCandidate], start: usize, end: usize) -> Vec<Option<usize>> {
    let mut search = WindowSearch {
        ranked,
        start,
        end,
        slots: vec![None; end - start],
        best: None,
    };
    search.extend((0, 0), (end - start) % 2 == 1);
    match search.best {
        Some((_, slots)) => slots,
        None => vec![None; end - start],
    }
}

/// Rematches, then summed distance in the ranking.
type WindowCost = (usize, usize);

/// The exhaustive search of one window: `slots[i - start]` is None while rank `i` is free.
struct WindowSearch<'a> {
    ranked: &'a [&'a ArenaCandidate],
    start: usize,
    end: usize,
    slots: Vec<Option<Option<usize>>>,
    best: Option<(WindowCost, Vec<Option<usize>>)>,
}

impl WindowSearch<'_> {
    /// Places the highest free rank every way, given the cost so far (rematches, distance).
    fn extend(&mut self, cost: WindowCost, may_wait: bool) {
        if self.best.as_ref().is_some_and(|(best, _)| *best <= cost) {
            return;
        }
        let base = self.start;
        let Some(i) = (base..self.end).find(|&i| self.slots[i - base].is_none()) else {
            let slots = self.slots.iter().map(|s| s.flatten()).collect();
            self.best = Some((cost, slots));
            return;
        };
        for j in i + 1..self.end {
            if self.slots[j - base].is_some() {
                continue;
            }
            let rematches = cost.0 + usize::from(rematch(self.ranked, i, j));
            self.slots[i - base] = Some(Some(j));
            self.slots[j - base] = Some(Some(i));
            self.extend((rematches, cost.1 + j - i), may_wait);
            self.slots[j - base] = None;
        }
        if may_wait {
            self.slots[i - base] = Some(None);
            self.extend((cost.0, cost.1 + 2 * (self.end - 1 - i)), false);
        }
        self.slots[i - base] = None;
    }
}

/// The pair as (black, white): Black to who has had it less, relative to White; at equal
/// balance, to the lower ranked of the two (`a` ranks above `b`).
fn colours(a: &ArenaCandidate, b: &ArenaCandidate) -> (usize, usize) {
    let balance = |c: &ArenaCandidate| i64::from(c.blacks) - i64::from(c.whites);
    if balance(a) < balance(b) {
        (a.player, b.player)
    } else {
        (b.player, a.player)
    }
}
