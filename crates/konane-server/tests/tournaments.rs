//! Tournaments over real HTTP: the site's schedule on a fresh server, what a creator may
//! ask, a Swiss of five played to its podium, an arena pairing players as they come free,
//! and what players can and cannot do in each.

mod common;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use common::tournaments::{act, create, players, quick, resign_all, show, until};
use common::{Player, registered};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

#[tokio::test]
async fn a_fresh_server_lists_the_sites_coming_events() {
    let s = quick().await;
    let (status, list) = s.json("/api/tournaments").await;
    assert_eq!(status, StatusCode::OK);
    let upcoming = list["upcoming"].as_array().unwrap();
    assert_eq!(
        upcoming.len(),
        7,
        "3 hourly, 2 daily, 1 weekly, a league's first season: {list:#}"
    );
    assert!(
        upcoming
            .iter()
            .all(|t| t["by_site"] == true && t["players"] == 0)
    );
    let hourly: Vec<&Value> = upcoming
        .iter()
        .filter(|t| t["name"] == "Hourly 3+2 Arena")
        .collect();
    assert_eq!(hourly.len(), 3);
    assert_eq!(
        hourly[0]["clock"],
        json!({"minutes": 3.0, "increment": 2.0})
    );
    assert_eq!(hourly[0]["kind"], "arena");
    assert_eq!(hourly[0]["minutes"], 30);
    assert_eq!(hourly[0]["rated"], true);
    let starts: Vec<i64> = hourly
        .iter()
        .map(|t| t["starts_at"].as_i64().unwrap())
        .collect();
    assert!(
        starts.iter().all(|t| t % 3_600_000 == 0),
        "on the hour: {starts:?}"
    );
    assert!(starts.windows(2).all(|w| w[1] - w[0] == 3_600_000));
    let swiss = upcoming
        .iter()
        .find(|t| t["kind"] == "swiss")
        .expect("the weekly Swiss");
    assert_eq!(swiss["rounds"], 5);
    let league = upcoming.last().expect("the league, latest");
    assert_eq!(league["name"], "Monthly 8x8 League");
    assert_eq!(
        (&league["kind"], &league["days"]),
        (&json!("league"), &json!(3))
    );
    assert_eq!(league["season"], 1);
    assert!(list["running"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_new_tournament_needs_an_account_and_good_values() {
    let s = quick().await;
    let mut guest = s.player("guest", "127.0.0.9");
    let body = json!({"kind": "arena", "name": "Mine", "clock": {"minutes": 3, "increment": 2}});
    let (status, e) = s
        .send(
            &mut guest,
            Method::POST,
            "/api/tournaments",
            Some(body.clone()),
        )
        .await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("login_required"))
    );
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    for (bad, field) in [
        (
            json!({"kind": "ladder", "name": "x", "clock": {"minutes": 3}}),
            "kind",
        ),
        (
            json!({"kind": "arena", "name": "x", "clock": {"minutes": 3}, "minutes": 5}),
            "minutes",
        ),
        (
            json!({"kind": "swiss", "name": "x", "clock": {"minutes": 3}, "rounds": 16}),
            "rounds",
        ),
        (
            json!({"kind": "swiss", "name": "  ", "clock": {"minutes": 3}}),
            "name",
        ),
        (
            json!({"kind": "swiss", "name": "x", "clock": {"minutes": 3}, "size": "2x9"}),
            "size",
        ),
    ] {
        let (status, e) = s
            .send(
                &mut ana,
                Method::POST,
                "/api/tournaments",
                Some(bad.clone()),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {e}");
        assert_eq!(
            (e["error"].as_str(), e["field"].as_str()),
            (Some("bad_field"), Some(field)),
            "{e}"
        );
    }
    let (status, e) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/tournaments",
            Some(json!({"kind": "arena"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    // Three waiting tournaments are as many as one player may run.
    for i in 0..3 {
        let t = create(&s, &mut ana, json!({"kind": "swiss", "name": format!("Cup {i}"), "clock": {"minutes": 5}, "starts_in_s": 3600})).await;
        assert_eq!(t["standings"][0]["name"], "Ana", "the creator plays: {t}");
        assert_eq!(t["me"]["creator"], true);
    }
    let (status, e) = s
        .send(&mut ana, Method::POST, "/api/tournaments", Some(body))
        .await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too_many_tournaments"))
    );
}

#[tokio::test]
async fn a_private_event_wants_its_code_and_only_its_creator_starts_it() {
    let s = quick().await;
    let [mut ana, mut kai] = <[Player; 2]>::try_from(players(&s, &["Ana", "Kai"]).await)
        .ok()
        .unwrap();
    let t = create(
        &s,
        &mut ana,
        json!({"kind": "round-robin", "name": "Club", "clock": {"minutes": 5},
        "starts_in_s": 3600, "entry_code": "hula"}),
    )
    .await;
    let id = t["id"].as_str().unwrap();
    assert_eq!(t["private"], true);
    let (_, list) = s.json("/api/tournaments").await;
    assert!(
        !list.to_string().contains(id),
        "a private event is not listed to others"
    );
    let (status, e) = act(&s, &mut kai, id, "join", json!({})).await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("entry_code"))
    );
    let (status, e) = act(&s, &mut kai, id, "join", json!({"entry_code": "nope"})).await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("entry_code"))
    );
    let (status, joined) = act(&s, &mut kai, id, "join", json!({"entry_code": "hula"})).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["players"], 2);
    let (status, e) = act(&s, &mut kai, id, "start", json!({})).await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_creator"))
    );
    let (status, started) = act(&s, &mut ana, id, "start", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let t = until(&s, id, 10, |t| {
        t["games"].as_array().is_some_and(|g| g.len() == 1)
    })
    .await;
    assert_eq!(t["status"], "started");
    assert_eq!(t["rounds"], 1, "two players meet once");
    // A round robin takes nobody once it has started.
    let mut lea = registered(&s, "Lea", "127.0.0.7").await;
    let (status, e) = act(&s, &mut lea, id, "join", json!({"entry_code": "hula"})).await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("started"))
    );
    let mut by_name: HashMap<String, Player> =
        [("Ana".to_string(), ana), ("Kai".to_string(), kai)].into();
    resign_all(&s, &t, &mut by_name, "Kai").await;
    let t = until(&s, id, 10, |t| t["status"] == "finished").await;
    assert_eq!(t["podium"], json!(["Ana", "Kai"]));
    let (status, e) = act(
        &s,
        by_name.get_mut("Kai").unwrap(),
        id,
        "withdraw",
        json!({}),
    )
    .await;
    assert_eq!(
        (status, e["error"].as_str()),
        (StatusCode::CONFLICT, Some("finished"))
    );
}

