//! The command line's conventions (docs/cli.md), run as a user runs them: `--json`
//! documents, exit codes, listed values in `--help`, `serve` settings from the
//! environment, completion scripts and the older spellings of flags.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};

use serde_json::Value;

#[path = "common/run.rs"]
mod run;
use run::{konane, stderr, stdout};

/// Runs a `--json` command, checks it succeeded, and parses its whole stdout as one
/// document: any other text on stdout fails the parse.
fn json(args: &[&str]) -> Value {
    let o = konane(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}): {}", stdout(&o)))
}

fn texts(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|m| m.as_str().unwrap_or_else(|| panic!("not a string: {m}")))
        .collect()
}

const START_8X8: &str = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";

#[test]
fn perft_json_counts_the_leaves() {
    // The independent Python tables (crates/konane-core/tests/data/perft.txt): 12 at depth 2.
    let v = json(&["perft", "--depth", "2", "--json"]);
    assert_eq!(v["leaves"], 12, "{v}");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["position"], START_8X8);
    assert!(v["divide"].is_null(), "{v}");
    assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
    assert_eq!(v["threads"].as_u64().map(|t| t >= 1), Some(true), "{v}");

    let v = json(&[
        "perft",
        "--depth",
        "5",
        "--divide",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["leaves"], 892);
    assert_eq!(v["threads"], 1);
    let divide = v["divide"].as_array().expect("the counts per first move");
    let per_move: Vec<(&str, u64)> = divide
        .iter()
        .map(|d| (d["move"].as_str().unwrap(), d["leaves"].as_u64().unwrap()))
        .collect();
    assert_eq!(per_move, [("a8", 20), ("d5", 426), ("e4", 426), ("h1", 20)]);
}

#[test]
fn moves_json_lists_the_moves() {
    let v = json(&["moves", START_8X8, "--json"]);
    assert_eq!(texts(&v["moves"]), ["a8", "d5", "e4", "h1"]);
    assert_eq!(v["turn"], "black");
    assert_eq!(v["position"], START_8X8);
    let v = json(&["moves", START_8X8, "--opening", "center", "--json"]);
    assert_eq!(texts(&v["moves"]), ["d5", "e4"]);
    // Black to move with no jump left: no moves.
    let v = json(&["moves", "..bw b", "--json"]);
    assert_eq!(texts(&v["moves"]), Vec::<&str>::new());
}

#[test]
fn analyze_json_gives_the_best_move_and_every_iteration() {
    let pos = "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b";
    let v = json(&[
        "analyze",
        pos,
        "--depth",
        "4",
        "--threads",
        "1",
        "--hash-mib",
        "8",
        "--json",
    ]);
    let legal = json(&["moves", pos, "--json"]);
    let best = v["best"].as_str().expect("a best move");
    assert!(texts(&legal["moves"]).contains(&best), "{v}");
    assert_eq!(v["turn"], "black");
    let line = texts(&v["line"]);
    assert_eq!(line.first(), Some(&best), "{v}");
    let iterations = v["iterations"].as_array().expect("iterations");
    assert!(!iterations.is_empty(), "{v}");
    assert!(v["depth"].as_u64().is_some_and(|d| d >= 1), "{v}");
    for it in iterations {
        for field in ["depth", "score", "nodes", "ms"] {
            assert!(it[field].is_number(), "{field} in {it}");
        }
        assert!(
            it["score_text"].is_string() && it["proof"].is_boolean(),
            "{it}"
        );
    }
    assert!(
        v["score"].is_i64() && v["nodes"].as_u64().is_some_and(|n| n > 0),
        "{v}"
    );

    // No move: the side to move has lost, and the document says so.
    let v = json(&["analyze", "..bw b", "--depth", "1", "--json"]);
    assert!(v["best"].is_null(), "{v}");
    assert_eq!(v["winner"], "white");
}

