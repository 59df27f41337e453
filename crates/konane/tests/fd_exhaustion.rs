//! The real `konane serve` with a tiny file-descriptor limit (`prlimit`), flooded with
//! connections until accept fails: it keeps serving the connection it has, does not spin,
//! and serves new connections again once the flood is gone.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Sends a GET on `stream` and returns the status of the answer (reading its body).
fn get(stream: &mut TcpStream, path: &str) -> std::io::Result<u16> {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: test\r\n\r\n")?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut status = String::new();
    reader.read_line(&mut status)?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        if line.trim().is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    status
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {status:?}")))
}

/// The process's CPU time so far (user + system), from /proc.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which may hold spaces) start after ')'.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    // The kernel's USER_HZ is 100 on every Linux we run on.
    Duration::from_millis(ticks * 10)
}

#[test]
fn out_of_file_descriptors_it_keeps_serving_and_recovers() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        assert!(
            std::env::var("CI").is_err(),
            "CI must have prlimit (util-linux)"
        );
        eprintln!("SKIPPED: no prlimit");
        return;
    }
    let dir = std::env::temp_dir().join(format!("konane-fds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut command = common::command(
        &["prlimit", "--nofile=64:64", "--"],
        &dir,
        &[
            "--max-connections-per-address",
            "0",
            // Long enough that the kept connection outlives setting up the flood on a busy
            // machine.
            "--header-timeout",
            "30",
        ],
    );
    command.stderr(Stdio::piped());
    let (mut server, base) = common::start(command);
    let log = Arc::new(Mutex::new(String::new()));
    let stderr = server.stderr.take().unwrap();
    let sink = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            sink.lock().unwrap().push_str(&(line + "\n"));
        }
    });
    let addr = base.trim_start_matches("http://").to_string();
    let mut kept = TcpStream::connect(&addr).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    assert_eq!(get(&mut kept, "/healthz").unwrap(), 200);

    // More connections than the server has descriptors: they sit in its backlog.
    let flood: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    while !log.lock().unwrap().contains("Too many open files") {
        assert!(
            Instant::now() < deadline,
            "accept never failed:\n{}",
            log.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = cpu_time(server.id());
    let started = Instant::now();
    assert_eq!(
        get(&mut kept, "/healthz").unwrap(),
        200,
        "the connection it had"
    );
    std::thread::sleep(Duration::from_millis(1000));
    let busy = cpu_time(server.id()) - before;
    let spent = started.elapsed();
    assert!(
        busy < spent / 4,
        "the server spun: {busy:?} of CPU in {spent:?}"
    );

    drop(flood);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let served = TcpStream::connect(&addr).and_then(|mut fresh| {
            fresh.set_read_timeout(Some(Duration::from_secs(2)))?;
            get(&mut fresh, "/healthz")
        });
        if let Ok(200) = served {
            break;
        }
        assert!(Instant::now() < deadline, "never recovered: {served:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
