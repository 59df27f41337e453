//! The exact solver: who wins with perfect play, and with which move.
//!
//! A depth-first AND/OR search on win/loss only (no scores, so every cut is as early as can
//! be), with a compact lock-free table of proven positions shared by all threads, moves
//! ordered by how few replies they leave, and an enhanced transposition cutoff (a move into
//! a position the table already knows as lost for the opponent wins at once).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use konane_core::{Bits, Move, Position};

use crate::tt::{pack_move, unpack_move};

/// Proven positions, 8 bytes each: 40 bits of key, 6 bits of work (log2 of the nodes the
/// proof took, to keep expensive proofs when two collide), a win bit, 17 bits of move.
pub struct ProofTable {
    slots: Box<[AtomicU64]>,
}

/// A proven result from the table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Proof {
    /// True when the side to move wins.
    pub win: bool,
    /// For a win, the winning move.
    pub best: Option<Move>,
}

impl ProofTable {
    /// A table of at most `megabytes` MiB (a power of two number of slots, at least 1024).
    pub fn new(megabytes: usize) -> ProofTable {
        let wanted = (megabytes.max(1) << 20) / 8;
        let n = (wanted.max(1024) + 1).next_power_of_two() / 2;
        ProofTable {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Two slots per key: the key's own and its neighbour.
    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1) & !1
    }

    fn check(key: u64) -> u64 {
        key >> 24
    }

    /// What is proven about `key`.
    pub fn probe(&self, key: u64) -> Option<Proof> {
        let i = self.index(key);
        for slot in &self.slots[i..i + 2] {
            let v = slot.load(Ordering::Relaxed);
            if v != 0 && v >> 24 == Self::check(key) {
                return Some(Proof {
                    win: v >> 17 & 1 == 1,
                    best: unpack_move(v & 0x1_ffff),
                });
            }
        }
        None
    }

    /// Stores a proof that took `nodes` nodes, over the cheaper of the two slots.
    pub fn store(&self, key: u64, proof: Proof, nodes: u64) {
        let work = u64::from(64 - nodes.leading_zeros()).min(63);
        let value = Self::check(key) << 24
            | work << 18
            | u64::from(proof.win) << 17
            | pack_move(proof.best);
        let i = self.index(key);
        let (a, b) = (
            self.slots[i].load(Ordering::Relaxed),
            self.slots[i + 1].load(Ordering::Relaxed),
        );
        let work_of = |v: u64| (v >> 18) & 63;
        let target = if a == 0 || a >> 24 == Self::check(key) {
            i
        } else if b == 0 || b >> 24 == Self::check(key) || work_of(b) <= work_of(a) {
            i + 1
        } else {
            i
        };
        let old = self.slots[target].load(Ordering::Relaxed);
        if old == 0 || old >> 24 == Self::check(key) || work_of(old) <= work + 1 {
            self.slots[target].store(value, Ordering::Relaxed);
        }
    }
}

/// A solve that stopped before its budget ran out with a proof.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Unfinished;

const ETC_PLIES: usize = 12;

/// One thread of the solver.
pub struct Solver<'a> {
    table: &'a ProofTable,
    stop: &'a AtomicBool,
    node_limit: u64,
    nodes: u64,
    lists: Vec<Vec<(Move, u32)>>,
}

impl<'a> Solver<'a> {
    /// A solver on a shared table; it gives up after `node_limit` nodes or when `stop` rises.
    pub fn new(table: &'a ProofTable, stop: &'a AtomicBool, node_limit: u64) -> Self {
        Solver {
            table,
            stop,
            node_limit,
            nodes: 0,
            lists: Vec::new(),
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves whether the side to move wins, and how.
    pub fn solve<B: Bits>(&mut self, pos: &Position<B>) -> Result<Proof, Unfinished> {
        let mut p = *pos;
        let win = self.wins(&mut p, 0)?;
        let best = if win {
            self.table.probe(pos.hash()).and_then(|e| e.best)
        } else {
            None
        };
        Ok(Proof { win, best })
    }

    /// True when the side to move wins with perfect play.
    fn wins<B: Bits>(&mut self, pos: &mut Position<B>, ply: usize) -> Result<bool, Unfinished> {
        self.nodes += 1;
        if self.nodes > self.node_limit
            || (self.nodes & 4095 == 0 && self.stop.load(Ordering::Relaxed))
        {
            return Err(Unfinished);
        }
        let key = pos.hash();
        if let Some(p) = self.table.probe(key) {
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
            // Fewest replies first; among equals, the most moves left for us.
            let ours = pos.mobility(pos.turn().opponent());
            let order = replies * 256 + 255 - ours.min(255);
            let known_loss = replies == 0
                || (ply < ETC_PLIES && self.table.probe(pos.hash()).is_some_and(|p| !p.win));
            pos.unmake(m);
            if known_loss {
                winning = Some(m);
                break;
            }
            list.push((m, order));
        }
        if winning.is_none() {
            // Fewest replies first: forcing moves end the game, or the proof, soonest.
            list.sort_unstable_by_key(|&(_, replies)| replies);
            for &(m, _) in &list {
                pos.make(m);
                let reply_wins = self.wins(pos, ply + 1);
                pos.unmake(m);
                match reply_wins {
                    Err(e) => {
                        self.lists[ply] = list;
                        return Err(e);
                    }
                    Ok(false) => {
                        winning = Some(m);
                        break;
                    }
                    Ok(true) => {}
                }
            }
        }
        self.lists[ply] = list;
        let proof = Proof {
            win: winning.is_some(),
            best: winning,
        };
        self.table.store(key, proof, self.nodes - start_nodes + 1);
        Ok(proof.win)
    }
}

/// A line that follows the proof from `pos`: the winner's moves come from the table, the
/// loser's replies are its first legal moves, until the game ends or the table runs dry.
pub fn proven_line<B: Bits>(table: &ProofTable, pos: &Position<B>) -> Vec<Move> {
    let mut p = *pos;
    let mut line = Vec::new();
    while line.len() < crate::search::MAX_PLY {
        let next = match table.probe(p.hash()) {
            Some(Proof {
                win: true,
                best: Some(m),
            }) => Some(m),
            _ => p.moves().next(),
        };
        let Some(m) = next else { break };
        if !p.is_legal(m) {
            break;
        }
        p.make(m);
        line.push(m);
    }
    line
}
