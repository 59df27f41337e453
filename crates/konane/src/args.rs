//! The flags several subcommands share (the opening rule, the engine's threads and table),
//! and the parsers of values: durations, sizes in MiB, listed values, positions.

use std::ffi::OsStr;
use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use konane_core::{AnyPosition, Color, Opening};
use konane_engine::{EngineConfig, MAX_LEVEL, MIN_LEVEL};

/// The opening rule, shared by every subcommand that sets up a board.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct RuleArg {
    /// Opening rule.
    #[arg(long = "opening", default_value = "center-or-corner", value_parser = opening_parser())]
    pub(crate) opening: Opening,
}

/// How much engine to build.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct EngineArgs {
    /// Search threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Transposition table size in MiB.
    #[arg(long, alias = "hash-mb", default_value_t = 256, value_parser = parse_mib)]
    hash_mib: usize,
}

impl EngineArgs {
    /// The engine these flags ask for.
    pub(crate) fn config(self) -> Result<EngineConfig> {
        Ok(EngineConfig {
            hash_mb: self.hash_mib,
            proof_mb: self.hash_mib,
            threads: thread_count(self.threads)?,
            ..EngineConfig::default()
        })
    }
}

/// A parser that also shows, in `--help` and in completions, the values it takes; the
/// inner parser still decides, so older spellings it accepts keep working.
#[derive(Clone)]
pub(crate) struct Listed<P> {
    inner: P,
    values: Vec<PossibleValue>,
}

impl<P: TypedValueParser> TypedValueParser for Listed<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().cloned()))
    }
}

/// `--opening`: the rules' names, in any case.
fn opening_parser() -> Listed<impl TypedValueParser<Value = Opening>> {
    Listed {
        inner: StringValueParser::new().try_map(|text| text.parse::<Opening>()),
        values: Opening::ALL
            .into_iter()
            .map(|o| PossibleValue::new(o.name()))
            .collect(),
    }
}

/// `--color`: black or white, in any case, or their letters b and w.
pub(crate) fn color_parser() -> Listed<impl TypedValueParser<Value = Color>> {
    Listed {
        inner: StringValueParser::new().try_map(|text| parse_color(&text)),
        values: [Color::Black, Color::White]
            .into_iter()
            .map(|c| PossibleValue::new(c.name()).alias(c.letter().to_string()))
            .collect(),
    }
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(format!("'{text}' is not a colour: black or white")),
    }
}

/// `--level`: the engine's levels, weakest first.
pub(crate) fn level_parser() -> Listed<impl TypedValueParser<Value = u8>> {
    Listed {
        inner: clap::value_parser!(u8).range(i64::from(MIN_LEVEL)..=i64::from(MAX_LEVEL)),
        values: (MIN_LEVEL..=MAX_LEVEL)
            .map(|n| PossibleValue::new(n.to_string()))
            .collect(),
    }
}

/// Reads a duration the way `humantime` writes them (`1s`, `500ms`, `1.5s`, `10m`,
/// `1h 30m`); a bare number is a count of `bare`, the unit of the flag's older spelling.
fn parse_duration(text: &str, bare: Duration) -> Result<Duration, String> {
    let t = text.trim();
    let bad = || format!("'{text}' is not a duration: write 2s, 500ms or 1m");
    match humantime::parse_duration(t) {
        Ok(d) => Ok(d),
        Err(_) => match t.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => {
                Duration::try_from_secs_f64(x * bare.as_secs_f64()).map_err(|_| bad())
            }
            _ => Err(bad()),
        },
    }
}

/// A duration whose bare number counts seconds.
pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    parse_duration(text, Duration::from_secs(1))
}

/// A duration above zero whose bare number counts seconds.
pub(crate) fn positive_seconds(text: &str) -> Result<Duration, String> {
    match seconds(text)? {
        Duration::ZERO => Err(format!("'{text}': the duration must be above zero")),
        d => Ok(d),
    }
}

/// A duration whose bare number counts milliseconds.
pub(crate) fn millis(text: &str) -> Result<Duration, String> {
    parse_duration(text, Duration::from_millis(1))
}

/// A duration in whole milliseconds, for the parts of the program that count them.
pub(crate) fn whole_millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
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

/// Reads position text given on the command line.
pub fn parse_position(text: &str, opening: Opening) -> Result<AnyPosition> {
    AnyPosition::parse(text, opening).with_context(|| format!("bad position \"{text}\""))
}

/// The `--position` text, or the start position of `size`.
pub(crate) fn position_or_start(
    text: Option<&str>,
    size: konane_core::Size,
    opening: Opening,
) -> Result<AnyPosition> {
    match text {
        Some(text) => parse_position(text, opening),
        None => Ok(AnyPosition::start(size, opening)),
    }
}

/// The `--threads` value, or every core.
pub(crate) fn thread_count(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Prints `value` as one JSON document on stdout, the whole output of a `--json` run.
pub(crate) fn print_json(value: &impl serde::Serialize) -> Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_humantime_and_the_old_bare_numbers() {
        assert_eq!(seconds("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(seconds("10"), Ok(Duration::from_secs(10)));
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(seconds("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(seconds(" 500ms "), Ok(Duration::from_millis(500)));
        assert_eq!(millis("500"), Ok(Duration::from_millis(500)));
        assert_eq!(millis("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(millis("0"), Ok(Duration::ZERO));
        assert!(positive_seconds("0").is_err());
        assert!(positive_seconds("0s").is_err());
        for bad in ["", "x", "-1", "10 parsecs", "inf", "NaN"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn listed_parsers_show_their_values() {
        let names = |values: &[PossibleValue]| -> Vec<String> {
            values.iter().map(|v| v.get_name().to_string()).collect()
        };
        assert_eq!(
            names(&opening_parser().values),
            ["center-or-corner", "center"]
        );
        assert_eq!(names(&color_parser().values), ["black", "white"]);
        assert_eq!(
            names(&level_parser().values),
            ["1", "2", "3", "4", "5", "6", "7", "8"]
        );
        assert_eq!(parse_color("W"), Ok(Color::White));
        assert_eq!(parse_color("b"), Ok(Color::Black));
        assert!(parse_color("red").is_err());
    }
}
