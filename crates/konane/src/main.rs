//! The `konane` command: play, analyse and serve Konane.

mod accuracy;
mod analyze;
mod bars;
mod cli;
mod engine;
mod lines;
mod loadtest;
mod matchplay;
mod openings;
mod perft;
mod play;
mod puzzles;
mod show;
mod solve;
mod stats;
mod tune;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