#[test]
fn solve_json_agrees_with_the_text_run() {
    let args = [
        "solve",
        "--size",
        "4x4",
        "--threads",
        "1",
        "--table-mib",
        "8",
    ];
    let text = stdout(&konane(&args));
    let v = json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["size"], "4x4");
    assert_eq!(v["opening"], "center-or-corner");
    assert_eq!(v["positions"], 12);
    assert_eq!(v["distinct"], 3);
    // 4x4 is White's: every first removal has a winning reply.
    assert_eq!(v["winner"], "white");
    assert_eq!(texts(&v["winning_removals"]), Vec::<&str>::new());
    let verdict = v["verdict"].as_str().expect("a verdict");
    assert!(text.contains(verdict), "{verdict} not in {text}");
    assert!(v["keys"].as_str().is_some_and(|k| text.contains(k)), "{v}");
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 12);
    for row in rows {
        let removal = row["removal"].as_str().expect("a removal");
        let reply = row["reply"].as_str().expect("a reply");
        let winner = row["winner"].as_str().expect("a winner");
        let best = row["best"].as_str().unwrap_or("-");
        // The same row in the text table: removal, reply, winner, best move.
        let line = format!("{removal:<8} {reply:<8} {winner:<7} {best:<10}");
        assert!(text.contains(&line), "{line:?} not in {text}");
        // After the reply Black moves: a winning Black has a move, a losing one none.
        assert_eq!(row["best"].is_string(), winner == "black", "{row}");
    }
    assert!(v["nodes"].as_u64().is_some_and(|n| n > 0), "{v}");

    // One position: one row, no removal or reply.
    let v = json(&[
        "solve",
        "--position",
        "bwbw/w..b/bwbw/wbwb b",
        "--table-mb",
        "8",
        "--json",
    ]);
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]["removal"].is_null() && rows[0]["reply"].is_null(),
        "{v}"
    );
    assert_eq!(v["winner"], rows[0]["winner"]);
    assert_eq!(v["winner"], "white", "the 4x4 table proves it White's");
}

