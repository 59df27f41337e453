//! Players in two real headless Chromiums against the real `konane serve`: both register
//! on the account screen, quick pairing puts them in one rated 6+0 game, the game ends, and
//! both profiles show the new ratings, the graph and the game in the archive. A guest's
//! name is refused with the reason in the page's language. A game begun on one device is
//! listed and played on another where the same account logs in; a challenge sent from a
//! profile is seen, accepted and declined. Screenshots of the account and
//! profile screens at phone and desktop size, light and dark, in three languages
//! (target/screenshots/players-*.png).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use fantoccini::{Client, Locator};
use rig::*;
use serde_json::json;

async fn fill(c: &Client, form: &str, field: &str, value: &str) {
    let css = format!("[data-form='{form}'] [data-field='{field}']");
    let input = wait_for(c, &css, 10).await;
    input.clear().await.unwrap();
    input.send_keys(value).await.unwrap();
}

async fn register(c: &Client, base: &str, name: &str) {
    c.goto(&format!("{base}/account")).await.unwrap();
    fill(c, "register", "name", name).await;
    fill(c, "register", "password", "a good long password").await;
    click(c, "[data-form='register'] button[type='submit']").await;
    wait_for(c, &format!("[data-profile='{name}']"), 10).await;
    wait_for(c, &format!("[data-account-name='{name}']"), 10).await;
}

/// What a form of the account screen says once it has answered.
async fn notice(c: &Client, form: &str) -> String {
    let css = format!("[data-form='{form}'] [data-form-notice]");
    let what = || format!("the {form} form never answered");
    eventually(10, what, || async {
        let t = text(c, &css).await;
        (!t.is_empty()).then_some(t)
    })
    .await
}

/// The player's rating in a category as the profile shows it.
async fn shown_rating(c: &Client, base: &str, name: &str, category: &str) -> String {
    c.goto(&format!("{base}/@/{name}")).await.unwrap();
    let css = format!("[data-rating='{category}'] [data-rating-value]");
    wait_for(c, &css, 10).await;
    text(c, &css).await
}

