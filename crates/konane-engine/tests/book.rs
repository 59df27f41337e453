//! The engine plays what the solver has proven: the built-in book of solved boards from the
//! first move, and proofs found in one orientation in every symmetric one.

use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Color, Game, Opening, Size};
use konane_engine::symmetry::{image_of, symmetries};
use konane_engine::{Engine, EngineConfig, Frozen, Limits, ProofTable, book};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        hash_mb: 16,
        proof_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    })
}

/// A game move's budget: the solver gets a twentieth of it on a crowded board.
fn limits(nodes: u64) -> Limits {
    Limits {
        depth: None,
        nodes: Some(nodes),
        time_ms: None,
    }
}

#[test]
fn every_built_in_book_loads_into_an_engine_of_the_servers_size() {
    for b in book::SOLVED {
        let n = engine()
            .learn(b.proofs)
            .unwrap_or_else(|e| panic!("{}: {e}", b.name));
        assert!(n > 1000, "{}: {n} proofs", b.name);
        let size = Size::new(b.rows, b.cols).unwrap();
        assert!(
            ProofTable::boards_in(b.proofs).contains(&size),
            "{} holds no proof of its board",
            b.name
        );
    }
}

/// The boards whose proofs fill `engine`'s table (its proofs of at least 2^15 nodes).
fn boards_known(engine: &Engine) -> Vec<Size> {
    ProofTable::boards_in(&engine.proofs().checkpoint(16))
}

#[test]
fn an_engine_learns_a_book_when_its_board_first_comes() {
    let mut e = engine();
    e.learn_solved();
    assert_eq!(boards_known(&e), []);
    let mut pos = AnyPosition::start("6x6".parse().unwrap(), Opening::CenterOrCorner);
    pos.play_text("c4").unwrap();
    e.think(&pos, limits(1_000), true, &Frozen, &mut |_| {});
    assert_eq!(boards_known(&e), [], "6x6 has no book");
    let six_by_eight: Size = "6x8".parse().unwrap();
    let pos = AnyPosition::start(six_by_eight, Opening::Center);
    e.think(&pos, limits(1_000), true, &Frozen, &mut |_| {});
    assert_eq!(boards_known(&e), [six_by_eight], "6x8's book alone");
    let pos = AnyPosition::start("7x7".parse().unwrap(), Opening::Center);
    e.think(&pos, limits(1_000), true, &Frozen, &mut |_| {});
    assert_eq!(boards_known(&e).len(), 2, "then 7x7's too");
}

/// Plays `pos` out with `booked` on the book at 400,000 nodes a move, asserting that each of
/// its moves is a proven win, against a short search without the solver; `booked` wins.
fn play_out_on_the_book(pos: AnyPosition, booked: Color) {
    let mut book_side = engine();
    book_side.learn_solved();
    let other = engine();
    let mut game = Game::from_position(pos);
    while game.position().winner().is_none() {
        let pos = *game.position();
        let m = if pos.turn() == booked {
            let r = book_side.think(&pos, limits(400_000), true, &Frozen, &mut |_| {});
            assert!(
                r.proof,
                "after {}: {booked:?}'s move is not a proven win",
                game.move_texts().join(" ")
            );
            r.best
        } else {
            // The other side defends as well as a short search can.
            other
                .think(&pos, limits(20_000), false, &Frozen, &mut |_| {})
                .best
        };
        game.play(m.expect("a move while the game goes on"))
            .unwrap();
    }
    assert_eq!(
        game.position().winner(),
        Some(booked),
        "{}",
        game.move_texts().join(" ")
    );
}

#[test]
fn with_the_book_black_plays_every_move_of_7x7_as_a_proven_win() {
    let size: Size = "7x7".parse().unwrap();
    let mut after = AnyPosition::start(size, Opening::Center);
    after.play(size.parse_move("d4").unwrap()).unwrap();
    // The book was solved after d4 d3; the other three replies are its images.
    for reply in after.legal_moves() {
        let mut pos = after;
        pos.play(reply).unwrap();
        play_out_on_the_book(pos, Color::Black);
    }
}

