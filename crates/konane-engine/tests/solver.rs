//! The solver against brute-force minimax, and the search against the solver.

use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Bits, Game, Move, Opening, Position, Size, with_position};
use konane_engine::{
    Engine, EngineConfig, Frozen, InProgress, Limits, ProofNumberSearch, ProofTable, Solver,
    TreeProgress, score,
};
use proptest::prelude::*;

/// A solver on `table`, depth-first or turning to proof numbers as `search` says.
fn solver<'a>(
    table: &'a ProofTable,
    stop: &'a AtomicBool,
    search: Option<ProofNumberSearch>,
) -> Solver<'a> {
    let solver = Solver::new(table, stop, u64::MAX);
    match search {
        Some(s) => solver.with_proof_numbers(s),
        None => solver,
    }
}

/// Plain minimax over the whole tree (no table, no ordering, no pruning), checking the
/// solver's verdict and winning move at every node within `check_plies` of the root.
fn brute_force<B: Bits>(
    pos: &mut Position<B>,
    check_plies: u32,
    table: &ProofTable,
    search: Option<ProofNumberSearch>,
    checked: &mut usize,
) -> bool {
    // Solved before its children: after them, every child would be proven in the table
    // and the solve would have nothing to search.
    let stop = AtomicBool::new(false);
    let proof =
        (check_plies > 0).then(|| solver(table, &stop, search).solve(pos).expect("no limit"));
    let moves: Vec<Move> = pos.moves().collect();
    let mut child_wins = Vec::with_capacity(moves.len());
    for &m in &moves {
        pos.make(m);
        child_wins.push(brute_force(
            pos,
            check_plies.saturating_sub(1),
            table,
            search,
            checked,
        ));
        pos.unmake(m);
    }
    let wins = child_wins.iter().any(|&w| !w);
    if let Some(proof) = proof {
        assert_eq!(proof.win, wins, "{}", pos.text());
        match proof.best {
            Some(best) => {
                let i = moves.iter().position(|&m| m == best).expect("a legal move");
                assert!(
                    !child_wins[i],
                    "{} does not win in {}",
                    pos.size().move_text(best),
                    pos.text()
                );
            }
            None => assert!(!wins, "no winning move given in {}", pos.text()),
        }
        *checked += 1;
    }
    wins
}

/// A numbers table of 64 MiB, or of 32 entries, where df-pn loses most of what it learnt
/// and must search it again.
const ROOMY: usize = 64 << 10;
const CRAMPED: usize = 1;

/// Depth-first alone, proof numbers from the root with leaves of one node (pure df-pn)
/// and of ten, in a roomy table and a cramped one, and the turn to proof numbers after a
/// few nodes.
const SEARCHES: [Option<ProofNumberSearch>; 6] = [
    None,
    Some(ProofNumberSearch {
        after: 0,
        leaf: 1,
        table_kib: ROOMY,
    }),
    Some(ProofNumberSearch {
        after: 0,
        leaf: 1,
        table_kib: CRAMPED,
    }),
    Some(ProofNumberSearch {
        after: 0,
        leaf: 10,
        table_kib: ROOMY,
    }),
    Some(ProofNumberSearch {
        after: 0,
        leaf: 10,
        table_kib: CRAMPED,
    }),
    Some(ProofNumberSearch {
        after: 50,
        leaf: 10,
        table_kib: ROOMY,
    }),
];

#[test]
fn solver_agrees_with_brute_force_on_every_board_up_to_4x5() {
    for search in SEARCHES {
        // A fresh table for each, so that no search leans on another's proofs.
        let table = ProofTable::new(16);
        let mut checked = 0;
        for rows in 1..=5 {
            for cols in 1..=5 {
                if rows * cols > 20 {
                    continue;
                }
                for opening in Opening::ALL {
                    let pos = AnyPosition::start(Size::new(rows, cols).unwrap(), opening);
                    // Every node on small boards, the first plies on the larger ones.
                    let plies = if rows * cols <= 12 { 99 } else { 6 };
                    with_position!(pos, p => brute_force(&mut { p }, plies, &table, search, &mut checked));
                }
            }
        }
        assert!(checked > 2_000, "{checked} with {search:?}");
    }
}

