//! A new game from a request: the rules of what may be asked (mode, board, rule, level,
//! clock, colour, who plays the computer, a challenge), the seats it starts with, and the
//! store. Also the ids and seat tokens every new game and seat gets.

use konane_core::{Color, Game, Opening, Size};
use konane_engine::Level;
use serde::Deserialize;

use crate::error::ApiError;
use crate::games::game::{
    Challenge, ClockState, EngineHost, GameError, Mode, NewGame, Seat, SeatToken, ServedGame,
};
use crate::notices::notice::{Details, Kind, Notice};
use crate::players::name::PlayerName;
use crate::state::Shared;
use crate::store::ChallengeInsert;
use crate::store::accounts::Account;
use crate::time::now_ms;

/// A seat token, or a 500 when the system has no randomness to give.
pub fn token() -> Result<SeatToken, ApiError> {
    SeatToken::random().map_err(|e| ApiError::Internal(format!("no randomness: {e}")))
}

/// A short id (games, accounts): 60 random bits in base 32, 12 characters.
pub fn random_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8; 32] = b"abcdefghjkmnpqrstuvwxyz023456789";
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    let mut n = u64::from_le_bytes(bytes);
    Ok((0..12)
        .map(|_| {
            let c = ALPHABET[(n & 31) as usize] as char;
            n >>= 5;
            c
        })
        .collect())
}

/// Largest board the engine plays itself on: watching costs a deep search a move.
const MAX_SELF_PLAY_SQUARES: usize = 100;

/// A clock as a request asks for it: minutes and an increment in seconds, or (a
/// correspondence game) days for every move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    #[serde(default)]
    minutes: Option<f64>,
    #[serde(default)]
    increment: f64,
    #[serde(default)]
    days: Option<i64>,
}

/// The days a correspondence game may give for a move.
pub const CORRESPONDENCE_DAYS: [i64; 5] = [1, 2, 3, 5, 7];

impl ClockRequest {
    /// The clock, if its values are allowed.
    pub fn clock(&self) -> Result<ClockState, ApiError> {
        match (self.minutes, self.days) {
            (Some(minutes), None)
                if minutes > 0.0 && minutes <= 180.0 && (0.0..=60.0).contains(&self.increment) =>
            {
                Ok(ClockState::new(
                    (minutes * 60_000.0).round() as i64,
                    (self.increment * 1000.0).round() as i64,
                ))
            }
            (None, Some(days)) if CORRESPONDENCE_DAYS.contains(&days) && self.increment == 0.0 => {
                Ok(ClockState::per_move_days(days))
            }
            _ => Err(ApiError::BadRequest(
                "a clock has 0 to 180 minutes and an increment of 0 to 60 seconds, or 1, 2, 3, 5 or 7 days a move".into(),
            )),
        }
    }
}

/// Who a new game's creator plays.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Black.
    Black,
    /// White.
    White,
    /// Either, drawn at random.
    #[default]
    Random,
    /// Nobody: the engine plays itself.
    None,
}

/// A new game as a request asks for it (`POST /api/games`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    mode: Mode,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    opening: Option<String>,
    #[serde(default)]
    color: ColorChoice,
    #[serde(default)]
    level: Option<i64>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    rated: bool,
    /// Who plays the computer, in an engine game.
    #[serde(default)]
    engine_host: Option<EngineHost>,
    /// The name of the one player who may take the free seat (a friend game).
    #[serde(default)]
    challenge: Option<String>,
}

/// Most challenges an account may have sent that wait for an answer, and most it may be
/// sent that wait for its own: nobody can bury a player in challenges.
pub const MAX_CHALLENGES: usize = 5;

/// The challenge of a game to the player `name`, if the logged-in creator may send it.
/// How many challenges wait is counted when the game is stored
/// ([`crate::store::Store::insert_challenge`]), in the transaction that stores it.
async fn challenge_to(
    state: &Shared,
    me: Option<&Account>,
    mode: Mode,
    name: &str,
) -> Result<Challenge, ApiError> {
    let me = me.ok_or(ApiError::LoginRequired)?;
    if mode != Mode::Friend {
        return Err(ApiError::BadRequest(
            "a challenge is a game between two players: mode 'friend'".into(),
        ));
    }
    let (target, _) = state
        .store
        .account_named(name)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("player {name}")))?;
    if target.id == me.id {
        return Err(GameError::OwnGame.into());
    }
    if state.store.blocks(&target.id, &me.id).await? {
        return Err(crate::players::social::SocialError::Blocked.into());
    }
    Ok(Challenge {
        account: target.id,
        name: target.name,
    })
}

/// Most unfinished games of one account read at once (its list, its challenges).
pub const MAX_OPEN_GAMES: i64 = 100;