#[test]
fn with_the_book_black_wins_7x7_from_each_corner_removal() {
    let start = AnyPosition::start("7x7".parse().unwrap(), Opening::CenterOrCorner);
    // The book was solved after a7 b7; the other corners and the reply a6 are its images.
    for corner in ["a7", "g7", "a1", "g1"] {
        let mut after = start;
        after.play_text(corner).unwrap();
        for reply in after.legal_moves() {
            let mut pos = after;
            pos.play(reply).unwrap();
            play_out_on_the_book(pos, Color::Black);
        }
    }
}

#[test]
fn with_the_book_white_plays_every_move_of_6x7_as_a_proven_win() {
    let start = AnyPosition::start("6x7".parse().unwrap(), Opening::CenterOrCorner);
    // The book holds one of each pair of mirror-image corner removals; the other is its image.
    for removal in start.legal_moves() {
        let mut pos = start;
        pos.play(removal).unwrap();
        play_out_on_the_book(pos, Color::White);
    }
}

#[test]
fn with_the_book_white_plays_every_move_of_6x8_center_as_a_proven_win() {
    let start = AnyPosition::start("6x8".parse().unwrap(), Opening::Center);
    // The book was solved after e4 d4; d3 e3 is its image under a half turn.
    for removal in start.legal_moves() {
        let mut pos = start;
        pos.play(removal).unwrap();
        play_out_on_the_book(pos, Color::White);
    }
}

#[test]
fn with_the_book_white_plays_every_move_after_6x8_corner_removals_as_a_proven_win() {
    let start = AnyPosition::start("6x8".parse().unwrap(), Opening::CenterOrCorner);
    // The book was solved after a6 b6; h1 g1 is its image under a half turn. The centre
    // removals are the center rule's (above).
    for corner in ["a6", "h1"] {
        let mut pos = start;
        pos.play_text(corner).unwrap();
        play_out_on_the_book(pos, Color::White);
    }
}

#[test]
fn without_the_book_the_same_budget_proves_nothing_on_7x7() {
    let size: Size = "7x7".parse().unwrap();
    let mut pos = AnyPosition::start(size, Opening::Center);
    pos.play_text("d4").unwrap();
    pos.play_text("d5").unwrap();
    let r = engine().think(&pos, limits(400_000), true, &Frozen, &mut |_| {});
    assert!(!r.proof);
}

#[test]
fn without_the_book_the_same_budget_proves_nothing_on_6x8() {
    for (opening, removal) in [(Opening::Center, "e4"), (Opening::CenterOrCorner, "a6")] {
        let mut pos = AnyPosition::start("6x8".parse().unwrap(), opening);
        pos.play_text(removal).unwrap();
        let r = engine().think(&pos, limits(400_000), true, &Frozen, &mut |_| {});
        assert!(!r.proof, "{removal}");
    }
}

#[test]
fn a_proof_found_in_one_orientation_is_played_in_every_other() {
    // 6x6 six and seven plies in (one of the two is won for the side to move): its quarter
    // turns carry each colour onto the other's squares.
    let mut pos = AnyPosition::start("6x6".parse().unwrap(), Opening::CenterOrCorner);
    let stop = AtomicBool::new(false);
    let mut wins_seen = 0;
    for ply in 0..8 {
        let first = pos.legal_moves()[0];
        pos.play(first).unwrap();
        if ply < 5 {
            continue;
        }
        let AnyPosition::Small(p) = pos else {
            panic!("6x6 fits in 64 bits")
        };
        let teacher = engine();
        let (proof, _) = teacher.solve(&pos, u64::MAX, &stop);
        let proof = proof.expect("6x6 is solved in moments");
        wins_seen += usize::from(proof.win);
        let mut images = 0;
        for map in symmetries(pos.size()) {
            let Some(image) = image_of(&p, &map) else {
                continue;
            };
            images += 1;
            let image = AnyPosition::Small(image);
            // Learns the proofs of `pos` alone, then is asked about its image with a budget
            // far too small to prove anything afresh.
            let learner = engine();
            learner.learn(&teacher.proofs().checkpoint(1)).unwrap();
            let r = learner.think(&image, limits(40), true, &Frozen, &mut |_| {});
            assert_eq!(r.proof, proof.win, "{image}");
            if proof.win {
                let best = r.best.expect("a winning move");
                let mut next = image;
                next.play(best).expect("a legal move of the image");
                let (reply, _) = teacher.solve(&next, u64::MAX, &stop);
                assert!(
                    !reply.unwrap().win,
                    "{} does not keep the win in {image}",
                    image.move_text(best)
                );
            }
        }
        assert_eq!(
            images, 8,
            "every symmetry of a square board has an image mid-game"
        );
    }
    assert!(wins_seen > 0);
}

