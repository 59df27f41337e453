//! Tournaments (`docs/api.md`): the lists, creating one, joining, withdrawing, pausing,
//! starting early, and the socket that brings a tournament's page every change.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;

use crate::error::ApiError;
use crate::games::create::random_id;
use crate::http::extract::{ApiJson, LoggedIn, Viewer};
use crate::http::middleware::socket_cap;
use crate::http::views::{
    TournamentLine, TournamentList, TournamentShown, TournamentSummary, TournamentView, part_of,
    table_pages,
};
use crate::state::Shared;
use crate::store::accounts::Account;
use crate::time::now_ms;
use crate::tournaments::errors::TournamentError;
use crate::tournaments::model::{EntryStatus, Format, Phase, Tournament};
use crate::tournaments::request::CreateTournament;
use crate::tournaments::standings::Loaded;
use crate::tournaments::watch::Page;

/// Most tournaments not yet over that one account may have created.
pub const MAX_CREATED: usize = 3;
/// Finished tournaments listed.
const FINISHED_LISTED: i64 = 50;
/// Least time between two messages of a tournament's socket (ms): changes in between are
/// sent together, as the latest view.
const SOCKET_PACE_MS: u64 = 250;

/// The tournament routes, merged into the API router.
pub fn router(state: &Shared) -> Router<Shared> {
    Router::new()
        .route("/tournaments", get(list).post(create))
        .route("/tournaments/{id}", get(show))
        .route("/tournaments/{id}/join", post(join))
        .route("/tournaments/{id}/withdraw", post(withdraw))
        .route("/tournaments/{id}/pause", post(pause))
        .route("/tournaments/{id}/start", post(start))
        .route(
            "/tournaments/{id}/ws",
            get(socket).layer(from_fn_with_state(Arc::clone(state), socket_cap)),
        )
}

async fn list(
    State(state): State<Shared>,
    viewer: Viewer,
) -> Result<Json<TournamentList>, ApiError> {
    let me = viewer.0.as_ref().map(|a| a.id.as_str());
    // A private event is listed to its creator only; its entrants have its link.
    let shown = |l: &crate::store::tournaments::Listed| {
        l.tournament.settings.entry_code.is_none() || l.tournament.created_by.as_deref() == me
    };
    let mut lists = Vec::new();
    for (phase, limit) in [
        (Phase::Created, 100),
        (Phase::Started, 100),
        (Phase::Finished, FINISHED_LISTED),
    ] {
        let mut listed: Vec<_> = state.store.tournaments_in(phase, limit).await?;
        listed.retain(shown);
        // The site's events first; the store's order within each.
        listed.sort_by_key(|l| !l.tournament.by_site);
        lists.push(listed.iter().map(TournamentSummary::listed).collect());
    }
    let [upcoming, running, finished] = <[Vec<TournamentSummary>; 3]>::try_from(lists)
        .map_err(|_| ApiError::Internal("three lists".into()))?;
    Ok(Json(TournamentList {
        now: now_ms(),
        upcoming,
        running,
        finished,
    }))
}

async fn create(
    State(state): State<Shared>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(req): ApiJson<CreateTournament>,
) -> Result<Response, ApiError> {
    let checked = req.check(&me.name)?;
    if state.store.unfinished_created_by(&me.id).await? >= MAX_CREATED as i64 {
        return Err(TournamentError::TooManyCreated(MAX_CREATED).into());
    }
    let now = now_ms();
    let starts_at = now + checked.starts_in_ms;
    let ends_at = match checked.settings.format {
        Format::Arena { minutes } => Some(starts_at + i64::from(minutes) * 60_000),
        _ => None,
    };
    let t = Tournament {
        id: random_id()?,
        phase: Phase::Created,
        by_site: false,
        created_by: Some(me.id.clone()),
        size: checked
            .settings
            .size
            .parse()
            .map_err(|e: konane_core::SizeError| ApiError::Internal(e.to_string()))?,
        opening: checked
            .settings
            .opening
            .parse()
            .map_err(|e: konane_core::OpeningError| ApiError::Internal(e.to_string()))?,
        settings: checked.settings,
        round: 0,
        version: 1,
        starts_at,
        ends_at,
        finished_at: None,
    };
    state.store.insert_tournament(&t, None, now).await?;
    // The organiser plays in it, as on lichess; they may withdraw.
    let rating = entry_rating(&state, &t, &me).await?.0;
    state
        .store
        .enter(&t.id, &me.id, me.name.as_str(), rating, now)
        .await?;
    if checked.starts_in_ms == 0 {
        state.tournaments.wake();
    }
    let view = view_of(&state, &t.id, Some(&me.id)).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// `?page=N`: one page of the standings.
#[derive(Deserialize)]
struct ShowQuery {
    page: Option<String>,
}

async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
    query: Result<Query<ShowQuery>, QueryRejection>,
    viewer: Viewer,
) -> Result<Json<TournamentView>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let page = query
        .page
        .as_deref()
        .map(table_pages::page_number)
        .transpose()?;
    let me = viewer.0.as_ref().map(|a| a.id.as_str());
    let loaded = state
        .load_tournament(&id)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("tournament {id}")))?;
    let mut view = TournamentView::of(&loaded, me, state.next_round_at(&loaded), now_ms());
    if let Some(page) = page {
        let table = view.shown.keep_page(page)?;
        if let (Some(part), Some(account)) = (view.me.as_mut(), me) {
            part.lines = own_lines(&loaded, &table, account);
        }
    }
    Ok(Json(view))
}

