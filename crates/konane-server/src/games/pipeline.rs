//! The life of a change to a game, top to bottom: load (from the hub's kept copy, or the
//! store) → apply (a pure change of [`ServedGame`]) → store (if nothing else changed it
//! meanwhile) → announce (to the pages here; the store's notification tells the other
//! instances) → schedule what comes next (the engine's move or the clock's watch). Changes
//! the server makes by itself (the engine's move, a flag fall) run through the same path.

use std::sync::Arc;

use crate::error::ApiError;
use crate::games::game::{EngineTurn, GameError, ServedGame, Status};
use crate::http::views::GameView;
use crate::notices::notice::{self, Before};
use crate::state::AppState;
use crate::store::StoreError;
use crate::time;

/// The key engine fairness counts a game against when it has no creator on record.
const NO_CLIENT: &str = "-";

/// First wait before a failed store write of the engine or the clock is tried again (ms);
/// it doubles up to [`RETRY_MAX_MS`].
const RETRY_FIRST_MS: u64 = 50;
/// Longest wait between two tries (ms).
const RETRY_MAX_MS: u64 = 5_000;

impl AppState {
    /// Loads a game, applies `change` and stores it if nothing else changed it meanwhile
    /// (and, with `expect`, only if it is still at that sequence number). Returns the stored
    /// game and the state sent to its pages; on any error nothing is stored.
    ///
    /// A game shown here starts from the copy the hub keeps; when that copy turns out stale
    /// (the change is refused or the store's sequence check fails) it is read from the store
    /// and `change` runs again on that.
    pub async fn mutate(
        self: &Arc<Self>,
        id: &str,
        expect: Option<i64>,
        mut change: impl FnMut(&mut ServedGame) -> Result<(), ApiError>,
    ) -> Result<(ServedGame, GameView), ApiError> {
        let mut kept = self
            .hub
            .latest(id)
            .filter(|(_, seq)| expect.is_none_or(|e| e == *seq));
        loop {
            let from_kept = kept.is_some();
            let (game, seq) = match kept.take() {
                Some(copy) => copy,
                None => self
                    .store
                    .load(id)
                    .await?
                    .ok_or_else(|| ApiError::NotFound(id.to_string()))?,
            };
            match self.try_mutate(game, seq, expect, &mut change).await {
                Err(ApiError::Internal(cause)) => return Err(ApiError::Internal(cause)),
                Err(_) | Ok(None) if from_kept => continue,
                Ok(None) => return Err(GameError::Changed.into()),
                Ok(Some(done)) => return Ok(done),
                Err(refused) => return Err(refused),
            }
        }
    }

    /// One attempt of [`AppState::mutate`] on `game` at `seq`: none when the store had
    /// moved on.
    async fn try_mutate(
        self: &Arc<Self>,
        mut game: ServedGame,
        seq: i64,
        expect: Option<i64>,
        change: &mut impl FnMut(&mut ServedGame) -> Result<(), ApiError>,
    ) -> Result<Option<(ServedGame, GameView)>, ApiError> {
        if expect.is_some_and(|e| e != seq) {
            return Err(GameError::Changed.into());
        }
        let before = Before::of(&game);
        let accounts = game.seats.each_ref().map(|s| s.account.clone());
        change(&mut game)?;
        let seated = game.seats.iter().map(|s| &s.account).ne(accounts.iter());
        // Stored and announced in a task of its own, which a request dropped half-way (its
        // client gone) does not cancel: that would cut the statement off, closing the
        // move's connection, or leave the change stored and never sent to its pages, its
        // clock watch or the other instances.
        let state = Arc::clone(self);
        tokio::spawn(async move { state.store_change(game, seq, before, seated).await })
            .await
            .map_err(|e| ApiError::Internal(format!("storing a change: {e}")))?
    }

    /// The rest of [`AppState::try_mutate`] once the change is judged: stores `game` over
    /// `seq` (none when the store had moved on), announces it and tells the accounts it
    /// concerns (`before`: the game before the change).
    async fn store_change(
        self: Arc<Self>,
        mut game: ServedGame,
        seq: i64,
        before: Before,
        seated: bool,
    ) -> Result<Option<(ServedGame, GameView)>, ApiError> {
        let now = time::now_ms();
        let was_over = before.status == Status::Finished;
        // The end of a game is stored with what it does to its players: their archive and,
        // rated, both ratings, all in one transaction, which writes the ratings into the
        // game; any other change travels to the other instances with its state.
        let (stored, view, json) = if !was_over && game.status == Status::Finished {
            let stored = self.store.update_finished(&mut game, seq, now).await?;
            let view = GameView::of(&game, seq + 1, now);
            let json = view.to_json();
            (stored, view, json)
        } else {
            let view = GameView::of(&game, seq + 1, now);
            let json = view.to_json();
            // A join links the account to the game (its list on every device); a move,
            // the common change, stays one statement.
            let stored = if seated {
                self.store
                    .update_seated(&game, seq, now, Some(&json))
                    .await?
            } else {
                self.store.update(&game, seq, now, Some(&json)).await?
            };
            (stored, view, json)
        };
        if !stored {
            return Ok(None);
        }
        if game.tournament.is_some() && game.status == Status::Finished {
            // Its players are free, or its round may be over: the director looks now.
            self.tournaments.wake();
        }
        metrics::counter!("konane_moves_total")
            .increment(game.ply().saturating_sub(before.ply) as u64);
        self.announce(&game, seq + 1, Arc::from(json));
        self.notify(notice::of_change(before, &game), now).await;
        Ok(Some((game, view)))
    }

