//! Swiss pairings: a documented simplification of FIDE's Dutch system (Handbook C.04.3).
//!
//! **Ranking.** Active players are ranked by score (wins plus byes), then rating, then
//! index. Withdrawn players are neither paired nor given a bye.
//!
//! **Hard rules.** Nobody meets the same opponent twice; nobody gets a second bye; nobody gets
//! the same colour three times in a row (counting games played, byes skipped). A pairing
//! breaks a rule once for every repeated pair, every pair of two players who both had the
//! same colour in their last two games (one of them must get it a third time), and a
//! second bye.
//!
//! **The bye** (an odd field) goes to the lowest-ranked active player without one, the next
//! one up if the others cannot then be paired within the rules, and so on.
//!
//! **Score groups and floaters.** The pairing sought is the one that breaks the fewest
//! rules and, among those, has the least sum of score differences over its pairs; a
//! score group pairs within itself unless it must float someone down (an odd group, or a
//! group whose players are blocked by the rules), and the floater meets the highest
//! player of the next group down who can take them. The sum of score differences can be
//! no less than pairing each odd group's leftover with the next odd group's, which is the
//! bound the search stops at.
//!
//! **Within a group** (Dutch's top half against bottom half): the highest unpaired player
//! takes the first player of the group's bottom half (with `k` unpaired in the group, the
//! one at place `k / 2`), or failing that the next ones down the bottom half, then the top
//! half upwards. A candidate whose colour preference clashes with the player's comes after
//! every one that does not (Dutch puts meeting colour preferences before the transposition
//! order). So round 1 is 1 v n/2+1, 2 v n/2+2, …
//!
//! **Search.** Depth-first in that order, backtracking within a group and then floating
//! down, with branch and bound on (rules broken, score differences); rules broken are
//! allowed only if no pairing keeps them all, one more at a time. The first pairing found
//! in the order above wins ties. A search visits at most `NODE_BUDGET` positions (enough to
//! try every pairing of 12 players), and a round at most `ROUND_BUDGET` in all, after
//! which the best pairing found so far is taken, rules broken or not: the result is exact
//! for small fields, and for large ones a pairing within the rules is found at once.
//!
//! **Colours** (Dutch's rules, in order): each gets their preference if they differ; else
//! the stronger preference wins (two same colours in a row, then a colour difference of 2
//! or more, then of 1, then alternation); else the colours alternate from the latest game
//! in which the two had different colours; else the higher ranked gets their preference.
//! Two players without games: Black to the higher ranked on odd boards (1, 3, …), White
//! on even ones. Boards are ordered by the higher score of the pair, then by rank.

use konane_core::Color;
use std::cmp::Reverse;

use crate::round::{Bye, Played, Round};

/// An entrant of a Swiss: rating (for round 1 and ordering) and whether still playing
/// (withdrawn players are not paired and get no bye).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwissEntrant {
    /// Rating: the order within a score group and of round 1.
    pub rating: f64,
    /// False once the player has withdrawn.
    pub active: bool,
}

/// Positions one search may visit.
const NODE_BUDGET: u64 = 50_000;
/// Positions one round's searches may visit in all before taking whatever pairs.
const ROUND_BUDGET: u64 = 1_000_000;
/// Rules broken, tried in turn before allowing any number.
const ALLOWANCES: [usize; 4] = [0, 1, 2, 3];

