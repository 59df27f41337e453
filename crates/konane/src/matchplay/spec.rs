//! Players as written on the command line: `level 6`, `time 200 threads 2`, `cmd:<program>`.

use anyhow::{Result, anyhow, bail};
use konane_engine::{Limits, Weights};

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
