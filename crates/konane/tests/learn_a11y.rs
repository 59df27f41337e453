//! Learning and reach, in a real headless Chromium against the real `konane serve`: the
//! tutorial walked through to its first game in English, German and Czech; a whole game
//! played with the keyboard alone, its moves announced; every screen in German and Czech;
//! jumps animated unless reduced motion is asked for; the sound switch; and axe-core's
//! accessibility check of every page in the light and the dark theme (axe is loaded by the test, never by
//! the page: `npm ci --prefix crates/konane/tests/axe` fetches it).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use rig::*;
use serde_json::{Value, json};

fn lessons() -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/lessons.json");
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all["steps"].as_array().unwrap().clone()
}

async fn wait_text(c: &Client, css: &str, wanted: &str, secs: u64) {
    let what = || format!("{css} never said {wanted:?}");
    eventually(secs, what, || async {
        (text(c, css).await == wanted).then_some(())
    })
    .await;
}

async fn wait_attr(c: &Client, css: &str, name: &str, wanted: &str, secs: u64) {
    let what = || format!("{css} {name} never became {wanted}");
    eventually(secs, what, || async {
        (attr(c, css, name).await.as_deref() == Some(wanted)).then_some(())
    })
    .await;
}

/// Plays `from-to` on a tutorial board by clicking the stone, then its landing square.
async fn click_jump(c: &Client, mv: &str) {
    let (from, to) = mv.split_once('-').unwrap();
    click(c, &format!("[data-square={from}][data-action=select]")).await;
    click(c, &format!("[data-square={to}][data-action=target]")).await;
}

#[tokio::test]
async fn the_tutorial_walked_through_in_three_languages() {
    if !browsers_present() {
        return;
    }
    let rig = rig("learn");
    for code in ["en", "de", "cs"] {
        let words = strings(code);
        let word = |key: &str| words[key].as_str().unwrap().to_string();
        let c = rig.browser(&format!("learner-{code}"), 1280, 900).await;
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        choose_language(&c, code).await;
        nav_to(&c, "learn").await;
        for (i, step) in lessons().iter().enumerate() {
            let id = step["id"].as_str().unwrap();
            wait_attr(&c, "[data-learn-step]", "data-learn-step", id, 5).await;
            wait_text(
                &c,
                "[data-learn-title]",
                &word(&format!("learn.{id}.title")),
                5,
            )
            .await;
            if code == "en" && id == "double-jump" {
                // The step is in the address: a reload comes back to it.
                c.refresh().await.unwrap();
                wait_attr(&c, "[data-learn-step]", "data-learn-step", id, 5).await;
            }
            assert_eq!(
                text(&c, "[data-learn-text]").await,
                word(&format!("learn.{id}.text"))
            );
            match id {
                "board" | "first-game" => {}
                "black-removal" | "white-removal" => {
                    // A stone that may not be lifted explains itself; an allowed one is lifted.
                    click(&c, "[data-square]:not([data-action])").await;
                    wait_attr(&c, "[data-learn-feedback]", "data-result", "wrong", 5).await;
                    assert_eq!(
                        text(&c, "[data-learn-feedback]").await,
                        word(&format!("learn.{id}.wrong"))
                    );
                    click(&c, "[data-action=remove]").await;
                }
                _ => {
                    let wrong = match id {
                        "mobility" => Some("c2-c6"),
                        "game-end" => Some("a6-c6"),
                        "stop-early" => Some("c6-c2"),
                        _ => None,
                    };
                    if let Some(wrong) = wrong {
                        click_jump(&c, wrong).await;
                        wait_attr(&c, "[data-learn-feedback]", "data-result", "wrong", 5).await;
                        let expected = word(&format!("learn.{id}.wrong")).replace("{move}", wrong);
                        assert_eq!(text(&c, "[data-learn-feedback]").await, expected);
                        let (from, _) = wrong.split_once('-').unwrap();
                        assert!(
                            c.find(Locator::Css(&format!("[data-square={from}] .stone")))
                                .await
                                .is_ok(),
                            "{id}: a wrong try changed the board"
                        );
                    }
                    if let Some(turn) = step["turn"].as_str() {
                        click(&c, "[data-square=a4][data-action=select]").await;
                        click(&c, &format!("[data-square={turn}]")).await;
                        wait_text(&c, "[data-learn-feedback]", &word("learn.no-turn.turn"), 5)
                            .await;
                        // a4 is still selected: its one landing square finishes the step.
                        click(&c, "[data-square=c4][data-action=target]").await;
                    } else {
                        click_jump(&c, step["goal"][0].as_str().unwrap()).await;
                    }
                }
            }
            if !matches!(id, "board" | "first-game") {
                wait_attr(&c, "[data-learn-feedback]", "data-result", "done", 5).await;
            }
            if code == "en" && [0, 1, 4, 9].contains(&i) {
                screenshot(&c, &format!("learn-{id}")).await;
            }
            click(&c, "[data-learn-next]:not([disabled])").await;
        }
        // The last step opens a first game against level 1, in the same language.
        wait_status(&c, &["your-move"], 10).await;
        assert!(c.current_url().await.unwrap().path().starts_with("/game/"));
        let status = text(&c, "[data-status]").await;
        let black = word("color.black");
        let instruction = word("do.remove-center-corner").replace("{color}", &black);
        assert_eq!(
            status,
            word("status.yours").replace("{instruction}", &instruction)
        );
        assert_no_console_errors(&c, &format!("tutorial in {code}")).await;
        c.close().await.unwrap();
    }
}

