//! The `konane` command: play, analyse and serve Konane.

mod accuracy;
mod analyze;
mod args;
mod bars;
mod cli;
mod completions;
mod engine;
mod lines;
mod loadtest;
mod matchplay;
mod moves;
mod openings;
mod perft;
mod play;
mod puzzles;
mod serve;
mod show;
mod solve;
mod stats;
mod tune;

use std::process::ExitCode;

use clap::Parser;

/// Exit codes: 0 success, 1 an error (printed on stderr), 2 a usage error (clap's), and a
/// match's sequential test says its verdict (docs/cli.md).
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
