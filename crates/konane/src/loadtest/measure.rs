//! Times as the load test counts them: milliseconds, their spread, and the bar of a timed
//! run.

use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use serde::Serialize;

/// A bar of a load that runs for `duration`: it counts the seconds from `started`, with
/// `message` beside it, until the returned task is aborted.
pub(super) fn tick(
    bar: &ProgressBar,
    started: Instant,
    duration: Duration,
    message: impl Fn() -> String + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    bar.set_length(duration.as_secs().max(1));
    bar.set_position(0);
    let bar = bar.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_millis(250));
        loop {
            every.tick().await;
            bar.set_position(started.elapsed().as_secs());
            bar.set_message(message());
        }
    })
}

/// Milliseconds of a duration, as the figures count them.
pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0.0)
}

/// The median, 99th percentile and maximum of some times (ms).
#[derive(Serialize, Debug, Clone, Copy)]
pub(super) struct Spread {
    /// The median.
    pub p50: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The longest.
    pub max: f64,
}

impl Spread {
    /// The spread of `times`, which it sorts.
    pub(super) fn of(times: &mut [f64]) -> Spread {
        times.sort_by(f64::total_cmp);
        Spread {
            p50: percentile(times, 0.50),
            p99: percentile(times, 0.99),
            max: times.last().copied().unwrap_or(0.0),
        }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.p50, self.p99, self.max
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_sorts_and_picks() {
        let mut times: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        let s = Spread::of(&mut times);
        assert_eq!((s.p50, s.p99, s.max), (51.0, 100.0, 100.0));
        assert_eq!(s.to_string(), "p50 51.00 ms, p99 100.00 ms, max 100.00 ms");
        let none = Spread::of(&mut []);
        assert_eq!((none.p50, none.max), (0.0, 0.0));
    }
}
