//! Search and solver speed. Run with `cargo bench -p konane-engine`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use konane_core::{AnyPosition, Opening, Size};
use konane_engine::{Engine, EngineConfig, Frozen, Limits, ProofTable, Solver};

/// 8x8 middle-game positions from the conformance games.
const MIDDLE_GAMES: [&str; 4] = [
    "bwbwbwbw/..wbwbwb/..bwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
    "bwbwbwbw/wb..wbwb/bwb..wbw/.bw.wb.b/......../w.w...../bwb..wbw/wbwbwbwb b",
    "bw..b.bw/..wbw.wb/bw.wbw.w/.bw..bwb/b.bwbwbw/.b..w.wb/.wbwb.bw/wbwbwbwb b",
    "b...bw.w/w...w.../b.b....w/w.w..b../b.bw..bw/.....b../bw.w..b./wbw.w..b b",
];

fn fixed_depth(c: &mut Criterion) {
    let positions: Vec<AnyPosition> = MIDDLE_GAMES
        .iter()
        .map(|t| AnyPosition::parse(t, Opening::CenterOrCorner).expect("bench position"))
        .collect();
    let mut group = c.benchmark_group("search 8x8 middle games to depth 8");
    group.sample_size(10);
    group.bench_function("4 positions", |b| {
        b.iter(|| {
            let engine = Engine::new(EngineConfig {
                hash_mb: 64,
                ..EngineConfig::default()
            });
            let limits = Limits {
                depth: Some(8),
                ..Limits::default()
            };
            positions
                .iter()
                .map(|p| {
                    engine
                        .think(black_box(p), limits, false, &Frozen, &mut |_| {})
                        .nodes
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

fn solve_openings(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve after the removals");
    group.sample_size(10);
    for (size, removals) in [("5x5", ["c3", "c4"]), ("6x6", ["c4", "d4"])] {
        let mut pos =
            AnyPosition::start(size.parse::<Size>().expect("size"), Opening::CenterOrCorner);
        for r in removals {
            pos.play_text(r).expect("legal removal");
        }
        group.bench_function(format!("{size} {}", removals.join(" ")), |b| {
            b.iter(|| {
                let table = ProofTable::new(64);
                let stop = AtomicBool::new(false);
                let mut solver = Solver::new(&table, &stop, u64::MAX);
                konane_core::with_position!(&pos, p => solver.solve(p)).map(|p| p.win)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_depth, solve_openings);
criterion_main!(benches);
