//! Correspondence leagues over real HTTP: a season made by the schedule, dealt into two
//! divisions whose games all run at once at days a move, played to its end; the next
//! season made by itself with the top two of the lower division up, the bottom two of the
//! upper one down and a late joiner at the bottom; a season too small waits a month.

mod common;

use std::collections::{HashMap, HashSet};

use common::Player;
use common::tournaments::{act, players, season, seat_token, show, start_now, until, with_league};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The division of each player on the season's table.
fn divisions(t: &Value) -> HashMap<String, u64> {
    t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_string(),
                l["division"].as_u64().expect("a division"),
            )
        })
        .collect()
}

/// Ends every game of the season: the player whose name sorts later resigns.
async fn play_out(s: &common::TestServer, id: &str, by_name: &mut HashMap<String, Player>) {
    let t = show(s, id).await;
    for g in t["games"].as_array().unwrap() {
        assert_eq!(g["status"], "playing", "{g}");
        let game = g["id"].as_str().unwrap();
        let loser = g["black"]
            .as_str()
            .unwrap()
            .max(g["white"].as_str().unwrap());
        let p = by_name.get_mut(loser).unwrap();
        let token = seat_token(s, p, game).await;
        let (status, over) = s
            .post(&format!("/api/games/{game}/resign"), Some(&token))
            .await;
        assert_eq!(status, StatusCode::OK, "{over}");
    }
}

#[tokio::test]
async fn a_league_season_runs_all_its_games_at_once_and_the_next_moves_players() {
    let s = with_league(2, None).await;
    let first = season(&s, 1, 10).await;
    assert_eq!(first["status"], "created");
    assert_eq!(first["days"], 2);
    assert_eq!(first["by_site"], true);
    let id = first["id"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..13).map(|i| format!("Lea{i:02}")).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut joined = players(&s, &name_refs).await;
    for p in joined.iter_mut().take(12) {
        let (status, t) = act(&s, p, &id, "join", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{t}");
    }
    let (status, refused) = act(&s, &mut joined[0], &id, "pause", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(refused["error"], "no_pause");
    // Players cannot make leagues: the site's schedule does.
    let (status, refused) = s
        .send(
            &mut joined[0],
            Method::POST,
            "/api/tournaments",
            Some(json!({"kind": "league", "name": "Mine", "clock": {"minutes": 5}})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused["field"], "kind");

    start_now(&s.database, &id).await;
    let t = until(&s, &id, 20, |t| t["status"] == "started").await;
    // Twelve players: two divisions of six (equal ratings: by joining), two groups each
    // playing a double round robin: 2 x 6 x 5 games, all at once.
    let d = divisions(&t);
    assert_eq!(d.len(), 12);
    for (i, name) in names.iter().take(12).enumerate() {
        assert_eq!(d[name], u64::from(i >= 6), "{name}: {t:#}");
    }
    let games = t["games"].as_array().unwrap();
    assert_eq!(games.len(), 60);
    assert!(games.iter().all(|g| g["status"] == "playing"));
    let pairs: HashSet<(String, String)> = games
        .iter()
        .map(|g| (g["black"].to_string(), g["white"].to_string()))
        .collect();
    assert_eq!(pairs.len(), 60, "each pair once with each colour");
    let rounds: HashSet<u64> = games.iter().map(|g| g["round"].as_u64().unwrap()).collect();
    assert_eq!(rounds, (1..=10).collect());
    let game_id = games[0]["id"].as_str().unwrap();
    let (_, game) = s.json(&format!("/api/games/{game_id}")).await;
    assert_eq!(game["clock"]["per_move"], true, "{game:#}");
    assert_eq!(game["clock"]["initial_ms"], 2 * 86_400_000);
    assert_eq!(game["tournament"]["kind"], "league");
    assert_eq!(game["rated"], true);

    // A thirteenth player joins the running season: they play from the next.
    let (status, late) = act(&s, &mut joined[12], &id, "join", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{late}");
    assert_eq!(late["me"]["waiting"], true);
    assert_eq!(late["waiting"], json!(["Lea12"]));

    let mut by_name: HashMap<String, Player> = names.iter().cloned().zip(joined).collect();
    play_out(&s, &id, &mut by_name).await;
    let t = until(&s, &id, 30, |t| t["status"] == "finished").await;
    let line = |name: &str| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .cloned()
            .expect("a line")
    };
    assert_eq!(line("Lea00")["rank"], 1);
    assert_eq!(line("Lea00")["score"], 10);
    assert_eq!(line("Lea05")["score"], 0);
    assert_eq!(line("Lea04")["movement"], "down");
    assert_eq!(line("Lea05")["movement"], "down");
    assert_eq!(line("Lea06")["movement"], "up");
    assert_eq!(line("Lea07")["movement"], "up");
    assert!(line("Lea00").get("movement").is_none(), "the top stays");
    assert!(line("Lea11").get("movement").is_none(), "the lowest stays");
    assert_eq!(t["podium"], json!(["Lea00", "Lea01", "Lea02"]));

    // The champion's trophy, and a correspondence rating moved.
    let (_, profile) = s.json("/api/players/Lea00").await;
    let trophy = profile["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id.as_str())
        .cloned()
        .expect("the league on the profile");
    assert_eq!(trophy["rank"], 1);
    assert!(
        profile.to_string().contains("correspondence"),
        "a correspondence rating: {profile:#}"
    );

    // The next season, made by itself: everyone carried over, the late joiner too.
    let second = season(&s, 2, 10).await;
    assert_eq!(second["status"], "created");
    assert_eq!(second["players"], 13);
    let now = konane_server::time::now_ms();
    let starts = second["starts_at"].as_i64().unwrap();
    assert!(starts >= now + 6 * 86_400_000, "a week to join at least");
    let second_id = second["id"].as_str().unwrap().to_string();
    start_now(&s.database, &second_id).await;
    let t2 = until(&s, &second_id, 20, |t| t["status"] == "started").await;
    let d = divisions(&t2);
    assert_eq!(d["Lea06"], 0, "promoted");
    assert_eq!(d["Lea07"], 0, "promoted");
    assert_eq!(d["Lea04"], 1, "relegated");
    assert_eq!(d["Lea05"], 1, "relegated");
    assert_eq!(d["Lea12"], 1, "a newcomer starts at the bottom");
    assert_eq!(d.values().filter(|&&x| x == 0).count(), 6);
    assert_eq!(d.values().filter(|&&x| x == 1).count(), 7);
    assert_eq!(
        t2["games"].as_array().unwrap().len(),
        6 * 5 + 7 * 6,
        "a double round robin in each group"
    );
}

#[tokio::test]
async fn a_season_of_fewer_than_three_waits_for_the_next_month() {
    let s = with_league(3, None).await;
    let first = season(&s, 1, 10).await;
    let id = first["id"].as_str().unwrap().to_string();
    let mut two = players(&s, &["Solo1", "Solo2"]).await;
    for p in &mut two {
        assert_eq!(act(&s, p, &id, "join", json!({})).await.0, StatusCode::OK);
    }
    start_now(&s.database, &id).await;
    let now = konane_server::time::now_ms();
    let t = until(&s, &id, 20, |t| t["starts_at"].as_i64().unwrap() > now).await;
    assert_eq!(t["status"], "created");
    assert!(t["games"].as_array().unwrap().is_empty());
    assert_eq!(t["players"], 2);
}
