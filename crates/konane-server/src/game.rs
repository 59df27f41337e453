//! A game as the server keeps it, and every change a request can make to it.
//!
//! The stored form holds the settings, the seats and the moves as text; the rules are
//! replayed from the moves on every change, so a stored game can never hold an illegal
//! position. Nothing here does I/O: `now` is passed in, and callers store the result.

use konane_core::{AnyPosition, Color, Game, Opening, Phase, Record, Size};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::ApiError;

/// How the seats are filled.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the engine (or the engine against itself, for watching).
    Engine,
    /// Against a friend who opens the invitation link.
    Friend,
    /// Two players on one device, one token for both seats.
    Local,
    /// Listed in the lobby for anyone to join.
    Open,
}

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A seat is still free.
    Waiting,
    /// Both seats are taken and the game is on.
    Playing,
    /// Over, with a result.
    Finished,
}

/// One side of the board.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Seat {
    /// The secret that proves the seat (never sent in a game's state).
    pub token: Option<String>,
    /// The engine plays this seat.
    pub engine: bool,
    /// A display name.
    pub name: Option<String>,
}

/// A chess-style clock kept by the server.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ClockState {
    /// Time each side starts with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Time left for Black and White when the running side's clock last started.
    pub remaining_ms: [i64; 2],
    /// When the side to move's clock started (Unix ms); `None` when stopped.
    pub running_since: Option<i64>,
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameResult {
    /// `black` or `white`.
    pub winner: String,
    /// Why, for a human: "white has no move", "black resigned", "white ran out of time".
    pub reason: String,
}

/// A game as stored.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct StoredGame {
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
    pub seats: [Seat; 2],
    /// The moves so far, in notation.
    pub moves: Vec<String>,
    /// Where the game stands.
    pub status: Status,
    /// How it ended.
    pub result: Option<GameResult>,
    /// The clock, if the game is timed.
    pub clock: Option<ClockState>,
    /// The id of the rematch, once one was asked for.
    pub rematch: Option<String>,
    /// When the game was created (Unix ms).
    pub created_at: i64,
}

fn color_index(c: Color) -> usize {
    c.index()
}

impl StoredGame {
    /// The rules' view of the game, replayed from the moves.
    pub fn replay(&self) -> Result<Game, ApiError> {
        let size: Size = self
            .size
            .parse()
            .map_err(|e| ApiError::Internal(format!("stored size: {e}")))?;
        let opening: Opening = self
            .opening
            .parse()
            .map_err(|e| ApiError::Internal(format!("stored opening: {e}")))?;
        let mut game = Game::new(size, opening);
        for m in &self.moves {
            game.play_text(m)
                .map_err(|e| ApiError::Internal(format!("stored move {m}: {e}")))?;
        }
        Ok(game)
    }

    /// The seats a token holds (both, on a shared device).
    pub fn seats_of(&self, token: Option<&str>) -> Result<Vec<Color>, ApiError> {
        let token = token.ok_or_else(|| {
            ApiError::Forbidden(
                "this needs the seat token: send Authorization: Bearer <token>".into(),
            )
        })?;
        let seats: Vec<Color> = [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| self.seats[color_index(c)].token.as_deref() == Some(token))
            .collect();
        if seats.is_empty() {
            return Err(ApiError::Forbidden(
                "that token holds no seat in this game".into(),
            ));
        }
        Ok(seats)
    }

