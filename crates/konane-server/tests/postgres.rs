//! The server on PostgreSQL: the same games, and two instances on one database, where a
//! move made on one reaches the pages connected to the other.
//!
//! Needs `KONANE_TEST_POSTGRES=postgres://…` (`.ci/run` starts a database and sets it);
//! without it these tests say so and pass locally, but fail under `CI=true`.

mod common;

use std::time::{Duration, Instant};

use common::{first_legal, start_with};
use reqwest::StatusCode;
use serde_json::json;

fn database() -> Option<String> {
    match std::env::var("KONANE_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "KONANE_TEST_POSTGRES must be set in CI: the PostgreSQL tests may not be skipped"
            );
            eprintln!(
                "SKIPPED: PostgreSQL tests need KONANE_TEST_POSTGRES=postgres://… (see scripts/test-postgres.sh)"
            );
            None
        }
    }
}

#[tokio::test]
async fn two_instances_share_games_live() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let created = a
        .create(json!({"mode": "friend", "size": "6x6", "color": "black"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    // The friend joins through the other instance.
    let (status, joined) = b.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    let mut on_a = a.socket(&id).await;
    let mut on_b = b.socket(&id).await;
    let mut state = on_b.next_state(5).await;
    on_a.next_state(5).await;
    let mut slowest = Duration::ZERO;
    let mut instance = 0;
    while state["status"] == "playing" {
        // Alternate the instance the move is sent to; both pages must see it.
        let (server, token) = match (instance % 2, state["turn"].as_str()) {
            (0, Some("black")) => (&a, &black),
            (0, _) => (&a, &white),
            (_, Some("black")) => (&b, &black),
            _ => (&b, &white),
        };
        instance += 1;
        let sent = Instant::now();
        let (status, body) = server
            .play(
                &id,
                Some(token),
                &first_legal(&state),
                state["ply"].as_u64().unwrap(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let ply = body["ply"].clone();
        let seen_b = on_b.until(5, |s| s["ply"] == ply).await;
        slowest = slowest.max(sent.elapsed());
        let seen_a = on_a.until(5, |s| s["ply"] == ply).await;
        assert_eq!(seen_a["moves"], seen_b["moves"]);
        state = seen_b;
    }
    assert_eq!(state["status"], "finished");
    assert!(
        slowest < Duration::from_millis(100),
        "a move took {slowest:?} to reach the other instance"
    );
}

#[tokio::test]
async fn a_double_submit_across_instances_is_accepted_once() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let (id, token, _) = a
        .create_seated(json!({"mode": "local", "size": "8x8"}))
        .await;
    let (id, token) = (id.as_str(), token.as_str());
    for round in 0..6u64 {
        let state = a.get(id).await;
        let mv = first_legal(&state);
        let (x, y) = tokio::join!(
            a.play(id, Some(token), &mv, round),
            b.play(id, Some(token), &mv, round)
        );
        let mut statuses = [x.0, y.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}"
        );
    }
    assert_eq!(b.get(id).await["ply"], 6);
}

#[tokio::test]
async fn engine_games_and_clocks_on_postgres() {
    let Some(url) = database() else { return };
    let s = start_with(0, Some(url)).await;
    let created = s
        .create(json!({"mode": "engine", "size": "5x5", "color": "none", "level": 1}))
        .await;
    // The engine plays itself only while somebody watches.
    let _watcher = s.socket(created["id"].as_str().unwrap()).await;
    let watched = s
        .wait_for(created["id"].as_str().unwrap(), 30, |g| {
            g["status"] == "finished"
        })
        .await;
    assert_eq!(watched["result"]["reason"], "no_moves");
    let timed = s
        .create(json!({"mode": "local", "size": "4x4", "clock": {"minutes": 0.02}}))
        .await;
    let id = timed["id"].as_str().unwrap();
    let token = timed["token"].as_str();
    for ply in 0..2 {
        let state = s.get(id).await;
        let (status, body) = s.play(id, token, &first_legal(&state), ply).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let over = s.wait_for(id, 5, |g| g["status"] == "finished").await;
    assert_eq!(over["result"]["reason"], "timeout");
}

/// A rated game ended at the same moment by both players through both instances, and
/// asked for on both: both ratings change exactly once, and both archives list it once.
#[tokio::test]
async fn two_instances_rate_a_game_once() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let mut ana = common::fresh_player(&a, "ana").await;
    let mut kai = common::fresh_player(&b, "kai").await;
    for _ in 0..3 {
        let (id, black, white) = common::rated_game(&a, &mut ana, &b, &mut kai).await;
        common::finish_from_everywhere(&a, &b, &id, &black, &white).await;
    }
    for (server, name) in [(&a, &ana.name), (&b, &kai.name)] {
        let (_, profile) = server.json(&format!("/api/players/{name}")).await;
        assert_eq!(profile["ratings"]["blitz"]["games"], 3, "{profile}");
        let (_, page) = server.json(&format!("/api/players/{name}/games")).await;
        assert_eq!(page["games"].as_array().unwrap().len(), 3, "{page}");
    }
}

/// Two players asking for a game on two instances of one database meet in one game.
#[tokio::test]
async fn two_instances_pair_players_from_one_pool() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let mut ana = common::fresh_player(&a, "ana").await;
    let mut kai = common::fresh_player(&b, "kai").await;
    // A clock of its own, so earlier runs' seeks on the shared database stay apart.
    let tag: u32 = ana.name.trim_start_matches("ana").parse().unwrap();
    let minutes = 20.0 + f64::from(tag % 1000) / 1000.0;
    let body = json!({"clock": {"minutes": minutes, "increment": 0}, "rated": true});
    let (_, first) = a
        .send(
            &mut ana,
            reqwest::Method::POST,
            "/api/seeks",
            Some(body.clone()),
        )
        .await;
    assert_eq!(first["status"], "waiting", "{first}");
    let (_, second) = b
        .send(&mut kai, reqwest::Method::POST, "/api/seeks", Some(body))
        .await;
    assert_eq!(second["status"], "paired", "{second}");
    let path = format!("/api/seeks/{}", first["id"].as_str().unwrap());
    let (_, first) = a.send(&mut ana, reqwest::Method::GET, &path, None).await;
    assert_eq!(first["game"], second["game"]);
    let id = first["game"].as_str().unwrap();
    assert_eq!(a.get(id).await["category"], "rapid");
    assert_eq!(b.get(id).await["status"], "playing");
}

#[tokio::test]
async fn two_instances_rate_a_puzzle_attempt_once() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let mut ana = common::fresh_player(&a, "ana").await;
    let (status, view) = a
        .send(&mut ana, reqwest::Method::GET, "/api/puzzles/next", None)
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let id = view["id"].as_str().unwrap();
    let path = format!("/api/puzzles/{id}/moves");
    let body = json!({"moves": [common::losing_first_move(id)], "version": 0});
    // The same session through both instances at once.
    let mut twin = b.player(&ana.name, "127.0.0.1");
    twin.cookie = ana.cookie.clone();
    let (x, y) = tokio::join!(
        a.send(&mut ana, reqwest::Method::POST, &path, Some(body.clone())),
        b.send(&mut twin, reqwest::Method::POST, &path, Some(body)),
    );
    for (status, v) in [x, y] {
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["account"]["attempts"], 1, "{v}");
    }
    assert_eq!(common::puzzle_rating(&a, &ana).await["attempts"], 1);
}

