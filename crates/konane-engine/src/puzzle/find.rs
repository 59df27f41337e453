//! Finding puzzles: a position where exactly one move wins, the forced line after it, every
//! wrong move's refutation, the computed themes and the decoys a shallow search falls for.

use std::sync::atomic::{AtomicBool, AtomicU64};

use konane_core::{AnyPosition, Bits, Move, Phase, Position, with_position};

use super::text::{Puzzle, PuzzleId, Source, Theme};
use crate::Weights;
use crate::clock::Frozen;
use crate::search::{Limits, Searcher, Shared};
use crate::solve::{ProofTable, Solver, Unfinished};
use crate::tt::Table;

/// Most moves the solver (the player) makes in one puzzle's line.
pub const MAX_STEPS: usize = 4;

/// Plies of the shallow search that rates how tempting the wrong moves look.
pub const SHALLOW_DEPTH: u32 = 2;

/// What [`find`] proved about a position that is a puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Found {
    /// The forced line, as in [`Puzzle::line`].
    pub line: Vec<Move>,
    /// The refutations, as in [`Puzzle::refutations`].
    pub refutations: Vec<Vec<(Move, Move)>>,
    /// The computed themes.
    pub themes: Vec<Theme>,
    /// The decoy count.
    pub decoys: u32,
}

impl Found {
    /// The puzzle at `position`.
    pub fn into_puzzle(self, position: AnyPosition, source: Source) -> Puzzle {
        Puzzle {
            id: PuzzleId::of(&position),
            position,
            line: self.line,
            refutations: self.refutations,
            themes: self.themes,
            decoys: self.decoys,
            source,
        }
    }
}

/// One player's turn, proven: the winning moves and, for every losing one, the answer.
#[derive(Default)]
pub(super) struct Turn {
    pub(super) winners: Vec<Move>,
    pub(super) refutations: Vec<(Move, Move)>,
}

/// Proves every move of `pos`, stopping once `max_winners` winning moves are found.
pub(super) fn prove_turn<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
    max_winners: usize,
) -> Result<Turn, Unfinished> {
    let mut turn = Turn::default();
    let moves: Vec<Move> = pos.moves().collect();
    for m in moves {
        let mut child = *pos;
        child.make(m);
        let proof = solver.solve(&child)?;
        if proof.win {
            let answer = match proof.best {
                Some(a) => a,
                None => winning_move(solver, &child)?,
            };
            turn.refutations.push((m, answer));
        } else {
            turn.winners.push(m);
            if turn.winners.len() >= max_winners {
                break;
            }
        }
    }
    Ok(turn)
}

/// A winning move of a won position whose proof the table no longer holds.
fn winning_move<B: Bits>(solver: &mut Solver<'_>, pos: &Position<B>) -> Result<Move, Unfinished> {
    let moves: Vec<Move> = pos.moves().collect();
    for m in moves {
        let mut child = *pos;
        child.make(m);
        if !solver.solve(&child)?.win {
            return Ok(m);
        }
    }
    // Only reached when a proof was wrong, which the solver never gives.
    Err(Unfinished)
}

/// Whether `pos` is a puzzle: the side to move has exactly one winning move, and either at
/// least three legal moves or a tempting wrong one (one that captures more). Proofs use at
/// most `node_budget` solver nodes in all; `Err` when that was not enough.
pub fn find(
    pos: &AnyPosition,
    table: &ProofTable,
    node_budget: u64,
) -> Result<Option<Found>, Unfinished> {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(table, &stop, node_budget);
    with_position!(pos, p => find_on(&mut solver, p))
}

