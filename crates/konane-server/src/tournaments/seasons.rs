//! The director's work on league seasons: a season starts on its day with every game of
//! every group at once (or waits a month for three players), ends when its last game has,
//! and makes the next season, with its players carried over, before it ends, so that an
//! instance killed in between makes it on its next look.

use std::sync::Arc;

use crate::error::ApiError;
use crate::games::create::random_id;
use crate::players::ratings::Category;
use crate::state::AppState;
use crate::store::leagues::Carried;
use crate::store::tournaments::Pairing;
use crate::tournaments::calendar;
use crate::tournaments::director::new_pairing;
use crate::tournaments::league;
use crate::tournaments::model::{EntryStatus, Phase, Tournament};
use crate::tournaments::standings::Loaded;

const DAY_MS: i64 = 86_400_000;
/// The least time between a season's end and the next one's start: a week to join.
const BREAK_MS: i64 = 7 * DAY_MS;

impl AppState {
    /// Starts a season whose day has come: deals its players into groups by the season
    /// before and stores every game; with fewer than three players, moves its start to
    /// the first of the next month.
    pub async fn start_season(self: &Arc<Self>, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let t = &l.tournament;
        let active = l
            .entrants
            .iter()
            .filter(|e| e.status == EntryStatus::Active)
            .count();
        if active < league::MIN_PLAYERS {
            let later = calendar::first_of_month_at(now + 1, t.starts_at.rem_euclid(DAY_MS));
            if self.store.postpone(&t.id, later).await? {
                tracing::info!("league season {} waits for players until {later}", t.id);
            }
            return Ok(());
        }
        let previous = match &t.settings.season {
            Some(season) if season.number > 1 => {
                let key = crate::tournaments::model::Season {
                    number: season.number - 1,
                    ..season.clone()
                }
                .key();
                match self.store.tournament_by_key(&key).await? {
                    Some(before) => self.load_tournament(&before.id).await?,
                    None => None,
                }
            }
            _ => None,
        };
        let places = league::deal(l, previous.as_ref());
        let by_account: std::collections::HashMap<&str, &crate::tournaments::model::Entrant> =
            l.entrants.iter().map(|e| (e.account.as_str(), e)).collect();
        let mut rounds: Vec<(u32, Vec<Pairing>)> = Vec::new();
        for (round, black, white) in league::games(&places) {
            let (Some(b), Some(w)) = (
                by_account.get(black.as_str()),
                by_account.get(white.as_str()),
            ) else {
                continue;
            };
            let p = new_pairing(t, b, w, now)?;
            match rounds.iter_mut().find(|(r, _)| *r == round) {
                Some((_, games)) => games.push(p),
                None => rounds.push((round, vec![p])),
            }
        }
        if !self
            .store
            .start_season(&t.id, now, &places, &rounds)
            .await?
        {
            return Ok(());
        }
        tracing::info!(
            "league season {} ({}) started: {} players, {} games",
            t.id,
            t.settings.name,
            places.len(),
            rounds.iter().map(|(_, g)| g.len()).sum::<usize>()
        );
        for (_, games) in &rounds {
            for p in games {
                self.changed(&p.game, 1);
            }
        }
        if let Some(version) = self.store.tournament_version(&t.id).await? {
            self.tournaments.changed(&t.id, version);
        }
        Ok(())
    }

    /// A running season: once its last game is over, makes the next season and ends it.
    pub async fn season_step(self: &Arc<Self>, l: &Loaded, now: i64) -> Result<(), ApiError> {
        if l.games_running() {
            return Ok(());
        }
        self.next_season(l, now).await?;
        self.finish(l, now).await
    }

    /// The season after `l`'s, made once (found by its key), starting on the first of a
    /// month at least a week away, with every player of `l` still active carried over
    /// (who joined `l` late included; who withdrew or missed two games in a row not).
    async fn next_season(&self, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let t = &l.tournament;
        let Some(season) = &t.settings.season else {
            return Ok(());
        };
        let next = season.next();
        let key = next.key();
        let id = match self.store.tournament_by_key(&key).await? {
            Some(made) => made.id,
            None => {
                let mut settings = t.settings.clone();
                settings.season = Some(next);
                let made = Tournament {
                    id: random_id()?,
                    phase: Phase::Created,
                    settings,
                    round: 0,
                    version: 1,
                    starts_at: calendar::first_of_month_at(
                        now + BREAK_MS,
                        t.starts_at.rem_euclid(DAY_MS),
                    ),
                    ends_at: None,
                    finished_at: None,
                    ..t.clone()
                };
                if self.store.insert_tournament(&made, Some(&key), now).await? {
                    made.id
                } else {
                    // Another instance made it first.
                    self.store
                        .tournament_by_key(&key)
                        .await?
                        .map(|made| made.id)
                        .ok_or_else(|| ApiError::Internal(format!("season {key} vanished")))?
                }
            }
        };
        let mut carried = Vec::new();
        for e in l
            .entrants
            .iter()
            .filter(|e| e.status == EntryStatus::Active)
        {
            let rating = self
                .store
                .standings(&e.account)
                .await?
                .get(&Category::Correspondence)
                .map_or(e.rating, |s| s.rating.rating);
            carried.push(Carried {
                account: e.account.clone(),
                name: e.name.clone(),
                rating,
            });
        }
        self.store.carry_over(&id, &carried, now).await?;
        Ok(())
    }
}