/// A game one instance seated an account in is listed, with the seat's token, by the other
/// instance to the same account logged in on another browser; it drops off when it ends.
#[tokio::test]
async fn an_accounts_games_are_listed_by_every_instance() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let mut ana = common::fresh_player(&a, "ana").await;
    let mut kai = common::fresh_player(&b, "kai").await;
    let (id, black, white) = common::rated_game(&a, &mut ana, &b, &mut kai).await;
    let mut phone = b.player(&ana.name, "127.0.0.9");
    let login = json!({"name": ana.name, "password": "a good long password"});
    let (status, _) = b
        .send(
            &mut phone,
            reqwest::Method::POST,
            "/api/session",
            Some(login),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = b
        .send(&mut phone, reqwest::Method::GET, "/api/account/games", None)
        .await;
    assert_eq!(list["games"][0]["id"], id.as_str(), "{list}");
    assert_eq!(list["games"][0]["token"], black.as_str());
    let (_, list) = a
        .send(&mut kai, reqwest::Method::GET, "/api/account/games", None)
        .await;
    assert_eq!(list["games"][0]["token"], white.as_str(), "{list}");
    let (status, _) = b
        .post(&format!("/api/games/{id}/resign"), Some(&black))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = a
        .send(&mut phone, reqwest::Method::GET, "/api/account/games", None)
        .await;
    assert_eq!(list["games"], json!([]), "{list}");
}

/// `n` accounts registered on `s` under `prefix`: fresh ones, as the database is shared with
/// earlier runs.
async fn fresh_players(s: &common::TestServer, prefix: &str, n: usize) -> Vec<common::Player> {
    let mut all = Vec::new();
    for _ in 0..n {
        all.push(common::fresh_player(s, prefix).await);
    }
    all
}

