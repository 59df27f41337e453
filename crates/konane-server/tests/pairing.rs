//! Quick pairing over real HTTP: two players asking for the same time control meet in one
//! game; nobody meets themselves; a withdrawn seek is never paired; guests pair casual only.

mod common;

use common::{registered, seek, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

#[tokio::test]
async fn two_seekers_meet_in_a_rated_game_with_their_names() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let first = seek(&s, &mut ana, true).await;
    assert_eq!(first["status"], "waiting", "{first}");
    assert_eq!(first["range"], 150);
    let second = seek(&s, &mut kai, true).await;
    assert_eq!(second["status"], "paired", "{second}");
    let (_, first) = s
        .send(
            &mut ana,
            Method::GET,
            &format!("/api/seeks/{}", first["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(first["status"], "paired", "{first}");
    assert_eq!(first["game"], second["game"]);
    assert_ne!(first["seat"], second["seat"]);
    assert_ne!(first["token"], second["token"]);
    let id = first["game"].as_str().unwrap();
    let game = s.get(id).await;
    assert_eq!(
        (game["rated"].as_bool(), game["category"].as_str()),
        (Some(true), Some("blitz"))
    );
    assert_eq!(game["status"], "playing");
    let ana_seat = first["seat"].as_str().unwrap();
    assert_eq!(game["players"][ana_seat]["name"], "Ana");
    assert_eq!(game["players"][ana_seat]["rating"], 1500);
    // The seat token the seek gave is the seat's: Ana can move (or resign) with it.
    let (status, over) = s
        .post(&format!("/api/games/{id}/resign"), first["token"].as_str())
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_ne!(over["result"]["winner"], ana_seat);
}

#[tokio::test]
async fn nobody_meets_themselves_and_a_withdrawn_seek_is_never_paired() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut ana_phone = s.player("Ana", "127.0.0.4");
    ana_phone.cookie = ana.cookie.clone();
    let one = seek(&s, &mut ana, true).await;
    let two = seek(&s, &mut ana_phone, true).await;
    assert_eq!(
        (one["status"].as_str(), two["status"].as_str()),
        (Some("waiting"), Some("waiting"))
    );
    for id in [&one["id"], &two["id"]] {
        let (status, _) = s
            .send(
                &mut ana,
                Method::DELETE,
                &format!("/api/seeks/{}", id.as_str().unwrap()),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let alone = seek(&s, &mut kai, true).await;
    assert_eq!(alone["status"], "waiting", "Ana withdrew both: {alone}");
    // Rated and casual seekers wait apart; a guest may only seek casual games.
    let mut guest = s.player("Gast", "127.0.0.5");
    let (status, body) = s
        .send(
            &mut guest,
            Method::POST,
            "/api/seeks",
            Some(json!({"clock": {"minutes": 6}, "rated": true})),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required"))
    );
    let casual = seek(&s, &mut guest, false).await;
    assert_eq!(casual["status"], "waiting");
    let mut other = s.player("Lani", "127.0.0.6");
    let met = seek(&s, &mut other, false).await;
    assert_eq!(met["status"], "paired", "{met}");
    let game = s.get(met["game"].as_str().unwrap()).await;
    assert_eq!(game["rated"], false);
    let (status, _) = s
        .send(&mut kai, Method::GET, "/api/seeks/nosuchseek", None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn of_three_seekers_at_once_two_meet_and_one_waits() {
    let s = start().await;
    let mut players = Vec::new();
    for (i, name) in ["Ana", "Kai", "Lani"].into_iter().enumerate() {
        players.push(registered(&s, name, &format!("127.0.0.{}", i + 2)).await);
    }
    let [a, b, c] = &mut players[..] else {
        unreachable!()
    };
    let (x, y, z) = tokio::join!(seek(&s, a, true), seek(&s, b, true), seek(&s, c, true));
    let mut answers: Vec<Value> = vec![x, y, z];
    // The seekers that did not see their pairing in the answer find it on asking again.
    for (p, answer) in players.iter_mut().zip(answers.iter_mut()) {
        let path = format!("/api/seeks/{}", answer["id"].as_str().unwrap());
        *answer = s.send(p, Method::GET, &path, None).await.1;
    }
    let paired: Vec<&Value> = answers.iter().filter(|a| a["status"] == "paired").collect();
    assert_eq!(paired.len(), 2, "{answers:?}");
    assert_eq!(paired[0]["game"], paired[1]["game"]);
    assert_ne!(paired[0]["seat"], paired[1]["seat"]);
}

#[tokio::test]
async fn correspondence_seekers_meet_in_a_game_of_days_per_move() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let body = json!({"clock": {"days": 3}, "rated": true});
    let (_, first) = s
        .send(&mut ana, Method::POST, "/api/seeks", Some(body.clone()))
        .await;
    assert_eq!(first["status"], "waiting", "{first}");
    let (_, met) = s
        .send(&mut kai, Method::POST, "/api/seeks", Some(body))
        .await;
    assert_eq!(met["status"], "paired", "{met}");
    let game = s.get(met["game"].as_str().unwrap()).await;
    assert_eq!(game["category"], "correspondence");
    assert_eq!(game["clock"]["per_move"], true);
    assert_eq!(game["clock"]["initial_ms"], 3 * 86_400_000i64);
    for bad in [
        json!({"days": 4}),
        json!({"days": 3, "minutes": 5}),
        json!({}),
    ] {
        let (status, body) = s
            .send(
                &mut ana,
                Method::POST,
                "/api/seeks",
                Some(json!({"clock": bad})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
}
