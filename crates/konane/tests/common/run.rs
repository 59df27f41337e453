//! The `konane` binary run as a user runs it, and what it printed.

use std::process::{Command, Output};

/// Runs `konane` with `args` and waits for it.
pub fn konane(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_konane"))
        .args(args)
        .output()
        .expect("the konane binary runs")
}

/// What it printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
