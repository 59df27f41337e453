//! The connection layer over real sockets: timeouts close what stalls, per-address caps
//! refuse a flood while other addresses are served, POSTs must be JSON, every response
//! carries the security headers, every refusal is the JSON error of docs/api.md, the page's
//! files are revalidated by ETag, the service worker names this build and files that exist,
//! and the operator's endpoints answer.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TestServer, first_legal, start, start_configured};
use konane_server::net::caps::Limits;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::{Instant, timeout};

fn addr(s: &TestServer) -> SocketAddr {
    s.base.trim_start_matches("http://").parse().unwrap()
}

/// A TCP connection to the server from the loopback address `from`.
async fn connect(s: &TestServer, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr(s)).await.unwrap()
}

/// A reqwest client whose connections come from the loopback address `from`.
fn client_from(from: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(from.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// How long until the server closes `stream`, reading (and dropping) whatever it sends;
/// `None` if it is still open after `secs` seconds.
async fn closed_after(stream: &mut TcpStream, secs: u64) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match timeout(Duration::from_secs(secs), stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// Sends one GET on `stream` and reads its response head (the test's routes answer
/// small bodies with Content-Length, read here too). Returns the status and the head.
async fn get_on(stream: &mut TcpStream, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        let n = timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("an answer")
            .unwrap();
        assert!(n > 0, "closed before answering");
        seen.extend_from_slice(&buf[..n]);
        if let Some(i) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&seen[..head_end]).to_string();
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap_or(0);
    while seen.len() < head_end + length {
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed inside the body");
        seen.extend_from_slice(&buf[..n]);
    }
    let status = head[9..12].parse().unwrap();
    (status, head)
}

/// Fails unless the server closes `stream` within 3 seconds.
async fn assert_closed_soon(stream: &mut TcpStream, what: &str) {
    let after = closed_after(stream, 5).await;
    assert!(
        after.is_some_and(|d| d < Duration::from_secs(3)),
        "{what}: still open ({after:?})"
    );
}

fn short_timeouts() -> Limits {
    Limits {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        ..Limits::default()
    }
}

#[tokio::test]
async fn a_half_sent_request_or_silence_is_closed_within_the_timeout() {
    let s = start_configured(|c| c.limits = short_timeouts()).await;
    let mut half = connect(&s, "127.0.0.1").await;
    half.write_all(b"GET /api/lobby HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let mut silent = connect(&s, "127.0.0.1").await;
    for (what, stream) in [("half a request", &mut half), ("nothing", &mut silent)] {
        assert_closed_soon(stream, what).await;
    }
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let s = start_configured(|c| c.limits = short_timeouts()).await;
    let mut stream = connect(&s, "127.0.0.1").await;
    assert_eq!(get_on(&mut stream, "/api/lobby").await.0, 200);
    // Still usable at once: keep-alive works...
    assert_eq!(get_on(&mut stream, "/api/lobby").await.0, 200);
    // ...but not forever.
    assert_closed_soon(&mut stream, "the connection").await;
}

#[tokio::test]
async fn a_stalled_body_is_cut_off() {
    let s = start_configured(|c| c.limits = short_timeouts()).await;
    let mut stream = connect(&s, "127.0.0.1").await;
    stream
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"mode\":",
        )
        .await
        .unwrap();
    assert_closed_soon(&mut stream, "the connection").await;
    assert_eq!(s.lobby().await, json!([]));
}

#[tokio::test]
async fn a_flood_from_one_address_is_refused_while_another_is_served() {
    let s = start_configured(|c| {
        c.limits = Limits {
            connections_per_address: 4,
            ..Limits::default()
        }
    })
    .await;
    let mut flood = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&s, "127.0.0.1").await;
        // An answer proves the server holds the connection.
        assert_eq!(get_on(&mut stream, "/api/lobby").await.0, 200);
        flood.push(stream);
    }
    let refused = client_from("127.0.0.1")
        .get(s.url("/api/lobby"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "too_many_connections", "{body}");
    let other = client_from("127.0.0.2")
        .get(s.url("/api/lobby"))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::OK);
    // Places come back when connections close.
    drop(flood);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let r = client_from("127.0.0.1")
            .get(s.url("/api/lobby"))
            .send()
            .await
            .unwrap();
        if r.status() == StatusCode::OK {
            break;
        }
        assert!(Instant::now() < deadline, "the places never came back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens a game's WebSocket from `from`, optionally naming a forwarded client; the
/// refusal's status and JSON body if it is refused.
async fn open_socket(
    s: &TestServer,
    id: &str,
    from: &str,
    forwarded: Option<&str>,
) -> Result<tokio_tungstenite::WebSocketStream<TcpStream>, (u16, Value)> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}/api/games/{id}/ws", s.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    if let Some(f) = forwarded {
        request
            .headers_mut()
            .insert("x-forwarded-for", f.parse().unwrap());
    }
    let stream = connect(s, from).await;
    match tokio_tungstenite::client_async(request, stream).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => {
            let body = r.body().as_deref().unwrap_or_default();
            Err((r.status().as_u16(), serde_json::from_slice(body).unwrap()))
        }
        Err(e) => panic!("{e}"),
    }
}

