//! The table of proofs: exact keys never confuse two positions, and a forged proof (what a
//! hash collision would make) is caught by the re-check.

use std::sync::atomic::AtomicBool;

use konane_core::{
    AnyPosition, Bits, Color, Game, Geometry, Opening, Position, Size, with_position,
};
use konane_engine::solve::{Keying, RecheckError, WhyHashed, recheck};
use konane_engine::{Proof, ProofTable, Solver};

/// Every position of `size` whose stones stand on their own colour's squares, both sides
/// to move (those the rules allow).
fn every_position(size: Size) -> impl Iterator<Item = Position<u64>> {
    let geo = Geometry::<u64>::new(size, Opening::CenterOrCorner).expect("fits in u64");
    let black: u64 = size
        .all_squares()
        .filter(|&sq| size.start_color(sq) == Color::Black)
        .fold(0, |acc, sq| acc | 1 << sq.index());
    (0u64..1 << size.squares()).flat_map(move |occupied| {
        [Color::Black, Color::White]
            .into_iter()
            .filter_map(move |turn| {
                Position::from_stones(geo, occupied & black, occupied & !black, turn).ok()
            })
    })
}

/// A made-up result for each position, so that any mix-up between two of them shows.
fn claim(p: &Position<u64>) -> Proof {
    Proof {
        win: p.hash() & 1 == 1,
        best: None,
    }
}

#[test]
fn exact_keys_never_confuse_two_positions() {
    // 2 million positions in 65,536 buckets of two slots: each bucket is fought over by 32;
    // in 196,608 (not a power of two), by 11.
    for mb in [1, 3] {
        one_table_never_confuses_two_positions(ProofTable::new(mb));
    }
}

fn one_table_never_confuses_two_positions(table: ProofTable) {
    let size = Size::new(4, 5).unwrap();
    let first = every_position(size).next().unwrap();
    let board = table.board_key(&first);
    assert_eq!(board.keying(), Keying::Exact);
    for p in every_position(size) {
        table.store_with(&board, &p, claim(&p), p.hash() >> 44);
    }
    let mut hits = 0;
    for p in every_position(size) {
        if let Some(found) = table.probe_with(&board, &p) {
            assert_eq!(found, claim(&p), "{}", p.text());
            hits += 1;
        }
    }
    assert!(hits > 100_000, "{hits}");
}

#[test]
fn boards_without_room_for_an_exact_key_are_hashed() {
    let table = ProofTable::new(1);
    let start =
        |rows, cols| *Game::new(Size::new(rows, cols).unwrap(), Opening::CenterOrCorner).position();
    // A key is the occupied squares and the side to move; the slot keeps up to 30 bits of
    // it beside the bucket index. 8x8 needs 65 bits: never exact.
    let exact = |rows, cols, mb| with_position!(start(rows, cols), p => ProofTable::new(mb).board_key(&p).keying());
    assert_eq!(exact(8, 8, 1), Keying::Hashed(WhyHashed::LargeBoard));
    assert_eq!(exact(8, 8, 4096), Keying::Hashed(WhyHashed::LargeBoard));
    // 6x7 needs 43 bits, 16 in the index of a 1 MiB table and 27 in the slot.
    assert_eq!(exact(6, 7, 1), Keying::Exact);
    // 6x8 needs 49: 19 index bits, a table of 8 MiB.
    let small = |mb| Keying::Hashed(WhyHashed::SmallTable { exact_from_mb: mb });
    assert_eq!(exact(6, 8, 4), small(8));
    assert_eq!(exact(6, 8, 8), Keying::Exact);
    // 7x8 needs 57: 27 index bits, 2 GiB; 7x7's 50 bits 16 MiB.
    assert_eq!(exact(7, 8, 1024), small(2048));
    assert_eq!(exact(7, 8, 2048), Keying::Exact);
    assert_eq!(exact(7, 7, 1), small(16));
    assert_eq!(exact(7, 7, 16), Keying::Exact);
    // Any size counts its buckets, not the power of two below it.
    assert_eq!(exact(6, 8, 7), small(8));
    assert_eq!(exact(6, 8, 12), Keying::Exact);
    assert_eq!(exact(7, 7, 15), small(16));
    assert_eq!(exact(7, 7, 24), Keying::Exact);
    // A stone off its colour's squares: the occupied squares no longer say whose it is.
    let odd = AnyPosition::parse("bb../..../..w. w", Opening::CenterOrCorner).unwrap();
    with_position!(odd, p => assert_eq!(table.board_key(&p).keying(), Keying::Hashed(WhyHashed::OffColour)));
}

