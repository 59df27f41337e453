//! A program that speaks the engine protocol (docs/engine-protocol.md), driven over its
//! standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use konane_core::{Game, Move, Opening, Size};

use super::player::Player;

/// A running external engine.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    go: String,
    timeout: Duration,
}

impl External {
    /// Starts `command` with `sh -c` and checks that it speaks the protocol; `go` is what it
    /// is told after `go`, and `timeout` how long an answer may take.
    pub fn start(command: &str, go: &str, timeout: Duration) -> Result<External> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting '{command}'"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| anyhow!("no stdin for '{command}'"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("no stdout for '{command}'"))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            child,
            stdin,
            lines,
            go: go.to_string(),
            timeout,
        };
        e.send("protocol")?;
        e.expect_ok()?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .context("the engine closed its input")
    }

    fn next_line(&mut self) -> Result<String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                bail!("the engine did not answer within {:?}", self.timeout)
            }
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
        }
    }

    fn expect_ok(&mut self) -> Result<()> {
        loop {
            let line = self.next_line()?;
            if line == "ok" {
                return Ok(());
            }
            if let Some(e) = line.strip_prefix("error") {
                bail!("the engine said: {}", e.trim());
            }
        }
    }
}

impl Player for External {
    /// External engines pick their own random choices: the seed is not passed on.
    fn new_game(&mut self, size: Size, opening: Opening, _seed: u64) -> Result<()> {
        self.send(&format!("newgame {size} {opening}"))?;
        self.expect_ok()
    }

    fn choose(&mut self, game: &Game) -> Result<Move> {
        let start = game.start();
        self.send(&format!("position {start} opening {}", start.opening()))?;
        self.expect_ok()?;
        if game.ply() > 0 {
            self.send(&format!("moves {}", game.move_texts().join(" ")))?;
            self.expect_ok()?;
        }
        let go = format!("go {}", self.go);
        self.send(go.trim_end())?;
        loop {
            let line = self.next_line()?;
            if let Some(m) = line.strip_prefix("bestmove ") {
                return game
                    .size()
                    .parse_move(m)
                    .map_err(|e| anyhow!("the engine answered '{m}': {e}"));
            }
            if let Some(e) = line.strip_prefix("error") {
                bail!("the engine said: {}", e.trim());
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
