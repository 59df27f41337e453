//! `konane perft`: leaf counts, time and speed, with a progress bar for long runs.

use std::time::{Duration, Instant};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use konane_core::{AnyPosition, Size, perft, with_position};
use serde::Serialize;

use crate::args::{RuleArg, position_or_start, print_json, thread_count};

/// What to count.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    /// Plies to look ahead.
    #[arg(long)]
    depth: u32,
    #[command(flatten)]
    rule: RuleArg,
    /// Start from this position text instead of the start position (overrides --size).
    #[arg(long)]
    position: Option<String>,
    /// Print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Threads to use (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON document instead of text (docs/cli.md).
    #[arg(long)]
    json: bool,
}

/// The `--json` output.
#[derive(Serialize)]
struct Report {
    position: String,
    depth: u32,
    leaves: u64,
    /// With `--divide`: the count below each first move, sorted by move.
    divide: Option<Vec<Divided>>,
    seconds: f64,
    threads: usize,
}

/// A first move and the count below it.
#[derive(Serialize)]
struct Divided {
    #[serde(rename = "move")]
    mv: String,
    leaves: u64,
}

/// Runs that finish sooner than this show no progress bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Counts, prints and times perft of the position the flags name.
pub fn run(args: Args) -> Result<()> {
    let pos = position_or_start(args.position.as_deref(), args.size, args.rule.opening)?;
    count(
        &pos,
        args.depth,
        args.divide,
        thread_count(args.threads)?,
        args.json,
    )
}

/// Counts, prints and times perft of `pos` to `depth`; with `json`, no bar and one document.
fn count(pos: &AnyPosition, depth: u32, divide: bool, threads: usize, json: bool) -> Result<()> {
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
        if !json && bar.is_hidden() && started.elapsed() > QUIET_FOR {
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
    let mut lines: Vec<(String, u64)> = per_move
        .iter()
        .map(|&(m, n)| (pos.move_text(m), n))
        .collect();
    lines.sort();
    let secs = elapsed.as_secs_f64();
    if json {
        return print_json(&Report {
            position: pos.to_string(),
            depth,
            leaves,
            divide: divide.then(|| {
                lines
                    .into_iter()
                    .map(|(mv, leaves)| Divided { mv, leaves })
                    .collect()
            }),
            seconds: secs,
            threads,
        });
    }
    if divide {
        for (m, n) in lines {
            println!("{m} {n}");
        }
        println!();
    }
    println!("leaves  {leaves}");
    println!("time    {secs:.3} s");
    println!(
        "speed   {:.1} M leaves/s on {threads} thread(s)",
        leaves as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
