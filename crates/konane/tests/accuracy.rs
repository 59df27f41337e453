//! `konane accuracy`: the labels it writes are what a fresh solve proves, and the measure
//! reads them back.

use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Color, Opening, with_position};
use konane_engine::{ProofTable, Solver};

fn konane(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(args)
        .output()
        .expect("the konane binary runs")
}

/// Whether the side to move wins, proven on a table of its own.
fn wins(pos: &AnyPosition) -> bool {
    let stop = AtomicBool::new(false);
    let table = ProofTable::new(16);
    with_position!(pos, p => Solver::new(&table, &stop, u64::MAX).solve(p))
        .expect("no limit")
        .win
}

#[test]
fn labels_name_exactly_the_winning_moves_and_the_measure_reads_them() {
    let dir = std::env::temp_dir().join(format!("konane-accuracy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("5x6.txt");
    let path = file.to_str().unwrap();
    let args = [
        "accuracy",
        "label",
        "--size",
        "5x6",
        "--plies",
        "4-10",
        "--count",
        "3",
        "--nodes",
        "5000000",
        "--table-mb",
        "16",
        "--out",
        path,
    ];
    let o = konane(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // One game's drawn ply is no label (seed 1): a later position of it stands in, and is
    // checked below as the others are.
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains(", 1 labelled after the ply drawn"), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    for line in text.lines() {
        let [position, ply, winning, legal] = line.split(';').collect::<Vec<_>>()[..] else {
            panic!("{line}");
        };
        let pos = AnyPosition::parse(position, Opening::CenterOrCorner).unwrap();
        let ply: usize = ply.parse().unwrap();
        assert!((4..=10).contains(&ply), "{line}");
        let stones = position.chars().filter(|c| matches!(c, 'b' | 'w')).count() - 1;
        // Every ply takes a stone at least (a multiple jump takes more), and Black moves at
        // the even plies.
        assert!(ply <= 30 - stones, "{line}");
        assert_eq!(pos.turn() == Color::Black, ply.is_multiple_of(2), "{line}");
        assert!(wins(&pos), "{line}");
        let winning: Vec<&str> = winning.split_whitespace().collect();
        let moves = pos.legal_move_texts();
        assert_eq!(moves.len(), legal.parse::<usize>().unwrap(), "{line}");
        assert!(winning.len() < moves.len(), "some move must lose: {line}");
        for m in &moves {
            let mut after = pos;
            after.play_text(m).unwrap();
            assert_eq!(
                winning.contains(&m.as_str()),
                !wins(&after),
                "{m} in {line}"
            );
        }
    }

    // Run again: the file is full, nothing is added.
    assert!(konane(&args).status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    let chart = dir.join("kept.svg");
    let o = konane(&[
        "accuracy",
        "run",
        path,
        "--ms",
        "5,20",
        "--svg",
        chart.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("3 positions of "), "{out}");
    for ms in ["5ms", "20ms"] {
        let row = out
            .lines()
            .find(|l| l.trim_start().starts_with(ms))
            .expect(ms);
        assert!(row.contains("/3"), "{row}");
        // Then each band of plies: together, every position once, and every win kept.
        let counts: Vec<(usize, usize)> = row
            .split_whitespace()
            .filter_map(|f| f.split_once('/'))
            .map(|(k, n)| (k.parse().unwrap(), n.parse().unwrap()))
            .collect();
        let (kept, _) = counts[0];
        let bands = &counts[2..];
        assert!(!bands.is_empty(), "{row}");
        assert_eq!(bands.iter().map(|b| b.1).sum::<usize>(), 3, "{row}");
        assert_eq!(bands.iter().map(|b| b.0).sum::<usize>(), kept, "{row}");
    }

    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    for name in ["5 ms", "20 ms", ">all (3)<", "a random move"] {
        assert!(svg.contains(name), "{name} in {svg}");
    }

    // A label that names an illegal move is refused with the line it is on.
    std::fs::write(
        &file,
        format!(
            "{text}{};7;a1-a9;3\n",
            text.lines().next().unwrap().split(';').next().unwrap()
        ),
    )
    .unwrap();
    let o = konane(&["accuracy", "run", path]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
