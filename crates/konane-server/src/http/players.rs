//! The players' routes (`docs/api.md`): accounts, the session cookie, profiles, archives
//! and leaderboards; and [`Viewer`], the logged-in account of a request, if any.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use konane_core::Color;

use crate::error::ApiError;
use crate::games::create::{MAX_OPEN_GAMES, random_id};
use crate::games::game::Status;
use crate::http::extract::{ApiJson, COOKIE, LoggedIn, Viewer};
use crate::http::views::GameView;
use crate::http::views::{
    AccountGame, AccountGamesView, AccountSeat, ArchivePage, ClaimView, IncomingChallenge,
    LeaderboardView, ProfileView, RatingView, SessionView,
};
use crate::net::listener::ClientAddr;
use crate::players::name::PlayerName;
use crate::players::ratings::Category;
use crate::players::secrets::{Password, SessionToken, decoy_hash};
use crate::state::Shared;
use crate::store::accounts::Account;
use crate::store::results::ArchiveFilter;
use crate::time::now_ms;

/// How long a login lasts (ms): sixty days.
const SESSION_MS: i64 = 60 * 86_400_000;

/// The window of the login and registration limits (ms).
const ATTEMPT_WINDOW_MS: i64 = 15 * 60_000;
/// Failed logins allowed per address in the window.
const FAILURES_PER_ADDRESS: i64 = 20;
/// Failed logins allowed per account in the window, from anywhere.
const FAILURES_PER_ACCOUNT: i64 = 10;
/// New accounts allowed per address in the window.
const ACCOUNTS_PER_ADDRESS: i64 = 5;

/// Games a page of an archive holds.
const PER_PAGE: i64 = 20;
/// Games a records file holds at most, newest first.
const MAX_EXPORT: i64 = 5_000;
/// Rated games a player needs for the leaderboard.
const LEADERBOARD_GAMES: i64 = 10;

/// The players' routes, merged into the API router.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/accounts", post(register))
        .route("/session", get(whoami).post(login).delete(logout))
        .route("/account/password", post(change_password))
        .route("/account/delete", post(delete_account))
        .route("/account/claim", post(claim))
        .route("/account/games", get(account_games))
        .route("/account/games/{id}/seat", get(account_seat))
        .route("/players/{name}", get(profile))
        .route("/players/{name}/games", get(games))
        .route("/players/{name}/games.txt", get(export))
        .route("/leaderboard/{category}", get(leaderboard))
}

/// Whether the browser reached us over https: only a trusted proxy can say so.
fn over_https(state: &Shared, headers: &HeaderMap) -> bool {
    state.occupancy.limits().trust_proxy
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

/// The `Set-Cookie` that logs this browser in (`Some`) or out (`None`).
fn cookie(token: Option<&SessionToken>, secure: bool) -> Result<HeaderValue, ApiError> {
    let (value, age) = match token {
        Some(t) => (t.as_str(), SESSION_MS / 1000),
        None => ("", 0),
    };
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={age}{secure}"
    ))
    .map_err(|e| ApiError::Internal(format!("cookie: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// Runs argon2 off the async threads: it takes tens of milliseconds of one core.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, crate::players::secrets::HashError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("hashing task: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))
}

async fn logged_in(
    state: &Shared,
    headers: &HeaderMap,
    account: &Account,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let token =
        SessionToken::random().map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    let now = now_ms();
    state
        .store
        .create_session(&account.id, &token, now, now + SESSION_MS)
        .await?;
    let body = SessionView {
        name: Some(account.name.to_string()),
    };
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        cookie(Some(&token), over_https(state, headers))?,
    );
    Ok(response)
}

async fn register(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let name = PlayerName::parse(&req.name)?;
    let password = Password::new(&req.password, name.as_str())?;
    let now = now_ms();
    let address = addr.to_string();
    if state
        .store
        .attempts("register", &address, now - ATTEMPT_WINDOW_MS)
        .await?
        >= ACCOUNTS_PER_ADDRESS
    {
        return Err(ApiError::TooManyAttempts);
    }
    if state.store.name_registered(&name).await? {
        return Err(ApiError::NameTaken(name.to_string()));
    }
    let hash = blocking(move || password.hash()).await?;
    let id = random_id()?;
    let Some(account) = state.store.create_account(&id, &name, &hash, now).await? else {
        return Err(ApiError::NameTaken(name.to_string()));
    };
    state
        .store
        .record_attempt("register", &address, now)
        .await?;
    logged_in(&state, &headers, &account, StatusCode::CREATED).await
}

