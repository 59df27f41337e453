//! What a game's routes answer: a game, a seat, the lobby's and the live lists, a
//! position. The server serializes them, and
//! `konane loadtest` and the tests read them back with the same definitions.

use konane_core::{AnyPosition, Color, Phase};
use serde::{Deserialize, Serialize};

use crate::games::game::{EngineHost, Mode, ServedGame, Status, TournamentLink};
use crate::players::ratings::Category;

/// A colour as the API spells it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

/// The phase of a position as the API spells it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseView {
    /// Black removes the first stone.
    BlackRemoval,
    /// White removes the second.
    WhiteRemoval,
    /// Every move is a jump.
    Jumping,
}

impl From<Phase> for PhaseView {
    fn from(p: Phase) -> PhaseView {
        match p {
            Phase::BlackRemoval => PhaseView::BlackRemoval,
            Phase::WhiteRemoval => PhaseView::WhiteRemoval,
            Phase::Jumping => PhaseView::Jumping,
        }
    }
}

/// One side's player.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayerView {
    /// The display name, if one was given.
    pub name: Option<String>,
    /// The engine plays this side.
    pub engine: bool,
    /// The engine's level, when it plays.
    pub level: Option<u8>,
    /// Taken by a person or the engine.
    pub seated: bool,
    /// The player has an account: the name is theirs and links to their profile.
    #[serde(default)]
    pub registered: bool,
    /// The player's rating in the game's category when the game began.
    #[serde(default)]
    pub rating: Option<i32>,
    /// Whether that rating is still provisional (shown with `?`).
    #[serde(default)]
    pub provisional: bool,
    /// What the result of a rated game changed the rating by, once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i32>,
}

/// Both players.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PlayersView {
    /// Black's player.
    pub black: PlayerView,
    /// White's player.
    pub white: PlayerView,
}

/// A timed game's clock.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ClockView {
    /// Time each side started with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Black's time when the running clock last started.
    pub black_ms: i64,
    /// White's time likewise.
    pub white_ms: i64,
    /// The side whose clock runs, if any.
    pub running: Option<Side>,
    /// When it started (Unix ms).
    pub running_since: Option<i64>,
    /// Correspondence: `initial_ms` is the time for every move.
    #[serde(default)]
    pub per_move: bool,
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ResultView {
    /// The winner; none when the game was aborted.
    pub winner: Option<Side>,
    /// Why: `no_moves`, `timeout`, `resignation`, `abandoned` or `aborted`.
    pub reason: String,
}

/// The state of a game, as every client sees it (no tokens).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Board size, `8x8`.
    pub size: String,
    /// Opening rule.
    pub opening: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// Where the game stands.
    pub status: Status,
    /// The position text.
    pub position: String,
    /// The moves so far.
    pub moves: Vec<String>,
    /// Their number.
    pub ply: usize,
    /// The side to move.
    pub turn: Side,
    /// The position's phase.
    pub phase: PhaseView,
    /// The legal moves, sorted; empty unless the game is on.
    pub legal_moves: Vec<String>,
    /// Who plays.
    pub players: PlayersView,
    /// The result changes both players' ratings.
    #[serde(default)]
    pub rated: bool,
    /// The rating category, if the game has one (rated or casual).
    #[serde(default)]
    pub category: Option<Category>,
    /// The clock of a timed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// The result of a finished game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The rematch's id, once asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// The engine's level, in games against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Who plays the computer's side, in games against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_host: Option<EngineHost>,
    /// The seed of the computer's move, while a browser is to play it (see
    /// [`browser_seed`](crate::games::game::browser_seed)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_seed: Option<u64>,
    /// The name of the player a challenge waits for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
    /// The tournament that paired the game, so its page links back.
    pub tournament: Option<TournamentLink>,
    /// Counts the game's changes.
    pub seq: i64,
    /// The server's clock when this was sent (Unix ms).
    pub server_time: i64,
}

