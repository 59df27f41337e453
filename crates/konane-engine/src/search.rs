//! The heuristic search: iterative deepening, principal-variation alpha-beta, a shared
//! transposition table, killer and history move ordering, and Lazy SMP across threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use konane_core::{Bits, Move, Position};

use crate::clock::Clock;
use crate::eval::{Weights, evaluate};
use crate::score::{INFINITY, WIN, from_table, plies_to_end, to_table};
use crate::tt::{Bound, Entry, Table};

/// No game is longer than the number of squares, so no search is deeper.
pub const MAX_PLY: usize = 260;

/// When to stop thinking. With none set, the search runs to [`MAX_PLY`] or a proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes, across all threads.
    pub nodes: Option<u64>,
    /// Milliseconds of thinking.
    pub time_ms: Option<u64>,
}

/// What a search found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no move.
    pub best: Option<Move>,
    /// The score for the side to move (see [`crate::score`]).
    pub score: i32,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Move>,
    /// The last completed iteration.
    pub depth: u32,
    /// Nodes searched, across all threads.
    pub nodes: u64,
    /// Milliseconds spent.
    pub elapsed_ms: u64,
    /// True when the exact solver proved the score (a win, with `pv` one winning line).
    pub proof: bool,
}

/// What every search thread shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub table: &'a Table,
    /// Evaluation weights.
    pub weights: &'a Weights,
    /// Raised to stop every thread.
    pub stop: &'a AtomicBool,
    /// Nodes searched by all threads, updated in batches.
    pub nodes: &'a AtomicU64,
    /// The time source.
    pub clock: &'a dyn Clock,
    /// The limits of this search.
    pub limits: Limits,
}

/// When a search with `budget_ms` must stop: a tenth is kept back for unwinding, the
/// reply, and a busy machine, so the budget holds as a cap.
fn hard_stop(budget_ms: u64) -> u64 {
    budget_ms - budget_ms / 10
}

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// One search thread's private state.
pub(crate) struct Searcher<'a, B> {
    shared: &'a Shared<'a>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    lists: Vec<Vec<(Move, i32)>>,
    nodes: u64,
    unreported: u64,
    stopped: bool,
    root_best: Option<Move>,
    _bits: core::marker::PhantomData<B>,
}