/// A position after `plies` random moves on `size`, if the game lasts that long.
fn random_position(size: Size, seed: u64, plies: usize) -> Option<AnyPosition> {
    let mut rng = konane_engine::Rng::new(seed);
    let mut game = Game::new(size, Opening::CenterOrCorner);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).ok()?;
    }
    (game.position().count_moves() > 0).then_some(*game.position())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// In a won endgame, the search alone (no solver) finds a winning move and says it wins.
    #[test]
    fn search_finds_forced_wins(seed in any::<u64>(), plies in 8usize..20) {
        let Some(pos) = random_position(Size::new(6, 6).unwrap(), seed, plies) else { return Ok(()) };
        let stop = AtomicBool::new(false);
        let engine = Engine::new(EngineConfig { hash_mb: 8, proof_mb: 4, ..EngineConfig::default() });
        let Ok(proof) = engine.solve(&pos, 2_000_000, &stop).0 else { return Ok(()) };
        let limits = Limits { depth: Some(40), nodes: Some(3_000_000), time_ms: None };
        let result = engine.think(&pos, limits, false, &Frozen, &mut |_| {});
        if !score::is_proven(result.score) {
            // The node budget ran out before the end of the game came into sight.
            return Ok(());
        }
        prop_assert_eq!(result.score > 0, proof.win, "{}", pos);
        if proof.win {
            let best = result.best.unwrap();
            let mut after = pos;
            after.play(best).unwrap();
            let reply = engine.solve(&after, u64::MAX, &stop).0.unwrap();
            prop_assert!(!reply.win, "{} does not win in {}", pos.move_text(best), pos);
        }
    }

    /// Solvers that start at other root moves, alone or two at once on one table (leaving
    /// for last the moves the other is in, or not; one of them by proof numbers, or not),
    /// prove the same result, and every winning move they name wins.
    #[test]
    fn root_offsets_and_shared_threads_agree(seed in any::<u64>(), plies in 2usize..16, offset in 1usize..6) {
        let Some(pos) = random_position(Size::new(5, 6).unwrap(), seed, plies) else { return Ok(()) };
        let stop = AtomicBool::new(false);
        let numbers = Some(ProofNumberSearch { after: 0, leaf: 10, table_kib: CRAMPED });
        let solve = |table: &ProofTable, offset: usize, in_progress: Option<&InProgress>, search| {
            let solver = solver(table, &stop, search).with_root_offset(offset);
            let mut solver = match in_progress {
                Some(marks) => solver.with_in_progress(marks),
                None => solver,
            };
            with_position!(pos, p => solver.solve(&p)).unwrap()
        };
        let plain = solve(&ProofTable::new(4), 0, None, None);
        let mut proofs = vec![solve(&ProofTable::new(4), offset, None, None)];
        let marks = InProgress::default();
        // Two depth-first threads, alone and marking, then proof numbers beside depth-first.
        for (in_progress, first) in [(None, None), (Some(&marks), None), (Some(&marks), numbers)] {
            let shared = ProofTable::new(4);
            let (a, b) = std::thread::scope(|s| {
                let a = s.spawn(|| solve(&shared, 0, in_progress, first));
                let b = s.spawn(|| solve(&shared, offset, in_progress, None));
                (a.join().unwrap(), b.join().unwrap())
            });
            proofs.extend([a, b]);
        }
        for proof in proofs {
            prop_assert_eq!(proof.win, plain.win, "{}", pos);
            if let Some(best) = proof.best {
                let mut after = pos;
                after.play(best).unwrap();
                let reply = with_position!(after, p => Solver::new(&ProofTable::new(4), &stop, u64::MAX).solve(&p)).unwrap();
                prop_assert!(!reply.win, "{} does not win in {}", pos.move_text(best), pos);
            } else {
                prop_assert!(!proof.win, "no winning move given in {}", pos);
            }
        }
    }

    /// Whatever the level and position, the engine answers with a legal move.
    #[test]
    fn the_engine_only_plays_legal_moves(seed in any::<u64>(), plies in 0usize..60, level in 1u8..=8, rows in 4usize..=9, cols in 4usize..=9) {
        let Some(pos) = random_position(Size::new(rows, cols).unwrap(), seed, plies) else { return Ok(()) };
        let engine = Engine::new(EngineConfig { hash_mb: 1, proof_mb: 1, ..EngineConfig::default() });
        let mut rng = konane_engine::Rng::new(seed);
        let m = engine.choose(&pos, level, &FastClock::default(), &mut rng);
        let m = m.expect("a position with moves gets a move");
        prop_assert!(pos.check(m).is_ok(), "{} is illegal in {}", pos.move_text(m), pos);
    }
}

