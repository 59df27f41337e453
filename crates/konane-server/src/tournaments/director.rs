//! The director: every instance runs one. On every tick (and when woken) it creates the
//! schedule's coming events, starts the tournaments whose time has come, pairs arena waves
//! and rounds, and ends tournaments. Everything it knows is read from the store each time,
//! and each step is one conditional transaction, so several instances (or one restarted
//! after `kill -9`) direct the same tournaments without pairing anything twice.

use std::sync::Arc;

use konane_core::{Color, Game};
use konane_tournament as pairing;

use crate::error::ApiError;
use crate::games::create::{random_id, token};
use crate::games::game::{EngineHost, Mode, NewGame, Seat, ServedGame, TournamentLink};
use crate::players::name::PlayerName;
use crate::state::{AppState, Shared};
use crate::store::tournaments::Pairing;
use crate::time;
use crate::tournaments::model::{Entrant, EntryStatus, Format, Phase, Tournament};
use crate::tournaments::standings::Loaded;

/// How often the schedule is looked at (ms).
const SCHEDULE_EVERY_MS: i64 = 60_000;

impl AppState {
    /// Reads a tournament with its players, games and byes.
    pub async fn load_tournament(&self, id: &str) -> Result<Option<Loaded>, ApiError> {
        let Some(tournament) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        Ok(Some(Loaded {
            entrants: self.store.entrants(id).await?,
            games: self.store.tour_games(id).await?,
            byes: self.store.tour_byes(id).await?,
            tournament,
        }))
    }

    /// Creates the schedule's coming events that do not exist yet; returns how many.
    pub async fn create_scheduled(&self, now: i64) -> Result<usize, ApiError> {
        let mut created = 0;
        for coming in self.schedule.coming(now) {
            let ends_at = match coming.settings.format {
                Format::Arena { minutes } => Some(coming.starts_at + i64::from(minutes) * 60_000),
                _ => None,
            };
            let t =
                Tournament {
                    id: random_id()?,
                    phase: Phase::Created,
                    by_site: true,
                    created_by: None,
                    size: coming
                        .settings
                        .size
                        .parse()
                        .map_err(|e: konane_core::SizeError| ApiError::Internal(e.to_string()))?,
                    opening: coming.settings.opening.parse().map_err(
                        |e: konane_core::OpeningError| ApiError::Internal(e.to_string()),
                    )?,
                    settings: coming.settings,
                    round: 0,
                    version: 1,
                    starts_at: coming.starts_at,
                    ends_at,
                    finished_at: None,
                };
            if self
                .store
                .insert_tournament(&t, Some(&coming.key), now)
                .await?
            {
                created += 1;
            }
        }
        Ok(created)
    }

    /// One look at every tournament with work to do.
    pub async fn direct(self: &Arc<Self>, now: i64) -> Result<(), ApiError> {
        for t in self.store.due_tournaments(now).await? {
            let id = t.id.clone();
            if let Err(e) = self.step(t, now).await {
                tracing::warn!("tournament {id}: {e}");
            }
        }
        for id in self.tournaments.watched() {
            if let Some(version) = self.store.tournament_version(&id).await? {
                self.tournaments.changed(&id, version);
            }
        }
        Ok(())
    }

    async fn step(self: &Arc<Self>, t: Tournament, now: i64) -> Result<(), ApiError> {
        // A running league season waits months for its games: no need to read it all.
        if t.phase == Phase::Started
            && matches!(t.settings.format, Format::League { .. })
            && self.store.games_running(&t.id).await?
        {
            return Ok(());
        }
        let Some(loaded) = self.load_tournament(&t.id).await? else {
            return Ok(());
        };
        match (t.phase, t.settings.format) {
            (Phase::Created, Format::League { .. }) => self.start_season(&loaded, now).await,
            (Phase::Started, Format::League { .. }) => self.season_step(&loaded, now).await,
            (Phase::Created, _) => self.start(&loaded, now).await,
            (Phase::Started, Format::Arena { .. }) => self.arena_step(&loaded, now).await,
            (Phase::Started, _) => self.round_step(&loaded, now).await,
            (Phase::Finished, _) => Ok(()),
        }
    }

    /// Starts a tournament (a round robin numbers its players by rating); a Swiss or round
    /// robin with fewer than two players ends at once, as nobody can play.
    pub async fn start(&self, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let t = &l.tournament;
        let active: Vec<&Entrant> = l
            .entrants
            .iter()
            .filter(|e| e.status == EntryStatus::Active)
            .collect();
        let mut seats = Vec::new();
        if let Format::RoundRobin { .. } = t.settings.format {
            let mut by_rating = active.clone();
            by_rating.sort_by(|a, b| {
                b.rating
                    .total_cmp(&a.rating)
                    .then(a.joined_at.cmp(&b.joined_at))
            });
            seats = by_rating
                .iter()
                .enumerate()
                .map(|(i, e)| (e.account.clone(), i as u32))
                .collect();
        }
        let ends_at = match t.settings.format {
            Format::Arena { minutes } => Some(now + i64::from(minutes) * 60_000),
            _ => None,
        };
        if self
            .store
            .start_tournament(&t.id, now, ends_at, &seats)
            .await?
        {
            tracing::info!(
                "tournament {} ({}) started with {} players",
                t.id,
                t.settings.name,
                active.len()
            );
            if t.settings.format.in_rounds() && active.len() < 2 {
                self.store.finish_tournament(&t.id, &[], now).await?;
            }
            self.tournaments.wake();
        }
        Ok(())
    }

