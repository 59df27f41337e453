//! A run over an opening table's jobs: the engine's scheduler driven with a progress
//! bar, a resume log and checkpoints; the re-check on a fresh table and the replay of
//! every lost line through the core.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::files::{CHECKPOINT_EVERY, Checkpoint};
use super::resume::ResumeLog;
use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{AnyPosition, Game};
use konane_engine::solve::Job;
use konane_engine::solve::{RunProgress, RunReport};
use konane_engine::{Proof, ProofNumberSearch, ProofTable, Solver};

/// Proves each job's result again from nothing, so that no entry of the first run vouches
/// for itself: the core plays each claimed winning move (refusing an illegal one), and the
/// position after it, or the job itself when it is claimed lost, must come out lost on a
/// fresh table, solved on `threads` threads. A re-check keeps its own checkpoint (never the
/// first run's), so a long one can stop and go on. A disagreement is an error.
pub(super) fn recheck_jobs(
    jobs: &[Job],
    threads: usize,
    table_mb: usize,
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    let mut lost = Vec::new();
    for job in jobs {
        let Some(proof) = job.proof else { continue };
        let mut position = job.position;
        if proof.win {
            let best = proof
                .best
                .ok_or_else(|| anyhow!("{}: a win without a winning move", job.position))?;
            position.play(best).map_err(|e| {
                anyhow!(
                    "{}: the winning move {} is refused: {e}",
                    job.position,
                    job.position.move_text(best)
                )
            })?;
        }
        lost.push(Job::new(position));
    }
    let table = ProofTable::new(table_mb);
    if let Some(c) = checkpoint {
        c.load(&table, "re-check: ", "proofs of earlier re-checks")?;
    }
    let search = ProofNumberSearch::beside(table_mb, threads);
    solve_jobs(&mut lost, threads, &table, search, None, checkpoint)?;
    if let Some(c) = checkpoint {
        c.save(&table)?;
    }
    for job in &lost {
        match job.proof {
            Some(p) if !p.win => {}
            Some(_) => bail!("{}: the re-check proved the other result", job.position),
            None => bail!("{}: the re-check did not finish", job.position),
        }
        let line = replay_line(&job.position, &table)?;
        println!(
            "re-check: {} is lost for {} ({} nodes); replayed by the core: {} ({1} has no move)",
            job.position,
            job.position.turn().name(),
            job.nodes,
            line.join(" "),
        );
    }
    println!("Every result proven a second time on a fresh table.");
    Ok(())
}

/// Plays `lost` out through the core's game, which refuses any illegal move: the winner's
/// moves from `table` (solved again where it has lost the entry), the loser's first legal
/// move each time. Fails unless the game ends with the loser unable to move.
fn replay_line(lost: &AnyPosition, table: &ProofTable) -> Result<Vec<String>> {
    let winner = lost.turn().opponent();
    let stop = AtomicBool::new(false);
    let mut game = Game::from_position(*lost);
    while game.position().winner().is_none() {
        let pos = *game.position();
        let m = if pos.turn() == winner {
            let proof = konane_core::with_position!(&pos, p => Solver::new(table, &stop, u64::MAX).solve(p));
            match proof {
                Ok(Proof {
                    win: true,
                    best: Some(m),
                }) => m,
                _ => bail!(
                    "after {}: {} has no proven winning move",
                    game.move_texts().join(" "),
                    winner.name()
                ),
            }
        } else {
            pos.legal_moves()[0]
        };
        game.play(m).map_err(|e| {
            anyhow!(
                "after {}: {} is refused: {e}",
                game.move_texts().join(" "),
                pos.move_text(m)
            )
        })?;
    }
    if game.position().winner() != Some(winner) {
        bail!(
            "the replay from {lost} did not end in {}'s win",
            winner.name()
        );
    }
    Ok(game.move_texts())
}