#[tokio::test]
async fn two_players_register_play_a_rated_game_and_see_it_on_their_profiles() {
    if !browsers_present() {
        return;
    }
    let rig = rig("players");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 390, 844).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;
    assert_eq!(shown_rating(&ana, &rig.base, "Ana", "blitz").await, "1500?");

    // Both ask for a rated six-minute game by quick pairing and meet in one.
    for c in [&ana, &kai] {
        c.goto(&rig.base).await.unwrap();
        wait_for(c, "[data-pairing-rated]", 10).await;
        let what = || "the rated choice never showed".to_string();
        eventually(10, what, || async {
            c.find(Locator::Css("[data-pairing-rated]"))
                .await
                .ok()?
                .is_displayed()
                .await
                .ok()?
                .then_some(())
        })
        .await;
        click(c, "[data-pairing-rated]").await;
        click(c, "[data-pairing='6+0']").await;
    }
    screenshot(&ana, "players-pairing-desktop").await;
    let game_of = |c: &Client| {
        let c = c.clone();
        async move {
            let url = c.current_url().await.ok()?;
            url.path().strip_prefix("/game/").map(str::to_string)
        }
    };
    let what = || "Ana was never paired".to_string();
    let id = eventually(15, what, || game_of(&ana)).await;
    let what = || "Kai was never paired".to_string();
    let kai_game = eventually(15, what, || game_of(&kai)).await;
    assert_eq!(id, kai_game, "both play the same game");
    let game: serde_json::Value = reqwest::get(format!("{}/api/games/{id}", rig.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(game["rated"], true, "{game}");
    assert_eq!(game["category"], "blitz");
    let names = [
        &game["players"]["black"]["name"],
        &game["players"]["white"]["name"],
    ];
    assert!(
        names.contains(&&json!("Ana")) && names.contains(&&json!("Kai")),
        "{game}"
    );
    screenshot(&kai, "players-rated-game-phone").await;
    // The start page lists the game under "Your games", with whose move it is.
    ana.goto(&rig.base).await.unwrap();
    let css = format!("[data-your-game='{id}']");
    wait_for(&ana, &css, 10).await;
    let black = if game["players"]["black"]["name"] == "Ana" {
        "true"
    } else {
        "false"
    };
    assert_eq!(
        attr(&ana, &css, "data-your-turn").await.as_deref(),
        Some(black)
    );
    screenshot(&ana, "players-your-games-desktop").await;

    // Kai gives up (through the API with the seat token the page keeps: the resign
    // button's confirmation is the game screen's own business).
    let status = kai
        .execute(
            "const t = JSON.parse(localStorage.getItem('konane.tokens'))[arguments[0]].token;
             return fetch(`/api/games/${arguments[0]}/resign`, {method: 'POST',
               headers: {'content-type': 'application/json', authorization: `Bearer ${t}`}}).then(r => r.status);",
            vec![json!(id)],
        )
        .await
        .unwrap();
    assert_eq!(status, json!(200));

    let ana_rating: i64 = shown_rating(&ana, &rig.base, "Ana", "blitz")
        .await
        .trim_end_matches('?')
        .parse()
        .unwrap();
    let kai_rating: i64 = shown_rating(&kai, &rig.base, "Kai", "blitz")
        .await
        .trim_end_matches('?')
        .parse()
        .unwrap();
    assert!(
        ana_rating > 1500 && kai_rating < 1500,
        "{ana_rating} {kai_rating}"
    );
    for (c, name, outcome) in [(&ana, "Ana", "win"), (&kai, "Kai", "loss")] {
        c.goto(&format!("{}/@/{name}", rig.base)).await.unwrap();
        wait_for(c, &format!("[data-archive-game='{id}']"), 10).await;
        let shown = attr(c, "[data-archive-game] [data-outcome]", "data-outcome").await;
        assert_eq!(shown.as_deref(), Some(outcome), "{name}");
        wait_for(c, "[data-graph='blitz'] polyline", 10).await;
        // The graph's one game is dated under its point.
        let today = c
            .execute(
                "return new Date().toLocaleDateString('en-US', {day: 'numeric', month: 'short'});",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            text(c, "[data-graph='blitz'] [data-graph-date]").await,
            today.as_str().unwrap()
        );
        // The export holds the game's record.
        let href = attr(c, "[data-export]", "href").await.unwrap();
        let records = reqwest::get(format!("{}{href}", rig.base))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            records.contains(&format!("Rated blitz game {id}")),
            "{records}"
        );
        assert!(records.contains("[BlackElo \"1500\"]"), "{records}");
        // Nothing on the profile is wider than the screen.
        let wide = c
            .execute(
                "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(wide, json!(0), "{name}'s profile is wider than the screen");
        assert_no_console_errors(c, &format!("{name}'s profile")).await;
    }
    for (c, tag) in [(&ana, "desktop"), (&kai, "phone")] {
        for scheme in ["light", "dark"] {
            emulate(c, scheme, "reduce").await;
            screenshot(c, &format!("players-profile-{tag}-{scheme}")).await;
            c.execute(
                "document.querySelector('[data-archive]').scrollIntoView();",
                vec![],
            )
            .await
            .unwrap();
            screenshot(c, &format!("players-archive-{tag}-{scheme}")).await;
            c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
        }
    }
    // The leaderboard waits for established ratings.
    ana.goto(&format!("{}/players", rig.base)).await.unwrap();
    wait_for(&ana, "[data-leaderboard='blitz']", 10).await;
    screenshot(&ana, "players-leaderboards-desktop").await;
}

#[tokio::test]
async fn a_guest_name_is_checked_and_kept_and_wrong_logins_are_worded() {
    if !browsers_present() {
        return;
    }
    let rig = rig("guest");
    for (code, w, h, scheme) in [
        ("en", 1280, 900, "light"),
        ("de", 390, 844, "dark"),
        ("cs", 390, 844, "light"),
    ] {
        let c = rig
            .browser_speaking(&format!("guest-{code}"), w, h, code)
            .await;
        emulate(&c, scheme, "reduce").await;
        c.goto(&format!("{}/account", rig.base)).await.unwrap();
        let words = strings(code);
        wait_for(&c, "[data-form='guest']", 10).await;
        assert_no_console_errors(&c, "the account screen").await;
        // Spaces are refused before anything is sent.
        fill(&c, "guest", "guest", "Ana Kai").await;
        click(&c, "[data-form='guest'] button[type='submit']").await;
        assert_eq!(
            notice(&c, "guest").await,
            words["name.bad_character_local"].as_str().unwrap()
        );
        // The server's reason comes back worded in the page's language.
        fill(&c, "register", "name", "Computer").await;
        fill(&c, "register", "password", "a good long password").await;
        click(&c, "[data-form='register'] button[type='submit']").await;
        let refused = notice(&c, "register").await;
        let reserved = words["name.reserved"]
            .as_str()
            .unwrap()
            .replace("{name}", "Computer");
        assert_eq!(refused, reserved);
        fill(&c, "login", "name", "nobody").await;
        fill(&c, "login", "password", "wrong password").await;
        click(&c, "[data-form='login'] button[type='submit']").await;
        let wrong = notice(&c, "login").await;
        assert_eq!(wrong, words["error.wrong_credentials"].as_str().unwrap());
        fill(&c, "guest", "guest", "Lani").await;
        click(&c, "[data-form='guest'] button[type='submit']").await;
        assert_eq!(
            notice(&c, "guest").await,
            words["account.saved"].as_str().unwrap()
        );
        clear_console(&c).await;
        let tag = if w > 400 { "desktop" } else { "phone" };
        screenshot(&c, &format!("players-account-{code}-{tag}-{scheme}")).await;
        // A game the guest opens carries the name.
        c.goto(&rig.base).await.unwrap();
        click(&c, "[data-start='friend']").await;
        let what = || "the friend game never opened".to_string();
        let id = eventually(10, what, || async {
            let url = c.current_url().await.ok()?;
            url.path().strip_prefix("/game/").map(str::to_string)
        })
        .await;
        let game: serde_json::Value = reqwest::get(format!("{}/api/games/{id}", rig.base))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let seated = ["black", "white"]
            .into_iter()
            .find(|s| game["players"][s]["seated"] == true)
            .unwrap();
        assert_eq!(game["players"][seated]["name"], "Lani", "{game}");
        assert_eq!(game["players"][seated]["registered"], false);
        assert!(c.find(Locator::Css("[data-login-link]")).await.is_ok());
        assert_no_console_errors(&c, "a guest's game").await;
    }
}

/// A game Ana began on her computer shows under "Your games" on her phone once she logs in
/// there, and the move she makes on the phone is accepted; logging out forgets its seat.
#[tokio::test]
async fn a_game_begun_on_one_device_is_played_on_another() {
    if !browsers_present() {
        return;
    }
    let rig = rig("devices");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 1280, 900).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;
    ana.goto(&rig.base).await.unwrap();
    set_option(&ana, "size", "6x6").await;
    set_option(&ana, "color", "black").await;
    click(&ana, "[data-start=friend]").await;
    wait_status(&ana, &["waiting"], 10).await;
    let invite = wait_for(&ana, "[data-invite]", 10)
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    let id = invite
        .trim_end_matches("?join")
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    kai.goto(&invite).await.unwrap();
    wait_status(&kai, &["their-move"], 10).await;

    let phone = rig.browser("ana-phone", 390, 844).await;
    phone.goto(&format!("{}/account", rig.base)).await.unwrap();
    fill(&phone, "login", "name", "ana").await;
    fill(&phone, "login", "password", "a good long password").await;
    click(&phone, "[data-form='login'] button[type='submit']").await;
    let css = format!("[data-your-game='{id}']");
    wait_for(&phone, &css, 10).await;
    assert_eq!(
        attr(&phone, &css, "data-your-turn").await.as_deref(),
        Some("true")
    );
    for (tag, width, height) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        emulate_screen(&phone, width, height).await;
        for scheme in ["light", "dark"] {
            emulate(&phone, scheme, "reduce").await;
            phone
                .execute(
                    "document.querySelector('[data-your-games]').scrollIntoView();",
                    vec![],
                )
                .await
                .unwrap();
            screenshot(&phone, &format!("players-other-device-{tag}-{scheme}")).await;
        }
    }
    click(&phone, &format!("{css} a")).await;
    wait_status(&phone, &["your-move"], 10).await;
    play_one(&phone).await;
    wait_more_moves(&kai, 0, "Kai never saw the move made on the phone").await;
    wait_status(&kai, &["your-move"], 10).await;
    assert_no_console_errors(&phone, "the game on the second device").await;

    // Logged out, the phone holds the seat no more.
    phone.goto(&format!("{}/account", rig.base)).await.unwrap();
    click(&phone, "[data-logout]").await;
    wait_for(&phone, "[data-start=engine]", 10).await;
    let held = phone
        .execute(
            "return localStorage.getItem('konane.tokens') || '';",
            vec![],
        )
        .await
        .unwrap();
    assert!(!held.as_str().unwrap().contains(&id), "{held}");
    assert_no_console_errors(&phone, "logging out").await;
}