/// The pairing of round `round` (1-based) given every game and bye of the rounds before
/// (all finished). Documented simplification of FIDE Dutch (write the doc at the top of
/// swiss.rs: score groups, top half vs bottom half, floaters, how repeats and colour rules are
/// resolved — by backtracking within a group then floating down).
/// Games and byes of round `round` or later, and any naming a player outside the entrants,
/// are ignored; an unfinished game counts as met but scores nothing.
pub fn pair_swiss(entrants: &[SwissEntrant], played: &[Played], byes: &[Bye], round: u32) -> Round {
    let history = History::new(entrants.len(), played, byes, round);
    let mut ranking: Vec<usize> = (0..entrants.len())
        .filter(|&p| entrants[p].active)
        .collect();
    ranking.sort_by(|&a, &b| {
        history.points[b]
            .cmp(&history.points[a])
            .then(entrants[b].rating.total_cmp(&entrants[a].rating))
            .then(a.cmp(&b))
    });
    let mut bye_candidates: Vec<Option<usize>> = vec![None];
    if ranking.len() % 2 == 1 {
        let (fresh, again): (Vec<usize>, Vec<usize>) =
            ranking.iter().rev().partition(|&&p| !history.had_bye[p]);
        bye_candidates = fresh.into_iter().chain(again).map(Some).collect();
    }
    let mut spent = 0;
    let allowances = ALLOWANCES.iter().copied().chain([usize::MAX]);
    for allowance in allowances {
        let last = allowance == usize::MAX;
        for &bye in &bye_candidates {
            let base = bye.map_or(0, |p| usize::from(history.had_bye[p]));
            if base > allowance || (!last && spent >= ROUND_BUDGET) {
                continue;
            }
            let order: Vec<usize> = ranking
                .iter()
                .copied()
                .filter(|&p| Some(p) != bye)
                .collect();
            let field = Field::new(&history, order);
            let mut search = Search::new(&field, allowance - base);
            search.extend((0, 0));
            spent += search.nodes;
            if let Some((_, pairs)) = search.best {
                return Round {
                    pairs: boards(&field, &history, &pairs),
                    bye,
                };
            }
        }
    }
    Round::default()
}

/// What the rounds before tell about each player.
struct History {
    points: Vec<u32>,
    had_bye: Vec<bool>,
    /// Opponents met, as a bit set over player indices.
    met: Vec<Vec<u64>>,
    /// Colours of the games played, in round order.
    colours: Vec<Vec<Color>>,
}

impl History {
    fn new(n: usize, played: &[Played], byes: &[Bye], round: u32) -> History {
        let words = n.div_ceil(64);
        let mut history = History {
            points: vec![0; n],
            had_bye: vec![false; n],
            met: vec![vec![0; words]; n],
            colours: vec![Vec::new(); n],
        };
        let mut games: Vec<&Played> = played
            .iter()
            .filter(|g| g.round < round && g.black < n && g.white < n && g.black != g.white)
            .collect();
        games.sort_by_key(|g| g.round);
        for game in games {
            let (b, w) = (game.black, game.white);
            history.met[b][w / 64] |= 1 << (w % 64);
            history.met[w][b / 64] |= 1 << (b % 64);
            history.colours[b].push(Color::Black);
            history.colours[w].push(Color::White);
            if let Some(winner) = game.winner_index() {
                history.points[winner] += 1;
            }
        }
        for bye in byes.iter().filter(|b| b.round < round && b.player < n) {
            history.points[bye.player] += 1;
            history.had_bye[bye.player] = true;
        }
        history
    }

    fn met(&self, a: usize, b: usize) -> bool {
        self.met[a][b / 64] & (1 << (b % 64)) != 0
    }

    /// The colour a player must have: the other one after two the same in a row.
    fn must(&self, p: usize) -> Option<Color> {
        match self.colours[p].as_slice() {
            [.., x, y] if x == y => Some(x.opponent()),
            _ => None,
        }
    }

    /// The colour a player would like and how strongly (higher is stronger).
    fn preference(&self, p: usize) -> Option<(Color, u8)> {
        if let Some(colour) = self.must(p) {
            return Some((colour, 4));
        }
        let last = *self.colours[p].last()?;
        let blacks = self.colours[p]
            .iter()
            .filter(|&&c| c == Color::Black)
            .count();
        let difference = 2 * blacks as i64 - self.colours[p].len() as i64;
        Some(match difference {
            0 => (last.opponent(), 1),
            d if d > 0 => (Color::White, if d >= 2 { 3 } else { 2 }),
            d => (Color::Black, if d <= -2 { 3 } else { 2 }),
        })
    }
}