/// Whether this server can host an engine game played by `host`: without engine threads
/// only a browser can play the computer, and a busy engine takes no new games.
pub fn engine_ready(state: &Shared, host: EngineHost) -> Result<(), ApiError> {
    match host {
        EngineHost::Browser => Ok(()),
        EngineHost::Server if !state.engines.available() => Err(ApiError::EngineUnavailable),
        EngineHost::Server if state.engines.overloaded() => Err(ApiError::EngineBusy),
        EngineHost::Server => Ok(()),
    }
}

fn parse_size(text: Option<&str>) -> Result<Size, ApiError> {
    let size: Size = text
        .unwrap_or("8x8")
        .parse()
        .map_err(|e: konane_core::SizeError| ApiError::BadRequest(e.to_string()))?;
    if size.rows() < 4 || size.cols() < 4 {
        return Err(ApiError::BadRequest(format!(
            "{size}: games are played on boards from 4x4 to 16x16"
        )));
    }
    Ok(size)
}

/// The opening rule a request names, `center-or-corner` when it names none.
pub fn parse_opening(text: Option<&str>) -> Result<Opening, ApiError> {
    text.unwrap_or("center-or-corner")
        .parse()
        .map_err(|e: konane_core::OpeningError| ApiError::BadRequest(e.to_string()))
}

/// A name as sent: none, or one that can be shown as it is.
fn parse_name(name: Option<&str>) -> Result<Option<PlayerName>, ApiError> {
    match name {
        Some(n) if !n.trim().is_empty() => Ok(Some(PlayerName::parse(n)?)),
        _ => Ok(None),
    }
}

/// The seat a person takes with `token`: the logged-in account's name, or a guest's name,
/// which may not be an account's (nobody passes for a registered player).
pub async fn person(
    state: &Shared,
    account: Option<Account>,
    name: Option<&str>,
    token: SeatToken,
) -> Result<Seat, ApiError> {
    let (name, account) = match account {
        Some(a) => (Some(a.name), Some(a.id)),
        None => {
            let name = parse_name(name)?;
            if let Some(n) = &name
                && state.store.name_registered(n).await?
            {
                return Err(ApiError::NameTaken(n.to_string()));
            }
            (name, None)
        }
    };
    Ok(Seat {
        token: Some(token),
        engine: false,
        name,
        account,
        rating: None,
    })
}

/// What a create request asks for, checked: everything but the seats' people.
struct Plan {
    mode: Mode,
    size: Size,
    opening: Opening,
    level: Option<Level>,
    clock: Option<ClockState>,
    /// The creator's colour; none when the engine plays itself.
    creator: Option<Color>,
    engine_host: EngineHost,
    rated: bool,
}

impl CreateRequest {
    /// The board a request asks for, and whether it may be rated: the first checks, before
    /// the challenge's player is looked up.
    fn board(&self, logged_in: bool) -> Result<(Size, Opening), ApiError> {
        if self.rated {
            if !logged_in {
                return Err(ApiError::LoginRequired);
            }
            if !matches!(self.mode, Mode::Friend | Mode::Open) {
                return Err(ApiError::NotRatable(
                    "rated games are between two players: invite a friend or open a game in the lobby"
                        .into(),
                ));
            }
        }
        Ok((
            parse_size(self.size.as_deref())?,
            parse_opening(self.opening.as_deref())?,
        ))
    }

    /// The rest of the request's values on `size` and `opening`, checked against the rules
    /// that need no store.
    fn plan(&self, size: Size, opening: Opening) -> Result<Plan, ApiError> {
        let level = self
            .level
            .map(Level::new)
            .transpose()
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let clock = self.clock.as_ref().map(ClockRequest::clock).transpose()?;
        let creator = match self.color {
            ColorChoice::Black => Some(Color::Black),
            ColorChoice::White => Some(Color::White),
            ColorChoice::Random if token()?.as_str().as_bytes()[0] % 2 == 1 => Some(Color::White),
            ColorChoice::Random => Some(Color::Black),
            ColorChoice::None if self.mode == Mode::Engine => None,
            ColorChoice::None => {
                return Err(ApiError::BadRequest(
                    "color 'none' (the engine plays itself) is for engine games: choose black, white or random".into(),
                ));
            }
        };
        let engine_host = match (self.mode, self.engine_host) {
            (Mode::Engine, host) => host.unwrap_or_default(),
            (_, None) => EngineHost::Server,
            (_, Some(_)) => {
                return Err(ApiError::BadRequest(
                    "engine_host is for games against the engine (mode 'engine')".into(),
                ));
            }
        };
        Ok(Plan {
            mode: self.mode,
            size,
            opening,
            level: (self.mode == Mode::Engine).then(|| level.unwrap_or_default()),
            clock,
            creator,
            engine_host,
            rated: self.rated,
        })
    }
}