impl<'a, B: Bits> Searcher<'a, B> {
    pub(crate) fn new(shared: &'a Shared<'a>) -> Self {
        Searcher {
            shared,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 256 * 256],
            lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            unreported: 0,
            stopped: false,
            root_best: None,
            _bits: core::marker::PhantomData,
        }
    }

    fn check_limits(&mut self) {
        let total = self
            .shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed)
            + self.unreported;
        self.unreported = 0;
        let limits = &self.shared.limits;
        let out_of_nodes = limits.nodes.is_some_and(|n| total >= n);
        let out_of_time = limits
            .time_ms
            .is_some_and(|t| self.shared.clock.elapsed_ms() >= hard_stop(t));
        if out_of_nodes || out_of_time {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        self.stopped = self.shared.stop.load(Ordering::Relaxed);
    }

    /// Alpha-beta with principal-variation windows; the score is for the side to move.
    /// Kept whole because it is the search's hot path, one node's steps in their order (table
    /// cut, move loop, store), which a reader checks against the textbook in one place.
    pub(crate) fn negamax(
        &mut self,
        pos: &mut Position<B>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_EVERY {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        let key = pos.hash();
        let mut hash_move = None;
        if let Some(e) = self.shared.table.probe(key) {
            hash_move = e.best.filter(|&m| pos.is_legal(m));
            if ply > 0 && e.depth >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            if !pos.has_moves() {
                return -(WIN - ply as i32);
            }
            return evaluate(pos, self.shared.weights);
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let killers = self.killers[ply];
        for m in pos.moves() {
            let order = if Some(m) == hash_move {
                1 << 30
            } else if Some(m) == killers[0] {
                1 << 29
            } else if Some(m) == killers[1] {
                (1 << 29) - 1
            } else {
                self.history[history_index(m)]
            };
            list.push((m, order));
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return -(WIN - ply as i32);
        }

        let alpha_in = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..list.len() {
            // Selection sort, one step at a time: most nodes cut off after a move or two.
            let pick = (i..list.len()).max_by_key(|&j| list[j].1).unwrap_or(i);
            list.swap(i, pick);
            let m = list[i].0;
            pos.make(m);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            pos.unmake(m);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if self.killers[ply][0] != Some(m) {
                            self.killers[ply] = [Some(m), self.killers[ply][0]];
                        }
                        let h = &mut self.history[history_index(m)];
                        *h = (*h + depth * depth).min(1 << 28);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        if ply == 0 {
            self.root_best = best_move;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.table.store(
            key,
            Entry {
                score: to_table(best, ply),
                depth,
                bound,
                best: best_move,
            },
        );
        best
    }

    /// Iterative deepening from `start_depth`; `report` hears of each completed iteration.
    pub(crate) fn iterate(
        &mut self,
        root: &Position<B>,
        start_depth: u32,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let mut pos = *root;
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32)
            .clamp(1, MAX_PLY as u32);
        let mut result = SearchResult {
            best: pos.moves().next(),
            score: if pos.has_moves() { 0 } else { -WIN },
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed_ms: 0,
            proof: false,
        };
        if result.best.is_none() {
            return result;
        }
        for depth in start_depth.min(max_depth)..=max_depth {
            let score = self.negamax(&mut pos, depth as i32, -INFINITY, INFINITY, 0);
            if self.stopped {
                break;
            }
            result.best = self.root_best.or(result.best);
            result.score = score;
            result.depth = depth;
            result.pv = principal_variation(self.shared.table, root, depth as usize);
            result.nodes = self.shared.nodes.load(Ordering::Relaxed) + self.unreported;
            result.elapsed_ms = self.shared.clock.elapsed_ms();
            report(&result);
            // A proven result that the search saw to its end cannot change any more.
            if plies_to_end(score).is_some_and(|p| p <= depth as i32) {
                break;
            }
            // Another iteration costs several times this one: do not start what cannot end.
            if let Some(t) = limits.time_ms
                && result.elapsed_ms * 2 > t
            {
                break;
            }
        }
        self.check_limits();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result.elapsed_ms = self.shared.clock.elapsed_ms();
        result
    }

    /// Each root move with its score from a full-window search `depth - 1` plies deeper.
    pub(crate) fn score_root_moves(&mut self, root: &Position<B>, depth: u32) -> Vec<(Move, i32)> {
        let mut pos = *root;
        let moves: Vec<Move> = pos.moves().collect();
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            pos.make(m);
            let s = -self.negamax(&mut pos, depth as i32 - 1, -INFINITY, INFINITY, 1);
            pos.unmake(m);
            if self.stopped {
                break;
            }
            out.push((m, s));
        }
        out
    }
}

fn history_index(m: Move) -> usize {
    m.from().index() << 8 | m.to().index()
}

/// The line of best moves stored in the table, from `root`.
pub(crate) fn principal_variation<B: Bits>(
    table: &Table,
    root: &Position<B>,
    max: usize,
) -> Vec<Move> {
    let mut pos = *root;
    let mut pv = Vec::new();
    while pv.len() < max.max(1) {
        let Some(m) = table.probe(pos.hash()).and_then(|e| e.best) else {
            break;
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.make(m);
        pv.push(m);
    }
    pv
}

/// Searches `root` within `shared.limits` on `threads` threads (Lazy SMP: every thread runs
/// the same iterative deepening on the shared table, the helpers one ply deeper in turn, so
/// they fill the table with results the main thread then finds).
pub fn search<B: Bits>(
    root: &Position<B>,
    shared: &Shared<'_>,
    threads: usize,
    report: &mut dyn FnMut(&SearchResult),
) -> SearchResult {
    shared.table.new_search();
    #[cfg(feature = "parallel")]
    if threads > 1 {
        return std::thread::scope(|s| {
            for t in 1..threads {
                s.spawn(move || {
                    let mut helper = Searcher::<B>::new(shared);
                    helper.iterate(root, 1 + (t as u32 % 2), &mut |_| {});
                });
            }
            let mut main = Searcher::<B>::new(shared);
            let result = main.iterate(root, 1, report);
            shared.stop.store(true, Ordering::Relaxed);
            result
        });
    }
    let _ = threads;
    Searcher::<B>::new(shared).iterate(root, 1, report)
}
