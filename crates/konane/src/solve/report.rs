//! The `--json` documents of `konane solve` (docs/cli.md), and the rows its text table prints.

use konane_core::{AnyPosition, Color, Move};
use konane_engine::symmetry::{map_between, unmap_move};
use serde::Serialize;

use super::plan::{Plan, Row};

/// The first removals of the opening table every reply to which loses for White.
fn winning_removals(plan: &Plan, start: &AnyPosition) -> Vec<String> {
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
    size: String,
    opening: &'static str,
    /// The position solved: the start position when the whole opening table is.
    position: String,
    threads: usize,
    /// Rows of the opening table (1 for a single position).
    positions: usize,
    /// Positions solved, one per symmetry class.
    distinct: usize,
    /// How the table keys positions (the text run's "Keys:" line).
    keys: String,
    rows: Vec<RowReport>,
    /// Who wins with perfect play.
    winner: &'static str,
    /// The first removals with which Black wins (empty for a single position).
    winning_removals: Vec<String>,
    /// The one-line verdict of the text run.
    verdict: String,
    nodes: u64,
    seconds: f64,
}

impl SolveReport {
    /// The report of a finished run: `keys` and `verdict` as the text run prints them.
    pub(crate) fn of(
        plan: &Plan,
        start: &AnyPosition,
        threads: usize,
        keys: String,
        verdict: String,
        nodes: u64,
        seconds: f64,
    ) -> SolveReport {
        let table = *start == AnyPosition::start(start.size(), start.opening());
        let winning_removals = if table {
            winning_removals(plan, start)
        } else {
            Vec::new()
        };
        let winner = match plan.rows.first() {
            Some(row) if !table => plan.winner_of(row),
            _ if winning_removals.is_empty() => Color::White,
            _ => Color::Black,
        };
        SolveReport {
            size: start.size().to_string(),
            opening: start.opening().name(),
            position: start.to_string(),
            threads,
            positions: plan.rows.len(),
            distinct: plan.jobs.len(),
            keys,
            rows: plan
                .rows
                .iter()
                .map(|row| RowReport::of(plan, row, start))
                .collect(),
            winner: winner.name(),
            winning_removals,
            verdict,
            nodes,
            seconds,
        }
    }

    /// Prints the text run's table of rows, the verdict and the totals.
    pub(crate) fn print(&self) {
        println!();
        println!(
            "{:<8} {:<8} {:<7} {:<10} {:>14} {:>9}",
            "removal", "reply", "winner", "best move", "nodes", "time"
        );
        for row in &self.rows {
            let text = |m: &Option<String>| m.clone().unwrap_or_else(|| "-".to_string());
            println!(
                "{:<8} {:<8} {:<7} {:<10} {:>14} {:>8.2}s",
                text(&row.removal),
                text(&row.reply),
                row.winner,
                text(&row.best),
                row.nodes,
                row.seconds
            );
        }
        println!();
        println!("{}", self.verdict);
        println!(
            "{} nodes in {:.2} s ({:.1} M nodes/s)",
            self.nodes,
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9) / 1e6
        );
    }
}

/// A row of the opening table, solved.
#[derive(Serialize)]
struct RowReport {
    /// Black's first removal, `null` for a single position.
    removal: Option<String>,
    /// White's reply, `null` for a single position or when White has none.
    reply: Option<String>,
    winner: &'static str,
    /// The winner's move in the row's position, when the side to move wins.
    best: Option<String>,
    nodes: u64,
    seconds: f64,
}

impl RowReport {
    /// The row as the table and the JSON show it.
    fn of(plan: &Plan, row: &Row, start: &AnyPosition) -> RowReport {
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