/// One account sends twelve challenges at once through two instances, to twelve accounts,
/// round after round: each time five are stored and its list holds the five.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_stop_one_accounts_challenges_sent_at_once_at_the_limit() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let most = konane_server::games::create::MAX_CHALLENGES;
    for round in 0..3 {
        let mut ana = common::fresh_player(&a, "ana").await;
        let targets = fresh_players(&b, "to", 12).await;
        let sends: Vec<_> = targets
            .iter()
            .enumerate()
            .map(|(i, t)| (if i % 2 == 0 { &a } else { &b }, &ana, t.name.as_str()))
            .collect();
        let answers = common::challenges_at_once(&sends).await;
        assert_eq!(
            common::created_or_too_many(&answers),
            most,
            "round {round}: {answers:?}"
        );
        let (_, list) = b
            .send(&mut ana, reqwest::Method::GET, "/api/account/games", None)
            .await;
        assert_eq!(list["games"].as_array().unwrap().len(), most, "{list}");
    }
}

/// Twelve accounts challenge one at once through two instances, round after round: five
/// wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_stop_challenges_sent_at_once_to_one_account_at_the_limit() {
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let most = konane_server::games::create::MAX_CHALLENGES;
    for round in 0..3 {
        let mut kai = common::fresh_player(&b, "kai").await;
        let senders = fresh_players(&a, "from", 12).await;
        let sends: Vec<_> = senders
            .iter()
            .enumerate()
            .map(|(i, f)| (if i % 2 == 0 { &a } else { &b }, f, kai.name.as_str()))
            .collect();
        let answers = common::challenges_at_once(&sends).await;
        assert_eq!(
            common::created_or_too_many(&answers),
            most,
            "round {round}: {answers:?}"
        );
        let (_, list) = a
            .send(&mut kai, reqwest::Method::GET, "/api/account/games", None)
            .await;
        assert_eq!(list["challenges"].as_array().unwrap().len(), most, "{list}");
    }
}

