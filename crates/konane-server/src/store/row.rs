//! A game as stored: one row of JSON text with plain strings, read back into a typed
//! [`ServedGame`] once per request. The format is the one earlier versions wrote, so old
//! rows still load.

use konane_core::{Color, Game, Opening, Size};
use konane_engine::Level;
use serde::{Deserialize, Serialize};

use crate::games::game::{
    Challenge, ClockState, EndReason, EngineHost, GameError, GameResult, Mode, Seat, SeatRating,
    SeatToken, ServedGame, Status, TournamentLink,
};
use crate::players::name::PlayerName;

/// A seat as stored.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct RowSeat {
    /// The seat's secret.
    pub token: Option<String>,
    /// The engine plays this seat.
    pub engine: bool,
    /// A display name.
    pub name: Option<String>,
    /// The player's account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
    /// The player's rating for this game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
}

/// A result as stored: the winner's colour and the reason's code (older rows: a sentence).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RowResult {
    /// `black`, `white`, or none for an aborted game.
    pub winner: Option<String>,
    /// An [`EndReason`] code.
    pub reason: String,
}

/// A game row's JSON.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// Board size, `8x8`.
    pub size: String,
    /// Opening rule.
    pub opening: String,
    /// The engine's level, when it plays.
    pub level: Option<u8>,
    /// Black's and White's seats.
    pub seats: [RowSeat; 2],
    /// The moves so far, in notation.
    pub moves: Vec<String>,
    /// Where the game stands.
    pub status: Status,
    /// How it ended.
    pub result: Option<RowResult>,
    /// The clock, if the game is timed.
    pub clock: Option<ClockState>,
    /// The id of the rematch, once one was asked for.
    pub rematch: Option<String>,
    /// When the game was created (Unix ms).
    pub created_at: i64,
    /// The creator's address, for engine fairness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// The result changes the players' ratings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Who plays the computer's side; rows written before browsers could play it have
    /// none, and the server's engine played them.
    #[serde(default, skip_serializing_if = "is_server")]
    pub engine_host: EngineHost,
    /// The account a challenge waits for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<RowChallenge>,
    /// The tournament that paired it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentLink>,
}

/// A challenge as stored: the challenged account and its name.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RowChallenge {
    /// The account's id.
    pub account: String,
    /// Its name.
    pub name: String,
}

fn is_server(host: &EngineHost) -> bool {
    *host == EngineHost::Server
}

impl GameRow {
    /// The stored form of a game.
    pub fn of(g: &ServedGame) -> GameRow {
        let seat = |s: &Seat| RowSeat {
            token: s.token.as_ref().map(|t| t.as_str().to_string()),
            engine: s.engine,
            name: s.name.as_ref().map(|n| n.as_str().to_string()),
            account: s.account.clone(),
            rating: s.rating,
        };
        GameRow {
            id: g.id.clone(),
            mode: g.mode,
            size: g.game.size().to_string(),
            opening: g.game.start().opening().to_string(),
            level: g.level.map(Level::get),
            seats: [seat(&g.seats[0]), seat(&g.seats[1])],
            moves: g.game.move_texts(),
            status: g.status,
            result: g.result.map(|r| RowResult {
                winner: r.winner.map(|c| c.name().to_string()),
                reason: r.reason.code().to_string(),
            }),
            clock: g.clock.clone(),
            rematch: g.rematch.clone(),
            created_at: g.created_at,
            client: g.client.clone(),
            rated: g.rated,
            engine_host: g.engine_host,
            challenge: g.challenge.as_ref().map(|c| RowChallenge {
                account: c.account.clone(),
                name: c.name.to_string(),
            }),
            tournament: g.tournament.clone(),
        }
    }

    /// The typed game, its moves replayed through the rules once.
    pub fn load(self) -> Result<ServedGame, GameError> {
        let id = self.id.clone();
        let corrupt = |message: String| GameError::Corrupt {
            id: id.clone(),
            message,
        };
        let size: Size = self
            .size
            .parse()
            .map_err(|e| corrupt(format!("size: {e}")))?;
        let opening: Opening = self
            .opening
            .parse()
            .map_err(|e| corrupt(format!("opening: {e}")))?;
        let mut game = Game::new(size, opening);
        for m in &self.moves {
            game.play_text(m)
                .map_err(|e| corrupt(format!("move {m}: {e}")))?;
        }
        let level = self
            .level
            .map(|l| Level::new(i64::from(l)))
            .transpose()
            .map_err(|e| corrupt(e.to_string()))?;
        let result = self
            .result
            .map(|r| {
                let winner = match r.winner.as_deref() {
                    None => None,
                    Some("black") => Some(Color::Black),
                    Some("white") => Some(Color::White),
                    Some(w) => return Err(corrupt(format!("winner {w}"))),
                };
                let reason = EndReason::from_stored(&r.reason)
                    .ok_or_else(|| corrupt(format!("reason {}", r.reason)))?;
                Ok(GameResult { winner, reason })
            })
            .transpose()?;
        // Names were checked when given; one an older version let through is dropped
        // rather than shown.
        let seat = |s: RowSeat| Seat {
            token: s.token.map(SeatToken::from_stored),
            engine: s.engine,
            name: s.name.and_then(|n| PlayerName::parse(&n).ok()),
            account: s.account,
            rating: s.rating,
        };
        let challenge = self
            .challenge
            .map(|c| match PlayerName::parse(&c.name) {
                Ok(name) => Ok(Challenge {
                    account: c.account,
                    name,
                }),
                Err(e) => Err(corrupt(format!("challenge: {e}"))),
            })
            .transpose()?;
        let [black, white] = self.seats;
        Ok(ServedGame {
            id: self.id,
            mode: self.mode,
            level,
            seats: [seat(black), seat(white)],
            game,
            status: self.status,
            result,
            clock: self.clock,
            rematch: self.rematch,
            created_at: self.created_at,
            client: self.client,
            rated: self.rated,
            engine_host: self.engine_host,
            challenge,
            tournament: self.tournament,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_from_before_browsers_played_the_computer_reads_as_the_servers() {
        let old = r#"{"id":"g","mode":"engine","size":"6x6","opening":"center-or-corner",
            "level":3,"seats":[{"token":"t","engine":false,"name":null},
            {"token":null,"engine":true,"name":null}],"moves":[],"status":"playing",
            "result":null,"clock":null,"rematch":null,"created_at":1}"#;
        let row: GameRow = serde_json::from_str(old).unwrap();
        assert_eq!(row.engine_host, EngineHost::Server);
        let game = row.clone().load().unwrap();
        assert_eq!(game.engine_host, EngineHost::Server);
        // Written back, it is the row it was: the default is not spelled out.
        assert!(
            !serde_json::to_string(&GameRow::of(&game))
                .unwrap()
                .contains("engine_host")
        );
        let mut browser = game;
        browser.engine_host = EngineHost::Browser;
        let text = serde_json::to_string(&GameRow::of(&browser)).unwrap();
        let back: GameRow = serde_json::from_str(&text).unwrap();
        assert_eq!(back.load().unwrap().engine_host, EngineHost::Browser);
    }
}
