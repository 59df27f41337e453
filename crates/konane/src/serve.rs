//! `konane serve`: the web site, the API and the engine. Every flag can also come from an
//! environment variable `KONANE_<FLAG>`, so a container or a systemd unit configures the
//! server without a command line; a flag given on the command line wins.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;

use crate::args::{millis, positive_seconds, seconds, whole_millis};

/// Where and how to serve.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, env = "KONANE_BIND", default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "KONANE_PORT", default_value_t = 8080)]
    port: u16,
    /// Folder for the SQLite database `konane.db` (ignored with --database).
    #[arg(long, env = "KONANE_DATA_DIR", default_value = ".")]
    data_dir: PathBuf,
    /// A database URL: postgres://user:password@host/db (or sqlite://FILE); without it,
    /// DATABASE_URL is read too.
    #[arg(long, env = "KONANE_DATABASE", hide_env_values = true)]
    database: Option<String>,
    /// Connections to the database (default: 8 for SQLite, 16 for PostgreSQL).
    #[arg(long, env = "KONANE_DATABASE_CONNECTIONS",
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    database_connections: Option<u32>,
    /// Engine searches running at once (default: the number of cores); 0 runs none, and
    /// the players' browsers play the computer.
    #[arg(long, env = "KONANE_ENGINE_THREADS")]
    engine_threads: Option<usize>,
    /// Requests per second allowed from one address (0: no limit).
    #[arg(long, env = "KONANE_RATE_LIMIT", default_value_t = 50)]
    rate_limit: u32,
    /// Open connections, WebSockets included, allowed from one address (0: no limit).
    #[arg(long, env = "KONANE_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 64)]
    max_connections_per_address: u32,
    /// Open WebSockets allowed from one address (0: no limit).
    #[arg(long, env = "KONANE_MAX_SOCKETS_PER_ADDRESS", default_value_t = 32)]
    max_sockets_per_address: u32,
    /// Open connections in all; more get 503 (0: no limit).
    #[arg(long, env = "KONANE_MAX_CONNECTIONS", default_value_t = 10_000)]
    max_connections: u32,
    /// How long a request's headers may take; also how long an idle connection stays open
    /// (a bare number counts seconds).
    #[arg(long, env = "KONANE_HEADER_TIMEOUT", default_value = "10s",
          value_parser = positive_seconds)]
    header_timeout: Duration,
    /// How long a request's body may take (a bare number counts seconds).
    #[arg(long, env = "KONANE_BODY_TIMEOUT", default_value = "10s",
          value_parser = positive_seconds)]
    body_timeout: Duration,
    /// Time between pings of a WebSocket; one silent for two pings is closed (a bare
    /// number counts seconds).
    #[arg(long, env = "KONANE_PING_INTERVAL", default_value = "30s",
          value_parser = positive_seconds)]
    ping_interval: Duration,
    /// Take the client's address from X-Forwarded-For: only behind a reverse proxy that
    /// sets it (docs/deploy.md).
    #[arg(long, env = "KONANE_TRUST_PROXY")]
    trust_proxy: bool,
    /// Serve Prometheus metrics at http://ADDR/metrics, e.g. 127.0.0.1:9100.
    #[arg(long, env = "KONANE_METRICS_BIND")]
    metrics_bind: Option<String>,
    /// Pause between the moves of the engine playing itself, so watchers can follow (a
    /// bare number counts milliseconds).
    #[arg(long, alias = "self-play-pace-ms", env = "KONANE_SELF_PLAY_PACE",
          default_value = "1s", value_parser = millis)]
    self_play_pace: Duration,
    /// Abort a game whose players have not both moved after this long idle (a bare number
    /// counts seconds).
    #[arg(long, alias = "abort-after-secs", env = "KONANE_ABORT_AFTER",
          default_value = "10m", value_parser = seconds)]
    abort_after: Duration,
    /// A player who left a timed game on their turn may lose on a claim after this long
    /// away (a bare number counts seconds).
    #[arg(long, alias = "claim-after-secs", env = "KONANE_CLAIM_AFTER",
          default_value = "30s", value_parser = seconds)]
    claim_after: Duration,
    /// The site's own tournaments: a JSON schedule file (docs/tournaments.md); without it,
    /// an hourly 3+2 arena, a daily 6+0 arena and a weekly 10+5 Swiss.
    #[arg(long, env = "KONANE_SCHEDULE")]
    schedule: Option<PathBuf>,
    /// Pause between the last game of a tournament round and the next round (a bare
    /// number counts seconds).
    #[arg(long, env = "KONANE_ROUND_PAUSE", default_value = "20s", value_parser = seconds)]
    round_pause: Duration,
}

