//! The puzzle API: a puzzle is served without its solution, checked move by move, refuted
//! on a wrong move, rated (a guest's rating sent by the page, an account's stored), and the
//! daily puzzle is the same for every caller; on SQLite and, when `KONANE_TEST_POSTGRES` is
//! set, on PostgreSQL.

mod common;

use common::{
    Player, TestServer, fresh_player, losing_first_move, puzzle_rating, registered, start,
    start_with,
};
use konane_engine::puzzle::Puzzle;
use reqwest::Method;
use reqwest::StatusCode;
use serde_json::{Value, json};

const SET: &str = include_str!("../../../data/puzzles.txt");

/// The fields a puzzle is shown with; anything more could carry the solution.
const VIEW_FIELDS: [&str; 8] = [
    "id",
    "legal_moves",
    "opening",
    "position",
    "rating",
    "size",
    "themes",
    "turn",
];

fn set() -> Vec<Puzzle> {
    Puzzle::parse_set(SET).expect("the shipped set reads")
}

fn find(id: &str) -> Puzzle {
    set()
        .into_iter()
        .find(|p| p.id.as_str() == id)
        .expect("a shipped puzzle")
}

fn texts(p: &Puzzle, moves: &[konane_core::Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&m| p.position.size().move_text(m).to_string())
        .collect()
}

async fn get(server: &TestServer, path: &str) -> (StatusCode, Value) {
    let r = server.client.get(server.url(path)).send().await.unwrap();
    (r.status(), r.json().await.unwrap())
}

async fn answer(server: &TestServer, id: &str, body: Value) -> (StatusCode, Value) {
    let r = server
        .client
        .post(server.url(&format!("/api/puzzles/{id}/moves")))
        .json(&body)
        .send()
        .await
        .unwrap();
    (r.status(), r.json().await.unwrap())
}

/// A shown puzzle has exactly the view's fields and none of the line's moves but the ones
/// anyone can list (the legal moves).
fn assert_no_solution(view: &Value) {
    let mut keys: Vec<&str> = view
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(keys, VIEW_FIELDS, "{view}");
}

async fn solve_and_fail(server: &TestServer) {
    let (status, next) = get(server, "/api/puzzles/next?rating=1500&size=6x6").await;
    assert_eq!(status, StatusCode::OK, "{next}");
    assert_no_solution(&next);
    assert_eq!(next["size"], "6x6");
    let id = next["id"].as_str().unwrap().to_string();
    let p = find(&id);
    assert_eq!(next["position"], p.position.to_string());

    // Solved move by move: every answer gives the next reply only, never the next solution move.
    let line = texts(&p, &p.line);
    for step in 0..p.steps() {
        let (status, v) = answer(server, &id, json!({ "moves": line[..=2 * step] })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["correct"], true, "{v}");
        assert!(v["solution"].is_null(), "{v}");
        let last = step + 1 == p.steps();
        assert_eq!(v["solved"], last, "{v}");
        if last {
            assert!(v["reply"].is_null(), "{v}");
        } else {
            assert_eq!(v["reply"], line[2 * step + 1], "{v}");
            let after = p.position_at(step + 1).unwrap();
            assert_eq!(v["position"], after.to_string());
            assert_eq!(v["legal_moves"], json!(after.legal_move_texts()));
        }
    }

    // A wrong first move, rated: refuted by the listed answer, the solution shown, both
    // ratings move.
    let (wrong, refutation) = p.refutations[0][0];
    let size = p.position.size();
    let before = next["rating"].as_i64().unwrap();
    let me = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let (status, v) = answer(
        server,
        &id,
        json!({ "moves": [size.move_text(wrong).to_string()], "rating": me }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["correct"], false);
    assert_eq!(v["solved"], false);
    assert_eq!(v["reply"], size.move_text(refutation).to_string());
    assert_eq!(v["solution"], json!(line));
    assert!(v["player"]["rating"].as_f64().unwrap() < 1500.0, "{v}");
    assert!(v["rating"].as_i64().unwrap() > before, "{v}");
    let (_, shown) = get(server, &format!("/api/puzzles/{id}")).await;
    assert_no_solution(&shown);
    assert_eq!(shown["rating"], v["rating"]);
}

/// The PostgreSQL URL to test on, or `None` (said, and refused under `CI=true`).
fn postgres() -> Option<String> {
    let url = std::env::var("KONANE_TEST_POSTGRES").ok();
    if url.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "KONANE_TEST_POSTGRES must be set in CI"
        );
        eprintln!("SKIPPED: needs KONANE_TEST_POSTGRES=postgres://…");
    }
    url
}