fn find_on<B: Bits>(
    solver: &mut Solver<'_>,
    pos: &Position<B>,
) -> Result<Option<Found>, Unfinished> {
    if pos.phase() != Phase::Jumping {
        return Ok(None);
    }
    let moves: Vec<Move> = pos.moves().collect();
    let size = pos.size();
    let most = moves.iter().map(|m| captures(*m, size)).max().unwrap_or(0);
    let least = moves.iter().map(|m| captures(*m, size)).min().unwrap_or(0);
    if moves.len() < 2 || (moves.len() == 2 && most == least) {
        return Ok(None);
    }
    if !solver.solve(pos)?.win {
        return Ok(None);
    }
    let first = prove_turn(solver, pos, 2)?;
    let [solution] = first.winners[..] else {
        return Ok(None);
    };
    if moves.len() == 2 && captures(solution, size) == most {
        return Ok(None);
    }
    let mut line = vec![solution];
    let mut refutations = vec![first.refutations];
    let mut p = *pos;
    p.make(solution);
    while line.len() < 2 * MAX_STEPS - 1 {
        let replies: Vec<Move> = p.moves().collect();
        // The toughest defence: the reply that leaves the fewest winning answers, then the
        // most moves to choose among; only a reply with one winning answer goes on.
        let mut best: Option<(Move, Turn, u32)> = None;
        for r in replies {
            let mut q = p;
            q.make(r);
            let turn = prove_turn(solver, &q, 2)?;
            let choices = q.count_moves();
            let better = best.as_ref().is_none_or(|(_, b, c)| {
                (turn.winners.len(), u32::MAX - choices) < (b.winners.len(), u32::MAX - c)
            });
            if better {
                best = Some((r, turn, choices));
            }
        }
        let Some((reply, turn, _)) = best else { break };
        let [next] = turn.winners[..] else { break };
        line.extend([reply, next]);
        refutations.push(turn.refutations);
        p.make(reply);
        p.make(next);
    }
    Ok(Some(Found {
        themes: themes_of(pos, solution),
        decoys: decoys_of(pos, solution),
        line,
        refutations,
    }))
}

/// Stones a move captures (0 for a removal).
pub(super) fn captures(m: Move, size: konane_core::Size) -> usize {
    m.jump_shape(size).map_or(0, |(_, k)| k)
}

/// The themes that are true of `pos` with `solution` as its only winning move.
pub(super) fn themes_of<B: Bits>(pos: &Position<B>, solution: Move) -> Vec<Theme> {
    let size = pos.size();
    let moves: Vec<Move> = pos.moves().collect();
    let shape = solution.jump_shape(size);
    let replies = |m: Move| {
        let mut q = *pos;
        q.make(m);
        q.count_moves()
    };
    let mut themes = Vec::new();
    let longer_same_stone = moves.iter().any(|&m| {
        m.from() == solution.from()
            && match (m.jump_shape(size), shape) {
                (Some((d, k)), Some((ds, ks))) => d == ds && k > ks,
                _ => false,
            }
    });
    if longer_same_stone {
        themes.push(Theme::StopEarly);
    }
    if moves
        .iter()
        .any(|&m| captures(m, size) > captures(solution, size))
    {
        themes.push(Theme::NoGreed);
    }
    let least_replies = moves.iter().map(|&m| replies(m)).min().unwrap_or(0);
    if replies(solution) > least_replies {
        themes.push(Theme::Tempo);
    }
    let squares = size.squares();
    let stones = (pos.stones(konane_core::Color::Black) | pos.stones(konane_core::Color::White))
        .count() as usize;
    if stones * 3 <= squares {
        themes.push(Theme::Endgame);
    }
    if (squares - stones) * 8 <= squares {
        themes.push(Theme::Opening);
    }
    themes
}

/// How many other moves a [`SHALLOW_DEPTH`]-ply search scores at least as high as `solution`.
pub(super) fn decoys_of<B: Bits>(pos: &Position<B>, solution: Move) -> u32 {
    let table = Table::new(1);
    let stop = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    let weights = Weights::default();
    let shared = Shared {
        table: &table,
        weights: &weights,
        stop: &stop,
        nodes: &nodes,
        clock: &Frozen,
        limits: Limits::default(),
    };
    let scored = Searcher::<B>::new(&shared).score_root_moves(pos, SHALLOW_DEPTH);
    let target = scored
        .iter()
        .find(|(m, _)| *m == solution)
        .map_or(i32::MIN, |&(_, s)| s);
    scored
        .iter()
        .filter(|&&(m, s)| m != solution && s >= target)
        .count() as u32
}
