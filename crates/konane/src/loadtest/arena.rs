//! The arena load: N players register (each from its own loopback address, as the server
//! allows only a few new accounts per address), one creates an arena, the others join, the
//! creator starts it, and every player plays the games the server pairs it in, as its page
//! would: the tournament's socket says its new game, it fetches its seat, opens the game's
//! socket, moves after thinking, and resigns after `--moves` moves. Measured: the move
//! round-trip, and the pairing latency, from the instant a player's game ended (or the
//! arena started) to the instant its next game arrived on the tournament's socket.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use konane_server::games::game::Status;
use konane_server::http::views::{AccountSeat, GameView, SeatView, Side};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::flags::Args;
use super::games::{self, next_state, state_after};
use super::measure::ms;
use super::net::{Socket, client, connect};
use super::report::{self, Figures, Record, Report};

/// Accounts registered at once: each costs the server an argon2 hash (tens of
/// milliseconds of a core and 19 MiB).
const REGISTER_AT_ONCE: usize = 8;
/// Requests or sockets opened at once while setting up.
const SETUP_AT_ONCE: usize = 50;
/// Bytes a tournament's socket reads at a time: a message holds a page of the table and
/// up to a hundred games, tens of kilobytes (a game's socket reads 4 KiB at a time).
const TOURNAMENT_READ_BUFFER: usize = 32 * 1024;

/// A registered player: where it plays, from which address, with its session cookie.
struct Player {
    base: String,
    from: IpAddr,
    client: reqwest::Client,
    cookie: String,
}

/// Counts for the progress bar.
#[derive(Default)]
struct Counters {
    moves: AtomicUsize,
    /// Games ended, counted by each of their two players.
    game_ends: AtomicUsize,
}

/// The settings of one player's play.
#[derive(Clone, Copy)]
struct Play {
    moves: usize,
    think: Duration,
}

/// Runs the baseline (when asked) and then the arena, and prints both.
pub(super) async fn compare(cfg: &Args, bases: &[String], players: usize) -> Result<()> {
    let bar = |len: u64, what: &str| -> Result<ProgressBar> {
        let bar = if cfg.json {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(len)
        };
        bar.set_style(ProgressStyle::with_template(&format!(
            "{{spinner}} {what} [{{bar:40}}] {{pos}}/{{len}} {{msg}}"
        ))?);
        Ok(bar)
    };
    let baseline = if cfg.baseline {
        let b = bar(0, "baseline: local games, seconds")?;
        let figures = games::for_duration(
            bases,
            players / 2,
            2 * cfg.moves,
            cfg.think,
            cfg.duration,
            &b,
        )
        .await?;
        b.finish_and_clear();
        // Let the server settle (closed sockets, finished writes) before the arena.
        tokio::time::sleep(Duration::from_secs(1)).await;
        Some(figures)
    } else {
        None
    };
    let arena = run(cfg, bases, players, &bar).await?;
    let p99_ratio = baseline
        .as_ref()
        .map(|b| arena.round_trip_ms.p99 / b.round_trip_ms.p99.max(1e-9));
    let report = Report {
        arena,
        baseline,
        p99_ratio,
    };
    if cfg.json {
        crate::args::print_json(&report)?;
    } else {
        report::print(cfg, bases, &report);
    }
    let errors = report.arena.errors + report.baseline.as_ref().map_or(0, |b| b.errors);
    if errors > 0 {
        bail!("{errors} player(s) or game(s) failed");
    }
    Ok(())
}

/// The arena set up: its players (the first its creator), its id, and each player's
/// inbox of new games with the task that fills it from the tournament's socket.
struct Arena {
    players: Vec<Player>,
    id: String,
    inboxes: Vec<mpsc::UnboundedReceiver<(String, Instant)>>,
    watchers: Vec<tokio::task::JoinHandle<Result<()>>>,
}