impl GameView {
    /// The state of `g` at sequence number `seq`.
    pub fn of(g: &ServedGame, seq: i64, now: i64) -> GameView {
        let pos = g.game.position();
        let playing = g.status == Status::Playing;
        let level = g.level.map(u8::from);
        let player = |c: Color| {
            let seat = g.seat(c);
            PlayerView {
                name: seat.name.as_ref().map(|n| n.as_str().to_string()),
                engine: seat.engine,
                level: if seat.engine { level } else { None },
                seated: seat.is_taken(),
                registered: seat.account.is_some(),
                rating: seat.rating.map(|r| r.rating),
                provisional: seat.rating.is_some_and(|r| r.provisional),
                rating_change: seat.rating.and_then(|r| r.change),
            }
        };
        GameView {
            id: g.id.clone(),
            size: pos.size().to_string(),
            opening: pos.opening().to_string(),
            mode: g.mode,
            status: g.status,
            position: pos.to_string(),
            moves: g.game.move_texts(),
            ply: g.ply(),
            turn: pos.turn().into(),
            phase: pos.phase().into(),
            legal_moves: if playing {
                pos.legal_move_texts()
            } else {
                Vec::new()
            },
            players: PlayersView {
                black: player(Color::Black),
                white: player(Color::White),
            },
            rated: g.rated,
            category: g.category(),
            clock: g.clock.as_ref().map(|c| ClockView {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                black_ms: c.remaining_ms[0],
                white_ms: c.remaining_ms[1],
                running: (playing && c.running_since.is_some()).then(|| pos.turn().into()),
                running_since: c.running_since,
                per_move: c.per_move,
            }),
            result: g.result.map(|r| ResultView {
                winner: r.winner.map(Side::from),
                reason: r.reason.code().to_string(),
            }),
            rematch: g.rematch.clone(),
            level,
            engine_host: (g.mode == Mode::Engine).then_some(g.engine_host),
            engine_seed: g.browser_seed(seq),
            challenge: g.challenge.as_ref().map(|c| c.name.to_string()),
            tournament: g.tournament.clone(),
            seq,
            server_time: now,
        }
    }

    /// As JSON text, as sockets and answers carry it.
    pub fn to_json(&self) -> String {
        // A struct of strings, numbers and lists always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Which seat a token holds, as the answers to create, join and rematch say.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatView {
    /// Black's seat.
    Black,
    /// White's seat.
    White,
    /// Both, on one device.
    Both,
}

impl From<Color> for SeatView {
    fn from(c: Color) -> SeatView {
        match c {
            Color::Black => SeatView::Black,
            Color::White => SeatView::White,
        }
    }
}

/// The answer to creating a game, joining one, or asking for a rematch.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeatedView {
    /// The game's id.
    pub id: String,
    /// The seat the token holds; none when the engine plays both sides.
    pub seat: Option<SeatView>,
    /// The seat token.
    pub token: Option<String>,
    /// The link to send a friend, for games that wait for a second player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
    /// The game's state.
    pub game: GameView,
}

/// A game's clock setting, as the lobby shows it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ClockSetting {
    /// Time each side starts with.
    pub initial_ms: i64,
    /// Time added after each move.
    pub increment_ms: i64,
    /// Correspondence: `initial_ms` is the time for every move.
    #[serde(default)]
    pub per_move: bool,
}

/// A game waiting in the lobby.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LobbyGame {
    /// The game's id.
    pub id: String,
    /// Board size.
    pub size: String,
    /// Opening rule.
    pub opening: String,
    /// The clock, if timed.
    pub clock: Option<ClockSetting>,
    /// The seat a joiner gets.
    pub free_seat: Side,
    /// The host's name.
    pub host: Option<String>,
    /// The host's rating in the game's category.
    #[serde(default)]
    pub host_rating: Option<i32>,
    /// Whether it is still provisional.
    #[serde(default)]
    pub host_provisional: bool,
    /// The game is rated: only logged-in players may join.
    #[serde(default)]
    pub rated: bool,
    /// Its rating category, if it has one.
    #[serde(default)]
    pub category: Option<Category>,
    /// When it was opened (Unix ms).
    pub created_at: i64,
}

