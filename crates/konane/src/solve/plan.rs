//! The opening table of a board: its rows (a first removal, or a first removal and a
//! reply), the distinct positions to solve, and the verdict they add up to.

use std::collections::HashMap;

use anyhow::Result;
use konane_core::{AnyPosition, Color, Move};
use konane_engine::solve::Job;
use konane_engine::symmetry::{canonical_key, map_between, unmap_move};
use konane_engine::{Proof, ProofTable};

/// A line of the opening table.
pub(crate) struct Row {
    pub(crate) removal: Option<Move>,
    pub(crate) reply: Option<Move>,
    pub(crate) position: AnyPosition,
    pub(crate) job: Option<usize>,
}

/// The opening table of one board (or a single position) and the distinct positions behind it.
pub(crate) struct Plan {
    pub(crate) rows: Vec<Row>,
    pub(crate) jobs: Vec<Job>,
}

impl Plan {
    /// When `start` is the initial position, every first removal and every White reply;
    /// otherwise the position itself. Symmetric images share one job.
    pub(crate) fn of(start: &AnyPosition) -> Result<Plan> {
        let initial = AnyPosition::start(start.size(), start.opening());
        let mut rows: Vec<Row> = Vec::new();
        let mut jobs: Vec<Job> = Vec::new();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        let mut add = |pos: AnyPosition, jobs: &mut Vec<Job>| {
            *by_key.entry(canonical_key(&pos)).or_insert_with(|| {
                jobs.push(Job::new(pos));
                jobs.len() - 1
            })
        };
        if *start == initial {
            for removal in start.legal_moves() {
                let mut after = *start;
                after.play(removal)?;
                let replies = after.legal_moves();
                if replies.is_empty() {
                    rows.push(Row {
                        removal: Some(removal),
                        reply: None,
                        position: after,
                        job: None,
                    });
                }
                for reply in replies {
                    let mut p = after;
                    p.play(reply)?;
                    let job = add(p, &mut jobs);
                    rows.push(Row {
                        removal: Some(removal),
                        reply: Some(reply),
                        position: p,
                        job: Some(job),
                    });
                }
            }
        } else {
            let job = add(*start, &mut jobs);
            rows.push(Row {
                removal: None,
                reply: None,
                position: *start,
                job: Some(job),
            });
        }
        Ok(Plan { rows, jobs })
    }

    /// Who wins a row, once its job is solved.
    pub(crate) fn winner_of(&self, row: &Row) -> Color {
        match row.job {
            // White has no reply to the removal: Black wins on the spot.
            None => Color::Black,
            Some(j) => {
                let job = &self.jobs[j];
                if job.proof.is_some_and(|p| p.win) {
                    job.position.turn()
                } else {
                    job.position.turn().opponent()
                }
            }
        }
    }

    /// The one-line verdict: who wins the whole board (or the single position), and how.
    pub(crate) fn verdict(&self, start: &AnyPosition) -> String {
        if *start != AnyPosition::start(start.size(), start.opening()) {
            return match self.rows.first() {
                Some(row) => format!("{} wins with perfect play.", self.winner_of(row).name()),
                None => String::new(),
            };
        }
        // Black wins with a removal every reply to which loses for White.
        let mut removals: Vec<Move> = self.rows.iter().filter_map(|r| r.removal).collect();
        removals.dedup();
        let winning: Vec<String> = removals
            .into_iter()
            .filter(|&r| {
                self.rows
                    .iter()
                    .filter(|row| row.removal == Some(r))
                    .all(|row| self.winner_of(row) == Color::Black)
            })
            .map(|r| start.move_text(r))
            .collect();
        if winning.is_empty() {
            "White wins with perfect play: every first removal has a winning reply.".to_string()
        } else {
            format!(
                "Black wins with perfect play, by removing {}.",
                winning.join(" or ")
            )
        }
    }

    /// Stores what the rows prove about the openings themselves: each row's position in its
    /// own orientation, each position after a first removal, and the initial position, so
    /// that a checkpoint tells an engine how to play from the first move. They stand for the
    /// whole table's work, so every checkpoint keeps them. Nothing is stored before every
    /// row is proven.
    pub(crate) fn store_openings(&self, start: &AnyPosition, table: &ProofTable) -> Result<()> {
        let initial = AnyPosition::start(start.size(), start.opening());
        if *start != initial || self.jobs.iter().any(|j| j.proof.is_none()) {
            return Ok(());
        }
        let store = |pos: &AnyPosition, proof: Proof| {
            konane_core::with_position!(pos, p => table.store(p, proof, u64::MAX));
        };
        let mut black_wins = None;
        for removal in start.legal_moves() {
            let rows: Vec<&Row> = self
                .rows
                .iter()
                .filter(|r| r.removal == Some(removal))
                .collect();
            for row in &rows {
                let Some(job) = row.job.map(|j| &self.jobs[j]) else {
                    continue;
                };
                if let Some(proof) = job.proof {
                    let best = proof.best.and_then(|m| {
                        map_between(&row.position, &job.position).map(|map| unmap_move(&map, m))
                    });
                    store(
                        &row.position,
                        Proof {
                            win: proof.win,
                            best,
                        },
                    );
                }
            }
            let white_reply = rows
                .iter()
                .find(|r| self.winner_of(r) == Color::White)
                .and_then(|r| r.reply);
            let mut after = *start;
            after.play(removal)?;
            store(
                &after,
                Proof {
                    win: white_reply.is_some(),
                    best: white_reply,
                },
            );
            if white_reply.is_none() {
                black_wins = black_wins.or(Some(removal));
            }
        }
        store(
            start,
            Proof {
                win: black_wins.is_some(),
                best: black_wins,
            },
        );
        Ok(())
    }

    /// Nodes spent on all jobs.
    pub(crate) fn nodes(&self) -> u64 {
        self.jobs.iter().map(|j| j.nodes).sum()
    }
}
