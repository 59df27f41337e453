//! The command line: arguments and the dispatch to each subcommand.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use konane_core::{AnyPosition, Opening, Size};

/// Konane, the Hawaiian jump-capture game: rules, engine and server.
#[derive(Parser, Debug)]
#[command(name = "konane", version, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move sequences of a given length (checks and measures the move generator).
    Perft {
        /// Board size, rows x columns.
        #[arg(long, default_value = "8x8")]
        size: Size,
        /// Plies to look ahead.
        #[arg(long)]
        depth: u32,
        /// Opening rule: center-or-corner or center.
        #[arg(long, default_value = "center-or-corner")]
        opening: Opening,
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
        /// Opening rule: center-or-corner or center.
        #[arg(long, default_value = "center-or-corner")]
        opening: Opening,
        /// Solve this position instead of the openings (overrides --size).
        #[arg(long)]
        position: Option<String>,
        /// Threads to use (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Size of the table of proven positions, in MiB.
        #[arg(long, default_value_t = 1024)]
        table_mb: usize,
    },
    /// List the legal moves of a position, one per line.
    Moves {
        /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
        position: String,
        /// Opening rule: center-or-corner or center.
        #[arg(long, default_value = "center-or-corner")]
        opening: Opening,
    },
    /// Draw a position in the terminal.
    Show {
        /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
        position: String,
        /// Opening rule: center-or-corner or center.
        #[arg(long, default_value = "center-or-corner")]
        opening: Opening,
    },
}

/// Reads position text given on the command line.
pub fn parse_position(text: &str, opening: Opening) -> Result<AnyPosition> {
    AnyPosition::parse(text, opening).with_context(|| format!("bad position \"{text}\""))
}

/// The legal moves in notation, sorted as plain strings (the order of the conformance games).
pub fn sorted_moves(pos: &AnyPosition) -> Vec<String> {
    let mut moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .collect();
    moves.sort();
    moves
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
    match cli.command {
        Command::Perft {
            size,
            depth,
            opening,
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
            opening,
            position,
            threads,
            table_mb,
        } => {
            let pos = match position {
                Some(text) => parse_position(&text, opening)?,
                None => AnyPosition::start(size, opening),
            };
            crate::solve::run(&pos, thread_count(threads)?, table_mb)
        }
        Command::Moves { position, opening } => {
            let pos = parse_position(&position, opening)?;
            for m in sorted_moves(&pos) {
                println!("{m}");
            }
            Ok(())
        }
        Command::Show { position, opening } => {
            let pos = parse_position(&position, opening)?;
            print!("{}", crate::show::diagram(&pos));
            Ok(())
        }
    }
}