/// An instance whose listening connection is cut off reconnects, takes its name again and
/// hears the other instance's moves as before.
#[tokio::test]
async fn a_listener_cut_off_comes_back_and_hears_moves_again() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url.clone())).await;
    let created = a
        .create(json!({"mode": "friend", "size": "6x6", "color": "black"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let (status, joined) = a.post(&format!("/api/games/{id}/join"), None).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let mut on_b = b.socket(&id).await;
    let state = on_b.next_state(5).await;

    sqlx::any::install_default_drivers();
    let mut admin = sqlx::AnyConnection::connect(&url).await.unwrap();
    let name = konane_server::net::peers::channel::listener_name(b.instance);
    let named = "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = $1";
    let cut: i64 = sqlx::query_scalar(
        "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(&name)
    .fetch_one(&mut admin)
    .await
    .unwrap();
    assert_eq!(cut, 1, "b's one listener");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let n: i64 = sqlx::query_scalar(named)
            .bind(&name)
            .fetch_one(&mut admin)
            .await
            .unwrap();
        if n == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "b's listener never came back");
    }
    let (status, body) = a
        .play(
            &id,
            Some(&black),
            &first_legal(&state),
            state["ply"].as_u64().unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ply = body["ply"].clone();
    on_b.until(5, |s| s["ply"] == ply).await;
}

/// A listening connection named as instance `instance` is, on its channel.
async fn listen_as(url: &str, instance: u64) -> sqlx::postgres::PgListener {
    konane_server::net::peers::channel::listen(url, instance)
        .await
        .unwrap()
}

/// The payloads with `tag` that `listener` hears, until it has `n` of them.
async fn hear_tagged(listener: &mut sqlx::postgres::PgListener, tag: &str, n: usize) -> Vec<usize> {
    let mut seen = Vec::new();
    while seen.len() < n {
        let note = tokio::time::timeout(Duration::from_secs(20), listener.recv())
            .await
            .expect("every notice within 20 s")
            .unwrap();
        if let Some(i) = note.payload().strip_prefix(tag) {
            seen.push(i.parse::<usize>().unwrap());
        }
    }
    seen
}

/// Every other listening instance hears every notice, in order; the sender hears none of
/// its own, and nor does a connection that listens on a channel without taking its name.
#[tokio::test]
async fn notices_queued_at_once_reach_every_other_instance_in_their_order() {
    let Some(url) = database() else { return };
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let base = u64::from(std::process::id()) << 32;
    let (sender, others) = (base, [base + 1, base + 2]);
    let mut own = listen_as(&url, sender).await;
    let mut first = listen_as(&url, others[0]).await;
    let mut second = listen_as(&url, others[1]).await;
    let mut unnamed = sqlx::postgres::PgListener::connect(&url).await.unwrap();
    unnamed
        .listen(&konane_server::net::peers::channel::channel(base + 3))
        .await
        .unwrap();
    let notifier = konane_server::net::peers::channel::Notifier::start(pool, sender);
    // Queued faster than they are sent, so they travel many to a statement.
    let tag = format!("order-test-{sender}-");
    let n = 2_000;
    for i in 0..n {
        notifier.send(format!("{tag}{i}")).await;
    }
    let all: Vec<usize> = (0..n).collect();
    assert_eq!(hear_tagged(&mut first, &tag, n).await, all);
    assert_eq!(hear_tagged(&mut second, &tag, n).await, all);
    // Sent in the same transactions as the others', they would have arrived by now.
    for (who, listener) in [
        ("the sender", &mut own),
        ("an unnamed listener", &mut unnamed),
    ] {
        let late = tokio::time::timeout(Duration::from_millis(500), async {
            loop {
                let note = listener.recv().await.unwrap();
                if note.payload().starts_with(&tag) {
                    return note.payload().to_string();
                }
            }
        })
        .await;
        assert!(late.is_err(), "{who} heard {late:?}");
    }
}

/// The pid of the PostgreSQL backend behind `conn`.
async fn backend_pid(conn: &mut sqlx::PgConnection) -> i32 {
    use sqlx::Row;
    sqlx::query("SELECT pg_backend_pid() AS pid")
        .fetch_one(conn)
        .await
        .unwrap()
        .get("pid")
}

/// A move's connection goes back for the next move only from a finished statement: one
/// dropped in the middle of its statement (a client gone) is closed, so no later move can
/// read the answer meant for it.
#[tokio::test]
async fn a_moves_connection_is_reused_only_after_a_finished_statement() {
    let Some(url) = database() else { return };
    sqlx::any::install_default_drivers();
    let pool = konane_server::store::direct::DirectPool::new(url.parse().unwrap(), 2);
    let mut conn = pool.get().await.unwrap();
    let first = backend_pid(&mut conn).await;
    conn.finished();
    assert_eq!(pool.idle(), 1);
    let mut conn = pool.get().await.unwrap();
    assert_eq!(
        backend_pid(&mut conn).await,
        first,
        "a finished one is reused"
    );
    conn.finished();

    let dropped = tokio::time::timeout(Duration::from_millis(200), async {
        let mut conn = pool.get().await.unwrap();
        sqlx::query("SELECT pg_sleep(3)")
            .execute(&mut *conn)
            .await
            .unwrap();
        conn.finished();
    })
    .await;
    assert!(dropped.is_err(), "the sleep was cut off");
    assert_eq!(pool.idle(), 0, "the interrupted connection is not kept");
    let mut conn = pool.get().await.unwrap();
    let (answer, pid) = {
        use sqlx::Row;
        let row = sqlx::query("SELECT 41 + 1 AS answer, pg_backend_pid() AS pid")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        (row.get::<i32, _>("answer"), row.get::<i32, _>("pid"))
    };
    assert_eq!(answer, 42);
    assert_ne!(pid, first, "a new connection");
}

/// A connection that sat idle past the ping interval and died meanwhile (its backend
/// ended by the database) is replaced, not handed to a move.
#[tokio::test]
async fn a_moves_connection_that_died_while_idle_is_replaced() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    sqlx::any::install_default_drivers();
    let pool = konane_server::store::direct::DirectPool::new(url.parse().unwrap(), 1);
    let mut conn = pool.get().await.unwrap();
    let first = backend_pid(&mut conn).await;
    conn.finished();
    let mut other = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query("SELECT pg_terminate_backend($1)")
        .bind(first)
        .execute(&mut other)
        .await
        .unwrap();
    tokio::time::sleep(konane_server::store::direct::PING_AFTER_IDLE + Duration::from_millis(100))
        .await;
    let mut conn = pool.get().await.unwrap();
    assert_ne!(backend_pid(&mut conn).await, first);
}

/// A client that sends a move and goes away while the database still works on it (a phone
/// losing its network) cuts nothing short: the move is stored, its pages are sent it, and
/// the move's connection is kept for the next move rather than closed and opened anew.
#[tokio::test]
async fn a_move_whose_client_left_half_way_is_stored_and_sent_to_the_pages() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    sqlx::any::install_default_drivers();
    // A name of its own for the server's connections, apart from other tests' servers.
    let app = format!("konane-left-{}", std::process::id());
    let sep = if url.contains('?') { '&' } else { '?' };
    let s = start_with(0, Some(format!("{url}{sep}application_name={app}"))).await;
    let (id, token, _) = s
        .create_seated(json!({"mode": "local", "size": "6x6"}))
        .await;
    let mut page = s.socket(&id).await;
    let state = page.next_state(5).await;
    // A warm-up move opens the move's connection; then its backend is known.
    let (status, body) = s.play(&id, Some(&token), &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let state = page.until(5, |st| st["ply"] == 1).await;
    let before = move_backends(&url, &app).await;

    // The game's row held by another transaction, so the move's update waits on it.
    let mut holder = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
    sqlx::query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .bind(&id)
        .execute(&mut holder)
        .await
        .unwrap();
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let gone = impatient
        .post(s.url(&format!("/api/games/{id}/moves")))
        .bearer_auth(&token)
        .json(&json!({ "move": first_legal(&state), "ply": 1 }))
        .send()
        .await;
    assert!(gone.is_err(), "the client gave up before the answer");
    // Time for the server to see the connection closed and drop the request.
    tokio::time::sleep(Duration::from_millis(300)).await;
    sqlx::query("COMMIT").execute(&mut holder).await.unwrap();

    let seen = page.until(5, |st| st["ply"] == 2).await;
    assert_eq!(seen["ply"], 2);
    assert_eq!(s.get(&id).await["ply"], 2);
    assert_eq!(
        move_backends(&url, &app).await,
        before,
        "the move's connection was kept, not closed and opened anew"
    );
}

/// The backends of the connections named `app` that last ran a move's update.
async fn move_backends(url: &str, app: &str) -> Vec<i32> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let mut pids: Vec<i32> = sqlx::query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 \
         AND query LIKE 'UPDATE games SET%'",
    )
    .bind(app)
    .fetch_all(&mut conn)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get("pid"))
    .collect();
    pids.sort();
    pids
}

