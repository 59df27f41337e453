//! `konane play`: a game against the engine in the terminal.

use std::io::{BufRead, Write};

use anyhow::Result;
use konane_core::{Color, Game, Opening, Size};
use konane_engine::{Engine, EngineConfig, Rng, SystemClock};

use crate::args::{RuleArg, color_parser, level_parser};
use crate::show::diagram;

/// The game to play.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size, rows x columns.
    #[arg(long, default_value = "8x8")]
    size: Size,
    #[command(flatten)]
    rule: RuleArg,
    /// Your colour.
    #[arg(long, default_value = "black", value_parser = color_parser())]
    color: Color,
    /// The engine's level, 1 (beginner) to 8 (full strength).
    #[arg(long, default_value_t = 4, value_parser = level_parser())]
    level: u8,
    /// Seed of the engine's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Plays the game the flags set up.
pub fn run(args: Args) -> Result<()> {
    play(
        args.size,
        args.rule.opening,
        args.color,
        args.level,
        args.seed,
    )
}

/// Plays `human` against the engine at `level` until the game ends or the input does.
fn play(size: Size, opening: Opening, human: Color, level: u8, seed: u64) -> Result<()> {
    let mut engine = Engine::new(EngineConfig::default());
    engine.learn_solved();
    let mut rng = Rng::new(seed);
    let mut game = Game::new(size, opening);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "You play {human} against level {level}. Type a move (d5, f4-f6), 'moves', 'undo' or 'quit'."
    );
    while game.outcome().is_none() {
        let pos = *game.position();
        if pos.turn() != human {
            let clock = SystemClock::start();
            if let Some(m) = engine.choose(&pos, level, &clock, &mut rng) {
                println!("{} plays {}", pos.turn(), pos.move_text(m));
                game.play(m)?;
            }
            continue;
        }
        print!("\n{}", diagram(&pos));
        print!("your move> ");
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" => return Ok(()),
            "moves" => println!("{}", pos.legal_move_texts().join(" ")),
            "undo" => {
                // Take back the engine's reply and your move.
                game.undo();
                game.undo();
            }
            text => {
                if let Err(e) = game.play_text(text) {
                    println!("{e}");
                }
            }
        }
    }
    print!("\n{}", diagram(game.position()));
    if let Some(o) = game.outcome() {
        let verdict = if o.winner == human {
            "You win"
        } else {
            "The engine wins"
        };
        println!("{verdict}: {}.", o.termination());
    }
    Ok(())
}
