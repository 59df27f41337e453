//! A game as the server serves it, typed, and every change a request can make to it.
//!
//! A stored row ([`GameRow`](crate::store::row::GameRow)) is loaded once into a [`ServedGame`]:
//! board, opening, level, seats per colour, clock and the rules' own [`Game`], replayed
//! once. Every rule of the game service works on that and fails with a [`GameError`];
//! nothing here does I/O (`now` is passed in) and callers store the result.

use konane_core::{AnyPosition, Color, Game, Record};
use konane_engine::Level;
use serde::{Deserialize, Serialize};

pub use crate::games::clock::ClockState;
pub use crate::games::errors::GameError;
pub use crate::games::outcome::{EndReason, GameResult};
pub use crate::games::seats::{Challenge, Holder, Seat, SeatRating, SeatToken};

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

/// Who plays the computer's side of an engine game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineHost {
    /// The server's engine pool (every game stored before browsers could play it).
    #[default]
    Server,
    /// The engine in the page of the seat token's holder: the server checks, stores and
    /// times its moves like a person's, and never searches for it. Such a player can make
    /// the computer play any legal move, which is one reason engine games are never rated.
    Browser,
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

impl Status {
    /// As stored in the `status` column and sent in a game's state.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

/// The engine's move to make: where, at which level, for which ply.
#[derive(Clone, Copy, Debug)]
pub struct EngineTurn {
    /// The position to move in.
    pub position: AnyPosition,
    /// The engine's level.
    pub level: Level,
    /// The ply the move is for.
    pub ply: usize,
    /// Whether the engine plays both sides (a game to watch).
    pub self_play: bool,
}

/// A game, loaded and typed: what every rule of the service works on.
#[derive(Clone, Debug)]
pub struct ServedGame {
    /// The game's id.
    pub id: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// The engine's level, when it plays.
    pub level: Option<Level>,
    /// Black's and White's seats.
    pub seats: [Seat; 2],
    /// The rules' game: start, moves, position.
    pub game: Game,
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
    /// Who created it (the client's address), so one client's engine games share one
    /// client's part of the engine.
    pub client: Option<String>,
    /// The result changes both players' ratings.
    pub rated: bool,
    /// Who plays the computer's side (engine games; `Server` for the others).
    pub engine_host: EngineHost,
    /// The account a challenge waits for; none for any other game.
    pub challenge: Option<Challenge>,
    /// The tournament it was paired in, if any.
    pub tournament: Option<TournamentLink>,
}

/// The tournament a game belongs to, as its page links back to it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TournamentLink {
    /// The tournament's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its kind (`arena`, `swiss`, `round-robin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A site event named by the site: how often it comes, so pages word its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<crate::tournaments::every::Every>,
}

/// What a new game is made of; [`ServedGame::new`] derives the rest.
pub struct NewGame {
    /// The game's id.
    pub id: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// The engine's level, when it plays.
    pub level: Option<Level>,
    /// Black's and White's seats as they start.
    pub seats: [Seat; 2],
    /// The rules' game, at its start.
    pub game: Game,
    /// The clock's setting, if the game is timed.
    pub clock: Option<ClockState>,
    /// When the game is created (Unix ms).
    pub now: i64,
    /// Who created it (the client's address), if anyone.
    pub client: Option<String>,
    /// The result changes both players' ratings.
    pub rated: bool,
    /// Who plays the computer's side.
    pub engine_host: EngineHost,
    /// The account a challenge waits for.
    pub challenge: Option<Challenge>,
    /// The tournament that paired it.
    pub tournament: Option<TournamentLink>,
}

/// The seed a browser-hosted computer chooses its move with at sequence number `seq` of
/// game `id`: every page of the game computes the same move, a take-back (a new `seq`)
/// draws afresh, and it stays below 2^53 so JavaScript numbers carry it exactly.
pub fn browser_seed(id: &str, seq: i64) -> u64 {
    // FNV-1a over the id, then SplitMix64's stream for the sequence number.
    let key = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    konane_engine::substream(key, seq as u64) & ((1 << 53) - 1)
}

impl ServedGame {
    /// The one way a game comes to be: it waits while a seat is free, and otherwise
    /// starts at once with its clock running.
    pub fn new(new: NewGame) -> ServedGame {
        let waiting = !new.seats.iter().all(Seat::is_taken);
        let clock = new.clock.map(|c| ClockState {
            running_since: (!waiting).then_some(new.now),
            ..c.fresh()
        });
        ServedGame {
            id: new.id,
            mode: new.mode,
            level: new.level,
            seats: new.seats,
            game: new.game,
            status: if waiting {
                Status::Waiting
            } else {
                Status::Playing
            },
            result: None,
            clock,
            rematch: None,
            created_at: new.now,
            client: new.client,
            rated: new.rated,
            engine_host: new.engine_host,
            challenge: new.challenge,
            tournament: new.tournament,
        }
    }