/// A game of the account opened directly (its address, no seat token in that browser) on
/// a second device where the account logs in: the page gets the account's seat from the
/// server and plays it, and the first device sees the move.
#[tokio::test]
async fn a_game_opened_directly_on_a_second_device_is_played_there() {
    if !browsers_present() {
        return;
    }
    let rig = rig("second-device");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 1280, 900).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;
    // A fresh browser where Ana logs in before the game exists.
    let phone = rig.browser("ana-second", 1280, 900).await;
    phone.goto(&format!("{}/account", rig.base)).await.unwrap();
    fill(&phone, "login", "name", "Ana").await;
    fill(&phone, "login", "password", "a good long password").await;
    click(&phone, "[data-form='login'] button[type='submit']").await;
    wait_for(&phone, "[data-account-name='Ana']", 10).await;
    phone.goto(&format!("{}/rules", rig.base)).await.unwrap();

    ana.goto(&rig.base).await.unwrap();
    set_option(&ana, "size", "6x6").await;
    set_option(&ana, "color", "black").await;
    click(&ana, "[data-start=friend]").await;
    wait_status(&ana, &["waiting"], 10).await;
    let invite = wait_for(&ana, "[data-invite]", 10)
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    let id = invite
        .trim_end_matches("?join")
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    kai.goto(&invite).await.unwrap();
    // Ana and Kai play a move each on their first browsers.
    wait_status(&ana, &["your-move"], 10).await;
    play_one(&ana).await;
    wait_status(&kai, &["your-move"], 10).await;
    play_one(&kai).await;
    wait_status(&ana, &["your-move"], 10).await;

    // Later, on the second browser, Ana opens the game's address directly (a link sent to
    // her, say): it has never seen the game, nor her list since the game began.
    phone
        .goto(&format!("{}/game/{id}", rig.base))
        .await
        .unwrap();
    wait_status(&phone, &["your-move"], 10).await;
    assert_eq!(
        attr(&phone, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("black"),
        "the phone plays Ana's seat"
    );
    for (tag, width, height) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        emulate_screen(&phone, width, height).await;
        screenshot(&phone, &format!("players-second-device-{tag}")).await;
    }
    play_one(&phone).await;
    wait_more_moves(
        &ana,
        2,
        "Ana's first browser never saw the move made on the second",
    )
    .await;
    wait_status(&ana, &["their-move"], 10).await;
    wait_status(&kai, &["your-move"], 10).await;
    assert_eq!(moves(&ana).await, moves(&phone).await);
    assert_no_console_errors(&phone, "the game opened on the second device").await;

    // Another account is lent no seat: Lea, logged in on a third browser, watches.
    let lea = rig.browser("lea", 1280, 900).await;
    register(&lea, &rig.base, "Lea").await;
    lea.goto(&format!("{}/game/{id}", rig.base)).await.unwrap();
    wait_status(&lea, &["their-move"], 10).await;
    assert_eq!(
        attr(&lea, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("watching")
    );
    let held = lea
        .execute(
            "return localStorage.getItem('konane.tokens') || '';",
            vec![],
        )
        .await
        .unwrap();
    assert!(!held.as_str().unwrap().contains(&id), "{held}");
    assert_no_console_errors(&lea, "a logged-in spectator").await;
}