impl Args {
    fn limits(&self) -> konane_server::net::caps::Limits {
        konane_server::net::caps::Limits {
            header_timeout: self.header_timeout,
            body_timeout: self.body_timeout,
            ping_interval: self.ping_interval,
            connections_per_address: self.max_connections_per_address,
            sockets_per_address: self.max_sockets_per_address,
            max_connections: self.max_connections,
            trust_proxy: self.trust_proxy,
        }
    }

    /// The database to open: `--database` (or `KONANE_DATABASE`), then `DATABASE_URL`, then
    /// `konane.db` in the data folder.
    fn database_url(&self) -> String {
        let from_env = || std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty());
        match self.database.clone().or_else(from_env) {
            Some(url) => url,
            None => format!("sqlite://{}", self.data_dir.join("konane.db").display()),
        }
    }
}

impl Default for Args {
    /// The flags' defaults (and the environment's settings), as `konane serve` alone gets them.
    fn default() -> Self {
        #[derive(Parser)]
        struct Alone {
            #[command(flatten)]
            args: Args,
        }
        Alone::parse_from(["konane"]).args
    }
}

/// Serves until the process is stopped.
pub fn run(args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let limits = args.limits();
    let schedule = match &args.schedule {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the schedule {}", path.display()))?;
            konane_server::Schedule::from_json(&text)
                .with_context(|| format!("the schedule {}", path.display()))?
        }
        None => konane_server::Schedule::site_default(),
    };
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    konane_server::run_blocking(konane_server::ServerConfig {
        database_url: args.database_url(),
        bind: args.bind,
        port: args.port,
        database_connections: args.database_connections,
        engine_threads: args
            .engine_threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        rate_limit: args.rate_limit,
        timing: konane_server::Timing {
            abort_after_ms: ms(args.abort_after),
            claim_after_ms: ms(args.claim_after),
            self_play_pace_ms: whole_millis(args.self_play_pace),
            round_pause_ms: ms(args.round_pause),
            ..konane_server::Timing::default()
        },
        schedule,
        limits,
        metrics_bind: args.metrics_bind,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn old_spellings_keep_their_units() {
        let old = Serve::try_parse_from([
            "konane",
            "--header-timeout",
            "12",
            "--abort-after-secs",
            "90",
            "--claim-after-secs",
            "5",
            "--self-play-pace-ms",
            "250",
        ])
        .expect("the old spellings parse")
        .args;
        assert_eq!(old.header_timeout, Duration::from_secs(12));
        assert_eq!(old.abort_after, Duration::from_secs(90));
        assert_eq!(old.claim_after, Duration::from_secs(5));
        assert_eq!(old.self_play_pace, Duration::from_millis(250));
        let new =
            Serve::try_parse_from(["konane", "--abort-after", "2m", "--ping-interval", "1.5s"])
                .expect("durations parse")
                .args;
        assert_eq!(new.abort_after, Duration::from_secs(120));
        assert_eq!(new.ping_interval, Duration::from_millis(1500));
        assert!(Serve::try_parse_from(["konane", "--body-timeout", "0"]).is_err());
    }

    #[test]
    fn every_flag_has_its_environment_variable() {
        let cmd = <Serve as clap::CommandFactory>::command();
        for arg in cmd.get_arguments().filter(|a| a.get_long().is_some()) {
            let long = arg.get_long().unwrap_or_default();
            let want = format!("KONANE_{}", long.replace('-', "_").to_ascii_uppercase());
            assert_eq!(
                arg.get_env().and_then(|e| e.to_str()),
                Some(want.as_str()),
                "--{long}"
            );
        }
    }
}
