//! Verifying a puzzle: all of it proven again, its themes and decoys computed again.

use core::fmt;
use std::sync::atomic::AtomicBool;

use konane_core::{Bits, Move, Phase, Position, with_position};

use super::find::{captures, decoys_of, prove_turn, themes_of};
use super::text::{Puzzle, PuzzleId, Theme};
use crate::solve::{ProofTable, Solver};

/// Why a stored puzzle is not what it claims.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum VerifyError {
    /// The id is not the position's.
    Id,
    /// The position is not in the jumping phase.
    Phase,
    /// Neither three legal moves nor a tempting wrong one.
    TooFewMoves,
    /// A move of the line is not legal where it is played.
    Illegal {
        /// Its index in the line.
        index: usize,
    },
    /// At `step`, the player has not exactly the one winning move the line gives.
    NotUnique {
        /// The player's step, from 0.
        step: usize,
        /// How many moves win there.
        winners: usize,
    },
    /// A step's refutations do not list every other legal move once, each with a legal
    /// answer that wins.
    Refutation {
        /// The player's step, from 0.
        step: usize,
    },
    /// The themes are not the computed ones.
    Themes {
        /// What the position shows.
        computed: Vec<Theme>,
    },
    /// The decoy count is not the computed one.
    Decoys {
        /// What the shallow search gives.
        computed: u32,
    },
    /// The solver ran out of nodes.
    Unfinished,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Id => write!(f, "the id is not the position's"),
            VerifyError::Phase => write!(f, "the position is not in the jumping phase"),
            VerifyError::TooFewMoves => {
                write!(f, "fewer than three moves and no tempting wrong one")
            }
            VerifyError::Illegal { index } => {
                write!(f, "move {} of the line is illegal", index + 1)
            }
            VerifyError::NotUnique { step, winners } => {
                write!(f, "step {}: {winners} moves win, not one", step + 1)
            }
            VerifyError::Refutation { step } => {
                write!(f, "step {}: the refutations are wrong or missing", step + 1)
            }
            VerifyError::Themes { computed } => {
                let names: Vec<&str> = computed.iter().map(|t| t.name()).collect();
                write!(f, "the themes should be [{}]", names.join(","))
            }
            VerifyError::Decoys { computed } => write!(f, "the decoys should be {computed}"),
            VerifyError::Unfinished => write!(f, "not proven within the node budget"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Proves again everything `puzzle` claims: the id, exactly one winning move at every step
/// of a legal line, every refutation legal and winning, the themes and the decoys.
pub fn verify(puzzle: &Puzzle, table: &ProofTable, node_budget: u64) -> Result<(), VerifyError> {
    if PuzzleId::of(&puzzle.position) != puzzle.id {
        return Err(VerifyError::Id);
    }
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(table, &stop, node_budget);
    with_position!(&puzzle.position, p => verify_on(&mut solver, p, puzzle))
}

fn verify_on<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    puzzle: &Puzzle,
) -> Result<(), VerifyError> {
    if pos.phase() != Phase::Jumping {
        return Err(VerifyError::Phase);
    }
    let size = pos.size();
    let moves: Vec<Move> = pos.moves().collect();
    let solution = puzzle.line[0];
    let tempting = moves
        .iter()
        .any(|&m| captures(m, size) > captures(solution, size));
    if moves.len() < 3 && !tempting {
        return Err(VerifyError::TooFewMoves);
    }
    let unfinished = |_| VerifyError::Unfinished;
    let mut p = *pos;
    for (index, &m) in puzzle.line.iter().enumerate() {
        if !p.is_legal(m) {
            return Err(VerifyError::Illegal { index });
        }
        if index % 2 == 0 {
            let step = index / 2;
            let turn = prove_turn(solver, &p, usize::MAX).map_err(unfinished)?;
            if turn.winners != [m] {
                return Err(VerifyError::NotUnique {
                    step,
                    winners: turn.winners.len(),
                });
            }
            check_refutations(solver, &p, m, &puzzle.refutations[step])
                .map_err(|e| e.unwrap_or(VerifyError::Refutation { step }))?;
        }
        p.make(m);
    }
    let computed = themes_of(pos, solution);
    if computed != puzzle.themes {
        return Err(VerifyError::Themes { computed });
    }
    let computed = decoys_of(pos, solution);
    if computed != puzzle.decoys {
        return Err(VerifyError::Decoys { computed });
    }
    Ok(())
}

/// Checks that `given` pairs every legal move but `solution` once with an answer that is
/// legal and leaves the player lost; `Err(None)` when it does not, `Err(Some)` when the
/// solver ran out.
fn check_refutations<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    solution: Move,
    given: &[(Move, Move)],
) -> Result<(), Option<VerifyError>> {
    let mut wrong: Vec<Move> = pos.moves().filter(|&m| m != solution).collect();
    let mut listed: Vec<Move> = given.iter().map(|&(w, _)| w).collect();
    wrong.sort_by_key(|m| (m.from().index(), m.to().index()));
    listed.sort_by_key(|m| (m.from().index(), m.to().index()));
    if wrong != listed {
        return Err(None);
    }
    for &(w, answer) in given {
        let mut q = *pos;
        q.make(w);
        if !q.is_legal(answer) {
            return Err(None);
        }
        q.make(answer);
        if solver
            .solve(&q)
            .map_err(|_| Some(VerifyError::Unfinished))?
            .win
        {
            return Err(None);
        }
    }
    Ok(())
}
