//! The game service's rules over a real server: refused moves name their reason, the
//! engine is shared fairly, nothing the server does by itself is forgotten, games that
//! never started are aborted, a player who left can be claimed against, rematches race
//! safely, and names are checked.

mod common;

use std::time::{Duration, Instant};

use common::{first_legal, start, start_config, test_config};
use konane_server::{ServerConfig, Timing};
use reqwest::StatusCode;
use serde_json::{Value, json};

const START6: &str = "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b";
/// Black removed c4: White removes next to it.
const WHITE_REMOVES: &str = "bwbwbw/wbwbwb/bw.wbw/wbwbwb/bwbwbw/wbwbwb w";
/// White removed d4: Black jumps.
const BLACK_JUMPS: &str = "bwbwbw/wbwbwb/bw..bw/wbwbwb/bwbwbw/wbwbwb b";

#[tokio::test]
async fn every_kind_of_refused_move_names_its_reason() {
    let s = start().await;
    let cases = [
        (START6, "a6-c6", 422, "first_move_is_removal", json!({})),
        (
            START6,
            "b6",
            422,
            "not_your_stone",
            json!({"square": "b6", "found": "white"}),
        ),
        (
            START6,
            "b5",
            422,
            "first_removal_square",
            json!({"allowed": ["a6", "c4", "d3", "f1"], "opening": "center-or-corner"}),
        ),
        (
            WHITE_REMOVES,
            "a1-a3",
            422,
            "second_move_is_removal",
            json!({"hole": "c4"}),
        ),
        (
            WHITE_REMOVES,
            "a1",
            422,
            "not_next_to_hole",
            json!({"hole": "c4"}),
        ),
        (
            WHITE_REMOVES,
            "a6",
            422,
            "not_your_stone",
            json!({"square": "a6", "found": "black"}),
        ),
        (BLACK_JUMPS, "a1", 422, "removals_over", json!({})),
        (
            BLACK_JUMPS,
            "c4-c2",
            422,
            "not_your_stone",
            json!({"square": "c4", "found": "empty"}),
        ),
        (
            BLACK_JUMPS,
            "e4-c4",
            422,
            "no_stone_to_jump",
            json!({"square": "d4", "opponent": "white"}),
        ),
        (
            BLACK_JUMPS,
            "a6-c6",
            422,
            "landing_not_empty",
            json!({"square": "c6"}),
        ),
        (
            BLACK_JUMPS,
            "zz",
            400,
            "not_a_square",
            json!({"text": "zz"}),
        ),
        (
            BLACK_JUMPS,
            "h9",
            400,
            "off_board",
            json!({"text": "h9", "size": "6x6"}),
        ),
        (
            BLACK_JUMPS,
            "a1-b2",
            400,
            "not_a_jump",
            json!({"text": "a1-b2"}),
        ),
        (
            BLACK_JUMPS,
            "a1-",
            400,
            "not_a_move",
            json!({"text": "a1-"}),
        ),
    ];
    for (position, mv, status, reason, params) in cases {
        let r = s
            .client
            .post(s.url("/api/position"))
            .json(&json!({"position": position, "move": mv}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), status, "{mv}");
        let body: Value = r.json().await.unwrap();
        let error = if status == 400 {
            "bad_move"
        } else {
            "illegal_move"
        };
        assert_eq!(body["error"], error, "{mv}: {body}");
        assert_eq!(body["reason"], reason, "{mv}: {body}");
        for (k, v) in params.as_object().unwrap() {
            assert_eq!(&body["params"][k], v, "{mv}: {k} in {body}");
        }
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // A game's moves are refused the same way.
    let (id, token, _) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let (status, body) = s.play(&id, Some(&token), "b5", 0).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["reason"], "first_removal_square");
    assert_eq!(body["params"]["color"], "black");
}

