//! The local-games load: many concurrent games on running servers, each a local game (one
//! token plays both sides) with a WebSocket. Given several instances (sharing one
//! PostgreSQL database), games are spread over them and each also has a socket on the next
//! instance, which measures the cross-instance push: from a move sent to one instance to
//! the new state on a socket of another.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use konane_server::games::game::Status;
use konane_server::http::views::{GameView, SeatedView};
use serde::Serialize;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use super::flags::Args;
use super::measure::{Spread, ms};
use super::net::{Socket, client};

/// One game: where it lives, its token, its socket there, a socket on another instance
/// (when there are several) and the last state seen.
struct Table {
    home: String,
    id: String,
    token: String,
    socket: Socket,
    far: Option<Socket>,
    state: GameView,
}

/// What one game measured, in milliseconds.
#[derive(Default)]
struct Times {
    /// Move sent to the new state on the game's own instance.
    round_trips: Vec<f64>,
    /// Move sent to the new state on the other instance's socket.
    pushes: Vec<f64>,
}

/// The next state on a game's socket.
pub(super) async fn next_state(socket: &mut Socket) -> Result<GameView> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .context("no state within 30 s")?
            .ok_or_else(|| anyhow!("the socket closed"))??;
        if let Message::Text(t) = msg {
            return Ok(serde_json::from_str(t.as_str())?);
        }
    }
}

/// Waits for a state past `ply` and says when it came.
pub(super) async fn state_after(socket: &mut Socket, ply: usize) -> Result<(GameView, Instant)> {
    loop {
        let state = next_state(socket).await?;
        if state.ply > ply {
            return Ok((state, Instant::now()));
        }
    }
}

/// Bytes a game's socket reads at a time: a state is about a kilobyte. tungstenite's
/// default, 128 KiB, is zeroed before every read, and at saturation that memset took a
/// twentieth of the machine the servers are measured on.
pub(super) const READ_BUFFER: usize = 4096;

async fn socket(base: &str, id: &str) -> Result<Socket> {
    super::net::connect(
        base,
        &format!("/api/games/{id}/ws"),
        None,
        None,
        READ_BUFFER,
    )
    .await
}

