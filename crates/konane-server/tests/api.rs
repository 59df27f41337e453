//! The API over real HTTP and WebSocket, against a real server on a loopback port.

mod common;

use common::{first_legal, start, start_with};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn ply(state: &Value) -> u64 {
    state["ply"].as_u64().unwrap()
}

#[tokio::test]
async fn a_whole_game_against_the_engine() {
    let s = start().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "white", "level": 2}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    assert_eq!(created["seat"], "white");
    let mut ws = s.socket(id).await;
    let mut state = ws.next_state(5).await;
    while state["status"] == "playing" {
        if state["turn"] == "white" {
            let (status, after) = s
                .play(id, Some(token), &first_legal(&state), ply(&state))
                .await;
            assert_eq!(status, StatusCode::OK, "{after}");
        }
        state = ws.next_state(10).await;
    }
    assert_eq!(state["status"], "finished");
    let winner = state["result"]["winner"].as_str().unwrap().to_string();
    assert_eq!(state["result"]["reason"], "no_moves");
    let record = s.text(&format!("/api/games/{id}/record")).await;
    let parsed = konane_core::Record::parse(&record).expect("the record reads back");
    assert_eq!(parsed.tag("Result"), Some(winner.as_str()));
    assert_eq!(parsed.game().ply() as u64, ply(&state));
    assert_eq!(
        s.play(id, Some(token), "a1", ply(&state)).await.0,
        StatusCode::CONFLICT
    );
}

#[tokio::test]
async fn the_engine_plays_itself_for_watchers() {
    let s = start().await;
    let created = s
        .create(json!({"mode": "engine", "size": "5x5", "color": "none", "level": 1}))
        .await;
    assert!(created["token"].is_null() && created["seat"].is_null());
    let id = created["id"].as_str().unwrap();
    // Nobody watches: the engine does not spend a search on it.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(ply(&s.get(id).await), 0);
    let mut ws = s.socket(id).await;
    let g = ws.until(30, |g| g["status"] == "finished").await;
    assert!(ply(&g) >= 2, "{g}");
    // One such game at a time per client, and only on boards the engine can afford.
    let again = json!({"mode": "engine", "size": "5x5", "color": "none", "level": 1});
    assert_eq!(s.create(again.clone()).await["game"]["status"], "playing");
    let refused = s
        .client
        .post(s.url("/api/games"))
        .json(&again)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        refused.json::<Value>().await.unwrap()["error"],
        "engine_quota"
    );
    let other = s.client_from("127.0.0.2");
    let big = json!({"mode": "engine", "size": "12x12", "color": "none"});
    let refused = other
        .post(s.url("/api/games"))
        .json(&big)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let fine = other
        .post(s.url("/api/games"))
        .json(&again)
        .send()
        .await
        .unwrap();
    assert_eq!(
        fine.status(),
        StatusCode::CREATED,
        "another client has its own game"
    );
}

