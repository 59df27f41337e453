//! A real server on a random loopback port with a fresh database, and a small client.

#![allow(dead_code)]

pub mod tournaments;

use std::time::Duration;

use futures_util::StreamExt;
use konane_server::{Server, ServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// A running server; dropping it shuts the server down.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    /// The database URL the server uses.
    pub database: String,
    /// `http://ADDR` of `/metrics`, when asked for.
    pub metrics: Option<String>,
    /// The server's instance tag ([`konane_server::Server::instance`]).
    pub instance: u64,
    stop: Option<oneshot::Sender<()>>,
    _dir: TempDir,
}

/// A folder removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).unwrap();
        let dir = std::env::temp_dir().join(format!("konane-{tag}-{}", u64::from_le_bytes(bytes)));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub async fn start_with(rate_limit: u32, database_url: Option<String>) -> TestServer {
    start_config(ServerConfig {
        rate_limit,
        database_url: database_url.unwrap_or_default(),
        ..test_config()
    })
    .await
}

/// A server with the tests' configuration and whatever `configure` changes.
pub async fn start_configured(configure: impl FnOnce(&mut ServerConfig)) -> TestServer {
    let mut config = test_config();
    configure(&mut config);
    start_config(config).await
}

/// The tests' server: a random port, two engine threads, no rate limit, and a fresh
/// SQLite file unless `database_url` names a database.
pub fn test_config() -> ServerConfig {
    ServerConfig {
        bind: "127.0.0.1".into(),
        port: 0,
        database_url: String::new(),
        engine_threads: 2,
        rate_limit: 0,
        timing: konane_server::Timing {
            self_play_pace_ms: 50,
            ..Default::default()
        },
        ..ServerConfig::default()
    }
}

pub async fn start_config(mut config: ServerConfig) -> TestServer {
    let dir = TempDir::new("server");
    if config.database_url.is_empty() {
        config.database_url = format!("sqlite://{}", dir.0.join("konane.db").display());
    }
    let server = Server::start(&config).await.expect("server starts");
    let addr = server.local_addr().unwrap();
    let metrics = server.metrics_addr().map(|a| format!("http://{a}"));
    let instance = server.instance();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    TestServer {
        base: format!("http://{addr}"),
        client: reqwest::Client::new(),
        metrics,
        instance,
        stop: Some(stop),
        database: config.database_url,
        _dir: dir,
    }
}

