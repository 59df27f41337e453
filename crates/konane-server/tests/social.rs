//! Follows and blocks over real HTTP: following a player shows when they are online and
//! playing; a block stops their challenges (403 `blocked`, nothing more said) and keeps
//! quick pairing from putting the two together; both lists, the profile's ties, and what is
//! refused.

mod common;

use common::{TestServer, registered, seek, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

async fn act(s: &TestServer, p: &mut common::Player, method: Method, path: &str) -> StatusCode {
    let body = (method == Method::POST).then(|| json!({}));
    let (status, answer) = s.send(p, method, path, body).await;
    assert!(
        status == StatusCode::NO_CONTENT || !status.is_success(),
        "{answer}"
    );
    status
}

async fn list(s: &TestServer, p: &mut common::Player, which: &str) -> Vec<Value> {
    let (status, body) = s
        .send(p, Method::GET, &format!("/api/account/{which}"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["players"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_followed_player_is_listed_online_and_playing() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut bo = registered(&s, "Bo", "127.0.0.3").await;
    let mut cy = registered(&s, "Cy", "127.0.0.4").await;
    assert!(list(&s, &mut ana, "following").await.is_empty());
    assert_eq!(
        act(&s, &mut ana, Method::POST, "/api/players/bo/follow").await,
        StatusCode::NO_CONTENT
    );
    // Following twice changes nothing.
    act(&s, &mut ana, Method::POST, "/api/players/Bo/follow").await;
    act(&s, &mut ana, Method::POST, "/api/players/Cy/follow").await;
    let players = list(&s, &mut ana, "following").await;
    assert_eq!(
        players,
        [
            json!({"name": "Bo", "online": false, "playing": null}),
            json!({"name": "Cy", "online": false, "playing": null}),
        ],
        "nobody has been seen since registering"
    );
    // Bo comes by and starts a game with Cy.
    let body =
        json!({"mode": "friend", "color": "black", "challenge": "Cy", "clock": {"minutes": 5}});
    let (status, created) = s
        .send(&mut bo, Method::POST, "/api/games", Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) = s
        .send(
            &mut cy,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    // The last-seen time is written apart from the request: it lands within moments.
    let mut players = list(&s, &mut ana, "following").await;
    for _ in 0..50 {
        if players[0]["online"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        players = list(&s, &mut ana, "following").await;
    }
    assert_eq!(
        players[0],
        json!({"name": "Bo", "online": true, "playing": id})
    );
    assert_eq!(players[1]["playing"], json!(id));
    // The profile says whom the viewer follows; one's own says nothing.
    let (_, profile) = s.send(&mut ana, Method::GET, "/api/players/Bo", None).await;
    assert_eq!(
        profile["relation"],
        json!({"following": true, "blocking": false})
    );
    let (_, own) = s
        .send(&mut ana, Method::GET, "/api/players/Ana", None)
        .await;
    assert_eq!(own["relation"], Value::Null);
    let (_, visitor) = s.json("/api/players/Bo").await;
    assert_eq!(visitor["relation"], Value::Null);
    act(&s, &mut ana, Method::DELETE, "/api/players/Bo/follow").await;
    let players = list(&s, &mut ana, "following").await;
    assert_eq!(players.len(), 1);
    assert_eq!(players[0]["name"], "Cy");
}

#[tokio::test]
async fn what_cannot_be_followed_or_blocked_is_refused() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    registered(&s, "Bo", "127.0.0.3").await;
    for path in ["/api/players/Ana/follow", "/api/players/ana/block"] {
        let (status, body) = s.send(&mut ana, Method::POST, path, Some(json!({}))).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["error"], "yourself");
    }
    let (status, body) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/players/Nobody/follow",
            Some(json!({})),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, _) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/players/Bo/follow",
            Some(json!({"x": 1})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let mut guest = s.player("guest", "127.0.0.9");
    let (status, body) = s
        .send(
            &mut guest,
            Method::POST,
            "/api/players/Bo/block",
            Some(json!({})),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required"))
    );
    let (status, _) = s
        .send(&mut guest, Method::GET, "/api/account/following", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // At most 500 follows: the 501st is refused.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&s.database).await.unwrap();
    let (me,): (String,) = sqlx::query_as("SELECT id FROM accounts WHERE name = 'Ana'")
        .fetch_one(&pool)
        .await
        .unwrap();
    for i in 0..500 {
        sqlx::query("INSERT INTO follows (follower, followed, created_at) VALUES ($1, $2, 0)")
            .bind(&me)
            .bind(format!("ghost{i}"))
            .execute(&pool)
            .await
            .unwrap();
    }
    let (status, body) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/players/Bo/follow",
            Some(json!({})),
        )
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too_many_follows"))
    );
}

#[tokio::test]
async fn a_blocked_player_cannot_challenge_or_be_paired_with_the_blocker() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    act(&s, &mut ana, Method::POST, "/api/players/Kai/follow").await;
    act(&s, &mut kai, Method::POST, "/api/players/Ana/follow").await;
    assert_eq!(
        act(&s, &mut kai, Method::POST, "/api/players/Ana/block").await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        list(&s, &mut kai, "blocked").await,
        [json!({"name": "Ana"})]
    );
    // A block ends the follows both ways.
    assert!(list(&s, &mut ana, "following").await.is_empty());
    assert!(list(&s, &mut kai, "following").await.is_empty());
    let (_, profile) = s
        .send(&mut kai, Method::GET, "/api/players/Ana", None)
        .await;
    assert_eq!(
        profile["relation"],
        json!({"following": false, "blocking": true})
    );
    // Ana is told her challenge is not taken, and no more: not that she is blocked.
    let body = json!({"mode": "friend", "challenge": "Kai", "clock": {"minutes": 5}});
    let (status, refused) = s
        .send(&mut ana, Method::POST, "/api/games", Some(body.clone()))
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    let (_, kais) = s
        .send(&mut kai, Method::GET, "/api/account/games", None)
        .await;
    assert!(kais["challenges"].as_array().unwrap().is_empty(), "{kais}");
    // Kai may still challenge Ana: the block is his.
    let back = json!({"mode": "friend", "challenge": "Ana", "clock": {"minutes": 5}});
    let (status, _) = s
        .send(&mut kai, Method::POST, "/api/games", Some(back))
        .await;
    assert_eq!(status, StatusCode::CREATED);

    // Quick pairing never puts them together, whoever seeks first.
    let first = seek(&s, &mut ana, true).await;
    let second = seek(&s, &mut kai, true).await;
    assert_eq!(
        (first["status"].as_str(), second["status"].as_str()),
        (Some("waiting"), Some("waiting"))
    );
    let (_, again) = s
        .send(
            &mut ana,
            Method::GET,
            &format!("/api/seeks/{}", first["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(again["status"], "waiting", "{again}");
    // Lifted, the challenge goes through and the seeks meet.
    act(&s, &mut kai, Method::DELETE, "/api/players/Ana/block").await;
    assert!(list(&s, &mut kai, "blocked").await.is_empty());
    let (status, _) = s
        .send(&mut ana, Method::POST, "/api/games", Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, paired) = s
        .send(
            &mut kai,
            Method::GET,
            &format!("/api/seeks/{}", second["id"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(paired["status"], "paired", "{paired}");
}
