//! Notifications over real HTTP, each raised by its real cause: a challenge, its answer (taken
//! or declined), a correspondence move, a game's end; delivered live on the account's socket
//! and listed, marked read; none for a challenge a block stopped.

mod common;

use std::time::Duration;

use common::{Player, TestServer, first_legal, registered, start};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// `p`'s account socket.
async fn account_socket(s: &TestServer, p: &Player) -> Ws {
    let url = format!("{}/api/account/ws", s.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("cookie", p.cookie.clone().unwrap().parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The next JSON message of `ws`, within five seconds.
async fn next(ws: &mut Ws) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

async fn notifications(s: &TestServer, p: &mut Player) -> Value {
    let (status, body) = s
        .send(p, Method::GET, "/api/account/notifications", None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn challenge(s: &TestServer, from: &mut Player, to: &str, clock: Value) -> String {
    let body = json!({"mode": "friend", "color": "black", "challenge": to, "clock": clock});
    let (status, created) = s.send(from, Method::POST, "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    created["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_challenge_and_its_answers_reach_the_players_live() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let mut kais = account_socket(&s, &kai).await;
    let hello = next(&mut kais).await;
    assert_eq!(
        hello,
        json!({"type": "notifications", "unread": 0, "notifications": []})
    );
    let mut anas = account_socket(&s, &ana).await;
    next(&mut anas).await;

    let first = challenge(&s, &mut ana, "Kai", json!({"minutes": 5})).await;
    let heard = next(&mut kais).await;
    assert_eq!(heard["type"], "notification");
    assert_eq!(heard["unread"], 1);
    let n = &heard["notification"];
    assert_eq!(
        (n["kind"].as_str(), n["from"].as_str()),
        (Some("challenge"), Some("Ana"))
    );
    assert_eq!(n["game"], first.as_str());
    assert_eq!(n["read"], false);
    // Declined: Ana is told so, as "declined", never as an abort.
    let (status, _) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{first}/decline"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let told = next(&mut anas).await["notification"].clone();
    assert_eq!(
        (told["kind"].as_str(), told["from"].as_str()),
        (Some("challenge_declined"), Some("Kai"))
    );
    // Taken: Ana is told that too.
    let second = challenge(&s, &mut ana, "Kai", json!({"minutes": 5})).await;
    assert_eq!(
        next(&mut kais).await["notification"]["game"],
        second.as_str()
    );
    let (status, _) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{second}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let told = next(&mut anas).await["notification"].clone();
    assert_eq!(
        (told["kind"].as_str(), told["game"].as_str()),
        (Some("challenge_accepted"), Some(second.as_str()))
    );
    // Nobody was told of the declined game's end: it never started.
    let listed = notifications(&s, &mut ana).await;
    let kinds: Vec<&str> = listed["notifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["challenge_accepted", "challenge_declined"],
        "newest first"
    );

    // A block stops the challenge, and Kai hears nothing of it.
    let (status, _) = s
        .send(
            &mut kai,
            Method::POST,
            "/api/players/Ana/block",
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let body = json!({"mode": "friend", "challenge": "Kai", "clock": {"minutes": 5}});
    let (status, _) = s
        .send(&mut ana, Method::POST, "/api/games", Some(body))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(notifications(&s, &mut kai).await["unread"], 2);
}

#[tokio::test]
async fn a_correspondence_move_and_the_games_end_are_told_and_read() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let id = challenge(&s, &mut ana, "Kai", json!({"days": 2})).await;
    let (status, joined) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let kai_token = joined["token"].as_str().unwrap().to_string();
    let (_, seat) = s
        .send(
            &mut ana,
            Method::GET,
            &format!("/api/account/games/{id}/seat"),
            None,
        )
        .await;
    let ana_token = seat["token"].as_str().unwrap().to_string();
    let mut kais = account_socket(&s, &kai).await;
    let hello = next(&mut kais).await;
    assert_eq!(hello["unread"], 1, "the challenge: {hello}");
    // Ana (Black) moves: Kai's turn.
    let state = s.get(&id).await;
    let (status, after) = s.play(&id, Some(&ana_token), &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let turn = next(&mut kais).await;
    assert_eq!(turn["unread"], 2);
    assert_eq!(
        (
            turn["notification"]["kind"].as_str(),
            turn["notification"]["from"].as_str()
        ),
        (Some("your_turn"), Some("Ana"))
    );
    // Kai resigns: Ana is told she won; Kai, who resigned, is not told.
    let (status, _) = s
        .post(&format!("/api/games/{id}/resign"), Some(&kai_token))
        .await;
    assert_eq!(status, StatusCode::OK);
    let anas = notifications(&s, &mut ana).await;
    let over = &anas["notifications"][0];
    assert_eq!(
        (
            over["kind"].as_str(),
            over["reason"].as_str(),
            over["won"].as_bool()
        ),
        (Some("game_over"), Some("resignation"), Some(true))
    );
    let kais_list = notifications(&s, &mut kai).await;
    assert_eq!(
        kais_list["unread"], 2,
        "no game_over for the one who resigned"
    );

    // Read marks: one by id, then all; bad bodies refused; another's ids change nothing.
    let first_id = kais_list["notifications"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, read) = s
        .send(
            &mut kai,
            Method::POST,
            "/api/account/notifications/read",
            Some(json!({"ids": [first_id]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(read["unread"], 1);
    assert_eq!(read["notifications"][0]["read"], true);
    let anas_id = anas["notifications"][0]["id"].as_str().unwrap().to_string();
    let (_, read) = s
        .send(
            &mut kai,
            Method::POST,
            "/api/account/notifications/read",
            Some(json!({"ids": [anas_id]})),
        )
        .await;
    assert_eq!(read["unread"], 1);
    assert_eq!(
        notifications(&s, &mut ana).await["unread"],
        2,
        "Ana's stay unread"
    );
    for bad in [
        json!({}),
        json!({"ids": []}),
        json!({"all": true, "ids": ["x"]}),
        json!({"all": "yes"}),
    ] {
        let (status, _) = s
            .send(
                &mut kai,
                Method::POST,
                "/api/account/notifications/read",
                Some(bad.clone()),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    }
    let (_, read) = s
        .send(
            &mut kai,
            Method::POST,
            "/api/account/notifications/read",
            Some(json!({"all": true})),
        )
        .await;
    assert_eq!(read["unread"], 0);
    let mut guest = s.player("guest", "127.0.0.9");
    let (status, _) = s
        .send(&mut guest, Method::GET, "/api/account/notifications", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
