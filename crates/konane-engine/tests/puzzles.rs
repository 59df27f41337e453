//! The shipped puzzle set (`data/puzzles.txt`) is what it claims: every line reads and
//! writes back unchanged, a sample is proven again here (the whole set by the ignored test
//! or `konane puzzles check`), the small ones agree with a naive search that uses no table,
//! and `verify` catches a puzzle that lies.

use std::collections::HashSet;

use konane_core::{AnyPosition, Bits, Position, with_position};
use konane_engine::ProofTable;
use konane_engine::puzzle::{self, Puzzle, Theme, VerifyError};
use proptest::prelude::*;

const SET: &str = include_str!("../../../data/puzzles.txt");

/// Proof nodes a puzzle may take when proven again.
const BUDGET: u64 = 50_000_000;

fn set() -> Vec<Puzzle> {
    Puzzle::parse_set(SET).unwrap_or_else(|e| panic!("data/puzzles.txt: {e}"))
}

/// Every `n`-th puzzle of each size, so every size is sampled.
fn sample(set: &[Puzzle], per_size: usize) -> Vec<&Puzzle> {
    let mut sizes: Vec<String> = set.iter().map(|p| p.position.size().to_string()).collect();
    sizes.sort();
    sizes.dedup();
    let mut out = Vec::new();
    for size in sizes {
        let of: Vec<&Puzzle> = set
            .iter()
            .filter(|p| p.position.size().to_string() == size)
            .collect();
        let step = (of.len() / per_size).max(1);
        out.extend(of.into_iter().step_by(step).take(per_size));
    }
    out
}

#[test]
fn the_set_is_big_unique_and_reads_back() {
    let set = set();
    assert!(set.len() >= 2000, "only {} puzzles", set.len());
    let mut ids = HashSet::new();
    for p in &set {
        assert!(ids.insert(p.id.clone()), "{} twice", p.id);
        let text = p.to_string();
        assert_eq!(Puzzle::parse(&text).as_ref(), Ok(p), "{text}");
    }
    for size in ["6x6", "8x8", "10x10"] {
        let n = set
            .iter()
            .filter(|p| p.position.size().to_string() == size)
            .count();
        assert!(n >= 100, "only {n} puzzles on {size}");
    }
}