/// When the engine's first move in a game (it plays Black) arrives.
async fn engine_reply_ms(client: &reqwest::Client, s: &common::TestServer, level: u8) -> u128 {
    let started = Instant::now();
    let r = client
        .post(s.url("/api/games"))
        .json(&json!({"mode": "engine", "size": "8x8", "color": "white", "level": level}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    s.wait_for(&id, 60, |g| g["ply"] == 1).await;
    started.elapsed().as_millis()
}

#[tokio::test]
async fn a_level_one_reply_does_not_wait_behind_another_clients_deep_searches() {
    let s = start().await;
    // One client fills the deep lane: eight level-8 games on 16x16, the engine to move in
    // each, a second a search.
    let heavy = s.client_from("127.0.0.2");
    for _ in 0..8 {
        let r = heavy
            .post(s.url("/api/games"))
            .json(&json!({"mode": "engine", "size": "16x16", "color": "white", "level": 8}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Without lanes the level-1 search would queue behind eight one-second searches on
    // two threads (about four seconds); with them it answers before one of those ends.
    let ms = engine_reply_ms(&s.client, &s, 1).await;
    assert!(
        ms < 900,
        "a level-1 reply took {ms} ms under another client's load"
    );
}

#[tokio::test]
async fn an_engine_move_that_cannot_be_stored_is_tried_again_until_it_is() {
    use sqlx::Connection;
    let s = start().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "engine", "size": "6x6", "color": "black", "level": 6}))
        .await;
    let first = first_legal(&created["game"]);
    let (status, _) = s.play(&id, Some(&token), &first, 0).await;
    assert_eq!(status, StatusCode::OK);
    // Lock the database against writers while the engine thinks (200 ms) and for longer
    // than SQLite waits for a lock (5 s): its first tries to store the move fail.
    let mut lock = sqlx::SqliteConnection::connect(&s.database).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert_eq!(
        s.get(&id).await["ply"],
        1,
        "the engine's move waits for the lock"
    );
    sqlx::query("COMMIT").execute(&mut lock).await.unwrap();
    let g = s.wait_for(&id, 20, |g| g["ply"] == 2).await;
    assert_eq!(g["turn"], "black");
}

fn quick_timing() -> ServerConfig {
    ServerConfig {
        timing: Timing {
            abort_after_ms: 300,
            claim_after_ms: 300,
            self_play_pace_ms: 50,
            janitor_every_ms: 100,
            ..Timing::default()
        },
        ..test_config()
    }
}

#[tokio::test]
async fn games_nobody_starts_or_watches_are_aborted_and_games_under_way_are_not() {
    let s = start_config(quick_timing()).await;
    let (idle, _, _) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let show = s
        .create(json!({"mode": "engine", "size": "6x6", "color": "none", "level": 1}))
        .await;
    let (started, token, created) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let mut ply = 0;
    let mut state = created["game"].clone();
    while ply < 2 {
        let (status, next) = s
            .play(&started, Some(&token), &first_legal(&state), ply)
            .await;
        assert_eq!(status, StatusCode::OK);
        state = next;
        ply += 1;
    }
    let g = s.wait_for(&idle, 5, |g| g["status"] == "finished").await;
    assert_eq!(g["result"], json!({"winner": null, "reason": "aborted"}));
    assert!(g["legal_moves"].as_array().unwrap().is_empty());
    let show = s
        .wait_for(show["id"].as_str().unwrap(), 5, |g| {
            g["status"] == "finished"
        })
        .await;
    assert_eq!(show["result"]["reason"], "aborted", "nobody watched it");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(s.get(&started).await["status"], "playing");
    let record = s.text(&format!("/api/games/{idle}/record")).await;
    assert!(
        record.contains("[Result \"*\"]") && record.contains("aborted"),
        "{record}"
    );
}

#[tokio::test]
async fn a_player_who_left_a_timed_game_on_their_turn_can_be_claimed_against() {
    let mut config = quick_timing();
    config.timing.abort_after_ms = 60_000;
    let s = start_config(config).await;
    let (id, ana, _) = s
        .create_seated(
            json!({"mode": "friend", "size": "6x6", "color": "black", "clock": {"minutes": 5}}),
        )
        .await;
    let (_, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
    let kai = joined["token"].as_str().unwrap().to_string();
    let mut ana_page = s.socket(&id).await;
    ana_page.hello(&ana).await;
    let mut kai_page = s.socket(&id).await;
    kai_page.hello(&kai).await;
    let (status, state) = s
        .play(&id, Some(&ana), &first_legal(&joined["game"]), 0)
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    // Kai is here: no claim.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, body) = s.post(&format!("/api/games/{id}/claim"), Some(&ana)).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("cannot_claim"))
    );
    // Kai leaves on his turn; before the grace time nothing, after it the claim wins.
    drop(kai_page);
    let (status, _) = s.post(&format!("/api/games/{id}/claim"), Some(&ana)).await;
    assert_eq!(status, StatusCode::CONFLICT, "too early");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, _) = s.post(&format!("/api/games/{id}/claim"), Some(&kai)).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "the one who left cannot claim"
    );
    let (status, over) = s.post(&format!("/api/games/{id}/claim"), Some(&ana)).await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(
        over["result"],
        json!({"winner": "black", "reason": "abandoned"})
    );
}