/// A game just created, and what its creator is told.
pub struct Created {
    /// The game as stored, at sequence number 1.
    pub game: ServedGame,
    /// The creator's colour; none when the engine plays itself.
    pub creator: Option<Color>,
    /// The token of the creator's seats (or of the browser that plays the computer).
    pub token: SeatToken,
}

/// Creates and stores the game `req` asks for, for `client` (an address: whose share of
/// the engine it uses) and the logged-in `account`, if any.
pub async fn create(
    state: &Shared,
    client: String,
    account: Option<Account>,
    req: &CreateRequest,
) -> Result<Created, ApiError> {
    // The checks in the order a request has always been told them.
    let (size, opening) = req.board(account.is_some())?;
    let challenge = match req.challenge.as_deref() {
        Some(name) => Some(challenge_to(state, account.as_ref(), req.mode, name).await?),
        None => None,
    };
    let plan = req.plan(size, opening)?;
    if plan.mode == Mode::Engine {
        engine_ready(state, plan.engine_host)?;
        if plan.creator.is_none() && size.squares() > MAX_SELF_PLAY_SQUARES {
            return Err(ApiError::BadRequest(format!(
                "{size}: the engine plays itself on boards of up to {MAX_SELF_PLAY_SQUARES} squares"
            )));
        }
    }
    // Held until the game is stored, so one client's two requests cannot both pass.
    let mut self_play = match (plan.mode, plan.creator) {
        (Mode::Engine, None) => Some(state.self_play_slot(&client).await?),
        _ => None,
    };
    let token = token()?;
    let seats = seats(state, &plan, account, req.name.as_deref(), &token).await?;
    let mut game = ServedGame::new(NewGame {
        id: random_id()?,
        mode: plan.mode,
        level: plan.level,
        seats,
        game: Game::new(plan.size, plan.opening),
        clock: plan.clock,
        now: now_ms(),
        client: Some(client.clone()),
        rated: plan.rated,
        engine_host: plan.engine_host,
        challenge,
        tournament: None,
    });
    if plan.rated && game.category().is_none() {
        return Err(ApiError::NotRatable(
            "rated games are played on 8x8, center-or-corner, with a clock".into(),
        ));
    }
    state.store.rate_seats(&mut game).await?;
    insert(state, &game).await?;
    if let Some(slots) = &mut self_play {
        slots.insert(client, game.id.clone());
    }
    Ok(Created {
        game,
        creator: plan.creator,
        token,
    })
}

/// The seats a new game starts with. Only a seat of the creator's own carries a name:
/// watching the computer or sharing a device needs none, so a guest name that is no
/// longer free stops neither.
async fn seats(
    state: &Shared,
    plan: &Plan,
    account: Option<Account>,
    name: Option<&str>,
    token: &SeatToken,
) -> Result<[Seat; 2], ApiError> {
    let mut seats: [Seat; 2] = Default::default();
    match (plan.mode, plan.creator) {
        (Mode::Local, _) => {
            for seat in &mut seats {
                seat.token = Some(token.clone());
            }
        }
        (_, None) => {
            // A browser playing the computer for itself holds both engine seats, so that
            // its page (and only its) may move them.
            let host_token = (plan.engine_host == EngineHost::Browser).then(|| token.clone());
            for seat in &mut seats {
                seat.engine = true;
                seat.token = host_token.clone();
            }
        }
        (Mode::Engine, Some(c)) => {
            seats[c.index()] = person(state, account, name, token.clone()).await?;
            seats[c.opponent().index()].engine = true;
        }
        (Mode::Friend | Mode::Open, Some(c)) => {
            seats[c.index()] = person(state, account, name, token.clone()).await?;
        }
    }
    Ok(seats)
}

/// Stores a new game; a challenge is counted against its limits in the same transaction.
async fn insert(state: &Shared, game: &ServedGame) -> Result<(), ApiError> {
    let Some(c) = &game.challenge else {
        return Ok(state.store.insert(game, game.created_at).await?);
    };
    match state
        .store
        .insert_challenge(game, game.created_at, MAX_CHALLENGES)
        .await?
    {
        ChallengeInsert::Stored => {
            let from = game.seats.iter().find_map(|s| s.name.as_ref());
            let notice = Notice {
                account: c.account.clone(),
                kind: Kind::Challenge,
                details: Details {
                    game: Some(game.id.clone()),
                    from: from.map(|n| n.as_str().to_string()),
                    ..Details::default()
                },
            };
            state.notify(vec![notice], game.created_at).await;
            Ok(())
        }
        ChallengeInsert::TooMany => Err(ApiError::TooManyChallenges),
        ChallengeInsert::AccountGone => Err(ApiError::Missing(format!("player {}", c.name))),
    }
}
