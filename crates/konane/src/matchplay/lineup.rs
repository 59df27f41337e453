//! The players a match's specs describe, started.

use std::time::Duration;

use anyhow::Result;

use super::external::External;
use super::internal::Internal;
use super::player::Player;
use super::spec::PlayerSpec;

/// Builds the player `spec` describes; `go` is what an external engine is told after `go`.
pub fn make_player(spec: &PlayerSpec, go: &str) -> Result<Box<dyn Player>> {
    Ok(match spec {
        PlayerSpec::Internal {
            level,
            limits,
            threads,
            weights,
        } => Box::new(Internal::new(*level, *limits, *threads, *weights)),
        PlayerSpec::External { command } => {
            let budget = go
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .find(|w| w[0] == "time")
                .and_then(|w| w[1].parse::<u64>().ok())
                .unwrap_or(10_000);
            Box::new(External::start(
                command,
                go,
                Duration::from_millis(budget * 5 + 5_000),
            )?)
        }
    })
}