async fn login(
    State(state): State<Shared>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Credentials>,
) -> Result<Response, ApiError> {
    let password = Password::attempt(&req.password).ok_or(ApiError::WrongCredentials)?;
    let now = now_ms();
    let since = now - ATTEMPT_WINDOW_MS;
    let address = addr.to_string();
    let subject = req.name.trim().to_lowercase();
    // Counted before the password is even hashed: a flood costs us a query, not argon2.
    if state.store.attempts("login", &address, since).await? >= FAILURES_PER_ADDRESS
        || state
            .store
            .attempts("login-account", &subject, since)
            .await?
            >= FAILURES_PER_ACCOUNT
    {
        return Err(ApiError::TooManyAttempts);
    }
    let found = state.store.account_named(&subject).await?;
    let stored = match &found {
        Some((_, hash)) => hash.clone(),
        None => blocking(decoy_hash).await?,
    };
    let right = blocking(move || password.verify(&stored)).await?;
    match found {
        Some((account, _)) if right => logged_in(&state, &headers, &account, StatusCode::OK).await,
        _ => {
            state.store.record_attempt("login", &address, now).await?;
            state
                .store
                .record_attempt("login-account", &subject, now)
                .await?;
            Err(ApiError::WrongCredentials)
        }
    }
}

async fn whoami(viewer: Viewer) -> Json<SessionView> {
    Json(SessionView {
        name: viewer.0.map(|a| a.name.to_string()),
    })
}

async fn logout(
    State(state): State<Shared>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    if let Viewer(_, Some(token)) = &viewer {
        state.store.delete_session(token).await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        cookie(None, over_https(&state, &headers))?,
    );
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

/// Checks the account's current password, or 401.
async fn confirm(state: &Shared, account: &Account, sent: &str) -> Result<(), ApiError> {
    let attempt = Password::attempt(sent).ok_or(ApiError::WrongCredentials)?;
    let stored = state
        .store
        .password_hash(&account.id)
        .await?
        .ok_or(ApiError::LoginRequired)?;
    if blocking(move || attempt.verify(&stored)).await? {
        Ok(())
    } else {
        Err(ApiError::WrongCredentials)
    }
}

async fn change_password(
    State(state): State<Shared>,
    LoggedIn(account, token): LoggedIn,
    ApiJson(req): ApiJson<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let new = Password::new(&req.new, account.name.as_str())?;
    confirm(&state, &account, &req.current).await?;
    let hash = blocking(move || new.hash()).await?;
    state.store.set_password(&account.id, &hash, &token).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: String,
}

async fn delete_account(
    State(state): State<Shared>,
    headers: HeaderMap,
    LoggedIn(account, _): LoggedIn,
    ApiJson(req): ApiJson<Deletion>,
) -> Result<Response, ApiError> {
    confirm(&state, &account, &req.password).await?;
    state.store.delete_account(&account, now_ms()).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        cookie(None, over_https(&state, &headers))?,
    );
    Ok(response)
}

/// Most seats one claim may name.
const MAX_CLAIMS: usize = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    games: Vec<ClaimedSeat>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimedSeat {
    id: String,
    token: String,
}

/// Puts a browser's guest seats (the games it holds tokens of) on the logged-in account:
/// the games show its name and its archive lists the finished ones (as casual games).
async fn claim(
    State(state): State<Shared>,
    LoggedIn(account, _): LoggedIn,
    ApiJson(req): ApiJson<ClaimRequest>,
) -> Result<Json<ClaimView>, ApiError> {
    if req.games.len() > MAX_CLAIMS {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_CLAIMS} games at once"
        )));
    }
    let mut claimed = 0;
    for seat in &req.games {
        if state
            .store
            .claim_seat(&seat.id, &seat.token, &account, now_ms())
            .await?
        {
            claimed += 1;
            if let Some((game, seq)) = state.store.load(&seat.id).await? {
                state.publish(&game, seq);
            }
        }
    }
    Ok(Json(ClaimView { claimed }))
}

async fn account_games(
    State(state): State<Shared>,
    viewer: Viewer,
) -> Result<Json<AccountGamesView>, ApiError> {
    let (account, _) = viewer.required()?;
    let now = now_ms();
    let open = state
        .store
        .account_games(&account.id, MAX_OPEN_GAMES)
        .await?;
    let challenges = open
        .iter()
        .filter(|(g, _)| {
            g.status == Status::Waiting
                && g.challenge
                    .as_ref()
                    .is_some_and(|c| c.account == account.id)
        })
        .map(|(g, seq)| IncomingChallenge {
            id: g.id.clone(),
            from: g
                .seats
                .iter()
                .find_map(|s| s.name.as_ref().map(|n| n.to_string())),
            game: GameView::of(g, *seq, now),
        })
        .collect();
    let mut games: Vec<AccountGame> = open
        .into_iter()
        .filter_map(|(game, seq)| {
            // The link is a hint; the seat itself says whose it is.
            let color = [Color::Black, Color::White]
                .into_iter()
                .find(|&c| game.seat(c).account.as_deref() == Some(account.id.as_str()))?;
            let token = game.seat(color).token.as_ref()?.as_str().to_string();
            Some(AccountGame {
                id: game.id.clone(),
                seat: color.into(),
                token,
                your_turn: game.status == Status::Playing && game.turn() == color,
                game: GameView::of(&game, seq, now),
            })
        })
        .collect();
    // Stable: within each group the most recently changed stays first.
    games.sort_by_key(|g| !g.your_turn);
    Ok(Json(AccountGamesView { games, challenges }))
}

