//! Perft counts from an independent implementation of RULES.md (a plain Python program
//! written separately from this crate, see `docs/benchmarks.md`), for many board sizes,
//! both openings and middle-game positions.

use konane_core::{AnyPosition, Opening, perft, with_position};

const TABLES: &str = include_str!("data/perft.txt");

/// Leaf counts above this are skipped in unoptimised builds to keep `cargo test` quick;
/// `cargo test --release` checks them all.
const DEBUG_LIMIT: u64 = 3_000_000;

struct Block {
    comment: String,
    opening: Opening,
    position: String,
    counts: Vec<(u32, u64)>,
}

fn blocks() -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in TABLES.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "#" => out.push(Block {
                comment: rest.to_string(),
                opening: Opening::CenterOrCorner,
                position: String::new(),
                counts: vec![],
            }),
            "opening" => out.last_mut().unwrap().opening = rest.parse().unwrap(),
            "position" => out.last_mut().unwrap().position = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                out.last_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn perft_matches_the_independent_tables() {
    let limit = if cfg!(debug_assertions) {
        DEBUG_LIMIT
    } else {
        u64::MAX
    };
    let all = blocks();
    assert!(all.len() >= 40, "only {} blocks", all.len());
    let mut checked = 0;
    for b in &all {
        let pos = AnyPosition::parse(&b.position, b.opening).unwrap();
        for &(depth, expected) in b.counts.iter().filter(|&&(_, n)| n <= limit) {
            let got = with_position!(pos, p => perft::perft(&mut { p }, depth));
            assert_eq!(got, expected, "{}: depth {depth}", b.comment);
            checked += 1;
        }
    }
    assert!(checked >= 300, "only {checked} counts checked");
}
