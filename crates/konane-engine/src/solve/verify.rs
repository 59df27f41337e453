//! Reading proofs back: the line a proof follows, and a result proven again on another table.

use std::sync::atomic::AtomicBool;

use konane_core::{Bits, Move, Position};

use super::search::{Solver, Unfinished};
use super::table::{Proof, ProofTable};

/// A line that follows the proof from `pos`: the winner's moves come from the table, the
/// loser's replies are its first legal moves, until the game ends or the table runs dry.
pub fn proven_line<B: Bits>(table: &ProofTable, pos: &Position<B>) -> Vec<Move> {
    let board = table.board_key(pos);
    let mut p = *pos;
    let mut line = Vec::new();
    while line.len() < crate::search::MAX_PLY {
        let next = match table.probe_with(&board, &p) {
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

/// Why a result did not survive its re-check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecheckError {
    /// The re-check ran out of nodes or was stopped.
    Unfinished,
    /// The re-check proved the other result.
    Disagrees,
    /// A win was claimed without a winning move, or with an illegal one.
    NoLegalWinningMove,
}

impl std::fmt::Display for RecheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecheckError::Unfinished => "the re-check did not finish",
            RecheckError::Disagrees => "the re-check proved the other result",
            RecheckError::NoLegalWinningMove => "the claimed win has no legal winning move",
        })
    }
}

impl std::error::Error for RecheckError {}

/// Proves `claimed` about `pos` again on `table`, which must not be the table that found
/// it (a fresh one, or one keyed differently), so that no entry of the first run can vouch
/// for itself: a win by showing that its move is legal (the core's own check) and leaves
/// the opponent lost, a loss by solving it again.
pub fn recheck<B: Bits>(
    pos: &Position<B>,
    claimed: Proof,
    table: &ProofTable,
    stop: &AtomicBool,
    node_limit: u64,
) -> Result<(), RecheckError> {
    let mut solver = Solver::new(table, stop, node_limit);
    // Either way a position must turn out lost: the one after the winning move, or this one.
    let mut lost = *pos;
    if claimed.win {
        let best = claimed.best.ok_or(RecheckError::NoLegalWinningMove)?;
        if pos.check(best).is_err() {
            return Err(RecheckError::NoLegalWinningMove);
        }
        lost.make(best);
    }
    match solver.solve(&lost) {
        Err(Unfinished) => Err(RecheckError::Unfinished),
        Ok(p) if p.win => Err(RecheckError::Disagrees),
        Ok(_) => Ok(()),
    }
}