    /// A seat of a colour.
    pub fn seat(&self, c: Color) -> &Seat {
        &self.seats[c.index()]
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }

    /// Moves played so far.
    pub fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The seats a token holds.
    pub fn holder(&self, token: Option<&str>) -> Result<Holder, GameError> {
        let token = token.ok_or(GameError::NoToken)?;
        let holds = |c: Color| {
            self.seat(c)
                .token
                .as_ref()
                .is_some_and(|t| t.matches(token))
        };
        match (holds(Color::Black), holds(Color::White)) {
            (true, true) => Ok(Holder::Both),
            (true, false) => Ok(Holder::One(Color::Black)),
            (false, true) => Ok(Holder::One(Color::White)),
            (false, false) => Err(GameError::WrongToken),
        }
    }

    fn ensure_playing(&self) -> Result<(), GameError> {
        match self.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(GameError::NotStarted),
            Status::Finished => Err(GameError::Over),
        }
    }

    /// Plays `text` for the holder of `token`, on ply `ply`; on any error nothing changes.
    pub fn play(
        &mut self,
        token: Option<&str>,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), GameError> {
        let holder = self.holder(token)?;
        self.ensure_playing()?;
        let turn = self.turn();
        if !holder.holds(turn) && !self.browser_plays(turn) {
            return Err(GameError::NotYourTurn(turn));
        }
        self.play_as(turn, text, ply, now)
    }

    /// Whether the page of this game's seat token plays `side` for the computer.
    fn browser_plays(&self, side: Color) -> bool {
        self.engine_host == EngineHost::Browser && self.seat(side).engine
    }

    /// Plays `text` for `mover` (a person or the engine), checking everything but the seat.
    pub fn play_as(
        &mut self,
        mover: Color,
        text: &str,
        ply: usize,
        now: i64,
    ) -> Result<(), GameError> {
        self.ensure_playing()?;
        if ply != self.ply() {
            return Err(GameError::StalePly {
                sent: ply,
                at: self.ply(),
            });
        }
        if self.turn() != mover {
            return Err(GameError::NotYourTurn(self.turn()));
        }
        if self.flag_fall(now) {
            return Err(GameError::Over);
        }
        self.game.play_text(text)?;
        if let Some(clock) = &mut self.clock {
            let i = mover.index();
            let since = clock.running_since.unwrap_or(now);
            clock.remaining_ms[i] = if clock.per_move {
                clock.initial_ms
            } else {
                clock.remaining_ms[i] - (now - since).max(0) + clock.increment_ms
            };
            clock.running_since = Some(now);
        }
        if let Some(o) = self.game.outcome() {
            self.finish(Some(o.winner), EndReason::NoMoves);
        }
        Ok(())
    }

    fn finish(&mut self, winner: Option<Color>, reason: EndReason) {
        self.status = Status::Finished;
        self.result = Some(GameResult { winner, reason });
        if let Some(clock) = &mut self.clock {
            clock.running_since = None;
        }
    }

    /// When the side to move runs out of time (Unix ms), if a clock is running.
    pub fn deadline(&self) -> Option<i64> {
        if self.status != Status::Playing {
            return None;
        }
        let clock = self.clock.as_ref()?;
        let since = clock.running_since?;
        Some(since + clock.remaining_ms[self.turn().index()])
    }

    /// Ends the game if the side to move's time is up at `now`; true if it did.
    pub fn flag_fall(&mut self, now: i64) -> bool {
        match self.deadline() {
            Some(deadline) if now >= deadline => {
                let turn = self.turn();
                if let Some(clock) = &mut self.clock {
                    clock.remaining_ms[turn.index()] = 0;
                }
                // Before both players have moved nobody has lost yet: a player who never
                // came (a pairing whose page closed) costs the other no rating.
                if self.ply() < 2 {
                    self.finish(None, EndReason::Aborted);
                } else {
                    self.finish(Some(turn.opponent()), EndReason::Timeout);
                }
                true
            }
            _ => false,
        }
    }

    /// The holder of `token` gives up (on a shared device: the side to move).
    pub fn resign(&mut self, token: Option<&str>, now: i64) -> Result<(), GameError> {
        let holder = self.holder(token)?;
        self.ensure_playing()?;
        if self.flag_fall(now) {
            return Ok(());
        }
        let loser = match holder {
            Holder::One(c) => c,
            Holder::Both => self.turn(),
        };
        self.stop_clock(now);
        self.finish(Some(loser.opponent()), EndReason::Resignation);
        Ok(())
    }

    /// The holder of `token` claims the win because the opponent left: only in a timed
    /// game, and only when `opponent_gone` (the caller knows who is connected).
    pub fn claim(
        &mut self,
        token: Option<&str>,
        opponent_gone: bool,
        now: i64,
    ) -> Result<(), GameError> {
        let holder = self.holder(token)?;
        self.ensure_playing()?;
        let Holder::One(me) = holder else {
            return Err(GameError::CannotClaim);
        };
        if self.flag_fall(now) {
            return Ok(());
        }
        let opponent = self.seat(me.opponent());
        if self.clock.is_none() || opponent.engine || !opponent_gone {
            return Err(GameError::CannotClaim);
        }
        self.stop_clock(now);
        self.finish(Some(me), EndReason::Abandoned);
        Ok(())
    }

    /// Ends a game that never got going: no winner.
    pub fn abort(&mut self, now: i64) {
        self.stop_clock(now);
        self.finish(None, EndReason::Aborted);
    }

    fn stop_clock(&mut self, now: i64) {
        let turn = self.turn();
        if let Some(clock) = &mut self.clock
            && let Some(since) = clock.running_since.take()
        {
            clock.remaining_ms[turn.index()] -= (now - since).max(0);
        }
    }

    /// Against the engine only: takes back the player's last move (and the engine's reply
    /// to it), so it is the player's turn again.
    pub fn take_back(&mut self, token: Option<&str>, now: i64) -> Result<(), GameError> {
        let holder = self.holder(token)?;
        if self.mode != Mode::Engine {
            return Err(GameError::TakebackNotAllowed);
        }
        self.ensure_playing()?;
        let Holder::One(human) = holder else {
            return Err(GameError::TakebackNotAllowed);
        };
        // Undo back to the last position where the human was to move, before its own move.
        let undo = if self.turn() == human { 2 } else { 1 };
        if self.ply() < undo {
            return Err(GameError::NothingToTakeBack);
        }
        self.stop_clock(now);
        for _ in 0..undo {
            self.game.undo();
        }
        if let Some(clock) = &mut self.clock {
            clock.running_since = Some(now);
        }
        Ok(())
    }

    /// Takes the free seat of a waiting game and starts it; `Err(SeatsTaken)` when there is
    /// none. Returns the colour taken.
    pub fn join(&mut self, joiner: Seat, now: i64) -> Result<Color, GameError> {
        if self.status != Status::Waiting {
            return Err(GameError::SeatsTaken);
        }
        let free = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| !self.seat(c).is_taken())
            .ok_or(GameError::SeatsTaken)?;
        if joiner.account.is_some() && self.seat(free.opponent()).account == joiner.account {
            return Err(GameError::OwnGame);
        }
        if let Some(c) = &self.challenge
            && joiner.account.as_deref() != Some(c.account.as_str())
        {
            return Err(GameError::NotChallenged);
        }
        if self.rated && joiner.account.is_none() {
            return Err(GameError::LoginRequired);
        }
        self.seats[free.index()] = joiner;
        self.status = Status::Playing;
        if let Some(c) = &mut self.clock {
            c.running_since = Some(now);
        }
        Ok(free)
    }

    /// The server engine's move to make now, if it is its turn (never in a game whose
    /// computer the browser plays).
    pub fn engine_turn(&self) -> Option<EngineTurn> {
        if self.status != Status::Playing
            || !self.seat(self.turn()).engine
            || self.engine_host != EngineHost::Server
        {
            return None;
        }
        Some(EngineTurn {
            position: *self.game.position(),
            level: self.level.unwrap_or_default(),
            ply: self.ply(),
            self_play: self.self_play(),
        })
    }

    /// The computer plays both sides: a game to watch.
    pub fn self_play(&self) -> bool {
        self.seats.iter().all(|s| s.engine)
    }

    /// The seed the browser's engine chooses the computer's move with, when it is the
    /// computer's turn in a browser-hosted game at sequence number `seq`.
    pub fn browser_seed(&self, seq: i64) -> Option<u64> {
        (self.status == Status::Playing && self.browser_plays(self.turn()))
            .then(|| browser_seed(&self.id, seq))
    }

    /// A new game with the same settings and the colours swapped, under the id `id`.
    pub fn rematch_of(&self, id: String, now: i64) -> ServedGame {
        let mut seats = self.seats.clone();
        seats.swap(0, 1);
        for seat in &mut seats {
            if let Some(r) = &mut seat.rating {
                r.change = None;
            }
        }
        ServedGame::new(NewGame {
            id,
            mode: self.mode,
            level: self.level,
            seats,
            game: Game::from_position(*self.game.start()),
            clock: self.clock.clone(),
            now,
            client: self.client.clone(),
            rated: self.rated,
            engine_host: self.engine_host,
            challenge: None,
            tournament: None,
        })
    }

    /// A player's name as a record or a spectator reads it.
    pub fn player_name(&self, c: Color) -> String {
        let seat = self.seat(c);
        match (&seat.name, seat.engine) {
            (Some(n), _) => n.to_string(),
            (None, true) => format!("Konane engine, level {}", self.level.unwrap_or_default()),
            (None, false) => c.name().to_string(),
        }
    }

    /// The game record, with names and result.
    pub fn record(&self) -> String {
        let mut tags = vec![
            ("Event".to_string(), format!("Konane game {}", self.id)),
            ("Date".to_string(), crate::time::date_of(self.created_at)),
            ("Black".to_string(), self.player_name(Color::Black)),
            ("White".to_string(), self.player_name(Color::White)),
        ];
        for (c, tag) in [(Color::Black, "BlackElo"), (Color::White, "WhiteElo")] {
            if let Some(r) = self.seat(c).rating {
                tags.push((tag.to_string(), r.rating.to_string()));
            }
        }
        if let Some(category) = self.category() {
            let kind = if self.rated { "Rated" } else { "Casual" };
            tags[0].1 = format!("{kind} {category} game {}", self.id);
        }
        if let Some(r) = &self.result {
            let winner = r.winner.map_or("*", Color::name);
            tags.push(("Result".to_string(), winner.to_string()));
            tags.push(("Termination".to_string(), r.termination()));
        }
        Record::new(self.game.clone(), tags).to_string()
    }

    /// Whether the lobby lists it.
    pub fn listed(&self) -> bool {
        self.mode == Mode::Open && self.status == Status::Waiting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_themselves() {
        let t = SeatToken::from_stored("0123456789abcdef0123456789abcdef".into());
        assert!(t.matches("0123456789abcdef0123456789abcdef"));
        assert!(!t.matches("0123456789abcdef0123456789abcdee"));
        assert!(!t.matches("0123456789abcdef"));
        assert!(!t.matches(""));
    }

    #[test]
    fn stored_reasons_old_and_new_read_alike() {
        for (text, reason) in [
            ("no_moves", EndReason::NoMoves),
            ("white has no move", EndReason::NoMoves),
            ("black ran out of time", EndReason::Timeout),
            ("black resigned", EndReason::Resignation),
            ("abandoned", EndReason::Abandoned),
            ("aborted", EndReason::Aborted),
        ] {
            assert_eq!(EndReason::from_stored(text), Some(reason), "{text}");
            assert_eq!(EndReason::from_stored(reason.code()), Some(reason));
        }
        assert_eq!(EndReason::from_stored("white was abducted"), None);
    }

    fn local_game(clock: ClockState, now: i64) -> (ServedGame, String) {
        let token = SeatToken::random().unwrap();
        let seat = Seat {
            token: Some(token.clone()),
            ..Seat::default()
        };
        let mut clock = clock;
        clock.running_since = Some(now);
        let game = ServedGame {
            id: "g".into(),
            mode: Mode::Local,
            level: None,
            seats: [seat.clone(), seat],
            game: Game::new(
                konane_core::Size::new(6, 6).unwrap(),
                konane_core::Opening::CenterOrCorner,
            ),
            status: Status::Playing,
            result: None,
            clock: Some(clock),
            rematch: None,
            created_at: now,
            client: None,
            rated: false,
            engine_host: EngineHost::Server,
            challenge: None,
            tournament: None,
        };
        (game, token.as_str().to_string())
    }

    #[test]
    fn a_correspondence_move_gets_its_days_afresh_and_a_late_one_loses() {
        const DAY: i64 = 86_400_000;
        let (mut g, token) = local_game(ClockState::per_move_days(3), 0);
        let first = |g: &ServedGame| g.game.position().legal_move_texts()[0].clone();
        // Black takes two and a half days, White one: each gets three days again.
        let m = first(&g);
        g.play(Some(&token), &m, 0, 5 * DAY / 2).unwrap();
        let m = first(&g);
        g.play(Some(&token), &m, 1, 7 * DAY / 2).unwrap();
        assert_eq!(g.clock.as_ref().unwrap().remaining_ms, [3 * DAY, 3 * DAY]);
        assert_eq!(g.deadline(), Some(7 * DAY / 2 + 3 * DAY));
        assert!(!g.flag_fall(13 * DAY / 2 - 1));
        assert!(g.flag_fall(13 * DAY / 2));
        let result = g.result.unwrap();
        assert_eq!(
            (result.winner, result.reason),
            (Some(Color::White), EndReason::Timeout)
        );
    }

    #[test]
    fn a_clock_run_out_before_both_moved_aborts() {
        let (mut g, _) = local_game(ClockState::new(60_000, 0), 0);
        assert!(g.flag_fall(60_000));
        let result = g.result.unwrap();
        assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
    }
}
