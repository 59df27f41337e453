//! `konane loadtest`: many concurrent games against a running server, over real
//! WebSockets, measuring the move round-trip: from sending a move over HTTP to seeing the
//! new state arrive on the game's socket.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use futures_util::StreamExt;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// The settings of a load test.
pub struct LoadConfig {
    /// The server, e.g. `http://127.0.0.1:8080`.
    pub url: String,
    /// Concurrent games.
    pub games: usize,
    /// Moves per game at most (games also stop when they end).
    pub moves: usize,
    /// The server's process id, to read its memory use with all games open and idle.
    pub server_pid: Option<u32>,
    /// Milliseconds each player thinks before a move (0: as fast as the server answers).
    pub think_ms: u64,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One game: its id, token and socket, and the last state seen.
struct Table {
    id: String,
    token: String,
    socket: Socket,
    state: Value,
}

async fn next_state(socket: &mut Socket) -> Result<Value> {
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

async fn open_table(client: &reqwest::Client, base: &str) -> Result<Table> {
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({"mode": "local", "size": "8x8"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let id = created["id"]
        .as_str()
        .ok_or_else(|| anyhow!("no id"))?
        .to_string();
    let token = created["token"]
        .as_str()
        .ok_or_else(|| anyhow!("no token"))?
        .to_string();
    let ws = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
    let (mut socket, _) = tokio_tungstenite::connect_async(ws).await?;
    let state = next_state(&mut socket).await?;
    Ok(Table {
        id,
        token,
        socket,
        state,
    })
}

/// Plays up to `moves` moves; returns the round-trip of each in milliseconds.
async fn play(
    client: reqwest::Client,
    base: String,
    mut t: Table,
    moves: usize,
    think: Duration,
    offset: Duration,
) -> Result<Vec<f64>> {
    let mut times = Vec::new();
    // Spread the games over one thinking time, as real games are.
    tokio::time::sleep(offset).await;
    while times.len() < moves && t.state["status"] == "playing" {
        if !times.is_empty() {
            tokio::time::sleep(think).await;
        }
        let mv = t.state["legal_moves"][0]
            .as_str()
            .ok_or_else(|| anyhow!("no legal move"))?
            .to_string();
        let ply = t.state["ply"].as_u64().unwrap_or(0);
        let sent = Instant::now();
        client
            .post(format!("{base}/api/games/{}/moves", t.id))
            .bearer_auth(&t.token)
            .json(&json!({"move": mv, "ply": ply}))
            .send()
            .await?
            .error_for_status()?;
        loop {
            t.state = next_state(&mut t.socket).await?;
            if t.state["ply"].as_u64() > Some(ply) {
                break;
            }
        }
        times.push(sent.elapsed().as_secs_f64() * 1000.0);
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

/// Runs the load test and prints what it measured.
pub fn run(cfg: &LoadConfig) -> Result<()> {
    if cfg.games == 0 {
        bail!("--games must be at least 1");
    }
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let base = cfg.url.trim_end_matches('/').to_string();
        let client = reqwest::Client::new();
        let before = cfg.server_pid.and_then(rss_kib);
        let bar = ProgressBar::new(cfg.games as u64);
        bar.set_style(ProgressStyle::with_template("{spinner} opening games [{bar:40}] {pos}/{len}")?);
        let mut tables = Vec::with_capacity(cfg.games);
        for chunk in (0..cfg.games).collect::<Vec<_>>().chunks(50) {
            let opened = futures_util::future::join_all(chunk.iter().map(|_| open_table(&client, &base))).await;
            for t in opened {
                tables.push(t?);
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let idle = cfg.server_pid.and_then(rss_kib);
        let started = Instant::now();
        let think = Duration::from_millis(cfg.think_ms);
        let n = cfg.games as u32;
        let tasks: Vec<_> = tables
            .into_iter()
            .enumerate()
            .map(|(i, t)| tokio::spawn(play(client.clone(), base.clone(), t, cfg.moves, think, think * i as u32 / n)))
            .collect();
        let mut times = Vec::new();
        let mut errors = 0;
        for task in tasks {
            match task.await {
                Ok(Ok(t)) => times.extend(t),
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
        times.sort_by(f64::total_cmp);
        println!(
            "{} concurrent games on {base}, {} ms thinking per move, {} moves in {secs:.2} s",
            cfg.games,
            cfg.think_ms,
            times.len()
        );
        println!("moves per second  {:.0}", times.len() as f64 / secs.max(1e-9));
        println!(
            "move round-trip   p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            percentile(&times, 0.50),
            percentile(&times, 0.99),
            times.last().copied().unwrap_or(0.0)
        );
        println!("errors            {errors}");
        if let (Some(b), Some(i)) = (before, idle) {
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
