//! The depth-first AND/OR search: one thread of the solver, on a table shared with the others.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use konane_core::{Bits, Move, Position};

use super::numbers::{Numbers, ProofNumberSearch};
use super::progress::{TREE_PLIES, TreeProgress};
use super::sharing::{InProgress, SHARED_PLIES};
use super::table::{BoardKey, Keying, Proof, ProofTable, Slot};

/// A solve that stopped before its budget ran out with a proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unfinished;

/// One thread of the solver.
pub struct Solver<'a> {
    pub(super) table: &'a ProofTable,
    pub(super) stop: &'a AtomicBool,
    pub(super) node_limit: u64,
    pub(super) nodes: u64,
    pub(super) progress: Option<&'a AtomicU64>,
    pub(super) tree: Option<&'a TreeProgress>,
    pub(super) board: Option<BoardKey>,
    pub(super) root_best: Option<Move>,
    pub(super) root_offset: usize,
    pub(super) in_progress: Option<&'a InProgress>,
    pub(super) lists: Vec<Vec<Child>>,
    /// Set when the solve turns to proof numbers once the depth-first search finds it hard.
    pub(super) numbers: Option<Numbers>,
    /// How many times each move (from, to; indices mod 64) has been a node's winning move:
    /// the move order's last tie-break. A move that refutes here tends to refute in the
    /// positions around, which differ from this one in a few distant stones.
    pub(super) history: Vec<u32>,
}

/// A move of the node being searched, with its rank in the move order and, for an enhanced
/// transposition cutoff, the tag and bucket words of the position it leads to.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) m: Move,
    pub(super) order: u64,
    pub(super) slot: Slot,
    /// Left for last: another thread was searching it when its turn came.
    deferred: bool,
}

/// Nodes between looks at the stop flag (and reports to the progress counter).
pub(super) const CHECK_EVERY: u64 = 4096;

impl<'a> Solver<'a> {
    /// A solver on a shared table; it gives up after `node_limit` nodes or when `stop` rises.
    pub fn new(table: &'a ProofTable, stop: &'a AtomicBool, node_limit: u64) -> Self {
        Solver {
            table,
            stop,
            node_limit,
            nodes: 0,
            progress: None,
            tree: None,
            board: None,
            root_best: None,
            root_offset: 0,
            in_progress: None,
            lists: Vec::new(),
            numbers: None,
            history: vec![0; 64 * 64],
        }
    }

    /// Solves depth-first for the first `search.after` nodes, then by proof numbers
    /// (df-pn), which go where the proof is cheapest instead of finishing each move before
    /// trying the next: the cure for a wrong first move near the root.
    pub fn with_proof_numbers(mut self, search: ProofNumberSearch) -> Self {
        self.numbers = Some(Numbers::new(search));
        self
    }

    /// Starts the root's moves at the `offset`-th in the move order (wrapping round), so that
    /// threads solving one position on a shared table begin on different moves. Where every
    /// move must be refuted, the threads split the refutations between them; where a move
    /// wins, the one that finds it first stores the proof and the others meet it in the table.
    pub fn with_root_offset(mut self, offset: usize) -> Self {
        self.root_offset = offset;
        self
    }

    /// Shares `in_progress` with the other threads solving on this table: each marks the
    /// nodes of its first plies there, and leaves for last the moves another thread is in.
    pub fn with_in_progress(mut self, in_progress: &'a InProgress) -> Self {
        self.in_progress = Some(in_progress);
        self
    }

    /// Adds the nodes visited to `counter` as the solve goes, for a progress display.
    pub fn with_progress(mut self, counter: &'a AtomicU64) -> Self {
        self.progress = Some(counter);
        self
    }

