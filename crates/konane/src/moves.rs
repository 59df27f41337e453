//! `konane moves`: the legal moves of a position.

use anyhow::Result;
use serde::Serialize;

use crate::args::{RuleArg, parse_position, print_json};

/// The position whose moves to list.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
    position: String,
    #[command(flatten)]
    rule: RuleArg,
    /// Print one JSON document instead of text (docs/cli.md).
    #[arg(long)]
    json: bool,
}

/// The `--json` output.
#[derive(Serialize)]
struct Moves {
    position: String,
    turn: &'static str,
    /// The legal moves, sorted; empty when the side to move has lost.
    moves: Vec<String>,
}

/// Prints the legal moves, one a line.
pub fn run(args: Args) -> Result<()> {
    let pos = parse_position(&args.position, args.rule.opening)?;
    let moves = pos.legal_move_texts();
    if args.json {
        return print_json(&Moves {
            position: pos.to_string(),
            turn: pos.turn().name(),
            moves,
        });
    }
    for m in moves {
        println!("{m}");
    }
    Ok(())
}