#[tokio::test]
async fn a_friend_game_is_seen_live_by_both() {
    let s = start().await;
    let created = s
        .create(json!({"mode": "friend", "size": "4x4", "color": "black", "name": "Ana"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["invite_url"], format!("/game/{id}?join"));
    assert_eq!(created["game"]["status"], "waiting");
    let black = created["token"].as_str().unwrap().to_string();
    let joined: Value = s
        .client
        .post(s.url(&format!("/api/games/{id}/join")))
        .json(&json!({"name": "Kai"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(joined["seat"], "white");
    assert_eq!(joined["game"]["players"]["white"]["name"], "Kai");
    let white = joined["token"].as_str().unwrap().to_string();
    // A third visitor only watches.
    let (status, body) = s.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("seats_taken"))
    );
    let mut ws_black = s.socket(&id).await;
    let mut ws_white = s.socket(&id).await;
    let mut state = ws_black.next_state(5).await;
    ws_white.next_state(5).await;
    while state["status"] == "playing" {
        let token = if state["turn"] == "black" {
            &black
        } else {
            &white
        };
        let mv = first_legal(&state);
        let (status, _) = s.play(&id, Some(token), &mv, ply(&state)).await;
        assert_eq!(status, StatusCode::OK);
        state = ws_black.next_state(5).await;
        let seen = ws_white.next_state(5).await;
        assert_eq!(seen["moves"], state["moves"]);
        assert_eq!(
            state["moves"].as_array().unwrap().last().unwrap(),
            &json!(mv)
        );
    }
    assert_eq!(state["status"], "finished");
}

#[tokio::test]
async fn two_players_on_one_device_and_a_rematch() {
    let s = start().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "local", "size": "4x5"}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    assert_eq!(created["seat"], "both");
    let mut state = created["game"].clone();
    while state["status"] == "playing" {
        let (status, next) = s
            .play(id, Some(token), &first_legal(&state), ply(&state))
            .await;
        assert_eq!(status, StatusCode::OK);
        state = next;
    }
    let (status, again) = s
        .post(&format!("/api/games/{id}/rematch"), Some(token))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    let new_id = again["id"].as_str().unwrap();
    assert_ne!(new_id, id);
    assert_eq!(s.get(id).await["rematch"], json!(new_id));
    // Asking again returns the same rematch.
    let (_, same) = s
        .post(&format!("/api/games/{id}/rematch"), Some(token))
        .await;
    assert_eq!(same["id"], json!(new_id));
    assert_eq!(
        s.play(new_id, Some(token), &first_legal(&again["game"]), 0)
            .await
            .0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn an_open_game_waits_in_the_lobby() {
    let s = start().await;
    let created = s
        .create(json!({"mode": "open", "color": "white", "clock": {"minutes": 3, "increment": 2}}))
        .await;
    let id = created["id"].as_str().unwrap();
    let lobby: Value = s
        .client
        .get(s.url("/api/lobby"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let listed = &lobby["games"][0];
    assert_eq!(
        (listed["id"].as_str(), listed["free_seat"].as_str()),
        (Some(id), Some("black"))
    );
    assert_eq!(listed["clock"]["increment_ms"], 2000);
    let (status, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(joined["seat"], "black");
    assert_eq!(joined["game"]["clock"]["running"], "black");
    let lobby: Value = s
        .client
        .get(s.url("/api/lobby"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(lobby["games"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn takeback_against_the_engine_only() {
    let s = start().await;
    let (id, token, _) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "black", "level": 1}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    s.play(id, Some(token), "c4", 0).await;
    let g = s.wait_for(id, 10, |g| ply(g) == 2).await;
    let (status, back) = s
        .post(&format!("/api/games/{id}/takeback"), Some(token))
        .await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!((ply(&back), back["turn"].as_str()), (0, Some("black")));
    assert_ne!(g["seq"], back["seq"]);
    let friend = s.create(json!({"mode": "local", "size": "4x4"})).await;
    let (fid, ftoken) = (
        friend["id"].as_str().unwrap(),
        friend["token"].as_str().unwrap(),
    );
    s.play(fid, Some(ftoken), "a4", 0).await;
    let (status, body) = s
        .post(&format!("/api/games/{fid}/takeback"), Some(ftoken))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("no_takeback"))
    );
}

#[tokio::test]
async fn every_error_is_json_and_changes_nothing() {
    let s = start().await;
    let created = s
        .create(json!({"mode": "friend", "size": "6x6", "color": "black"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let (status, body) = s.play(&id, Some(&black), "c4", 0).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("not_started"))
    );
    let (_, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
    let white = joined["token"].as_str().unwrap().to_string();
    let before = s.get(&id).await;

    let post_raw = |body: &'static str| {
        s.client
            .post(s.url(&format!("/api/games/{id}/moves")))
            .bearer_auth(&black)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let cases: Vec<(StatusCode, &str, reqwest::Response)> = vec![
        (
            StatusCode::BAD_REQUEST,
            "bad_request",
            post_raw("{\"move\": ").await.unwrap(),
        ),
        (
            StatusCode::BAD_REQUEST,
            "bad_request",
            post_raw("{\"move\": 5, \"ply\": 0}").await.unwrap(),
        ),
    ];
    for (want, code, r) in cases {
        assert_eq!(r.status(), want);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], code, "{body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // (token, move, ply, expected status, error code, words in the message)
    type Case<'a> = (Option<&'a str>, &'a str, u64, StatusCode, &'a str, &'a str);
    let checks: Vec<Case> = vec![
        (
            Some(&black),
            "zz9",
            0,
            StatusCode::BAD_REQUEST,
            "bad_move",
            "not a square",
        ),
        (
            Some(&black),
            "d3-d5",
            0,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            "Black removing",
        ),
        (
            Some(&black),
            "b6",
            0,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            "not one of black's stones",
        ),
        (
            Some(&black),
            "b5",
            0,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            "centre or a corner",
        ),
        (None, "c4", 0, StatusCode::FORBIDDEN, "forbidden", "token"),
        (
            Some("0123456789abcdef0123456789abcdef"),
            "c4",
            0,
            StatusCode::FORBIDDEN,
            "forbidden",
            "no seat",
        ),
        (
            Some(&white),
            "c4",
            0,
            StatusCode::CONFLICT,
            "not_your_turn",
            "black's turn",
        ),
        (
            Some(&black),
            "c4",
            3,
            StatusCode::CONFLICT,
            "stale_ply",
            "ply 3",
        ),
    ];
    for (token, mv, p, want, code, words) in checks {
        let (status, body) = s.play(&id, token, mv, p).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (want, Some(code)),
            "{mv}: {body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains(words),
            "{mv}: {body}"
        );
    }
    let (status, body) = s.play("nosuchgame", Some(&black), "c4", 0).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let huge = format!("{{\"move\": \"{}\", \"ply\": 0}}", "a".repeat(100_000));
    let r = s
        .client
        .post(s.url(&format!("/api/games/{id}/moves")))
        .bearer_auth(&black)
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "too_large");
    let bad_create = s
        .client
        .post(s.url("/api/games"))
        .json(&json!({"mode": "engine", "size": "3x3"}))
        .send()
        .await
        .unwrap();
    assert_eq!(bad_create.status(), StatusCode::BAD_REQUEST);
    let bad_create = s
        .client
        .post(s.url("/api/games"))
        .json(&json!({"mode": "chess"}))
        .send()
        .await
        .unwrap();
    assert_eq!(bad_create.status(), StatusCode::BAD_REQUEST);
    // Nothing above changed the game.
    assert_eq!(s.get(&id).await["seq"], before["seq"]);
    assert_eq!(s.get(&id).await["moves"], before["moves"]);
    // After the game ends, moves are refused as game over.
    s.post(&format!("/api/games/{id}/resign"), Some(&white))
        .await;
    let (status, body) = s.play(&id, Some(&black), "c4", 0).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );
    let over = s.get(&id).await;
    assert_eq!(
        over["result"],
        json!({"winner": "black", "reason": "resignation"})
    );
}

#[tokio::test]
async fn too_many_requests_get_429() {
    let s = start_with(5, None).await;
    let mut statuses = Vec::new();
    for _ in 0..30 {
        let r = s.client.get(s.url("/api/lobby")).send().await.unwrap();
        statuses.push(r.status());
        if r.status() == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(
                r.json::<Value>().await.unwrap()["error"],
                "too_many_requests"
            );
        }
    }
    assert!(statuses.contains(&StatusCode::OK));
    assert!(statuses.contains(&StatusCode::TOO_MANY_REQUESTS));
}

#[tokio::test]
async fn a_double_submit_is_accepted_once() {
    let s = start().await;
    let (id, token, _) = s
        .create_seated(json!({"mode": "local", "size": "8x8"}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    for round in 0..10u64 {
        let state = s.get(id).await;
        let mv = first_legal(&state);
        let (a, b) = tokio::join!(
            s.play(id, Some(token), &mv, round),
            s.play(id, Some(token), &mv, round)
        );
        let mut statuses = [a.0, b.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}"
        );
        assert_eq!(ply(&s.get(id).await), round + 1);
    }
}

#[tokio::test]
async fn a_clock_runs_out_while_nobody_is_there() {
    let s = start().await;
    let clock = json!({"minutes": 0.02, "increment": 0});
    let created = s
        .create(json!({"mode": "friend", "size": "4x4", "color": "black", "clock": clock}))
        .await;
    let id = created["id"].as_str().unwrap();
    let black = created["token"].as_str().unwrap();
    let mut ws = s.socket(id).await;
    ws.next_state(5).await;
    let (status, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, StatusCode::OK);
    let white = joined["token"].as_str().unwrap();
    for (ply, token) in [(0, black), (1, white)] {
        let state = s.get(id).await;
        let (status, body) = s.play(id, Some(token), &first_legal(&state), ply).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // Nobody moves and nobody asks: the server ends the game by itself.
    let over = ws.until(5, |g| g["status"] == "finished").await;
    assert_eq!(over["result"]["winner"], "white");
    assert_eq!(over["result"]["reason"], "timeout");
    assert_eq!(over["clock"]["black_ms"], 0);
    // A clock that runs out before both players have moved ends the game without a winner.
    let created = s
        .create(json!({"mode": "friend", "size": "4x4", "color": "black", "clock": clock}))
        .await;
    let id = created["id"].as_str().unwrap();
    s.post(&format!("/api/games/{id}/join"), None).await;
    let over = s.wait_for(id, 5, |g| g["status"] == "finished").await;
    assert_eq!(over["result"]["reason"], "aborted", "{over}");
    assert_eq!(over["result"]["winner"], Value::Null);
}

#[tokio::test]
async fn any_position_is_judged_by_the_rules() {
    let s = start().await;
    let ask = |body: Value| {
        let r = s.client.post(s.url("/api/position")).json(&body).send();
        async move {
            let r = r.await.unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        }
    };
    let start8 = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
    let (status, view) = ask(json!({ "position": start8 })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["phase"], "black-removal");
    assert_eq!(view["legal_moves"], json!(["a8", "d5", "e4", "h1"]));
    let (_, view) = ask(json!({ "position": start8, "opening": "center" })).await;
    assert_eq!(view["legal_moves"], json!(["d5", "e4"]));

    let (status, view) = ask(json!({ "position": start8, "move": "E4" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["played"], "e4");
    assert_eq!(view["turn"], "white");
    assert_eq!(view["legal_moves"], json!(["d4", "e3", "e5", "f4"]));

    // A jump that ends the game: White has nothing left to jump.
    let (_, view) = ask(json!({ "position": "bw../..../..../.... b", "move": "a4-c4" })).await;
    assert_eq!(view["position"], "..b./..../..../.... w");
    assert_eq!(view["winner"], "black");
    assert_eq!(view["legal_moves"], json!([]));

    let cases = [
        (
            json!({ "position": "bwb/wb b" }),
            StatusCode::BAD_REQUEST,
            "bad_request",
            "row 2",
        ),
        (
            json!({ "position": start8, "opening": "edge" }),
            StatusCode::BAD_REQUEST,
            "bad_request",
            "edge",
        ),
        (
            json!({ "position": start8, "move": "z9" }),
            StatusCode::BAD_REQUEST,
            "bad_move",
            "z9",
        ),
        (
            json!({ "position": start8, "move": "b8" }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            "b8",
        ),
        (
            json!({ "move": "e4" }),
            StatusCode::BAD_REQUEST,
            "bad_request",
            "position",
        ),
    ];
    for (body, status, code, mentions) in cases {
        let (got, answer) = ask(body.clone()).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(code)),
            "{body}"
        );
        let message = answer["message"].as_str().unwrap_or_default();
        assert!(message.contains(mentions), "{body}: {message}");
    }
}

#[tokio::test]
async fn the_host_of_an_invitation_chooses_a_colour() {
    let s = start().await;
    for (chosen, guest) in [("white", "black"), ("black", "white")] {
        let created = s
            .create(json!({"mode": "friend", "size": "4x4", "color": chosen, "name": "Ana"}))
            .await;
        assert_eq!(created["seat"], chosen);
        let id = created["id"].as_str().unwrap();
        assert_eq!(created["game"]["players"][chosen]["name"], "Ana");
        assert_eq!(created["game"]["players"][guest]["seated"], false);
        let (status, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(joined["seat"], guest);
        assert_eq!(joined["game"]["status"], "playing");
    }
    // Random gives one of the two, and says which.
    let random = s
        .create(json!({"mode": "friend", "size": "4x4", "color": "random"}))
        .await;
    assert!(["black", "white"].contains(&random["seat"].as_str().unwrap()));
}

#[tokio::test]
async fn the_host_cancels_an_invitation_nobody_accepted() {
    let s = start().await;
    let (id, host, _) = s
        .create_seated(json!({"mode": "friend", "size": "4x4", "color": "black"}))
        .await;
    let cancel = format!("/api/games/{id}/cancel");
    // Only the host may.
    let (status, body) = s.post(&cancel, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("forbidden"))
    );
    let mut ws = s.socket(&id).await;
    ws.next_state(5).await;
    let (status, state) = s.post(&cancel, Some(&host)).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["reason"], "aborted");
    assert!(state["result"]["winner"].is_null());
    // The page that waits with it hears at once.
    let seen = ws.until(5, |g| g["status"] == "finished").await;
    assert_eq!(seen["result"]["reason"], "aborted");
    // The link no longer seats anybody, and a second cancel says the game is over.
    let (status, _) = s.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(s.get(&id).await["status"], "finished");
    let (status, body) = s.post(&cancel, Some(&host)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("game_over"))
    );
    // Once the guest has joined, it is a game: no cancelling it.
    let (id, host, _) = s
        .create_seated(json!({"mode": "open", "size": "4x4"}))
        .await;
    assert_eq!(
        s.post(&format!("/api/games/{id}/join"), None).await.0,
        StatusCode::OK
    );
    let (status, body) = s
        .post(&format!("/api/games/{id}/cancel"), Some(&host))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("seats_taken"))
    );
    assert_eq!(s.get(&id).await["status"], "playing");
}

#[tokio::test]
async fn the_games_being_played_now_are_listed_to_watch() {
    let s = start().await;
    let live = |s: &common::TestServer| {
        let request = s.client.get(s.url("/api/live"));
        async move {
            let r = request.send().await.unwrap();
            assert_eq!(r.status(), StatusCode::OK);
            r.json::<Value>().await.unwrap()
        }
    };
    let empty = live(&s).await;
    assert_eq!(empty["playing"], 0);
    assert_eq!(empty["games"], json!([]));
    // Two games on, one with more moves; a waiting invitation is not being played.
    let (short, short_token, _) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let (long, long_token, _) = s
        .create_seated(
            json!({"mode": "local", "size": "4x4", "clock": {"minutes": 3, "increment": 2}}),
        )
        .await;
    s.create(json!({"mode": "friend", "size": "4x4"})).await;
    let first = s.get(&short).await;
    s.play(&short, Some(&short_token), &first_legal(&first), 0)
        .await;
    for ply in 0..2 {
        let state = s.get(&long).await;
        let (status, _) = s
            .play(&long, Some(&long_token), &first_legal(&state), ply)
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let now = live(&s).await;
    assert_eq!(now["playing"], 2, "{now}");
    let games = now["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let top = &games[0];
    assert_eq!(top["id"], long.as_str(), "the game with more moves first");
    assert_eq!(top["ply"], 2);
    assert_eq!(top["size"], "4x4");
    assert_eq!(top["clock"]["increment_ms"], 2000);
    assert_eq!(top["position"], s.get(&long).await["position"]);
    assert!(top["last_move"].is_string());
    assert_eq!(top["players"]["black"]["engine"], false);
    assert_eq!(games[1]["id"], short.as_str());
}

#[tokio::test]
async fn an_unknown_address_gets_the_page_with_404() {
    let s = start().await;
    let r = s.client.get(s.url("/no/such/page")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let kind = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/html"), "{kind}");
    let page = r.text().await.unwrap();
    assert!(page.contains("id=\"top\""), "the site's header: {page}");
    // A file that is not there stays a JSON error: no script gets a page for an answer.
    let r = s.client.get(s.url("/nope.js")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "not_found");
}