async fn a_game(s: &TestServer) -> String {
    let (id, _, _) = s
        .create_seated(json!({"mode": "local", "size": "4x4"}))
        .await;
    id
}

#[tokio::test]
async fn sockets_are_capped_per_address() {
    let s = start_configured(|c| {
        c.limits = Limits {
            sockets_per_address: 2,
            ..Limits::default()
        }
    })
    .await;
    let id = a_game(&s).await;
    let first = open_socket(&s, &id, "127.0.0.1", None).await.unwrap();
    let _second = open_socket(&s, &id, "127.0.0.1", None).await.unwrap();
    let (status, body) = open_socket(&s, &id, "127.0.0.1", None).await.unwrap_err();
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("too_many_connections"))
    );
    assert!(open_socket(&s, &id, "127.0.0.2", None).await.is_ok());
    // A closed socket gives its place back.
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(5);
    while open_socket(&s, &id, "127.0.0.1", None).await.is_err() {
        assert!(
            Instant::now() < deadline,
            "the socket's place never came back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_address_is_the_client() {
    let s = start_configured(|c| {
        c.rate_limit = 1;
        c.limits = Limits {
            sockets_per_address: 1,
            trust_proxy: true,
            ..Limits::default()
        }
    })
    .await;
    let id = a_game(&s).await;
    // The proxy appends the address it saw; what the client wrote before it is not trusted.
    let _kept = open_socket(&s, &id, "127.0.0.1", Some("203.0.113.1"))
        .await
        .unwrap();
    let refused = open_socket(&s, &id, "127.0.0.1", Some("6.6.6.6, 203.0.113.1")).await;
    assert_eq!(refused.unwrap_err().0, 429);
    assert!(
        open_socket(&s, &id, "127.0.0.1", Some("203.0.113.2"))
            .await
            .is_ok()
    );
    // The rate limit keys on the same address: one client's flood leaves another alone.
    let get = |who: &'static str| {
        s.client
            .get(s.url("/api/lobby"))
            .header("x-forwarded-for", who)
            .send()
    };
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(get("198.51.100.1").await.unwrap().status());
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    assert_eq!(get("198.51.100.2").await.unwrap().status(), StatusCode::OK);
}

