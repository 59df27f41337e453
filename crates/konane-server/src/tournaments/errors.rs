//! Every way a tournament request can be refused, with the machine code and field the page
//! words in its language.

/// A refused tournament request.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TournamentError {
    /// A field of a new tournament is out of its range or malformed (422).
    #[error("{field}: {message}")]
    BadField {
        /// The request's field.
        field: &'static str,
        /// What is allowed, in English.
        message: String,
    },
    /// A private event's entry code is missing or wrong (403).
    #[error("this tournament needs its entry code")]
    EntryCode,
    /// The player's rating is below the event's minimum (403).
    #[error("your rating is below this tournament's minimum of {0}")]
    RatingTooLow(u32),
    /// The player has fewer rated games than the event asks for (403).
    #[error("this tournament needs at least {0} rated games")]
    TooFewGames(u32),
    /// The tournament is over (409).
    #[error("the tournament is over")]
    Finished,
    /// A Swiss or round robin whose first round is paired takes nobody new (409).
    #[error("the tournament has started: it takes no new players")]
    Started,
    /// Only the creator may start the tournament early (403).
    #[error("only the tournament's creator may start it")]
    NotCreator,
    /// The player is not in the tournament (409).
    #[error("you are not in this tournament")]
    NotJoined,
    /// A league has no pause: its games all run at once (409).
    #[error("a league cannot be paused: resign or withdraw instead")]
    NoPause,
    /// One account may run only so many tournaments not yet finished (429).
    #[error("you have {0} tournaments waiting or running: let one finish first")]
    TooManyCreated(usize),
}

impl TournamentError {
    /// The `error` code of the response body.
    pub fn code(&self) -> &'static str {
        match self {
            TournamentError::BadField { .. } => "bad_field",
            TournamentError::EntryCode => "entry_code",
            TournamentError::RatingTooLow(_) => "rating_too_low",
            TournamentError::TooFewGames(_) => "too_few_games",
            TournamentError::Finished => "finished",
            TournamentError::Started => "started",
            TournamentError::NotCreator => "not_creator",
            TournamentError::NotJoined => "not_joined",
            TournamentError::NoPause => "no_pause",
            TournamentError::TooManyCreated(_) => "too_many_tournaments",
        }
    }

    /// The field a refusal names, if any.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            TournamentError::BadField { field, .. } => Some(field),
            _ => None,
        }
    }

    /// A refusal of `field` saying what is allowed.
    pub fn bad(field: &'static str, message: impl Into<String>) -> TournamentError {
        TournamentError::BadField {
            field,
            message: message.into(),
        }
    }
}
