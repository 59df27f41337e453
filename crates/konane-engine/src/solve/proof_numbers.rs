//! Depth-first proof-number search (df-pn, Nagai 2002) for the positions the depth-first
//! solver finds hard.
//!
//! The depth-first search finishes a move before it looks at the next, so a wrong first
//! move near the root costs its whole subtree. Proof numbers count, for each node, how many
//! leaves at least must still be proven (φ: the side to move wins) or disproven (δ: it
//! loses), and the search always goes down the move whose proof looks cheapest, with
//! thresholds that send it back up when a sibling becomes cheaper. Nagai's negamax form: a
//! node's φ is the least δ of its children, its δ the sum of their φ. Each new leaf first
//! gets a small depth-first solve (which settles most of them at once and fills the shared
//! [`ProofTable`](super::ProofTable)); the ones left open start at φ = 1 and δ = their move
//! count. Every proof goes into the proof table, the numbers of open nodes into a table of
//! this solver's own that is allocated only when a solve first turns to proof numbers.

use std::sync::atomic::Ordering;

use konane_core::{Bits, Move, Position};

use super::numbers::INF;
use super::progress::TREE_PLIES;
use super::search::{Solver, Unfinished};
use super::table::{BoardKey, Slot};

/// The numbers of a settled node: won for the side to move, or lost.
fn settled(win: bool) -> (u64, u64) {
    if win { (0, INF) } else { (INF, 0) }
}

/// One move of a node in the search, with the numbers of the position it leads to.
#[derive(Clone, Copy)]
struct Numbered {
    m: Move,
    order: u64,
    slot: Slot,
    phi: u64,
    delta: u64,
}

