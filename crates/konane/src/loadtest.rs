//! `konane loadtest`: many concurrent games against running servers, over real
//! WebSockets, measuring the move round-trip: from sending a move over HTTP to seeing the
//! new state arrive on the game's socket. Given several instances (sharing one
//! PostgreSQL database), games are spread over them and each also has a socket on the next
//! instance, which measures the cross-instance push: from a move sent to one instance to
//! the new state on a socket of another.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use konane_server::games::game::Status;
use konane_server::http::views::{GameView, SeatedView};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// The settings of a load test.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A server, e.g. http://127.0.0.1:8080 (start it with --rate-limit 0); several
    /// instances sharing a database: give --url for each. Games are spread over them.
    #[arg(long = "url", required = true)]
    urls: Vec<String>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Moves per game at most (games also stop when they end).
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// The (first) server's process id, to report its memory per open game.
    #[arg(long)]
    server_pid: Option<u32>,
    /// How long each player thinks before moving, e.g. 1s or 200ms (0: as fast as the
    /// server answers; a bare number counts milliseconds).
    #[arg(long, alias = "think-ms", default_value = "1s", value_parser = crate::args::millis)]
    think: Duration,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

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

async fn next_state(socket: &mut Socket) -> Result<GameView> {
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
async fn state_after(socket: &mut Socket, ply: usize) -> Result<(GameView, Instant)> {
    loop {
        let state = next_state(socket).await?;
        if state.ply > ply {
            return Ok((state, Instant::now()));
        }
    }
}

/// Bytes a load-test socket reads at a time: a state is about a kilobyte. tungstenite's
/// default, 128 KiB, is zeroed before every read, and at saturation that memset took a
/// twentieth of the machine the servers are measured on.
const READ_BUFFER: usize = 4096;

async fn socket(base: &str, id: &str) -> Result<Socket> {
    let ws = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0);
    Ok(
        tokio_tungstenite::connect_async_with_config(ws, Some(config), false)
            .await?
            .0,
    )
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

/// Plays up to `moves` moves and times each.
async fn play(
    client: reqwest::Client,
    mut t: Table,
    moves: usize,
    think: Duration,
    offset: Duration,
) -> Result<Times> {
    let mut times = Times::default();
    // Spread the games over one thinking time, as real games are.
    tokio::time::sleep(offset).await;
    while times.round_trips.len() < moves && t.state.status == Status::Playing {
        if !times.round_trips.is_empty() {
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
        times
            .round_trips
            .push(at.duration_since(sent).as_secs_f64() * 1000.0);
        if let Some(at) = far.context("on the other instance")? {
            times
                .pushes
                .push(at.duration_since(sent).as_secs_f64() * 1000.0);
        }
        t.state = state;
    }
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

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0.0)
}

fn spread(sorted: &[f64]) -> String {
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        sorted.last().copied().unwrap_or(0.0)
    )
}

/// Runs the load test and prints what it measured.
pub fn run(cfg: Args) -> Result<()> {
    if cfg.games == 0 {
        bail!("--games must be at least 1");
    }
    if cfg.urls.is_empty() {
        bail!("give at least one --url");
    }
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let bases: Vec<String> = cfg.urls.iter().map(|u| u.trim_end_matches('/').to_string()).collect();
        // A server ends a keep-alive connection that has been idle for its header timeout
        // (10 s by default); players who think that long would send a move into a socket
        // it is closing. Browsers send such a request again; this client instead never
        // reuses a connection idle for more than 5 s.
        let client = reqwest::Client::builder()
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .build()?;
        let before = cfg.server_pid.and_then(rss_kib);
        let bar = ProgressBar::new(cfg.games as u64);
        bar.set_style(ProgressStyle::with_template("{spinner} opening games [{bar:40}] {pos}/{len}")?);
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
            .map(|(i, t)| tokio::spawn(play(client.clone(), t, cfg.moves, think, think * i as u32 / games)))
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
        round_trips.sort_by(f64::total_cmp);
        pushes.sort_by(f64::total_cmp);
        let on = if n == 1 { bases[0].clone() } else { format!("{n} instances ({})", bases.join(", ")) };
        println!(
            "{} concurrent games on {on}, {} ms thinking per move, {} moves in {secs:.2} s",
            cfg.games,
            crate::args::whole_millis(cfg.think),
            round_trips.len()
        );
        println!("moves per second  {:.0}", round_trips.len() as f64 / secs.max(1e-9));
        println!("move round-trip   {}", spread(&round_trips));
        if n > 1 {
            println!(
                "cross-instance    {} of {} moves seen on the other instance: {}",
                pushes.len(),
                round_trips.len(),
                spread(&pushes)
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Load {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn thinking_time_reads_durations_and_the_old_milliseconds() {
        let think = |flags: &[&str]| {
            let mut argv = vec!["konane", "--url", "http://127.0.0.1:8080"];
            argv.extend_from_slice(flags);
            Load::try_parse_from(argv).map(|l| l.args.think)
        };
        assert_eq!(think(&[]).ok(), Some(Duration::from_secs(1)));
        assert_eq!(
            think(&["--think-ms", "500"]).ok(),
            Some(Duration::from_millis(500))
        );
        assert_eq!(think(&["--think", "2s"]).ok(), Some(Duration::from_secs(2)));
        assert_eq!(think(&["--think", "0"]).ok(), Some(Duration::ZERO));
        assert!(think(&["--think", "soon"]).is_err());
    }
}