    fn ensure_playing(&self) -> Result<(), ApiError> {
        match self.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(ApiError::conflict(
                "not_started",
                "the game has not started: a seat is still free",
            )),
            Status::Finished => Err(ApiError::conflict("game_over", "the game is over")),
        }
    }

    /// The side to move now, if the game is on.
    pub fn turn(&self) -> Result<Color, ApiError> {
        Ok(self.replay()?.position().turn())
    }

    /// Plays `text` for the holder of `token`, on ply `ply`; on any error nothing changes.
    pub fn play(
        &mut self,
        token: Option<&str>,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), ApiError> {
        let seats = self.seats_of(token)?;
        self.ensure_playing()?;
        let game = self.replay()?;
        let turn = game.position().turn();
        if !seats.contains(&turn) {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("it is {turn}'s turn"),
            ));
        }
        self.play_as(turn, text, ply, now)
    }

    /// Plays `text` for `mover` (a person or the engine), checking everything but the seat.
    pub fn play_as(
        &mut self,
        mover: Color,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        if ply != self.moves.len() {
            return Err(ApiError::conflict(
                "stale_ply",
                format!(
                    "the move is for ply {ply}, but the game is at ply {}",
                    self.moves.len()
                ),
            ));
        }
        let mut game = self.replay()?;
        if game.position().turn() != mover {
            return Err(ApiError::conflict(
                "not_your_turn",
                format!("it is {}'s turn", game.position().turn()),
            ));
        }
        if self.flag_fall(now) {
            return Err(ApiError::conflict(
                "game_over",
                "the game is over: time ran out",
            ));
        }
        let m = game.play_text(text).map_err(play_error)?;
        self.moves.push(game.size().move_text(m).to_string());
        if let Some(clock) = &mut self.clock {
            let i = color_index(mover);
            let since = clock.running_since.unwrap_or(now);
            clock.remaining_ms[i] =
                clock.remaining_ms[i] - (now - since).max(0) + clock.increment_ms;
            clock.running_since = Some(now);
        }
        self.finish_if_over(&game);
        Ok(())
    }

    /// Ends the game when the side to move has no move.
    fn finish_if_over(&mut self, game: &Game) {
        if let Some(o) = game.outcome() {
            self.finish(o.winner, o.termination());
        }
    }

    fn finish(&mut self, winner: Color, reason: String) {
        self.status = Status::Finished;
        self.result = Some(GameResult {
            winner: winner.name().to_string(),
            reason,
        });
        if let Some(clock) = &mut self.clock {
            clock.running_since = None;
        }
    }

    /// When the side to move runs out of time (Unix ms), if a clock is running.
    pub fn deadline(&self) -> Option<i64> {
        let clock = self.clock.as_ref()?;
        let since = clock.running_since?;
        let turn = self.turn().ok()?;
        Some(since + clock.remaining_ms[color_index(turn)])
    }

    /// Ends the game if the side to move's time is up at `now`; true if it did.
    pub fn flag_fall(&mut self, now: i64) -> bool {
        if self.status != Status::Playing {
            return false;
        }
        match (self.deadline(), self.turn()) {
            (Some(deadline), Ok(turn)) if now >= deadline => {
                if let Some(clock) = &mut self.clock {
                    clock.remaining_ms[color_index(turn)] = 0;
                }
                self.finish(turn.opponent(), format!("{turn} ran out of time"));
                true
            }
            _ => false,
        }
    }

    /// The holder of `token` gives up (on a shared device: the side to move).
    pub fn resign(&mut self, token: Option<&str>, now: i64) -> Result<(), ApiError> {
        let seats = self.seats_of(token)?;
        self.ensure_playing()?;
        if self.flag_fall(now) {
            return Ok(());
        }
        let turn = self.turn()?;
        let loser = if seats.contains(&turn) {
            turn
        } else {
            seats[0]
        };
        self.stop_clock(now);
        self.finish(loser.opponent(), format!("{loser} resigned"));
        Ok(())
    }

    fn stop_clock(&mut self, now: i64) {
        let turn = self.turn().ok();
        if let (Some(clock), Some(turn)) = (&mut self.clock, turn)
            && let Some(since) = clock.running_since.take()
        {
            clock.remaining_ms[color_index(turn)] -= (now - since).max(0);
        }
    }

    /// Against the engine only: takes back the player's last move (and the engine's reply
    /// to it), so it is the player's turn again.
    pub fn take_back(&mut self, token: Option<&str>, now: i64) -> Result<(), ApiError> {
        let seats = self.seats_of(token)?;
        if self.mode != Mode::Engine {
            return Err(ApiError::conflict(
                "no_takeback",
                "moves can be taken back only in games against the engine",
            ));
        }
        self.ensure_playing()?;
        let human = seats[0];
        let game = self.replay()?;
        // Undo back to the last position where the human was to move, before its own move.
        let mut undo = 0;
        let mut turn = game.position().turn();
        loop {
            if undo >= self.moves.len() {
                return Err(ApiError::conflict(
                    "no_takeback",
                    "there is no move of yours to take back",
                ));
            }
            undo += 1;
            turn = turn.opponent();
            if turn == human {
                break;
            }
        }
        self.stop_clock(now);
        self.moves.truncate(self.moves.len() - undo);
        if let Some(clock) = &mut self.clock {
            clock.running_since = Some(now);
        }
        Ok(())
    }

    /// The engine's level and the position, when it is the engine's turn.
    pub fn engine_turn(&self) -> Option<(AnyPosition, u8, usize)> {
        if self.status != Status::Playing {
            return None;
        }
        let game = self.replay().ok()?;
        let turn = game.position().turn();
        self.seats[color_index(turn)]
            .engine
            .then(|| (*game.position(), self.level.unwrap_or(4), self.moves.len()))
    }

    /// The game record, with names and result.
    pub fn record(&self) -> Result<String, ApiError> {
        let game = self.replay()?;
        let name = |c: Color| {
            let seat = &self.seats[color_index(c)];
            match (&seat.name, seat.engine) {
                (Some(n), _) => n.clone(),
                (None, true) => format!("Konane engine, level {}", self.level.unwrap_or(4)),
                (None, false) => c.name().to_string(),
            }
        };
        let date = crate::time::date_of(self.created_at);
        let mut tags = vec![
            ("Event".to_string(), format!("Konane game {}", self.id)),
            ("Date".to_string(), date),
            ("Black".to_string(), name(Color::Black)),
            ("White".to_string(), name(Color::White)),
        ];
        if let Some(r) = &self.result {
            tags.push(("Result".to_string(), r.winner.clone()));
            tags.push(("Termination".to_string(), r.reason.clone()));
        }
        Ok(Record::new(game, tags).to_string())
    }

    /// The state every client sees (tokens left out).
    pub fn view(&self, seq: i64, now: i64) -> Result<Value, ApiError> {
        let game = self.replay()?;
        let pos = game.position();
        let legal = if self.status == Status::Playing {
            pos.legal_move_texts()
        } else {
            Vec::new()
        };
        let player = |c: Color| {
            let seat = &self.seats[color_index(c)];
            json!({
                "name": seat.name,
                "engine": seat.engine,
                "level": if seat.engine { self.level } else { None },
                "seated": seat.engine || seat.token.is_some(),
            })
        };
        let phase = phase_name(pos.phase());
        let mut state = json!({
            "id": self.id,
            "size": self.size,
            "opening": self.opening,
            "mode": self.mode,
            "status": self.status,
            "position": pos.to_string(),
            "moves": self.moves,
            "ply": self.moves.len(),
            "turn": pos.turn().name(),
            "phase": phase,
            "legal_moves": legal,
            "players": { "black": player(Color::Black), "white": player(Color::White) },
            "seq": seq,
            "server_time": now,
        });
        if let Some(clock) = &self.clock {
            let running = (self.status == Status::Playing && clock.running_since.is_some())
                .then(|| pos.turn().name());
            state["clock"] = json!({
                "initial_ms": clock.initial_ms,
                "increment_ms": clock.increment_ms,
                "black_ms": clock.remaining_ms[0],
                "white_ms": clock.remaining_ms[1],
                "running": running,
                "running_since": clock.running_since,
            });
        }
        if let Some(r) = &self.result {
            state["result"] = json!({ "winner": r.winner, "reason": r.reason });
        }
        if let Some(id) = &self.rematch {
            state["rematch"] = json!(id);
        }
        if let Some(level) = self.level {
            state["level"] = json!(level);
        }
        Ok(state)
    }
}

/// The phase as the API spells it.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::BlackRemoval => "black-removal",
        Phase::WhiteRemoval => "white-removal",
        Phase::Jumping => "jumping",
    }
}

/// A refused move as the API reports it: 400 for bad notation, 422 for a rule broken.
pub fn play_error(e: konane_core::PlayError) -> ApiError {
    match e {
        konane_core::PlayError::Notation(n) => ApiError::BadMove(n.to_string()),
        konane_core::PlayError::Illegal(i) => ApiError::IllegalMove(i.to_string()),
    }
}

/// A position outside any game, as the tutorial and the rules page see it: its legal
/// moves, and who has won when the side to move has none.
pub fn position_view(pos: &AnyPosition) -> Value {
    json!({
        "position": pos.to_string(),
        "size": pos.size().to_string(),
        "opening": pos.opening().to_string(),
        "turn": pos.turn().name(),
        "phase": phase_name(pos.phase()),
        "legal_moves": pos.legal_move_texts(),
        "winner": pos.winner().map(Color::name),
    })
}
