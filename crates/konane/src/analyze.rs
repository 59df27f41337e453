//! `konane analyze`: the best move of a position, its score and the expected line.

use std::time::Duration;

use anyhow::Result;
use konane_core::AnyPosition;
use konane_engine::score::{self, describe};
use konane_engine::{Engine, EngineConfig, Limits, SearchResult, SystemClock};
use serde::Serialize;

use crate::args::{
    EngineArgs, RuleArg, parse_position, positive_seconds, print_json, whole_millis,
};

/// What to analyse, and for how long.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Position text, e.g. "bwbw/wbwb/bwbw/wbwb b".
    position: String,
    #[command(flatten)]
    rule: RuleArg,
    /// Thinking time, e.g. 2s or 500ms; a bare number counts seconds (default 2s unless
    /// --depth or --nodes is given).
    #[arg(long, value_parser = positive_seconds)]
    time: Option<Duration>,
    /// Search this many plies deep.
    #[arg(long)]
    depth: Option<u32>,
    /// Search at most this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON document instead of text (docs/cli.md).
    #[arg(long)]
    json: bool,
}

/// Analyses the position the flags name.
pub fn run(args: Args) -> Result<()> {
    let pos = parse_position(&args.position, args.rule.opening)?;
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        time_ms: args.time.map(|t| whole_millis(t).max(1)),
    };
    if limits == Limits::default() {
        limits.time_ms = Some(2_000);
    }
    let config = args.engine.config()?;
    if args.json {
        print_json(&analysis(&pos, limits, config))
    } else {
        think(&pos, limits, config)
    }
}

/// The `--json` output: every completed iteration and the verdict.
#[derive(Serialize)]
struct Analysis {
    position: String,
    turn: &'static str,
    /// The best move; `null` when the side to move has none (and has lost).
    best: Option<String>,
    #[serde(flatten)]
    result: Iteration,
    /// Who wins, when the search or the solver proved it (or the side to move has no move).
    winner: Option<&'static str>,
    iterations: Vec<Iteration>,
}

/// One completed iteration of the search, or its result.
#[derive(Serialize)]
struct Iteration {
    /// Plies searched.
    depth: u32,
    /// Whether the exact solver proved the score.
    proof: bool,
    /// The score for the side to move, in hundredths of a move; proven scores are large.
    score: i32,
    /// The score in words, as the text output writes it.
    score_text: String,
    nodes: u64,
    ms: u64,
    /// The expected line, the best move first.
    line: Vec<String>,
}

impl Iteration {
    fn of(pos: &AnyPosition, r: &SearchResult) -> Iteration {
        Iteration {
            depth: r.depth,
            proof: r.proof,
            score: r.score,
            score_text: describe(r.score),
            nodes: r.nodes,
            ms: r.elapsed_ms,
            line: r.pv.iter().map(|&m| pos.move_text(m)).collect(),
        }
    }
}

fn analysis(pos: &AnyPosition, limits: Limits, config: EngineConfig) -> Analysis {
    let engine = Engine::new(config);
    let mut iterations = Vec::new();
    let clock = SystemClock::start();
    let result = engine.think(pos, limits, true, &clock, &mut |r| {
        iterations.push(Iteration::of(pos, r));
    });
    let turn = pos.turn();
    let winner = match result.best {
        None => Some(turn.opponent()),
        Some(_) if result.proof || score::is_proven(result.score) => Some(if result.score > 0 {
            turn
        } else {
            turn.opponent()
        }),
        Some(_) => None,
    };
    Analysis {
        position: pos.to_string(),
        turn: turn.name(),
        best: result.best.map(|m| pos.move_text(m)),
        result: Iteration::of(pos, &result),
        winner: winner.map(|c| c.name()),
        iterations,
    }
}

/// Thinks about `pos` within `limits`, printing each completed iteration and the verdict.
fn think(pos: &AnyPosition, limits: Limits, config: EngineConfig) -> Result<()> {
    let engine = Engine::new(config);
    let line = |r: &SearchResult| {
        let pv: Vec<String> = r.pv.iter().map(|&m| pos.move_text(m)).collect();
        pv.join(" ")
    };
    println!(
        "{:>5} {:>16} {:>12} {:>8} {:>10}  line",
        "depth", "score", "nodes", "ms", "nodes/s"
    );
    let clock = SystemClock::start();
    let result = engine.think(pos, limits, true, &clock, &mut |r| {
        println!(
            "{:>5} {:>16} {:>12} {:>8} {:>10}  {}",
            if r.proof {
                "solve".to_string()
            } else {
                r.depth.to_string()
            },
            describe(r.score),
            r.nodes,
            r.elapsed_ms,
            r.nodes * 1000 / r.elapsed_ms.max(1),
            line(r)
        );
    });
    println!();
    match result.best {
        None => println!(
            "{} has no move: {} wins.",
            pos.turn(),
            pos.turn().opponent()
        ),
        Some(best) => {
            println!("best move  {}", pos.move_text(best));
            let verdict = if result.proof {
                format!(
                    "proven {} for {} (exact solver)",
                    if result.score > 0 { "win" } else { "loss" },
                    pos.turn()
                )
            } else {
                format!("{} for {}", describe(result.score), pos.turn())
            };
            println!("score      {verdict}");
            println!("line       {}", line(&result));
            println!("depth      {}", result.depth);
            println!(
                "nodes      {} in {} ms ({} nodes/s)",
                result.nodes,
                result.elapsed_ms,
                result.nodes * 1000 / result.elapsed_ms.max(1)
            );
        }
    }
    Ok(())
}