/// The line of `account` in `table` with its neighbours, if it plays.
fn own_lines(
    loaded: &Loaded,
    table: &[TournamentLine],
    account: &str,
) -> Option<Vec<TournamentLine>> {
    let entrant = loaded.entrants.iter().find(|e| e.account == account)?;
    table_pages::around(table, |l| l.name == entrant.name).map(<[TournamentLine]>::to_vec)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    #[serde(default)]
    entry_code: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Empty {}

async fn join(
    State(state): State<Shared>,
    Path(id): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<TournamentView>, ApiError> {
    let t = tournament(&state, &id).await?;
    if let Some(code) = &t.settings.entry_code
        && req.entry_code.as_deref().map(str::trim) != Some(code.as_str())
    {
        return Err(TournamentError::EntryCode.into());
    }
    if t.phase == Phase::Finished {
        return Err(TournamentError::Finished.into());
    }
    if !t.open_for_entry() {
        return Err(TournamentError::Started.into());
    }
    let (rating, games) = entry_rating(&state, &t, &me).await?;
    if let Some(min) = t.settings.min_rating
        && rating < f64::from(min)
    {
        return Err(TournamentError::RatingTooLow(min).into());
    }
    if let Some(min) = t.settings.min_games
        && games < i64::from(min)
    {
        return Err(TournamentError::TooFewGames(min).into());
    }
    if !state
        .store
        .enter(&id, &me.id, me.name.as_str(), rating, now_ms())
        .await?
    {
        return Err(TournamentError::Started.into());
    }
    changed(&state, &id).await?;
    Ok(Json(view_of(&state, &id, Some(&me.id)).await?))
}

async fn withdraw(
    State(state): State<Shared>,
    Path(id): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(Empty {}): ApiJson<Empty>,
) -> Result<Json<TournamentView>, ApiError> {
    set_entry(&state, &id, &me, EntryStatus::Withdrawn).await
}

/// Pauses an active player, or brings a paused one back.
async fn pause(
    State(state): State<Shared>,
    Path(id): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(Empty {}): ApiJson<Empty>,
) -> Result<Json<TournamentView>, ApiError> {
    if let Format::League { .. } = tournament(&state, &id).await?.settings.format {
        return Err(TournamentError::NoPause.into());
    }
    let entrants = state.store.entrants(&id).await?;
    let status = match entrants
        .iter()
        .find(|e| e.account == me.id)
        .map(|e| e.status)
    {
        Some(EntryStatus::Active) => EntryStatus::Paused,
        Some(EntryStatus::Paused) => EntryStatus::Active,
        Some(EntryStatus::Withdrawn) | None => return Err(TournamentError::NotJoined.into()),
    };
    set_entry(&state, &id, &me, status).await
}

async fn set_entry(
    state: &Shared,
    id: &str,
    me: &Account,
    status: EntryStatus,
) -> Result<Json<TournamentView>, ApiError> {
    let t = tournament(state, id).await?;
    if t.phase == Phase::Finished {
        return Err(TournamentError::Finished.into());
    }
    if !state.store.set_entry(id, &me.id, status).await? {
        return Err(TournamentError::NotJoined.into());
    }
    changed(state, id).await?;
    Ok(Json(view_of(state, id, Some(&me.id)).await?))
}

/// The creator starts the tournament now.
async fn start(
    State(state): State<Shared>,
    Path(id): Path<String>,
    LoggedIn(me, _): LoggedIn,
    ApiJson(Empty {}): ApiJson<Empty>,
) -> Result<Json<TournamentView>, ApiError> {
    let t = tournament(&state, &id).await?;
    if t.created_by.as_deref() != Some(me.id.as_str()) {
        return Err(TournamentError::NotCreator.into());
    }
    if t.phase == Phase::Created
        && let Some(loaded) = state.load_tournament(&id).await?
    {
        state.start(&loaded, now_ms()).await?;
    }
    changed(&state, &id).await?;
    Ok(Json(view_of(&state, &id, Some(&me.id)).await?))
}

async fn socket(
    State(state): State<Shared>,
    Path(id): Path<String>,
    viewer: Viewer,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    tournament(&state, &id).await?;
    let me = viewer.0.map(|a| a.id);
    Ok(upgrade
        .read_buffer_size(crate::http::ws::READ_BUFFER)
        .on_upgrade(move |s| serve(s, state, id, me)))
}

/// Sends the tournament's view on open and after every change until either side closes.
async fn serve(socket: WebSocket, state: Shared, id: String, me: Option<String>) {
    let mut versions = state.tournaments.subscribe(&id);
    let (mut tx, mut rx) = socket.split();
    let every = state.occupancy.limits().ping_interval;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let (mut heard, mut silent) = (true, 0);
    let mut send_now = true;
    loop {
        if send_now {
            send_now = false;
            let wanted = *versions.borrow_and_update();
            let Ok(message) = socket_message(&state, &id, wanted, me.as_deref()).await else {
                let _ = tx.send(Message::Close(None)).await;
                return;
            };
            if tx.send(Message::Text(message.into())).await.is_err() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(SOCKET_PACE_MS)).await;
        }
        tokio::select! {
            _ = pings.tick() => {
                silent = if heard { 0 } else { silent + 1 };
                heard = false;
                if silent >= 2 || tx.send(Message::Ping(Default::default())).await.is_err() {
                    let _ = tx.send(Message::Close(None)).await;
                    return;
                }
            },
            change = versions.changed() => {
                if change.is_err() {
                    return;
                }
                send_now = true;
            },
            incoming = rx.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => heard = true,
            },
        }
    }
}