/// Registers the players, creates the arena, has the others join and opens their sockets.
async fn set_up(
    cfg: &Args,
    bases: &[String],
    n: usize,
    bar: &impl Fn(u64, &str) -> Result<ProgressBar>,
) -> Result<Arena> {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .subsec_nanos()
        >> 10;
    let registering = bar(n as u64, "registering players")?;
    let mut players = Vec::with_capacity(n);
    for chunk in (0..n).collect::<Vec<_>>().chunks(REGISTER_AT_ONCE) {
        let done = futures_util::future::join_all(
            chunk
                .iter()
                .map(|&i| register(&bases[i % bases.len()], address(nonce, i), nonce, i)),
        )
        .await;
        for p in done {
            players.push(p?);
            registering.inc(1);
        }
    }
    registering.finish_and_clear();
    let id = create(&players[0], cfg).await?;
    for chunk in players[1..].chunks(SETUP_AT_ONCE) {
        let joined = futures_util::future::join_all(chunk.iter().map(|p| {
            let path = format!("/api/tournaments/{id}/join");
            async move { p.post(&path, &json!({})).await }
        }))
        .await;
        for j in joined {
            j.context("joining")?;
        }
    }
    let mut inboxes = Vec::with_capacity(n);
    let mut watchers = Vec::with_capacity(n);
    for chunk in players.chunks(SETUP_AT_ONCE) {
        let opened = futures_util::future::join_all(chunk.iter().map(|p| {
            let path = format!("/api/tournaments/{id}/ws");
            async move {
                connect(
                    &p.base,
                    &path,
                    Some(p.from),
                    Some(&p.cookie),
                    TOURNAMENT_READ_BUFFER,
                )
                .await
            }
        }))
        .await;
        for socket in opened {
            let (tx, rx) = mpsc::unbounded_channel();
            watchers.push(tokio::spawn(watch(socket?, tx)));
            inboxes.push(rx);
        }
    }
    Ok(Arena {
        players,
        id,
        inboxes,
        watchers,
    })
}

/// Sets the arena up, lets it run for `--duration` and gathers what the players measured.
async fn run(
    cfg: &Args,
    bases: &[String],
    n: usize,
    bar: &impl Fn(u64, &str) -> Result<ProgressBar>,
) -> Result<Figures> {
    let Arena {
        players,
        id,
        inboxes,
        watchers,
    } = set_up(cfg, bases, n, bar).await?;
    let started = Instant::now();
    players[0]
        .post(&format!("/api/tournaments/{id}/start"), &json!({}))
        .await
        .context("starting the arena")?;
    let deadline = tokio::time::Instant::from_std(started + cfg.duration);
    let counters = Arc::new(Counters::default());
    let play = Play {
        moves: cfg.moves,
        think: cfg.think,
    };
    let tasks: Vec<_> = players
        .into_iter()
        .zip(inboxes)
        .enumerate()
        .map(|(i, (p, inbox))| {
            // The first moves are spread over one thinking time, as the baseline's are.
            let offset = cfg.think * i as u32 / n as u32;
            let counters = Arc::clone(&counters);
            tokio::spawn(async move {
                let mut record = Record {
                    free_since: Some(started),
                    ..Record::default()
                };
                let playing = plays(&p, inbox, play, offset, &mut record, &counters);
                let outcome = tokio::time::timeout_at(deadline, playing).await;
                (record, outcome.unwrap_or(Ok(())))
            })
        })
        .collect();
    let running = bar(0, "arena: seconds")?;
    let shown = Arc::clone(&counters);
    let ticker = super::measure::tick(&running, started, cfg.duration, move || {
        format!(
            "{} games ended, {} moves",
            shown.game_ends.load(Ordering::Relaxed) / 2,
            shown.moves.load(Ordering::Relaxed)
        )
    });
    let mut records = Vec::with_capacity(n);
    let mut errors = 0;
    for task in tasks {
        let (record, outcome) = task.await?;
        if let Err(e) = outcome {
            errors += 1;
            if errors == 1 {
                eprintln!("arena: first error: {e:#}");
            }
        }
        records.push(record);
    }
    let stopped = Instant::now();
    ticker.abort();
    running.finish_and_clear();
    for w in watchers {
        w.abort();
    }
    Ok(report::figures(n, &records, started, stopped, errors))
}

/// Player `i`'s loopback address: 127.x.y.z with x from the run's `nonce`, so runs on one
/// server do not share addresses (and its registration limit per address).
fn address(nonce: u32, i: usize) -> IpAddr {
    let x = 1 + (nonce % 250) as u8;
    IpAddr::V4(Ipv4Addr::new(127, x, (i / 250) as u8, 1 + (i % 250) as u8))
}

async fn register(base: &str, from: IpAddr, nonce: u32, i: usize) -> Result<Player> {
    let client = client(Some(from))?;
    let name = format!("ld{nonce:05x}-{i}");
    let answer = client
        .post(format!("{base}/api/accounts"))
        .json(&json!({"name": name, "password": "a load test's password"}))
        .send()
        .await
        .with_context(|| format!("registering {name} from {from}"))?;
    let cookie = answer
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    let status = answer.status();
    if !status.is_success() {
        bail!(
            "registering {name} from {from}: {status} {}",
            answer.text().await.unwrap_or_default()
        );
    }
    Ok(Player {
        base: base.to_string(),
        from,
        client,
        cookie: cookie.ok_or_else(|| anyhow!("registering {name} set no cookie"))?,
    })
}