/// Rows for the writer's tests: games `{prefix}-{i}` at sequence number 1 that no server
/// of the other tests looks at (finished, unlisted, unreadable data).
async fn writer_games(url: &str, prefix: &str, n: usize) -> Vec<String> {
    use sqlx::Connection;
    konane_server::store::Store::open(url).await.unwrap();
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    let ids: Vec<String> = (0..n).map(|i| format!("{prefix}-{i:03}")).collect();
    for id in &ids {
        sqlx::query(
            "INSERT INTO games (id, seq, status, listed, data, created_at, updated_at, \
             changed_minute) VALUES ($1, 1, 'finished', 0, 'none', 0, 0, 0)",
        )
        .bind(id)
        .execute(&mut conn)
        .await
        .unwrap();
    }
    ids
}

/// Sends a move of game `id` over `seq` to `writer`, in a task of its own.
fn send_move(
    writer: &konane_server::store::writer::Writer,
    id: &str,
    seq: i64,
    data: &str,
) -> tokio::task::JoinHandle<Result<bool, konane_server::store::writer::WriteError>> {
    let writer = writer.clone();
    let update = konane_server::store::writer::Update {
        id: id.to_string(),
        seq,
        status: "finished",
        listed: 0,
        data: data.to_string(),
        now: 1,
        minute: 0,
    };
    tokio::spawn(async move { writer.update(update).await })
}

/// Waits until `count` statements of connections named `app` wait for a row lock.
async fn waiting_for_locks(conn: &mut sqlx::PgConnection, app: &str, count: i64) {
    for _ in 0..500 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 \
             AND wait_event_type = 'Lock'",
        )
        .bind(app)
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        if waiting == count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{app}: no statement waits for a lock");
}

/// A transaction on `conn` that holds game `id`'s row until it ends.
async fn hold_row<'c>(
    conn: &'c mut sqlx::PgConnection,
    id: &str,
) -> sqlx::Transaction<'c, sqlx::Postgres> {
    use sqlx::Connection;
    let mut tx = conn.begin().await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx
}

/// A writer of a test's own, its games and a connection to watch them with.
struct WriterTest {
    /// Games `{prefix}-{i}` at sequence number 1.
    ids: Vec<String>,
    prefix: String,
    /// The `application_name` of the writer's connection, so the test can see it wait.
    app: String,
    writer: konane_server::store::writer::Writer,
    watch: sqlx::PgConnection,
}

async fn writer_test(url: &str, tag: &str, games: usize) -> WriterTest {
    use sqlx::Connection;
    let prefix = format!("{tag}{}", std::process::id());
    let ids = writer_games(url, &prefix, games).await;
    let app = format!("konane-writer-{prefix}");
    let sep = if url.contains('?') { '&' } else { '?' };
    let writer =
        konane_server::store::writer::Writer::start(&format!("{url}{sep}application_name={app}"))
            .unwrap();
    let watch = sqlx::PgConnection::connect(url).await.unwrap();
    WriterTest {
        ids,
        prefix,
        app,
        writer,
        watch,
    }
}