/// A guest whose saved name somebody registered since plays on without it, told once why.
#[tokio::test]
async fn a_saved_guest_name_registered_since_is_dropped_and_said() {
    if !browsers_present() {
        return;
    }
    let rig = rig("dropped");
    let http = reqwest::Client::new();
    for (code, w, h, scheme) in [
        ("en", 1280, 900, "light"),
        ("de", 390, 844, "dark"),
        ("cs", 390, 844, "light"),
    ] {
        let name = format!("Lani{code}");
        let c = rig
            .browser_speaking(&format!("dropped-{code}"), w, h, code)
            .await;
        emulate(&c, scheme, "reduce").await;
        c.goto(&format!("{}/account", rig.base)).await.unwrap();
        fill(&c, "guest", "guest", &name).await;
        click(&c, "[data-form='guest'] button[type='submit']").await;
        notice(&c, "guest").await;
        // Somebody else registers the name meanwhile.
        let r = http
            .post(format!("{}/api/accounts", rig.base))
            .json(&json!({"name": name, "password": "a good long password"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), reqwest::StatusCode::CREATED);
        c.goto(&rig.base).await.unwrap();
        click(&c, "[data-start='friend']").await;
        wait_status(&c, &["waiting"], 10).await;
        let words = strings(code);
        let said = words["name.dropped"]
            .as_str()
            .unwrap()
            .replace("{name}", &name);
        assert_eq!(text(&c, "[data-notice]").await, said);
        let tag = if w > 400 { "desktop" } else { "phone" };
        screenshot(&c, &format!("players-name-dropped-{code}-{tag}-{scheme}")).await;
        let saved = c
            .execute("return localStorage.getItem('konane.name');", vec![])
            .await
            .unwrap();
        assert_eq!(saved, serde_json::Value::Null);
        // Said once: the next game opens without it.
        c.goto(&rig.base).await.unwrap();
        click(&c, "[data-start='friend']").await;
        wait_status(&c, &["waiting"], 10).await;
        assert_eq!(text(&c, "[data-notice]").await, "");
        // The one refusal that told the page is the browser's to log, nothing else.
        assert_no_console_errors_but(&c, "a dropped guest name", &["status of 409"]).await;
    }
}

/// Ana challenges Kai from his profile with the usual settings; Kai finds the challenge on
/// his start page, worded in his language, and accepts it; a second one he declines.
#[tokio::test]
async fn a_challenge_from_a_profile_is_seen_and_accepted() {
    if !browsers_present() {
        return;
    }
    let rig = rig("challenge");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 390, 844).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;
    let send = |c: Client| {
        let base = rig.base.clone();
        async move {
            c.goto(&format!("{base}/@/Kai")).await.unwrap();
            click(&c, "[data-challenge-link]").await;
            wait_for(&c, "[data-challenge-banner]", 10).await;
            set_option(&c, "size", "8x8").await;
            set_option(&c, "clock", "6+0").await;
            set_option(&c, "color", "black").await;
            click(&c, "[data-start=challenge]").await;
            wait_status(&c, &["waiting"], 10).await;
            let url = c.current_url().await.unwrap();
            url.path().strip_prefix("/game/").unwrap().to_string()
        }
    };
    let id = send(ana.clone()).await;
    let words = strings("en");
    let waiting = words["challenge.waiting"]
        .as_str()
        .unwrap()
        .replace("{name}", "Kai");
    assert_eq!(text(&ana, "[data-you-play]").await, waiting);
    // Her own profile offers no challenge.
    ana.goto(&format!("{}/@/Ana", rig.base)).await.unwrap();
    wait_for(&ana, "[data-profile='Ana']", 10).await;
    assert!(
        ana.find(Locator::Css("[data-challenge-link]"))
            .await
            .is_err()
    );
    for (tag, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        emulate_screen(&ana, w, h).await;
        ana.goto(&format!("{}/?challenge=Kai", rig.base))
            .await
            .unwrap();
        wait_for(&ana, "[data-challenge-banner]", 10).await;
        for scheme in ["light", "dark"] {
            emulate(&ana, scheme, "reduce").await;
            screenshot(&ana, &format!("players-challenge-form-{tag}-{scheme}")).await;
        }
    }

    kai.goto(&rig.base).await.unwrap();
    let css = format!("[data-challenge='{id}']");
    wait_for(&kai, &css, 10).await;
    let from = words["challenge.from"]
        .as_str()
        .unwrap()
        .replace("{name}", "Ana");
    assert!(text(&kai, &css).await.contains(&from));
    for (code, scheme) in [("en", "light"), ("de", "dark"), ("cs", "light")] {
        choose_language(&kai, code).await;
        wait_for(&kai, &css, 10).await;
        emulate(&kai, scheme, "reduce").await;
        kai.execute(
            "document.querySelector('[data-challenges]').scrollIntoView();",
            vec![],
        )
        .await
        .unwrap();
        screenshot(
            &kai,
            &format!("players-challenge-incoming-{code}-phone-{scheme}"),
        )
        .await;
    }
    choose_language(&kai, "en").await;
    click(&kai, &format!("[data-accept='{id}']")).await;
    wait_status(&kai, &["their-move"], 10).await;
    ana.goto(&format!("{}/game/{id}", rig.base)).await.unwrap();
    wait_status(&ana, &["your-move"], 10).await;
    let game: serde_json::Value = reqwest::get(format!("{}/api/games/{id}", rig.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(game["players"]["white"]["name"], "Kai", "{game}");
    assert_eq!(game["rated"], false, "{game}");

    // A second challenge, declined: it leaves Kai's list.
    let second = send(ana.clone()).await;
    kai.goto(&rig.base).await.unwrap();
    click(&kai, &format!("[data-decline='{second}']")).await;
    wait_gone(&kai, &format!("[data-challenge='{second}']")).await;
    assert_no_console_errors(&kai, "answering challenges").await;
    assert_no_console_errors(&ana, "sending challenges").await;
}

/// The start page's challenges are asked about again as soon as its tab is seen again, and
/// when another tab saw a game of the player's end, not only every thirty seconds.
#[tokio::test]
async fn challenges_are_refreshed_when_the_tab_is_seen_again_and_after_a_game() {
    if !browsers_present() {
        return;
    }
    let rig = rig("challenges-seen");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 1280, 900).await;
    register(&ana, &rig.base, "Ana").await;
    register(&kai, &rig.base, "Kai").await;
    kai.goto(&rig.base).await.unwrap();
    wait_for(&kai, "[data-start=engine]", 10).await;
    let challenge = || async {
        let id = ana
            .execute(
                "return fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'},
                   body: JSON.stringify({mode: 'friend', color: 'black', challenge: 'Kai', clock: {minutes: 6}})})
                   .then(r => r.json()).then(b => b.id);",
                vec![],
            )
            .await
            .unwrap();
        format!("[data-challenge='{}']", id.as_str().unwrap())
    };
    let count = || async {
        kai.find_all(Locator::Css("[data-challenge]"))
            .await
            .unwrap()
            .len()
    };
    for (what, event) in [
        (
            "the tab seen again",
            "document.dispatchEvent(new Event('visibilitychange'));",
        ),
        (
            "a game ended in another tab",
            "window.dispatchEvent(new StorageEvent('storage', {key: 'konane.game-ended'}));",
        ),
    ] {
        let before = count().await;
        let css = challenge().await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(count().await, before, "not shown before {what}");
        kai.execute(event, vec![]).await.unwrap();
        let gone = || format!("the challenge never showed after {what}");
        eventually(5, gone, || async {
            kai.find(Locator::Css(&css)).await.ok().map(|_| ())
        })
        .await;
    }
    assert_no_console_errors(&kai, "refreshing the challenges").await;
}