/// A clock that runs fast, so levels with time budgets stop quickly in tests.
#[derive(Default)]
struct FastClock(std::sync::atomic::AtomicU64);

impl konane_engine::Clock for FastClock {
    fn elapsed_ms(&self) -> u64 {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }
}

/// Every row of the 5x6 and 6x6 opening tables as the previous solver (40-bit lossy keys,
/// one-slot-cheaper replacement) printed them: `size opening removal reply winner`.
const PUBLISHED_ROWS: &str = include_str!("data/solved_rows.txt");

#[test]
fn solver_agrees_with_the_previous_solver_on_every_5x6_and_6x6_row() {
    let stop = AtomicBool::new(false);
    let searches = [
        None,
        Some(ProofNumberSearch {
            after: 0,
            leaf: 100,
            ..ProofNumberSearch::default()
        }),
        Some(ProofNumberSearch::default()),
    ];
    for search in searches {
        rows_agree(&stop, search);
    }
}

fn rows_agree(stop: &AtomicBool, search: Option<ProofNumberSearch>) {
    let table = ProofTable::new(64);
    let mut rows = 0;
    for line in PUBLISHED_ROWS.lines().filter(|l| !l.trim().is_empty()) {
        let [size, opening, removal, reply, winner] =
            line.split_whitespace().collect::<Vec<_>>()[..]
        else {
            panic!("bad row {line}");
        };
        let size: Size = size.parse().unwrap();
        let mut game = Game::new(size, opening.parse().unwrap());
        for m in [removal, reply] {
            game.play(size.parse_move(m).unwrap()).unwrap();
        }
        let pos = *game.position();
        let proof = with_position!(pos, p => solver(&table, stop, search).solve(&p)).unwrap();
        let found = if proof.win {
            pos.turn()
        } else {
            pos.turn().opponent()
        };
        assert_eq!(found.name(), winner, "{line} with {search:?}");
        rows += 1;
    }
    assert_eq!(rows, 8 + 4 + 12 + 8, "every row of the four tables");
}

/// Plain minimax: true when the side to move wins.
fn minimax<B: Bits>(pos: &mut Position<B>) -> bool {
    let moves: Vec<Move> = pos.moves().collect();
    moves.into_iter().any(|m| {
        pos.make(m);
        let reply_wins = minimax(pos);
        pos.unmake(m);
        !reply_wins
    })
}

/// Every position within `plies` of `pos`.
fn around<B: Bits>(pos: &Position<B>, plies: u32, out: &mut Vec<Position<B>>) {
    out.push(*pos);
    if plies > 0 {
        for m in pos.moves() {
            let mut next = *pos;
            next.make(m);
            around(&next, plies - 1, out);
        }
    }
}

fn one_solver_agrees_with_minimax<B: Bits>(start: &Position<B>) -> usize {
    let mut positions = Vec::new();
    around(start, 6, &mut positions);
    let table = ProofTable::new(4);
    let stop = AtomicBool::new(false);
    // One solver for all: its move order has learnt from every solve before.
    let mut solver = Solver::new(&table, &stop, u64::MAX);
    for pos in &positions {
        let proof = solver.solve(pos).expect("no limit");
        assert_eq!(proof.win, minimax(&mut { *pos }), "{}", pos.text());
        match proof.best {
            Some(best) => {
                assert!(pos.is_legal(best), "{}", pos.text());
                let mut after = *pos;
                after.make(best);
                assert!(!minimax(&mut after), "{}", pos.text());
            }
            None => assert!(!proof.win, "no winning move given in {}", pos.text()),
        }
    }
    positions.len()
}

