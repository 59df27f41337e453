//! A tournament's table in pages, over real HTTP: the socket sends the first page and the
//! player's own line with its neighbours, `GET /api/tournaments/{id}?page=N` any page, and
//! a page that is not there is refused by name.

mod common;

use std::time::Duration;

use common::tournaments::{act, create, players, quick, show};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// Players in the test's arena: one more page than a full one, and a line past the first.
const PLAYERS: usize = 27;

fn ranks(lines: &Value) -> Vec<i64> {
    lines
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| l["rank"].as_i64().expect("a rank"))
        .collect()
}

#[tokio::test]
async fn the_table_comes_in_pages_with_each_players_own_line() {
    let s = quick().await;
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("Pager{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut ps = players(&s, &names).await;
    let t = create(
        &s,
        &mut ps[0],
        json!({"kind": "arena", "name": "Big Arena", "clock": {"minutes": 3},
        "minutes": 10, "starts_in_s": 3600}),
    )
    .await;
    let id = t["id"].as_str().expect("an id").to_string();
    for p in ps.iter_mut().skip(1) {
        let (status, joined) = act(&s, p, &id, "join", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{joined}");
    }
    // Before any game the table is in the order of joining: player i is ranked i + 1.
    let whole = show(&s, &id).await;
    assert_eq!(
        ranks(&whole["standings"]).len(),
        PLAYERS,
        "no page: the whole table"
    );
    assert_eq!(whole["standings_total"], PLAYERS);
    assert_eq!(whole["standings_pages"], 2);
    assert_eq!(whole["standings"][26]["name"], "Pager26");

    let last = ps.last_mut().expect("players");
    let path = format!("/api/tournaments/{id}?page=2");
    let (status, second) = s.send(last, Method::GET, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(ranks(&second["standings"]), vec![26, 27]);
    assert_eq!(second["standings_total"], PLAYERS);
    assert_eq!(second["me"]["lines"][2]["name"], "Pager26", "{second}");
    assert_eq!(ranks(&second["me"]["lines"]), vec![25, 26, 27]);
    let (status, first) = s.json(&format!("/api/tournaments/{id}?page=1")).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(ranks(&first["standings"]), (1..=25).collect::<Vec<_>>());
    assert!(first["me"].is_null(), "a visitor has no part");

    for bad in ["0", "3", "-1", "two", ""] {
        let (status, refused) = s.json(&format!("/api/tournaments/{id}?page={bad}")).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "page={bad}: {refused}"
        );
        assert_eq!(
            (refused["error"].as_str(), refused["field"].as_str()),
            (Some("bad_field"), Some("page")),
            "page={bad}: {refused}"
        );
    }

    // The socket: the first page, and the player's own line with its neighbours.
    let mut request = format!(
        "{}/api/tournaments/{id}/ws",
        s.base.replace("http://", "ws://")
    )
    .into_client_request()
    .expect("a request");
    let cookie = last.cookie.clone().expect("logged in");
    request
        .headers_mut()
        .insert("cookie", cookie.parse().expect("a header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("connects");
    let view = loop {
        let message = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("a message");
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(text.as_str()).expect("JSON");
            break v["tournament"].clone();
        }
    };
    assert_eq!(ranks(&view["standings"]), (1..=25).collect::<Vec<_>>());
    assert_eq!(view["standings_total"], PLAYERS);
    assert_eq!(view["standings_pages"], 2);
    assert_eq!(ranks(&view["me"]["lines"]), vec![25, 26, 27]);
    assert_eq!(view["me"]["lines"][2]["name"], "Pager26");
    assert_eq!(view["me"]["joined"], true);
}