/// Positions a few random moves into games on small boards.
fn middlegames() -> Vec<AnyPosition> {
    let mut out = Vec::new();
    for (rows, cols) in [(5, 5), (4, 6), (5, 6)] {
        for seed in 0..12 {
            let mut rng = konane_engine::Rng::new(seed);
            let mut game = Game::new(Size::new(rows, cols).unwrap(), Opening::CenterOrCorner);
            for _ in 0..4 + seed % 5 {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            if !game.position().legal_moves().is_empty() {
                out.push(*game.position());
            }
        }
    }
    out
}

/// Plants the opposite of the truth about `pos` in a table, sees the solver believe it,
/// and the re-check on a fresh table refuse it.
fn forgery_is_caught<B: Bits>(pos: &Position<B>) {
    let stop = AtomicBool::new(false);
    let truth = Solver::new(&ProofTable::new(1), &stop, u64::MAX)
        .solve(pos)
        .unwrap();
    assert_eq!(
        recheck(pos, truth, &ProofTable::new(1), &stop, u64::MAX),
        Ok(())
    );
    // The forgery a collision could make: the other result, with some legal move.
    let forged = Proof {
        win: !truth.win,
        best: pos.moves().find(|&m| Some(m) != truth.best),
    };
    let forged_table = ProofTable::new(1);
    forged_table.store(pos, forged, u64::MAX);
    let fooled = Solver::new(&forged_table, &stop, u64::MAX)
        .solve(pos)
        .unwrap();
    assert_eq!(fooled.win, forged.win, "the forgery is believed");
    let verdict = recheck(pos, fooled, &ProofTable::new(1), &stop, u64::MAX);
    assert!(
        matches!(
            verdict,
            Err(RecheckError::Disagrees | RecheckError::NoLegalWinningMove)
        ),
        "{}: {verdict:?}",
        pos.text()
    );
}

#[test]
fn a_forged_proof_is_caught_by_the_recheck() {
    let positions = middlegames();
    assert!(positions.len() >= 20, "{}", positions.len());
    for pos in &positions {
        with_position!(pos, p => forgery_is_caught(p));
    }
}

/// The same stones under both opening rules.
fn under_both(text: &str) -> [Position<u64>; 2] {
    Opening::ALL.map(|o| {
        with_position!(AnyPosition::parse(text, o).unwrap(), p => Position::<u64>::from_stones(
            Geometry::new(p.size(), o).unwrap(),
            p.stones(Color::Black).low_u64(),
            p.stones(Color::White).low_u64(),
            p.turn(),
        ).unwrap())
    })
}

#[test]
fn a_jumping_position_has_one_entry_under_both_rules_a_removal_position_one_each() {
    let table = ProofTable::new(1);
    let won = Proof {
        win: true,
        best: None,
    };
    // Two stones gone: the rule no longer matters.
    let [center, either] = under_both("bwbwbw/wbwbwb/bwb.bw/wb.bwb/bwbwbw/wbwbwb b");
    table.store(&center, won, 1 << 20);
    assert_eq!(table.probe(&either), Some(won));
    // One stone gone: what White may remove depends on the rule.
    let [center, either] = under_both("bwbwbw/wbwbwb/bwb.bw/wbwbwb/bwbwbw/wbwbwb w");
    table.store(&center, won, 1 << 20);
    assert_eq!(table.probe(&center), Some(won));
    assert_eq!(table.probe(&either), None);
}

#[test]
fn a_checkpoint_that_tagged_jumping_positions_with_their_rule_loads_for_both() {
    let table = ProofTable::new(1);
    let won = Proof {
        win: true,
        best: None,
    };
    let [center, either] = under_both("bwbwbw/wbwbwb/bwb.bw/wb.bwb/bwbwbw/wbwbwb b");
    table.store(&center, won, 1 << 20);
    let mut bytes = table.checkpoint(16);
    assert_eq!(bytes.len(), 8 + 16);
    // As the solver wrote it before: the rule's bit (bit 32 of the slot word) set.
    bytes[8 + 8 + 4] |= 1;
    let fresh = ProofTable::new(2);
    assert_eq!(fresh.load(&bytes), Ok(1));
    assert_eq!(fresh.probe(&either), Some(won));
    assert_eq!(fresh.probe(&center), Some(won));
}

/// The entries of a checkpoint, in a stable order.
fn entries_of(checkpoint: &[u8]) -> Vec<&[u8]> {
    let mut entries: Vec<&[u8]> = checkpoint[8..].chunks_exact(16).collect();
    entries.sort_unstable();
    entries
}

/// A table of any size, a power of two or not, gives its proofs to a table of any other
/// size that has room for them, and gets them back whole.
#[test]
fn checkpoints_move_proofs_between_tables_of_any_size() {
    let stop = AtomicBool::new(false);
    let mut pos = AnyPosition::start(Size::new(6, 6).unwrap(), Opening::CenterOrCorner);
    pos.play_text("c4").unwrap();
    let first = ProofTable::new(3);
    let proof = with_position!(pos, p => Solver::new(&first, &stop, u64::MAX).solve(&p)).unwrap();
    // The most worked few thousand proofs: a full table's would not all find room in a
    // table laid out otherwise (three to a bucket).
    let bytes = (1..=32)
        .map(|w| first.checkpoint(w))
        .find(|c| c.len() <= 8 + 16 * 3000)
        .unwrap();
    let entries = entries_of(&bytes);
    assert!(entries.len() > 500, "{} proofs", entries.len());
    for mb in [3, 5, 8, 12] {
        let table = ProofTable::new(mb);
        assert_eq!(table.load(&bytes), Ok(entries.len()), "{mb} MiB");
        let again = table.checkpoint(1);
        let back = entries_of(&again);
        let lost = entries
            .iter()
            .filter(|e| back.binary_search(e).is_err())
            .count();
        assert_eq!((back.len(), lost), (entries.len(), 0), "{mb} MiB");
        if mb == 3 {
            assert_eq!(again, bytes, "the same size lays the proofs out alike");
        }
        assert_eq!(
            with_position!(pos, p => table.probe(&p)),
            Some(proof),
            "{mb} MiB"
        );
    }
    // A table too small to key 6x6 exactly is impossible (a MiB is enough), but one too
    // small for 7x7 (16 MiB) leaves its proofs out rather than keep them hashed.
    let mut big = AnyPosition::start(Size::new(7, 7).unwrap(), Opening::CenterOrCorner);
    big.play_text("d4").unwrap();
    let roomy = ProofTable::new(16);
    let won = Proof {
        win: true,
        best: None,
    };
    with_position!(big, p => roomy.store(&p, won, 1 << 20));
    let seven = roomy.checkpoint(16);
    assert_eq!(entries_of(&seven).len(), 1);
    assert_eq!(ProofTable::new(15).load(&seven), Ok(0));
    let fits = ProofTable::new(24);
    assert_eq!(fits.load(&seven), Ok(1));
    assert_eq!(with_position!(big, p => fits.probe(&p)), Some(won));
}

/// Thinning keeps the most worked proofs whole level by level: what a checkpoint of the
/// same table keeps from the least work that fits, byte for byte, for every budget; two
/// checkpoints merge; anything but checkpoints is refused.
#[test]
fn a_thinned_checkpoint_is_the_most_worked_proofs_that_fit() {
    use konane_engine::solve::CheckpointError;
    let table = ProofTable::new(16);
    let stop = AtomicBool::new(false);
    let mut pos = AnyPosition::start(Size::new(6, 6).unwrap(), Opening::CenterOrCorner);
    pos.play_text("c4").unwrap();
    with_position!(pos, p => Solver::new(&table, &stop, u64::MAX).solve(&p)).unwrap();
    let entries = |c: &[u8]| (c.len() - 8) / 16;
    let full = table.checkpoint(1);
    let total = entries(&full);
    assert!(total > 1000, "{total} proofs");
    let mut levels_seen = 0;
    for budget in [0, 1, 10, 100, 1000, total / 2, total - 1, total, total + 5] {
        let thin = ProofTable::thin(&[&full], budget).unwrap();
        let expected = (1..=32)
            .map(|w| table.checkpoint(w))
            .find(|c| entries(c) <= budget)
            .unwrap();
        assert_eq!(thin, expected, "{budget}");
        assert!(entries(&thin) <= budget);
        levels_seen += usize::from(entries(&thin) > 0 && entries(&thin) < total);
    }
    assert!(levels_seen >= 3, "the budgets cut between levels of work");
    let small = ProofTable::thin(&[&full], 100).unwrap();
    let both = ProofTable::thin(&[&full, &small], usize::MAX).unwrap();
    assert_eq!(entries(&both), total + entries(&small));
    assert_eq!(
        ProofTable::thin(&[&full, b"not proofs"], 10),
        Err(CheckpointError::NotACheckpoint)
    );
    assert_eq!(
        ProofTable::thin(&[&full[..full.len() - 3]], 10),
        Err(CheckpointError::Truncated)
    );
}
