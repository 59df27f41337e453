//! `konane loadtest` against a real `konane serve`: every game plays, nothing fails, and the
//! figures are printed.

mod common;

use std::process::Command;

#[test]
fn the_load_test_plays_its_games() {
    let dir = std::env::temp_dir().join(format!("konane-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Every game comes from 127.0.0.1: lift the per-address caps, as docs/api.md says.
    let (mut server, url) = common::start(common::command(
        &[],
        &dir,
        &[
            "--max-connections-per-address",
            "0",
            "--max-sockets-per-address",
            "0",
        ],
    ));
    let out = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args([
            "loadtest",
            "--url",
            &url,
            "--games",
            "40",
            "--moves",
            "5",
            "--think-ms",
            "20",
        ])
        .args(["--server-pid", &server.id().to_string()])
        .output()
        .unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("40 concurrent games"), "{stdout}");
    assert!(stdout.contains("200 moves"), "{stdout}");
    assert!(stdout.contains("errors            0"), "{stdout}");
    assert!(stdout.contains("KiB per game"), "{stdout}");
}