/// The square the keyboard cursor is on.
async fn cursor(c: &Client) -> String {
    let id = attr(c, ".board", "aria-activedescendant")
        .await
        .expect("a cursor");
    id.rsplit('-').next().unwrap().to_string()
}

/// Moves the cursor to `target` with the arrow keys (the board is not flipped: Black).
async fn walk_to(c: &Client, target: &str) {
    let at = |s: &str| (s.as_bytes()[0] as i32, s[1..].parse::<i32>().unwrap());
    let (tc, tr) = at(target);
    let (cc, cr) = at(&cursor(c).await);
    let mut keys = String::new();
    let (horizontal, vertical) = (
        if tc > cc { Key::Right } else { Key::Left },
        if tr > cr { Key::Up } else { Key::Down },
    );
    for _ in 0..(tc - cc).abs() {
        keys.push_str(&horizontal);
    }
    for _ in 0..(tr - cr).abs() {
        keys.push_str(&vertical);
    }
    press(c, &keys).await;
    assert_eq!(cursor(c).await, target);
}

#[tokio::test]
async fn a_whole_game_with_the_keyboard_only() {
    if !browsers_present() {
        return;
    }
    let rig = rig("keyboard");
    let c = rig.browser("keys", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    // The options as a returning player left them; everything after this is keys only.
    c.execute(
        "localStorage.setItem('konane.options', JSON.stringify({size: '6x6', level: '1', color: 'black'})); localStorage.setItem('konane.lang', 'en');",
        vec![],
    )
    .await
    .unwrap();
    c.refresh().await.unwrap();
    wait_for(&c, "[data-start=engine]", 5).await;
    tab_to(&c, "[data-start=engine]", false).await;
    press(&c, &Key::Enter).await;
    wait_status(&c, &["your-move"], 10).await;
    tab_to(&c, ".board", false).await;
    let ring = c
        .execute(
            "return getComputedStyle(document.querySelector('.board .cursor')).display;",
            vec![],
        )
        .await
        .unwrap();
    assert_ne!(ring, json!("none"), "the keyboard cursor is not visible");
    let mut typed = false;
    let mut heard = Vec::new();
    loop {
        if wait_status(&c, &["your-move", "finished"], 20).await == "finished" {
            break;
        }
        let before = moves(&c).await.len();
        if before >= 4 && !typed {
            // One move typed into the command box, in notation.
            let id = c
                .current_url()
                .await
                .unwrap()
                .path()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            let state = c
                .execute_async(
                    "fetch('/api/games/' + arguments[0]).then(r => r.json()).then(arguments[1]);",
                    vec![json!(id)],
                )
                .await
                .unwrap();
            let mv = state["legal_moves"][0].as_str().unwrap().to_string();
            // The move box opens from its toggle, one key away, and takes the focus.
            tab_to(&c, "[data-command-toggle]", false).await;
            press(&c, &Key::Enter).await;
            assert!(
                focused(&c, "[data-command]").await,
                "the move box did not take the focus"
            );
            press(&c, &format!("{mv}{}", &*Key::Enter)).await;
            typed = true;
            tab_to(&c, ".board", true).await;
        } else {
            let square = |action: &'static str| {
                let c = &c;
                async move {
                    c.find(Locator::Css(&format!("[data-action={action}]")))
                        .await
                        .ok()?
                        .attr("data-square")
                        .await
                        .ok()
                        .flatten()
                }
            };
            if let Some(removal) = square("remove").await {
                walk_to(&c, &removal).await;
                press(&c, &Key::Enter).await;
            } else {
                let stone = square("select").await.expect("a stone that can jump");
                walk_to(&c, &stone).await;
                press(&c, " ").await;
                let landing = square("target").await.expect("a landing square");
                walk_to(&c, &landing).await;
                press(&c, &Key::Enter).await;
            }
        }
        wait_more_moves(&c, before, "the keyboard move did not register").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        heard.push(text(&c, "[data-announce]").await);
    }
    assert!(typed, "the game ended before a move could be typed");
    // The move list is keyboard-usable too: Enter on a move shows it and keeps the focus.
    tab_to(&c, "[data-movelist] [data-ply='1']", false).await;
    press(&c, &Key::Enter).await;
    wait_for(&c, "[data-movelist] [data-ply='1'][aria-current=step]", 5).await;
    assert!(
        focused(&c, "[data-movelist] [data-ply='1']").await,
        "Enter on a move lost the focus"
    );
    let end = text(&c, "[data-end]").await;
    assert!(end.contains("has no move left"), "{end}");
    // The live region spoke the moves, the computer's included.
    assert!(heard.iter().any(|s| s.contains("capturing")), "{heard:?}");
    assert!(heard.iter().any(|s| s.starts_with("White")), "{heard:?}");
    screenshot(&c, "keyboard-game-over").await;
    assert_no_console_errors(&c, "keyboard game").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn every_screen_speaks_german_and_czech() {
    if !browsers_present() {
        return;
    }
    let rig = rig("languages");
    for code in ["de", "cs", "en"] {
        let words = strings(code);
        let word = |key: &str| words[key].as_str().unwrap().to_string();
        // German is chosen with the switch; Czech comes from the browser's own language.
        let c = if code == "cs" {
            rig.browser_speaking("reader-cs", 390, 844, "cs-CZ").await
        } else {
            rig.browser(&format!("reader-{code}"), 390, 844).await
        };
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        if code == "cs" {
            wait_attr(&c, "html", "lang", "cs", 10).await;
            let chosen = c
                .execute("return localStorage.getItem('konane.lang');", vec![])
                .await
                .unwrap();
            assert_eq!(
                chosen,
                Value::Null,
                "Czech must come from the browser, not a choice"
            );
        } else {
            choose_language(&c, code).await;
        }
        wait_text(&c, "h1", &word("start.title"), 5).await;
        assert_eq!(text(&c, "[data-start=engine]").await, word("start.engine"));
        open_menu(&c).await;
        assert_eq!(text(&c, "[data-nav-link=rules]").await, word("nav.rules"));
        for (page, key) in [
            ("learn", "learn.title"),
            ("rules", "rules.title"),
            ("history", "history.title"),
        ] {
            nav_to(&c, page).await;
            wait_text(&c, "h1", &word(key), 5).await;
            if page == "rules" {
                assert_eq!(text(&c, ".faq summary").await, word("faq.q1"));
            }
        }
        // Remembered: a reload keeps the language.
        c.refresh().await.unwrap();
        wait_text(&c, "h1", &word("history.title"), 5).await;
        nav_to(&c, "play").await;
        click(&c, "[data-start=local]").await;
        wait_status(&c, &["your-move"], 10).await;
        let instruction = word("do.remove-center-corner").replace("{color}", &word("color.black"));
        assert_eq!(text(&c, "[data-status]").await, instruction);
        assert_eq!(text(&c, "[data-act=flip]").await, word("act.flip"));
        let label = attr(&c, "[data-square=a8]", "aria-label").await.unwrap();
        assert!(
            label.contains(&word("sq.black")) && label.contains(&word("sq.remove")),
            "{label}"
        );
        screenshot(&c, &format!("game-{code}")).await;
        assert_no_console_errors(&c, &format!("screens in {code}")).await;
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn every_page_passes_axe() {
    if !browsers_present() {
        return;
    }
    if axe_source().is_none() {
        return;
    }
    let rig = rig("axe");
    for (name, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        let c = rig.browser(&format!("axe-{name}"), w, h).await;
        for scheme in ["light", "dark"] {
            c.goto(&format!("{}/", rig.base)).await.unwrap();
            emulate(&c, scheme, "no-preference").await;
            wait_for(&c, "[data-start=engine]", 5).await;
            check_accessibility(&c, &format!("start, {scheme}")).await;
            for page in ["learn", "rules", "history"] {
                c.goto(&format!("{}/{page}", rig.base)).await.unwrap();
                wait_for(&c, "main h1", 5).await;
                wait_for(&c, ".board [data-square]", 5).await;
                check_accessibility(&c, &format!("{page}, {scheme}")).await;
            }
            // The game offline play opens, played in the browser alone.
            c.goto(&format!(
                "{}/play?mode=engine&size=6x6&color=black",
                rig.base
            ))
            .await
            .unwrap();
            wait_status(&c, &["your-move"], 10).await;
            check_accessibility(&c, &format!("a game in the browser, {scheme}")).await;
            for (page, ready) in [
                ("account", "[data-form=register]"),
                ("players", "[data-leaderboard]"),
            ] {
                c.goto(&format!("{}/{page}", rig.base)).await.unwrap();
                wait_for(&c, ready, 5).await;
                check_accessibility(&c, &format!("{page}, {scheme}")).await;
            }
        }
        // A profile: this browser registers (and so logs in) through the API.
        let player = format!("axe-{name}");
        let status = c
            .execute(
                "return fetch('/api/accounts', {method: 'POST', headers: {'content-type': 'application/json'},
                   body: JSON.stringify({name: arguments[0], password: 'a good long password'})}).then(r => r.status);",
                vec![serde_json::json!(player)],
            )
            .await
            .unwrap();
        assert_eq!(status, serde_json::json!(201));
        for scheme in ["light", "dark"] {
            c.goto(&format!("{}/@/{player}", rig.base)).await.unwrap();
            emulate(&c, scheme, "no-preference").await;
            wait_for(&c, "[data-archive] li", 5).await;
            check_accessibility(&c, &format!("profile, {scheme}")).await;
            c.goto(&format!("{}/account", rig.base)).await.unwrap();
            wait_for(&c, "[data-logout]", 5).await;
            check_accessibility(&c, &format!("account, logged in, {scheme}")).await;
        }
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        set_option(&c, "size", "6x6").await;
        click(&c, "[data-start=local]").await;
        wait_status(&c, &["your-move"], 10).await;
        for _ in 0..3 {
            play_one(&c).await;
        }
        click(&c, "[data-action=select]").await;
        for scheme in ["light", "dark"] {
            emulate(&c, scheme, "no-preference").await;
            check_accessibility(&c, &format!("game, {scheme}")).await;
        }
        screenshot(&c, &format!("game-dark-{name}")).await;
        assert_no_console_errors(&c, "axe pages").await;
        // An invitation waiting, its cancel asked on the page; and the page for no page.
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        set_option(&c, "size", "4x4").await;
        set_option(&c, "clock", "3+2").await;
        click(&c, "[data-start=friend]").await;
        wait_status(&c, &["waiting"], 10).await;
        click(&c, "[data-cancel-invite]").await;
        wait_for(&c, "[data-confirm-yes]", 5).await;
        for scheme in ["light", "dark"] {
            emulate(&c, scheme, "no-preference").await;
            check_accessibility(&c, &format!("invitation, {scheme}")).await;
        }
        c.goto(&format!("{}/no/such/page", rig.base)).await.unwrap();
        wait_for(&c, "[data-not-found] .board", 5).await;
        for scheme in ["light", "dark"] {
            emulate(&c, scheme, "no-preference").await;
            check_accessibility(&c, &format!("no such page, {scheme}")).await;
        }
        c.close().await.unwrap();
    }
}

/// Makes the next move of a two-player game by clicking, and says what the board showed
/// right after it: whether a stone was travelling or fading.
async fn move_and_look(c: &Client) -> bool {
    play_one(c).await;
    c.execute(
        "return document.querySelectorAll('.board .travelling, .board .fading').length > 0;",
        vec![],
    )
    .await
    .unwrap()
        == json!(true)
}

#[tokio::test]
async fn jumps_move_unless_reduced_motion_and_sound_can_be_muted() {
    if !browsers_present() {
        return;
    }
    let rig = rig("motion");
    let c = rig.browser("motion", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    wait_for(&c, "[data-mute]", 5).await;
    // The sound switch: on by default, off when pressed, and still off after a reload.
    assert_eq!(
        attr(&c, "[data-mute]", "aria-pressed").await.as_deref(),
        Some("true")
    );
    click(&c, "[data-mute]").await;
    assert_eq!(
        attr(&c, "[data-mute]", "aria-pressed").await.as_deref(),
        Some("false")
    );
    c.refresh().await.unwrap();
    wait_for(&c, "[data-mute][aria-pressed=false]", 5).await;
    click(&c, "[data-mute]").await;

    set_option(&c, "size", "6x6").await;
    click(&c, "[data-start=local]").await;
    wait_status(&c, &["your-move"], 10).await;
    emulate(&c, "light", "reduce").await;
    assert!(
        !move_and_look(&c).await,
        "a removal faded although motion is reduced"
    );
    emulate(&c, "light", "no-preference").await;
    assert!(move_and_look(&c).await, "the removed stone did not fade");
    assert!(move_and_look(&c).await, "the first jump did not travel");
    emulate(&c, "light", "reduce").await;
    assert!(
        !move_and_look(&c).await,
        "a jump travelled although motion is reduced"
    );
    assert_no_console_errors(&c, "motion").await;
    c.close().await.unwrap();
}
