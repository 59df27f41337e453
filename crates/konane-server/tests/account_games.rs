//! An account's games on every device: the unfinished games it sits in, with the seat
//! tokens, for any browser logged in to it and for nobody else; and an account deleted in
//! the middle of a game leaves no rows behind when the game ends.

mod common;

use common::{
    Player, TestServer, challenges_at_once, created_or_too_many, first_legal, registered, start,
};
use konane_server::games::create::MAX_CHALLENGES as MAX;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const PASSWORD: &str = "a good long password";

/// `name` logged in from another browser (another address, another cookie).
async fn second_device(s: &TestServer, name: &str, addr: &str) -> Player {
    let mut p = s.player(name, addr);
    let (status, body) = s
        .send(
            &mut p,
            Method::POST,
            "/api/session",
            Some(json!({"name": name, "password": PASSWORD})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    p
}

async fn listed(s: &TestServer, p: &mut Player) -> Vec<Value> {
    let (status, body) = s.send(p, Method::GET, "/api/account/games", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["games"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_accounts_games_are_listed_with_their_tokens_on_every_device() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let mut lea = registered(&s, "Lea", "127.0.0.4").await;
    // Ana invites Kai on her first browser; Kai joins on his.
    let (_, created) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/games",
            Some(json!({"mode": "friend", "color": "black", "size": "6x6"})),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    // And a game against the computer, which waits for nobody.
    let (_, engine) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/games",
            Some(json!({"mode": "engine", "color": "white", "size": "6x6", "level": 1})),
        )
        .await;
    let engine_id = engine["id"].as_str().unwrap().to_string();
    s.wait_for(&engine_id, 20, |g| g["turn"] == "white").await;

    // On her second browser Ana finds both, her move first, with the tokens of her seats.
    let mut phone = second_device(&s, "ana", "127.0.0.5").await;
    let games = listed(&s, &mut phone).await;
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games.iter().all(|g| g["your_turn"] == true), "{games:?}");
    let friend = games.iter().find(|g| g["id"] == id.as_str()).unwrap();
    assert_eq!(friend["seat"], "black");
    assert_eq!(friend["token"], created["token"]);
    assert_eq!(friend["game"]["players"]["white"]["name"], "Kai");
    let with_engine = games
        .iter()
        .find(|g| g["id"] == engine_id.as_str())
        .unwrap();
    assert_eq!(with_engine["seat"], "white");
    assert_eq!(with_engine["token"], engine["token"]);

    // The token works there: the move is Ana's, and now it is Kai's turn.
    let token = friend["token"].as_str().unwrap().to_string();
    let state = s.get(&id).await;
    let (status, moved) = s.play(&id, Some(&token), &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let games = listed(&s, &mut phone).await;
    assert_eq!(
        games[0]["id"],
        engine_id.as_str(),
        "her move first: {games:?}"
    );
    assert_eq!(games[1]["your_turn"], false);
    let kais = listed(&s, &mut kai).await;
    assert_eq!(kais.len(), 1, "{kais:?}");
    assert_eq!(kais[0]["seat"], "white");
    assert_eq!(kais[0]["token"], joined["token"]);
    assert_eq!(kais[0]["your_turn"], true);

    // Nobody else learns a token: another account lists nothing, a guest is refused.
    assert!(listed(&s, &mut lea).await.is_empty());
    let mut guest = s.player("guest", "127.0.0.6");
    let (status, body) = s
        .send(&mut guest, Method::GET, "/api/account/games", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"], "login_required");
    assert!(!body.to_string().contains(&token), "{body}");

    // A finished game drops off both lists.
    let (status, _) = s
        .post(&format!("/api/games/{id}/resign"), joined["token"].as_str())
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(listed(&s, &mut kai).await.is_empty());
    let kai_id = account_id(&s, "kai").await;
    assert_eq!(
        rows_of(&s, "account_games", &kai_id).await,
        0,
        "the link went"
    );
    let games = listed(&s, &mut phone).await;
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["id"], engine_id.as_str());
    // So does one ended by the clock task or the janitor: the link goes with the result.
    s.post(
        &format!("/api/games/{engine_id}/resign"),
        engine["token"].as_str(),
    )
    .await;
    assert!(listed(&s, &mut phone).await.is_empty());
}

#[tokio::test]
async fn a_guest_seat_claimed_later_and_a_rematch_are_listed_too() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    // Kai played as a guest before he logged in on this browser: his claim lists the game.
    let mut guest = s.player("guest", "127.0.0.4");
    let (_, created) = s
        .send(
            &mut guest,
            Method::POST,
            "/api/games",
            Some(json!({"mode": "friend", "color": "black", "size": "6x6"})),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let (_, joined) = s
        .send(
            &mut ana,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    let (status, claim) = s
        .send(
            &mut kai,
            Method::POST,
            "/api/account/claim",
            Some(json!({"games": [{"id": id, "token": created["token"]}]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    assert_eq!(claim["claimed"], 1);
    let kais = listed(&s, &mut kai).await;
    assert_eq!(kais.len(), 1, "{kais:?}");
    assert_eq!(kais[0]["token"], created["token"]);
    // The rematch seats both accounts again, colours swapped.
    s.post(&format!("/api/games/{id}/resign"), joined["token"].as_str())
        .await;
    let (status, rematch) = s
        .post(
            &format!("/api/games/{id}/rematch"),
            joined["token"].as_str(),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{rematch}");
    let anas = listed(&s, &mut ana).await;
    assert_eq!(anas.len(), 1, "{anas:?}");
    assert_eq!(anas[0]["id"], rematch["id"]);
    assert_eq!(anas[0]["seat"], "black");
    assert_eq!(anas[0]["token"], joined["token"]);
}

#[tokio::test]
async fn an_account_deleted_during_a_game_leaves_no_rows_when_it_ends() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let (id, black, _white) = common::rated_game(&s, &mut ana, &s, &mut kai).await;
    let ana_id = account_id(&s, "ana").await;
    let (_, waiting) = challenge(&s, &mut kai, "Ana", false).await;
    let (status, _) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/account/delete",
            Some(json!({"password": PASSWORD})),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let game = s.get(&id).await;
    assert_eq!(game["players"]["black"]["name"], Value::Null, "{game}");
    // Kai's challenge to her will never be answered: it is over.
    let challenged = s.get(waiting["id"].as_str().unwrap()).await;
    assert_eq!(challenged["result"]["reason"], "aborted", "{challenged}");
    // The browser still holds the seat and may end the game; the account is gone.
    let (status, body) = s
        .post(&format!("/api/games/{id}/resign"), Some(&black))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "finished");
    for table in ["player_games", "ratings", "account_games"] {
        assert_eq!(rows_of(&s, table, &ana_id).await, 0, "{table}");
    }
    // Kai's game was not rated against an account that is no more, but is in his archive.
    let (_, profile) = s.json("/api/players/Kai").await;
    assert_eq!(profile["ratings"]["blitz"]["games"], 0, "{profile}");
    let (_, page) = s.json("/api/players/Kai/games").await;
    assert_eq!(page["games"][0]["opponent"], Value::Null, "{page}");
    assert_eq!(page["games"][0]["rated"], false, "{page}");
}

async fn account_id(s: &TestServer, name: &str) -> String {
    use sqlx::Connection;
    let mut db = sqlx::SqliteConnection::connect(&s.database).await.unwrap();
    let (id,): (String,) = sqlx::query_as("SELECT id FROM accounts WHERE name_key = $1")
        .bind(name)
        .fetch_one(&mut db)
        .await
        .unwrap();
    id
}

async fn rows_of(s: &TestServer, table: &str, account: &str) -> i64 {
    use sqlx::Connection;
    let mut db = sqlx::SqliteConnection::connect(&s.database).await.unwrap();
    let sql = format!("SELECT COUNT(*) FROM {table} WHERE account_id = $1");
    let (n,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(account)
        .fetch_one(&mut db)
        .await
        .unwrap();
    n
}

/// Ana challenges `to`; the answer's status and body.
async fn challenge(s: &TestServer, ana: &mut Player, to: &str, rated: bool) -> (StatusCode, Value) {
    let body = json!({"mode": "friend", "color": "black", "challenge": to, "rated": rated,
                      "clock": {"minutes": 6}});
    s.send(ana, Method::POST, "/api/games", Some(body)).await
}

async fn incoming(s: &TestServer, p: &mut Player) -> Vec<Value> {
    let (status, body) = s.send(p, Method::GET, "/api/account/games", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["challenges"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_challenge_is_for_the_named_player_only() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let mut lea = registered(&s, "Lea", "127.0.0.4").await;
    let (status, created) = challenge(&s, &mut ana, "KAI", true).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["challenge"], "Kai");
    assert!(
        s.lobby().await.as_array().unwrap().is_empty(),
        "not in the lobby"
    );
    // Kai sees it, nobody else does.
    let kais = incoming(&s, &mut kai).await;
    assert_eq!(kais.len(), 1, "{kais:?}");
    assert_eq!(kais[0]["id"], id.as_str());
    assert_eq!(kais[0]["from"], "Ana");
    assert!(kais[0].get("token").is_none(), "{kais:?}");
    assert!(incoming(&s, &mut lea).await.is_empty());
    assert!(incoming(&s, &mut ana).await.is_empty());
    // Another account and a guest may not take the seat, and neither may decline.
    let join = format!("/api/games/{id}/join");
    let mut guest = s.player("guest", "127.0.0.5");
    for p in [&mut lea, &mut guest] {
        let (status, body) = s.send(p, Method::POST, &join, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(body["error"], "not_challenged");
    }
    let decline = format!("/api/games/{id}/decline");
    let (status, body) = s.send(&mut lea, Method::POST, &decline, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], "not_challenged");
    let (status, body) = s.send(&mut guest, Method::POST, &decline, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // Kai accepts: a rated game between the two accounts, listed as his, no longer as a
    // challenge.
    let (status, joined) = s.send(&mut kai, Method::POST, &join, None).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["game"]["status"], "playing");
    assert_eq!(joined["game"]["rated"], true);
    assert_eq!(joined["game"]["players"]["white"]["name"], "Kai");
    assert!(incoming(&s, &mut kai).await.is_empty());
    assert_eq!(listed(&s, &mut kai).await[0]["id"], id.as_str());
    let (status, body) = s.send(&mut kai, Method::POST, &decline, None).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "accepted, it cannot be declined: {body}"
    );
}

#[tokio::test]
async fn a_challenge_can_be_declined_or_cancelled_and_is_refused_when_it_cannot_be() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    // Declined: the game ends, aborted, and leaves both lists.
    let (_, first) = challenge(&s, &mut ana, "Kai", false).await;
    let id = first["id"].as_str().unwrap();
    let (status, body) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{id}/decline"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "finished");
    assert_eq!(body["result"]["reason"], "aborted");
    assert!(incoming(&s, &mut kai).await.is_empty());
    assert!(listed(&s, &mut ana).await.is_empty());
    // Cancelled by the challenger with the seat's token, as any invitation.
    let (_, second) = challenge(&s, &mut ana, "Kai", false).await;
    let id = second["id"].as_str().unwrap();
    let (status, body) = s
        .post(&format!("/api/games/{id}/cancel"), second["token"].as_str())
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(incoming(&s, &mut kai).await.is_empty());
    // Nobody of that name, a guest, oneself, a guest challenger, another kind of game.
    let (status, body) = challenge(&s, &mut ana, "Nobody", false).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "not_found");
    let (status, body) = challenge(&s, &mut ana, "ana", false).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"], "own_game");
    let mut guest = s.player("Lani", "127.0.0.4");
    let (status, body) = challenge(&s, &mut guest, "Kai", false).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"], "login_required");
    let (status, body) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/games",
            Some(json!({"mode": "open", "challenge": "Kai"})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn one_player_cannot_bury_another_in_challenges() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let mut lea = registered(&s, "Lea", "127.0.0.4").await;
    for _ in 0..5 {
        let (status, body) = challenge(&s, &mut ana, "Kai", false).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    // Five sent wait for answers: Ana may send no more, to anyone.
    for to in ["Kai", "Lea"] {
        let (status, body) = challenge(&s, &mut ana, to, false).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["error"], "too_many_challenges");
    }
    // And Kai, with five waiting for him, is sent no more by anyone.
    let (status, body) = challenge(&s, &mut lea, "Kai", false).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // One answered makes room.
    let first = incoming(&s, &mut kai).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    s.send(
        &mut kai,
        Method::POST,
        &format!("/api/games/{first}/decline"),
        None,
    )
    .await;
    let (status, body) = challenge(&s, &mut lea, "Kai", false).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(incoming(&s, &mut kai).await.len(), 5);
}

/// `n` accounts `{prefix}{i}`, each registered from its own address in block `block`.
async fn accounts(s: &TestServer, prefix: &str, block: u8, n: u8) -> Vec<Player> {
    let mut all = Vec::new();
    for i in 0..n {
        all.push(
            registered(
                s,
                &format!("{prefix}{i}"),
                &format!("127.{block}.0.{}", i + 2),
            )
            .await,
        );
    }
    all
}

/// One account sends twelve challenges at once, to twelve accounts, round after round:
/// each time five are stored, seven refused, and its list holds the five.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn challenges_sent_at_once_by_one_account_stop_at_the_limit() {
    let s = start().await;
    for round in 0..4u8 {
        let block = 20 + round;
        let mut ana = registered(&s, &format!("Ana{round}"), &format!("127.{block}.1.1")).await;
        let targets = accounts(&s, &format!("T{round}x"), block, 12).await;
        let sends: Vec<_> = targets
            .iter()
            .map(|t| (&s, &ana, t.name.as_str()))
            .collect();
        let answers = challenges_at_once(&sends).await;
        assert_eq!(
            created_or_too_many(&answers),
            MAX,
            "round {round}: {answers:?}"
        );
        assert_eq!(listed(&s, &mut ana).await.len(), MAX, "round {round}");
    }
}

/// Twelve accounts challenge one at once, round after round: five wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn challenges_sent_at_once_to_one_account_stop_at_the_limit() {
    let s = start().await;
    for round in 0..4u8 {
        let block = 40 + round;
        let mut kai = registered(&s, &format!("Kai{round}"), &format!("127.{block}.1.1")).await;
        let senders = accounts(&s, &format!("F{round}x"), block, 12).await;
        let sends: Vec<_> = senders.iter().map(|f| (&s, f, kai.name.as_str())).collect();
        let answers = challenges_at_once(&sends).await;
        assert_eq!(
            created_or_too_many(&answers),
            MAX,
            "round {round}: {answers:?}"
        );
        assert_eq!(incoming(&s, &mut kai).await.len(), MAX, "round {round}");
    }
}

/// A game opened directly on a device without its token: the account's session gets the
/// token of the account's own seat, which moves; another account's game gives nothing.
#[tokio::test]
async fn a_game_opened_on_another_device_gets_the_accounts_own_seat_only() {
    let s = start().await;
    let mut ana = registered(&s, "Ana", "127.0.0.2").await;
    let mut kai = registered(&s, "Kai", "127.0.0.3").await;
    let mut lea = registered(&s, "Lea", "127.0.0.4").await;
    let (_, created) = s
        .send(
            &mut ana,
            Method::POST,
            "/api/games",
            Some(json!({"mode": "friend", "color": "black", "size": "6x6"})),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let seat = format!("/api/account/games/{id}/seat");
    let (status, joined) = s
        .send(
            &mut kai,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{joined}");

    // Ana's phone has no token for it; her session gets Black's, and it moves.
    let mut phone = second_device(&s, "Ana", "127.0.0.5").await;
    let (status, body) = s.send(&mut phone, Method::GET, &seat, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"seat": "black", "token": created["token"]}));
    let state = s.get(&id).await;
    let (status, moved) = s
        .play(&id, body["token"].as_str(), &first_legal(&state), 0)
        .await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    // Kai's session gets White's, never Black's.
    let (status, body) = s.send(&mut kai, Method::GET, &seat, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"seat": "white", "token": joined["token"]}));

    // Lea sits in neither seat: 404 and no token, as for a game that does not exist; a
    // guest is asked to log in. The game is as it was.
    let before = s.get(&id).await;
    let (status, body) = s.send(&mut lea, Method::GET, &seat, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "not_found");
    for token in [&created["token"], &joined["token"]] {
        assert!(
            !body.to_string().contains(token.as_str().unwrap()),
            "{body}"
        );
    }
    let (status, body) = s
        .send(
            &mut lea,
            Method::GET,
            "/api/account/games/nosuchgame/seat",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let mut guest = s.player("guest", "127.0.0.6");
    let (status, body) = s.send(&mut guest, Method::GET, &seat, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"], "login_required");
    let after = s.get(&id).await;
    assert_eq!(after["seq"], before["seq"], "{after}");
    assert_eq!(after["moves"], before["moves"]);
}