#[test]
fn solve_bench_json_has_a_board_a_rule() {
    let v = json(&[
        "solve",
        "--bench",
        "4x4",
        "--table-mib",
        "8",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(v["threads"], 1);
    assert_eq!(v["table_mib"], 8);
    let boards = v["boards"].as_array().expect("boards");
    let rules: Vec<&str> = boards
        .iter()
        .map(|b| b["opening"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["center-or-corner", "center"]);
    let nodes: u64 = boards.iter().map(|b| b["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["nodes"].as_u64(), Some(nodes));
    assert!(
        boards
            .iter()
            .all(|b| b["size"] == "4x4" && b["verdict"].is_string())
    );
}

#[test]
fn solve_json_refuses_the_text_only_reports() {
    let o = konane(&["solve", "--size", "4x4", "--json", "--recheck"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn match_json_and_the_sprt_exit_codes() {
    let quick = |black: &str, white: &str, extra: &[&str]| {
        let mut args = vec!["match", "--black", black, "--white", white, "--size", "6x6"];
        args.extend_from_slice(extra);
        args.push("--json");
        let o = konane(&args);
        let v: Value = serde_json::from_str(&stdout(&o))
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)));
        (o.status.code(), v)
    };
    let (code, v) = quick("level 1", "level 2", &["--games", "2"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["games"], 2);
    assert_eq!(v["pairs"], 1);
    assert_eq!(v["players"][0]["name"], "level 1");
    assert_eq!(v["players"][1]["name"], "level 2");
    let wins = |k: usize| v["players"][k]["wins"].as_u64().expect("wins");
    assert_eq!(wins(0) + wins(1), 2);
    let pairs = ["won", "split", "lost"].map(|f| v[f].as_u64().expect(f));
    assert_eq!(pairs.iter().sum::<u64>(), 1, "{v}");
    assert!(
        v["score"]
            .as_f64()
            .is_some_and(|s| (0.0..=1.0).contains(&s))
    );
    assert!(v["sprt"].is_null());

    // A test that cannot decide in one pair: undecided, exit code 4.
    let (code, v) = quick(
        "level 1",
        "level 2",
        &["--games", "2", "--sprt", "elo0=0,elo1=5"],
    );
    assert_eq!(code, Some(4), "{v}");
    assert_eq!(v["sprt"]["verdict"], "undecided");
    assert_eq!(v["sprt"]["test"], "elo0=0,elo1=5,alpha=0.05,beta=0.05");
    // Depth 1 against depth 3, a wide test: H0 (exit code 3); the other way round, H1 (0).
    let wide = ["--games", "100", "--sprt", "elo0=0,elo1=200"];
    let (code, v) = quick("depth 1", "depth 3", &wide);
    assert_eq!(
        (code, &v["sprt"]["verdict"]),
        (Some(3), &Value::from("H0")),
        "{v}"
    );
    assert!(
        v["games"].as_u64().is_some_and(|g| g < 100),
        "the test stopped the match"
    );
    let (code, v) = quick("depth 3", "depth 1", &wide);
    assert_eq!(
        (code, &v["sprt"]["verdict"]),
        (Some(0), &Value::from("H1")),
        "{v}"
    );
}

#[test]
fn usage_errors_exit_with_2_and_errors_with_1() {
    let o = konane(&["perft", "--depth", "x"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = konane(&["moves", "bwbw/wbw b"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn help_shows_possible_values_and_environment_variables() {
    let help = stdout(&konane(&["perft", "--help"]));
    assert!(
        help.contains("[possible values: center-or-corner, center]"),
        "{help}"
    );
    let help = stdout(&konane(&["play", "--help"]));
    assert!(help.contains("[possible values: black, white]"), "{help}");
    assert!(
        help.contains("[possible values: 1, 2, 3, 4, 5, 6, 7, 8]"),
        "{help}"
    );
    let help = stdout(&konane(&["serve", "--help"]));
    assert!(help.contains("[env: KONANE_PORT="), "{help}");
    assert!(help.contains("[env: KONANE_HEADER_TIMEOUT="), "{help}");
    assert!(help.contains("[default: 10s]"), "{help}");
    // The older spellings stay hidden.
    assert!(!help.contains("abort-after-secs"), "{help}");
    // A database URL holds a password: its value is never shown.
    let o = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(["serve", "--help"])
        .env("KONANE_DATABASE", "postgres://u:secret@h/db")
        .output()
        .expect("runs");
    assert!(!stdout(&o).contains("secret"), "{}", stdout(&o));
}

#[test]
fn listed_values_keep_their_older_spellings() {
    let o = konane(&["moves", START_8X8, "--opening", "CENTER"]);
    assert_eq!(stdout(&o), "d5\ne4\n", "{}", stderr(&o));
    let o = konane(&["perft", "--depth", "1", "--opening", "corner"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'corner' is not an opening rule"),
        "{}",
        stderr(&o)
    );
    let o = konane(&["play", "--level", "9"]);
    assert_eq!(o.status.code(), Some(2));
    // `--color w` still means White: the engine, Black, moves first.
    let o = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(["play", "--size", "4x4", "--color", "w", "--level", "1"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(stdout(&o).starts_with("You play white"), "{}", stdout(&o));
    assert!(stdout(&o).contains("black plays"), "{}", stdout(&o));
}

#[test]
fn old_size_and_duration_spellings_still_work() {
    for args in [
        vec!["analyze", START_8X8, "--depth", "1", "--hash-mb", "8"],
        vec!["analyze", START_8X8, "--time", "0.05", "--hash-mib", "8"],
        vec!["analyze", START_8X8, "--time", "50ms", "--threads", "1"],
        vec!["solve", "--size", "4x4", "--table-mb", "8"],
        vec!["solve", "--size", "4x4", "--table-mib", "8"],
    ] {
        let o = konane(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    for args in [
        vec!["analyze", START_8X8, "--time", "0"],
        vec!["analyze", START_8X8, "--time", "soon"],
        vec!["solve", "--size", "4x4", "--table-mib", "0"],
    ] {
        let o = konane(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn completion_scripts_are_printed() {
    let o = konane(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(script.contains("_konane()"), "{script}");
    assert!(script.contains("complete -F _konane"), "{script}");
    assert!(
        script.contains("center-or-corner"),
        "the listed values complete"
    );
    assert!(stdout(&konane(&["completions", "zsh"])).starts_with("#compdef konane"));
    assert!(stdout(&konane(&["completions", "fish"])).contains("complete -c konane"));
    assert_eq!(konane(&["completions", "tcsh"]).status.code(), Some(2));
}

/// A port free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `konane` with `args`, its `serve` flags set through the environment and the older
/// spellings of its durations, answers on the port `KONANE_PORT` names.
fn serves_from_the_environment(args: &[&str], name: &str) {
    let dir = std::env::temp_dir().join(format!("konane-env-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(args)
        .env("KONANE_PORT", port.to_string())
        .env("KONANE_BIND", "127.0.0.1")
        .env("KONANE_DATA_DIR", &dir)
        .env("KONANE_HEADER_TIMEOUT", "10")
        .env("KONANE_ABORT_AFTER", "15m")
        .env("KONANE_ENGINE_THREADS", "1")
        .env_remove("DATABASE_URL")
        .env_remove("KONANE_DATABASE")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("konane serve starts");
    let mut line = String::new();
    let read = BufReader::new(child.stdout.take().expect("piped stdout")).read_line(&mut line);
    let reached = TcpStream::connect(("127.0.0.1", port)).is_ok();
    let _ = child.kill();
    let _ = child.wait();
    let database = dir.join("konane.db").exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(read.is_ok(), "no address line");
    assert!(
        line.contains(&format!("http://127.0.0.1:{port}")),
        "{args:?}: {line:?}"
    );
    assert!(reached, "{args:?}: nothing listens on {port}");
    assert!(database, "{args:?}: no konane.db in KONANE_DATA_DIR");
}

#[test]
fn serve_reads_its_flags_from_the_environment() {
    serves_from_the_environment(
        &[
            "serve",
            "--abort-after-secs",
            "600",
            "--self-play-pace-ms",
            "300",
        ],
        "serve",
    );
    // Bare `konane` serves too, with the environment's settings.
    serves_from_the_environment(&[], "bare");
}
