//! Games whose computer the browser plays (`"engine_host": "browser"`): the server checks,
//! stores and times those moves but never searches for them, only the game's own seat token
//! may make them, and a server without engine threads hosts nothing else.

mod common;

use common::{TestServer, first_legal, registered, start, start_configured};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn ply(state: &Value) -> u64 {
    state["ply"].as_u64().unwrap()
}

/// A server with `--engine-threads 0`.
async fn engineless() -> TestServer {
    start_configured(|c| c.engine_threads = 0).await
}

/// Posts a game request and returns the status and the body.
async fn create_raw(s: &TestServer, body: Value) -> (StatusCode, Value) {
    s.post_json("/api/games", None, &body).await
}

/// Posts a rematch with `body` and returns the status and the body.
async fn rematch_raw(s: &TestServer, id: &str, token: &str, body: Value) -> (StatusCode, Value) {
    s.post_json(&format!("/api/games/{id}/rematch"), Some(token), &body)
        .await
}

#[tokio::test]
async fn a_server_without_an_engine_refuses_its_own_computer_and_hosts_the_browsers() {
    let s = engineless().await;
    for body in [
        json!({"mode": "engine", "size": "6x6", "level": 2}),
        json!({"mode": "engine", "size": "6x6", "level": 8, "engine_host": "server"}),
        json!({"mode": "engine", "size": "5x5", "color": "none", "engine_host": "server"}),
    ] {
        let (status, refused) = create_raw(&s, body.clone()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}: {refused}");
        assert_eq!(refused["error"], "engine_unavailable");
    }
    // Every level is offered when the browser plays it; every other mode is unchanged.
    for level in 1..=8 {
        let (id, _, created) = s
            .create_seated(json!({"mode": "engine", "size": "6x6", "color": "black", "level": level, "engine_host": "browser"}))
            .await;
        assert_eq!(created["game"]["engine_host"], "browser", "{id}");
        assert_eq!(created["game"]["level"], level);
    }
    // A browser-hosted computer plays whatever its page posts: never for a rating.
    let mut ana = registered(&s, "Ana", "127.0.0.3").await;
    let (status, refused) = s
        .send(
            &mut ana,
            reqwest::Method::POST,
            "/api/games",
            Some(
                json!({"mode": "engine", "engine_host": "browser", "rated": true,
                        "clock": {"minutes": 5}}),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(refused["error"], "not_ratable");
    for mode in ["friend", "open", "local"] {
        let (status, body) = create_raw(&s, json!({"mode": mode, "size": "6x6"})).await;
        assert_eq!(status, StatusCode::CREATED, "{mode}: {body}");
        assert!(body["game"]["engine_host"].is_null(), "{body}");
        let (status, body) = create_raw(
            &s,
            json!({"mode": mode, "size": "6x6", "engine_host": "browser"}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{mode}: {body}");
    }
}

#[tokio::test]
async fn a_whole_browser_hosted_game_is_checked_and_stored_and_only_its_seat_moves_the_computer() {
    let s = engineless().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "white", "level": 2, "engine_host": "browser"}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    let (other, other_token, _) = s
        .create_seated(
            json!({"mode": "engine", "size": "6x6", "color": "black", "engine_host": "browser"}),
        )
        .await;
    let mut state = created["game"].clone();
    let mut seeds = std::collections::HashSet::new();
    while state["status"] == "playing" {
        let computers = state["turn"] == "black";
        // The seed is there exactly while the browser is to play the computer's move.
        assert_eq!(state["engine_seed"].is_u64(), computers, "{state}");
        let mv = first_legal(&state);
        if computers {
            let seed = state["engine_seed"].as_u64().unwrap();
            assert_eq!(
                seed,
                konane_server::games::game::browser_seed(id, state["seq"].as_i64().unwrap())
            );
            assert!(seed < 1 << 53, "JavaScript carries the seed exactly");
            seeds.insert(seed);
            for (t, code) in [
                (None, "forbidden"),
                (Some(other_token.as_str()), "forbidden"),
            ] {
                let (status, body) = s.play(id, t, &mv, ply(&state)).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
                assert_eq!(body["error"], code);
            }
            // An illegal move for the computer is refused like a person's.
            let (status, body) = s.play(id, Some(token), "a1-a9", ply(&state)).await;
            assert!(status.is_client_error(), "{body}");
        }
        let (status, after) = s.play(id, Some(token), &mv, ply(&state)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        if computers {
            // A second page of the same seat posting the same move is one ply late.
            let (status, late) = s.play(id, Some(token), &mv, ply(&state)).await;
            assert_eq!(status, StatusCode::CONFLICT, "{late}");
            let late_by = if after["status"] == "finished" {
                "game_over"
            } else {
                "stale_ply"
            };
            assert_eq!(late["error"], late_by);
        }
        state = after;
    }
    assert_eq!(state["result"]["reason"], "no_moves");
    assert!(seeds.len() > 1, "every computer move has its own seed");
    let record = s.text(&format!("/api/games/{id}/record")).await;
    let parsed = konane_core::Record::parse(&record).expect("the record reads back");
    assert_eq!(parsed.game().ply() as u64, ply(&state));
    assert_eq!(parsed.tag("Black"), Some("Konane engine, level 2"));
    // The other game never moved: nobody played its computer.
    assert_eq!(ply(&s.get(&other).await), 0);
}

#[tokio::test]
async fn a_server_with_an_engine_never_searches_for_a_browser_hosted_game() {
    let s = start().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "white", "level": 1, "engine_host": "browser"}))
        .await;
    assert_eq!(created["game"]["engine_host"], "browser");
    let mut ws = s.socket(&id).await;
    ws.next_state(5).await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let g = s.get(&id).await;
    assert_eq!(
        ply(&g),
        0,
        "the server's engine played a browser's move: {g}"
    );
    // The human's move after the browser's: still nobody but the page moves the computer.
    let (status, g) = s.play(&id, Some(&token), &first_legal(&g), 0).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    let (status, g) = s.play(&id, Some(&token), &first_legal(&g), 1).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(ply(&s.get(&id).await), 2);
    // A game whose computer the server plays: the player's token cannot move it.
    let (id, token, _) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "black", "level": 1}))
        .await;
    let g = s.get(&id).await;
    assert!(g["engine_seed"].is_null() && g["engine_host"] == "server");
    let (status, g) = s.play(&id, Some(&token), &first_legal(&g), 0).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    let (status, refused) = s.play(&id, Some(&token), &first_legal(&g), 1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(
        refused["error"] == "not_your_turn" || refused["error"] == "stale_ply",
        "{refused}"
    );
    let g = s.wait_for(&id, 10, |g| ply(g) == 2).await;
    assert!(g["engine_seed"].is_null(), "{g}");
}

