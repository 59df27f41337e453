//! `konane openings`: an opening suite for `konane match --openings`, random openings that
//! neither side is lost in as far as a deep search and a bounded solver can tell.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{Opening, Size};
use konane_engine::symmetry::canonical_key;
use konane_engine::{Engine, EngineConfig, Limits, Rng, SystemClock, score, substream};

use crate::args::RuleArg;
use crate::matchplay::random_opening;

/// The suite to make.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Openings to make.
    #[arg(long, default_value_t = 50)]
    count: usize,
    /// Random plies from the start in each (the two removals and then jumps).
    #[arg(long, default_value_t = 6)]
    plies: usize,
    /// Depth of the search that judges each opening.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// The largest score for either side, in hundredths of a move.
    #[arg(long, default_value_t = 50)]
    threshold: i32,
    /// An opening the solver proves within this many nodes is refused.
    #[arg(long, default_value_t = 1_000_000)]
    solver_nodes: u64,
    /// Candidates to draw at most.
    #[arg(long, default_value_t = 2_000)]
    tries: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Makes the suite the flags ask for; its header quotes the command line that made it.
pub fn run(args: Args) -> Result<()> {
    let command_line = std::env::args()
        .skip(1)
        .map(|a| {
            if a.contains(' ') {
                format!("\"{a}\"")
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    make_suite(
        &SuiteConfig {
            size: args.size,
            rule: args.rule.opening,
            count: args.count,
            plies: args.plies,
            depth: args.depth,
            threshold: args.threshold,
            solver_nodes: args.solver_nodes,
            tries: args.tries,
            seed: args.seed,
        },
        &format!("konane {command_line}"),
    )
}

/// The settings of a suite.
struct SuiteConfig {
    /// Board size.
    pub size: Size,
    /// Opening rule.
    pub rule: Opening,
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start in each.
    pub plies: usize,
    /// Depth of the search that judges each opening.
    pub depth: u32,
    /// The largest score, in hundredths of a move, an opening may have for either side.
    pub threshold: i32,
    /// An opening the solver proves within this many nodes is refused.
    pub solver_nodes: u64,
    /// Candidates drawn at most.
    pub tries: usize,
    /// Seed of the random plies.
    pub seed: u64,
}

/// Draws random openings, keeps the balanced ones (one per symmetry class) and prints the
/// suite: a header saying how it was made, then one opening a line with its score.
fn make_suite(cfg: &SuiteConfig, command_line: &str) -> Result<()> {
    let engine = Engine::new(EngineConfig {
        hash_mb: 64,
        proof_mb: 64,
        threads: 1,
        ..EngineConfig::default()
    });
    let bar = ProgressBar::new(cfg.count as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} {msg} [{bar:30}] {pos}/{len} openings, {elapsed} (eta {eta})",
    )?);
    let stop = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut tried = 0;
    while kept.len() < cfg.count && tried < cfg.tries {
        let mut rng = Rng::new(substream(cfg.seed, tried as u64));
        tried += 1;
        bar.set_message(format!("{tried} tried"));
        let game = random_opening(cfg.size, cfg.rule, cfg.plies, &mut rng);
        let pos = *game.position();
        if game.ply() < cfg.plies || !seen.insert(canonical_key(&pos)) {
            continue;
        }
        engine.new_game();
        let limits = Limits {
            depth: Some(cfg.depth),
            ..Limits::default()
        };
        let judged = engine.think(&pos, limits, false, &SystemClock::start(), &mut |_| {});
        if judged.score.abs() > cfg.threshold || score::is_proven(judged.score) {
            continue;
        }
        if engine.solve(&pos, cfg.solver_nodes, &stop).0.is_ok() {
            continue;
        }
        kept.push((game.move_texts().join(" "), judged.score));
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "# Opening suite for konane match --openings: {} ({}).",
        cfg.size, cfg.rule
    );
    println!("# Made by: {command_line}");
    println!(
        "# {} of {tried} random openings of {} plies kept: one per symmetry class, each scored \
         within {} hundredths of a move of even by a depth-{} search (side to move's view) and \
         not proven by the solver within {} nodes.",
        kept.len(),
        cfg.plies,
        cfg.threshold,
        cfg.depth,
        cfg.solver_nodes
    );
    for (moves, score) in &kept {
        println!("{moves}  # {}", score::describe(*score));
    }
    if kept.len() < cfg.count {
        eprintln!(
            "only {} of {} openings found in {tried} tries: raise --tries or --threshold",
            kept.len(),
            cfg.count
        );
    }
    Ok(())
}
