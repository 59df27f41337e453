//! The command line: arguments and the dispatch to each subcommand.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use konane_core::{AnyPosition, Color, Opening, Size};
use konane_engine::{EngineConfig, Limits};

use crate::matchplay::{MatchConfig, Openings, PlayerSpec};
use crate::stats::Sprt;
use crate::tune::TuneConfig;

/// Konane, the Hawaiian jump-capture game: rules, engine and server.
#[derive(Parser, Debug)]
#[command(name = "konane", version)]
pub struct Cli {
    /// What to do; with none, `serve` with its defaults.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the web site: the page, the API and the engine (the default).
    Serve(ServeArgs),
    /// Count the move sequences of a given length (checks and measures the move generator).
    Perft {
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        /// Plies to look ahead.
        #[arg(long)]
        depth: u32,
        #[command(flatten)]
        rule: RuleArg,
        /// Start from this position text instead of the start position (overrides --size).
        #[arg(long)]
        position: Option<String>,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Threads to use (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Prove who wins each opening (or a given position) with perfect play.
    Solve {
        /// Board size, rows x columns.
        #[arg(long, default_value = "6x6")]
        size: Size,
        #[command(flatten)]
        rule: RuleArg,
        /// Solve this position instead of the openings (overrides --size).
        #[arg(long)]
        position: Option<String>,
        /// Threads to use (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Size of the table of proven positions in MiB.
        #[arg(long, default_value_t = 1024, value_parser = parse_mib)]
        table_mb: usize,
        /// Keep finished positions in this file and skip them when run again.
        #[arg(long)]
        resume: Option<std::path::PathBuf>,
        /// Keep the table's expensive proofs in this file, load them when run again.
        #[arg(long)]
        checkpoint: Option<std::path::PathBuf>,
        /// Prove every result a second time on a fresh table.
        #[arg(long)]
        recheck: bool,
        /// Keep the re-check's own expensive proofs in this file (never the first run's
        /// checkpoint), load them when run again.
        #[arg(long, requires = "recheck")]
        recheck_checkpoint: Option<std::path::PathBuf>,
        /// Measure instead: solve the whole opening table of each of these boards, both
        /// rules, and print nodes, time and speed.
        #[arg(long, value_delimiter = ',', num_args = 0.., default_missing_value = "5x6,6x6,5x7")]
        bench: Option<Vec<Size>>,
    },
    /// Find the best move of a position, with its score and expected line.
    Analyze {
        /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
        position: String,
        #[command(flatten)]
        rule: RuleArg,
        /// Thinking time, e.g. 2s or 500ms (default 2s unless --depth or --nodes is given).
        #[arg(long, value_parser = parse_millis)]
        time: Option<u64>,
        /// Search this many plies deep.
        #[arg(long)]
        depth: Option<u32>,
        /// Search at most this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Speak the engine protocol on stdin and stdout (docs/engine-protocol.md).
    Engine {
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Play many games between two engines and report who is stronger.
    Match {
        /// The first player: "level 6", "time 200 threads 2", "depth 5" or "cmd:<program>".
        #[arg(long)]
        black: String,
        /// The second player, written the same way.
        #[arg(long)]
        white: String,
        /// Games to play, an even number: each opening twice, colours swapped (with --sprt,
        /// the most to play).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        #[command(flatten)]
        rule: RuleArg,
        /// Random plies that start each pair of games.
        #[arg(long, default_value_t = 4)]
        random_plies: usize,
        /// Start the pairs from this opening suite instead (docs/openings/), in turn.
        #[arg(long, conflicts_with = "random_plies")]
        openings: Option<std::path::PathBuf>,
        /// Stop when a sequential test decides, e.g. elo0=0,elo1=5[,alpha=0.05,beta=0.05].
        #[arg(long)]
        sprt: Option<Sprt>,
        /// Pairs played at once (default: cores divided by the threads per player).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Seed of the random openings and of the levels' choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// What external engines are told after `go`.
        #[arg(long, default_value = "time 200")]
        go: String,
        /// Write every game's record to this file.
        #[arg(long)]
        records: Option<std::path::PathBuf>,
    },
    /// Make an opening suite for `match --openings`: random openings scored near even.
    Openings {
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        #[command(flatten)]
        rule: RuleArg,
        /// Openings to make.
        #[arg(long, default_value_t = 50)]
        count: usize,
        /// Random plies from the start in each (the two removals and then jumps).
        #[arg(long, default_value_t = 6)]
        plies: usize,
        /// Depth of the search that judges each opening.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// The largest score for either side, in hundredths of a move.
        #[arg(long, default_value_t = 50)]
        threshold: i32,
        /// An opening the solver proves within this many nodes is refused.
        #[arg(long, default_value_t = 1_000_000)]
        solver_nodes: u64,
        /// Candidates to draw at most.
        #[arg(long, default_value_t = 2_000)]
        tries: usize,
        /// Seed of the random plies.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Tune the evaluation weights by self-play (docs/strength.md).
    Tune {
        /// Search depth of both sides.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Games per trial at most (each trial is a sequential test).
        #[arg(long, default_value_t = 400)]
        games: usize,
        /// Rounds over all the weights.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        /// Start the pairs from this opening suite (default: six random plies a pair).
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// The test a change must pass to be kept.
        #[arg(long, default_value = "elo0=0,elo1=10")]
        sprt: Sprt,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Play many concurrent games against a running server and measure it.
    Loadtest {
        /// A server, e.g. http://127.0.0.1:8080 (start it with --rate-limit 0); several
        /// instances sharing a database: give --url for each.
        #[arg(long = "url", required = true)]
        urls: Vec<String>,
        /// Concurrent games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Moves per game at most.
        #[arg(long, default_value_t = 20)]
        moves: usize,
        /// The (first) server's process id, to report its memory per open game.
        #[arg(long)]
        server_pid: Option<u32>,
        /// Milliseconds each player thinks before moving (0: as fast as possible).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
    },
    /// Play against the engine in the terminal.
    Play {
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        #[command(flatten)]
        rule: RuleArg,
        /// Your colour: black or white.
        #[arg(long, default_value = "black", value_parser = parse_color)]
        color: Color,
        /// The engine's level, 1 (beginner) to 8 (full strength).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=8))]
        level: u8,
        /// Seed of the engine's choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Mine proven puzzles, or prove a puzzle set again (docs/puzzles.md).
    Puzzles(crate::puzzles::PuzzlesArgs),
    /// How often the engine keeps a proven win: label positions, or measure (docs/strength.md).
    Accuracy(crate::accuracy::AccuracyArgs),
    /// Prove the engine's main lines of a board from their end back, as far as the solver
    /// reaches (docs/solved.md).
    Lines(crate::lines::LinesArgs),
    /// List the legal moves of a position, one per line.
    Moves {
        /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
        position: String,
        #[command(flatten)]
        rule: RuleArg,
    },
    /// Draw a position in the terminal.
    Show {
        /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
        position: String,
        #[command(flatten)]
        rule: RuleArg,
    },
}

/// The opening rule, shared by every subcommand that sets up a board.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct RuleArg {
    /// Opening rule: center-or-corner or center.
    #[arg(long = "opening", default_value = "center-or-corner")]
    pub(crate) opening: Opening,
}

/// Where and how to serve.
#[derive(clap::Args, Debug, Clone)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Folder for the SQLite database `konane.db` (ignored with --database).
    #[arg(long, default_value = ".")]
    data_dir: std::path::PathBuf,
    /// A database URL: postgres://user:password@host/db (or sqlite://FILE).
    #[arg(long, env = "DATABASE_URL")]
    database: Option<String>,
    /// Connections to the database (default: 8 for SQLite, 16 for PostgreSQL).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    database_connections: Option<u32>,
    /// Engine searches running at once (default: the number of cores); 0 runs none, and
    /// the players' browsers play the computer.
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Requests per second allowed from one address (0: no limit).
    #[arg(long, default_value_t = 50)]
    rate_limit: u32,
    /// Open connections, WebSockets included, allowed from one address (0: no limit).
    #[arg(long, default_value_t = 64)]
    max_connections_per_address: u32,
    /// Open WebSockets allowed from one address (0: no limit).
    #[arg(long, default_value_t = 32)]
    max_sockets_per_address: u32,
    /// Open connections in all; more get 503 (0: no limit).
    #[arg(long, default_value_t = 10_000)]
    max_connections: u32,
    /// Seconds a request's headers may take; also how long an idle connection stays open.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: u64,
    /// Seconds a request's body may take.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    body_timeout: u64,
    /// Seconds between pings of a WebSocket; one silent for two pings is closed.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    ping_interval: u64,
    /// Take the client's address from X-Forwarded-For: only behind a reverse proxy that
    /// sets it (docs/deploy.md).
    #[arg(long)]
    trust_proxy: bool,
    /// Serve Prometheus metrics at http://ADDR/metrics, e.g. 127.0.0.1:9100.
    #[arg(long)]
    metrics_bind: Option<String>,
    /// Pause between the moves of the engine playing itself, so watchers can follow (ms).
    #[arg(long, default_value_t = 1000)]
    self_play_pace_ms: u64,
    /// Abort a game whose players have not both moved after this many seconds idle.
    #[arg(long, default_value_t = 600)]
    abort_after_secs: u32,
    /// A player who left a timed game on their turn may lose on a claim after this many
    /// seconds away.
    #[arg(long, default_value_t = 30)]
    claim_after_secs: u32,
}

impl ServeArgs {
    fn limits(&self) -> konane_server::net::caps::Limits {
        konane_server::net::caps::Limits {
            header_timeout: Duration::from_secs(self.header_timeout),
            body_timeout: Duration::from_secs(self.body_timeout),
            ping_interval: Duration::from_secs(self.ping_interval),
            connections_per_address: self.max_connections_per_address,
            sockets_per_address: self.max_sockets_per_address,
            max_connections: self.max_connections,
            trust_proxy: self.trust_proxy,
        }
    }
}

impl Default for ServeArgs {
    /// The flags' defaults, as `konane serve` alone gets them.
    fn default() -> Self {
        #[derive(Parser)]
        struct Alone {
            #[command(flatten)]
            args: ServeArgs,
        }
        Alone::parse_from(["konane"]).args
    }
}

fn serve(args: ServeArgs) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let limits = args.limits();
    let database_url = match args.database {
        Some(url) => url,
        None => format!("sqlite://{}", args.data_dir.join("konane.db").display()),
    };
    konane_server::run_blocking(konane_server::ServerConfig {
        bind: args.bind,
        port: args.port,
        database_url,
        database_connections: args.database_connections,
        engine_threads: args
            .engine_threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        rate_limit: args.rate_limit,
        timing: konane_server::Timing {
            abort_after_ms: i64::from(args.abort_after_secs) * 1000,
            claim_after_ms: i64::from(args.claim_after_secs) * 1000,
            self_play_pace_ms: args.self_play_pace_ms,
            ..konane_server::Timing::default()
        },
        limits,
        metrics_bind: args.metrics_bind,
    })?;
    Ok(())
}

/// How much engine to build.
#[derive(clap::Args, Debug, Clone, Copy)]
struct EngineArgs {
    /// Search threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, value_parser = parse_mib)]
    hash_mb: usize,
}

impl EngineArgs {
    fn config(self) -> Result<EngineConfig> {
        Ok(EngineConfig {
            hash_mb: self.hash_mb,
            proof_mb: self.hash_mb,
            threads: thread_count(self.threads)?,
            ..EngineConfig::default()
        })
    }
}

/// Reads a duration as milliseconds: `2s`, `1.5s`, `500ms`, `1m`; a bare number is seconds.
fn parse_millis(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (t, 1000.0)
    };
    match number.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok((x * scale).round().max(1.0) as u64),
        _ => Err(format!("'{text}' is not a duration: write 2s, 500ms or 1m")),
    }
}

/// The most memory a table may be given, in MiB (1 TiB): more is a typo, and its size in
/// bytes would not fit a word.
const MAX_MIB: usize = 1 << 20;

/// Reads a table's size: a whole number of MiB from 1 to [`MAX_MIB`].
pub(crate) fn parse_mib(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(mb @ 1..=MAX_MIB) => Ok(mb),
        _ => Err(format!(
            "'{text}' is not a table size: a whole number of MiB from 1 to {MAX_MIB}"
        )),
    }
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(format!("'{text}' is not a colour: black or white")),
    }
}

