//! `konane match`: two players, many games, colours alternating, in parallel.
//!
//! A player is our engine (`level 6`, `time 300`, `depth 5`, `threads 2`, in any mix) or an
//! external program that speaks the engine protocol (`cmd:./other-engine --flag`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use konane_core::{Color, Game, Move, Opening, Record, Size};
use konane_engine::{Engine, EngineConfig, Limits, Rng, SystemClock, Weights};

use crate::stats::{elo, wilson};

/// Who plays, as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Our engine in this process.
    Internal {
        /// A playing level, or `None` for the full engine within `limits`.
        level: Option<u8>,
        /// Limits when no level is given.
        limits: Limits,
        /// Search threads.
        threads: usize,
        /// Evaluation weights.
        weights: Weights,
    },
    /// A program speaking the engine protocol, started with `sh -c`.
    External {
        /// The command line.
        command: String,
    },
}

impl PlayerSpec {
    /// Reads `level 6`, `time 200 threads 2`, `depth 5`, `nodes 100000` or `cmd:<command>`;
    /// evaluation weights may be set too (`depth 4 mobility 120 tempo 10`).
    pub fn parse(text: &str) -> Result<PlayerSpec> {
        if let Some(command) = text.trim().strip_prefix("cmd:") {
            if command.trim().is_empty() {
                bail!("'cmd:' needs a command to run");
            }
            return Ok(PlayerSpec::External {
                command: command.trim().to_string(),
            });
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() || words.len() % 2 == 1 {
            bail!(
                "player '{text}': write pairs like 'level 6' or 'time 200 threads 2', or cmd:<program>"
            );
        }
        let (mut level, mut limits, mut threads) = (None, Limits::default(), 1);
        let mut weights = Weights::default();
        for pair in words.chunks(2) {
            if let Some(w) = weights.by_name_mut(pair[0]) {
                *w = pair[1]
                    .parse()
                    .map_err(|_| anyhow!("player '{text}': '{}' is not a number", pair[1]))?;
                continue;
            }
            let n: u64 = pair[1]
                .parse()
                .map_err(|_| anyhow!("player '{text}': '{}' is not a number", pair[1]))?;
            match pair[0] {
                "level" if (1..=8).contains(&n) => level = Some(n as u8),
                "level" => bail!("player '{text}': levels run from 1 to 8"),
                "time" => limits.time_ms = Some(n),
                "depth" => limits.depth = Some(n as u32),
                "nodes" => limits.nodes = Some(n),
                "threads" if n >= 1 => threads = n as usize,
                other => bail!("player '{text}': unknown setting '{other}'"),
            }
        }
        if level.is_none() && limits == Limits::default() {
            bail!("player '{text}': give a level or a limit (time, depth or nodes)");
        }
        Ok(PlayerSpec::Internal {
            level,
            limits,
            threads,
            weights,
        })
    }

    /// Threads the player thinks with (an external program counts as one).
    pub fn threads(&self) -> usize {
        match self {
            PlayerSpec::Internal { threads, .. } => *threads,
            PlayerSpec::External { .. } => 1,
        }
    }
}

/// A player ready to move.
trait Player {
    /// Prepares for a new game.
    fn new_game(&mut self, size: Size, opening: Opening) -> Result<()>;
    /// The move to play in the game's current position.
    fn choose(&mut self, game: &Game) -> Result<Move>;
}

struct Internal {
    engine: Engine,
    level: Option<u8>,
    limits: Limits,
    rng: Rng,
}

impl Player for Internal {
    fn new_game(&mut self, _: Size, _: Opening) -> Result<()> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move> {
        let pos = game.position();
        let clock = SystemClock::start();
        let m = match self.level {
            Some(level) => self.engine.choose(pos, level, &clock, &mut self.rng),
            None => {
                self.engine
                    .think(pos, self.limits, true, &clock, &mut |_| {})
                    .best
            }
        };
        m.ok_or_else(|| anyhow!("asked to move in a position without moves"))
    }
}

struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    go: String,
    timeout: Duration,
}

