//! The flags of `konane loadtest`.

use std::time::Duration;

/// Most players an arena load drives.
pub(super) const MAX_PLAYERS: usize = 1000;

/// The settings of a load test.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A server, e.g. http://127.0.0.1:8080 (start it with --rate-limit 0); several
    /// instances sharing a database: give --url for each. Games are spread over them.
    #[arg(long = "url", required = true)]
    pub(super) urls: Vec<String>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    pub(super) games: usize,
    /// Moves per game at most (games also stop when they end); in an arena, each player's
    /// moves per game, after which it resigns.
    #[arg(long, default_value_t = 20)]
    pub(super) moves: usize,
    /// The (first) server's process id, to report its memory per open game.
    #[arg(long, conflicts_with = "arena")]
    pub(super) server_pid: Option<u32>,
    /// How long each player thinks before moving, e.g. 1s or 200ms (0: as fast as the
    /// server answers; a bare number counts milliseconds).
    #[arg(long, alias = "think-ms", default_value = "1s", value_parser = crate::args::millis)]
    pub(super) think: Duration,
    /// Players in one arena (even, 2 to 1000) instead of local games: they register, join,
    /// are paired by the server and play, each from its own loopback address.
    #[arg(long, conflicts_with = "games")]
    pub(super) arena: Option<usize>,
    /// The arena's length on the server, in minutes (10 to 720); the load stops earlier,
    /// after --duration.
    #[arg(long, default_value_t = 10, requires = "arena")]
    pub(super) minutes: u32,
    /// How long the arena load runs, e.g. 60s (a bare number counts seconds).
    #[arg(long, default_value = "60s", value_parser = crate::args::positive_seconds, requires = "arena")]
    pub(super) duration: Duration,
    /// Before the arena, run the same load without it for as long: half as many local
    /// games as players, twice --moves each, one after another; print the two p99s' ratio.
    #[arg(long, requires = "arena")]
    pub(super) baseline: bool,
    /// Print the arena's figures as one JSON document (docs/cli.md).
    #[arg(long, requires = "arena")]
    pub(super) json: bool,
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

    fn parse(flags: &[&str]) -> Result<Args, clap::Error> {
        let mut argv = vec!["konane", "--url", "http://127.0.0.1:8080"];
        argv.extend_from_slice(flags);
        Load::try_parse_from(argv).map(|l| l.args)
    }

    #[test]
    fn thinking_time_reads_durations_and_the_old_milliseconds() {
        let think = |flags: &[&str]| parse(flags).map(|a| a.think);
        assert_eq!(think(&[]).ok(), Some(Duration::from_secs(1)));
        assert_eq!(
            think(&["--think-ms", "500"]).ok(),
            Some(Duration::from_millis(500))
        );
        assert_eq!(think(&["--think", "2s"]).ok(), Some(Duration::from_secs(2)));
        assert_eq!(think(&["--think", "0"]).ok(), Some(Duration::ZERO));
        assert!(think(&["--think", "soon"]).is_err());
    }

    #[test]
    fn the_arena_flags_go_with_the_arena_only() {
        let arena = parse(&["--arena", "8", "--duration", "5s", "--baseline", "--json"]);
        let arena = arena.map_err(|e| e.to_string()).unwrap();
        assert_eq!(arena.arena, Some(8));
        assert_eq!(arena.duration, Duration::from_secs(5));
        assert!(arena.baseline && arena.json);
        assert!(parse(&["--baseline"]).is_err());
        assert!(parse(&["--json"]).is_err());
        assert!(parse(&["--arena", "8", "--games", "4"]).is_err());
        assert!(parse(&["--arena", "8", "--duration", "0"]).is_err());
    }
}
