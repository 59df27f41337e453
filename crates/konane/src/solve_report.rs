//! The `--json` documents of `konane solve` (docs/cli.md), and the rows its text table prints.

use konane_core::{AnyPosition, Color, Move};
use konane_engine::symmetry::{map_between, unmap_move};
use serde::Serialize;

use crate::solve::{Plan, Row};

/// The first removals of the opening table every reply to which loses for White.
pub(crate) fn winning_removals(plan: &Plan, start: &AnyPosition) -> Vec<String> {
    let mut removals: Vec<Move> = plan.rows.iter().filter_map(|r| r.removal).collect();
    removals.dedup();
    removals
        .into_iter()
        .filter(|&r| {
            plan.rows
                .iter()
                .filter(|row| row.removal == Some(r))
                .all(|row| plan.winner_of(row) == Color::Black)
        })
        .map(|r| start.move_text(r))
        .collect()
}

/// The `--json` output of a solve.
#[derive(Serialize)]
pub(crate) struct SolveReport {
    pub(crate) size: String,
    pub(crate) opening: &'static str,
    /// The position solved: the start position when the whole opening table is.
    pub(crate) position: String,
    pub(crate) threads: usize,
    /// Rows of the opening table (1 for a single position).
    pub(crate) positions: usize,
    /// Positions solved, one per symmetry class.
    pub(crate) distinct: usize,
    /// How the table keys positions (the text run's "Keys:" line).
    pub(crate) keys: String,
    pub(crate) rows: Vec<RowReport>,
    /// Who wins with perfect play.
    pub(crate) winner: &'static str,
    /// The first removals with which Black wins (empty for a single position).
    pub(crate) winning_removals: Vec<String>,
    /// The one-line verdict of the text run.
    pub(crate) verdict: String,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
}

/// A row of the opening table, solved.
#[derive(Serialize)]
pub(crate) struct RowReport {
    /// Black's first removal, `null` for a single position.
    pub(crate) removal: Option<String>,
    /// White's reply, `null` for a single position or when White has none.
    pub(crate) reply: Option<String>,
    pub(crate) winner: &'static str,
    /// The winner's move in the row's position, when the side to move wins.
    pub(crate) best: Option<String>,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
}

impl RowReport {
    /// The row as the table and the JSON show it.
    pub(crate) fn of(plan: &Plan, row: &Row, start: &AnyPosition) -> RowReport {
        let (best, nodes, seconds) = match row.job {
            Some(j) => {
                let job = &plan.jobs[j];
                // The job may be a mirror image of this row: carry its move back.
                let best = job
                    .proof
                    .and_then(|p| p.best)
                    .and_then(|m| {
                        map_between(&row.position, &job.position).map(|map| unmap_move(&map, m))
                    })
                    .map(|m| row.position.move_text(m));
                (best, job.nodes, job.secs)
            }
            None => (None, 0, 0.0),
        };
        RowReport {
            removal: row.removal.map(|m| start.move_text(m)),
            reply: row.reply.map(|m| start.move_text(m)),
            winner: plan.winner_of(row).name(),
            best,
            nodes,
            seconds,
        }
    }
}

/// The `--json` output of `solve --bench`.
#[derive(Serialize)]
pub(crate) struct BenchReport {
    pub(crate) threads: usize,
    pub(crate) table_mib: usize,
    pub(crate) boards: Vec<BenchBoard>,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
}

/// One board and rule of the benchmark.
#[derive(Serialize)]
pub(crate) struct BenchBoard {
    pub(crate) size: String,
    pub(crate) opening: &'static str,
    /// Positions solved (one per symmetry class).
    pub(crate) positions: usize,
    pub(crate) nodes: u64,
    pub(crate) seconds: f64,
    pub(crate) verdict: String,
}
