//! Match statistics: a score with its 95% interval, and the Elo difference it implies.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// The Wilson score interval of `wins` out of `games` (95%).
pub fn wilson(wins: f64, games: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let p = wins / games;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * games)) / (1.0 + z2 / games);
    let half =
        Z95 * (p * (1.0 - p) / games + z2 / (4.0 * games * games)).sqrt() / (1.0 + z2 / games);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference of a player who scores `p` (0..1); clamped to ±999 at the extremes.
pub fn elo(p: f64) -> f64 {
    let p = p.clamp(0.0025, 0.9975);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-999.0, 999.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_and_elo() {
        let (lo, hi) = wilson(100.0, 200.0);
        assert!(
            (lo - 0.431).abs() < 0.005 && (hi - 0.569).abs() < 0.005,
            "{lo} {hi}"
        );
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.64) - 100.0).abs() < 1.0);
        assert!((elo(0.36) + 100.0).abs() < 1.0);
        assert_eq!(elo(1.0), elo(0.9975));
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && hi > 0.2 && hi < 0.35);
    }
}