#[test]
fn a_sample_is_proven_again() {
    let set = set();
    let table = ProofTable::new(64);
    for p in sample(&set, 8) {
        puzzle::verify(p, &table, BUDGET).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}

/// The whole set, in a fresh table: `cargo test --release -p konane-engine --test puzzles
/// -- --ignored` (or `konane puzzles check`).
#[test]
#[ignore]
fn every_puzzle_is_proven_again() {
    let table = ProofTable::new(256);
    for p in set() {
        puzzle::verify(&p, &table, BUDGET).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}

/// Plain negamax on win/loss, no table, no ordering: `None` past `budget` nodes.
fn naive_wins<B: Bits>(pos: &mut Position<B>, budget: &mut u64) -> Option<bool> {
    *budget = budget.checked_sub(1)?;
    let moves: Vec<_> = pos.moves().collect();
    for m in moves {
        pos.make(m);
        let reply = naive_wins(pos, budget);
        pos.unmake(m);
        if !reply? {
            return Some(true);
        }
    }
    Some(false)
}

/// The winning moves of `pos` by the naive search, if it fits in `budget`.
fn naive_winners(pos: &AnyPosition, budget: u64) -> Option<Vec<konane_core::Move>> {
    let mut left = budget;
    let mut winners = Vec::new();
    for m in pos.legal_moves() {
        let mut child = *pos;
        child.play(m).ok()?;
        if !with_position!(&mut child, p => naive_wins(p, &mut left))? {
            winners.push(m);
        }
    }
    Some(winners)
}

#[test]
fn small_puzzles_agree_with_a_naive_search() {
    let set = set();
    let mut checked = 0;
    for p in &set {
        for step in 0..p.steps() {
            let pos = p.position_at(step).expect("the line is legal");
            let Some(winners) = naive_winners(&pos, 200_000) else {
                continue;
            };
            assert_eq!(winners, [p.line[2 * step]], "{} step {}", p.id, step + 1);
            checked += 1;
        }
        if checked >= 150 {
            break;
        }
    }
    assert!(checked >= 50, "only {checked} steps small enough");
}

#[test]
fn verify_catches_a_puzzle_that_lies() {
    let set = set();
    let table = ProofTable::new(16);
    let p = set
        .iter()
        .find(|p| p.position.size().to_string() == "6x6" && p.steps() >= 2)
        .expect("a 6x6 puzzle of two steps");
    assert_eq!(puzzle::verify(p, &table, BUDGET), Ok(()));

    let mut wrong_solution = p.clone();
    let (loser, answer) = wrong_solution.refutations[0][0];
    wrong_solution.refutations[0][0] = (wrong_solution.line[0], answer);
    wrong_solution.line = vec![loser];
    wrong_solution.refutations.truncate(1);
    assert!(matches!(
        puzzle::verify(&wrong_solution, &table, BUDGET),
        Err(VerifyError::NotUnique { step: 0, .. })
    ));

    let mut missing = p.clone();
    missing.refutations[1].pop();
    assert_eq!(
        puzzle::verify(&missing, &table, BUDGET),
        Err(VerifyError::Refutation { step: 1 })
    );

    let mut bad_answer = p.clone();
    let (w, _) = bad_answer.refutations[0][0];
    bad_answer.refutations[0][0] = (w, p.line[0]);
    assert_eq!(
        puzzle::verify(&bad_answer, &table, BUDGET),
        Err(VerifyError::Refutation { step: 0 })
    );

    let mut themes = p.clone();
    if themes.themes.contains(&Theme::Opening) {
        themes.themes.retain(|&t| t != Theme::Opening);
    } else {
        themes.themes.push(Theme::Opening);
        themes.themes.sort();
    }
    assert!(matches!(
        puzzle::verify(&themes, &table, BUDGET),
        Err(VerifyError::Themes { .. })
    ));

    let mut decoys = p.clone();
    decoys.decoys += 1;
    assert!(matches!(
        puzzle::verify(&decoys, &table, BUDGET),
        Err(VerifyError::Decoys { .. })
    ));

    let mut illegal = p.clone();
    illegal.line[1] = illegal.line[0];
    assert_eq!(
        puzzle::verify(&illegal, &table, BUDGET),
        Err(VerifyError::Illegal { index: 1 })
    );
}

#[test]
fn mining_finds_what_verify_accepts() {
    // The first 6x6 puzzle's position, mined again from scratch, gives the same puzzle.
    let set = set();
    let p = set
        .iter()
        .find(|p| p.position.size().to_string() == "6x6")
        .expect("a 6x6 puzzle");
    let table = ProofTable::new(16);
    let found = puzzle::find(&p.position, &table, BUDGET)
        .expect("proven in budget")
        .expect("a puzzle");
    assert_eq!(&found.into_puzzle(p.position, p.source), p);
}

proptest! {
    #[test]
    fn the_parser_never_panics(text in ".{0,300}") {
        let _ = Puzzle::parse(&text);
    }

    #[test]
    fn a_damaged_line_is_refused_or_reads(index in 0usize..400, byte in any::<u8>()) {
        let line = SET.lines().find(|l| !l.starts_with('#')).expect("a puzzle line");
        let mut bytes = line.as_bytes().to_vec();
        let i = index % bytes.len();
        bytes[i] = byte;
        if let Ok(text) = String::from_utf8(bytes)
            && let Ok(p) = Puzzle::parse(&text)
        {
            prop_assert_eq!(Puzzle::parse(&p.to_string()), Ok(p));
        }
    }
}
