//! Match statistics: scores with their 95% intervals, the Elo difference they imply, and
//! the sequential probability ratio test.
//!
//! A match plays every opening twice with colours swapped, and a pair, not a game, is the
//! unit of evidence: a random opening may be won for one colour whatever the players do, and
//! the twin game cancels that. Kōnane has no draws, so a pair ends 2–0, 1–1 or 0–2: of the
//! five pentanomial outcomes (0, ½, 1, 1½, 2 points) only three can happen.

use std::fmt;
use std::str::FromStr;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// The Elo difference of a player who scores `p` (0..1); clamped to ±999 at the extremes.
pub fn elo(p: f64) -> f64 {
    let p = p.clamp(0.0025, 0.9975);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-999.0, 999.0)
}

/// The expected score (0..1) of a player `elo` points stronger (the logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What one pair of games (same opening, colours swapped) gave the first player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PairResult {
    /// Both games lost.
    Lost,
    /// One game each.
    Split,
    /// Both games won.
    Won,
}

impl PairResult {
    /// The pair of a player who won `wins` of its two games.
    pub fn from_wins(wins: usize) -> PairResult {
        match wins {
            0 => PairResult::Lost,
            1 => PairResult::Split,
            _ => PairResult::Won,
        }
    }
}

/// The score of a pair, 0 to 1, for each outcome in the order of [`PairCounts::counts`].
const PAIR_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// How many pairs the first player lost, split and won.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct PairCounts {
    /// Pairs lost 0–2.
    pub lost: u64,
    /// Pairs split 1–1.
    pub split: u64,
    /// Pairs won 2–0.
    pub won: u64,
}

impl PairCounts {
    /// Counts one more pair.
    pub fn add(&mut self, result: PairResult) {
        match result {
            PairResult::Lost => self.lost += 1,
            PairResult::Split => self.split += 1,
            PairResult::Won => self.won += 1,
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.lost + self.split + self.won
    }

    /// Lost, split, won: the order of [`PAIR_SCORES`].
    fn counts(&self) -> [u64; 3] {
        [self.lost, self.split, self.won]
    }

    /// The pentanomial counts: pairs that gave 0, ½, 1, 1½ and 2 points (½ and 1½ need a
    /// draw, which Kōnane does not have).
    pub fn pentanomial(&self) -> [u64; 5] {
        [self.lost, 0, self.split, 0, self.won]
    }

    /// The mean pair score (0..1) and its 95% interval, from the variance of pair scores.
    pub fn score_interval(&self) -> (f64, f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0, 1.0);
        }
        let freq = self.counts().map(|c| c as f64 / n);
        let mean: f64 = freq.iter().zip(PAIR_SCORES).map(|(f, a)| f * a).sum();
        let var: f64 = freq
            .iter()
            .zip(PAIR_SCORES)
            .map(|(f, a)| f * (a - mean).powi(2))
            .sum();
        let half = Z95 * (var / n).sqrt();
        (mean, (mean - half).max(0.0), (mean + half).min(1.0))
    }
}

/// What a sequential test decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// H1: the first player is at least `elo1` stronger.
    Accepted,
    /// H0: the first player is at most `elo0` stronger.
    Rejected,
}

/// A sequential probability ratio test of `elo0` against `elo1` on pair results: the
/// generalised SPRT on the pair frequencies, as Fishtest computes it (maximum-likelihood
/// distributions with the two expected scores, logistic Elo, empty outcomes regularised).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Stands in for an outcome never seen, so that the likelihood stays finite (Fishtest's
/// choice).
const REGULARISE: f64 = 1e-3;

impl Sprt {
    /// The log-likelihood ratio below which H0 is accepted and above which H1 is.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `counts`.
    pub fn llr(&self, counts: &PairCounts) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let raw = counts.counts().map(|c| (c as f64).max(REGULARISE));
        let n: f64 = raw.iter().sum();
        let freq = raw.map(|c| c / n);
        let p0 = closest_with_mean(&freq, expected_score(self.elo0));
        let p1 = closest_with_mean(&freq, expected_score(self.elo1));
        n * freq
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(f, (a, b))| f * (b / a).ln())
            .sum::<f64>()
    }

    /// The decision after `counts`, if the ratio has left the bounds.
    pub fn verdict(&self, counts: &PairCounts) -> Option<Verdict> {
        let (lower, upper) = self.bounds();
        let llr = self.llr(counts);
        if llr >= upper {
            Some(Verdict::Accepted)
        } else if llr <= lower {
            Some(Verdict::Rejected)
        } else {
            None
        }
    }
}