impl Player {
    /// A JSON POST with the session cookie; the answer's body, or an error naming it.
    async fn post(&self, path: &str, body: &Value) -> Result<Value> {
        let answer = self
            .client
            .post(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .json(body)
            .send()
            .await?;
        let status = answer.status();
        let text = answer.text().await?;
        if !status.is_success() {
            bail!("POST {path}: {status} {text}");
        }
        Ok(serde_json::from_str(&text)?)
    }

    /// A GET with the session cookie.
    async fn get<T: serde::de::DeserializeOwned>(&self, path: &str) -> Result<T> {
        Ok(self
            .client
            .get(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?)
    }
}

/// Creates the arena, starting in an hour (its creator starts it when everyone is in), on
/// a clock no player's thinking runs out of.
async fn create(creator: &Player, cfg: &Args) -> Result<String> {
    let thinking_minutes = (cfg.think.as_secs_f64() * cfg.moves as f64 / 60.0).ceil();
    let created = creator
        .post(
            "/api/tournaments",
            &json!({"kind": "arena", "name": "Load test arena", "rated": true,
                "clock": {"minutes": (thinking_minutes + 2.0).min(180.0), "increment": 2},
                "minutes": cfg.minutes, "starts_in_s": 3600}),
        )
        .await
        .context("creating the arena")?;
    created["id"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| anyhow!("the new arena has no id: {created}"))
}

/// Reads a player's tournament socket and passes on each new game of theirs with the
/// instant it arrived.
async fn watch(mut socket: Socket, games: mpsc::UnboundedSender<(String, Instant)>) -> Result<()> {
    let mut last: Option<String> = None;
    while let Some(message) = socket.next().await {
        let Message::Text(text) = message? else {
            continue;
        };
        let arrived = Instant::now();
        if let Some(game) = my_game(text.as_str())?
            && last.as_ref() != Some(&game)
        {
            last = Some(game.clone());
            if games.send((game, arrived)).is_err() {
                break;
            }
        }
    }
    Ok(())
}

/// A player's part of a tournament message.
#[derive(Deserialize)]
struct Me {
    game: Option<String>,
}

/// The `me.game` of a tournament socket's message. Only the message's end, the socket's
/// own part, is parsed: the rest is a page of the table and the games, and parsing all of
/// it for every player at every change would take this client a share of the CPU it
/// measures the server with.
fn my_game(text: &str) -> Result<Option<String>> {
    let tail = text
        .rfind("\"me\":")
        .and_then(|at| text[at + 5..].strip_suffix("}}"));
    if let Some(me) = tail.and_then(|t| serde_json::from_str::<Option<Me>>(t).ok()) {
        return Ok(me.and_then(|m| m.game));
    }
    #[derive(Deserialize)]
    struct Shown {
        me: Option<Me>,
    }
    #[derive(Deserialize)]
    struct TournamentMessage {
        tournament: Shown,
    }
    let whole: TournamentMessage =
        serde_json::from_str(text).context("a tournament socket's message")?;
    Ok(whole.tournament.me.and_then(|m| m.game))
}

/// Plays every game the arena pairs the player in, timing each pairing, until cut off.
async fn plays(
    p: &Player,
    mut inbox: mpsc::UnboundedReceiver<(String, Instant)>,
    play: Play,
    offset: Duration,
    record: &mut Record,
    counters: &Counters,
) -> Result<()> {
    let mut offset = offset;
    loop {
        let (game, paired) = inbox
            .recv()
            .await
            .ok_or_else(|| anyhow!("the tournament's socket closed"))?;
        if let Some(free) = record.free_since.take() {
            // A game that ends and the next pairing race on two sockets; the pairing may
            // be read first.
            let wait = ms(paired.saturating_duration_since(free));
            match record.first {
                None => record.first = Some(wait),
                Some(_) => record.pairings.push(wait),
            }
        }
        let ended = play_game(p, &game, play, offset, record, counters).await?;
        offset = Duration::ZERO;
        record.free_since = Some(ended);
        record.ended.push(game);
        counters.game_ends.fetch_add(1, Ordering::Relaxed);
    }
}

/// Plays one game: its moves after thinking, each timed, until it ends or the player has
/// made its moves and resigns. Returns the instant the player saw it end.
async fn play_game(
    p: &Player,
    id: &str,
    play: Play,
    offset: Duration,
    record: &mut Record,
    counters: &Counters,
) -> Result<Instant> {
    let seat: AccountSeat = p.get(&format!("/api/account/games/{id}/seat")).await?;
    let side = match seat.seat {
        SeatView::Black => Side::Black,
        SeatView::White => Side::White,
        SeatView::Both => bail!("a tournament game with both seats in one hand"),
    };
    let path = format!("/api/games/{id}/ws");
    let mut socket = connect(&p.base, &path, Some(p.from), None, games::READ_BUFFER).await?;
    // Present, as the game's page says.
    let hello = json!({"token": seat.token}).to_string();
    socket.send(Message::Text(hello.into())).await?;
    let mut state: GameView = next_state(&mut socket).await?;
    tokio::time::sleep(offset).await;
    let mut made = 0;
    loop {
        if state.status != Status::Playing {
            return Ok(Instant::now());
        }
        if state.turn != side {
            state = next_state(&mut socket).await?;
            continue;
        }
        let url = format!("{}/api/games/{id}", p.base);
        if made == play.moves {
            let answer = p
                .client
                .post(format!("{url}/resign"))
                .bearer_auth(&seat.token)
                .header("content-type", "application/json")
                .send()
                .await?;
            return match answer.status().is_success() {
                true => Ok(Instant::now()),
                false => over(&mut socket, answer).await,
            };
        }
        tokio::time::sleep(play.think).await;
        let mv = state
            .legal_moves
            .first()
            .ok_or_else(|| anyhow!("no legal move in {id}"))?
            .clone();
        let ply = state.ply;
        let sent = Instant::now();
        let answer = p
            .client
            .post(format!("{url}/moves"))
            .bearer_auth(&seat.token)
            .json(&json!({"move": mv, "ply": ply}))
            .send()
            .await?;
        if !answer.status().is_success() {
            return over(&mut socket, answer).await;
        }
        let (next, at) = state_after(&mut socket, ply).await?;
        record.round_trips.push(ms(at.duration_since(sent)));
        counters.moves.fetch_add(1, Ordering::Relaxed);
        made += 1;
        state = next;
    }
}

/// After a refused move or resignation: the game ended meanwhile (the opponent resigned
/// while this player thought) if its socket says so, else the refusal is an error.
async fn over(socket: &mut Socket, refused: reqwest::Response) -> Result<Instant> {
    let status = refused.status();
    let text = refused.text().await.unwrap_or_default();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), next_state(socket)).await {
            Ok(Ok(state)) if state.status != Status::Playing => return Ok(Instant::now()),
            Ok(Ok(_)) => continue,
            _ => bail!("refused in a game still on: {status} {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_game_is_read_from_the_end_of_the_message() {
        let view = r#"{"id":"t1","standings":[{"name":"me","games":[]}],"games":[{"id":"g0"}]"#;
        let message = |me: &str| {
            format!(r#"{{"type":"tournament","tournament":{view},"now":1,"me":{me}}}}}"#)
        };
        let game = |me: &str| my_game(&message(me)).map_err(|e| e.to_string());
        assert_eq!(
            game(r#"{"joined":true,"game":"g7"}"#),
            Ok(Some("g7".into()))
        );
        assert_eq!(game(r#"{"joined":true,"game":null}"#), Ok(None));
        // The player's own lines come with their part.
        assert_eq!(
            game(r#"{"joined":true,"game":"g8","lines":[{"rank":3,"name":"me"}]}"#),
            Ok(Some("g8".into()))
        );
        assert_eq!(game("null"), Ok(None));
        // Another layout of the same message still reads, through the whole parse.
        let spaced = r#"{"type":"tournament","tournament":{"me":{"game":"g2"},"now":1} }"#;
        assert_eq!(my_game(spaced).ok(), Some(Some("g2".into())));
        assert!(my_game("not json").is_err());
    }

    #[test]
    fn players_get_distinct_loopback_addresses() {
        let all: std::collections::HashSet<IpAddr> = (0..crate::loadtest::flags::MAX_PLAYERS)
            .map(|i| address(7, i))
            .collect();
        assert_eq!(all.len(), crate::loadtest::flags::MAX_PLAYERS);
        assert!(all.iter().all(|a| a.is_loopback()));
        assert!(!all.contains(&IpAddr::V4(Ipv4Addr::LOCALHOST)));
    }
}
