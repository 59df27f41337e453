//! Why a request cannot change a game, each with a code that travels to the page.

use konane_core::{Color, IllegalMove, NotationError, PlayError};

/// Why a request cannot change a game. Each has a code (`code()`) that travels to the page.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No token was sent.
    #[error("this needs the seat token: send Authorization: Bearer <token>")]
    NoToken,
    /// The token holds no seat here.
    #[error("that token holds no seat in this game")]
    WrongToken,
    /// A seat is still free.
    #[error("the game has not started: a seat is still free")]
    NotStarted,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The other side is to move.
    #[error("it is {0}'s turn")]
    NotYourTurn(Color),
    /// The move was made for another ply (a double submit, or a race with another tab).
    #[error("the move is for ply {sent}, but the game is at ply {at}")]
    StalePly {
        /// The ply the client named.
        sent: usize,
        /// The ply the game is at.
        at: usize,
    },
    /// Take-backs are for games against the engine.
    #[error("moves can be taken back only in games against the engine")]
    TakebackNotAllowed,
    /// The player has made no move yet.
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    /// Both seats are taken.
    #[error("both seats are taken: you can watch this game")]
    SeatsTaken,
    /// Someone else changed the game between reading and storing it.
    #[error("the game changed meanwhile: another move was made first")]
    Changed,
    /// A rematch waits for the end.
    #[error("a rematch can start once the game is over")]
    NotOver,
    /// The win can be claimed only when the opponent has gone, in a timed game.
    #[error("the win can be claimed only when the opponent has left a timed game")]
    CannotClaim,
    /// A rated game is played between two logged-in players.
    #[error("rated games are for logged-in players: log in or register first")]
    LoginRequired,
    /// One account cannot take both seats.
    #[error("this is your own game: you cannot play yourself")]
    OwnGame,
    /// A challenge is for another player only.
    #[error("this challenge is for another player")]
    NotChallenged,
    /// The move text is not a move on this board.
    #[error("{0}")]
    BadMove(NotationError),
    /// The move breaks the rules here.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// A stored row that does not make a game (never expected: rows are written by us).
    #[error("stored game {id} is unreadable: {message}")]
    Corrupt {
        /// The game.
        id: String,
        /// What failed.
        message: String,
    },
}

impl GameError {
    /// The code the API sends.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::NoToken | GameError::WrongToken => "forbidden",
            GameError::NotStarted => "not_started",
            GameError::Over => "game_over",
            GameError::NotYourTurn(_) => "not_your_turn",
            GameError::StalePly { .. } | GameError::Changed => "stale_ply",
            GameError::TakebackNotAllowed | GameError::NothingToTakeBack => "no_takeback",
            GameError::SeatsTaken => "seats_taken",
            GameError::NotOver => "not_over",
            GameError::CannotClaim => "cannot_claim",
            GameError::LoginRequired => "login_required",
            GameError::OwnGame => "own_game",
            GameError::NotChallenged => "not_challenged",
            GameError::BadMove(_) => "bad_move",
            GameError::Illegal(_) => "illegal_move",
            GameError::Corrupt { .. } => "internal",
        }
    }
}

impl From<PlayError> for GameError {
    fn from(e: PlayError) -> Self {
        match e {
            PlayError::Notation(n) => GameError::BadMove(n),
            PlayError::Illegal(i) => GameError::Illegal(i),
        }
    }
}
