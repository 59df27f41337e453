//! `konane tune`: evaluation weights tuned by self-play.
//!
//! Coordinate descent on match results: each round, every weight is nudged up and then down
//! by its step; a nudged engine that beats the current best by more than one standard error
//! over a fixed-depth match becomes the new best. Steps halve after each round. Fixed-depth
//! play makes the matches cheap and the comparison fair (both sides see the same tree size),
//! and random opening plies give the deterministic players distinct games.

use anyhow::Result;
use konane_core::{Opening, Size};
use konane_engine::{Limits, Weights};

use crate::matchplay::{MatchConfig, PlayerSpec, play_match};

/// The settings of a tuning run.
pub struct TuneConfig {
    /// Depth of both players' searches.
    pub depth: u32,
    /// Games per comparison.
    pub games: usize,
    /// Rounds over all the weights.
    pub rounds: usize,
    /// Board size.
    pub size: Size,
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
pub fn run(cfg: &TuneConfig) -> Result<()> {
    let mut best = Weights::default();
    let mut steps = [30, 20, 10, 15, 15];
    let margin = 0.5 / (cfg.games as f64).sqrt();
    let mut trial = 0u64;
    println!(
        "tuning at depth {} on {}, {} games per trial, accepting scores above {:.3}",
        cfg.depth,
        cfg.size,
        cfg.games,
        0.5 + margin
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
                    random_plies: 6,
                    concurrency: cfg.concurrency,
                    seed: cfg.seed.wrapping_add(trial),
                    go: String::new(),
                    records: None,
                };
                let score = play_match(&m, false)?.score();
                let accepted = score > 0.5 + margin;
                println!(
                    "round {round} {name:>8} {:+4}: candidate scores {:.3}{}",
                    sign * steps[k],
                    score,
                    if accepted { "  accepted" } else { "" }
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