/// Moves that wait together are written in one statement, each stored exactly when its
/// game was still at its sequence number; a game's second move waits for the next
/// statement, in the order the moves came.
#[tokio::test]
async fn moves_waiting_together_are_written_in_one_statement() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    let WriterTest {
        ids,
        prefix,
        app,
        writer,
        mut watch,
    } = writer_test(&url, "wb", 50).await;
    // The first move waits on a lock, so the others queue up behind it.
    let mut holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let held = hold_row(&mut holder, &ids[0]).await;
    let first = send_move(&writer, &ids[0], 1, "first");
    waiting_for_locks(&mut watch, &app, 1).await;
    let mut moves = Vec::new();
    let mut sent = |id: &str, seq: i64, data: &str| {
        let answer = send_move(&writer, id, seq, data);
        moves.push((id.to_string(), seq, data.to_string(), answer));
    };
    for id in &ids[1..] {
        sent(id, 1, "one");
    }
    sent(&ids[1], 1, "the same game again, one move late");
    sent(&ids[2], 2, "the game's next move");
    // The test's runtime has one thread: the spawned moves reach the queue in order once
    // the test waits.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(writer.statements(), 1, "the others wait behind the first");
    held.commit().await.unwrap();
    assert!(first.await.unwrap().unwrap());
    for (id, seq, data, answer) in moves {
        let stored = answer.await.unwrap().unwrap();
        let late = data.starts_with("the same game");
        assert_eq!(stored, !late, "{id} at {seq}: {data}");
    }
    assert_eq!(
        writer.statements(),
        3,
        "the first move, the 49 others together, then the two that had to wait"
    );
    assert_eq!(writer.failed_batches(), 0);
    let rows: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT id, seq, data FROM games WHERE id LIKE $1 ORDER BY id")
            .bind(format!("{prefix}-%"))
            .fetch_all(&mut watch)
            .await
            .unwrap();
    assert_eq!(rows.len(), 50);
    for (i, (id, seq, data)) in rows.iter().enumerate() {
        let (want_seq, want_data) = match i {
            0 => (2, "first"),
            2 => (3, "the game's next move"),
            _ => (2, "one"),
        };
        assert_eq!((*seq, data.as_str()), (want_seq, want_data), "{id}");
    }
}

/// Two writers locking the same games in other orders (two instances) deadlock, and
/// PostgreSQL ends one statement: a batch so ended is written again one move a statement,
/// and every one of its moves is stored.
#[tokio::test]
async fn a_batch_ended_by_a_deadlock_is_written_one_move_at_a_time() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    let WriterTest {
        ids,
        prefix,
        app,
        writer,
        mut watch,
    } = writer_test(&url, "wd", 3).await;
    let (a, b, c) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
    let mut first_holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let holds_c = hold_row(&mut first_holder, &c).await;
    // The other "instance": holds b, and will want a.
    let mut other = sqlx::PgConnection::connect(&url).await.unwrap();
    let mut other_tx = other.begin().await.unwrap();
    sqlx::query("UPDATE games SET updated_at = updated_at WHERE id = $1")
        .bind(&b)
        .execute(&mut *other_tx)
        .await
        .unwrap();
    let spawn = |id: &str| send_move(&writer, id, 1, "moved");
    let on_c = spawn(&c);
    waiting_for_locks(&mut watch, &app, 1).await;
    let (on_a, on_b) = (spawn(&a), spawn(&b));
    tokio::time::sleep(Duration::from_millis(200)).await;
    holds_c.commit().await.unwrap();
    assert!(on_c.await.unwrap().unwrap());
    // The batch [a, b] has locked a and waits for b.
    waiting_for_locks(&mut watch, &app, 1).await;
    let crossed = tokio::time::timeout(
        Duration::from_secs(20),
        sqlx::query("UPDATE games SET updated_at = updated_at WHERE id = $1")
            .bind(&a)
            .execute(&mut *other_tx),
    )
    .await
    .expect("PostgreSQL ends the deadlock");
    crossed.expect("the writer's statement, which waited longer, is the one PostgreSQL ends");
    other_tx.commit().await.unwrap();
    assert!(on_a.await.unwrap().unwrap(), "a is stored");
    assert!(on_b.await.unwrap().unwrap(), "b is stored");
    assert_eq!(writer.failed_batches(), 1);
    assert_eq!(
        writer.statements(),
        4,
        "c, the batch [a, b], then a and b alone"
    );
    let seqs: Vec<i64> = sqlx::query_scalar("SELECT seq FROM games WHERE id LIKE $1 ORDER BY id")
        .bind(format!("{prefix}-%"))
        .fetch_all(&mut watch)
        .await
        .unwrap();
    assert_eq!(seqs, [2, 2, 2]);
}

