//! The result of a match: wins, thinking times, pairs, the score and Elo with their
//! intervals, and the sequential test; printed as text or as the `--json` document.

use serde::Serialize;

use super::config::MatchConfig;
use super::result::MatchResult;
use crate::stats::{Verdict, elo};

/// What a finished match came to, the first player's view (the `--json` document).
#[derive(Serialize)]
pub struct Summary {
    size: String,
    opening: &'static str,
    /// Where the pairs started, in words.
    openings: String,
    games: usize,
    pairs: usize,
    /// The first player (`--black`) and the second (`--white`).
    players: [Player; 2],
    /// Games won by the side that moved first.
    black_won: usize,
    /// Pairs won 2–0, split 1–1 and lost 0–2 by the first player.
    won: u64,
    split: u64,
    lost: u64,
    /// Pairs by the first player's points in them (0, 0.5, 1, 1.5, 2).
    pentanomial: [u64; 5],
    /// The first player's score, 0 to 1, and its 95% interval, from pairs.
    score: f64,
    score_low: f64,
    score_high: f64,
    /// The Elo difference the score means, and its interval.
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    /// The sequential test, when `--sprt` was given.
    sprt: Option<SprtSummary>,
}

/// One player's wins and thinking times.
#[derive(Serialize)]
struct Player {
    name: String,
    wins: usize,
    /// Milliseconds per move: mean, 99th percentile and most.
    ms_mean: f64,
    ms_p99: f64,
    ms_max: f64,
}

/// Where the sequential test ended.
#[derive(Serialize)]
struct SprtSummary {
    /// The test as given, e.g. `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    test: String,
    llr: f64,
    lower: f64,
    upper: f64,
    verdict: Decision,
}

/// The test's verdict: `"H1"` (accepted), `"H0"` (H1 rejected) or `"undecided"` (the
/// `--games` limit came first).
#[derive(Serialize, Clone, Copy)]
enum Decision {
    H1,
    H0,
    #[serde(rename = "undecided")]
    Undecided,
}

impl Summary {
    /// The summary of a finished match.
    pub fn of(cfg: &MatchConfig, result: &MatchResult) -> Summary {
        let games: Vec<_> = result.pairs.iter().flat_map(|p| &p.games).collect();
        let n = games.len();
        let wins = games.iter().filter(|g| g.a_won).count();
        let black_won = games
            .iter()
            .filter(|g| g.record.tag("Result") == Some("black"))
            .count();
        let player = |k: usize, name: &str| {
            let mut times: Vec<f64> = games
                .iter()
                .flat_map(|g| g.think_ms[k].iter().copied())
                .collect();
            times.sort_by(f64::total_cmp);
            Player {
                name: name.to_string(),
                wins: if k == 0 { wins } else { n - wins },
                ms_mean: times.iter().sum::<f64>() / times.len().max(1) as f64,
                ms_p99: times.get(times.len() * 99 / 100).copied().unwrap_or(0.0),
                ms_max: times.last().copied().unwrap_or(0.0),
            }
        };
        let counts = result.counts();
        let (score, lo, hi) = counts.score_interval();
        let sprt = cfg.sprt.map(|sprt| {
            let (lower, upper) = sprt.bounds();
            SprtSummary {
                test: sprt.to_string(),
                llr: sprt.llr(&counts),
                lower,
                upper,
                verdict: match result.verdict() {
                    Some(Verdict::Accepted) => Decision::H1,
                    Some(Verdict::Rejected) => Decision::H0,
                    None => Decision::Undecided,
                },
            }
        });
        Summary {
            size: cfg.size.to_string(),
            opening: cfg.opening.name(),
            openings: cfg.openings.describe(),
            games: n,
            pairs: result.pairs.len(),
            players: [player(0, &cfg.a_name), player(1, &cfg.b_name)],
            black_won,
            won: counts.won,
            split: counts.split,
            lost: counts.lost,
            pentanomial: counts.pentanomial(),
            score,
            score_low: lo,
            score_high: hi,
            elo: elo(score),
            elo_low: elo(lo),
            elo_high: elo(hi),
            sprt,
        }
    }

    /// Prints the report as text.
    pub fn print(&self) {
        let [a, b] = &self.players;
        println!(
            "{} vs {} on {} ({}), {} games ({} pairs), {}",
            a.name, b.name, self.size, self.opening, self.games, self.pairs, self.openings
        );
        for p in &self.players {
            println!(
                "{:<24} {:>6} wins   per move: {:.1} ms mean, {:.1} ms p99, {:.1} ms max",
                p.name, p.wins, p.ms_mean, p.ms_p99, p.ms_max
            );
        }
        println!("black won {} of {}", self.black_won, self.games);
        let [p0, p1, p2, p3, p4] = self.pentanomial;
        println!(
            "pairs: {} won {}, split {}, lost {} (pentanomial {p0}, {p1}, {p2}, {p3}, {p4})",
            a.name, self.won, self.split, self.lost
        );
        println!(
            "{} scores {:.1}% (95% interval {:.1}% to {:.1}%, from pairs), Elo difference {:+.0} ({:+.0} to {:+.0})",
            a.name,
            100.0 * self.score,
            100.0 * self.score_low,
            100.0 * self.score_high,
            self.elo,
            self.elo_low,
            self.elo_high
        );
        if let Some(sprt) = &self.sprt {
            let pairs = self.pairs;
            let outcome = match sprt.verdict {
                Decision::H1 => format!("H1 accepted after {pairs} pairs"),
                Decision::H0 => format!("H1 rejected after {pairs} pairs"),
                Decision::Undecided => format!("undecided after {pairs} pairs (the --games limit)"),
            };
            println!(
                "SPRT {}: LLR {:+.2} (bounds {:.2}, {:.2}), {outcome}",
                sprt.test, sprt.llr, sprt.lower, sprt.upper
            );
        }
    }
}
