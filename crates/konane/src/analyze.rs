//! `konane analyze`: the best move of a position, its score and the expected line.

use anyhow::Result;
use konane_core::AnyPosition;
use konane_engine::score::describe;
use konane_engine::{Engine, EngineConfig, Limits, SearchResult, SystemClock};

/// Thinks about `pos` within `limits`, printing each completed iteration and the verdict.
pub fn run(pos: &AnyPosition, limits: Limits, config: EngineConfig) -> Result<()> {
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
