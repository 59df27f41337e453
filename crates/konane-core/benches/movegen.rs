//! Perft and move generation speed. Run with `cargo bench -p konane-core`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use konane_core::{AnyPosition, Opening, Size, perft, with_position};

/// Middle-game positions from the conformance games, one per board family.
const POSITIONS: [(&str, &str); 6] = [
    (
        "8x8 early",
        "bwbwbwbw/..wbwbwb/..bwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
    ),
    (
        "8x8 middle",
        "bwbwbwbw/wb..wbwb/bwb..wbw/.bw.wb.b/......../w.w...../bwb..wbw/wbwbwbwb b",
    ),
    (
        "8x8 late",
        "b...bw.w/w...w.../b.b....w/w.w..b../b.bw..bw/.....b../bw.w..b./wbw.w..b b",
    ),
    (
        "6x8 middle",
        "bwb..w.w/wb.bw..b/....b.bw/wbwb..wb/bwbwb..w/wbwb.bwb w",
    ),
    (
        "10x10 middle",
        "......b.../w.....w..b/.w..bw.w../.....b...b/b.bwbwbw../wbwbwbwb../b.bwbwbwbw/wbwbwbwbwb/b.bwbwbwbw/w.wbwbwbwb b",
    ),
    (
        "16x16 middle",
        "bwbwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb/bwbwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb/bwbwbwbwbwbwbwbw/wbwbwbwbw.w....b/bwbwbwbwbwb.b..w/wbwbwbwbwbwb.bw./bwbwbwbw...w..b./wbwbwbwbw..b..wb/bwbwb.b..w....../wbw.w.w.w..b..../bwbw.w.w....b.../wb..wbwbwbw...../bwb.b.b.b...b.../wbwbwbwbwbw.w..b b",
    ),
];

fn positions() -> Vec<(&'static str, AnyPosition)> {
    POSITIONS
        .iter()
        .map(|&(name, text)| {
            (
                name,
                AnyPosition::parse(text, Opening::CenterOrCorner).expect("bench position"),
            )
        })
        .collect()
}

fn perft_8x8(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft 8x8 start");
    group.sample_size(10);
    for depth in [8u32, 9] {
        let start = AnyPosition::start(Size::DEFAULT, Opening::CenterOrCorner);
        let leaves = with_position!(start, p => perft::perft(&mut { p }, depth));
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &d| {
            b.iter(|| with_position!(start, p => perft::perft(&mut { p }, black_box(d))))
        });
    }
    group.finish();
}

fn perft_middle_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft depth 4");
    group.sample_size(20);
    for (name, pos) in positions() {
        let leaves = with_position!(pos, p => perft::perft(&mut { p }, 4));
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(name, |b| {
            b.iter(|| with_position!(pos, p => perft::perft(&mut { p }, 4)))
        });
    }
    group.finish();
}

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate all moves");
    for (name, pos) in positions() {
        group.throughput(Throughput::Elements(u64::from(pos.count_moves())));
        group.bench_function(name, |b| {
            b.iter(|| with_position!(black_box(&pos), p => p.moves().fold(0usize, |acc, m| acc + m.to().index())))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("count moves");
    for (name, pos) in positions() {
        group.bench_function(name, |b| b.iter(|| black_box(&pos).count_moves()));
    }
    group.finish();
}

criterion_group!(benches, perft_8x8, perft_middle_games, generate);
criterion_main!(benches);