#[tokio::test]
async fn a_puzzle_is_served_solved_and_failed() {
    let server = start().await;
    solve_and_fail(&server).await;
}

#[tokio::test]
async fn on_postgres_too() {
    let Some(url) = postgres() else { return };
    let server = start_with(0, Some(url)).await;
    solve_and_fail(&server).await;
}

#[tokio::test]
async fn choices_follow_the_filters_and_the_rating() {
    let server = start().await;
    for theme in ["stop-early", "no-greed", "tempo", "endgame", "opening"] {
        let (status, v) = get(&server, &format!("/api/puzzles/next?theme={theme}")).await;
        if status == StatusCode::OK {
            assert!(
                v["themes"].as_array().unwrap().contains(&json!(theme)),
                "{v}"
            );
        } else {
            assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
        }
    }
    let (_, easy) = get(&server, "/api/puzzles/next?rating=0").await;
    let (_, hard) = get(&server, "/api/puzzles/next?rating=4000").await;
    assert!(
        easy["rating"].as_i64() < hard["rating"].as_i64(),
        "{easy} {hard}"
    );
    let (_, a) = get(&server, "/api/puzzles/daily").await;
    let (_, b) = get(&server, "/api/puzzles/daily").await;
    assert_no_solution(&a);
    assert_eq!(a["id"], b["id"]);
}

#[tokio::test]
async fn bad_requests_change_nothing() {
    let server = start().await;
    let p = &set()[0];
    let id = p.id.to_string();
    let line = texts(p, &p.line);
    let cases = [
        (
            "/api/puzzles/6x6-0000000000/moves",
            json!({"moves": ["a1"]}),
            StatusCode::NOT_FOUND,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": []}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": ["zz9"]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": "e3"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": ["a1-a1-a1"]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": [line[0], line[0]]}),
            StatusCode::BAD_REQUEST,
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": [line[0], "a1", line[0]]}),
            if line.len() >= 3 {
                StatusCode::CONFLICT
            } else {
                StatusCode::BAD_REQUEST
            },
        ),
        (
            &*format!("/api/puzzles/{id}/moves"),
            json!({"moves": [line[0]], "rating": {"rating": 1e300, "deviation": 1, "volatility": 0.06}}),
            StatusCode::BAD_REQUEST,
        ),
    ];
    let (_, before) = get(&server, &format!("/api/puzzles/{id}")).await;
    for (path, body, status) in cases {
        let r = server
            .client
            .post(server.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "{path} {body}");
        let v: Value = r.json().await.unwrap();
        assert!(v["error"].is_string(), "{v}");
    }
    let (_, after) = get(&server, &format!("/api/puzzles/{id}")).await;
    assert_eq!(before, after);
    for (query, status) in [
        ("theme=greed", StatusCode::BAD_REQUEST),
        ("size=99x99", StatusCode::BAD_REQUEST),
        ("rating=NaN", StatusCode::BAD_REQUEST),
        ("size=4x4", StatusCode::NOT_FOUND),
    ] {
        let (s, v) = get(&server, &format!("/api/puzzles/next?{query}")).await;
        assert_eq!(s, status, "{query}: {v}");
    }
}