    /// Shows in `tree` which moves of the first plies are being searched, for an estimate
    /// of how far the solve has got.
    pub fn with_tree_progress(mut self, tree: &'a TreeProgress) -> Self {
        self.tree = Some(tree);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// How this solver's positions are keyed in the table (after the first solve).
    pub fn keying(&self) -> Option<Keying> {
        self.board.map(|b| b.keying())
    }

    /// Proves whether the side to move wins, and how.
    pub fn solve<B: Bits>(&mut self, pos: &Position<B>) -> Result<Proof, Unfinished> {
        let board = self.table.board_key(pos);
        self.board = Some(board);
        let mut p = *pos;
        self.root_best = None;
        let slot = self.table.slot(&board, &p);
        let win = if self.numbers.is_some() {
            self.prove_by_numbers(&mut p, &board, slot)?
        } else {
            self.wins(&mut p, &board, slot, 0)?
        };
        Ok(Proof {
            win,
            best: self.root_best.filter(|_| win),
        })
    }

    /// True when the side to move wins with perfect play.
    pub(super) fn wins<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        slot: Slot,
        ply: usize,
    ) -> Result<bool, Unfinished> {
        self.count_node()?;
        if let Some(p) = self.table.lookup(slot) {
            if ply == 0 {
                self.root_best = p.best;
            }
            return Ok(p.win);
        }
        let start_nodes = self.nodes;
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let mut winning = None;
        for m in pos.moves() {
            pos.make(m);
            let replies = pos.count_moves();
            if replies == 0 {
                pos.unmake(m);
                winning = Some(m);
                break;
            }
            let order = self.move_order(pos, m, replies);
            let slot = self.table.slot(board, pos);
            pos.unmake(m);
            list.push(Child {
                m,
                order,
                slot,
                deferred: false,
            });
        }
        if winning.is_none() {
            // Enhanced transposition cutoff at every node: a child proven lost for the
            // opponent wins at once, one proven won for the opponent needs no search. The
            // entries are read in a pass of their own, after all children are generated, so
            // that their cache misses overlap instead of stalling one after another (1.5x
            // faster than probing each child as it is made).
            list.retain(|c| match self.table.lookup(c.slot) {
                Some(p) => {
                    if !p.win && winning.is_none() {
                        winning = Some(c.m);
                    }
                    false
                }
                None => true,
            });
        }
        if winning.is_none() {
            // Fewest replies first: forcing moves end the game, or the proof, soonest.
            list.sort_unstable_by_key(|c| c.order);
            if ply == 0 && !list.is_empty() {
                let by = self.root_offset % list.len();
                list.rotate_left(by);
            }
            let shared = self.in_progress.filter(|_| ply < SHARED_PLIES);
            if let Some(s) = shared {
                s.enter(slot);
            }
            let found = self.first_win(pos, board, &mut list, ply);
            if let Some(s) = shared {
                s.leave(slot);
            }
            match found {
                Ok(m) => winning = m,
                Err(e) => {
                    self.lists[ply] = list;
                    return Err(e);
                }
            }
        }
        self.lists[ply] = list;
        Ok(self.record(slot, ply, winning, self.nodes - start_nodes + 1))
    }

    /// Records a node's result, a win by `winning` or a loss, that took `nodes` nodes: in
    /// the table, the history, and at the root the root's move; true for a win.
    pub(super) fn record(
        &mut self,
        slot: Slot,
        ply: usize,
        winning: Option<Move>,
        nodes: u64,
    ) -> bool {
        if let Some(m) = winning {
            // One count a win, whatever the proof cost: weighting by its nodes cut 5x6 and
            // 6x6 by a quarter but cost 6x7 nodes (docs/solved.md).
            let won = &mut self.history[history_index(m)];
            *won = won.saturating_add(1);
        }
        if ply == 0 {
            // The root's move is kept here: the table may have no room for the root's proof.
            self.root_best = winning;
        }
        let proof = Proof {
            win: winning.is_some(),
            best: winning,
        };
        self.table.store_slot(slot, proof, nodes);
        proof.win
    }