impl Solver<'_> {
    /// True when the side to move wins: depth-first for the search's first nodes, then by
    /// proof numbers from the root.
    pub(super) fn prove_by_numbers<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        slot: Slot,
    ) -> Result<bool, Unfinished> {
        if let Some(p) = self.table.lookup(slot) {
            self.root_best = p.best;
            return Ok(p.win);
        }
        let search = self
            .numbers
            .as_ref()
            .map_or_else(Default::default, |n| n.search);
        if let Some(win) = self.wins_within(pos, board, slot, 0, search.after)? {
            return Ok(win);
        }
        if let Some(n) = self.numbers.as_mut()
            && n.entries.is_empty()
        {
            n.allocate();
        }
        // Numbers of an open node stay below INF, so with no limits the root comes back
        // settled.
        let (phi, _) = self.expand(pos, board, slot, 0, INF, INF)?;
        Ok(phi == 0)
    }

    /// Searches the node until its φ reaches `max_phi` or its δ reaches `max_delta` (or it
    /// is settled), and gives its numbers.
    fn expand<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        slot: Slot,
        ply: usize,
        max_phi: u64,
        max_delta: u64,
    ) -> Result<(u64, u64), Unfinished> {
        self.count_node()?;
        let start_nodes = self.nodes;
        let before = self
            .numbers
            .as_ref()
            .and_then(|n| n.get(slot))
            .map_or(0, |(_, _, work)| work);
        let mut children = Vec::new();
        for m in pos.moves() {
            pos.make(m);
            let replies = pos.count_moves();
            let child = Numbered {
                m,
                order: self.move_order(pos, m, replies),
                slot: self.table.slot(board, pos),
                phi: 1,
                delta: u64::from(replies),
            };
            pos.unmake(m);
            if replies == 0 {
                return Ok(self.settle(slot, ply, Some(m), 1));
            }
            children.push(child);
        }
        children.sort_unstable_by_key(|c| c.order);
        for c in children.iter_mut() {
            (c.phi, c.delta) = self.numbers_of(pos, board, *c, ply)?;
            if c.delta == 0 {
                let work = before + self.nodes - start_nodes;
                return Ok(self.settle(slot, ply, Some(c.m), work));
            }
        }
        loop {
            // φ is the least δ of the children, δ the sum of their φ.
            let (mut best, mut second, mut sum) = (0, INF, 0u64);
            for (i, c) in children.iter().enumerate() {
                if c.delta < children[best].delta {
                    second = children[best].delta;
                    best = i;
                } else if i != best && c.delta < second {
                    second = c.delta;
                }
                sum = sum.saturating_add(c.phi);
            }
            let work = before + self.nodes - start_nodes;
            let phi = children.get(best).map_or(INF, |c| c.delta);
            if phi == 0 {
                return Ok(self.settle(slot, ply, Some(children[best].m), work));
            }
            if sum == 0 {
                return Ok(self.settle(slot, ply, None, work));
            }
            let delta = sum.min(INF - 1);
            if ply < TREE_PLIES
                && let Some(tree) = self.tree
            {
                // A node that looks lost is done when every move is refuted: its refuted
                // moves are its share done. One that looks won needs one move proven, and
                // has done as much as the move searched now.
                if phi < delta {
                    tree.enter(ply, 0, 1);
                } else {
                    let refuted = children.iter().filter(|c| c.phi == 0).count();
                    tree.enter(ply, refuted, children.len());
                }
            }
            if phi >= max_phi || delta >= max_delta {
                if let Some(n) = self.numbers.as_mut() {
                    n.put(slot, phi, delta, work);
                }
                return Ok((phi, delta));
            }
            let c = children[best];
            // The child may grow its φ until this node's δ reaches its limit, and its δ
            // until this node's φ does or a sibling becomes cheaper to prove.
            let child_max_phi = (max_delta - delta).saturating_add(c.phi).min(INF);
            let child_max_delta = max_phi.min(second.saturating_add(1)).min(INF);
            pos.make(c.m);
            let found = self.expand(pos, board, c.slot, ply + 1, child_max_phi, child_max_delta);
            pos.unmake(c.m);
            (children[best].phi, children[best].delta) = found?;
            // Another thread may have proven a sibling meanwhile.
            for c in children.iter_mut().filter(|c| c.phi != 0 && c.delta != 0) {
                if let Some(p) = self.table.lookup(c.slot) {
                    (c.phi, c.delta) = settled(p.win);
                }
            }
        }
    }

    /// A child's numbers: proven, remembered, or from a small depth-first solve.
    fn numbers_of<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        child: Numbered,
        ply: usize,
    ) -> Result<(u64, u64), Unfinished> {
        if let Some(p) = self.table.lookup(child.slot) {
            return Ok(settled(p.win));
        }
        if let Some((phi, delta, _)) = self.numbers.as_ref().and_then(|n| n.get(child.slot)) {
            return Ok((phi, delta));
        }
        let leaf = self.numbers.as_ref().map_or(0, |n| n.search.leaf);
        // The leaf's solve runs deeper than the plies the progress display follows.
        let tree = self.tree.take();
        pos.make(child.m);
        let found = self.wins_within(pos, board, child.slot, ply + 1, leaf);
        pos.unmake(child.m);
        self.tree = tree;
        match found? {
            Some(win) => Ok(settled(win)),
            None => {
                if let Some(n) = self.numbers.as_mut() {
                    n.put(child.slot, child.phi, child.delta, leaf);
                }
                Ok((child.phi, child.delta))
            }
        }
    }

    /// Stores the node's proof (a win with `best`, or a loss) and gives its numbers.
    fn settle(&mut self, slot: Slot, ply: usize, best: Option<Move>, work: u64) -> (u64, u64) {
        settled(self.record(slot, ply, best, work.max(1)))
    }

    /// Solves depth-first within `budget` more nodes: the result, or `None` when the budget
    /// ran out first (`Unfinished` only for the solve's own limit or stop flag).
    fn wins_within<B: Bits>(
        &mut self,
        pos: &mut Position<B>,
        board: &BoardKey,
        slot: Slot,
        ply: usize,
        budget: u64,
    ) -> Result<Option<bool>, Unfinished> {
        let limit = self.node_limit;
        self.node_limit = limit.min(self.nodes.saturating_add(budget));
        let found = self.wins(pos, board, slot, ply);
        self.node_limit = limit;
        match found {
            Ok(win) => Ok(Some(win)),
            Err(Unfinished) if self.nodes <= limit && !self.stop.load(Ordering::Relaxed) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}