pub async fn start() -> TestServer {
    start_with(0, None).await
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn create(&self, body: Value) -> Value {
        let r = self
            .client
            .post(self.url("/api/games"))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
        r.json().await.unwrap()
    }

    /// Creates a game and returns its id, the creator's token and the whole answer.
    pub async fn create_seated(&self, body: Value) -> (String, String, Value) {
        let created = self.create(body).await;
        let id = created["id"].as_str().expect("an id").to_string();
        let token = created["token"].as_str().expect("a token").to_string();
        (id, token, created)
    }

    pub async fn get(&self, id: &str) -> Value {
        let r = self
            .client
            .get(self.url(&format!("/api/games/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.json().await.unwrap()
    }

    /// The text at `url` (a path of this server, or a whole URL).
    pub async fn text(&self, url: &str) -> String {
        let url = if url.starts_with("http") {
            url.to_string()
        } else {
            self.url(url)
        };
        self.client
            .get(url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// Posts a move and returns the status and the JSON body.
    pub async fn play(
        &self,
        id: &str,
        token: Option<&str>,
        mv: &str,
        ply: u64,
    ) -> (StatusCode, Value) {
        let mut req = self
            .client
            .post(self.url(&format!("/api/games/{id}/moves")))
            .json(&json!({ "move": mv, "ply": ply }));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        (r.status(), r.json().await.unwrap())
    }

    /// The games of the lobby.
    pub async fn lobby(&self) -> Value {
        let r = self
            .client
            .get(self.url("/api/lobby"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        r.json::<Value>().await.unwrap()["games"].clone()
    }

    /// Posts `body` as JSON to `path` (with the seat token, when given); returns the status
    /// and the JSON body.
    pub async fn post_json(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> (StatusCode, Value) {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        (r.status(), r.json().await.unwrap())
    }

    /// A POST without a body, as the page sends one.
    pub async fn post(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json");
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let r = req.send().await.unwrap();
        (r.status(), r.json().await.unwrap())
    }

    /// Waits until the game satisfies `done`, polling; panics after `secs` seconds.
    pub async fn wait_for(&self, id: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let g = self.get(id).await;
            if done(&g) {
                return g;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting on {g}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A client whose requests come from another loopback address (all of 127/8 is local).
    pub fn client_from(&self, addr: &str) -> reqwest::Client {
        reqwest::Client::builder()
            .local_address(addr.parse::<std::net::IpAddr>().unwrap())
            .build()
            .unwrap()
    }

    /// A WebSocket on the game; the first message is the current state.
    pub async fn socket(&self, id: &str) -> Socket {
        let url = format!(
            "{}/api/games/{id}/ws",
            self.base.replace("http://", "ws://")
        );
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("websocket connects");
        Socket(ws, 0)
    }
}

/// A game's socket and the sequence number of the last state read from it.
pub struct Socket(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    i64,
);

impl Socket {
    /// The next newer state pushed, within `secs` seconds. The state sent on connect may
    /// also arrive as a change, so a state no newer than the last one is skipped, as pages do.
    pub async fn next_state(&mut self, secs: u64) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(secs), self.0.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a good message");
            if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
                let state: Value = serde_json::from_str(t.as_str()).unwrap();
                let seq = state["seq"].as_i64().expect("a seq");
                if seq > self.1 {
                    self.1 = seq;
                    return state;
                }
            }
        }
    }

    /// Reads states until one satisfies `done`.
    pub async fn until(&mut self, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let s = self.next_state(secs).await;
            if done(&s) {
                return s;
            }
        }
    }
}

impl Socket {
    /// Says who this page's player is, as the page does on connect.
    pub async fn hello(&mut self, token: &str) {
        self.send_text(json!({ "token": token }).to_string()).await;
    }

    /// Sends a text message as it is.
    pub async fn send_text(&mut self, text: String) {
        use futures_util::SinkExt;
        self.0
            .send(tokio_tungstenite::tungstenite::Message::Text(text.into()))
            .await
            .unwrap();
    }
}

/// The first legal move of a state (sorted by the server).
pub fn first_legal(state: &Value) -> String {
    state["legal_moves"][0]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// A player in the tests: an HTTP client from its own loopback address and, once
/// registered or logged in, the session cookie.
pub struct Player {
    pub client: reqwest::Client,
    pub cookie: Option<String>,
    pub name: String,
}

impl TestServer {
    /// A player from `addr`, not logged in.
    pub fn player(&self, name: &str, addr: &str) -> Player {
        Player {
            client: self.client_from(addr),
            cookie: None,
            name: name.to_string(),
        }
    }

    /// Sends a JSON request as `p`; returns the status and body (null when empty), and
    /// takes the session cookie of the answer.
    pub async fn send(
        &self,
        p: &mut Player,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut req = p.client.request(method, self.url(path));
        if let Some(c) = &p.cookie {
            req = req.header("cookie", c);
        }
        // The page declares JSON on every POST, with a body or without.
        req = match body {
            Some(b) => req.json(&b),
            None => req.header("content-type", "application/json"),
        };
        let r = req.send().await.unwrap();
        if let Some(set) = r.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            p.cookie = (!pair.ends_with('=')).then_some(pair);
        }
        let status = r.status();
        let text = r.text().await.unwrap();
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, body)
    }

    /// Registers `p` with `password` (and so logs them in).
    pub async fn register(&self, p: &mut Player, password: &str) {
        let body = json!({"name": p.name, "password": password});
        let (status, answer) = self
            .send(p, reqwest::Method::POST, "/api/accounts", Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        assert!(p.cookie.is_some(), "registering logs in");
    }

    /// A JSON GET of this server.
    pub async fn json(&self, path: &str) -> (StatusCode, Value) {
        let r = self.client.get(self.url(path)).send().await.unwrap();
        (r.status(), r.json().await.unwrap_or(Value::Null))
    }
}

/// A player registered (and logged in) on `s` as `name`, from `addr`.
pub async fn registered(s: &TestServer, name: &str, addr: &str) -> Player {
    let mut p = s.player(name, addr);
    s.register(&mut p, "a good long password").await;
    p
}

/// A player registered on `s` under `prefix` and a random number, from a random loopback
/// address: for tests on a database that other tests and earlier runs share (its
/// registration limit per address included).
pub async fn fresh_player(s: &TestServer, prefix: &str) -> Player {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).unwrap();
    let name = format!("{prefix}{}", u32::from_le_bytes(bytes) % 1_000_000);
    let addr = format!(
        "127.{}.{}.{}",
        1 + bytes[1] % 250,
        bytes[2],
        1 + bytes[3] % 250
    );
    registered(s, &name, &addr).await
}

/// A rated 6+0 game between two logged-in players, started: (id, black's token, white's
/// token). `host` opens the invitation as Black on `a`; `guest` joins through `b`.
pub async fn rated_game(
    a: &TestServer,
    host: &mut Player,
    b: &TestServer,
    guest: &mut Player,
) -> (String, String, String) {
    let body = json!({"mode": "friend", "color": "black", "rated": true, "clock": {"minutes": 6}});
    let (status, created) = a
        .send(host, reqwest::Method::POST, "/api/games", Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) = b
        .send(
            guest,
            reqwest::Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let black = created["token"].as_str().unwrap().to_string();
    let white = joined["token"].as_str().unwrap().to_string();
    (id, black, white)
}

/// Ends a started rated game from every side at once: both players resign through both
/// instances while both instances are asked for the game. Exactly one resignation wins.
pub async fn finish_from_everywhere(
    a: &TestServer,
    b: &TestServer,
    id: &str,
    black: &str,
    white: &str,
) -> Value {
    let resign = |s: &TestServer, token: &str| {
        let req = s
            .client
            .post(s.url(&format!("/api/games/{id}/resign")))
            .header("content-type", "application/json")
            .bearer_auth(token.to_string())
            .send();
        async move { req.await.unwrap().status() }
    };
    let (r1, r2, r3, r4, _, _) = tokio::join!(
        resign(a, black),
        resign(b, white),
        resign(b, black),
        resign(a, white),
        a.get(id),
        b.get(id),
    );
    let won = [r1, r2, r3, r4]
        .iter()
        .filter(|s| **s == StatusCode::OK)
        .count();
    assert_eq!(
        won, 1,
        "exactly one resignation is stored: {r1} {r2} {r3} {r4}"
    );
    a.get(id).await
}

/// `p` asks for an opponent at 6+0 (`rated` or casual) on `s`; returns the seek's answer.
pub async fn seek(s: &TestServer, p: &mut Player, rated: bool) -> Value {
    let body = json!({"clock": {"minutes": 6, "increment": 0}, "rated": rated});
    let (status, answer) = s
        .send(p, reqwest::Method::POST, "/api/seeks", Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    answer
}

/// The first move of shipped puzzle `id` that loses, as the page would send it.
pub fn losing_first_move(id: &str) -> String {
    let set =
        konane_engine::puzzle::Puzzle::parse_set(include_str!("../../../../data/puzzles.txt"))
            .expect("the shipped set reads");
    let p = set
        .iter()
        .find(|p| p.id.as_str() == id)
        .expect("a shipped puzzle");
    p.position
        .size()
        .move_text(p.refutations[0][0].0)
        .to_string()
}

/// `p`'s puzzle rating on their profile.
pub async fn puzzle_rating(s: &TestServer, p: &Player) -> Value {
    let (status, profile) = s.json(&format!("/api/players/{}", p.name)).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    profile["puzzles"].clone()
}

/// Challenges sent all at once: each `(server, challenger, name)` posts a casual 6+0
/// challenge to `name` through `server`; the answers' statuses and bodies, in that order.
pub async fn challenges_at_once(
    sends: &[(&TestServer, &Player, &str)],
) -> Vec<(StatusCode, Value)> {
    let requests = sends.iter().map(|(s, p, to)| {
        let body = json!({"mode": "friend", "color": "black", "challenge": to,
                          "clock": {"minutes": 6}});
        let mut req = p.client.post(s.url("/api/games")).json(&body);
        if let Some(c) = &p.cookie {
            req = req.header("cookie", c.clone());
        }
        async move {
            let r = req.send().await.unwrap();
            let status = r.status();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    });
    futures_util::future::join_all(requests).await
}

/// How many of `answers` created a challenge; every other one must be the refusal of one
/// too many.
pub fn created_or_too_many(answers: &[(StatusCode, Value)]) -> usize {
    let mut created = 0;
    for (status, body) in answers {
        if *status == StatusCode::CREATED {
            created += 1;
        } else {
            assert_eq!(*status, StatusCode::TOO_MANY_REQUESTS, "{body}");
            assert_eq!(body["error"], "too_many_challenges", "{body}");
        }
    }
    created
}
