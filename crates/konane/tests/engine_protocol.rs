//! The engine protocol over a real pipe to the built binary, and a match that drives it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn konane() -> Command {
    Command::new(env!("CARGO_BIN_EXE_konane"))
}

/// Sends each command and collects the replies up to the line that ends it.
struct Pipe {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Pipe {
    fn start() -> Pipe {
        let mut child = konane()
            .args(["engine", "--threads", "1", "--hash-mb", "8"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("konane engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Pipe {
            child,
            stdin,
            stdout,
        }
    }

    /// Replies to `command`, through the first line for which `last` holds.
    fn ask(&mut self, command: &str, last: impl Fn(&str) -> bool) -> Vec<String> {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "engine closed after {lines:?}"
            );
            let line = line.trim_end().to_string();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn ok(&mut self, command: &str) -> Vec<String> {
        self.ask(command, |l| l == "ok" || l.starts_with("error"))
    }
}

#[test]
fn the_protocol_answers_over_a_pipe() {
    let mut e = Pipe::start();
    let hello = e.ok("protocol");
    assert_eq!(hello[0], "protocol konane 1");
    assert!(hello[1].starts_with("name Konane engine"));
    assert_eq!(hello.last().unwrap(), "ok");
    assert_eq!(e.ok("newgame 6x6 center"), ["ok"]);
    assert_eq!(e.ask("legal", |_| true), ["legal c4 d3"]);
    assert_eq!(e.ok("moves d3 d4"), ["ok"]);
    assert_eq!(
        e.ask("show", |_| true),
        ["position bwbwbw/wbwbwb/bwb.bw/wbw.wb/bwbwbw/wbwbwb b"]
    );
    let think = e.ask("go depth 3", |l| l.starts_with("bestmove"));
    assert!(
        think.iter().any(|l| l.starts_with("info depth 3 score ")),
        "{think:?}"
    );
    let best = think
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    let legal = e.ask("legal", |_| true)[0].clone();
    assert!(
        legal.split(' ').skip(1).any(|m| m == best),
        "{best} not in {legal}"
    );
    // A bad move is refused and changes nothing.
    let refused = e.ok("moves b5-b3 zz9");
    assert!(
        refused[0].starts_with("error move 1 (b5-b3)") || refused[0].starts_with("error move 2"),
        "{refused:?}"
    );
    assert_eq!(
        e.ask("show", |_| true),
        ["position bwbwbw/wbwbwb/bwb.bw/wbw.wb/bwbwbw/wbwbwb b"]
    );
    assert!(e.ok("position bw.w/wbwb b")[0].starts_with("error"));
    assert_eq!(e.ok("position ..../..../...b/..wb w"), ["ok"]);
    assert_eq!(
        e.ask("go depth 2", |l| l.starts_with("bestmove"))
            .last()
            .unwrap(),
        "bestmove none"
    );
    assert!(e.ask("fly", |_| true)[0].starts_with("error unknown command"));
    writeln!(e.stdin, "quit").unwrap();
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_match_drives_an_external_engine() {
    let dir = std::env::temp_dir().join(format!("konane-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.txt");
    let external = format!(
        "cmd:{} engine --threads 1 --hash-mb 4",
        env!("CARGO_BIN_EXE_konane")
    );
    let out = konane()
        .args([
            "match", "--black", "level 2", "--white", &external, "--go", "level 1",
        ])
        .args(["--games", "6", "--size", "5x5", "--concurrency", "2"])
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("6 games"), "{stdout}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("[Event ").count(), 6, "{text}");
    assert!(
        text.contains("[Black \"level 2\"]") && text.contains("[White \"level 2\"]"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
