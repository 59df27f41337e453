//! The command line: the subcommands and the dispatch, a line each. Each subcommand's own
//! flags live in its module, beside its `run`; the flags several share in `args`.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::{
    accuracy, analyze, completions, engine, lines, loadtest, matchplay, moves, openings, perft,
    play, puzzles, serve, show, solve, tune,
};

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
    Serve(serve::Args),
    /// Count the move sequences of a given length (checks and measures the move generator).
    Perft(perft::Args),
    /// Prove who wins each opening (or a given position) with perfect play.
    Solve(solve::Args),
    /// Find the best move of a position, with its score and expected line.
    Analyze(analyze::Args),
    /// Speak the engine protocol on stdin and stdout (docs/engine-protocol.md).
    Engine(engine::Args),
    /// Play many games between two engines and report who is stronger.
    Match(matchplay::Args),
    /// Make an opening suite for `match --openings`: random openings scored near even.
    Openings(openings::Args),
    /// Tune the evaluation weights by self-play (docs/strength.md).
    Tune(tune::Args),
    /// Play many concurrent games against a running server and measure it.
    Loadtest(loadtest::Args),
    /// Play against the engine in the terminal.
    Play(play::Args),
    /// Mine proven puzzles, or prove a puzzle set again (docs/puzzles.md).
    Puzzles(puzzles::Args),
    /// How often the engine keeps a proven win: label positions, or measure (docs/strength.md).
    Accuracy(accuracy::Args),
    /// Prove the engine's main lines of a board from their end back, as far as the solver
    /// reaches (docs/solved.md).
    Lines(lines::Args),
    /// List the legal moves of a position, one per line.
    Moves(moves::Args),
    /// Draw a position in the terminal.
    Show(show::Args),
    /// Print a shell completion script: bash, zsh or fish.
    Completions(completions::Args),
}

/// Runs one subcommand; the exit code is success unless the command says otherwise (a
/// match's sequential test, docs/cli.md).
pub fn run(cli: Cli) -> Result<ExitCode> {
    let done = |()| ExitCode::SUCCESS;
    match cli.command {
        None => serve::run(serve::Args::default()).map(done),
        Some(Command::Serve(args)) => serve::run(args).map(done),
        Some(Command::Perft(args)) => perft::run(args).map(done),
        Some(Command::Solve(args)) => solve::run(args).map(done),
        Some(Command::Analyze(args)) => analyze::run(args).map(done),
        Some(Command::Engine(args)) => engine::run(args).map(done),
        Some(Command::Match(args)) => matchplay::run(args),
        Some(Command::Openings(args)) => openings::run(args).map(done),
        Some(Command::Tune(args)) => tune::run(args).map(done),
        Some(Command::Loadtest(args)) => loadtest::run(args).map(done),
        Some(Command::Play(args)) => play::run(args).map(done),
        Some(Command::Puzzles(args)) => puzzles::run(args).map(done),
        Some(Command::Accuracy(args)) => accuracy::run(args).map(done),
        Some(Command::Lines(args)) => lines::run(args).map(done),
        Some(Command::Moves(args)) => moves::run(args).map(done),
        Some(Command::Show(args)) => show::run(args).map(done),
        Some(Command::Completions(args)) => completions::run(args, command()).map(done),
    }
}

/// The whole command line's definition, for the completion scripts.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        command().debug_assert();
    }
}