impl External {
    fn start(command: &str, go: &str, timeout: Duration) -> Result<External> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting '{command}'"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| anyhow!("no stdin for '{command}'"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("no stdout for '{command}'"))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            child,
            stdin,
            lines,
            go: go.to_string(),
            timeout,
        };
        e.send("protocol")?;
        e.expect_ok()?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .context("the engine closed its input")
    }

    fn next_line(&mut self) -> Result<String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                bail!("the engine did not answer within {:?}", self.timeout)
            }
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
        }
    }

    fn expect_ok(&mut self) -> Result<()> {
        loop {
            let line = self.next_line()?;
            if line == "ok" {
                return Ok(());
            }
            if let Some(e) = line.strip_prefix("error") {
                bail!("the engine said: {}", e.trim());
            }
        }
    }
}

impl Player for External {
    fn new_game(&mut self, size: Size, opening: Opening) -> Result<()> {
        self.send(&format!("newgame {size} {opening}"))?;
        self.expect_ok()
    }

    fn choose(&mut self, game: &Game) -> Result<Move> {
        let start = game.start();
        self.send(&format!("position {start} opening {}", start.opening()))?;
        self.expect_ok()?;
        if game.ply() > 0 {
            self.send(&format!("moves {}", game.move_texts().join(" ")))?;
            self.expect_ok()?;
        }
        let go = format!("go {}", self.go);
        self.send(go.trim_end())?;
        loop {
            let line = self.next_line()?;
            if let Some(m) = line.strip_prefix("bestmove ") {
                return game
                    .size()
                    .parse_move(m)
                    .map_err(|e| anyhow!("the engine answered '{m}': {e}"));
            }
            if let Some(e) = line.strip_prefix("error") {
                bail!("the engine said: {}", e.trim());
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn make_player(spec: &PlayerSpec, go: &str, seed: u64) -> Result<Box<dyn Player>> {
    Ok(match spec {
        PlayerSpec::Internal {
            level,
            limits,
            threads,
            weights,
        } => Box::new(Internal {
            engine: Engine::new(EngineConfig {
                hash_mb: 32,
                proof_mb: 32,
                threads: *threads,
                weights: *weights,
            }),
            level: *level,
            limits: *limits,
            rng: Rng::new(seed),
        }),
        PlayerSpec::External { command } => {
            let budget = go
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .find(|w| w[0] == "time")
                .and_then(|w| w[1].parse::<u64>().ok())
                .unwrap_or(10_000);
            Box::new(External::start(
                command,
                go,
                Duration::from_millis(budget * 5 + 5_000),
            )?)
        }
    })
}

/// The settings of a match.
pub struct MatchConfig {
    /// First player (Black in the even games).
    pub a: PlayerSpec,
    /// How `a` is named in the report.
    pub a_name: String,
    /// Second player.
    pub b: PlayerSpec,
    /// How `b` is named in the report.
    pub b_name: String,
    /// Games in all (pairs with the same opening, colours swapped).
    pub games: usize,
    /// Board size.
    pub size: Size,
    /// Opening rule.
    pub opening: Opening,
    /// Random plies at the start of each pair, for variety.
    pub random_plies: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the random openings and levels.
    pub seed: u64,
    /// Arguments of `go` for external players.
    pub go: String,
    /// Where to write every game's record, if anywhere.
    pub records: Option<std::path::PathBuf>,
}

/// One finished game.
struct Played {
    index: usize,
    a_won: bool,
    record: Record,
    /// Thinking time per move, in milliseconds, of `a` and of `b`.
    think_ms: [Vec<f64>; 2],
}

/// Plays game `index`: pairs share an opening; `a` has Black in even games.
fn play_one(cfg: &MatchConfig, index: usize, players: &mut [Box<dyn Player>; 2]) -> Result<Played> {
    let pair = (index / 2) as u64;
    let a_black = index.is_multiple_of(2);
    let mut game = Game::new(cfg.size, cfg.opening);
    let mut rng = Rng::new(cfg.seed ^ pair.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for _ in 0..cfg.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())])?;
    }
    for p in players.iter_mut() {
        p.new_game(cfg.size, cfg.opening)?;
    }
    // players[0] is a, players[1] is b.
    let seat = |c: Color| usize::from((c == Color::Black) != a_black);
    let mut termination = None;
    let mut think_ms = [Vec::new(), Vec::new()];
    while game.outcome().is_none() {
        let mover = game.position().turn();
        let started = Instant::now();
        let choice = players[seat(mover)].choose(&game);
        think_ms[seat(mover)].push(started.elapsed().as_secs_f64() * 1000.0);
        let played = choice.and_then(|m| game.play(m).map_err(|e| anyhow!("{e}")));
        if let Err(e) = played {
            termination = Some((mover.opponent(), format!("{mover} forfeits: {e}")));
            break;
        }
    }
    let (winner, reason) = termination
        .or_else(|| game.outcome().map(|o| (o.winner, o.termination())))
        .ok_or_else(|| anyhow!("game {} stopped without a result", index + 1))?;
    let (black, white) = if a_black {
        (&cfg.a_name, &cfg.b_name)
    } else {
        (&cfg.b_name, &cfg.a_name)
    };
    let tags = vec![
        (
            "Event".to_string(),
            format!("konane match, {} vs {}", cfg.a_name, cfg.b_name),
        ),
        ("Round".to_string(), (index + 1).to_string()),
        ("Black".to_string(), black.clone()),
        ("White".to_string(), white.clone()),
        ("Result".to_string(), winner.name().to_string()),
        ("Termination".to_string(), reason),
    ];
    Ok(Played {
        index,
        a_won: seat(winner) == 0,
        record: Record::new(game, tags),
        think_ms,
    })
}

/// Keeps the first error of any worker; the others stop when they see it.
fn record_failure(slot: &Mutex<Option<anyhow::Error>>, e: anyhow::Error) {
    if let Ok(mut f) = slot.lock() {
        f.get_or_insert(e);
    }
}

/// What a match came to.
pub struct MatchResult {
    played: Vec<Played>,
}

impl MatchResult {
    /// The first player's share of the wins, 0 to 1.
    pub fn score(&self) -> f64 {
        self.played.iter().filter(|p| p.a_won).count() as f64 / self.played.len().max(1) as f64
    }
}

/// Plays the match and prints the result.
pub fn run(cfg: &MatchConfig) -> Result<()> {
    let result = play_match(cfg, true)?;
    if let Some(path) = &cfg.records {
        let text: Vec<String> = result.played.iter().map(|p| p.record.to_string()).collect();
        std::fs::write(path, text.join("\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    report(cfg, &result);
    Ok(())
}

/// Plays every game of the match, with a progress bar when `show_progress` is set.
pub fn play_match(cfg: &MatchConfig, show_progress: bool) -> Result<MatchResult> {
    if cfg.games == 0 {
        bail!("--games must be at least 1");
    }
    let bar = if show_progress {
        ProgressBar::new(cfg.games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(ProgressStyle::with_template(
        "{spinner} {msg} [{bar:40}] {pos}/{len} games, {elapsed} (eta {eta})",
    )?);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let a_wins = AtomicUsize::new(0);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for worker in 0..cfg.concurrency.clamp(1, cfg.games) {
            let (next, results, a_wins, failure, bar) = (&next, &results, &a_wins, &failure, &bar);
            s.spawn(move || {
                let seed = cfg.seed.wrapping_add(worker as u64);
                let players = make_player(&cfg.a, &cfg.go, seed)
                    .and_then(|a| Ok([a, make_player(&cfg.b, &cfg.go, seed ^ 1)?]));
                let mut players = match players {
                    Ok(p) => p,
                    Err(e) => {
                        record_failure(failure, e);
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games || failure.lock().map_or(true, |f| f.is_some()) {
                        break;
                    }
                    match play_one(cfg, i, &mut players) {
                        Ok(p) => {
                            if p.a_won {
                                a_wins.fetch_add(1, Ordering::Relaxed);
                            }
                            results.lock().map(|mut r| r.push(p)).ok();
                            let done = bar.position() + 1;
                            bar.set_message(format!(
                                "{} {} - {} {}",
                                cfg.a_name,
                                a_wins.load(Ordering::Relaxed),
                                done as usize - a_wins.load(Ordering::Relaxed),
                                cfg.b_name
                            ));
                            bar.inc(1);
                        }
                        Err(e) => {
                            record_failure(failure, e);
                            break;
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut played = results.into_inner().unwrap_or_default();
    played.sort_by_key(|p| p.index);
    Ok(MatchResult { played })
}

/// Prints wins, thinking times, the score with its interval and the Elo difference.
fn report(cfg: &MatchConfig, result: &MatchResult) {
    let played = &result.played;
    let n = played.len() as f64;
    let wins = played.iter().filter(|p| p.a_won).count() as f64;
    let (lo, hi) = wilson(wins, n);
    let p = wins / n;
    let black_wins = played
        .iter()
        .filter(|p| p.record.tag("Result") == Some("black"))
        .count();
    println!(
        "{} vs {} on {} ({}), {} games, {} random opening plies",
        cfg.a_name,
        cfg.b_name,
        cfg.size,
        cfg.opening,
        played.len(),
        cfg.random_plies
    );
    for (k, name) in [&cfg.a_name, &cfg.b_name].into_iter().enumerate() {
        let mut times: Vec<f64> = played
            .iter()
            .flat_map(|p| p.think_ms[k].iter().copied())
            .collect();
        times.sort_by(f64::total_cmp);
        let won = if k == 0 { wins } else { n - wins } as usize;
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        let p99 = times.get(times.len() * 99 / 100).copied().unwrap_or(0.0);
        let max = times.last().copied().unwrap_or(0.0);
        println!(
            "{name:<24} {won:>6} wins   per move: {mean:.1} ms mean, {p99:.1} ms p99, {max:.1} ms max"
        );
    }
    println!("black won {black_wins} of {}", played.len());
    println!(
        "{} scores {:.1}% (95% interval {:.1}% to {:.1}%), Elo difference {:+.0} ({:+.0} to {:+.0})",
        cfg.a_name,
        100.0 * p,
        100.0 * lo,
        100.0 * hi,
        elo(p),
        elo(lo),
        elo(hi)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_parse() {
        assert_eq!(
            PlayerSpec::parse("level 6").unwrap(),
            PlayerSpec::Internal {
                level: Some(6),
                limits: Limits::default(),
                threads: 1,
                weights: Weights::default(),
            }
        );
        let PlayerSpec::Internal {
            limits, threads, ..
        } = PlayerSpec::parse("time 200 threads 2").unwrap()
        else {
            panic!("internal expected")
        };
        assert_eq!((limits.time_ms, threads), (Some(200), 2));
        let PlayerSpec::Internal { weights, .. } =
            PlayerSpec::parse("depth 3 tempo -5 mobility 90").unwrap()
        else {
            panic!("internal expected")
        };
        assert_eq!((weights.tempo, weights.mobility), (-5, 90));
        assert_eq!(weights.movable, Weights::default().movable);
        assert_eq!(
            PlayerSpec::parse("cmd:./x --y").unwrap(),
            PlayerSpec::External {
                command: "./x --y".into()
            }
        );
        for bad in [
            "",
            "level",
            "level 9",
            "level x",
            "speed 3",
            "cmd:",
            "threads 2",
        ] {
            assert!(PlayerSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
