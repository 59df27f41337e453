//! `konane solve`: who wins each opening with perfect play. The command's flags and its
//! runs here; the table, the resume log, the files and the run in modules of their own,
//! which `konane lines` shares.

mod files;
mod jobs;
mod plan;
mod report;
mod resume;

use std::time::Instant;

use std::path::PathBuf;

use crate::args::{RuleArg, parse_mib, position_or_start, print_json, thread_count};
use anyhow::{Result, bail};
use files::same_file;
pub(crate) use files::{CHECKPOINT_EVERY, CHECKPOINT_MIN_WORK, Checkpoint, RunFiles, keys_note};
pub(crate) use jobs::say;
use jobs::{recheck_jobs, solve_jobs};
use konane_core::{AnyPosition, Opening, Size};
pub(crate) use konane_engine::solve::Job;
use konane_engine::{ProofNumberSearch, ProofTable};
pub(crate) use plan::Plan;
use report::{BenchBoard, BenchReport, SolveReport};
pub(crate) use resume::ResumeLog;

/// What to solve, and where a long run keeps its work.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "6x6")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Solve this position instead of the openings (overrides --size).
    #[arg(long)]
    position: Option<String>,
    /// Threads to use (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Size of the table of proven positions in MiB.
    #[arg(long, alias = "table-mb", default_value_t = 1024, value_parser = parse_mib)]
    table_mib: usize,
    /// Keep finished positions in this file and skip them when run again.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Keep the table's expensive proofs in this file, load them when run again.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Prove every result a second time on a fresh table.
    #[arg(long)]
    recheck: bool,
    /// Keep the re-check's own expensive proofs in this file (never the first run's
    /// checkpoint), load them when run again.
    #[arg(long, requires = "recheck")]
    recheck_checkpoint: Option<PathBuf>,
    /// Measure instead: solve the whole opening table of each of these boards, both
    /// rules, and print nodes, time and speed.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_missing_value = "5x6,6x6,5x7")]
    bench: Option<Vec<Size>>,
    /// Print one JSON document instead of text (docs/cli.md); not with --recheck or
    /// --checkpoint, whose reports are text.
    #[arg(long, conflicts_with_all = ["recheck", "checkpoint"])]
    json: bool,
}

/// Solves (or measures) what the flags ask for.
pub fn run(args: Args) -> Result<()> {
    let threads = thread_count(args.threads)?;
    if let Some(sizes) = &args.bench {
        return bench(sizes, threads, args.table_mib, args.json);
    }
    let start = position_or_start(args.position.as_deref(), args.size, args.rule.opening)?;
    let files = RunFiles {
        resume: args.resume,
        checkpoint: args.checkpoint,
        recheck: args.recheck,
        recheck_checkpoint: args.recheck_checkpoint,
    };
    solve_from(&start, threads, args.table_mib, &files, args.json)
}

/// Solves `start`: when it is the initial position, every first removal and every White
/// reply; otherwise the position itself.
fn solve_from(
    start: &AnyPosition,
    threads: usize,
    table_mb: usize,
    files: &RunFiles,
    json: bool,
) -> Result<()> {
    if let (Some(run), Some(own)) = (&files.checkpoint, &files.recheck_checkpoint)
        && same_file(run, own)?
    {
        bail!("the re-check needs a checkpoint of its own, not the run's");
    }
    let began = Instant::now();
    let mut plan = Plan::of(start)?;
    if !json {
        println!(
            "Konane {}, opening {}: {} position(s) to solve ({} distinct up to symmetry), {} thread(s)",
            start.size(),
            start.opening(),
            plan.rows.len(),
            plan.jobs.len(),
            threads
        );
    }
    // Before the log is opened: a refused run changes no file.
    let table = ProofTable::new(table_mb);
    let checkpoints = files.checkpoint.is_some() || files.recheck_checkpoint.is_some();
    let keys = keys_note(&table, start, checkpoints)?;
    if !json {
        println!("{keys}");
    }
    let log = match files.resume.as_deref() {
        Some(path) => Some(ResumeLog::open(path, start, &mut plan.jobs)?.0),
        None => None,
    };
    let checkpoint = files.checkpoint.as_deref().map(|path| Checkpoint {
        path,
        min_work: CHECKPOINT_MIN_WORK,
    });
    if let Some(c) = &checkpoint {
        c.load(&table, "", "proofs")?;
    }
    solve_jobs(
        &mut plan.jobs,
        threads,
        &table,
        ProofNumberSearch::beside(table_mb, threads),
        log.as_ref(),
        checkpoint.as_ref(),
    )?;
    plan.store_openings(start, &table)?;
    if let Some(c) = &checkpoint {
        c.save(&table)?;
    }
    // The re-check's table is a fresh one, and may be as large: this one's memory goes first.
    drop(table);
    if files.recheck {
        let checkpoint = files.recheck_checkpoint.as_deref().map(|path| Checkpoint {
            path,
            min_work: CHECKPOINT_MIN_WORK,
        });
        recheck_jobs(&plan.jobs, threads, table_mb, checkpoint.as_ref())?;
    }

    let seconds = began.elapsed().as_secs_f64();
    let verdict = plan.verdict(start);
    let report = SolveReport::of(&plan, start, threads, keys, verdict, plan.nodes(), seconds);
    if json {
        return print_json(&report);
    }
    report.print();
    Ok(())
}

/// The fixed benchmark: the whole opening table of each board in `sizes`, both opening
/// rules, each on a fresh table, with nodes (the same on every run with one thread), time
/// and speed.
fn bench(sizes: &[Size], threads: usize, table_mb: usize, json: bool) -> Result<()> {
    if !json {
        println!(
            "Solver benchmark, {threads} thread(s), {table_mb} MiB table, a fresh table per board"
        );
        println!();
        println!(
            "{:<6} {:<17} {:>9} {:>15} {:>10} {:>11}  result",
            "board", "opening", "positions", "nodes", "time", "M nodes/s"
        );
    }
    let (mut all_nodes, mut all_secs) = (0u64, 0f64);
    let mut boards = Vec::new();
    for &size in sizes {
        for opening in Opening::ALL {
            let start = AnyPosition::start(size, opening);
            let mut plan = Plan::of(&start)?;
            let table = ProofTable::new(table_mb);
            let began = Instant::now();
            let search = ProofNumberSearch::beside(table_mb, threads);
            solve_jobs(&mut plan.jobs, threads, &table, search, None, None)?;
            let secs = began.elapsed().as_secs_f64();
            let nodes = plan.nodes();
            all_nodes += nodes;
            all_secs += secs;
            let board = BenchBoard {
                size: size.to_string(),
                opening: opening.name(),
                positions: plan.jobs.len(),
                nodes,
                seconds: secs,
                verdict: plan.verdict(&start),
            };
            if !json {
                println!(
                    "{:<6} {:<17} {:>9} {:>15} {:>9.2}s {:>11.2}  {}",
                    board.size,
                    board.opening,
                    board.positions,
                    nodes,
                    secs,
                    nodes as f64 / secs.max(1e-9) / 1e6,
                    board.verdict
                );
            }
            boards.push(board);
        }
    }
    if json {
        return print_json(&BenchReport {
            threads,
            table_mib: table_mb,
            boards,
            nodes: all_nodes,
            seconds: all_secs,
        });
    }
    println!(
        "{:<6} {:<17} {:>9} {:>15} {:>9.2}s {:>11.2}",
        "total",
        "",
        "",
        all_nodes,
        all_secs,
        all_nodes as f64 / all_secs.max(1e-9) / 1e6
    );
    Ok(())
}
