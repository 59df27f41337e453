//! `konane lines`: every result it writes is what a fresh solve proves, a line's proven part
//! reaches back without a gap to where the node limit stopped it, its checkpoint holds the
//! line, its book holds every answer to a lost position, a run again tries nothing new,
//! and a run resumed with a larger limit ends where an unbroken run does.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use konane_core::{AnyPosition, Opening, with_position};
use konane_engine::{ProofTable, Solver, book};

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

/// A run on 5x6 whose lines are proven within `node_limit` nodes a position, its book
/// written to `{log}.book`; its table and lines (the output from the table's head, without
/// the last line, which has the time).
fn lines(dir: &Path, node_limit: u64, log: &str, checkpoint: &str) -> String {
    let limit = node_limit.to_string();
    let book = dir.join(format!("{log}.book"));
    let log = dir.join(log);
    let checkpoint = dir.join(checkpoint);
    let o = konane(&[
        "lines",
        "--size",
        "5x6",
        "--line-nodes",
        "20000",
        "--node-limit",
        &limit,
        "--table-mb",
        "16",
        "--threads",
        "2",
        "--resume",
        log.to_str().unwrap(),
        "--checkpoint",
        checkpoint.to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let (table, last) = out.trim_end().rsplit_once('\n').unwrap();
    assert!(last.ends_with("M nodes/s)"), "{out}");
    let from = table.find("removal").expect("a table");
    table[from..].to_string()
}

/// The rows of a run's table: removal, reply, the ply proven from (`None`: not at all) and
/// the ply still open (`None`: proven to the reply).
fn rows(table: &str) -> Vec<(String, String, Option<usize>, Option<usize>)> {
    let ply = |s: &str| s.parse::<usize>().ok();
    table
        .lines()
        .skip_while(|l| !l.starts_with("removal"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let proven = (f[3] == "ply").then(|| ply(f[4])).flatten();
            // The last column, "ply N (nodes)", or "-".
            let open = l
                .ends_with(')')
                .then(|| {
                    l.rsplit_once("ply ")?
                        .1
                        .split_whitespace()
                        .next()
                        .and_then(ply)
                })
                .flatten();
            (f[0].to_string(), f[1].to_string(), proven, open)
        })
        .collect()
}

/// A limit where some 5x6 line still stops short of the reply, later than at 3,000.
const MIDDLE: u64 = 30_000;

#[test]
fn lines_are_proven_back_from_their_end_and_go_on_when_run_again() {
    let dir = std::env::temp_dir().join(format!("konane-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let limit = 3_000;
    let first = lines(&dir, limit, "lines.txt", "lines.proofs");

    let log = std::fs::read_to_string(dir.join("lines.txt")).unwrap();
    let table = ProofTable::new(16);
    table
        .load(&std::fs::read(dir.join("lines.proofs")).unwrap())
        .unwrap();
    let (mut proven, mut open) = (0, 0);
    for line in log.lines() {
        let [position, result, best, nodes, _] = line.split(';').collect::<Vec<_>>()[..] else {
            panic!("{line}");
        };
        let pos = AnyPosition::parse(position, Opening::CenterOrCorner).unwrap();
        if result == "open" {
            open += 1;
            assert!(nodes.parse::<u64>().unwrap() >= limit, "{line}");
            continue;
        }
        proven += 1;
        assert_eq!(wins(&pos), result == "win", "{line}");
        let stored = with_position!(&pos, p => table.probe(p)).expect("the checkpoint holds it");
        assert_eq!(stored.win, result == "win", "{line}");
        if result == "win" {
            let mut after = pos;
            after.play_text(best).unwrap();
            assert!(!wins(&after), "{best} does not win: {line}");
        }
    }
    assert!(proven > 40 && open > 0, "{proven} proven, {open} open");

    // The book: every proven position of the log, and every answer to a lost one, each as
    // a fresh solve proves it.
    let book_text = std::fs::read_to_string(dir.join("lines.txt.book")).unwrap();
    let entries: std::collections::HashMap<String, bool> = book::read_table(&book_text)
        .unwrap()
        .into_iter()
        .filter(|(pos, _)| pos.opening() == Opening::CenterOrCorner)
        .map(|(pos, proof)| {
            assert_eq!(wins(&pos), proof.win, "{pos}");
            if let Some(m) = proof.best {
                let mut after = pos;
                after.play(m).unwrap();
                assert!(!wins(&after), "{pos}: the book's move loses");
            }
            (pos.to_string(), proof.win)
        })
        .collect();
    let mut answers = 0;
    for line in log.lines().filter(|l| l.contains(";loss;")) {
        let position = line.split(';').next().unwrap();
        assert_eq!(entries.get(position), Some(&false), "{line}");
        let pos = AnyPosition::parse(position, Opening::CenterOrCorner).unwrap();
        for m in pos.legal_moves() {
            let mut after = pos;
            after.play(m).unwrap();
            assert_eq!(entries.get(&after.to_string()), Some(&true), "{after}");
            answers += 1;
        }
    }
    assert!(answers > 10, "{answers} answers to lost positions");

    let first_rows = rows(&first);
    assert_eq!(
        first_rows.len(),
        5,
        "5x6 has five distinct opening rows: {first}"
    );
    assert!(
        first_rows
            .iter()
            .any(|r| r.3.is_some_and(|open| r.2 == Some(open + 1))),
        "some line is stopped by the limit just before where it is proven: {first}"
    );
    for (removal, reply, from, open) in &first_rows {
        if let (Some(from), Some(open)) = (from, open) {
            assert_eq!(*from, open + 1, "{removal} {reply}: a gap in {first}");
        }
    }

    // Run again: nothing new is tried (the book's answers come from the log too), the table
    // is the same.
    assert_eq!(lines(&dir, limit, "lines.txt", "lines.proofs"), first);
    assert_eq!(std::fs::read_to_string(dir.join("lines.txt")).unwrap(), log);
    assert_eq!(
        std::fs::read_to_string(dir.join("lines.txt.book")).unwrap(),
        book_text
    );

    // A larger limit goes on from the log, and ends where an unbroken run ends: at a limit
    // where some line still stops, then at one where none does.
    let strip_nodes = |t: &str| {
        rows(t)
            .into_iter()
            .map(|(a, b, c, d)| format!("{a} {b} {c:?} {d:?}"))
            .collect::<Vec<_>>()
    };
    let resumed = lines(&dir, MIDDLE, "lines.txt", "lines.proofs");
    let unbroken = lines(&dir, MIDDLE, "middle.txt", "middle.proofs");
    assert_eq!(strip_nodes(&resumed), strip_nodes(&unbroken));
    assert!(
        rows(&unbroken).iter().any(|r| r.3.is_some())
            && strip_nodes(&unbroken) != strip_nodes(&first),
        "{MIDDLE} nodes: some line stops, later than at {limit}: {first}{unbroken}"
    );
    let resumed = lines(&dir, 10_000_000, "lines.txt", "lines.proofs");
    let unbroken = lines(&dir, 10_000_000, "fresh.txt", "fresh.proofs");
    assert_eq!(strip_nodes(&resumed), strip_nodes(&unbroken));
    assert!(
        rows(&unbroken)
            .iter()
            .all(|r| r.2 == Some(2) && r.3.is_none()),
        "with room, every line is proven back to the reply: {unbroken}"
    );
    let moves = |t: &str| {
        t.lines()
            .filter(|l| l.contains(", proven from ply "))
            .count()
    };
    assert_eq!(moves(&unbroken), 5, "{unbroken}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_checkpoint_of_a_board_without_exact_keys_is_refused_before_the_lines_are_played() {
    let dir = std::env::temp_dir().join(format!("konane-lines-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (checkpoint, log) = (dir.join("8x8.proofs"), dir.join("8x8.txt"));
    let o = konane(&[
        "lines",
        "--size",
        "8x8",
        "--resume",
        log.to_str().unwrap(),
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("a checkpoint keeps exact keys only"), "{err}");
    assert!(err.contains("64 squares or more"), "{err}");
    assert!(!checkpoint.exists() && !log.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