/// The players to pair, by their place in the ranking, and what each pair would cost.
struct Field {
    players: Vec<usize>,
    score: Vec<u32>,
    /// Rules a pair breaks (a repeat, a third colour in a row).
    penalty: Vec<Vec<u8>>,
    /// Whether a pair's colour preferences clash.
    clash: Vec<Vec<bool>>,
    /// The partners each place can take within the rules, as a bit set over places.
    clean: Vec<Vec<u64>>,
}

impl Field {
    fn new(history: &History, players: Vec<usize>) -> Field {
        let m = players.len();
        let score: Vec<u32> = players.iter().map(|&p| history.points[p]).collect();
        let preference: Vec<Option<Color>> = players
            .iter()
            .map(|&p| history.preference(p).map(|(c, _)| c))
            .collect();
        let must: Vec<Option<Color>> = players.iter().map(|&p| history.must(p)).collect();
        let mut penalty = vec![vec![0u8; m]; m];
        let mut clash = vec![vec![false; m]; m];
        let mut clean = vec![vec![0u64; m.div_ceil(64)]; m];
        for i in 0..m {
            for j in 0..m {
                if i == j {
                    continue;
                }
                let repeat = history.met(players[i], players[j]);
                let third = must[i].is_some() && must[i] == must[j];
                penalty[i][j] = u8::from(repeat) + u8::from(third);
                clash[i][j] = preference[i].is_some() && preference[i] == preference[j];
                if penalty[i][j] == 0 {
                    clean[i][j / 64] |= 1 << (j % 64);
                }
            }
        }
        Field {
            players,
            score,
            penalty,
            clash,
            clean,
        }
    }

    /// The least sum of score differences that pairing the places in `free` can cost: the
    /// odd groups' leftovers paired in order.
    fn parity_bound(&self, free: &[u64]) -> u32 {
        let mut bound = 0;
        let mut open: Option<u32> = None;
        let mut i = 0;
        while i < self.score.len() {
            let score = self.score[i];
            let mut count = 0;
            while i < self.score.len() && self.score[i] == score {
                count += usize::from(is_set(free, i));
                i += 1;
            }
            if count % 2 == 1 {
                open = match open {
                    Some(above) => {
                        bound += above - score;
                        None
                    }
                    None => Some(score),
                };
            }
        }
        bound
    }
}

fn is_set(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

fn flip(bits: &mut [u64], i: usize) {
    bits[i / 64] ^= 1 << (i % 64);
}

/// Rules broken, then the sum of score differences.
type Cost = (usize, u32);

/// The depth-first search over pairings of a field, with branch and bound.
struct Search<'f> {
    field: &'f Field,
    allowance: usize,
    free: Vec<u64>,
    stack: Vec<(usize, usize)>,
    nodes: u64,
    floor: u32,
    best: Option<(Cost, Vec<(usize, usize)>)>,
}

