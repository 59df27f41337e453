//! `konane loadtest` against real `konane serve` instances: every game plays, nothing fails,
//! the figures are printed, across two instances sharing PostgreSQL every move is seen on
//! the other instance too, and an arena pairs its free players within 2 s.

mod common;

use std::process::{Child, Command};

use serde_json::Value;

/// Every game comes from 127.0.0.1: lift the per-address caps, as docs/api.md says.
const UNCAPPED: [&str; 4] = [
    "--max-connections-per-address",
    "0",
    "--max-sockets-per-address",
    "0",
];

/// Runs the load test against `urls` (the first one's process is `first`) and returns its
/// output, after checking it succeeded.
fn load(urls: &[String], first: &Child, games: usize, moves: usize) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_konane"));
    command.arg("loadtest");
    for url in urls {
        command.args(["--url", url]);
    }
    let out = command
        .args(["--games", &games.to_string(), "--moves", &moves.to_string()])
        .args(["--think-ms", "20", "--server-pid", &first.id().to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{games} concurrent games")),
        "{stdout}"
    );
    assert!(stdout.contains("errors            0"), "{stdout}");
    stdout
}

fn stop(mut server: Child) {
    server.kill().unwrap();
    server.wait().unwrap();
}

#[test]
fn the_load_test_plays_its_games() {
    let dir = std::env::temp_dir().join(format!("konane-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (server, url) = common::start(common::command(&[], &dir, &UNCAPPED));
    let stdout = load(&[url], &server, 40, 5);
    stop(server);
    std::fs::remove_dir_all(&dir).ok();
    assert!(stdout.contains("200 moves"), "{stdout}");
    assert!(stdout.contains("KiB per game"), "{stdout}");
}

/// Two instances on one PostgreSQL database (KONANE_TEST_POSTGRES; CI sets it): games are
/// spread over both, and every move sent to one arrives on the other's socket.
#[test]
fn across_two_instances_every_move_reaches_the_other() {
    let Ok(database) = std::env::var("KONANE_TEST_POSTGRES") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must set KONANE_TEST_POSTGRES"
        );
        eprintln!("SKIPPED: set KONANE_TEST_POSTGRES to run the load test on PostgreSQL");
        return;
    };
    let dir = std::env::temp_dir().join(format!("konane-load-pg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut flags = UNCAPPED.to_vec();
    flags.extend(["--database", &database]);
    let (a, url_a) = common::start(common::command(&[], &dir, &flags));
    let (b, url_b) = common::start(common::command(&[], &dir, &flags));
    let stdout = load(&[url_a, url_b], &a, 30, 6);
    stop(a);
    stop(b);
    std::fs::remove_dir_all(&dir).ok();
    assert!(stdout.contains("on 2 instances"), "{stdout}");
    assert!(stdout.contains("180 moves"), "{stdout}");
    assert!(
        stdout.contains("cross-instance    180 of 180 moves seen on the other instance"),
        "{stdout}"
    );
}

/// A seconds-long arena (`loadtest --arena`): eight players from their own addresses
/// register, join, are paired and play; games end, and every pairing, the first wave's
/// included, comes within 2 s of the player becoming free.
#[test]
fn an_arena_pairs_its_free_players_within_two_seconds() {
    let dir = std::env::temp_dir().join(format!("konane-load-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (server, url) = common::start(common::command(&[], &dir, &[]));
    let out = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args([
            "loadtest",
            "--url",
            &url,
            "--arena",
            "8",
            "--duration",
            "5s",
        ])
        .args(["--think", "50ms", "--moves", "4", "--json"])
        .output()
        .unwrap();
    stop(server);
    std::fs::remove_dir_all(&dir).ok();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let arena = &report["arena"];
    assert_eq!(arena["players"], 8, "{report:#}");
    assert_eq!(arena["errors"], 0, "{report:#}");
    assert!(report["baseline"].is_null(), "{report:#}");
    // Four moves a player at 50 ms: a game lasts about a second, so at least the first
    // wave's four end, and their players are paired again.
    let games = arena["games"].as_u64().unwrap();
    assert!(games >= 4, "{report:#}");
    assert!(arena["moves"].as_u64().unwrap() >= 4 * games, "{report:#}");
    let seen = arena["pairings"].as_u64().unwrap() + arena["waiting_at_end"].as_u64().unwrap();
    assert!(
        seen >= games,
        "the freed players were paired or are waiting: {report:#}"
    );
    assert_eq!(arena["paired_within_2s"], 1.0, "{report:#}");
    assert!(
        arena["start_pairing_ms"]["max"].as_f64().unwrap() <= 2000.0,
        "{report:#}"
    );
    assert!(
        arena["pairing_ms"]["max"].as_f64().unwrap() <= 2000.0,
        "{report:#}"
    );
    assert!(
        arena["round_trip_ms"]["p50"].as_f64().unwrap() > 0.0,
        "{report:#}"
    );
}
