//! `konane match` run as a user would: seeds, opening suites, pair counts, the SPRT.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The committed 8x8 suite.
const SUITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openings/8x8.txt");

/// Runs `konane` and checks its exit code (a match's SPRT verdict, docs/cli.md).
fn konane_exiting(args: &[&str], code: i32) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(args)
        .output()
        .expect("the konane binary runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("konane-matchplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Plays a match and returns its report and the records it wrote.
fn play(args: &[&str], name: &str) -> (String, String) {
    play_exiting(args, name, 0)
}

/// Plays a match that exits with `code`, and returns its report and the records it wrote.
fn play_exiting(args: &[&str], name: &str, code: i32) -> (String, String) {
    let records = temp(name);
    let path = records.to_str().unwrap();
    let out = konane_exiting(&[&["match", "--records", path], args].concat(), code);
    let records = std::fs::read_to_string(&records).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), records)
}

/// The move lists of every game in a file of records, one string per game.
fn move_lists(records: &str) -> Vec<String> {
    records
        .split("[Event ")
        .skip(1)
        .map(|game| {
            game.lines()
                .skip(1)
                .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The first `plies` move texts of a game's move list (move numbers dropped).
fn opening(moves: &str, plies: usize) -> Vec<&str> {
    moves
        .split_whitespace()
        .filter(|w| !w.ends_with('.') && !w.starts_with('{'))
        .take(plies)
        .collect()
}

/// The number after `label` in `text`.
fn number_after(text: &str, label: &str) -> usize {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no '{label}' in {text}"))
        + label.len();
    text[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after '{label}' in {text}"))
}

#[test]
fn neighbouring_seeds_play_different_openings() {
    let args = |seed| {
        [
            "--black",
            "depth 1",
            "--white",
            "depth 1",
            "--games",
            "10",
            "--random-plies",
            "4",
            "--seed",
            seed,
        ]
    };
    let (_, two) = play(&args("2"), "seed2.txt");
    let (_, three) = play(&args("3"), "seed3.txt");
    let openings = |records: &str| -> Vec<Vec<String>> {
        move_lists(records)
            .iter()
            .map(|m| opening(m, 4).into_iter().map(String::from).collect())
            .collect()
    };
    let (two, three) = (openings(&two), openings(&three));
    assert_eq!(two.len(), 10);
    // The twins of a pair share their opening; no two pairs do here, and seed 3's differ.
    for pair in two.chunks(2).chain(three.chunks(2)) {
        assert_eq!(pair[0], pair[1]);
    }
    let mut firsts: Vec<_> = two.iter().step_by(2).collect();
    firsts.dedup();
    assert!(firsts.len() > 1, "{two:?}");
    for (a, b) in two.iter().zip(&three).step_by(2) {
        assert_ne!(a, b, "seeds 2 and 3 start a pair alike");
    }
}

#[test]
fn a_suite_match_replays_and_its_pairs_add_up() {
    let args = |concurrency| {
        [
            "--black",
            "level 3",
            "--white",
            "level 2",
            "--games",
            "12",
            "--openings",
            SUITE,
            "--seed",
            "5",
            "--concurrency",
            concurrency,
        ]
    };
    let (report, first) = play(&args("2"), "suite1.txt");
    let (_, again) = play(&args("2"), "suite2.txt");
    let (_, alone) = play(&args("1"), "suite3.txt");
    assert_eq!(first, again);
    assert_eq!(first, alone);
    let games = move_lists(&first);
    assert_eq!(games.len(), 12);
    let suite = std::fs::read_to_string(SUITE).unwrap();
    let lines: Vec<&str> = suite
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .collect();
    for (k, pair) in games.chunks(2).enumerate() {
        let moves: Vec<&str> = lines[k].split_whitespace().collect();
        assert_eq!(opening(&pair[0], moves.len()), moves);
        assert_eq!(opening(&pair[1], moves.len()), moves);
    }
    let (won, split, lost) = (
        number_after(&report, "level 3 won"),
        number_after(&report, "split"),
        number_after(&report, "lost"),
    );
    assert_eq!(won + split + lost, 6, "{report}");
    let wins = number_after(&report, "\nlevel 3 ");
    assert_eq!(wins, 2 * won + split, "{report}");
    assert!(
        report.contains(&format!("pentanomial {lost}, 0, {split}, 0, {won}")),
        "{report}"
    );
    assert!(report.contains("12 games (6 pairs)"), "{report}");
}

#[test]
fn the_sprt_accepts_the_stronger_and_rejects_the_weaker() {
    // H1 accepted exits 0, rejected (H0 accepted) 3.
    for (black, white, verdict, code) in [
        ("depth 6", "depth 2", "accepted", 0),
        ("depth 2", "depth 6", "rejected", 3),
    ] {
        let (report, records) = play_exiting(
            &[
                "--black",
                black,
                "--white",
                white,
                "--games",
                "60",
                "--openings",
                SUITE,
                "--sprt",
                "elo0=0,elo1=100",
            ],
            "sprt.txt",
            code,
        );
        assert!(report.contains(&format!("{verdict} after")), "{report}");
        let pairs = number_after(&report, &format!("{verdict} after"));
        assert!(pairs < 30, "{report}");
        assert_eq!(move_lists(&records).len(), 2 * pairs);
        assert!(report.contains("LLR"), "{report}");
    }
}

#[test]
fn bad_match_settings_are_refused() {
    for (args, says) in [
        (vec!["--games", "5"], "even"),
        (vec!["--sprt", "elo0=5,elo1=0"], "elo1 must be above elo0"),
        (
            vec!["--openings", "/nonexistent/suite.txt"],
            "reading /nonexistent",
        ),
        (vec!["--openings", SUITE, "--size", "6x6"], "on 6x6"),
        (
            vec!["--openings", SUITE, "--random-plies", "2"],
            "cannot be used with",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_konane"))
            .args(["match", "--black", "depth 1", "--white", "depth 1"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{args:?}: {err}"
        );
    }
}