/// `Engine::solve` (the analysis board's) finds a book's proof in every orientation too:
/// after either of Black's centre removals on 6x8 (e4, and d3, its image under a half turn)
/// it names White's winning reply (d4, and its image e3) within a budget that proves
/// nothing without the book.
#[test]
fn the_engines_solve_finds_the_book_in_every_orientation() {
    let stop = AtomicBool::new(false);
    let mut booked = engine();
    booked.learn_solved();
    for (removal, reply) in [("e4", "d4"), ("d3", "e3")] {
        let mut pos = AnyPosition::start("6x8".parse().unwrap(), Opening::Center);
        pos.play_text(removal).unwrap();
        let (proof, _) = booked.solve(&pos, 20_000, &stop);
        let proof = proof.unwrap_or_else(|_| panic!("{removal}: no proof with the book"));
        assert!(proof.win, "{removal}");
        assert_eq!(proof.best.map(|m| pos.move_text(m)), Some(reply.into()));
        let (without, _) = engine().solve(&pos, 20_000, &stop);
        assert!(without.is_err(), "{removal}: proven without the book");
    }
}

/// Every row of 6x8's center table (`docs/solved/6x8-center.txt`: White's four replies to
/// e4, the e3 row proven last) is in the book: the engine proves each row's result, and a
/// win's logged move, within a budget that proves none of them without the book.
#[test]
fn the_book_holds_every_row_of_6x8_center() {
    let stop = AtomicBool::new(false);
    let mut booked = engine();
    booked.learn_solved();
    let rows = include_str!("../../../docs/solved/6x8-center.txt");
    assert_eq!(rows.lines().count(), 4);
    for line in rows.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        let pos = AnyPosition::parse(fields[0], Opening::Center).unwrap();
        let (proof, _) = booked.solve(&pos, 20_000, &stop);
        let proof = proof.unwrap_or_else(|_| panic!("{line}: no proof with the book"));
        assert_eq!(proof.win, fields[1] == "win", "{line}");
        if proof.win {
            assert_eq!(proof.best.map(|m| pos.move_text(m)), Some(fields[2].into()));
        }
        let (without, _) = engine().solve(&pos, 20_000, &stop);
        assert!(without.is_err(), "{line}: proven without the book");
    }
}

/// The entries of each built-in table of a board too large to solve, one per position (the
/// table gives each under both opening rules).
fn table_entries(t: &book::Table) -> Vec<(AnyPosition, konane_engine::Proof)> {
    let entries = book::read_table(t.text).unwrap_or_else(|e| panic!("{}: {e}", t.name));
    entries
        .into_iter()
        .filter(|(pos, _)| pos.opening() == Opening::CenterOrCorner)
        .collect()
}

/// Every entry of a table that a fresh solver settles within a small budget (those near the
/// end of their lines) comes out the same, its winning move winning.
#[test]
fn a_tables_cheap_entries_prove_again_on_a_fresh_table() {
    let stop = AtomicBool::new(false);
    for t in book::TABLES {
        let entries = table_entries(t);
        assert!(
            entries.len() > 100,
            "{}: {} positions",
            t.name,
            entries.len()
        );
        let fresh = engine();
        let mut again = 0;
        for (pos, proof) in &entries {
            let Ok(p) = fresh.solve(pos, 200_000, &stop).0 else {
                continue;
            };
            again += 1;
            assert_eq!(p.win, proof.win, "{}: {pos}", t.name);
            if let Some(best) = proof.best {
                let mut after = *pos;
                after.play(best).unwrap();
                if let Ok(reply) = fresh.solve(&after, 200_000, &stop).0 {
                    assert!(!reply.win, "{}: {pos}: the table's move loses", t.name);
                }
            }
        }
        assert!(
            again * 3 >= entries.len(),
            "{}: only {again} of {} proven again",
            t.name,
            entries.len()
        );
    }
}

