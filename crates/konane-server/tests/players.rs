//! Players over real HTTP: names, accounts and the session cookie, the login limits, rated
//! games changing both ratings exactly once, profiles, archives and the leaderboard.

mod common;

use common::{finish_from_everywhere, rated_game, registered, start};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

#[tokio::test]
async fn an_account_logs_in_and_out_with_an_http_only_cookie() {
    let s = start().await;
    let mut ana = s.player("Ana", "127.0.0.2");
    let r = ana
        .client
        .post(s.url("/api/accounts"))
        .json(&json!({"name": "Ana", "password": "a good long password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    for part in ["konane_session=", "HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    ana.cookie = Some(cookie.split(';').next().unwrap().to_string());
    let (_, me) = s.send(&mut ana, Method::GET, "/api/session", None).await;
    assert_eq!(me["name"], "Ana");
    // Another browser is nobody until it logs in; case does not matter in the name.
    let mut other = s.player("ana", "127.0.0.3");
    let (_, nobody) = s.send(&mut other, Method::GET, "/api/session", None).await;
    assert_eq!(nobody["name"], Value::Null);
    let (status, body) = s
        .send(
            &mut other,
            Method::POST,
            "/api/session",
            Some(json!({"name": "ANA", "password": "a good long password"})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["name"], "Ana");
    let (status, _) = s
        .send(&mut other, Method::DELETE, "/api/session", None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(other.cookie, None, "the cookie is cleared");
    // The first browser's session is its own and lasts.
    let (_, me) = s.send(&mut ana, Method::GET, "/api/session", None).await;
    assert_eq!(me["name"], "Ana");
}

#[tokio::test]
async fn names_and_passwords_are_checked_and_names_are_unique() {
    let s = start().await;
    registered(&s, "Ana", "127.0.0.2").await;
    let mut p = s.player("x", "127.0.0.3");
    for (name, password, status, error, reason) in [
        ("ana", "another password", 409, "name_taken", None),
        (
            "A",
            "a good long password",
            400,
            "bad_name",
            Some("too_short"),
        ),
        (
            "Ana Kai",
            "a good long password",
            400,
            "bad_name",
            Some("bad_character"),
        ),
        (
            "Computer",
            "a good long password",
            400,
            "bad_name",
            Some("reserved"),
        ),
        ("Kai", "short", 400, "bad_password", Some("too_short")),
        ("Kai", "kai", 400, "bad_password", Some("too_short")),
        ("Kailani", "KAILANI1", 400, "bad_password", None),
    ] {
        let (got, body) = s
            .send(
                &mut p,
                Method::POST,
                "/api/accounts",
                Some(json!({"name": name, "password": password})),
            )
            .await;
        if name == "Kailani" {
            assert_eq!(got, StatusCode::CREATED, "{body}");
            continue;
        }
        assert_eq!(got.as_u16(), status, "{name}: {body}");
        assert_eq!(body["error"], error, "{name}: {body}");
        if let Some(r) = reason {
            assert_eq!(body["reason"], r, "{name}: {body}");
        }
    }
    // A guest cannot play under a registered name.
    let (status, body) = s
        .send(
            &mut s.player("g", "127.0.0.4"),
            Method::POST,
            "/api/games",
            Some(json!({"mode": "friend", "name": "ANA"})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "name_taken");
    // Watching the computer or sharing a device seats no guest under that name.
    for body in [
        json!({"mode": "engine", "color": "none", "size": "6x6", "name": "ANA"}),
        json!({"mode": "local", "size": "6x6", "name": "ANA"}),
    ] {
        let (status, answer) = s
            .send(
                &mut s.player("g", "127.0.0.5"),
                Method::POST,
                "/api/games",
                Some(body),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
}

#[tokio::test]
async fn logins_are_limited_per_account_and_per_address() {
    let s = start().await;
    registered(&s, "Ana", "127.0.0.2").await;
    let wrong = json!({"name": "Ana", "password": "not the password"});
    let right = json!({"name": "Ana", "password": "a good long password"});
    // Ten wrong guesses at Ana from ten addresses lock her account for everyone...
    for i in 0..10 {
        let mut guesser = s.player("x", &format!("127.0.1.{}", i + 1));
        let (status, body) = s
            .send(
                &mut guesser,
                Method::POST,
                "/api/session",
                Some(wrong.clone()),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        assert_eq!(body["error"], "wrong_credentials");
    }
    let mut ana = s.player("Ana", "127.0.0.2");
    let (status, body) = s
        .send(&mut ana, Method::POST, "/api/session", Some(right.clone()))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"], "too_many_attempts");
    assert_eq!(ana.cookie, None);
    // ...and twenty from one address stop that address, whatever the account.
    registered(&s, "Kai", "127.0.0.3").await;
    let mut flood = s.player("x", "127.0.2.1");
    for i in 0..20 {
        let guess = json!({"name": format!("nobody{i}"), "password": "guess"});
        let (status, _) = s
            .send(&mut flood, Method::POST, "/api/session", Some(guess))
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let kai = json!({"name": "Kai", "password": "a good long password"});
    let (status, _) = s
        .send(&mut flood, Method::POST, "/api/session", Some(kai.clone()))
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let (status, _) = s
        .send(
            &mut s.player("Kai", "127.0.0.3"),
            Method::POST,
            "/api/session",
            Some(kai),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "another address still logs in");
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_once_and_lands_in_both_archives() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let (id, black, white) = rated_game(&s, &mut ana, &s, &mut kai).await;
    let game = s.get(&id).await;
    assert_eq!(game["rated"], true);
    assert_eq!(game["category"], "blitz");
    assert_eq!(game["players"]["black"]["name"], "Ana");
    assert_eq!(game["players"]["black"]["registered"], true);
    assert_eq!(game["players"]["black"]["rating"], 1500);
    assert_eq!(game["players"]["black"]["provisional"], true);
    assert_eq!(game["players"]["white"]["name"], "Kai");
    let over = finish_from_everywhere(&s, &s, &id, &black, &white).await;
    let winner = over["result"]["winner"].as_str().unwrap().to_string();
    let (winner_name, loser_name) = if winner == "black" {
        ("Ana", "Kai")
    } else {
        ("Kai", "Ana")
    };
    let loser = if winner == "black" { "white" } else { "black" };
    assert!(
        over["players"][&winner]["rating_change"].as_i64().unwrap() > 0,
        "{over}"
    );
    assert!(
        over["players"][loser]["rating_change"].as_i64().unwrap() < 0,
        "{over}"
    );
    for (name, won) in [(winner_name, true), (loser_name, false)] {
        let (status, profile) = s.json(&format!("/api/players/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{profile}");
        let blitz = &profile["ratings"]["blitz"];
        assert_eq!(blitz["games"], 1, "{name}: {profile}");
        assert_eq!(blitz["history"].as_array().unwrap().len(), 1);
        let rating = blitz["rating"].as_i64().unwrap();
        assert_eq!(rating > 1500, won, "{name}: {rating}");
        assert_eq!(profile["ratings"]["bullet"]["games"], 0);
        let (_, page) = s.json(&format!("/api/players/{name}/games")).await;
        let games = page["games"].as_array().unwrap();
        assert_eq!(games.len(), 1, "{page}");
        assert_eq!(games[0]["id"], id.as_str());
        assert_eq!(games[0]["outcome"], if won { "win" } else { "loss" });
        assert_eq!(games[0]["reason"], "resignation");
        assert_eq!(games[0]["rated"], true);
        assert_eq!(page["more"], false);
        let won_games = s
            .json(&format!("/api/players/{name}/games?outcome=win&rated=true"))
            .await
            .1["games"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(won_games, usize::from(won));
    }
    let record = s.text(&format!("/api/games/{id}/record")).await;
    assert!(record.contains("[BlackElo \"1500\"]"), "{record}");
    assert!(record.contains("[WhiteElo \"1500\"]"), "{record}");
    assert!(record.contains("[Event \"Rated blitz game"), "{record}");
    let export = s.text("/api/players/ana/games.txt").await;
    assert!(
        export.contains(&format!("Rated blitz game {id}")),
        "{export}"
    );
}

#[tokio::test]
async fn rated_games_are_for_two_accounts_on_the_standard_board() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut guest = s.player("Gast", "127.0.0.3");
    let rated = json!({"mode": "friend", "rated": true, "clock": {"minutes": 6}});
    let (status, body) = s
        .send(&mut guest, Method::POST, "/api/games", Some(rated.clone()))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required"))
    );
    for (body, why) in [
        (
            json!({"mode": "friend", "rated": true, "size": "6x6", "clock": {"minutes": 6}}),
            "6x6",
        ),
        (json!({"mode": "friend", "rated": true}), "untimed"),
        (
            json!({"mode": "engine", "rated": true, "clock": {"minutes": 6}}),
            "engine",
        ),
    ] {
        let (status, answer) = s
            .send(&mut ana, Method::POST, "/api/games", Some(body))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {answer}");
        assert_eq!(answer["error"], "not_ratable", "{why}");
    }
    let (status, created) = s
        .send(&mut ana, Method::POST, "/api/games", Some(rated))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let join = format!("/api/games/{id}/join");
    let (status, body) = s.send(&mut guest, Method::POST, &join, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required"))
    );
    let mut ana_again = s.player("Ana", "127.0.0.4");
    ana_again.cookie = ana.cookie.clone();
    let (status, body) = s.send(&mut ana_again, Method::POST, &join, None).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::CONFLICT, Some("own_game"))
    );
    // The lobby and the game say who waits, with what rating.
    let (_, game) = s.json(&format!("/api/games/{id}")).await;
    let host = if created["seat"] == "black" {
        "black"
    } else {
        "white"
    };
    assert_eq!(game["players"][host]["name"], "Ana");
    assert_eq!(game["players"][host]["rating"], 1500);
}

#[tokio::test]
async fn a_casual_game_of_an_account_is_archived_unrated() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let body = json!({"mode": "engine", "color": "black", "size": "4x4", "level": 1});
    let (_, created) = s
        .send(&mut ana, Method::POST, "/api/games", Some(body))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["players"]["black"]["name"], "Ana");
    assert_eq!(
        created["game"]["players"]["black"]["rating"],
        Value::Null,
        "4x4 has no rating"
    );
    let (status, _) = s
        .post(&format!("/api/games/{id}/resign"), Some(&token))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = s.json("/api/players/Ana/games").await;
    let g = &page["games"][0];
    assert_eq!(g["id"], id.as_str());
    assert_eq!(
        (g["rated"].as_bool(), g["opponent_level"].as_i64()),
        (Some(false), Some(1))
    );
    assert_eq!(g["size"], "4x4");
    let (_, profile) = s.json("/api/players/Ana").await;
    assert_eq!(profile["tally"]["black_losses"], 1);
    assert_eq!(profile["ratings"]["blitz"]["games"], 0);
}

#[tokio::test]
async fn a_password_change_logs_out_other_browsers_and_deletion_anonymises() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut phone = s.player("Ana", "127.0.0.3");
    let login = json!({"name": "Ana", "password": "a good long password"});
    s.send(&mut phone, Method::POST, "/api/session", Some(login))
        .await;
    let change = json!({"current": "wrong", "new": "another long password"});
    let (status, _) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/account/password",
            Some(change),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let change = json!({"current": "a good long password", "new": "another long password"});
    let (status, body) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/account/password",
            Some(change),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        s.send(&mut ana, Method::GET, "/api/session", None).await.1["name"],
        "Ana"
    );
    assert_eq!(
        s.send(&mut phone, Method::GET, "/api/session", None)
            .await
            .1["name"],
        Value::Null
    );
    // A finished game keeps its moves but forgets the name.
    let body = json!({"mode": "engine", "color": "black", "size": "4x4", "level": 1});
    let (_, created) = s
        .send(&mut ana, Method::POST, "/api/games", Some(body))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    s.post(
        &format!("/api/games/{id}/resign"),
        created["token"].as_str(),
    )
    .await;
    let (status, _) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/account/delete",
            Some(json!({"password": "another long password"})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(s.json("/api/players/Ana").await.0, StatusCode::NOT_FOUND);
    let game = s.get(&id).await;
    assert_eq!(game["players"]["black"]["name"], Value::Null, "{game}");
    assert_eq!(game["players"]["black"]["registered"], false);
    assert_eq!(game["status"], "finished");
    // The name is free again.
    registered(&s, "ana", "127.0.0.5").await;
}

#[tokio::test]
async fn the_leaderboard_lists_established_players_best_first() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    // Of twenty rated games Kai resigns two in three: enough games, with results mixed
    // enough, for both ratings to be established.
    for i in 0..20 {
        let (id, black, white) = rated_game(&s, &mut ana, &s, &mut kai).await;
        let loser = if i % 3 == 2 { &black } else { &white };
        let (status, body) = s
            .post(&format!("/api/games/{id}/resign"), Some(loser))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, board) = s.json("/api/leaderboard/blitz").await;
    let players = board["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ana", "Kai"], "{board}");
    assert!(players[0]["rating"].as_f64() > players[1]["rating"].as_f64());
    assert_eq!(players[0]["games"], 20);
    assert_eq!(
        s.json("/api/leaderboard/bullet").await.1["players"],
        json!([])
    );
    assert_eq!(
        s.json("/api/leaderboard/fast").await.0,
        StatusCode::BAD_REQUEST
    );
    // Paging: twenty games are one page of the archive, and the next is empty.
    let (_, page) = s.json("/api/players/Kai/games?page=0").await;
    assert_eq!(page["games"].as_array().unwrap().len(), 20);
    assert_eq!(page["more"], false);
    let (_, next) = s.json("/api/players/Kai/games?page=1").await;
    assert_eq!(next["games"], json!([]));
    let (_, lost) = s
        .json("/api/players/Kai/games?outcome=loss&category=blitz")
        .await;
    assert_eq!(lost["games"].as_array().unwrap().len(), 14);
    let (_, against) = s.json("/api/players/Kai/games?opponent=ana").await;
    assert_eq!(against["games"].as_array().unwrap().len(), 20);
    let (status, _) = s.json("/api/players/Kai/games?page=-1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn ratings_change_once_when_everyone_ends_the_game_at_once() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    for _ in 0..5 {
        let (id, black, white) = rated_game(&s, &mut ana, &s, &mut kai).await;
        finish_from_everywhere(&s, &s, &id, &black, &white).await;
    }
    for name in ["Ana", "Kai"] {
        let (_, profile) = s.json(&format!("/api/players/{name}")).await;
        assert_eq!(profile["ratings"]["blitz"]["games"], 5, "{profile}");
        let t = &profile["tally"];
        let total: i64 = ["black_wins", "black_losses", "white_wins", "white_losses"]
            .iter()
            .map(|k| t[k].as_i64().unwrap())
            .sum();
        assert_eq!(total, 5, "{profile}");
    }
}

#[tokio::test]
async fn several_games_are_answered_at_once_for_the_your_games_list() {
    let s = start().await;
    let (a, _, _) = s
        .create_seated(json!({"mode": "local", "size": "4x4"}))
        .await;
    let (b, _, _) = s
        .create_seated(json!({"mode": "friend", "size": "6x6"}))
        .await;
    let (status, body) = s.json(&format!("/api/games?ids={a},nosuchgame,{b}")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ids: Vec<&str> = body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [a.as_str(), b.as_str()]);
    let many = vec!["x"; 51].join(",");
    assert_eq!(
        s.json(&format!("/api/games?ids={many}")).await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_guests_games_are_claimed_when_they_register() {
    let s = start().await;
    let (finished, token, _) = s
        .create_seated(json!({"mode": "engine", "color": "black", "size": "4x4", "level": 1}))
        .await;
    s.post(&format!("/api/games/{finished}/resign"), Some(&token))
        .await;
    let (waiting, waiting_token, _) = s
        .create_seated(json!({"mode": "friend", "size": "6x6"}))
        .await;
    let (local, local_token, _) = s
        .create_seated(json!({"mode": "local", "size": "4x4"}))
        .await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let claim = json!({"games": [
        {"id": finished, "token": token},
        {"id": waiting, "token": waiting_token},
        {"id": local, "token": local_token},
        {"id": finished, "token": "0".repeat(32)},
        {"id": "nosuchgame", "token": token},
    ]});
    let (status, body) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/account/claim",
            Some(claim.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["claimed"], 2,
        "the finished and the waiting game; not the shared device's: {body}"
    );
    let game = s.get(&finished).await;
    assert_eq!(game["players"]["black"]["name"], "Ana");
    assert_eq!(game["players"]["black"]["registered"], true);
    let (_, page) = s.json("/api/players/Ana/games").await;
    assert_eq!(page["games"][0]["id"], finished.as_str(), "{page}");
    assert_eq!(page["games"][0]["rated"], false);
    // Claimed seats are Ana's now: nobody claims them again, not even Ana.
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let (_, again) = s
        .send(&mut kai, Method::POST, "/api/account/claim", Some(claim))
        .await;
    assert_eq!(again["claimed"], 0, "{again}");
    let (status, _) = s
        .send(
            &mut s.player("g", "127.0.0.4"),
            Method::POST,
            "/api/account/claim",
            Some(json!({"games": []})),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