/// A game's row held by a transaction that does not end (a client of the database gone
/// quiet) fails that game's move after the writer's lock timeout, and holds up the moves
/// of other games no longer than that.
#[tokio::test]
async fn a_row_held_for_long_fails_its_own_move_only() {
    use sqlx::Connection;
    let Some(url) = database() else { return };
    let WriterTest {
        ids,
        app,
        writer,
        mut watch,
        ..
    } = writer_test(&url, "wl", 3).await;
    let mut first_holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let holds_first = hold_row(&mut first_holder, &ids[0]).await;
    let mut stuck_holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let _stuck = hold_row(&mut stuck_holder, &ids[1]).await;
    let spawn = |id: &str| send_move(&writer, id, 1, "moved");
    // The first move waits, so the stuck game and a free one go in one batch behind it.
    let first = spawn(&ids[0]);
    waiting_for_locks(&mut watch, &app, 1).await;
    let (stuck, free) = (spawn(&ids[1]), spawn(&ids[2]));
    tokio::time::sleep(Duration::from_millis(200)).await;
    holds_first.commit().await.unwrap();
    assert!(first.await.unwrap().unwrap());
    let free = tokio::time::timeout(Duration::from_secs(15), free)
        .await
        .expect("the free game's move is not held up for long");
    assert!(free.unwrap().unwrap(), "the free game is stored");
    let stuck = stuck.await.unwrap();
    assert!(stuck.is_err(), "the held game's move fails: {stuck:?}");
    assert_eq!(writer.failed_batches(), 1);
}