    /// An arena: pairs the free players (a wave), or, once its time is up and its last
    /// games are over, ends it.
    async fn arena_step(self: &Arc<Self>, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let t = &l.tournament;
        if t.ends_at.is_some_and(|end| now >= end) {
            if !l.games_running() {
                self.finish(l, now).await?;
            }
            return Ok(());
        }
        let free = l.free();
        if free.len() < 2 {
            return Ok(());
        }
        let table = l.table();
        let points: std::collections::HashMap<usize, u32> = table
            .iter()
            .map(|line| (line.entrant, line.score))
            .collect();
        let index = l.index();
        // Colours and the last opponent of each player, from their games in order.
        let mut history = vec![(0u32, 0u32, None::<usize>); l.entrants.len()];
        for g in &l.games {
            let (Some(&b), Some(&w)) = (index.get(g.black.as_str()), index.get(g.white.as_str()))
            else {
                continue;
            };
            history[b].0 += 1;
            history[b].2 = Some(w);
            history[w].1 += 1;
            history[w].2 = Some(b);
        }
        let candidates: Vec<pairing::ArenaCandidate> = free
            .iter()
            .map(|&i| pairing::ArenaCandidate {
                player: i,
                points: points.get(&i).copied().unwrap_or(0),
                rating: l.entrants[i].rating,
                last_opponent: history[i].2,
                blacks: history[i].0,
                whites: history[i].1,
            })
            .collect();
        let pairs = pairing::pair_arena(&candidates);
        self.pair(l, t.round + 1, &pairs, &[], now).await
    }

    /// A Swiss or round robin: once every game of the round is over and the pause after
    /// it has passed, pairs the next round, or ends the tournament after the last.
    async fn round_step(self: &Arc<Self>, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let t = &l.tournament;
        if l.games_running() {
            return Ok(());
        }
        if let Some(at) = self.next_round_at(l)
            && now < at
        {
            return Ok(());
        }
        let seated = l.entrants.iter().filter(|e| e.seat.is_some()).count();
        let rounds = t.rounds(seated).unwrap_or(0);
        if t.round >= rounds {
            return self.finish(l, now).await;
        }
        let round = t.round + 1;
        let (pairs, byes) = match t.settings.format {
            Format::Swiss { .. } => {
                let entrants: Vec<pairing::SwissEntrant> = l
                    .entrants
                    .iter()
                    .map(|e| pairing::SwissEntrant {
                        rating: e.rating,
                        active: e.status == EntryStatus::Active,
                    })
                    .collect();
                let r = pairing::pair_swiss(&entrants, &l.played(), &l.pairing_byes(), round);
                (r.pairs, r.bye.into_iter().collect::<Vec<_>>())
            }
            _ => self.robin_round(l, seated, round),
        };
        if pairs.is_empty() && matches!(t.settings.format, Format::Swiss { .. }) {
            // Nobody left to pair (all but one withdrew): the Swiss is over.
            return self.finish(l, now).await;
        }
        let bye_accounts: Vec<String> = byes
            .iter()
            .map(|&i| l.entrants[i].account.clone())
            .collect();
        self.pair(l, round, &pairs, &bye_accounts, now).await
    }