async fn send(
    s: &TestServer,
    p: &mut Player,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> Value {
    let (status, v) = s.send(p, method, path, body).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

/// A page's rating claim that would move an account a lot if it were believed.
fn claimed() -> Value {
    json!({"rating": 3000.0, "deviation": 40.0, "volatility": 0.06})
}

/// A logged-in player's solved and failed puzzles move the stored rating and the puzzle's
/// once each; a sent rating, a repeat and a stale version change nothing; the next puzzle
/// is chosen near the stored rating; the profile shows it.
async fn account_attempts(s: &TestServer) {
    let mut p = fresh_player(s, "solver").await;
    let newcomer = puzzle_rating(s, &p).await;
    assert_eq!(
        newcomer,
        json!({"rating": 1500, "deviation": 350, "provisional": true, "attempts": 0})
    );

    // Solved: every move of the first try names version 0, and claims a rating.
    let view = send(
        s,
        &mut p,
        Method::GET,
        "/api/puzzles/next?size=6x6&rating=4000",
        None,
    )
    .await;
    assert_eq!(view["player"], newcomer, "{view}");
    // Near the stored 1500, not the 4000 asked for.
    let (_, hard) = get(s, "/api/puzzles/next?size=6x6&rating=4000").await;
    assert!(
        view["rating"].as_i64() < hard["rating"].as_i64(),
        "{view} {hard}"
    );
    let id = view["id"].as_str().unwrap().to_string();
    let puzzle = find(&id);
    let line = texts(&puzzle, &puzzle.line);
    let path = format!("/api/puzzles/{id}/moves");
    let mut v = Value::Null;
    for step in 0..puzzle.steps() {
        let body = json!({"moves": line[..=2 * step], "version": 0, "rating": claimed()});
        v = send(s, &mut p, Method::POST, &path, Some(body)).await;
        assert!(
            v["player"].is_null(),
            "an account's rating is not the page's: {v}"
        );
        let ended = step + 1 == puzzle.steps();
        assert_eq!(v["account"]["attempts"], i64::from(ended), "{v}");
    }
    assert_eq!(v["solved"], true);
    let solved = v["account"].clone();
    assert!(solved["rating"].as_i64().unwrap() > 1500, "{solved}");
    assert!(
        solved["rating"].as_i64().unwrap() < 1900,
        "the claimed 3000 was ignored: {solved}"
    );
    let puzzle_after = v["rating"].as_i64().unwrap();
    assert!(puzzle_after < view["rating"].as_i64().unwrap(), "{v}");
    assert_eq!(puzzle_rating(s, &p).await, solved);

    // The same puzzle again, even naming the current version: it counted already.
    let body = json!({"moves": line[..1], "version": 1});
    let again = send(s, &mut p, Method::POST, &path, Some(body)).await;
    if puzzle.steps() == 1 {
        assert_eq!(again["account"], solved, "{again}");
        assert_eq!(again["rating"], puzzle_after, "{again}");
    }
    let body = json!({"moves": [losing_first_move(&id)], "version": 1});
    let again = send(s, &mut p, Method::POST, &path, Some(body)).await;
    assert_eq!(again["account"], solved, "{again}");
    assert_eq!(again["rating"], puzzle_after, "{again}");

    // Failed, on another puzzle: the account falls, the puzzle rises; a stale version and an
    // attempt without one change nothing.
    let other = send(
        s,
        &mut p,
        Method::GET,
        &format!("/api/puzzles/next?after={id}"),
        None,
    )
    .await;
    assert_ne!(other["id"], json!(id));
    assert_eq!(other["player"], solved, "{other}");
    let other_id = other["id"].as_str().unwrap().to_string();
    let wrong = losing_first_move(&other_id);
    let other_path = format!("/api/puzzles/{other_id}/moves");
    for body in [
        json!({"moves": [wrong], "version": 0}),
        json!({"moves": [wrong]}),
    ] {
        let stale = send(s, &mut p, Method::POST, &other_path, Some(body)).await;
        assert_eq!(stale["account"], solved, "{stale}");
        assert_eq!(stale["rating"], other["rating"], "{stale}");
    }
    let body = json!({"moves": [wrong], "version": 1, "rating": claimed()});
    let failed = send(s, &mut p, Method::POST, &other_path, Some(body)).await;
    assert_eq!(failed["account"]["attempts"], 2, "{failed}");
    assert!(
        failed["account"]["rating"].as_i64() < solved["rating"].as_i64(),
        "{failed}"
    );
    assert!(
        failed["rating"].as_i64() > other["rating"].as_i64(),
        "{failed}"
    );
    assert_eq!(puzzle_rating(s, &p).await, failed["account"]);
}

#[tokio::test]
async fn an_account_is_rated_on_the_server() {
    let s = start().await;
    account_attempts(&s).await;
}

#[tokio::test]
async fn an_account_is_rated_on_postgres_too() {
    let Some(url) = postgres() else { return };
    let s = start_with(0, Some(url)).await;
    account_attempts(&s).await;
}

/// The rating of puzzle `id` after one failed rated attempt by a newcomer, on a fresh server.
async fn after_one_failure(id: &str) -> i64 {
    let s = start().await;
    let mut p = registered(&s, "Once", "127.0.0.9").await;
    let body = json!({"moves": [losing_first_move(id)], "version": 0});
    let v = send(
        &s,
        &mut p,
        Method::POST,
        &format!("/api/puzzles/{id}/moves"),
        Some(body),
    )
    .await;
    assert_eq!(v["account"]["attempts"], 1, "{v}");
    v["rating"].as_i64().unwrap()
}

#[tokio::test]
async fn racing_first_tries_of_one_attempt_count_once() {
    let s = start().await;
    let id = set()[0].id.to_string();
    let path = format!("/api/puzzles/{id}/moves");
    let body = json!({"moves": [losing_first_move(&id)], "version": 0});
    let mut p = registered(&s, "Racer", "127.0.0.8").await;
    let mut copies: Vec<Player> = (0..4)
        .map(|i| {
            let mut c = s.player("Racer", &format!("127.0.0.{}", 20 + i));
            c.cookie = p.cookie.clone();
            c
        })
        .collect();
    let answers = futures_util::future::join_all(
        copies
            .iter_mut()
            .map(|c| s.send(c, Method::POST, &path, Some(body.clone()))),
    )
    .await;
    for (status, v) in &answers {
        assert_eq!(*status, StatusCode::OK, "{v}");
        assert_eq!(v["account"]["attempts"], 1, "{v}");
    }
    assert_eq!(puzzle_rating(&s, &p).await["attempts"], 1);
    let (_, shown) = s
        .send(&mut p, Method::GET, &format!("/api/puzzles/{id}"), None)
        .await;
    assert_eq!(
        shown["rating"],
        after_one_failure(&id).await,
        "moved once: {shown}"
    );
}

#[tokio::test]
async fn deleting_an_account_deletes_its_puzzle_rating() {
    let s = start().await;
    let mut p = registered(&s, "Gone", "127.0.0.7").await;
    let id = set()[0].id.to_string();
    let body = json!({"moves": [losing_first_move(&id)], "version": 0});
    send(
        &s,
        &mut p,
        Method::POST,
        &format!("/api/puzzles/{id}/moves"),
        Some(body),
    )
    .await;
    assert_eq!(puzzle_rating(&s, &p).await["attempts"], 1);
    let (status, v) = s
        .send(
            &mut p,
            Method::POST,
            "/api/account/delete",
            Some(json!({"password": "a good long password"})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    use sqlx::Connection;
    let mut db = sqlx::SqliteConnection::connect(&s.database).await.unwrap();
    for count in [
        "SELECT COUNT(*) FROM puzzle_ratings",
        "SELECT COUNT(*) FROM puzzle_attempts",
    ] {
        let (left,): (i64,) = sqlx::query_as(count).fetch_one(&mut db).await.unwrap();
        assert_eq!(left, 0, "{count}: the deleted account's rows stayed");
    }
}
