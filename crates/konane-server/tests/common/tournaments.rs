//! Tournaments as the tests drive them: players, creating, acting, waiting for a state,
//! ending every game being played.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::common::{Player, TestServer, registered, start_configured};

/// A server whose director looks every 50 ms and pauses 200 ms between rounds.
pub async fn quick() -> TestServer {
    quick_on(None).await
}

/// [`quick`] on the database `url` (none: a fresh SQLite file).
pub async fn quick_on(url: Option<String>) -> TestServer {
    start_configured(|c| {
        c.timing.tournament_every_ms = 50;
        c.timing.round_pause_ms = 200;
        if let Some(url) = url {
            c.database_url = url;
        }
    })
    .await
}

/// Registered players of these names, each from an address of its own.
pub async fn players(s: &TestServer, names: &[&str]) -> Vec<Player> {
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        out.push(registered(s, name, &format!("127.0.1.{}", i + 2)).await);
    }
    out
}

/// `p` creates a tournament; returns its view.
pub async fn create(s: &TestServer, p: &mut Player, body: Value) -> Value {
    let (status, t) = s
        .send(p, Method::POST, "/api/tournaments", Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    t
}

/// `p` posts `action` (join, withdraw, pause, start) to tournament `id`.
pub async fn act(
    s: &TestServer,
    p: &mut Player,
    id: &str,
    action: &str,
    body: Value,
) -> (StatusCode, Value) {
    s.send(
        p,
        Method::POST,
        &format!("/api/tournaments/{id}/{action}"),
        Some(body),
    )
    .await
}

/// The tournament's view, as a visitor sees it.
pub async fn show(s: &TestServer, id: &str) -> Value {
    let (status, t) = s.json(&format!("/api/tournaments/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{t}");
    t
}

/// Waits until the tournament's view satisfies `done`.
pub async fn until(s: &TestServer, id: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        let t = show(s, id).await;
        if done(&t) {
            return t;
        }
        assert!(Instant::now() < end, "tournament never got there: {t:#}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The seat token `p` holds in game `id`.
pub async fn seat_token(s: &TestServer, p: &mut Player, id: &str) -> String {
    let (status, seat) = s
        .send(
            p,
            Method::GET,
            &format!("/api/account/games/{id}/seat"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{seat}");
    seat["token"].as_str().expect("a token").to_string()
}

/// Ends every game being played: the player named `loses` when one of them plays in it,
/// else White, resigns. Returns the games ended.
pub async fn resign_all(
    s: &TestServer,
    t: &Value,
    by_name: &mut HashMap<String, Player>,
    loses: &str,
) -> usize {
    let mut ended = 0;
    for g in t["games"].as_array().unwrap() {
        if g["status"] != "playing" {
            continue;
        }
        let id = g["id"].as_str().unwrap();
        let black = g["black"].as_str().unwrap();
        let white = g["white"].as_str().unwrap();
        let loser = if black == loses { black } else { white };
        let p = by_name.get_mut(loser).unwrap();
        let token = seat_token(s, p, id).await;
        let (status, over) = s
            .post(&format!("/api/games/{id}/resign"), Some(&token))
            .await;
        assert_eq!(status, StatusCode::OK, "{over}");
        ended += 1;
    }
    ended
}

/// Makes an arena's time up now, as if its minutes had passed.
pub async fn set_arena_end(database: &str, id: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(database).await.unwrap();
    sqlx::query("UPDATE tournaments SET ends_at = $1 WHERE id = $2")
        .bind(konane_server::time::now_ms())
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
}

/// A server as [`quick`] whose schedule is one league at `days` a move (its first season
/// on the first of next month), on the database `url` (none: a fresh SQLite file).
pub async fn with_league(days: u32, url: Option<String>) -> TestServer {
    let schedule = format!(
        r#"{{"rules": [{{"name": "Test League", "format": {{"kind": "league", "days": {days}}}, "every": "month"}}]}}"#
    );
    start_configured(|c| {
        c.timing.tournament_every_ms = 50;
        c.schedule = konane_server::Schedule::from_json(&schedule).expect("a schedule");
        if let Some(url) = url {
            c.database_url = url;
        }
    })
    .await
}

/// The league season named `season` (number) as the list shows it, waiting for `secs`.
pub async fn season(s: &TestServer, number: u64, secs: u64) -> Value {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        let (_, list) = s.json("/api/tournaments").await;
        let found = ["upcoming", "running", "finished"]
            .iter()
            .flat_map(|part| list[part].as_array().cloned().unwrap_or_default())
            .find(|t| t["kind"] == "league" && t["season"] == number);
        if let Some(t) = found {
            return t;
        }
        assert!(Instant::now() < end, "no season {number}: {list:#}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Makes a tournament due to start now, as if its day had come.
pub async fn start_now(database: &str, id: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(database).await.unwrap();
    sqlx::query("UPDATE tournaments SET starts_at = $1 WHERE id = $2")
        .bind(konane_server::time::now_ms())
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
}