    /// Round `round` of a round robin by its Berger table, in entrant indices. A game with a
    /// player who withdrew is not played: the one still here scores it as a bye.
    fn robin_round(
        &self,
        l: &Loaded,
        seated: usize,
        round: u32,
    ) -> (Vec<(usize, usize)>, Vec<usize>) {
        let Format::RoundRobin { double } = l.tournament.settings.format else {
            return (Vec::new(), Vec::new());
        };
        let by_seat: std::collections::HashMap<u32, usize> = l
            .entrants
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((e.seat?, i)))
            .collect();
        let table = pairing::round_robin(seated, double);
        let Some(r) = table.get(round as usize - 1) else {
            return (Vec::new(), Vec::new());
        };
        let here = |i: usize| l.entrants[i].status != EntryStatus::Withdrawn;
        let (mut pairs, mut byes) = (Vec::new(), Vec::new());
        for &(b, w) in &r.pairs {
            let (Some(&b), Some(&w)) = (by_seat.get(&(b as u32)), by_seat.get(&(w as u32))) else {
                continue;
            };
            match (here(b), here(w)) {
                (true, true) => pairs.push((b, w)),
                (true, false) => byes.push(b),
                (false, true) => byes.push(w),
                (false, false) => {}
            }
        }
        if let Some(&i) = r.bye.and_then(|s| by_seat.get(&(s as u32)))
            && here(i)
        {
            byes.push(i);
        }
        (pairs, byes)
    }

    /// When the next round of a round-based tournament may be paired: a pause after the
    /// last game of the round before ended (none before the first round, while a game of
    /// the round is played, and once it is over).
    pub fn next_round_at(&self, l: &Loaded) -> Option<i64> {
        let t = &l.tournament;
        if t.round == 0 || !t.settings.format.in_rounds() || t.phase != Phase::Started {
            return None;
        }
        let round: Vec<&crate::tournaments::model::TourGame> =
            l.games.iter().filter(|g| g.round == t.round).collect();
        // Not while a game of the round is being played.
        let ends: Option<Vec<i64>> = round.iter().map(|g| g.ended_at).collect();
        let last = ends?.into_iter().max().unwrap_or(t.starts_at);
        Some(last + self.timing.round_pause_ms)
    }

    /// Creates and stores the games of `pairs` (entrant indices, Black first) and the
    /// byes as round `round`; nothing when another instance paired it first.
    async fn pair(
        self: &Arc<Self>,
        l: &Loaded,
        round: u32,
        pairs: &[(usize, usize)],
        byes: &[String],
        now: i64,
    ) -> Result<(), ApiError> {
        let t = &l.tournament;
        let mut pairings = Vec::with_capacity(pairs.len());
        for &(b, w) in pairs {
            pairings.push(new_pairing(t, &l.entrants[b], &l.entrants[w], now)?);
        }
        self.store
            .rate_all_seats(pairings.iter_mut().map(|p| &mut p.game))
            .await?;
        // A round robin pairs its paused players too (their clocks run); the others, the
        // active ones only.
        let only_active = !matches!(t.settings.format, Format::RoundRobin { .. });
        if !self
            .store
            .pair_round(&t.id, round, &pairings, byes, only_active, now)
            .await?
        {
            return Ok(());
        }
        for p in &pairings {
            self.changed(&p.game, 1);
        }
        if let Some(version) = self.store.tournament_version(&t.id).await? {
            self.tournaments.changed(&t.id, version);
        }
        Ok(())
    }

    /// Ends a tournament with its final ranks.
    pub(crate) async fn finish(&self, l: &Loaded, now: i64) -> Result<(), ApiError> {
        let places = l.final_places();
        if self
            .store
            .finish_tournament(&l.tournament.id, &places, now)
            .await?
        {
            tracing::info!(
                "tournament {} ({}) is over",
                l.tournament.id,
                l.tournament.settings.name
            );
            if let Some(version) = self.store.tournament_version(&l.tournament.id).await? {
                self.tournaments.changed(&l.tournament.id, version);
            }
        }
        Ok(())
    }
}

/// A new game of tournament `t` between two of its players, Black first, its clock
/// running from `now`.
pub(crate) fn new_pairing(
    t: &Tournament,
    black: &Entrant,
    white: &Entrant,
    now: i64,
) -> Result<Pairing, ApiError> {
    let mut seats: [Seat; 2] = Default::default();
    for (color, e) in [(Color::Black, black), (Color::White, white)] {
        seats[color.index()] = Seat {
            token: Some(token()?),
            engine: false,
            name: PlayerName::parse(&e.name).ok(),
            account: Some(e.account.clone()),
            rating: None,
        };
    }
    let game = ServedGame::new(NewGame {
        id: random_id()?,
        mode: Mode::Open,
        level: None,
        seats,
        game: Game::new(t.size, t.opening),
        clock: Some(t.clock()),
        now,
        client: None,
        rated: t.rated(),
        engine_host: EngineHost::Server,
        challenge: None,
        tournament: Some(TournamentLink {
            id: t.id.clone(),
            name: t.settings.name.clone(),
            kind: Some(t.settings.format.kind().to_string()),
            every: t.settings.site_title,
        }),
    });
    Ok(Pairing {
        game,
        accounts: [black.account.clone(), white.account.clone()],
    })
}

/// Directs the tournaments every `tournament_every_ms`, and at once when woken.
pub(crate) async fn director(state: Shared) {
    let every = std::time::Duration::from_millis(state.timing.tournament_every_ms);
    let mut scheduled_at = i64::MIN;
    loop {
        let now = time::now_ms();
        if now.saturating_sub(scheduled_at) >= SCHEDULE_EVERY_MS {
            match state.create_scheduled(now).await {
                Ok(0) => scheduled_at = now,
                Ok(n) => {
                    scheduled_at = now;
                    tracing::info!("created {n} scheduled tournament(s)");
                }
                Err(e) => tracing::warn!("tournament schedule: {e}"),
            }
        }
        if let Err(e) = state.direct(now).await {
            tracing::warn!("tournaments: {e}");
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = state.tournaments.woken() => {}
        }
    }
}