#[tokio::test]
async fn a_player_follows_and_blocks_from_profiles_and_sees_both_lists() {
    if !browsers_present() {
        return;
    }
    let rig = rig("social");
    let base = rig.base.clone();
    let ana = rig.browser("social-ana", 1280, 900).await;
    let bo = rig.browser_speaking("social-bo", 390, 844, "cs").await;
    register(&ana, &base, "Ana").await;
    register(&bo, &base, "Bo").await;

    // Bo follows Ana from her profile: the button turns into "unfollow".
    bo.goto(&format!("{base}/@/Ana")).await.unwrap();
    click(&bo, "[data-relation-action='follow']").await;
    wait_for(&bo, "[data-relation-action='unfollow']", 10).await;
    emulate(&bo, "dark", "reduce").await;
    screenshot(&bo, "social-profile-following-cs-phone-dark").await;
    // His account screen lists her, online (she has just been on the site).
    bo.goto(&format!("{base}/account")).await.unwrap();
    wait_for(&bo, "[data-followed='Ana'] [data-online='true']", 10).await;
    screenshot(&bo, "social-account-cs-phone-dark").await;

    // Ana blocks Bo: only "unblock" is left, and his challenge is refused.
    ana.goto(&format!("{base}/@/Bo")).await.unwrap();
    click(&ana, "[data-relation-action='block']").await;
    wait_for(&ana, "[data-relation-action='unblock']", 10).await;
    assert!(
        ana.find(Locator::Css("[data-relation-action='follow']"))
            .await
            .is_err(),
        "a blocked player is not followed"
    );
    screenshot(&ana, "social-profile-blocked-desktop-light").await;
    let refused = bo
        .execute_async(
            "fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({mode: 'friend', challenge: 'Ana', clock: {minutes: 5}})}).then(r => r.json()).then(arguments[0]);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(refused["error"], json!("blocked"), "{refused}");
    // The block ended Bo's follow; Ana's account screen lists him, and lifts the block.
    bo.goto(&format!("{base}/account")).await.unwrap();
    wait_for(&bo, "[data-following] li.muted", 10).await;
    ana.goto(&format!("{base}/account")).await.unwrap();
    wait_for(&ana, "[data-blocked-player='Bo']", 10).await;
    screenshot(&ana, "social-account-desktop-light").await;
    click(&ana, "[data-unblock='Bo']").await;
    wait_for(&ana, "[data-blocked] li.muted", 10).await;
    assert_no_console_errors(&ana, "the account screen").await;
    // The refused challenge above is the one error Bo's console may hold.
    assert_no_console_errors_but(&bo, "the account screen (cs)", &["/api/games"]).await;
    check_accessibility(&ana, "the account screen with its lists").await;
}

#[tokio::test]
async fn the_bell_counts_a_challenge_from_another_browser() {
    if !browsers_present() {
        return;
    }
    let rig = rig("bell");
    let base = rig.base.clone();
    let ana = rig.browser("bell-ana", 1280, 900).await;
    let kai = rig.browser_speaking("bell-kai", 390, 844, "cs").await;
    register(&ana, &base, "Ana").await;
    register(&kai, &base, "Kai").await;
    kai.goto(&format!("{base}/tournaments")).await.unwrap();
    wait_for(&kai, "[data-bell]", 10).await;
    assert_eq!(text(&kai, "[data-bell-count]").await, "");
    // Ana challenges Kai from her browser: his bell counts it at once, the tab says so.
    let sent = ana
        .execute_async(
            "fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({mode: 'friend', challenge: 'Kai', clock: {days: 3}})}).then(r => r.status).then(arguments[0]);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(sent, json!(201));
    let what = || "Kai's bell never counted the challenge".to_string();
    eventually(10, what, || async {
        (text(&kai, "[data-bell-count]").await == "1").then_some(())
    })
    .await;
    let title = kai.title().await.unwrap();
    assert!(title.starts_with("(1) "), "{title:?}");
    emulate(&kai, "dark", "reduce").await;
    click(&kai, "[data-bell]").await;
    wait_for(&kai, "[data-bell-list] [data-notice='challenge']", 10).await;
    let words = strings("cs");
    let wanted = words["notice.challenge"]
        .as_str()
        .unwrap()
        .replace("{name}", "Ana");
    assert_eq!(text(&kai, "[data-notice='challenge'] a").await, wanted);
    screenshot(&kai, "notices-bell-cs-phone-dark").await;
    // Opened, it is read: the count goes, on the server too.
    eventually(
        10,
        || "the count stayed".to_string(),
        || async { (text(&kai, "[data-bell-count]").await.is_empty()).then_some(()) },
    )
    .await;
    let unread = kai
        .execute_async(
            "fetch('/api/account/notifications').then(r => r.json()).then(b => arguments[0](b.unread));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unread, json!(0));
    check_accessibility(&kai, "the bell's list (cs, phone)").await;
    assert_no_console_errors(&kai, "the bell").await;
    let ana_bell = ana.find(Locator::Css("[data-bell]")).await;
    assert!(ana_bell.is_ok(), "every logged-in page has the bell");
    screenshot(&ana, "notices-bell-desktop-light").await;
}
