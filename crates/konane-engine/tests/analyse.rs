//! The analysis (several best lines with exact scores) against a plain negamax that looks
//! at every node: each line's score is the minimax value of its first move at that depth.

use konane_core::{AnyPosition, Bits, Game, Opening, Position, Size, with_position};
use konane_engine::eval::evaluate;
use konane_engine::score::WIN;
use konane_engine::{Engine, EngineConfig, Frozen, Limits, Rng, Weights};

/// Negamax over the whole tree to `depth`, scored as the engine scores: the evaluation at
/// the horizon, a loss in `ply` plies when the side to move has no move.
fn negamax<B: Bits>(pos: &mut Position<B>, depth: u32, ply: i32, w: &Weights) -> i32 {
    if !pos.has_moves() {
        return -(WIN - ply);
    }
    if depth == 0 {
        return evaluate(pos, w);
    }
    let moves: Vec<_> = pos.moves().collect();
    let mut best = i32::MIN;
    for m in moves {
        pos.make(m);
        best = best.max(-negamax(pos, depth - 1, ply + 1, w));
        pos.unmake(m);
    }
    best
}

fn random_position(size: Size, seed: u64, plies: usize) -> Option<AnyPosition> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(size, Opening::CenterOrCorner);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).ok()?;
    }
    (game.position().count_moves() > 1).then_some(*game.position())
}

#[test]
fn every_line_has_its_minimax_score() {
    let w = Weights::default();
    let mut checked = 0;
    for seed in 0..40u64 {
        let size = Size::new(5 + (seed % 2) as usize, 6).unwrap();
        let Some(pos) = random_position(size, seed, 2 + (seed % 9) as usize) else {
            continue;
        };
        let engine = Engine::new(EngineConfig {
            hash_mb: 2,
            proof_mb: 1,
            ..EngineConfig::default()
        });
        let depth = 3;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let analysis = engine
            .analyse(&pos, limits, 3, &Frozen, &mut |a| depths.push(a.depth))
            .expect("a position with moves has an analysis");
        assert_eq!(depths.last(), Some(&analysis.depth));
        assert!(depths.windows(2).all(|d| d[0] < d[1]), "{depths:?}");
        assert_eq!(analysis.lines.len(), 3.min(pos.count_moves() as usize));
        let mut exact: Vec<i32> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut after = pos;
                after.play(m).unwrap();
                with_position!(&mut after, p => -negamax(p, analysis.depth - 1, 1, &w))
            })
            .collect();
        exact.sort_by_key(|&s| -s);
        for (line, want) in analysis.lines.iter().zip(&exact) {
            assert_eq!(line.score, *want, "{pos}: {line:?}");
            let mut p = pos;
            let first = line.pv[0];
            p.play(first).unwrap();
            let s = with_position!(&mut p, q => -negamax(q, analysis.depth - 1, 1, &w));
            assert_eq!(
                s, line.score,
                "{pos}: the line's first move has the line's score"
            );
            for &m in &line.pv[1..] {
                p.play(m).expect("every move of a line is legal");
            }
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}
