//! `konane show`: a position drawn in the terminal, with coordinates.

use std::fmt::Write;

use anyhow::Result;
use konane_core::{AnyPosition, Color, Phase};

use crate::args::{RuleArg, parse_position};

/// The position to draw.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
    position: String,
    #[command(flatten)]
    rule: RuleArg,
}

/// Draws the position.
pub fn run(args: Args) -> Result<()> {
    let pos = parse_position(&args.position, args.rule.opening)?;
    print!("{}", diagram(&pos));
    Ok(())
}

/// The board with files along the top and bottom and ranks down both sides, then whose
/// turn it is and what they may do.
pub fn diagram(pos: &AnyPosition) -> String {
    let size = pos.size();
    let files: String = (0..size.cols())
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "   {files}");
    for r in 0..size.rows() {
        let rank = size.rows() - r;
        let _ = write!(out, "{rank:>2} ");
        for c in 0..size.cols() {
            let cell = match size.square(r, c).and_then(|sq| pos.stone_at(sq)) {
                Some(Color::Black) => '●',
                Some(Color::White) => '○',
                None => '·',
            };
            let _ = write!(out, " {cell}");
        }
        let _ = writeln!(out, "  {rank}");
    }
    let _ = writeln!(out, "   {files}");
    let turn = pos.turn();
    let moves = pos.count_moves();
    let task = match (moves, pos.phase()) {
        (0, _) => format!("{turn} has no move: {} wins", turn.opponent()),
        (_, Phase::BlackRemoval) => format!("Black to remove a stone ({moves} choices)"),
        (_, Phase::WhiteRemoval) => {
            format!("White to remove a stone next to the gap ({moves} choices)")
        }
        (_, Phase::Jumping) => format!("{} to jump ({moves} moves)", capitalised(turn)),
    };
    let _ = writeln!(out, "{task}");
    out
}

fn capitalised(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}