impl<'f> Search<'f> {
    fn new(field: &'f Field, allowance: usize) -> Search<'f> {
        let m = field.players.len();
        let mut free = vec![0u64; m.div_ceil(64)];
        for i in 0..m {
            flip(&mut free, i);
        }
        let floor = field.parity_bound(&free);
        Search {
            field,
            allowance,
            free,
            stack: Vec::with_capacity(m / 2),
            nodes: 0,
            floor,
            best: None,
        }
    }

    /// Pairs the highest free place every way allowed, given the cost so far.
    fn extend(&mut self, cost: Cost) {
        if self.nodes >= NODE_BUDGET
            || self
                .best
                .as_ref()
                .is_some_and(|(b, _)| *b == (0, self.floor))
        {
            return;
        }
        self.nodes += 1;
        let Some(i) = (0..self.field.players.len()).find(|&i| is_set(&self.free, i)) else {
            if self.best.as_ref().is_none_or(|(b, _)| cost < *b) {
                self.best = Some((cost, self.stack.clone()));
            }
            return;
        };
        let bound = (cost.0, cost.1 + self.field.parity_bound(&self.free));
        if self.best.as_ref().is_some_and(|(b, _)| *b <= bound) {
            return;
        }
        for j in self.candidates(i) {
            let broken = cost.0 + usize::from(self.field.penalty[i][j]);
            if broken > self.allowance {
                continue;
            }
            flip(&mut self.free, i);
            flip(&mut self.free, j);
            if broken < self.allowance || self.all_can_pair() {
                self.stack.push((i, j));
                self.extend((broken, cost.1 + self.field.score[i] - self.field.score[j]));
                self.stack.pop();
            }
            flip(&mut self.free, i);
            flip(&mut self.free, j);
        }
    }

    /// Every free place still has a free partner within the rules.
    fn all_can_pair(&self) -> bool {
        (0..self.field.players.len())
            .filter(|&u| is_set(&self.free, u))
            .all(|u| {
                self.field.clean[u]
                    .iter()
                    .zip(&self.free)
                    .any(|(c, f)| c & f != 0)
            })
    }

    /// The free places `i` (the highest free) may meet, in the order they are tried.
    fn candidates(&self, i: usize) -> Vec<usize> {
        let field = self.field;
        let group: Vec<usize> = (i..field.players.len())
            .filter(|&j| is_set(&self.free, j) && field.score[j] == field.score[i])
            .collect();
        let half = group.len() / 2;
        let mut keyed: Vec<((u8, u32, bool, usize), usize)> = Vec::new();
        for (k, &j) in group.iter().enumerate().skip(1) {
            let slot = if k >= half {
                k - half
            } else {
                group.len() + half - k
            };
            keyed.push(((field.penalty[i][j], 0, field.clash[i][j], slot), j));
        }
        for j in i + 1..field.players.len() {
            if is_set(&self.free, j) && field.score[j] < field.score[i] {
                let key = (
                    field.penalty[i][j],
                    field.score[i] - field.score[j],
                    field.clash[i][j],
                    j,
                );
                keyed.push((key, j));
            }
        }
        keyed.sort_by_key(|&(key, _)| key);
        keyed.into_iter().map(|(_, j)| j).collect()
    }
}

/// The pairs as (black, white) player indices, board by board.
fn boards(field: &Field, history: &History, pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = pairs.iter().map(|&(i, j)| (i.min(j), i.max(j))).collect();
    pairs.sort_by_key(|&(i, j)| (Reverse(field.score[i].max(field.score[j])), i));
    pairs
        .iter()
        .enumerate()
        .map(|(board, &(i, j))| colours(history, field.players[i], field.players[j], board))
        .collect()
}

/// (black, white) for `higher` (the higher ranked) against `lower` on `board` (0-based).
fn colours(history: &History, higher: usize, lower: usize, board: usize) -> (usize, usize) {
    let gets = |player: usize, colour: Color| match colour {
        Color::Black => (player, if player == higher { lower } else { higher }),
        Color::White => (if player == higher { lower } else { higher }, player),
    };
    match (history.preference(higher), history.preference(lower)) {
        (None, None) => gets(
            higher,
            if board.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            },
        ),
        (Some((c, _)), None) => gets(higher, c),
        (None, Some((c, _))) => gets(lower, c),
        (Some((a, _)), Some((b, _))) if a != b => gets(higher, a),
        (Some((c, sa)), Some((_, sb))) if sa != sb => gets(if sa > sb { higher } else { lower }, c),
        (Some((c, _)), Some(_)) => {
            let (h, l) = (&history.colours[higher], &history.colours[lower]);
            match h.iter().rev().zip(l.iter().rev()).find(|(x, y)| x != y) {
                Some((&x, _)) => gets(higher, x.opponent()),
                None => gets(higher, c),
            }
        }
    }
}
