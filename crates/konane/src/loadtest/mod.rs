//! `konane loadtest`: load on running servers over real HTTP and WebSockets, measuring the
//! move round-trip (a move sent to the new state on the game's socket). Two loads: many
//! local games (`games`), or an arena of many registered players (`arena`), the second
//! optionally after the first as its baseline, so one run compares the two.

mod arena;
mod flags;
mod games;
mod measure;
mod net;
mod report;

use anyhow::{Result, bail};

pub use flags::Args;
use flags::MAX_PLAYERS;

/// Runs the load test and prints what it measured.
pub fn run(cfg: Args) -> Result<()> {
    if cfg.urls.is_empty() {
        bail!("give at least one --url");
    }
    let bases: Vec<String> = cfg
        .urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    let runtime = tokio::runtime::Runtime::new()?;
    match cfg.arena {
        None => {
            if cfg.games == 0 {
                bail!("--games must be at least 1");
            }
            runtime.block_on(games::run(&cfg, &bases))
        }
        Some(players) => {
            if players < 2 || players % 2 != 0 || players > MAX_PLAYERS {
                bail!("--arena takes an even number of players, 2 to {MAX_PLAYERS}");
            }
            if cfg.moves == 0 {
                bail!(
                    "--moves must be at least 1 in an arena (a player who never moves is paused)"
                );
            }
            runtime.block_on(arena::compare(&cfg, &bases, players))
        }
    }
}
