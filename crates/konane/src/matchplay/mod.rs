//! `konane match`: two players, many pairs of games (each opening twice, colours swapped),
//! in parallel, scored by pairs, optionally until a sequential test decides.
//!
//! A player is our engine (`level 6`, `time 300`, `depth 5`, `threads 2`, in any mix) or an
//! external program that speaks the engine protocol (`cmd:./other-engine --flag`).

mod config;
mod external;
mod game;
mod internal;
mod lineup;
mod player;
mod pool;
mod report;
mod result;
mod spec;
mod suite;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use konane_core::Size;

pub use config::MatchConfig;
pub use pool::play_match;
pub use result::MatchResult;
pub use spec::PlayerSpec;
pub use suite::{Openings, random_opening};

use crate::args::{RuleArg, print_json, thread_count};
use crate::stats::{Sprt, Verdict};

/// Exit code of a match whose sequential test accepted H0 (rejected H1): the first
/// player is not the stronger by `elo1`.
const EXIT_H0: u8 = 3;
/// Exit code of a match whose sequential test had not decided when `--games` ran out.
const EXIT_UNDECIDED: u8 = 4;

/// Who plays, how many games, and when to stop.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first player: "level 6", "time 200 threads 2", "depth 5" or "cmd:<program>".
    #[arg(long)]
    black: String,
    /// The second player, written the same way.
    #[arg(long)]
    white: String,
    /// Games to play, an even number: each opening twice, colours swapped (with --sprt,
    /// the most to play).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Random plies that start each pair of games.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Start the pairs from this opening suite instead (docs/openings/), in turn.
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Stop when a sequential test decides, e.g. elo0=0,elo1=5[,alpha=0.05,beta=0.05]; the
    /// exit code tells its verdict (docs/cli.md).
    #[arg(long)]
    sprt: Option<Sprt>,
    /// Pairs played at once (default: cores divided by the threads per player).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Seed of the random openings and of the levels' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What external engines are told after `go`.
    #[arg(long, default_value = "time 200")]
    go: String,
    /// Write every game's record to this file.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Print one JSON document instead of text, and no progress bar (docs/cli.md).
    #[arg(long)]
    json: bool,
}

/// Plays the match the flags describe; the exit code is the sequential test's verdict.
pub fn run(args: Args) -> Result<ExitCode> {
    let a = PlayerSpec::parse(&args.black)?;
    let b = PlayerSpec::parse(&args.white)?;
    let per_game = a.threads().max(b.threads());
    let opening = args.rule.opening;
    let cfg = MatchConfig {
        a,
        a_name: args.black,
        b,
        b_name: args.white,
        games: args.games,
        size: args.size,
        opening,
        openings: Openings::from_flags(
            args.openings.as_deref(),
            args.random_plies,
            args.size,
            opening,
        )?,
        sprt: args.sprt,
        concurrency: args
            .concurrency
            .unwrap_or((thread_count(None)? / per_game).max(1)),
        seed: args.seed,
        go: args.go,
        records: args.records,
    };
    let result = play_and_report(&cfg, args.json)?;
    Ok(match (cfg.sprt, result.verdict()) {
        (Some(_), Some(Verdict::Rejected)) => ExitCode::from(EXIT_H0),
        (Some(_), None) => ExitCode::from(EXIT_UNDECIDED),
        _ => ExitCode::SUCCESS,
    })
}

/// Plays the match, writes the records if asked, and prints the result (as one JSON
/// document with `json`, and then without a progress bar).
fn play_and_report(cfg: &MatchConfig, json: bool) -> Result<MatchResult> {
    let result = play_match(cfg, !json)?;
    if let Some(path) = &cfg.records {
        let text: Vec<String> = result
            .pairs
            .iter()
            .flat_map(|p| &p.games)
            .map(|g| g.record.to_string())
            .collect();
        std::fs::write(path, text.join("\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let summary = report::Summary::of(cfg, &result);
    if json {
        print_json(&summary)?;
    } else {
        summary.print();
    }
    Ok(result)
}