#[tokio::test]
async fn a_silent_websocket_is_closed_and_a_live_one_kept() {
    let s = start_configured(|c| {
        c.limits = Limits {
            ping_interval: Duration::from_millis(200),
            ..Limits::default()
        }
    })
    .await;
    let id = a_game(&s).await;
    let mut silent = open_socket(&s, &id, "127.0.0.1", None).await.unwrap();
    let mut live = open_socket(&s, &id, "127.0.0.1", None).await.unwrap();
    // The live one reads, so its client answers the pings.
    let reader = tokio::spawn(async move {
        use futures_util::StreamExt;
        let until = Instant::now() + Duration::from_millis(1500);
        while let Ok(Some(Ok(_))) = tokio::time::timeout_at(until, live.next()).await {}
        Instant::now() >= until
    });
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(reader.await.unwrap(), "the live socket was closed");
    let closed = timeout(Duration::from_secs(2), async {
        use futures_util::StreamExt;
        loop {
            match silent.next().await {
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | None => break,
                Some(Err(_)) => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the silent socket is still open");
}

#[tokio::test]
async fn a_message_longer_than_the_sockets_read_buffer_is_read_whole() {
    let s = start().await;
    let (id, token, _) = s
        .create_seated(json!({"mode": "local", "size": "4x4"}))
        .await;
    let mut socket = s.socket(&id).await;
    let state = socket.next_state(5).await;
    // A hello padded to twenty times the read buffer: read in pieces, understood whole.
    let padding = " ".repeat(20 * konane_server::http::ws::READ_BUFFER);
    socket
        .send_text(format!("{{\"token\": \"{token}\"{padding}}}"))
        .await;
    let (status, _) = s.play(&id, Some(&token), &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);
    // The socket is still open and hears the move.
    let after = socket.next_state(5).await;
    assert_eq!(after["moves"].as_array().map(Vec::len), Some(1), "{after}");
}

#[tokio::test]
async fn a_post_that_is_not_json_is_refused_and_changes_nothing() {
    let s = start().await;
    let created = s
        .client
        .post(s.url("/api/games"))
        .header("content-type", "text/plain")
        .body(json!({"mode": "open"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body: Value = created.json().await.unwrap();
    assert_eq!(body["error"], "unsupported_media_type");
    assert_eq!(s.lobby().await, json!([]));
    // What another site's form can send: a join without a body and a form type.
    let open = s.create(json!({"mode": "open", "color": "black"})).await;
    let id = open["id"].as_str().unwrap();
    for content_type in [
        None,
        Some("application/x-www-form-urlencoded"),
        Some("text/plain"),
    ] {
        let mut join = s.client.post(s.url(&format!("/api/games/{id}/join")));
        if let Some(t) = content_type {
            join = join.header("content-type", t).body("name=Eve");
        }
        let r = join.send().await.unwrap();
        assert_eq!(
            r.status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
    }
    assert_eq!(s.get(id).await["status"], "waiting");
}

const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "same-origin"),
    ("content-security-policy", "default-src 'self'"),
];

#[tokio::test]
async fn every_response_has_the_security_headers() {
    let s = start().await;
    let requests = [
        s.client.get(s.url("/")),
        s.client.get(s.url("/game/abc")),
        s.client.get(s.url("/app.js")),
        s.client.get(s.url("/api/lobby")),
        s.client.get(s.url("/nope.js")),
        s.client.get(s.url("/api/games")),
        s.client.post(s.url("/api/games")).body("x"),
        s.client.get(s.url("/healthz")),
    ];
    for request in requests {
        let r = request.send().await.unwrap();
        let what = format!("{} {}", r.url(), r.status());
        for (name, value) in SECURITY_HEADERS {
            let got = r
                .headers()
                .get(name)
                .unwrap_or_else(|| panic!("{what}: no {name}"))
                .to_str()
                .unwrap();
            assert!(got.contains(value), "{what}: {name}: {got}");
        }
        let csp = r.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    }
}

#[tokio::test]
async fn every_documented_refusal_is_a_json_error() {
    let s = start().await;
    let id = a_game(&s).await;
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(20 * 1024));
    let json_post = |path: &str, body: String| {
        s.client
            .post(s.url(path))
            .header("content-type", "application/json")
            .body(body)
    };
    let cases = [
        (s.client.get(s.url("/api/nope")), 404, "not_found"),
        (s.client.get(s.url("/nope.js")), 404, "not_found"),
        (
            s.client.get(s.url("/api/games/zzzzzzzzzzzz")),
            404,
            "not_found",
        ),
        (s.client.put(s.url("/api/games")), 405, "method_not_allowed"),
        (
            s.client.delete(s.url(&format!("/api/games/{id}"))),
            405,
            "method_not_allowed",
        ),
        (
            json_post(&format!("/api/games/{id}/join"), big.clone()),
            413,
            "too_large",
        ),
        (json_post("/api/games", big), 413, "too_large"),
        (json_post("/api/games", "{".into()), 400, "bad_request"),
        (
            s.client.post(s.url("/api/games")).body("{}"),
            415,
            "unsupported_media_type",
        ),
        // A plain GET of the socket's address, without the upgrade.
        (
            s.client.get(s.url(&format!("/api/games/{id}/ws"))),
            400,
            "bad_request",
        ),
    ];
    for (request, status, code) in cases {
        let r = request.send().await.unwrap();
        let what = format!("{} {}", r.url(), r.status());
        assert_eq!(r.status().as_u16(), status, "{what}");
        let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
        assert!(
            content_type.starts_with("application/json"),
            "{what}: {content_type}"
        );
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], code, "{what}: {body}");
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: {body}"
        );
    }
    let limited = common::start_with(1, None).await;
    let mut last = None;
    for _ in 0..5 {
        last = Some(
            limited
                .client
                .get(limited.url("/api/lobby"))
                .send()
                .await
                .unwrap(),
        );
    }
    let r = last.unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        r.json::<Value>().await.unwrap()["error"],
        "too_many_requests"
    );
}

#[tokio::test]
async fn the_page_is_revalidated_by_its_etag() {
    let s = start().await;
    for path in ["/", "/app.js", "/i18n/en.json"] {
        let first = s.client.get(s.url(path)).send().await.unwrap();
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(first.headers()["cache-control"], "no-cache", "{path}");
        let etag = first.headers()["etag"].clone();
        assert!(etag.to_str().unwrap().starts_with('"'), "{path}: {etag:?}");
        let again = s
            .client
            .get(s.url(path))
            .header("if-none-match", etag.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.headers()["etag"], etag);
        assert!(again.bytes().await.unwrap().is_empty());
        let changed = s
            .client
            .get(s.url(path))
            .header("if-none-match", "\"something else\"")
            .send()
            .await
            .unwrap();
        assert_eq!(changed.status(), StatusCode::OK, "{path}");
    }
    let api = s.client.get(s.url("/api/lobby")).send().await.unwrap();
    assert_eq!(api.headers()["cache-control"], "no-store");
}

#[tokio::test]
async fn the_service_worker_names_this_build_and_files_that_exist() {
    let s = start().await;
    let r = s.client.get(s.url("/sw.js")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        r.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(r.headers()["cache-control"], "no-cache");
    let source = r.text().await.unwrap();
    let build = konane_server::http::web::build();
    let written = format!("const BUILD = {};", serde_json::to_string(build).unwrap());
    assert!(
        source.contains(&written),
        "the build is written in: {source}"
    );
    assert!(!source.contains("/* BUILD */"), "no mark is left");
    assert_eq!(build.version.len(), 16);
    assert!(build.version.bytes().all(|b| b.is_ascii_hexdigit()));
    for needed in [
        "/index.html",
        "/app.js",
        "/offline.js",
        "/engine.wasm",
        "/engine-worker.js",
        "/lessons.json",
        "/i18n/de.json",
    ] {
        assert!(
            build.files.iter().any(|f| f == needed),
            "{needed} is kept: {:?}",
            build.files
        );
    }
    assert!(
        !build.files.iter().any(|f| f == "/sw.js"),
        "the worker does not keep itself"
    );
    for file in &build.files {
        let r = s.client.get(s.url(file)).send().await.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "{file}");
    }
    // The page addresses the worker falls back for are the page.
    let play = s
        .client
        .get(s.url("/play?mode=engine"))
        .send()
        .await
        .unwrap();
    assert_eq!(play.status(), StatusCode::OK);
}

#[tokio::test]
async fn health_and_metrics_answer_and_metrics_stay_off_the_site() {
    let s = start_configured(|c| c.metrics_bind = Some("127.0.0.1:0".into())).await;
    let health = s.client.get(s.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    assert_eq!(health.json::<Value>().await.unwrap()["status"], "ok");
    // Something to count: a game with a socket and a move, and a refusal.
    let (id, token, _) = s
        .create_seated(json!({"mode": "local", "size": "4x4"}))
        .await;
    let _ws = s.socket(&id).await;
    let state = s.get(&id).await;
    let (status, _) = s
        .play(&id, Some(&token), &common::first_legal(&state), 0)
        .await;
    assert_eq!(status, StatusCode::OK);
    s.client.get(s.url("/api/nope")).send().await.unwrap();
    let metrics = s.metrics.clone().expect("a metrics address");
    let text = s.text(&format!("{metrics}/metrics")).await;
    for name in [
        "konane_moves_total",
        "konane_sockets_open",
        "konane_connections_open",
        "konane_games_watched",
        "konane_refusals_total{code=\"not_found\"}",
    ] {
        assert!(text.contains(name), "no {name} in\n{text}");
    }
    let public = s.client.get(s.url("/metrics")).send().await.unwrap();
    assert_eq!(public.status(), StatusCode::NOT_FOUND);
}
