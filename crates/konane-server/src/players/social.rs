//! Follows and blocks between players: what may be asked, and each refusal's code.

/// Most players one account may follow, and most it may block.
pub const MAX_FOLLOWS: i64 = 500;
/// Most players one account may block.
pub const MAX_BLOCKS: i64 = 500;
/// How long after its last request an account counts as online (ms).
pub const ONLINE_MS: i64 = 5 * 60_000;
/// How often an instance writes an account's last-seen time at most (ms).
pub const SEEN_EVERY_MS: i64 = 60_000;

/// A refused follow or block, or a challenge a block stops.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SocialError {
    /// A player cannot follow or block themselves (422).
    #[error("you cannot follow or block yourself")]
    Yourself,
    /// The account follows or blocks as many players as allowed (429).
    #[error("you follow or block {0} players already: remove some first")]
    TooMany(i64),
    /// The player asked has blocked this one: a challenge or pairing is refused, and
    /// nothing more is said (403).
    #[error("this player does not take your challenges")]
    Blocked,
}

impl SocialError {
    /// The `error` code of the response body.
    pub fn code(&self) -> &'static str {
        match self {
            SocialError::Yourself => "yourself",
            SocialError::TooMany(_) => "too_many_follows",
            SocialError::Blocked => "blocked",
        }
    }
}
