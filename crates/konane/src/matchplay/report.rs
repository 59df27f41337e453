//! The printed result of a match: wins, thinking times, pairs, the score and Elo with their
//! intervals, and the sequential test.

use super::{MatchConfig, MatchResult};
use crate::stats::{Verdict, elo};

/// Prints the report of a finished match.
pub fn print(cfg: &MatchConfig, result: &MatchResult) {
    let games: Vec<_> = result.pairs.iter().flat_map(|p| &p.games).collect();
    let n = games.len();
    let wins = games.iter().filter(|g| g.a_won).count();
    let black_wins = games
        .iter()
        .filter(|g| g.record.tag("Result") == Some("black"))
        .count();
    println!(
        "{} vs {} on {} ({}), {} games ({} pairs), {}",
        cfg.a_name,
        cfg.b_name,
        cfg.size,
        cfg.opening,
        n,
        result.pairs.len(),
        cfg.openings.describe()
    );
    for (k, name) in [&cfg.a_name, &cfg.b_name].into_iter().enumerate() {
        let mut times: Vec<f64> = games
            .iter()
            .flat_map(|g| g.think_ms[k].iter().copied())
            .collect();
        times.sort_by(f64::total_cmp);
        let won = if k == 0 { wins } else { n - wins };
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        let p99 = times.get(times.len() * 99 / 100).copied().unwrap_or(0.0);
        let max = times.last().copied().unwrap_or(0.0);
        println!(
            "{name:<24} {won:>6} wins   per move: {mean:.1} ms mean, {p99:.1} ms p99, {max:.1} ms max"
        );
    }
    println!("black won {black_wins} of {n}");
    let counts = result.counts();
    let [p0, p1, p2, p3, p4] = counts.pentanomial();
    println!(
        "pairs: {} won {}, split {}, lost {} (pentanomial {p0}, {p1}, {p2}, {p3}, {p4})",
        cfg.a_name, counts.won, counts.split, counts.lost
    );
    let (score, lo, hi) = counts.score_interval();
    println!(
        "{} scores {:.1}% (95% interval {:.1}% to {:.1}%, from pairs), Elo difference {:+.0} ({:+.0} to {:+.0})",
        cfg.a_name,
        100.0 * score,
        100.0 * lo,
        100.0 * hi,
        elo(score),
        elo(lo),
        elo(hi)
    );
    if let Some(sprt) = cfg.sprt {
        let (lower, upper) = sprt.bounds();
        let outcome = match result.verdict() {
            Some(Verdict::Accepted) => format!("H1 accepted after {} pairs", counts.pairs()),
            Some(Verdict::Rejected) => format!("H1 rejected after {} pairs", counts.pairs()),
            None => format!(
                "undecided after {} pairs (the --games limit)",
                counts.pairs()
            ),
        };
        println!(
            "SPRT {sprt}: LLR {:+.2} (bounds {lower:.2}, {upper:.2}), {outcome}",
            sprt.llr(&counts)
        );
    }
}
