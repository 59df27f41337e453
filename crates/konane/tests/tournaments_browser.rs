//! Tournaments in real headless Chromiums against the real `konane serve`: a fresh server's
//! `/tournaments` lists the site's upcoming events (in English, German and Czech, phone and
//! desktop, light and dark); two players meet in an arena created and joined through the
//! page, are sent to their game by it, and a spectator sees the standings move; a Swiss of
//! five players, run through the API, reaches its podium, and the page shows the podium, the
//! byes and the tiebreaks, and the winner's profile its cup. Screenshots go to
//! target/screenshots/tournaments-*.png; axe-core checks the pages when it is installed
//! (`npm ci --prefix crates/konane/tests/axe`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use std::collections::BTreeMap;

use fantoccini::{Client, Locator};
use rig::*;
use serde_json::{Value, json};

/// An account used through the API alone: its name and its session cookie.
struct Player {
    name: String,
    cookie: String,
}

async fn api_player(http: &reqwest::Client, base: &str, name: &str) -> Player {
    let r = http
        .post(format!("{base}/api/accounts"))
        .json(&json!({ "name": name, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{name} registers: {}", r.status());
    let cookie = r
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_string();
    Player {
        name: name.to_string(),
        cookie,
    }
}

/// `POST path` with `body` as `p` (or nobody); the status and the answer.
async fn post(
    http: &reqwest::Client,
    base: &str,
    p: &Player,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let r = http
        .post(format!("{base}{path}"))
        .header("cookie", &p.cookie)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// `GET path` as `p`, or as nobody.
async fn get(http: &reqwest::Client, base: &str, p: Option<&Player>, path: &str) -> Value {
    let mut request = http.get(format!("{base}{path}"));
    if let Some(p) = p {
        request = request.header("cookie", &p.cookie);
    }
    let r = request.send().await.unwrap();
    assert!(r.status().is_success(), "GET {path}: {}", r.status());
    r.json().await.unwrap()
}

/// Fails when anything but the standings (which scroll in their own box) is wider than the
/// screen.
async fn assert_fits(c: &Client, what: &str) {
    let wide = c
        .execute(
            "return [...document.querySelectorAll('body *')].filter(e => !e.closest('.table-scroll') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.outerHTML.slice(0, 80));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(wide, json!([]), "{what} is wider than the screen");
}

/// The game this browser is on, if it is on one.
async fn game_of(c: &Client) -> Option<String> {
    let url = c.current_url().await.ok()?;
    url.path().strip_prefix("/game/").map(str::to_string)
}

/// The score the standings show for `name`.
async fn shown_score(c: &Client, name: &str) -> String {
    text(c, &format!("[data-standing='{name}'] [data-score]")).await
}

#[tokio::test]
async fn a_fresh_server_lists_the_sites_upcoming_tournaments() {
    if !browsers_present() {
        return;
    }
    let rig = rig("tour-list");
    let list: Value = reqwest::get(format!("{}/api/tournaments", rig.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let upcoming = list["upcoming"].as_array().expect("an upcoming list");
    assert!(
        upcoming.iter().any(|s| s["by_site"] == true),
        "a fresh server has the site's events: {list}"
    );
    assert_eq!(upcoming[0]["by_site"], true, "the site's events come first");
    let first = upcoming[0]["id"].as_str().unwrap().to_string();
    for (code, w, h, scheme) in [
        ("en", 1280, 900, "light"),
        ("en", 390, 844, "dark"),
        ("de", 1280, 900, "dark"),
        ("de", 390, 844, "light"),
        ("cs", 390, 844, "dark"),
        ("cs", 1280, 900, "light"),
    ] {
        let words = strings(code);
        let word = |key: &str| words[key].as_str().unwrap().to_string();
        let tag = if w > 400 { "desktop" } else { "phone" };
        let c = rig
            .browser_speaking(&format!("list-{code}-{tag}"), w, h, code)
            .await;
        emulate(&c, scheme, "reduce").await;
        c.goto(&rig.base).await.unwrap();
        nav_to(&c, "tournaments").await;
        wait_for(&c, "[data-list='upcoming'] [data-by-site]", 10).await;
        assert_eq!(
            attr(&c, "[data-nav-link='tournaments']", "aria-current")
                .await
                .as_deref(),
            Some("page")
        );
        assert_eq!(
            text(&c, "#tour-upcoming-title").await,
            word("tournament.section.upcoming")
        );
        assert_eq!(
            attr(&c, "[data-list='upcoming'] li", "data-tournament")
                .await
                .as_deref(),
            Some(first.as_str()),
            "the list keeps the server's order"
        );
        assert_eq!(
            text(&c, "[data-list='upcoming'] li [data-by-site]").await,
            word("tournament.by-site")
        );
        // Logged out: no form, a way to log in instead.
        assert!(c.find(Locator::Css("[data-create-login]")).await.is_ok());
        assert!(c.find(Locator::Css("[data-create-form]")).await.is_err());
        assert_fits(&c, &format!("the list ({code}, {tag})")).await;
        screenshot(&c, &format!("tournaments-list-{code}-{tag}-{scheme}")).await;
        check_accessibility(&c, &format!("the list ({code}, {tag}, {scheme})")).await;

        click(&c, &format!("[data-tournament-link='{first}']")).await;
        wait_for(&c, "[data-tournament-page] [data-tour-login]", 10).await;
        let countdown = text(&c, "[data-countdown]").await;
        let starts = word("tournament.countdown.starts");
        let prefix = starts.split("{time}").next().unwrap();
        assert!(
            countdown.starts_with(prefix),
            "{countdown:?} counts to the start"
        );
        assert_fits(&c, &format!("a site event ({code}, {tag})")).await;
        screenshot(&c, &format!("tournaments-event-{code}-{tag}-{scheme}")).await;
        check_accessibility(&c, &format!("a site event ({code}, {tag}, {scheme})")).await;
        assert_no_console_errors(&c, &format!("the tournament pages ({code})")).await;
    }
}

#[tokio::test]
async fn two_players_meet_in_an_arena_made_and_joined_through_the_page() {
    if !browsers_present() {
        return;
    }
    let rig = rig("tour-arena");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 390, 844).await;
    let watcher = rig.browser("watcher", 1280, 900).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;

    // Ana creates an arena starting now; a wrong value is refused beside its field first.
    ana.goto(&format!("{}/tournaments", rig.base))
        .await
        .unwrap();
    wait_for(&ana, "[data-create-form]", 10).await;
    fill(&ana, "[data-field='name']", "Ana's arena").await;
    fill(&ana, "[data-field='starts_in_s']", "0").await;
    fill(&ana, "[data-field='minutes-arena']", "5").await;
    click(&ana, "[data-create]").await;
    assert_eq!(
        text(&ana, "[data-field-error='minutes-arena']").await,
        strings("en")["tournament.bad.minutes"].as_str().unwrap()
    );
    screenshot(&ana, "tournaments-form-refused-desktop").await;
    fill(&ana, "[data-field='minutes-arena']", "20").await;
    click(&ana, "[data-create]").await;
    let what = || "the new arena never opened".to_string();
    let id = eventually(10, what, || async {
        let url = ana.current_url().await.ok()?;
        url.path().strip_prefix("/tournaments/").map(str::to_string)
    })
    .await;
    wait_for(&ana, "[data-tournament-page] [data-countdown]", 10).await;
    assert_eq!(text(&ana, "[data-tournament-name]").await, "Ana's arena");
    // Creating an event need not enter it: Ana joins when the page offers it.
    if ana
        .find(Locator::Css("[data-tour-action='join']"))
        .await
        .is_ok()
    {
        click(&ana, "[data-tour-action='join']").await;
    }
    wait_for(&ana, "[data-standing='Ana']", 10).await;
    wait_for(&ana, "[data-tour-action='withdraw']", 10).await;
    wait_for(&ana, "[data-waiting]", 10).await;
    screenshot(&ana, "tournaments-arena-waiting-desktop").await;

    watcher
        .goto(&format!("{}/tournaments/{id}", rig.base))
        .await
        .unwrap();
    wait_for(&watcher, "[data-standing='Ana']", 10).await;

    // Kai joins on his phone; the arena pairs them and both pages open the game.
    kai.goto(&format!("{}/tournaments/{id}", rig.base))
        .await
        .unwrap();
    click(&kai, "[data-tour-action='join']").await;
    let what = || "Ana was never sent to her game".to_string();
    let game = eventually(30, what, || game_of(&ana)).await;
    let what = || "Kai was never sent to his game".to_string();
    assert_eq!(eventually(30, what, || game_of(&kai)).await, game);
    let state: Value = reqwest::get(format!("{}/api/games/{game}", rig.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(state["tournament"]["id"], json!(id), "{state}");
    assert_eq!(state["rated"], true, "{state}");
    wait_for(&watcher, &format!("[data-pairing='{game}']"), 10).await;
    assert_eq!(
        attr(&watcher, &format!("[data-watch='{game}']"), "href")
            .await
            .as_deref(),
        Some(format!("/game/{game}").as_str())
    );
    screenshot(&watcher, "tournaments-arena-paired-desktop").await;

    // A removal each, then Kai resigns.
    let (first, second) = if state["players"]["black"]["name"] == "Ana" {
        (&ana, &kai)
    } else {
        (&kai, &ana)
    };
    wait_status(first, &["your-move"], 10).await;
    play_one(first).await;
    wait_status(second, &["your-move"], 10).await;
    play_one(second).await;
    screenshot(&kai, "tournaments-arena-game-phone").await;
    let status = kai
        .execute(
            "const t = JSON.parse(localStorage.getItem('konane.tokens'))[arguments[0]].token;
             return fetch(`/api/games/${arguments[0]}/resign`, {method: 'POST',
               headers: {'content-type': 'application/json', authorization: `Bearer ${t}`}}).then(r => r.status);",
            vec![json!(game)],
        )
        .await
        .unwrap();
    assert_eq!(status, json!(200));
    wait_status(&ana, &["finished"], 10).await;

    // The watcher's standings move by themselves: a win scores 2.
    let what = || "the standings never moved".to_string();
    eventually(15, what, || async {
        (shown_score(&watcher, "Ana").await == "2").then_some(())
    })
    .await;
    assert_eq!(shown_score(&watcher, "Kai").await, "0");
    assert_eq!(
        attr(&watcher, "[data-standing='Ana']", "data-rank")
            .await
            .as_deref(),
        Some("1")
    );
    let results = attr(
        &watcher,
        "[data-standing='Ana'] [data-results]",
        "data-results",
    )
    .await
    .unwrap_or_default();
    assert!(results.starts_with('w'), "Ana's results: {results:?}");
    for scheme in ["light", "dark"] {
        emulate(&watcher, scheme, "reduce").await;
        screenshot(
            &watcher,
            &format!("tournaments-arena-standings-desktop-{scheme}"),
        )
        .await;
    }
    emulate_screen(&watcher, 390, 844).await;
    assert_fits(&watcher, "the arena on a phone").await;
    screenshot(&watcher, "tournaments-arena-standings-phone-dark").await;
    check_accessibility(&watcher, "the arena").await;
    assert_no_console_errors(&watcher, "the arena's page").await;
}

/// Ends every game being played in tournament `t`: the player whose name sorts later
/// resigns, with the seat the account holds. Returns how many games it ended.
async fn resign_round(
    http: &reqwest::Client,
    base: &str,
    players: &BTreeMap<String, Player>,
    t: &Value,
) -> usize {
    let mut ended = 0;
    for g in t["games"].as_array().unwrap() {
        if g["status"] != "playing" {
            continue;
        }
        let loser = [g["black"].as_str().unwrap(), g["white"].as_str().unwrap()]
            .into_iter()
            .max()
            .unwrap();
        let p = &players[loser];
        let id = g["id"].as_str().unwrap();
        let seat = get(
            http,
            base,
            Some(p),
            &format!("/api/account/games/{id}/seat"),
        )
        .await;
        let r = http
            .post(format!("{base}/api/games/{id}/resign"))
            .header("content-type", "application/json")
            .bearer_auth(seat["token"].as_str().unwrap())
            .send()
            .await
            .unwrap();
        // A game another pass already ended is refused: that is no failure here.
        if r.status().is_success() {
            ended += 1;
        }
    }
    ended
}

#[tokio::test]
async fn a_swiss_of_five_runs_to_its_podium() {
    if !browsers_present() {
        return;
    }
    let rig = rig("tour-swiss");
    let base = rig.base.clone();
    let http = reqwest::Client::new();
    let mut players = BTreeMap::new();
    for name in ["Ana", "Bo", "Cy", "Di", "Ed"] {
        players.insert(name.to_string(), api_player(&http, &base, name).await);
    }
    let (status, created) = post(
        &http,
        &base,
        &players["Ana"],
        "/api/tournaments",
        json!({"kind": "swiss", "name": "Five in a Swiss", "clock": {"minutes": 3, "increment": 2},
               "size": "8x8", "opening": "center-or-corner", "rated": true, "rounds": 3,
               "starts_in_s": 600}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    for p in players.values() {
        if p.name == "Ana" && created["me"]["joined"] == true {
            continue;
        }
        let (status, answer) = post(
            &http,
            &base,
            p,
            &format!("/api/tournaments/{id}/join"),
            json!({}),
        )
        .await;
        assert_eq!(status, 200, "{} joins: {answer}", p.name);
    }
    let c = rig.browser("watcher", 1280, 900).await;
    c.goto(&format!("{base}/tournaments/{id}")).await.unwrap();
    wait_for(&c, "[data-standing='Ed']", 10).await;
    screenshot(&c, "tournaments-swiss-before-desktop").await;
    let (status, answer) = post(
        &http,
        &base,
        &players["Ana"],
        &format!("/api/tournaments/{id}/start"),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "Ana starts her Swiss: {answer}");

    // Round after round, every game ends by a resignation until the podium.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(240);
    let mut rounds_seen = 0;
    let last = loop {
        let t = get(&http, &base, None, &format!("/api/tournaments/{id}")).await;
        if t["status"] == "finished" {
            break t;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the Swiss never finished: {t}"
        );
        let round = t["round"].as_u64().unwrap_or(0);
        if round > rounds_seen && t["games"].as_array().is_some_and(|g| !g.is_empty()) {
            rounds_seen = round;
            // Generous: the round reaches the page over its socket, on a loaded machine too.
            wait_for(&c, "[data-pairings] [data-pairing]", 30).await;
            // While the round is played the countdown names it (no next round yet).
            let wanted = format!("Round {round} of 3");
            let what = || format!("the countdown never said {wanted:?}");
            eventually(30, what, || async {
                (text(&c, "[data-countdown]").await == wanted).then_some(())
            })
            .await;
            screenshot(&c, &format!("tournaments-swiss-round-{round}-desktop")).await;
        }
        resign_round(&http, &base, &players, &t).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    };
    assert_eq!(rounds_seen, 3, "three rounds were played: {last}");

    // Five players, three rounds: a bye each round, never twice to one player.
    let byes: Vec<&str> = last["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(byes.len(), 3, "{last}");
    let mut distinct = byes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "one bye each at most: {byes:?}");
    let podium: Vec<&str> = last["podium"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(podium.len(), 3, "{last}");
    let standings = last["standings"].as_array().unwrap();
    let top: Vec<&str> = standings[..3]
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(podium, top, "the podium is the standings' top three");
    assert!(
        standings
            .windows(2)
            .all(|w| w[0]["score"].as_f64() >= w[1]["score"].as_f64()),
        "the standings go by score: {last}"
    );

    // The page shows the podium, the byes and the tiebreaks as the server has them.
    wait_for(&c, "[data-podium]", 20).await;
    for (i, name) in podium.iter().enumerate() {
        let css = format!("[data-podium] [data-place='{}'] a", i + 1);
        assert_eq!(text(&c, &css).await, *name);
    }
    let shown_byes = c
        .find_all(Locator::Css("[data-byes] [data-bye]"))
        .await
        .unwrap();
    assert_eq!(shown_byes.len(), 3);
    for s in standings {
        let name = s["name"].as_str().unwrap();
        let row = format!("[data-standing='{name}']");
        for (css, key) in [("buchholz", "buchholz"), ("sb", "sonneborn_berger")] {
            let shown = attr(&c, &format!("{row} [data-{css}]"), &format!("data-{css}"))
                .await
                .and_then(|v| v.parse::<f64>().ok());
            assert_eq!(shown, s["tiebreaks"][key].as_f64(), "{name}'s {key}");
        }
        let marks = attr(&c, &format!("{row} [data-results]"), "data-results")
            .await
            .unwrap_or_default();
        assert_eq!(marks.len(), 3, "{name} played or sat out three rounds");
        assert_eq!(
            marks.contains('b'),
            byes.contains(&name),
            "{name}'s bye is marked"
        );
    }
    for (tag, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        emulate_screen(&c, w, h).await;
        for scheme in ["light", "dark"] {
            emulate(&c, scheme, "reduce").await;
            screenshot(&c, &format!("tournaments-swiss-podium-{tag}-{scheme}")).await;
            c.execute(
                "document.querySelector('[data-standings]').scrollIntoView();",
                vec![],
            )
            .await
            .unwrap();
            screenshot(&c, &format!("tournaments-swiss-standings-{tag}-{scheme}")).await;
            c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
            check_accessibility(&c, &format!("the finished Swiss ({tag}, {scheme})")).await;
        }
        assert_fits(&c, &format!("the finished Swiss ({tag})")).await;
    }
    assert_no_console_errors(&c, "the Swiss's page").await;

    // The winner's profile shows the cup.
    let profile = get(&http, &base, None, &format!("/api/players/{}", podium[0])).await;
    assert!(
        profile["tournaments"]
            .as_array()
            .is_some_and(|l| l.iter().any(|r| r["id"] == json!(id) && r["rank"] == 1)),
        "{profile}"
    );
    emulate_screen(&c, 1280, 900).await;
    c.goto(&format!("{base}/@/{}", podium[0])).await.unwrap();
    wait_for(
        &c,
        &format!("[data-profile-tournament='{id}'] [data-trophy='1']"),
        10,
    )
    .await;
    screenshot(&c, "tournaments-profile-trophy-desktop").await;
}

/// Moves a tournament's start to now in the server's database, as if its day had come.
async fn start_now(database: &str, id: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(database).await.unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    sqlx::query("UPDATE tournaments SET starts_at = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_league_season_shows_its_groups_and_who_moves() {
    if !browsers_present() {
        return;
    }
    let rig = rig("tour-league");
    let base = rig.base.clone();
    let http = reqwest::Client::new();
    let list = get(&http, &base, None, "/api/tournaments").await;
    let league = list["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "league")
        .cloned()
        .expect("the site's monthly league");
    let id = league["id"].as_str().unwrap().to_string();
    let mut players = BTreeMap::new();
    for i in 0..12 {
        let name = format!("Lea{i:02}");
        // The server takes only a few new accounts from one address.
        let from = reqwest::Client::builder()
            .local_address(std::net::IpAddr::from([127, 0, 2, i + 2]))
            .build()
            .unwrap();
        let p = api_player(&from, &base, &name).await;
        let (status, answer) = post(
            &http,
            &base,
            &p,
            &format!("/api/tournaments/{id}/join"),
            json!({}),
        )
        .await;
        assert_eq!(status, 200, "{name} joins: {answer}");
        players.insert(name, p);
    }
    start_now(&rig.database(), &id).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let t = loop {
        let t = get(&http, &base, None, &format!("/api/tournaments/{id}")).await;
        if t["status"] == "started" {
            break t;
        }
        assert!(std::time::Instant::now() < deadline, "never started: {t}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    // Half the season played: every game of the first five rounds ends.
    let first_half = json!({"games": t["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["round"].as_u64().unwrap() <= 5)
        .collect::<Vec<_>>()});
    let ended = resign_round(&http, &base, &players, &first_half).await;
    assert_eq!(ended, 30, "two groups of six, three games a round each");

    // A newcomer joins the running season through the page: they play from the next.
    let c = rig.browser("league-newcomer", 1280, 900).await;
    register(&c, &base, "Newcomer").await;
    c.goto(&format!("{base}/tournaments/{id}")).await.unwrap();
    wait_for(&c, "[data-group='1-1'] [data-standing='Lea00']", 20).await;
    assert_eq!(
        text(&c, "[data-tour-action='join']").await,
        "Join for the next season"
    );
    click(&c, "[data-tour-action='join']").await;
    wait_for(&c, "[data-season-waiting]", 20).await;
    wait_for(&c, "[data-next-season]", 20).await;
    // Two groups, the first player of each on top; the lower group's top two are to go up,
    // the upper group's last two down. The page redraws when the socket brings the join:
    // each look is made again until it holds, so an element replaced under it is no failure.
    let looks = [
        ("[data-group]", 2),
        ("[data-group='1-1'] tr.down[data-standing='Lea05']", 1),
        (
            "[data-group='2-1'] [data-standing='Lea06'] [data-movement='up']",
            1,
        ),
        (
            "[data-group='1-1'] [data-standing='Lea00'] [data-score='5']",
            1,
        ),
    ];
    for (css, count) in looks {
        let what = || format!("never {count} of {css}");
        eventually(20, what, || async {
            let found = c.find_all(Locator::Css(css)).await.ok()?;
            (found.len() == count).then_some(())
        })
        .await;
    }
    screenshot(&c, "tournaments-league-desktop-light").await;
    check_accessibility(&c, "a league season (desktop)").await;
    for (code, w, h, scheme) in [("cs", 390, 844, "dark"), ("de", 1280, 900, "dark")] {
        let tag = if w > 400 { "desktop" } else { "phone" };
        let v = rig
            .browser_speaking(&format!("league-{code}-{tag}"), w, h, code)
            .await;
        emulate(&v, scheme, "reduce").await;
        v.goto(&format!("{base}/tournaments/{id}")).await.unwrap();
        wait_for(&v, "[data-group='2-1'] [data-standing='Lea11']", 20).await;
        let words = strings(code);
        let group = words["tournament.group-name"].as_str().unwrap();
        let shown = text(&v, "[data-group='1-1'] h3").await;
        assert_eq!(
            shown,
            group.replace("{division}", "1").replace("{group}", "A"),
            "the group named in {code}"
        );
        assert_fits(&v, &format!("a league season ({code}, {tag})")).await;
        screenshot(&v, &format!("tournaments-league-{code}-{tag}-{scheme}")).await;
        check_accessibility(&v, &format!("a league season ({code}, {tag}, {scheme})")).await;
        assert_no_console_errors(&v, &format!("the league's page ({code})")).await;
    }
    assert_no_console_errors(&c, "the league's page").await;
}