    /// Counts a node, and gives up when the budget is spent or the stop flag rises.
    pub(super) fn count_node(&mut self) -> Result<(), Unfinished> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(p) = self.progress {
                p.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) {
                return Err(Unfinished);
            }
        }
        if self.nodes > self.node_limit {
            return Err(Unfinished);
        }
        Ok(())
    }

    /// Where move `m`, just made in `pos`, leaving the opponent `replies` moves, goes in
    /// the move order (smaller first): fewest replies first; among equals, the most moves
    /// left for us, then the move that has won most often.
    pub(super) fn move_order<B: Bits>(&self, pos: &Position<B>, m: Move, replies: u32) -> u64 {
        let ours = pos.mobility(pos.turn().opponent());
        let won = self.history[history_index(m)];
        u64::from(replies) << 40 | u64::from(255 - ours.min(255)) << 32 | u64::from(u32::MAX - won)
    }

    /// The first of the node's moves (in `list`'s order) after which the opponent loses.
    /// Sharing the search with other threads, a move another thread is in is left for last
    /// (never the first move: every thread starts where the proof most likely is), and is
    /// looked up again when its turn comes round, since that thread may have proven it.
    fn first_win<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        list: &mut [Child],
        ply: usize,
    ) -> Result<Option<Move>, Unfinished> {
        let shared = self.in_progress.filter(|_| ply + 1 < SHARED_PLIES);
        for i in 0..list.len() {
            if i > 0 && shared.is_some_and(|s| s.busy(list[i].slot)) {
                list[i].deferred = true;
                continue;
            }
            if self.loses_after(pos, board, list, i, ply)? {
                return Ok(Some(list[i].m));
            }
        }
        for i in 0..list.len() {
            if !list[i].deferred {
                continue;
            }
            if let Some(p) = self.table.lookup(list[i].slot) {
                if !p.win {
                    return Ok(Some(list[i].m));
                }
                continue;
            }
            if self.loses_after(pos, board, list, i, ply)? {
                return Ok(Some(list[i].m));
            }
        }
        Ok(None)
    }

    /// True when the opponent loses after the node's `i`-th move.
    fn loses_after<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        list: &[Child],
        i: usize,
        ply: usize,
    ) -> Result<bool, Unfinished> {
        if ply < TREE_PLIES
            && let Some(tree) = self.tree
        {
            tree.enter(ply, i, list.len());
        }
        let Child { m, slot, .. } = list[i];
        pos.make(m);
        let reply_wins = self.wins(pos, board, slot, ply + 1);
        pos.unmake(m);
        Ok(!reply_wins?)
    }
}

/// A move's entry in [`Solver`]'s history (boards past 64 squares share entries, which
/// costs only order).
fn history_index(m: Move) -> usize {
    (m.from().index() % 64) * 64 + m.to().index() % 64
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use konane_core::Opening;

    use super::*;

    /// A third of the marks raised, as if other threads were in those positions: each node
    /// searches its first move, then the unmarked ones, then the marked ones (looking each up
    /// again first), and still proves what a solver alone proves at every position of some
    /// 5x6 games, with a winning move that wins.
    #[test]
    fn leaving_busy_moves_for_last_proves_the_same() {
        use konane_core::{Game, Size, with_position};
        let busy = InProgress::default();
        for mark in busy.marks.iter().step_by(3) {
            mark.store(1, Ordering::Relaxed);
        }
        let stop = AtomicBool::new(false);
        let mut seed = 7u64;
        let mut deferred_order_differs = false;
        for _ in 0..6 {
            let mut game = Game::new(Size::new(5, 6).unwrap(), Opening::CenterOrCorner);
            while !game.position().legal_moves().is_empty() {
                let pos = *game.position();
                let plain_table = ProofTable::new(4);
                let mut plain = Solver::new(&plain_table, &stop, u64::MAX);
                let expected = with_position!(pos, p => plain.solve(&p)).unwrap();
                let table = ProofTable::new(4);
                let mut solver = Solver::new(&table, &stop, u64::MAX).with_in_progress(&busy);
                let proof = with_position!(pos, p => solver.solve(&p)).unwrap();
                assert_eq!(proof.win, expected.win, "{pos}");
                deferred_order_differs |= solver.nodes() != plain.nodes();
                if let Some(best) = proof.best {
                    let mut after = pos;
                    after.play(best).unwrap();
                    let mut check = Solver::new(&plain_table, &stop, u64::MAX);
                    let reply = with_position!(after, p => check.solve(&p)).unwrap();
                    assert!(!reply.win, "{} does not win in {pos}", pos.move_text(best));
                }
                let moves = game.position().legal_moves();
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                game.play(moves[(seed >> 33) as usize % moves.len()])
                    .unwrap();
            }
        }
        assert!(deferred_order_differs, "the marks changed no search");
    }
}
