//! The `konane` binary, run as a user would run it.

#[path = "common/run.rs"]
mod run;
use run::{konane, stderr, stdout};

const START_8X8: &str = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";

#[test]
fn perft_prints_counts_and_speed() {
    let o = konane(&["perft", "--size", "8x8", "--depth", "5", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("leaves  892\n"), "{out}");
    assert!(out.contains("time ") && out.contains("M leaves/s"), "{out}");
}

#[test]
fn perft_divides_and_takes_positions() {
    let o = konane(&["perft", "--depth", "5", "--divide", "--position", START_8X8]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("a8 20\nd5 426\ne4 426\nh1 20\n"), "{out}");
    let o = konane(&[
        "perft",
        "--depth",
        "1",
        "--opening",
        "center",
        "--threads",
        "1",
    ]);
    assert!(stdout(&o).contains("leaves  2\n"), "{}", stdout(&o));
}

#[test]
fn moves_lists_legal_moves_sorted() {
    let o = konane(&[
        "moves",
        "..bwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b",
    ]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "a6-a8\n");
    let o = konane(&["moves", START_8X8, "--opening", "center"]);
    assert_eq!(stdout(&o), "d5\ne4\n");
}

#[test]
fn show_draws_the_board() {
    let o = konane(&["show", "bwbw/wbwb/bwbw/wbwb b"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("a b c d"), "{out}");
    assert!(out.contains(" 4  ● ○ ● ○  4"), "{out}");
    assert!(out.contains("Black to remove a stone (4 choices)"), "{out}");
}

#[test]
fn bad_input_fails_with_one_line() {
    for args in [
        vec!["moves", "bw/wq b"],
        vec!["show", "bwbw/wbw b"],
        vec!["perft", "--depth", "3", "--size", "17x3"],
        vec!["perft", "--depth", "3", "--opening", "corner"],
        vec!["perft", "--depth", "3", "--threads", "0"],
        vec!["perft", "--depth", "x"],
        vec!["solve", "--size", "4x4", "--table-mb", "99999999999999"],
        vec!["solve", "--size", "4x4", "--table-mb", "0"],
        vec!["lines", "--size", "4x4", "--table-mb=-1"],
        vec!["accuracy", "label", "--count", "1", "--table-mb", "1048577"],
        vec!["puzzles", "generate", "--count", "1", "--table-mb", "lots"],
        vec!["engine", "--hash-mb", "99999999999999"],
    ] {
        let o = konane(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = stderr(&o);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
            "{args:?}: {err}"
        );
    }
    let o = konane(&["moves", "bwbw/wbw b"]);
    assert_eq!(
        stderr(&o),
        "error: bad position \"bwbw/wbw b\": row 2 has 3 squares, expected 4\n"
    );
    // A size whose bytes overflow a word once panicked allocating it.
    let o = konane(&["solve", "--table-mb", "99999999999999"]);
    assert!(
        stderr(&o).contains("is not a table size: a whole number of MiB from 1 to 1048576"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "", "nothing is solved");
}