/// Two instances direct the same Swiss events: each round of each is paired once (by one
/// of them), nobody plays two games of a round, and the next round comes once the last
/// game of the round before has ended on either instance.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_pair_each_tournament_round_once() {
    use common::tournaments::{act, create, quick_on, resign_all, show, until};
    let Some(url) = database() else { return };
    let a = quick_on(Some(url.clone())).await;
    let b = quick_on(Some(url)).await;
    let mut ps = fresh_players(&a, "Sw", 6).await;
    let mut ids = Vec::new();
    for i in 0..3 {
        let t = create(
            &a,
            &mut ps[0],
            json!({"kind": "swiss", "name": format!("Race {i}"), "clock": {"minutes": 5},
                   "rounds": 2, "starts_in_s": 3600}),
        )
        .await;
        let id = t["id"].as_str().unwrap().to_string();
        for p in ps.iter_mut().skip(1) {
            let (status, body) = act(&b, p, &id, "join", json!({})).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        ids.push(id);
    }
    for id in &ids {
        let (status, body) = act(&a, &mut ps[0], id, "start", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let mut by_name: std::collections::HashMap<String, common::Player> =
        ps.into_iter().map(|p| (p.name.clone(), p)).collect();
    for round in 1..=2u64 {
        for id in &ids {
            let t = until(&b, id, 20, |t| t["round"] == round).await;
            // Both directors have had many ticks since: still one pairing of the round.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let t = if t["games"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["round"] == round)
            {
                show(&a, id).await
            } else {
                t
            };
            let games: Vec<&serde_json::Value> = t["games"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["round"] == round)
                .collect();
            assert_eq!(games.len(), 3, "round {round} of {id}: {t:#}");
            let mut seen = std::collections::HashSet::new();
            for g in &games {
                assert!(seen.insert(g["black"].to_string()), "{t:#}");
                assert!(seen.insert(g["white"].to_string()), "{t:#}");
            }
            assert_eq!(t["round"], round);
            resign_all(&b, &t, &mut by_name, "").await;
        }
    }
    for id in &ids {
        let t = until(&a, id, 20, |t| t["status"] == "finished").await;
        assert_eq!(t["games"].as_array().unwrap().len(), 6, "{t:#}");
    }
}

/// The same round stored by two instances at the very same moment is stored once: the
/// transaction that pairs it moves the round on only from the value it was computed from.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_stored_from_two_instances_at_once_is_stored_once() {
    use konane_server::store::Store;
    use konane_server::tournaments::model::{Format, Phase, Settings, Tournament};
    let Some(url) = database() else { return };
    let (one, two) = (
        Store::open(&url).await.unwrap(),
        Store::open(&url).await.unwrap(),
    );
    let now = konane_server::time::now_ms();
    for i in 0..20 {
        let id = format!("race{now}{i}");
        let t = Tournament {
            id: id.clone(),
            phase: Phase::Created,
            by_site: false,
            created_by: None,
            settings: Settings {
                name: "Race".into(),
                format: Format::Swiss { rounds: 3 },
                initial_ms: 60_000,
                increment_ms: 0,
                size: "8x8".into(),
                opening: "center-or-corner".into(),
                rated: false,
                entry_code: None,
                min_rating: None,
                min_games: None,
                creator_name: None,
                site_title: None,
                season: None,
            },
            size: "8x8".parse().unwrap(),
            opening: "center-or-corner".parse().unwrap(),
            round: 0,
            version: 1,
            starts_at: now,
            ends_at: None,
            finished_at: None,
        };
        assert!(one.insert_tournament(&t, None, now).await.unwrap());
        assert!(one.start_tournament(&id, now, None, &[]).await.unwrap());
        let (bye_x, bye_y) = (["x".to_string()], ["y".to_string()]);
        let (x, y) = tokio::join!(
            one.pair_round(&id, 1, &[], &bye_x, true, now),
            two.pair_round(&id, 1, &[], &bye_y, true, now)
        );
        assert!(x.unwrap() ^ y.unwrap(), "exactly one pairs round 1 of {id}");
        assert_eq!(two.tour_byes(&id).await.unwrap().len(), 1);
        assert_eq!(one.tournament(&id).await.unwrap().unwrap().round, 1);
    }
}

/// Two instances with one league in their schedules make its first season once, start it
/// once (one set of games), and after its last game make the next season once with its
/// players carried over once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_run_a_league_season_once() {
    use common::tournaments::{act, season, seat_token, show, start_now, until, with_league};
    let Some(url) = database() else { return };
    let a = with_league(1, Some(url.clone())).await;
    let b = with_league(1, Some(url)).await;
    let first = season(&a, 1, 10).await;
    let id = first["id"].as_str().unwrap().to_string();
    assert_eq!(
        season(&b, 1, 10).await["id"],
        first["id"],
        "one first season"
    );
    let mut ps = fresh_players(&a, "Lg", 6).await;
    for p in &mut ps {
        let (status, body) = act(&b, p, &id, "join", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    start_now(&a.database, &id).await;
    until(&b, &id, 20, |t| t["status"] == "started").await;
    // Both directors have had many ticks since: still one set of games.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let t = show(&a, &id).await;
    let games = t["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 6 * 5, "one double round robin of six: {t:#}");
    let mut by_name: std::collections::HashMap<String, common::Player> =
        ps.into_iter().map(|p| (p.name.clone(), p)).collect();
    for g in &games {
        let game = g["id"].as_str().unwrap();
        let loser = g["white"].as_str().unwrap();
        let p = by_name.get_mut(loser).unwrap();
        let token = seat_token(&b, p, game).await;
        let (status, over) = b
            .post(&format!("/api/games/{game}/resign"), Some(&token))
            .await;
        assert_eq!(status, StatusCode::OK, "{over}");
    }
    until(&a, &id, 20, |t| t["status"] == "finished").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, list) = a.json("/api/tournaments").await;
    let seconds: Vec<&serde_json::Value> = list["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"] == "league" && t["season"] == 2)
        .collect();
    assert_eq!(seconds.len(), 1, "one second season: {list:#}");
    assert_eq!(seconds[0]["players"], 6);
}

/// Follows and blocks on PostgreSQL, written on one instance and read on the other: the
/// list, who is playing, a challenge a block stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn follows_and_blocks_hold_across_instances() {
    use reqwest::Method;
    let Some(url) = database() else { return };
    let a = start_with(0, Some(url.clone())).await;
    let b = start_with(0, Some(url)).await;
    let mut ps = fresh_players(&a, "Fo", 2).await;
    let them = ps[1].name.clone();
    let me = ps[0].name.clone();
    let (status, _) = a
        .send(
            &mut ps[0],
            Method::POST,
            &format!("/api/players/{them}/follow"),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, list) = b
        .send(&mut ps[0], Method::GET, "/api/account/following", None)
        .await;
    assert_eq!(list["players"][0]["name"], them.as_str(), "{list}");
    let (status, _) = b
        .send(
            &mut ps[1],
            Method::POST,
            &format!("/api/players/{me}/block"),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let body = json!({"mode": "friend", "challenge": them, "clock": {"minutes": 5}});
    let (status, refused) = a
        .send(&mut ps[0], Method::POST, "/api/games", Some(body))
        .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    let (_, list) = a
        .send(&mut ps[0], Method::GET, "/api/account/following", None)
        .await;
    assert_eq!(list["players"], json!([]), "the block ended the follow");
}