/// Five players, three rounds: every round pairs two games and a bye, nobody meets anyone
/// twice or sits out twice, and the table's points, Buchholz and Sonneborn-Berger are the
/// ones worked out here from the games.
#[tokio::test]
async fn a_swiss_of_five_plays_three_rounds_to_its_podium() {
    let s = quick().await;
    let names = ["Ana", "Kai", "Lea", "Moe", "Noa"];
    let mut ps = players(&s, &names).await;
    let t = create(
        &s,
        &mut ps[0],
        json!({"kind": "swiss", "name": "Friday Swiss", "clock": {"minutes": 5, "increment": 3},
        "rated": true, "rounds": 3, "starts_in_s": 1}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_string();
    for p in ps.iter_mut().skip(1) {
        let (status, t) = act(&s, p, &id, "join", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{t}");
    }
    let mut by_name: HashMap<String, Player> =
        ps.into_iter().map(|p| (p.name.clone(), p)).collect();
    let mut met: HashSet<(String, String)> = HashSet::new();
    let mut colours: HashMap<String, Vec<&str>> = HashMap::new();
    for round in 1..=3u64 {
        let t = until(&s, &id, 15, |t| {
            t["round"] == round
                && t["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g["round"] == round)
                    .count()
                    == 2
        })
        .await;
        let games: Vec<&Value> = t["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"] == round)
            .collect();
        for g in &games {
            let (b, w) = (
                g["black"].as_str().unwrap().to_string(),
                g["white"].as_str().unwrap().to_string(),
            );
            assert!(
                met.insert((b.clone().min(w.clone()), b.clone().max(w.clone()))),
                "{b} and {w} met twice"
            );
            colours.entry(b).or_default().push("b");
            colours.entry(w).or_default().push("w");
            // A tournament game is an ordinary rated game that links back.
            let game = s.get(g["id"].as_str().unwrap()).await;
            assert_eq!(game["tournament"]["id"], id.as_str());
            assert_eq!(game["rated"], true);
        }
        assert!(
            t["next_round_at"].is_null(),
            "no next round while this one is played: {t:#}"
        );
        let byes: Vec<&Value> = t["byes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["round"] == round)
            .collect();
        assert_eq!(byes.len(), 1, "{t:#}");
        // The alphabetically first player in each game loses.
        for g in &games {
            let loser = g["black"]
                .as_str()
                .unwrap()
                .min(g["white"].as_str().unwrap())
                .to_string();
            let one = json!({"games": [g]});
            resign_all(&s, &one, &mut by_name, &loser).await;
        }
    }
    let t = until(&s, &id, 15, |t| t["status"] == "finished").await;
    let byes: Vec<&str> = t["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    let unique: HashSet<&&str> = byes.iter().collect();
    assert_eq!(unique.len(), 3, "nobody sits out twice: {byes:?}");
    // The table worked out from the games: win 1, bye 1; Buchholz: the opponents' points;
    // Sonneborn-Berger: the points of the opponents beaten.
    let games: Vec<&Value> = t["games"].as_array().unwrap().iter().collect();
    assert_eq!(games.len(), 6);
    let mut points: HashMap<&str, u64> = names.iter().map(|n| (*n, 0)).collect();
    for g in &games {
        let winner = g[g["winner"].as_str().unwrap()].as_str().unwrap();
        *points.get_mut(winner).unwrap() += 1;
    }
    for b in &byes {
        *points.get_mut(b).unwrap() += 1;
    }
    for line in t["standings"].as_array().unwrap() {
        let me = line["name"].as_str().unwrap();
        let (mut buchholz, mut sb) = (0, 0);
        for g in &games {
            let (b, w) = (g["black"].as_str().unwrap(), g["white"].as_str().unwrap());
            let other = if b == me {
                w
            } else if w == me {
                b
            } else {
                continue;
            };
            buchholz += points[other];
            if g[g["winner"].as_str().unwrap()] == me {
                sb += points[other];
            }
        }
        assert_eq!(line["score"], points[me], "{line}");
        assert_eq!(
            line["tiebreaks"],
            json!({"buchholz": buchholz, "sonneborn_berger": sb}),
            "{line}"
        );
    }
    let scores: Vec<u64> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["score"].as_u64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert_eq!(t["podium"].as_array().unwrap().len(), 3);
    assert_eq!(t["podium"][0], t["standings"][0]["name"]);
    for (name, c) in &colours {
        assert!(
            !c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
            "{name}: {c:?}"
        );
    }
    // Rated: the winner's rating moved, and the trophy is on the profile.
    let winner = t["podium"][0].as_str().unwrap();
    let (status, profile) = s.json(&format!("/api/players/{winner}")).await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_ne!(profile["ratings"]["blitz"]["rating"], 1500, "{profile}");
    assert!(
        profile["ratings"]["blitz"]["rating"].is_number(),
        "{profile}"
    );
    let trophy = &profile["tournaments"][0];
    assert_eq!(
        (
            trophy["id"].as_str(),
            trophy["rank"].as_u64(),
            trophy["players"].as_u64()
        ),
        (Some(id.as_str()), Some(1), Some(5)),
        "{profile}"
    );
    let (_, list) = s.json("/api/tournaments").await;
    let finished = list["finished"].as_array().unwrap();
    assert_eq!(finished[0]["id"], id.as_str());
    assert_eq!(finished[0]["winner"], winner);
}

/// An arena pairs players as soon as two are free, counts 2 a win and 4 a win on a streak,
/// lets a player pause, and once its time is up ends when its last game is over.
#[tokio::test]
async fn an_arena_pairs_free_players_and_scores_streaks() {
    let s = quick().await;
    let names = ["Ana", "Kai", "Lea", "Moe"];
    let mut ps = players(&s, &names).await;
    let t = create(
        &s,
        &mut ps[0],
        json!({"kind": "arena", "name": "Quick Arena", "clock": {"minutes": 1},
        "minutes": 10, "starts_in_s": 3600}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_string();
    for p in ps.iter_mut().skip(1) {
        act(&s, p, &id, "join", json!({})).await;
    }
    let (status, started) = act(&s, &mut ps[0], &id, "start", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let mut by_name: HashMap<String, Player> =
        ps.into_iter().map(|p| (p.name.clone(), p)).collect();
    let playing = |t: &Value| {
        t["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "playing")
            .count()
    };
    // Ana wins three games in a row: 2 + 2 + 4.
    for wave in 1..=3 {
        let t = until(&s, &id, 10, |t| playing(t) == 2).await;
        let mine = t["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["status"] == "playing" && (g["black"] == "Ana" || g["white"] == "Ana"))
            .cloned()
            .unwrap();
        let other = if mine["black"] == "Ana" {
            mine["white"].as_str().unwrap()
        } else {
            mine["black"].as_str().unwrap()
        }
        .to_string();
        let (_, me) = s
            .send(
                by_name.get_mut("Ana").unwrap(),
                Method::GET,
                &format!("/api/tournaments/{id}"),
                None,
            )
            .await;
        assert_eq!(
            me["me"]["game"], mine["id"],
            "the page learns its player's game"
        );
        let started = Instant::now();
        resign_all(&s, &json!({"games": t["games"].as_array().unwrap().iter().filter(|g| g["status"] == "playing").collect::<Vec<_>>()}), &mut by_name, &other).await;
        let after = until(&s, &id, 10, |t| playing(t) == 2 || wave == 3).await;
        if wave < 3 {
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "the free players are paired again within 2 s"
            );
        }
        let ana = after["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == "Ana")
            .cloned()
            .unwrap();
        assert_eq!(ana["score"], [2, 4, 8][wave - 1], "{ana}");
        assert_eq!(ana["streak"], wave >= 2, "{ana}");
    }
    // Kai pauses: he is not paired while paused, and comes back.
    let (status, paused) = act(&s, by_name.get_mut("Kai").unwrap(), &id, "pause", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{paused}");
    assert_eq!(paused["me"]["paused"], true);
    let t = until(&s, &id, 10, |t| playing(t) >= 1).await;
    let kai_plays = |t: &Value| {
        t["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["status"] == "playing" && (g["black"] == "Kai" || g["white"] == "Kai"))
    };
    let kai_was_free = !kai_plays(&t);
    if kai_was_free {
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            !kai_plays(&show(&s, &id).await),
            "a paused player is not paired"
        );
    }
    let (_, back) = act(&s, by_name.get_mut("Kai").unwrap(), &id, "pause", json!({})).await;
    assert_eq!(back["me"]["paused"], false);
    // Time is up: no new pairings, and the tournament ends once the games are over.
    let db = s.database.clone();
    common::tournaments::set_arena_end(&db, &id).await;
    let t = show(&s, &id).await;
    resign_all(&s, &t, &mut by_name, "Ana").await;
    let t = until(&s, &id, 10, |t| t["status"] == "finished" || playing(t) > 0).await;
    assert_eq!(t["status"], "finished", "{t:#}");
    assert_eq!(t["podium"][0], "Ana");
}

/// The tournament's socket sends the whole view on open and again after each change: a
/// join, the start, the pairing, with the socket's player's own game in `me`.
#[tokio::test]
async fn the_socket_brings_every_change_and_the_players_own_game() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    let s = quick().await;
    let mut ps = players(&s, &["Ana", "Kai"]).await;
    let t = create(
        &s,
        &mut ps[0],
        json!({"kind": "arena", "name": "Live", "clock": {"minutes": 3},
        "minutes": 10, "starts_in_s": 3600}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_string();
    let mut request = format!(
        "{}/api/tournaments/{id}/ws",
        s.base.replace("http://", "ws://")
    )
    .into_client_request()
    .unwrap();
    let cookie = ps[1].cookie.clone().unwrap();
    request
        .headers_mut()
        .insert("cookie", cookie.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("connects");
    let mut next = async || loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message in time")
            .expect("open")
            .expect("a message");
        if let Message::Text(text) = msg {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            assert_eq!(v["type"], "tournament");
            return v["tournament"].clone();
        }
    };
    let first = next().await;
    assert_eq!(
        (first["players"].as_i64(), first["me"].is_null()),
        (Some(1), true),
        "{first}"
    );
    let (status, _) = act(&s, &mut ps[1], &id, "join", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    let joined = next().await;
    assert_eq!(joined["players"], 2);
    assert_eq!(
        joined["me"]["joined"], true,
        "the view is the socket's player's"
    );
    act(&s, &mut ps[0], &id, "start", json!({})).await;
    let mut view = next().await;
    while view["me"]["game"].is_null() {
        view = next().await;
    }
    let game = view["me"]["game"].as_str().unwrap();
    assert_eq!(view["games"][0]["id"], game);
    assert_eq!(view["status"], "started");
}

/// A player whose clock runs out twice in a row without a move is paused, as on lichess,
/// and comes back by asking; the opponent who moved is not.
#[tokio::test]
async fn two_games_missed_in_a_row_pause_the_absent_player() {
    let s = quick().await;
    let mut ps = players(&s, &["Ana", "Kai"]).await;
    // 3 seconds a game: an absent player's flag falls soon.
    let t = create(
        &s,
        &mut ps[0],
        json!({"kind": "arena", "name": "Absent", "clock": {"minutes": 0.05},
        "minutes": 10, "starts_in_s": 3600}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_string();
    act(&s, &mut ps[1], &id, "join", json!({})).await;
    act(&s, &mut ps[0], &id, "start", json!({})).await;
    let finished = |t: &Value| {
        t["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "finished")
            .count()
    };
    for game in 1..=2 {
        let t = until(&s, &id, 10, |t| {
            t["games"].as_array().unwrap().len() == game
        })
        .await;
        let g = &t["games"][0];
        // Ana moves whenever it is her turn; Kai never does.
        if g["black"] == "Ana" {
            let gid = g["id"].as_str().unwrap();
            let token = common::tournaments::seat_token(&s, &mut ps[0], gid).await;
            let state = s.get(gid).await;
            let (status, moved) = s
                .play(gid, Some(&token), &common::first_legal(&state), 0)
                .await;
            assert_eq!(status, StatusCode::OK, "{moved}");
        }
        let gid = g["id"].clone();
        let t = until(&s, &id, 10, |t| finished(t) == game).await;
        let g = t["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == gid)
            .unwrap();
        let ana = if g["black"] == "Ana" {
            "black"
        } else {
            "white"
        };
        assert_eq!(g["winner"], ana, "{t:#}");
    }
    let t = until(&s, &id, 10, |t| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["paused"] == true)
    })
    .await;
    let line = |name: &str| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (
            line("Kai")["paused"].as_bool(),
            line("Ana")["paused"].as_bool()
        ),
        (Some(true), Some(false))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        show(&s, &id).await["games"].as_array().unwrap().len(),
        2,
        "a paused player is not paired"
    );
    let (_, back) = act(&s, &mut ps[1], &id, "pause", json!({})).await;
    assert_eq!(back["me"]["paused"], false);
    until(&s, &id, 10, |t| t["games"].as_array().unwrap().len() == 3).await;
}

/// An event may ask for a rating or a number of rated games in its category; a player
/// below either is refused with the reason, and nothing changes.
#[tokio::test]
async fn a_minimum_rating_or_game_count_keeps_newcomers_out() {
    let s = quick().await;
    let mut ps = players(&s, &["Ana", "Kai"]).await;
    for (limit, code) in [
        ("min_rating", "rating_too_low"),
        ("min_games", "too_few_games"),
    ] {
        let value = if limit == "min_rating" { 1600 } else { 1 };
        let t = create(
            &s,
            &mut ps[0],
            json!({"kind": "swiss", "name": "Masters", "clock": {"minutes": 5},
            "rated": true, "starts_in_s": 3600, limit: value}),
        )
        .await;
        let id = t["id"].as_str().unwrap();
        assert_eq!(t[limit], value);
        let (status, e) = act(&s, &mut ps[1], id, "join", json!({})).await;
        assert_eq!(
            (status, e["error"].as_str()),
            (StatusCode::FORBIDDEN, Some(code)),
            "{e}"
        );
        assert_eq!(show(&s, id).await["players"], 1, "nobody joined");
    }
}