#[test]
fn a_solver_that_learnt_its_move_order_still_agrees_with_minimax() {
    let mut checked = 0;
    for (rows, cols) in [(4, 4), (4, 5), (3, 6)] {
        for opening in [Opening::CenterOrCorner, Opening::Center] {
            let game = Game::new(Size::new(rows, cols).unwrap(), opening);
            checked += with_position!(game.position(), p => one_solver_agrees_with_minimax(p));
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Cut short at every budget around its turns (from depth-first to proof numbers, and in
/// each leaf's own solve), a solve either gives up or proves the truth with a move that wins.
#[test]
fn proof_numbers_cut_short_give_up_or_prove_the_truth() {
    let stop = AtomicBool::new(false);
    let search = ProofNumberSearch {
        after: 50,
        leaf: 10,
        table_kib: CRAMPED,
    };
    let (mut positions, mut unfinished, mut proven) = (0, 0, 0);
    for seed in 0..12 {
        let Some(pos) = random_position(Size::new(5, 6).unwrap(), seed, 4 + seed as usize % 6)
        else {
            continue;
        };
        let truth = with_position!(pos, p => minimax(&mut { p }));
        // The nodes the whole solve takes, then budgets below and up to that.
        let table = ProofTable::new(1);
        let mut whole = Solver::new(&table, &stop, u64::MAX).with_proof_numbers(search);
        with_position!(pos, p => whole.solve(&p)).unwrap();
        let needs = whole.nodes();
        positions += 1;
        let budgets = (1..70).chain((70..needs).step_by(needs as usize / 50 + 1));
        for limit in budgets.chain([needs]) {
            let table = ProofTable::new(1);
            let mut solver = Solver::new(&table, &stop, limit).with_proof_numbers(search);
            let Ok(proof) = with_position!(pos, p => solver.solve(&p)) else {
                unfinished += 1;
                continue;
            };
            proven += 1;
            assert_eq!(proof.win, truth, "{pos} within {limit} nodes");
            if let Some(best) = proof.best {
                let mut after = pos;
                after.play(best).unwrap();
                assert!(
                    !with_position!(after, p => minimax(&mut { p })),
                    "{} does not win in {pos} within {limit} nodes",
                    pos.move_text(best)
                );
            } else {
                assert!(
                    !truth,
                    "no winning move given in {pos} within {limit} nodes"
                );
            }
        }
    }
    assert!(positions > 6, "{positions} positions");
    assert!(
        unfinished > 100 && proven >= positions,
        "{unfinished} cut short, {proven} proven"
    );
}

/// While proof numbers refute the moves of a lost position, the progress display shows a
/// share done between none and all at every cut, rising as the solve goes (the root's
/// refuted moves alone stay at none until the first of them is refuted).
#[test]
fn proof_numbers_show_how_far_a_lost_position_has_got() {
    let stop = AtomicBool::new(false);
    let search = ProofNumberSearch {
        after: 0,
        leaf: 10,
        table_kib: ROOMY,
    };
    let size = Size::new(5, 6).unwrap();
    let mut game = Game::new(size, Opening::CenterOrCorner);
    for m in ["a5", "b5"] {
        game.play(size.parse_move(m).unwrap()).unwrap();
    }
    let pos = *game.position();
    let table = ProofTable::new(16);
    let mut whole = Solver::new(&table, &stop, u64::MAX).with_proof_numbers(search);
    assert!(!with_position!(pos, p => whole.solve(&p)).unwrap().win);
    let needs = whole.nodes();
    let shares: Vec<f64> = (1..10)
        .map(|tenth| {
            let (table, tree) = (ProofTable::new(16), TreeProgress::default());
            let mut solver = Solver::new(&table, &stop, needs * tenth / 10)
                .with_proof_numbers(search)
                .with_tree_progress(&tree);
            assert!(with_position!(pos, p => solver.solve(&p)).is_err());
            tree.share()
        })
        .collect();
    assert!(shares.iter().all(|&s| s > 0.0 && s < 1.0), "{shares:?}");
    assert!(shares[8] > shares[0], "{shares:?}");
}

/// `Engine::solve` turns to proof numbers as `konane solve` does: 6x7's d3-d4 row, which
/// the depth-first search alone does not prove within 16 M nodes (it needs 22 M), the
/// engine proves within them.
#[test]
fn the_engines_long_solves_turn_to_proof_numbers() {
    let pos = AnyPosition::parse(
        "bwbwbwb/wbwbwbw/bwb.bwb/wbw.wbw/bwbwbwb/wbwbwbw b",
        Opening::CenterOrCorner,
    )
    .unwrap();
    let stop = AtomicBool::new(false);
    let budget = 16_000_000;
    let table = ProofTable::new(256);
    let alone = with_position!(pos, p => Solver::new(&table, &stop, budget).solve(&p));
    assert!(alone.is_err(), "depth-first alone proved it");
    let engine = Engine::new(EngineConfig {
        proof_mb: 256,
        ..EngineConfig::default()
    });
    let (proof, nodes) = engine.solve(&pos, budget, &stop);
    let proof = proof.expect("the engine proves it within the budget");
    assert!(!proof.win, "lost for Black (docs/solved.md)");
    assert!(nodes > ProofNumberSearch::default().after, "{nodes} nodes");
}