async fn open_table(client: &reqwest::Client, home: &str, far: Option<&str>) -> Result<Table> {
    let created: SeatedView = client
        .post(format!("{home}/api/games"))
        .json(&json!({"mode": "local", "size": "8x8"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token = created.token.ok_or_else(|| anyhow!("no token"))?;
    let mut socket = socket(home, &created.id).await?;
    let state = next_state(&mut socket).await?;
    let far = match far {
        Some(base) => {
            let mut s = self::socket(base, &created.id).await?;
            next_state(&mut s).await?;
            Some(s)
        }
        None => None,
    };
    Ok(Table {
        home: home.to_string(),
        id: created.id,
        token,
        socket,
        far,
        state,
    })
}

/// Plays up to `moves` moves of `t` and times each into `times` (as they come, so a run
/// cut short keeps what was measured).
async fn play(
    client: &reqwest::Client,
    t: &mut Table,
    moves: usize,
    think: Duration,
    times: &mut Times,
) -> Result<()> {
    let mut made = 0;
    while made < moves && t.state.status == Status::Playing {
        if made > 0 {
            tokio::time::sleep(think).await;
        }
        let mv = t
            .state
            .legal_moves
            .first()
            .ok_or_else(|| anyhow!("no legal move"))?
            .clone();
        let ply = t.state.ply;
        let sent = Instant::now();
        client
            .post(format!("{}/api/games/{}/moves", t.home, t.id))
            .bearer_auth(&t.token)
            .json(&json!({"move": mv, "ply": ply}))
            .send()
            .await?
            .error_for_status()?;
        // Both sockets are read at once, so each arrival is timed when it happens.
        let far = async {
            match t.far.as_mut() {
                Some(s) => state_after(s, ply).await.map(|(_, at)| Some(at)),
                None => Ok(None),
            }
        };
        let (near, far) = tokio::join!(state_after(&mut t.socket, ply), far);
        let (state, at) = near?;
        times.round_trips.push(ms(at.duration_since(sent)));
        if let Some(at) = far.context("on the other instance")? {
            times.pushes.push(ms(at.duration_since(sent)));
        }
        t.state = state;
        made += 1;
    }
    Ok(())
}

/// One game from its start: opened, then played after `offset` (spreading the games over
/// one thinking time, as real games are).
async fn one_game(
    client: reqwest::Client,
    t: Table,
    moves: usize,
    think: Duration,
    offset: Duration,
) -> Result<Times> {
    let mut t = t;
    let mut times = Times::default();
    tokio::time::sleep(offset).await;
    play(&client, &mut t, moves, think, &mut times).await?;
    Ok(times)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Runs `--games` games of `--moves` moves at once and prints what they measured.
pub(super) async fn run(cfg: &Args, bases: &[String]) -> Result<()> {
    let client = client(None)?;
    let before = cfg.server_pid.and_then(rss_kib);
    let bar = ProgressBar::new(cfg.games as u64);
    bar.set_style(ProgressStyle::with_template(
        "{spinner} opening games [{bar:40}] {pos}/{len}",
    )?);
    let mut tables = Vec::with_capacity(cfg.games);
    let n = bases.len();
    for chunk in (0..cfg.games).collect::<Vec<_>>().chunks(50) {
        let opened = futures_util::future::join_all(chunk.iter().map(|&i| {
            let far = (n > 1).then(|| bases[(i + 1) % n].as_str());
            open_table(&client, &bases[i % n], far)
        }))
        .await;
        for t in opened {
            tables.push(t?);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle = cfg.server_pid.and_then(rss_kib);
    let started = Instant::now();
    let think = cfg.think;
    let games = cfg.games as u32;
    let tasks: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let offset = think * i as u32 / games;
            tokio::spawn(one_game(client.clone(), t, cfg.moves, think, offset))
        })
        .collect();
    let mut round_trips = Vec::new();
    let mut pushes = Vec::new();
    let mut errors = 0;
    for task in tasks {
        match task.await {
            Ok(Ok(t)) => {
                round_trips.extend(t.round_trips);
                pushes.extend(t.pushes);
            }
            Ok(Err(e)) => {
                errors += 1;
                if errors == 1 {
                    eprintln!("first error: {e:#}");
                }
            }
            Err(_) => errors += 1,
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let on = if n == 1 {
        bases[0].clone()
    } else {
        format!("{n} instances ({})", bases.join(", "))
    };
    println!(
        "{} concurrent games on {on}, {} ms thinking per move, {} moves in {secs:.2} s",
        cfg.games,
        crate::args::whole_millis(cfg.think),
        round_trips.len()
    );
    println!(
        "moves per second  {:.0}",
        round_trips.len() as f64 / secs.max(1e-9)
    );
    println!("move round-trip   {}", Spread::of(&mut round_trips));
    if n > 1 {
        println!(
            "cross-instance    {} of {} moves seen on the other instance: {}",
            pushes.len(),
            round_trips.len(),
            Spread::of(&mut pushes)
        );
    }
    println!("errors            {errors}");
    // With several instances each holds sockets of other instances' games too, so a
    // figure per game would mean little.
    if let (Some(b), Some(i), 1) = (before, idle, n) {
        println!(
            "server memory     {b} KiB before, {i} KiB with the games open and idle: {:.1} KiB per game",
            i.saturating_sub(b) as f64 / cfg.games as f64
        );
    }
    if errors > 0 {
        bail!("{errors} game(s) failed");
    }
    Ok(())
}

/// What the local-games load measured over a set time.
#[derive(Serialize, Debug)]
pub(super) struct Baseline {
    /// Games played at once.
    pub games: usize,
    /// Games played to their move limit or end while it ran.
    pub games_played: usize,
    /// Moves played.
    pub moves: usize,
    /// How long it ran (s).
    pub seconds: f64,
    /// Moves per second.
    pub moves_per_second: f64,
    /// Move sent to the new state on the game's socket (ms).
    pub round_trip_ms: Spread,
    /// Games that failed.
    pub errors: usize,
}

/// `games` local games at once, each played to `moves` moves (or its end) and followed by
/// a new one, on `bases` in turn, until `duration` has passed: the same load as an arena
/// of twice as many players, without the arena.
pub(super) async fn for_duration(
    bases: &[String],
    games: usize,
    moves: usize,
    think: Duration,
    duration: Duration,
    bar: &ProgressBar,
) -> Result<Baseline> {
    let client = client(None)?;
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + duration;
    let tasks: Vec<_> = (0..games)
        .map(|i| {
            let client = client.clone();
            let home = bases[i % bases.len()].clone();
            let offset = think * i as u32 / games as u32;
            tokio::spawn(async move {
                let mut times = Times::default();
                let mut played = 0;
                let run = async {
                    tokio::time::sleep(offset).await;
                    while tokio::time::Instant::now() < deadline {
                        let mut t = open_table(&client, &home, None).await?;
                        play(&client, &mut t, moves, think, &mut times).await?;
                        played += 1;
                    }
                    Ok::<(), anyhow::Error>(())
                };
                // Cut off at the deadline, mid-game: what it measured so far counts.
                let outcome = tokio::time::timeout_at(deadline, run).await;
                (times, played, outcome.unwrap_or(Ok(())))
            })
        })
        .collect();
    let ticker = super::measure::tick(bar, started, duration, String::new);
    let mut round_trips = Vec::new();
    let (mut played, mut errors) = (0, 0);
    for task in tasks {
        let (times, n, outcome) = task.await?;
        round_trips.extend(times.round_trips);
        played += n;
        if let Err(e) = outcome {
            errors += 1;
            if errors == 1 {
                eprintln!("baseline: first error: {e:#}");
            }
        }
    }
    ticker.abort();
    let seconds = started.elapsed().as_secs_f64();
    Ok(Baseline {
        games,
        games_played: played,
        moves: round_trips.len(),
        seconds,
        moves_per_second: round_trips.len() as f64 / seconds.max(1e-9),
        round_trip_ms: Spread::of(&mut round_trips),
        errors,
    })
}