/// Reads position text given on the command line.
pub fn parse_position(text: &str, opening: Opening) -> Result<AnyPosition> {
    AnyPosition::parse(text, opening).with_context(|| format!("bad position \"{text}\""))
}

/// The suite in `file`, or random openings of `random_plies`.
fn openings_from(
    file: Option<&std::path::Path>,
    random_plies: usize,
    size: Size,
    rule: Opening,
) -> Result<Openings> {
    match file {
        Some(path) => Openings::load(path, size, rule),
        None => Ok(Openings::Random {
            plies: random_plies,
        }),
    }
}

/// The `--threads` value, or every core.
fn thread_count(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs one subcommand.
pub fn run(cli: Cli) -> Result<()> {
    match cli
        .command
        .unwrap_or_else(|| Command::Serve(ServeArgs::default()))
    {
        Command::Serve(args) => serve(args),
        Command::Perft {
            size,
            depth,
            rule: RuleArg { opening },
            position,
            divide,
            threads,
        } => {
            let pos = match position {
                Some(text) => parse_position(&text, opening)?,
                None => AnyPosition::start(size, opening),
            };
            crate::perft::run(&pos, depth, divide, thread_count(threads)?)
        }
        Command::Solve {
            size,
            rule: RuleArg { opening },
            position,
            threads,
            table_mb,
            resume,
            checkpoint,
            recheck,
            recheck_checkpoint,
            bench,
        } => {
            if let Some(sizes) = bench {
                return crate::solve::bench(&sizes, thread_count(threads)?, table_mb);
            }
            let pos = match position {
                Some(text) => parse_position(&text, opening)?,
                None => AnyPosition::start(size, opening),
            };
            let files = crate::solve::RunFiles {
                resume,
                checkpoint,
                recheck,
                recheck_checkpoint,
            };
            crate::solve::run(&pos, thread_count(threads)?, table_mb, &files)
        }
        Command::Analyze {
            position,
            rule: RuleArg { opening },
            time,
            depth,
            nodes,
            engine,
        } => {
            let pos = parse_position(&position, opening)?;
            let mut limits = Limits {
                depth,
                nodes,
                time_ms: time,
            };
            if limits == Limits::default() {
                limits.time_ms = Some(2_000);
            }
            crate::analyze::run(&pos, limits, engine.config()?)
        }
        Command::Engine { engine } => crate::engine::run(engine.config()?),
        Command::Match {
            black,
            white,
            games,
            size,
            rule: RuleArg { opening },
            random_plies,
            openings,
            sprt,
            concurrency,
            seed,
            go,
            records,
        } => {
            let a = PlayerSpec::parse(&black)?;
            let b = PlayerSpec::parse(&white)?;
            let cores = thread_count(None)?;
            let per_game = a.threads().max(b.threads());
            let cfg = MatchConfig {
                a,
                a_name: black,
                b,
                b_name: white,
                games,
                size,
                opening,
                openings: openings_from(openings.as_deref(), random_plies, size, opening)?,
                sprt,
                concurrency: concurrency.unwrap_or((cores / per_game).max(1)),
                seed,
                go,
                records,
            };
            crate::matchplay::run(&cfg)
        }
        Command::Openings {
            size,
            rule: RuleArg { opening },
            count,
            plies,
            depth,
            threshold,
            solver_nodes,
            tries,
            seed,
        } => {
            let command_line = std::env::args()
                .skip(1)
                .map(|a| {
                    if a.contains(' ') {
                        format!("\"{a}\"")
                    } else {
                        a
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            crate::openings::run(
                &crate::openings::SuiteConfig {
                    size,
                    rule: opening,
                    count,
                    plies,
                    depth,
                    threshold,
                    solver_nodes,
                    tries,
                    seed,
                },
                &format!("konane {command_line}"),
            )
        }
        Command::Tune {
            depth,
            games,
            rounds,
            size,
            openings,
            sprt,
            seed,
        } => crate::tune::run(&TuneConfig {
            depth,
            games,
            rounds,
            size,
            openings: openings_from(openings.as_deref(), 6, size, Opening::CenterOrCorner)?,
            sprt,
            concurrency: thread_count(None)?,
            seed,
        }),
        Command::Loadtest {
            urls,
            games,
            moves,
            server_pid,
            think_ms,
        } => crate::loadtest::run(&crate::loadtest::LoadConfig {
            urls,
            games,
            moves,
            server_pid,
            think_ms,
        }),
        Command::Play {
            size,
            rule: RuleArg { opening },
            color,
            level,
            seed,
        } => crate::play::run(size, opening, color, level, seed),
        Command::Puzzles(args) => crate::puzzles::run(args),
        Command::Accuracy(args) => crate::accuracy::run(args),
        Command::Lines(args) => {
            let threads = thread_count(args.threads)?;
            crate::lines::run(args, threads)
        }
        Command::Moves {
            position,
            rule: RuleArg { opening },
        } => {
            let pos = parse_position(&position, opening)?;
            for m in pos.legal_move_texts() {
                println!("{m}");
            }
            Ok(())
        }
        Command::Show {
            position,
            rule: RuleArg { opening },
        } => {
            let pos = parse_position(&position, opening)?;
            print!("{}", crate::show::diagram(&pos));
            Ok(())
        }
    }
}