/// Solves every job not yet done on `threads` threads sharing `table`, each position's first
/// thread turning to proof numbers as `search` says, appending each result to `log` and
/// saving `checkpoint` now and then (the caller saves the last one); the bar shows the speed
/// and the table's fill.
pub(super) fn solve_jobs(
    jobs: &mut [Job],
    threads: usize,
    table: &ProofTable,
    search: ProofNumberSearch,
    log: Option<&ResumeLog>,
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    // The bar counts thousandths of a position, so a long position moves it (and its
    // estimate of the time left) as its first plies' moves are done.
    let bar = ProgressBar::new(jobs.len() as u64 * PER_JOB);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} solving [{bar:30}] {percent}%, {elapsed} (left {eta}) {msg}",
    )?);
    let report = Bars {
        bar: &bar,
        table,
        log,
        checkpoint,
        times: Mutex::new(Times {
            saved: Instant::now(),
            logged: Instant::now(),
        }),
    };
    let run = konane_engine::solve::solve_jobs(jobs, threads, table, search, &report);
    bar.finish_and_clear();
    Ok(run?)
}

/// A run's bar, log and checkpoint, driven by the engine's reports.
struct Bars<'a> {
    bar: &'a ProgressBar,
    table: &'a ProofTable,
    log: Option<&'a ResumeLog>,
    checkpoint: Option<&'a Checkpoint<'a>>,
    times: Mutex<Times>,
}

/// When the checkpoint was last saved, and the last line written for a run without a bar.
struct Times {
    saved: Instant,
    logged: Instant,
}

impl RunReport for Bars<'_> {
    fn finished(&self, _: usize, job: &Job) {
        if let Some(log) = self.log
            && let Err(e) = log.append(job)
        {
            say(self.bar, &format!("warning: could not save progress: {e}"));
        }
        if let Some(p) = job.proof {
            let winner = if p.win {
                job.position.turn()
            } else {
                job.position.turn().opponent()
            };
            say(
                self.bar,
                &format!(
                    "proven: {}: {} wins ({} nodes, {:.0} s)",
                    job.position,
                    winner.name(),
                    job.nodes,
                    job.secs
                ),
            );
        }
    }

    fn progress(&self, p: &RunProgress) {
        let bar = self.bar;
        let secs = p.elapsed.as_secs_f64();
        let n = p.nodes;
        let done = p.finished;
        // Each running job's share in thousandths, short of a whole position until proven.
        let running: u64 = p
            .running
            .iter()
            .map(|s| (s * PER_JOB as f64).min(PER_JOB as f64 - 1.0) as u64)
            .sum();
        bar.set_position((done as u64 * PER_JOB + running).min(bar.length().unwrap_or(0)));
        let status = format!(
            "{done}/{} positions, {:.2} G nodes, {:.2} M nodes/s, table {:.1}% full",
            p.jobs,
            n as f64 / 1e9,
            n as f64 / secs.max(1e-9) / 1e6,
            f64::from(self.table.fill_permille()) / 10.0
        );
        let Ok(mut times) = self.times.lock() else {
            return;
        };
        // A run whose output is not a terminal (in the background, into a log) has
        // no bar: a line a minute instead.
        if bar.is_hidden() && times.logged.elapsed() >= Duration::from_secs(60) {
            times.logged = Instant::now();
            let share = bar.position() as f64 / bar.length().unwrap_or(1).max(1) as f64;
            eprintln!(
                "{:.0} s: {:.1}% (estimated from the first plies), {status}",
                secs,
                share * 100.0
            );
        }
        bar.set_message(status);
        if let Some(c) = self.checkpoint
            && times.saved.elapsed() >= CHECKPOINT_EVERY
        {
            times.saved = Instant::now();
            if let Err(e) = c.save(self.table) {
                say(
                    bar,
                    &format!("warning: could not save the checkpoint: {e:#}"),
                );
            }
        }
    }
}

/// Prints a line above the bar, or into the log when there is no bar (`println` on a
/// hidden bar prints nothing, and a run in the background has none).
pub(crate) fn say(bar: &ProgressBar, line: &str) {
    bar.suspend(|| eprintln!("{line}"));
}

/// Thousandths of a position in the progress bar.
const PER_JOB: u64 = 1000;
