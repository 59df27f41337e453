//! `konane loadtest` against a real `konane serve`: every game plays, nothing fails, and the
//! figures are printed.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn the_load_test_plays_its_games() {
    let dir = std::env::temp_dir().join(format!("konane-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(["serve", "--port", "0", "--rate-limit", "0", "--data-dir"])
        .arg(&dir)
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
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
