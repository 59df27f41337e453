//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), for puzzles and
//! players alike: a rating, how sure it is (the deviation) and how erratic (the
//! volatility). Pure arithmetic, no I/O.

/// The Glicko-2 scale factor between the displayed scale and the internal one.
const SCALE: f64 = 173.7178;

/// How much the volatility may change in one period; Glickman suggests 0.3 to 1.2.
pub const TAU: f64 = 0.5;

/// The convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A deviation never grows past a newcomer's.
const MAX_DEVIATION: f64 = 350.0;

/// A rating on the displayed scale (1500 is a newcomer).
#[derive(Clone, Copy, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// The rating itself.
    pub rating: f64,
    /// Its deviation: about a 95% chance the true rating is within twice this.
    pub deviation: f64,
    /// Its volatility: how much the rating is expected to swing.
    pub volatility: f64,
}

/// One game's result, from the rated side's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// A win (a puzzle solved, for the player).
    Win,
    /// A loss.
    Loss,
}

impl Score {
    fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Loss => Score::Win,
        }
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating::starting(1500.0)
    }
}

impl Rating {
    /// A rating at `rating` that is not yet sure of itself.
    pub fn starting(rating: f64) -> Rating {
        Rating {
            rating,
            deviation: MAX_DEVIATION,
            volatility: 0.06,
        }
    }

    fn mu(self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(self) -> f64 {
        self.deviation / SCALE
    }

    /// The expected score of `self` against `other`, from 0 to 1.
    pub fn expected(self, other: Rating) -> f64 {
        expected(self.mu(), other.mu(), other.phi())
    }

    /// Whether every field is a finite number in its range, for values read from outside.
    pub fn is_valid(self) -> bool {
        self.rating.is_finite()
            && (0.0..=5000.0).contains(&self.rating)
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.deviation <= MAX_DEVIATION
            && self.volatility.is_finite()
            && self.volatility > 0.0
            && self.volatility < 1.0
    }

    /// The rating after one rating period with `games` (opponent, result).
    pub fn update(self, games: &[(Rating, Score)]) -> Rating {
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        if games.is_empty() {
            let deviation = ((phi * phi + sigma * sigma).sqrt() * SCALE).min(MAX_DEVIATION);
            return Rating { deviation, ..self };
        }
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for &(opponent, score) in games {
            let g = g(opponent.phi());
            let e = expected(mu, opponent.mu(), opponent.phi());
            v_inv += g * g * e * (1.0 - e);
            sum += g * (score.value() - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        let sigma = new_volatility(phi, sigma, v, delta);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: SCALE * mu_new + 1500.0,
            deviation: (SCALE * phi_new).min(MAX_DEVIATION),
            volatility: sigma,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// Step 5 of the paper: the new volatility by the Illinois variant of regula falsi.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// The worked example of Glickman's paper.
    #[test]
    fn papers_example() {
        let after = r(1500.0, 200.0).update(&[
            (r(1400.0, 30.0), Score::Win),
            (r(1550.0, 100.0), Score::Loss),
            (r(1700.0, 300.0), Score::Loss),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers() {
        let me = Rating::default();
        let them = r(1500.0, 100.0);
        assert!(me.update(&[(them, Score::Win)]).rating > 1500.0);
        assert!(me.update(&[(them, Score::Loss)]).rating < 1500.0);
        assert!((me.expected(them) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn an_idle_period_only_widens_the_deviation() {
        let me = r(1600.0, 100.0);
        let after = me.update(&[]);
        assert_eq!(after.rating, 1600.0);
        assert!(after.deviation > 100.0 && after.deviation <= MAX_DEVIATION);
    }
}