    /// Sends `state`, the view of `game` at `seq`, to the pages here and schedules what
    /// comes next.
    fn announce(self: &Arc<Self>, game: &ServedGame, seq: i64, state: Arc<str>) {
        self.hub.remember(game, seq);
        self.hub.publish(&game.id, seq, state);
        self.schedule(game, seq);
    }

    /// Called after every stored change of a game: tells the pages here (other instances
    /// hear of it from the store's notification), and lets the engine or the clock act if
    /// it is their turn. Returns the state it sent.
    pub fn changed(self: &Arc<Self>, game: &ServedGame, seq: i64) -> GameView {
        let view = GameView::of(game, seq, time::now_ms());
        self.announce(game, seq, Arc::from(view.to_json()));
        view
    }

    /// Sends a game's state, as just stored or read, to its pages on this instance.
    pub fn publish(&self, game: &ServedGame, seq: i64) {
        let view = GameView::of(game, seq, time::now_ms());
        self.hub.remember(game, seq);
        self.hub.publish(&game.id, seq, Arc::from(view.to_json()));
    }

    /// Starts the engine's move or the clock's watch, when the game needs one. The engine
    /// playing itself moves only while somebody watches it here, at a pace they can follow.
    /// A game whose computer the browser plays gets only the clock's watch.
    pub fn schedule(self: &Arc<Self>, game: &ServedGame, seq: i64) {
        if let Some(turn) = game.engine_turn() {
            if turn.self_play && !self.hub.watched_here(&game.id) {
                return;
            }
            if !self.engines.available() {
                // Created by a server that had an engine: it waits, as for an absent player.
                tracing::warn!(
                    "game {} waits for an engine this server does not run",
                    game.id
                );
                return;
            }
            let state = Arc::clone(self);
            let id = game.id.clone();
            let client = game.client.clone().unwrap_or_else(|| NO_CLIENT.to_string());
            tokio::spawn(async move { state.engine_move(id, client, turn, seq).await });
        } else if let Some(deadline) = game.deadline() {
            let state = Arc::clone(self);
            let id = game.id.clone();
            tokio::spawn(async move {
                let wait = (deadline - time::now_ms()).max(0) as u64;
                tokio::time::sleep(std::time::Duration::from_millis(wait + 1)).await;
                state.until_stored(&id, || state.flag(&id, seq)).await;
            });
        }
    }

    async fn engine_move(self: Arc<Self>, id: String, client: String, turn: EngineTurn, seq: i64) {
        let started = std::time::Instant::now();
        let seed = time::now_ms() as u64 ^ seq as u64;
        let Some(m) = self
            .engines
            .choose(&client, turn.position, turn.level, seed)
            .await
        else {
            tracing::error!("the engine found no move in game {id}");
            return;
        };
        if turn.self_play {
            let pace = std::time::Duration::from_millis(self.timing.self_play_pace_ms);
            tokio::time::sleep(pace.saturating_sub(started.elapsed())).await;
        }
        let text = turn.position.move_text(m);
        let mover = turn.position.turn();
        self.until_stored(&id, || {
            self.mutate(&id, Some(seq), |g| {
                Ok(g.play_as(mover, &text, turn.ply, time::now_ms())?)
            })
        })
        .await;
    }

    /// Ends a game whose running clock has run out, if it is still at `seq`.
    async fn flag(self: &Arc<Self>, id: &str, seq: i64) -> Result<(), ApiError> {
        self.mutate(id, Some(seq), |g| {
            if g.flag_fall(time::now_ms()) {
                Ok(())
            } else {
                Err(GameError::Changed.into())
            }
        })
        .await
        .map(drop)
    }

    /// Runs a change the server makes by itself (the engine's move, a clock's flag) until
    /// the database takes it: a failed write is retried with backoff, never forgotten. A
    /// refusal (the game moved on meanwhile) is the end of it.
    async fn until_stored<F, T>(&self, id: &str, mut attempt: impl FnMut() -> F)
    where
        F: std::future::Future<Output = Result<T, ApiError>>,
    {
        let mut wait = RETRY_FIRST_MS;
        loop {
            match attempt().await {
                Err(ApiError::Internal(cause)) => {
                    tracing::warn!("game {id}: {cause}; trying again in {wait} ms");
                    tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
                    wait = (wait * 2).min(RETRY_MAX_MS);
                }
                _ => return,
            }
        }
    }

    /// Picks up every game in progress (after a start or restart): engines think again,
    /// clocks are watched again, and games whose time ran out while down are ended.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let games = self.store.playing().await?;
        let n = games.len();
        for (game, seq) in games {
            self.schedule(&game, seq);
        }
        Ok(n)
    }
}
