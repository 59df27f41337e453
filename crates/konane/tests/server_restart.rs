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