#[tokio::test]
async fn a_browser_plays_the_computer_against_itself_with_a_token_only_it_holds() {
    let s = engineless().await;
    let created = s
        .create(json!({"mode": "engine", "size": "4x4", "color": "none", "level": 1, "engine_host": "browser"}))
        .await;
    assert!(created["seat"].is_null(), "the creator watches: {created}");
    let token = created["token"]
        .as_str()
        .expect("the host's token")
        .to_string();
    let id = created["id"].as_str().unwrap().to_string();
    // One such game per client, as with the server's engine.
    let (status, quota) = create_raw(
        &s,
        json!({"mode": "engine", "size": "4x4", "color": "none", "engine_host": "browser"}),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{quota}");
    let mut state = created["game"].clone();
    while state["status"] == "playing" {
        assert!(state["engine_seed"].is_u64(), "{state}");
        let mv = first_legal(&state);
        let (status, _) = s.play(&id, None, &mv, ply(&state)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, after) = s.play(&id, Some(&token), &mv, ply(&state)).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        state = after;
    }
    assert_eq!(state["result"]["reason"], "no_moves");
    let (status, again) = rematch_raw(&s, &id, &token, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    assert!(again["seat"].is_null(), "{again}");
    assert_eq!(again["game"]["engine_host"], "browser");
    // Taking back, a person's claim: nothing the watcher may do.
    let next = again["id"].as_str().unwrap();
    let (status, _) = s
        .post(&format!("/api/games/{next}/takeback"), Some(&token))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_rematch_keeps_or_changes_who_plays_the_computer_where_the_server_can() {
    let s = engineless().await;
    let (id, token, _) = s
        .create_seated(
            json!({"mode": "engine", "size": "6x6", "color": "black", "engine_host": "browser"}),
        )
        .await;
    let (status, _) = s
        .post(&format!("/api/games/{id}/resign"), Some(&token))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, refused) = rematch_raw(&s, &id, &token, json!({"engine_host": "server"})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["error"], "engine_unavailable");
    let (status, bad) = rematch_raw(&s, &id, &token, json!({"engine_host": "moon"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    let (status, again) = s
        .post(&format!("/api/games/{id}/rematch"), Some(&token))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    assert_eq!(again["seat"], "white");
    assert_eq!(again["game"]["engine_host"], "browser");
    assert!(again["game"]["engine_seed"].is_u64(), "the computer opens");
}

#[tokio::test]
async fn a_computer_nobody_plays_is_left_to_the_clock_and_the_idle_rules_as_a_person() {
    let s = start_configured(|c| {
        c.engine_threads = 0;
        c.timing.abort_after_ms = 300;
        c.timing.janitor_every_ms = 100;
    })
    .await;
    let browser = |extra: Value| {
        let mut body =
            json!({"mode": "engine", "size": "6x6", "color": "black", "engine_host": "browser"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    // The computer never opened: aborted like a game whose players never both moved.
    let (unopened, _, _) = s.create_seated(browser(json!({"color": "white"}))).await;
    // Timed, two plies each way: the computer's clock runs while its browser thinks, and
    // when that browser is gone its time runs out like a person's.
    let (timed, token, created) = s
        .create_seated(browser(json!({"clock": {"minutes": 0.05}})))
        .await;
    let (untimed, untimed_token, untimed_created) = s.create_seated(browser(json!({}))).await;
    for (id, token, mut state) in [
        (&timed, &token, created["game"].clone()),
        (&untimed, &untimed_token, untimed_created["game"].clone()),
    ] {
        for ply in 0..3 {
            if ply == 1 {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            let (status, next) = s.play(id, Some(token), &first_legal(&state), ply).await;
            assert_eq!(status, StatusCode::OK, "{next}");
            state = next;
        }
    }
    let g = s.get(&timed).await;
    let white_ms = g["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        white_ms <= 2_800,
        "the computer's clock ran while it thought: {g}"
    );
    let g = s
        .wait_for(&unopened, 5, |g| g["status"] == "finished")
        .await;
    assert_eq!(g["result"], json!({"winner": null, "reason": "aborted"}));
    let g = s.wait_for(&timed, 10, |g| g["status"] == "finished").await;
    assert_eq!(
        g["result"],
        json!({"winner": "black", "reason": "timeout"}),
        "{g}"
    );
    // Untimed and under way: it waits for the computer's page, however long.
    assert_eq!(s.get(&untimed).await["status"], "playing");
}
