//! `konane perft`: leaf counts, time and speed, with a progress bar for long runs.

use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use konane_core::{AnyPosition, perft, with_position};

/// Runs that finish sooner than this show no progress bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Counts, prints and times perft of `pos` to `depth`.
pub fn run(pos: &AnyPosition, depth: u32, divide: bool, threads: usize) -> Result<()> {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} perft {msg} [{bar:40}] {pos}/{len} subtrees, {elapsed}",
        )?
        .progress_chars("=> "),
    );
    bar.set_message(format!("{} depth {depth}", pos.size()));
    let started = Instant::now();
    let progress = |done: usize, total: usize| {
        if bar.is_hidden() && started.elapsed() > QUIET_FOR {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let per_move = if depth == 0 {
        Vec::new()
    } else {
        with_position!(pos, p => perft::divide_parallel(p, depth, threads, &progress))
    };
    let elapsed = started.elapsed();
    bar.finish_and_clear();
    let leaves: u64 = if depth == 0 {
        1
    } else {
        per_move.iter().map(|&(_, n)| n).sum()
    };
    if divide {
        let mut lines: Vec<(String, u64)> = per_move
            .iter()
            .map(|&(m, n)| (pos.move_text(m), n))
            .collect();
        lines.sort();
        for (m, n) in lines {
            println!("{m} {n}");
        }
        println!();
    }
    let secs = elapsed.as_secs_f64();
    println!("leaves  {leaves}");
    println!("time    {secs:.3} s");
    println!(
        "speed   {:.1} M leaves/s on {threads} thread(s)",
        leaves as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
