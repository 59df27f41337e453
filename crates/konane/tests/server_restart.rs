//! The real `konane serve`, killed with SIGKILL mid-game and started again on the same
//! data folder: every game goes on where it stood.

mod common;

use std::process::Child;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

struct Running {
    child: Child,
    base: String,
}

fn serve(dir: &std::path::Path) -> Running {
    let (child, base) = common::serve(dir);
    Running { child, base }
}

async fn post(
    c: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let mut r = c.post(url).json(&body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
    (r.status(), r.json().await.unwrap())
}

async fn get(c: &reqwest::Client, url: String) -> Value {
    c.get(url).send().await.unwrap().json().await.unwrap()
}

#[tokio::test]
async fn games_survive_kill_9() {
    let dir = std::env::temp_dir().join(format!("konane-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = reqwest::Client::new();
    let mut server = serve(&dir);
    let base = server.base.clone();

    // A local game a few moves in, and a timed one.
    let (_, local) = post(
        &c,
        format!("{base}/api/games"),
        None,
        json!({"mode": "local", "size": "6x6"}),
    )
    .await;
    let (lid, ltoken) = (
        local["id"].as_str().unwrap().to_string(),
        local["token"].as_str().unwrap().to_string(),
    );
    let mut state = local["game"].clone();
    for _ in 0..4 {
        let mv = state["legal_moves"][0].as_str().unwrap().to_string();
        let ply = state["ply"].clone();
        state = post(
            &c,
            format!("{base}/api/games/{lid}/moves"),
            Some(&ltoken),
            json!({"move": mv, "ply": ply}),
        )
        .await
        .1;
    }
    let (_, timed) = post(
        &c,
        format!("{base}/api/games"),
        None,
        json!({"mode": "local", "size": "8x8", "clock": {"minutes": 5}}),
    )
    .await;
    let tid = timed["id"].as_str().unwrap().to_string();
    let since = timed["game"]["clock"]["running_since"].clone();
    // An engine game where the engine is thinking (level 8 takes about a second) when we kill.
    let (_, engine) = post(
        &c,
        format!("{base}/api/games"),
        None,
        json!({"mode": "engine", "size": "8x8", "color": "black", "level": 8}),
    )
    .await;
    let (eid, etoken) = (
        engine["id"].as_str().unwrap().to_string(),
        engine["token"].as_str().unwrap().to_string(),
    );
    let (status, _) = post(
        &c,
        format!("{base}/api/games/{eid}/moves"),
        Some(&etoken),
        json!({"move": "d5", "ply": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        get(&c, format!("{base}/api/games/{eid}")).await["ply"],
        1,
        "the engine is still thinking"
    );

    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let mut server = serve(&dir);
    let base = server.base.clone();

    let after = get(&c, format!("{base}/api/games/{lid}")).await;
    assert_eq!(after["moves"], state["moves"]);
    assert_eq!(after["seq"], state["seq"]);
    let timed_after = get(&c, format!("{base}/api/games/{tid}")).await;
    assert_eq!(timed_after["clock"]["running"], "black");
    assert_eq!(
        timed_after["clock"]["running_since"], since,
        "the clock keeps the time that had run"
    );
    // The engine picks up its move by itself.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let g = get(&c, format!("{base}/api/games/{eid}")).await;
        if g["ply"] == 2 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the engine did not resume: {g}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // And the local game plays on to the end.
    let mut state = after;
    while state["status"] == "playing" {
        let mv = state["legal_moves"][0].as_str().unwrap().to_string();
        let ply = state["ply"].clone();
        let (status, next) = post(
            &c,
            format!("{base}/api/games/{lid}/moves"),
            Some(&ltoken),
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        state = next;
    }
    assert_eq!(state["status"], "finished");
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}

/// A request as `cookie`'s player; returns the status, the body and the session cookie an
/// answer sets.
async fn send(
    c: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value, Option<String>) {
    let mut r = c.request(method, url);
    if let Some(cookie) = cookie {
        r = r.header("cookie", cookie);
    }
    r = match body {
        Some(b) => r.json(&b),
        None => r.header("content-type", "application/json"),
    };
    let r = r.send().await.unwrap();
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (r.status(), r.json().await.unwrap_or(Value::Null), cookie)
}

/// Waits for tournament `id` on `base` to satisfy `done`.
async fn tournament_until(
    c: &reqwest::Client,
    base: &str,
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let t = get(c, format!("{base}/api/tournaments/{id}")).await;
        if done(&t) {
            return t;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the tournament did not get there: {t:#}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A Swiss killed with SIGKILL while its first round is played goes on after the restart:
/// the round is not paired again, its games end, and the next round is paired once.
#[tokio::test]
async fn a_tournament_survives_kill_9_mid_round() {
    let dir = std::env::temp_dir().join(format!("konane-restart-tour-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = reqwest::Client::new();
    let flags = ["--round-pause", "0"];
    let (child, base) = common::start(common::command(&[], &dir, &flags));
    let mut server = Running { child, base };
    let base = server.base.clone();
    let mut cookies = Vec::new();
    for name in ["Ana", "Kai", "Lea", "Moe"] {
        let body = json!({"name": name, "password": "a good long password"});
        let (status, answer, cookie) = send(
            &c,
            reqwest::Method::POST,
            format!("{base}/api/accounts"),
            None,
            Some(body),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        cookies.push((name, cookie.expect("a session")));
    }
    let body = json!({"kind": "swiss", "name": "Stormy Swiss", "clock": {"minutes": 5},
                      "rounds": 2, "starts_in_s": 3600});
    let (status, t, _) = send(
        &c,
        reqwest::Method::POST,
        format!("{base}/api/tournaments"),
        Some(&cookies[0].1),
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for (_, cookie) in &cookies[1..] {
        let (status, t, _) = send(
            &c,
            reqwest::Method::POST,
            format!("{base}/api/tournaments/{id}/join"),
            Some(cookie),
            Some(json!({})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{t}");
    }
    let (status, t, _) = send(
        &c,
        reqwest::Method::POST,
        format!("{base}/api/tournaments/{id}/start"),
        Some(&cookies[0].1),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{t}");
    let before = tournament_until(&c, &base, &id, |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 2)
    })
    .await;

    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let (child, base) = common::start(common::command(&[], &dir, &flags));
    server = Running { child, base };
    let base = server.base.clone();

    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = get(&c, format!("{base}/api/tournaments/{id}")).await;
    assert_eq!(
        after["games"], before["games"],
        "round 1 stands as it was, paired once"
    );
    assert_eq!(after["round"], 1);
    // Every game of round 1 ends (White resigns), and round 2 is paired once.
    for g in after["games"].as_array().unwrap() {
        let gid = g["id"].as_str().unwrap();
        let white = g["white"].as_str().unwrap();
        let cookie = &cookies.iter().find(|(n, _)| *n == white).unwrap().1;
        let (status, seat, _) = send(
            &c,
            reqwest::Method::GET,
            format!("{base}/api/account/games/{gid}/seat"),
            Some(cookie),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{seat}");
        let (status, over) = post(
            &c,
            format!("{base}/api/games/{gid}/resign"),
            seat["token"].as_str(),
            json!({}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{over}");
    }
    let t = tournament_until(&c, &base, &id, |t| {
        t["round"] == 2 && t["games"].as_array().is_some_and(|g| g.len() == 4)
    })
    .await;
    let pairs: std::collections::HashSet<(String, String)> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let (b, w) = (
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
            );
            (b.clone().min(w.clone()), b.max(w))
        })
        .collect();
    assert_eq!(pairs.len(), 4, "nobody meets twice: {t:#}");
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
