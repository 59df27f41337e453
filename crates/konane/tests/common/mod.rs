//! Starting the real `konane serve` for a test.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Starts `konane serve` on a free port with its database in `dir`; returns the process
/// and the address it printed (`http://127.0.0.1:PORT`).
#[allow(dead_code)]
pub fn serve(dir: &Path) -> (Child, String) {
    start(command(&[], dir, &[]))
}

/// `konane serve` as [`serve`] starts it, but with the engine playing itself at the
/// server's default pace, as visitors watch it.
#[allow(dead_code)]
pub fn serve_at_default_pace(dir: &Path) -> (Child, String) {
    start(unpaced(&[], dir, &[]))
}

/// `konane serve` as [`serve`] starts it, but with `--engine-threads 0`: the server runs
/// no engine, and browsers play the computer.
#[allow(dead_code)]
pub fn serve_without_engine(dir: &Path) -> (Child, String) {
    start(command(&[], dir, &["--engine-threads", "0"]))
}

/// `konane serve` with its database in `dir`, no rate limit and `extra` flags, run through
/// `runner` (say `prlimit …`) when it is not empty; the engine playing itself moves every
/// 300 ms, so that watching it to the end stays quick.
#[allow(dead_code)]
pub fn command(runner: &[&str], dir: &Path, extra: &[&str]) -> Command {
    let mut command = unpaced(runner, dir, extra);
    command.args(["--self-play-pace-ms", "300"]);
    command
}

fn unpaced(runner: &[&str], dir: &Path, extra: &[&str]) -> Command {
    let konane = env!("CARGO_BIN_EXE_konane");
    let mut command = match runner.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args).arg(konane);
            c
        }
        None => Command::new(konane),
    };
    command
        .args(["serve", "--port", "0", "--rate-limit", "0", "--data-dir"])
        .arg(dir)
        .args(extra)
        .env_remove("DATABASE_URL")
        .stderr(Stdio::null());
    command
}

/// Spawns a `konane serve` command and reads the address it prints.
pub fn start(mut command: Command) -> (Child, String) {
    let mut child = command
        .stdout(Stdio::piped())
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