/// A socket's message: the page of the tournament at `version` or later (read once for
/// all its pages here), with the server's time and the part of `me`.
async fn socket_message(
    state: &Shared,
    id: &str,
    version: i64,
    me: Option<&str>,
) -> Result<String, ApiError> {
    let page = match state.tournaments.page(id, version) {
        Some(page) => page,
        None => {
            // One read for all the pages here that want this version.
            let lock = state.tournaments.reading(id);
            let _reading = lock.lock().await;
            if let Some(page) = state.tournaments.page(id, version) {
                return Ok(message(&page, me));
            }
            let loaded = state
                .load_tournament(id)
                .await?
                .ok_or_else(|| ApiError::Missing(format!("tournament {id}")))?;
            let mut shown = TournamentShown::of(&loaded, state.next_round_at(&loaded));
            let table = shown.keep_page(1)?;
            let json = serde_json::to_string(&shown)
                .map_err(|e| ApiError::Internal(format!("a tournament's view: {e}")))?;
            let page = Page {
                version: loaded.tournament.version,
                shown: Arc::from(json),
                loaded: Arc::new(loaded),
                table: Arc::new(table),
            };
            state.tournaments.keep(id, page.clone());
            page
        }
    };
    Ok(message(&page, me))
}

/// The message of `page` for the account `me`: the view's own JSON, its closing brace
/// replaced by the fields of this socket alone (its player's part, with their own lines).
fn message(page: &Page, me: Option<&str>) -> String {
    let part = me.and_then(|account| {
        let mut part = part_of(&page.loaded, account)?;
        part.lines = own_lines(&page.loaded, &page.table, account);
        Some(part)
    });
    // A `MeView` is plain fields: it always has its JSON.
    let part = serde_json::to_string(&part).unwrap_or_else(|_| "null".into());
    let shown = page.shown.strip_suffix('}').unwrap_or(&page.shown);
    format!(
        r#"{{"type":"tournament","tournament":{shown},"now":{},"me":{part}}}}}"#,
        now_ms()
    )
}

/// The tournament `id`, or 404.
async fn tournament(state: &Shared, id: &str) -> Result<Tournament, ApiError> {
    state
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("tournament {id}")))
}

/// The view of `id` for the account `me`.
async fn view_of(state: &Shared, id: &str, me: Option<&str>) -> Result<TournamentView, ApiError> {
    let loaded = state
        .load_tournament(id)
        .await?
        .ok_or_else(|| ApiError::Missing(format!("tournament {id}")))?;
    let next = state.next_round_at(&loaded);
    Ok(TournamentView::of(&loaded, me, next, now_ms()))
}

/// Tells this instance's pages of `id` that it changed (the other instances' directors
/// read its version on their next tick).
async fn changed(state: &Shared, id: &str) -> Result<(), ApiError> {
    if let Some(version) = state.store.tournament_version(id).await? {
        state.tournaments.changed(id, version);
    }
    state.tournaments.wake();
    Ok(())
}

/// The rating `me` enters `t` with, and their rated games, in its category (a newcomer's
/// 1500 and none for an event of no category).
async fn entry_rating(
    state: &Shared,
    t: &Tournament,
    me: &Account,
) -> Result<(f64, i64), ApiError> {
    let Some(category) = t.category() else {
        return Ok((1500.0, 0));
    };
    let standings = state.store.standings(&me.id).await?;
    Ok(standings
        .get(&category)
        .map_or((1500.0, 0), |s| (s.rating.rating, s.games)))
}
