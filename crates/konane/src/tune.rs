//! `konane tune`: evaluation weights tuned by self-play.
//!
//! Coordinate descent on match results: each round, every weight is nudged up and then down
//! by its step; a nudged engine that passes a sequential test against the current best
//! (paired openings, fixed-depth search) becomes the new best. Steps halve after each round.
//! Fixed-depth play makes the matches cheap and the comparison fair (both sides see the same
//! tree size), and varied openings give the deterministic players distinct games.

use anyhow::Result;
use konane_core::{Opening, Size};
use konane_engine::{Limits, Weights};

use crate::args::thread_count;
use crate::matchplay::{MatchConfig, Openings, PlayerSpec, play_match};
use crate::stats::{Sprt, Verdict, elo};

/// How to tune.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth of both sides.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Games per trial at most (each trial is a sequential test).
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Rounds over all the weights.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    /// Start the pairs from this opening suite (default: six random plies a pair).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// The test a change must pass to be kept.
    #[arg(long, default_value = "elo0=0,elo1=10")]
    sprt: Sprt,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Tunes as the flags ask.
pub fn run(args: Args) -> Result<()> {
    let openings = Openings::from_flags(
        args.openings.as_deref(),
        6,
        args.size,
        Opening::CenterOrCorner,
    )?;
    descend(&TuneConfig {
        depth: args.depth,
        games: args.games,
        rounds: args.rounds,
        size: args.size,
        openings,
        sprt: args.sprt,
        concurrency: thread_count(None)?,
        seed: args.seed,
    })
}

/// The settings of a tuning run.
struct TuneConfig {
    /// Depth of both players' searches.
    pub depth: u32,
    /// Games per comparison at most.
    pub games: usize,
    /// Rounds over all the weights.
    pub rounds: usize,
    /// Board size.
    pub size: Size,
    /// Where each pair of games starts.
    pub openings: Openings,
    /// The test a change must pass.
    pub sprt: Sprt,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the random openings.
    pub seed: u64,
}

fn player(weights: Weights, depth: u32) -> PlayerSpec {
    PlayerSpec::Internal {
        level: None,
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        threads: 1,
        weights,
    }
}

fn describe(w: &Weights) -> String {
    format!(
        "mobility {} movable {} exposed {} safe {} tempo {}",
        w.mobility, w.movable, w.exposed, w.safe, w.tempo
    )
}

/// Runs the descent from the default weights and prints every trial and the result.
fn descend(cfg: &TuneConfig) -> Result<()> {
    let mut best = Weights::default();
    let mut steps = [30, 20, 10, 15, 15];
    let mut trial = 0u64;
    println!(
        "tuning at depth {} on {}, {}, a change kept when SPRT {} accepts it (at most {} games)",
        cfg.depth,
        cfg.size,
        cfg.openings.describe(),
        cfg.sprt,
        cfg.games
    );
    for round in 1..=cfg.rounds {
        for (k, name) in Weights::NAMES.iter().enumerate() {
            for sign in [1, -1] {
                let mut candidate = best;
                if let Some(w) = candidate.by_name_mut(name) {
                    *w += sign * steps[k];
                }
                trial += 1;
                let m = MatchConfig {
                    a: player(candidate, cfg.depth),
                    a_name: "candidate".into(),
                    b: player(best, cfg.depth),
                    b_name: "best".into(),
                    games: cfg.games,
                    size: cfg.size,
                    opening: Opening::CenterOrCorner,
                    openings: cfg.openings.clone(),
                    sprt: Some(cfg.sprt),
                    concurrency: cfg.concurrency,
                    seed: cfg.seed.wrapping_add(trial),
                    go: String::new(),
                    records: None,
                };
                let result = play_match(&m, false)?;
                let counts = result.counts();
                let (score, _, _) = counts.score_interval();
                let accepted = result.verdict() == Some(Verdict::Accepted);
                println!(
                    "round {round} {name:>8} {:+4}: pairs +{} ={} -{}, {:.1}% ({:+.0} Elo), LLR {:+.2}{}",
                    sign * steps[k],
                    counts.won,
                    counts.split,
                    counts.lost,
                    100.0 * score,
                    elo(score),
                    cfg.sprt.llr(&counts),
                    match result.verdict() {
                        Some(Verdict::Accepted) => "  accepted",
                        Some(Verdict::Rejected) => "  rejected",
                        None => "  undecided",
                    }
                );
                if accepted {
                    best = candidate;
                    break;
                }
            }
        }
        steps.iter_mut().for_each(|s| *s = (*s / 2).max(1));
        println!("after round {round}: {}", describe(&best));
    }
    println!("best: {}", describe(&best));
    Ok(())
}