impl LobbyGame {
    /// The lobby's line for a waiting game.
    pub fn of(g: &ServedGame) -> LobbyGame {
        let free = if g.seat(Color::Black).is_taken() {
            Side::White
        } else {
            Side::Black
        };
        let host = g.seats.iter().find(|s| s.token.is_some());
        let rating = host.and_then(|s| s.rating);
        LobbyGame {
            id: g.id.clone(),
            size: g.game.size().to_string(),
            opening: g.game.start().opening().to_string(),
            clock: g.clock.as_ref().map(|c| ClockSetting {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                per_move: c.per_move,
            }),
            free_seat: free,
            host: host.and_then(|s| s.name.as_ref().map(|n| n.as_str().to_string())),
            host_rating: rating.map(|r| r.rating),
            host_provisional: rating.is_some_and(|r| r.provisional),
            rated: g.rated,
            category: g.category(),
            created_at: g.created_at,
        }
    }
}

/// The lobby.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LobbyView {
    /// Waiting games, newest first.
    pub games: Vec<LobbyGame>,
}

/// Several games' states.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeveralView {
    /// The games found, in the order asked.
    pub games: Vec<GameView>,
}

/// Every position of a game, from the start.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PositionsView {
    /// The position before the first move and after each move.
    pub positions: Vec<String>,
}

/// A position outside any game, judged by the rules: the tutorial's and the rules page's.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct PositionView {
    /// The position text.
    pub position: String,
    /// Board size.
    pub size: String,
    /// Opening rule.
    pub opening: String,
    /// The side to move.
    pub turn: Side,
    /// The phase.
    pub phase: PhaseView,
    /// The legal moves, sorted.
    pub legal_moves: Vec<String>,
    /// Who has won, when the side to move has no move.
    pub winner: Option<Side>,
    /// The move just played, when one was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
}

impl PositionView {
    /// The view of `pos`.
    pub fn of(pos: &AnyPosition) -> PositionView {
        PositionView {
            position: pos.to_string(),
            size: pos.size().to_string(),
            opening: pos.opening().to_string(),
            turn: pos.turn().into(),
            phase: pos.phase().into(),
            legal_moves: pos.legal_move_texts(),
            winner: pos.winner().map(Side::from),
            played: None,
        }
    }
}

/// A game being played now, as the start page lists it to watch.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LiveGame {
    /// The game's id.
    pub id: String,
    /// Board size.
    pub size: String,
    /// Opening rule.
    pub opening: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// The clock, if timed.
    pub clock: Option<ClockSetting>,
    /// Who plays.
    pub players: PlayersView,
    /// The position text now.
    pub position: String,
    /// The last move, if any.
    pub last_move: Option<String>,
    /// The moves played.
    pub ply: usize,
    /// When it last changed (Unix ms).
    pub updated_at: i64,
}

impl LiveGame {
    /// The line of `g`, last changed at `updated_at`.
    pub fn of(g: &ServedGame, updated_at: i64) -> LiveGame {
        let view = GameView::of(g, 0, updated_at);
        LiveGame {
            id: view.id,
            size: view.size,
            opening: view.opening,
            mode: view.mode,
            clock: view.clock.map(|c| ClockSetting {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                per_move: c.per_move,
            }),
            players: view.players,
            position: view.position,
            last_move: view.moves.last().cloned(),
            ply: view.ply,
            updated_at,
        }
    }
}

/// The games being played now.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct LiveView {
    /// How many games moved in the last [`LIVE_WINDOW_MS`](crate::http::games::LIVE_WINDOW_MS).
    pub playing: i64,
    /// The most recently moved of them, most moves first.
    pub games: Vec<LiveGame>,
}