/// The distribution on the pair scores nearest to `freq` (by likelihood) whose mean is
/// `mean` (strictly between 0 and 1): `p_i = f_i / (1 + x (a_i - mean))` with `x` the root
/// of `sum f_i (a_i - mean) / (1 + x (a_i - mean)) = 0`, which falls as `x` grows.
fn closest_with_mean(freq: &[f64; 3], mean: f64) -> [f64; 3] {
    let d = PAIR_SCORES.map(|a| a - mean);
    let g = |x: f64| -> f64 {
        freq.iter()
            .zip(&d)
            .map(|(f, d)| f * d / (1.0 + x * d))
            .sum()
    };
    // Every denominator stays positive between these ends.
    let (mut lo, mut hi) = (-1.0 / d[2], -1.0 / d[0]);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let p = [0, 1, 2].map(|i| freq[i] / (1.0 + x * d[i]));
    let sum: f64 = p.iter().sum();
    p.map(|v| v / sum)
}

impl FromStr for Sprt {
    type Err = String;

    /// Reads `elo0=0,elo1=5`, optionally with `alpha=0.05,beta=0.05`.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}': write key=value, e.g. elo0=0,elo1=5"))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("'{part}': '{value}' is not a number"))?;
            match key.trim() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => return Err(format!("unknown SPRT setting '{other}'")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("the SPRT needs elo0 and elo1, e.g. elo0=0,elo1=5".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("elo1 must be above elo0".into());
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
            return Err("alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_expected_score() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.64) - 100.0).abs() < 1.0);
        assert!((elo(0.36) + 100.0).abs() < 1.0);
        assert_eq!(elo(1.0), elo(0.9975));
        assert!((elo(expected_score(123.0)) - 123.0).abs() < 1e-9);
    }

    fn counts(lost: u64, split: u64, won: u64) -> PairCounts {
        PairCounts { lost, split, won }
    }

    #[test]
    fn pair_interval_uses_the_pair_variance() {
        // Scores 0, ½, 1 with frequencies 1/6, 1/3, 1/2: mean 2/3, variance 5/36.
        let (mean, lo, hi) = counts(10, 20, 30).score_interval();
        let half = Z95 * (5.0f64 / 36.0 / 60.0).sqrt();
        assert!((mean - 2.0 / 3.0).abs() < 1e-12);
        assert!((lo - (2.0 / 3.0 - half)).abs() < 1e-12 && (hi - (2.0 / 3.0 + half)).abs() < 1e-12);
        assert_eq!(counts(4, 0, 0).score_interval(), (0.0, 0.0, 0.0));
        assert_eq!(counts(1, 2, 3).pentanomial(), [1, 0, 2, 0, 3]);
    }

    #[test]
    fn llr_matches_a_hand_computed_value() {
        // Frequencies 1/6, 1/3, 1/2 on scores 0, ½, 1. Under H0 (mean ½) the secular equation
        // -(1/12) / (1 - x/2) + (1/4) / (1 + x/2) = 0 gives x = 1, so p0 = (1/3, 1/3, 1/3).
        // Under H1 the mean is the sample's own, 2/3 (400·log10 2 Elo), so p1 = the sample.
        // LLR = 10 ln(1/2) + 20 ln(1) + 30 ln(3/2) = 5.232481...
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 400.0 * 2f64.log10(),
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = sprt.llr(&counts(10, 20, 30));
        assert!(
            (llr - (30.0 * 1.5f64.ln() - 10.0 * 2f64.ln())).abs() < 1e-9,
            "{llr}"
        );
        assert_eq!(sprt.verdict(&counts(10, 20, 30)), Some(Verdict::Accepted));
        // The mirror image rejects by as much.
        let mirrored = Sprt {
            elo0: -sprt.elo1,
            elo1: 0.0,
            ..sprt
        };
        assert!((mirrored.llr(&counts(30, 20, 10)) + llr).abs() < 1e-9);
        let (lower, upper) = sprt.bounds();
        assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
        assert_eq!(sprt.llr(&PairCounts::default()), 0.0);
    }

    #[test]
    fn sprt_decides_only_on_enough_evidence() {
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        assert_eq!(sprt.verdict(&counts(0, 0, 2)), None);
        assert_eq!(sprt.verdict(&counts(50, 100, 50)), None);
        assert_eq!(
            sprt.verdict(&counts(400, 200, 200)),
            Some(Verdict::Rejected)
        );
        assert_eq!(
            sprt.verdict(&counts(100, 200, 300)),
            Some(Verdict::Accepted)
        );
        let wide: Sprt = "elo0=0,elo1=200".parse().unwrap();
        let decided = |c: fn(u64) -> PairCounts| (1..100).find(|&n| wide.verdict(&c(n)).is_some());
        assert!(decided(|n| counts(0, 0, n)).is_some_and(|n| (3..20).contains(&n)));
        assert!(decided(|n| counts(n, 0, 0)).is_some_and(|n| (2..20).contains(&n)));
    }

    #[test]
    fn sprt_settings_parse() {
        let s: Sprt = "elo0=-1.5, elo1=4,alpha=0.1".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 4.0, 0.1, 0.05));
        for bad in [
            "",
            "elo0=0",
            "elo1=5",
            "elo0=5,elo1=0",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,gamma=1",
            "elo0=0,elo1=5,alpha=0.7",
            "elo0=0,elo1=inf",
            "elo0",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
