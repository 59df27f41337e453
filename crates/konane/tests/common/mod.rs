//! Starting the real `konane serve` for a test.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts `konane serve` on a free port with its database in `dir`; returns the process
/// and the address it printed (`http://127.0.0.1:PORT`).
pub fn serve(dir: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_konane"))
        .args([
            "serve",
            "--port",
            "0",
            "--rate-limit",
            "0",
            "--self-play-pace-ms",
            "300",
        ])
        .arg("--data-dir")
        .arg(dir)
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("konane serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, base)
}