#[tokio::test]
async fn two_players_asking_for_a_rematch_at_once_land_in_the_same_game() {
    let s = start().await;
    for round in 0..30 {
        let (id, ana, _) = s
            .create_seated(json!({"mode": "friend", "size": "4x4", "color": "black"}))
            .await;
        let (_, joined) = s.post(&format!("/api/games/{id}/join"), None).await;
        let kai = joined["token"].as_str().unwrap().to_string();
        s.post(&format!("/api/games/{id}/resign"), Some(&kai)).await;
        let path = format!("/api/games/{id}/rematch");
        let (a, b) = tokio::join!(s.post(&path, Some(&ana)), s.post(&path, Some(&kai)));
        assert!(
            a.0.is_success() && b.0.is_success(),
            "round {round}: {a:?} {b:?}"
        );
        assert_eq!(a.1["id"], b.1["id"], "round {round}");
        assert_eq!(
            (a.1["seat"].as_str(), b.1["seat"].as_str()),
            (Some("white"), Some("black"))
        );
        assert_eq!(s.get(&id).await["rematch"], a.1["id"]);
    }
}

#[tokio::test]
async fn names_that_do_not_show_as_themselves_are_refused() {
    let s = start().await;
    for (name, reason) in [
        ("Ana\u{202E}gnik", "hidden_character"),
        ("A\u{200B}na", "hidden_character"),
        ("xy\u{7}", "hidden_character"),
        (&"n".repeat(21), "too_long"),
        ("A", "too_short"),
        ("Ana Kai", "bad_character"),
        ("Computer", "reserved"),
        ("engine-level-5", "reserved"),
    ] {
        let r = s
            .client
            .post(s.url("/api/games"))
            .json(&json!({"mode": "friend", "name": name}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{name:?}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"], "bad_name", "{body}");
        assert_eq!(body["reason"], reason, "{name:?}: {body}");
        assert_eq!(body["params"]["max"], 20, "{body}");
    }
    let created = s
        .create(json!({"mode": "friend", "name": "  Kōnane_Kai  "}))
        .await;
    let seat = created["seat"].as_str().unwrap();
    assert_eq!(created["game"]["players"][seat]["name"], "Kōnane_Kai");
}

/// The server keeps the last state of a game shown on a page, to spare reading it back on
/// the next move. A change stored behind its back (another instance, or any other writer)
/// must still win: the kept copy fails the store's sequence check and the move is judged
/// again on the stored game.
#[tokio::test]
async fn a_move_stored_elsewhere_is_never_overwritten_by_a_kept_copy() {
    let s = start().await;
    let (id, token, created) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let mut socket = s.socket(&id).await;
    socket.next_state(5).await;
    let (status, after_one) = s
        .play(&id, Some(&token), &first_legal(&created["game"]), 0)
        .await;
    assert_eq!(status, StatusCode::OK, "{after_one}");
    socket.next_state(5).await;

    // Another writer plays White's removal straight into the database.
    let other = konane_server::store::Store::open(&s.database)
        .await
        .unwrap();
    let (mut game, seq) = other.load(&id).await.unwrap().unwrap();
    let elsewhere = first_legal(&after_one);
    game.play(Some(&token), &elsewhere, 1, 0).unwrap();
    assert!(other.update(&game, seq, 0, None).await.unwrap());

    // The kept copy still says White is to remove: that move is refused, as the stored
    // game has it played already, and nothing changes.
    let (status, body) = s.play(&id, Some(&token), &elsewhere, 1).await;
    assert_ne!(status, StatusCode::OK, "{body}");
    assert_eq!(s.get(&id).await["ply"], 2);
    // Black's jump at ply 2 is judged on the stored game and stored after it.
    let stored = s.get(&id).await;
    let (status, body) = s.play(&id, Some(&token), &first_legal(&stored), 2).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let now = s.get(&id).await;
    assert_eq!(now["ply"], 3);
    assert_eq!(now["moves"][1], elsewhere.as_str());
}