/// On a board too large to solve, the engine with its table plays every won position of the
/// table as a proven win at once, in every orientation, where the same budget without the
/// table proves few of them: the engine's main lines and every answer to their lost
/// positions.
#[test]
fn with_the_table_the_engine_plays_the_main_lines_and_every_deviation_as_proven() {
    for t in book::TABLES {
        let mut booked = engine();
        booked.learn_solved();
        let plain = engine();
        let (mut won, mut without) = (0, 0);
        for pos in table_entries(t)
            .into_iter()
            .filter(|(_, p)| p.win)
            .map(|(pos, _)| pos)
        {
            won += 1;
            let AnyPosition::Small(p) = pos else {
                panic!("8x8 fits in 64 bits")
            };
            for map in symmetries(pos.size()) {
                let Some(image) = image_of(&p, &map) else {
                    continue;
                };
                let image = AnyPosition::Small(image);
                let r = booked.think(&image, limits(2_000), true, &Frozen, &mut |_| {});
                assert!(r.proof, "{}: {image} is no proven win", t.name);
            }
            let r = plain.think(&pos, limits(2_000), true, &Frozen, &mut |_| {});
            without += usize::from(r.proof);
        }
        assert!(won > 50, "{}: {won} won positions", t.name);
        assert!(
            without * 2 < won,
            "{}: {without} of {won} proven without the table",
            t.name
        );
    }
}

/// The accuracy benchmark (data/accuracy-8x8.txt, docs/strength.md) measures the engine
/// with its books and tables learned: none of its positions may be in one, in any
/// orientation, or the engine would be reading the answers.
#[test]
fn no_book_or_table_holds_a_position_of_the_accuracy_benchmark() {
    use konane_engine::symmetry::canonical_key;
    let benchmark = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/accuracy-8x8.txt"
    ));
    let positions: Vec<AnyPosition> = benchmark
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| AnyPosition::parse(l.split(';').next().unwrap(), Opening::CenterOrCorner).unwrap())
        .collect();
    assert!(positions.len() >= 40);
    let known: std::collections::HashSet<String> = book::TABLES
        .iter()
        .flat_map(table_entries)
        .map(|(pos, _)| canonical_key(&pos))
        .collect();
    assert!(!known.is_empty());
    for pos in &positions {
        assert!(!known.contains(&canonical_key(pos)), "{pos} is in a table");
    }
    // The 8x8 books (none yet: 8x8 has no exact keys) would hold them in their checkpoints.
    let table = ProofTable::new(64);
    for b in book::SOLVED.iter().filter(|b| (b.rows, b.cols) == (8, 8)) {
        table.load(b.proofs).unwrap();
    }
    for pos in &positions {
        konane_core::with_position!(pos, p => assert!(table.probe(p).is_none(), "{pos}"));
    }
}

proptest::proptest! {
    /// Whatever the bytes a browser's engine is handed, reading them as a table never
    /// panics, and a damaged line of the built-in table is refused with its number or reads
    /// as a proven position whose winning move is legal.
    #[test]
    fn a_damaged_table_is_refused_by_line_or_reads(
        line_index in 0usize..10_000,
        index in 0usize..400,
        byte in proptest::prelude::any::<u8>(),
        junk in ".{0,200}",
    ) {
        let _ = book::read_table(&junk);
        let text = book::TABLES[0].text;
        let lines: Vec<&str> = text.lines().collect();
        let n = line_index % lines.len();
        let mut bytes = lines[n].as_bytes().to_vec();
        if bytes.is_empty() {
            return Ok(());
        }
        let i = index % bytes.len();
        bytes[i] = byte;
        let Ok(damaged) = String::from_utf8(bytes) else {
            return Ok(());
        };
        match book::read_table(&damaged) {
            // A newline put into a comment makes its rest a line of its own, the second.
            Err(e) => proptest::prop_assert!(
                matches!(e, konane_engine::solve::CheckpointError::BadTableLine(1 | 2)),
                "{e}"
            ),
            Ok(entries) => {
                for (pos, proof) in entries {
                    proptest::prop_assert_eq!(proof.win, proof.best.is_some());
                    if let Some(m) = proof.best {
                        proptest::prop_assert!(pos.legal_moves().contains(&m));
                    }
                }
            }
        }
    }
}
