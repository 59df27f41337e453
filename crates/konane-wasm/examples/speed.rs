//! The engine's speed natively and as WebAssembly in headless Chromium, on the same
//! positions and the same requests: nodes per second for both, and the ratio.
//!
//! ```text
//! bash scripts/build-wasm.sh        # if the sources changed since web/engine.wasm
//! cargo run --release -p konane-wasm --example speed
//! ```
//!
//! Both sides answer the same `think` requests with [`konane_wasm::handle`] (natively in
//! this process; in the browser through web/engine.wasm in a Web Worker, as the page runs
//! it), with the same table sizes and a fresh engine for each position, to a fixed depth
//! without the solver: both search the very same tree, so the node counts must agree and
//! only the time differs. Each search runs three times on each side and the fastest
//! counts. The page is served by a small file server here, so nothing but
//! Chromium (`/usr/bin/chromium`) is needed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use konane_core::{AnyPosition, Game, Opening, Size};
use konane_engine::{Engine, Rng, SystemClock};
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";

/// A position after `plies` random moves from the start of `size`.
fn position(size: &str, seed: u64, plies: usize) -> AnyPosition {
    let size: Size = size.parse().expect("a size");
    let mut rng = Rng::new(seed);
    let mut game = Game::new(size, Opening::CenterOrCorner);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len())])
            .expect("a generated move is legal");
    }
    *game.position()
}

/// Middle games where a search takes about a second natively: (name, position, depth).
fn cases() -> Vec<(String, AnyPosition, u32)> {
    [
        ("6x6", 1, 6, 16),
        ("8x8", 2, 6, 11),
        ("8x8", 3, 14, 12),
        ("8x8", 4, 20, 13),
        ("10x10", 5, 12, 9),
        ("12x12", 6, 16, 8),
    ]
    .into_iter()
    .map(|(size, seed, plies, depth)| {
        let name = format!("{size} after {plies} plies");
        (name, position(size, seed, plies), depth)
    })
    .collect()
}

fn think(pos: &AnyPosition, depth: u32) -> Value {
    json!({"op": "think", "position": pos.to_string(), "depth": depth, "solver": false})
}

/// Runs of each search; the fastest counts, which keeps out most of a busy machine's noise.
const RUNS: usize = 3;

/// The page that runs the requests in the worker, a fresh engine for each run, and posts
/// the fastest answer of each back.
fn bench_page(requests: &Value) -> String {
    format!(
        r#"<!doctype html><meta charset="utf-8"><title>speed</title><script type="module">
import {{ Engine }} from "/engine.js";
const out = [];
for (const r of {requests}) {{
  let best = null;
  for (let i = 0; i < {RUNS}; i++) {{
    const engine = new Engine();
    try {{
      const a = await engine.request(r);
      if (!best || a.elapsed_ms < best.elapsed_ms) best = a;
    }} catch (e) {{ best = {{ error: String(e.code || e) }}; }}
    engine.stop();
  }}
  out.push(best);
}}
await fetch("/result", {{ method: "POST", body: JSON.stringify(out) }});
</script>"#
    )
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// Answers one HTTP request: the bench page, a file under `web/`, or the posted result.
fn serve(mut stream: TcpStream, web: &Path, page: &str, results: &mpsc::Sender<String>) {
    let mut reader = BufReader::new(stream.try_clone().expect("a socket"));
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
            break;
        }
        if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let (status, kind, body) = if line.starts_with("POST /result") {
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        let _ = results.send(String::from_utf8_lossy(&body).into_owned());
        ("200 OK", "text/plain", Vec::new())
    } else if path == "/" {
        ("200 OK", "text/html", page.as_bytes().to_vec())
    } else {
        let file: PathBuf = web.join(path.trim_start_matches('/'));
        match std::fs::read(&file) {
            Ok(bytes) if !path.contains("..") => ("200 OK", content_type(&file), bytes),
            _ => ("404 Not Found", "text/plain", Vec::new()),
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

fn main() {
    if !Path::new(CHROMIUM).exists() {
        eprintln!("needs {CHROMIUM} (apt-get install chromium)");
        std::process::exit(1);
    }
    let cases = cases();
    let bar = indicatif::ProgressBar::new(cases.len() as u64 + 1);
    let mut native = Vec::new();
    for (name, pos, depth) in &cases {
        bar.set_message(name.clone());
        let fastest = (0..RUNS)
            .map(|_| {
                let engine = Engine::new(konane_wasm::config());
                let answer = konane_wasm::handle(
                    &engine,
                    &think(pos, *depth).to_string(),
                    &SystemClock::start(),
                    &mut |_| {},
                );
                let v: Value = serde_json::from_str(&answer).expect("JSON");
                v["ok"].clone()
            })
            .min_by_key(|v| v["elapsed_ms"].as_u64().unwrap_or(u64::MAX))
            .expect("at least one run");
        native.push(fastest);
        bar.inc(1);
    }
    bar.set_message("the same in headless Chromium");
    let requests: Value = cases.iter().map(|(_, p, d)| think(p, *d)).collect();
    let page = bench_page(&requests);
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            serve(stream, &web, &page, &tx);
        }
    });
    let profile = std::env::temp_dir().join(format!("konane-speed-{}", std::process::id()));
    let mut chromium = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://127.0.0.1:{port}/"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let answer = rx.recv_timeout(Duration::from_secs(600));
    let _ = chromium.kill();
    let _ = chromium.wait();
    let _ = std::fs::remove_dir_all(&profile);
    let browser: Vec<Value> =
        serde_json::from_str(&answer.expect("the page reports within 10 minutes")).expect("JSON");
    bar.finish_and_clear();

    println!("| position | depth | nodes | native | WebAssembly | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap_or(0.0);
    let rate = |v: &Value| f(v, "nodes") / (f(v, "elapsed_ms").max(1.0) / 1e3) / 1e6;
    let (mut nodes, mut native_ms, mut wasm_ms) = (0.0, 0.0, 0.0);
    for (((name, _, depth), n), w) in cases.iter().zip(&native).zip(&browser) {
        assert_eq!(
            n["nodes"], w["nodes"],
            "{name}: both must search the same tree ({w})"
        );
        nodes += f(n, "nodes");
        native_ms += f(n, "elapsed_ms");
        wasm_ms += f(w, "elapsed_ms");
        println!(
            "| {name} | {depth} | {} | {:.2} M nodes/s | {:.2} M nodes/s | {:.2} |",
            n["nodes"],
            rate(n),
            rate(w),
            rate(w) / rate(n)
        );
    }
    println!(
        "| all | | {nodes} | {:.2} M nodes/s | {:.2} M nodes/s | **{:.2}** |",
        nodes / native_ms / 1e3,
        nodes / wasm_ms / 1e3,
        native_ms / wasm_ms
    );
}