async fn account_seat(
    State(state): State<Shared>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<AccountSeat>, ApiError> {
    let (account, _) = viewer.required()?;
    let (game, _) = state
        .store
        .load(&id)
        .await?
        .ok_or_else(|| ApiError::NotFound(id.clone()))?;
    // The seat itself says whose it is; a game the account does not sit in is, to it, no
    // game it has a seat in: the same 404 as no game at all.
    [Color::Black, Color::White]
        .into_iter()
        .find(|&c| game.seat(c).account.as_deref() == Some(account.id.as_str()))
        .and_then(|c| {
            let token = game.seat(c).token.as_ref()?.as_str().to_string();
            Some(AccountSeat {
                seat: c.into(),
                token,
            })
        })
        .map(Json)
        .ok_or(ApiError::NotFound(id))
}

/// The account of a profile's name, or 404.
pub(crate) async fn player(state: &Shared, name: &str) -> Result<Account, ApiError> {
    state
        .store
        .account_named(name)
        .await?
        .map(|(a, _)| a)
        .ok_or_else(|| ApiError::Missing(format!("player {name}")))
}

async fn profile(
    State(state): State<Shared>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<ProfileView>, ApiError> {
    let account = player(&state, &name).await?;
    let relation = match viewer.0 {
        Some(me) if me.id != account.id => {
            let (following, blocking) = state.store.relation(&me.id, &account.id).await?;
            Some(crate::http::views::RelationView {
                following,
                blocking,
            })
        }
        _ => None,
    };
    let mut ratings = BTreeMap::new();
    for (category, s) in state.store.standings(&account.id).await? {
        ratings.insert(
            category,
            RatingView {
                rating: s.shown(),
                deviation: s.rating.deviation.round() as i32,
                games: s.games,
                provisional: s.provisional(),
                history: state.store.history(&account.id, category).await?,
            },
        );
    }
    Ok(Json(ProfileView {
        name: account.name.to_string(),
        ratings,
        puzzles: state.store.puzzle_standing(&account.id).await?.into(),
        tally: state.store.tally(&account.id).await?,
        tournaments: state
            .store
            .tournaments_of(&account.id, 20)
            .await?
            .iter()
            .map(crate::http::views::TrophyView::of)
            .collect(),
        relation,
    }))
}

/// The archive's query string: the page and the filters (not flattened: a flattened
/// struct would read `rated=true` as text, not as a boolean).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArchiveQuery {
    #[serde(default)]
    page: i64,
    rated: Option<bool>,
    category: Option<Category>,
    outcome: Option<crate::store::results::Outcome>,
    opponent: Option<String>,
}

async fn games(
    State(state): State<Shared>,
    Path(name): Path<String>,
    query: Result<Query<ArchiveQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<ArchivePage>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if !(0..=10_000).contains(&q.page) {
        return Err(ApiError::BadRequest("page is 0 to 10000".into()));
    }
    let account = player(&state, &name).await?;
    let filter = ArchiveFilter {
        rated: q.rated,
        category: q.category,
        outcome: q.outcome,
        opponent: q.opponent,
    };
    let mut games = state
        .store
        .archive(&account.id, &filter, q.page, PER_PAGE)
        .await?;
    let more = games.len() as i64 > PER_PAGE;
    games.truncate(PER_PAGE as usize);
    Ok(Json(ArchivePage {
        games,
        page: q.page,
        more,
    }))
}

async fn export(
    State(state): State<Shared>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let account = player(&state, &name).await?;
    let games = state
        .store
        .archive(&account.id, &ArchiveFilter::default(), 0, MAX_EXPORT)
        .await?;
    let mut text = String::new();
    for g in games.iter().take(MAX_EXPORT as usize) {
        if let Some((game, _)) = state.store.load(&g.id).await? {
            text.push_str(&game.record());
            text.push('\n');
        }
    }
    let disposition = format!("attachment; filename=\"konane-{}.txt\"", account.name);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

async fn leaderboard(
    State(state): State<Shared>,
    Path(category): Path<String>,
) -> Result<Json<LeaderboardView>, ApiError> {
    let category: Category = category
        .parse()
        .map_err(|e: crate::players::ratings::CategoryError| ApiError::BadRequest(e.to_string()))?;
    let players = state
        .store
        .leaderboard(category, LEADERBOARD_GAMES, 100)
        .await?;
    Ok(Json(LeaderboardView {
        category,
        min_games: LEADERBOARD_GAMES,
        players,
    }))
}
