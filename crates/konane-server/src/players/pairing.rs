//! Quick pairing's rules: which waiting players may meet, by a rating range that widens
//! while they wait. Pure.

use crate::players::name::PlayerName;

/// A player waiting to be paired.
#[derive(Clone, PartialEq, Debug)]
pub struct Seek {
    /// The seek's secret id, known to its page only.
    pub id: String,
    /// The seeker's account, when logged in.
    pub account: Option<String>,
    /// The seeker's name.
    pub name: Option<PlayerName>,
    /// Their rating in the time control's category (a guest counts as 1500).
    pub rating: f64,
    /// Rated pairing (accounts only).
    pub rated: bool,
    /// The clock's time for each side.
    pub initial_ms: i64,
    /// Its increment.
    pub increment_ms: i64,
    /// Once paired: the game and the seeker's seat token.
    pub paired: Option<(String, String)>,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When its page last asked (Unix ms).
    pub seen_at: i64,
}

/// A seek whose page has not asked for this long is left out of pairing (ms).
pub const ALIVE_MS: i64 = 10_000;
/// The rating difference accepted at once.
const FIRST_RANGE: f64 = 150.0;
/// And added for every second of waiting.
const RANGE_PER_SECOND: f64 = 50.0;
/// The widest range: beyond it, better to wait than to meet a far stronger player.
const MAX_RANGE: f64 = 1_000.0;

/// The rating difference a seek accepts after waiting since `created_at`.
pub fn range(created_at: i64, now: i64) -> f64 {
    let waited = (now - created_at).max(0) as f64 / 1000.0;
    (FIRST_RANGE + RANGE_PER_SECOND * waited).min(MAX_RANGE)
}

/// Whether two seeks may be paired now: not one account twice, ratings within the
/// narrower of their ranges.
pub fn compatible(a: &Seek, b: &Seek, now: i64) -> bool {
    let same_account = a.account.is_some() && a.account == b.account;
    let allowed = range(a.created_at, now).min(range(b.created_at, now));
    !same_account && (a.rating - b.rating).abs() <= allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(account: Option<&str>, rating: f64, created_at: i64) -> Seek {
        Seek {
            id: format!("{account:?}{rating}"),
            account: account.map(str::to_string),
            name: None,
            rating,
            rated: true,
            initial_ms: 360_000,
            increment_ms: 0,
            paired: None,
            created_at,
            seen_at: created_at,
        }
    }

    #[test]
    fn the_range_widens_while_waiting() {
        assert_eq!(range(0, 0), 150.0);
        assert_eq!(range(0, 2_000), 250.0);
        assert_eq!(range(0, 3_600_000), MAX_RANGE);
        let (a, b) = (seek(Some("a"), 1500.0, 0), seek(Some("b"), 1800.0, 0));
        assert!(!compatible(&a, &b, 0));
        assert!(!compatible(&a, &b, 2_000), "250 is not yet 300");
        assert!(compatible(&a, &b, 3_000));
        // The newer seek's narrower range holds.
        let late = seek(Some("c"), 1800.0, 10_000);
        assert!(!compatible(&a, &late, 10_000));
    }

    #[test]
    fn nobody_is_paired_with_themselves() {
        let (a, again) = (seek(Some("a"), 1500.0, 0), seek(Some("a"), 1500.0, 5));
        assert!(!compatible(&a, &again, 60_000));
        let (g, h) = (seek(None, 1500.0, 0), seek(None, 1500.0, 0));
        assert!(compatible(&g, &h, 0), "two guests are two people");
    }
}
