//! The site offline (web/sw.js, web/offline.js, web/offline-game.js), in a real headless
//! Chromium: after a first visit the server is stopped for good, and the reloaded page still
//! opens the start screen with the offline notice, plays a whole game against the computer
//! in the browser, runs the tutorial and the rules, and says that server pages need the
//! network; with screenshots of the notice in every language.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and
//! passes, except under `CI=true`, where it must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use fantoccini::Client;
use konane_core::{AnyPosition, Opening};
use rig::*;

/// Waits until the service worker controls the page (it has kept every file by then).
async fn wait_controlled(c: &Client) {
    let what = || "the service worker never took over the page".to_string();
    eventually(30, what, || async {
        c.execute("return !!navigator.serviceWorker.controller;", vec![])
            .await
            .ok()
            .and_then(|v| v.as_bool())
            .filter(|&yes| yes)
    })
    .await;
}

/// The banner's words in one language: the news, then what still works.
fn banner_text(strings: &serde_json::Map<String, serde_json::Value>) -> String {
    let word = |k: &str| strings[k].as_str().unwrap().to_owned();
    format!("{}. {}", word("offline.title"), word("offline.banner"))
}

async fn banner(c: &Client) -> String {
    wait_for(c, "[data-offline]:not([hidden])", 10).await;
    text(c, "[data-offline]").await
}

#[tokio::test]
async fn after_a_first_visit_the_site_works_without_the_server() {
    if !browsers_present() {
        return;
    }
    let mut rig = rig("offline");
    let base = rig.base.clone();
    let c = rig.browser("offline", 1280, 900).await;
    c.goto(&format!("{base}/")).await.unwrap();
    wait_for(&c, "[data-start=engine]", 10).await;
    assert!(
        !shown(&c, "[data-offline]").await,
        "online there is no offline notice"
    );
    wait_controlled(&c).await;
    assert_no_console_errors(&c, "the first visit").await;
    // A solved board on the analysis board: its book comes from the server, and is kept.
    let seven = reqwest::Url::parse_with_params(
        &format!("{base}/analysis"),
        [
            (
                "position",
                AnyPosition::start("7x7".parse().unwrap(), Opening::Center).to_string(),
            ),
            ("opening", "center".into()),
        ],
    )
    .unwrap();
    c.goto(seven.as_str()).await.unwrap();
    wait_for(&c, "[data-proven=win]", 20).await;

    rig.stop_server();
    c.goto(&format!("{base}/")).await.unwrap();
    let en = strings("en");
    assert_eq!(banner(&c).await, banner_text(&en));
    for online_only in [
        "[data-start=friend]",
        "[data-start=open]",
        "[data-pairing]",
        "[data-lobby]",
    ] {
        assert!(
            !shown(&c, online_only).await,
            "{online_only} is hidden offline"
        );
    }
    assert!(
        shown(&c, "[data-start=local]").await,
        "a game on one device is offered"
    );
    assert_no_console_errors(&c, "the start screen offline").await;

    // A whole game against the computer, in the browser alone.
    set_option(&c, "size", "6x6").await;
    set_option(&c, "level", "1").await;
    set_option(&c, "color", "black").await;
    click(&c, "[data-start=engine]").await;
    wait_for(&c, "[data-local-game=engine]", 10).await;
    assert_eq!(c.current_url().await.unwrap().path(), "/play");
    play_to_the_end(&c, 30).await;
    let played = moves(&c).await;
    assert!(played.len() >= 4, "a real game: {played:?}");
    let end = text(&c, "[data-end]").await;
    let you = [
        en["end.you-win"].as_str().unwrap(),
        en["end.you-lose"].as_str().unwrap(),
    ];
    assert!(
        you.iter().any(|w| end.contains(w)),
        "the end says who won: {end}"
    );
    // The loser is the side to move with no move left: Black moves on even plies.
    let black_lost = played.len() % 2 == 0;
    assert_eq!(
        end.contains(you[1]),
        black_lost,
        "{end} after {} moves",
        played.len()
    );
    screenshot(&c, "offline-game-over-light-desktop").await;
    click(&c, "[data-act=again]").await;
    let what = || "play again starts a fresh game".to_string();
    eventually(10, what, || async {
        (moves(&c).await.is_empty()).then_some(())
    })
    .await;
    wait_status(&c, &["your-move"], 10).await;
    assert_no_console_errors(&c, "the game offline").await;

    // Two on one device: both sides are the player's.
    c.goto(&format!("{base}/")).await.unwrap();
    click(&c, "[data-start=local]").await;
    wait_for(&c, "[data-local-game=local]", 10).await;
    for _ in 0..3 {
        wait_status(&c, &["your-move"], 10).await;
        play_one(&c).await;
    }
    assert_no_console_errors(&c, "the game on one device offline").await;

    // The tutorial: its first step, then its first move.
    c.goto(&format!("{base}/learn")).await.unwrap();
    wait_for(&c, "[data-learn-step=board]", 10).await;
    click(&c, "[data-learn-next]").await;
    wait_for(&c, "[data-learn-step=black-removal]", 10).await;
    click(&c, "[data-action=remove]").await;
    wait_for(&c, "[data-learn-feedback][data-result=done]", 10).await;
    assert_no_console_errors(&c, "the tutorial offline").await;

    // The rules draw their diagrams with the legal moves marked.
    c.goto(&format!("{base}/rules")).await.unwrap();
    wait_for(&c, "[data-page=rules] [data-action=remove]", 10).await;
    // A page of the server's says what works instead.
    c.goto(&format!("{base}/puzzles")).await.unwrap();
    wait_for(&c, "[data-offline-page]", 10).await;
    assert_no_console_errors(&c, "the rules and the puzzles offline").await;

    // The analysis board runs the engine as online, and knows the book it was given.
    c.goto(&format!("{base}/analysis")).await.unwrap();
    wait_for(&c, "[data-eval]:not([data-eval=''])", 20).await;
    c.goto(seven.as_str()).await.unwrap();
    wait_for(&c, "[data-proven=win][data-bestmove=d4]", 20).await;
    assert_no_console_errors(&c, "the analysis board offline").await;

    for code in ["en", "de", "cs"] {
        c.goto(&format!("{base}/")).await.unwrap();
        choose_language(&c, code).await;
        assert_eq!(banner(&c).await, banner_text(&strings(code)));
        for scheme in ["light", "dark"] {
            emulate(&c, scheme, "reduce").await;
            for (device, width, height) in [("phone", 390, 844), ("desktop", 1280, 900)] {
                emulate_screen(&c, width, height).await;
                screenshot(&c, &format!("offline-start-{code}-{scheme}-{device}")).await;
            }
        }
    }
    c.goto(&format!("{base}/")).await.unwrap();
    click(&c, "[data-start=engine]").await;
    wait_for(&c, "[data-local-game=engine]", 10).await;
    wait_status(&c, &["your-move"], 10).await;
    play_one(&c).await;
    wait_status(&c, &["your-move"], 10).await;
    for scheme in ["light", "dark"] {
        emulate(&c, scheme, "reduce").await;
        for (device, width, height) in [("phone", 390, 844), ("desktop", 1280, 900)] {
            emulate_screen(&c, width, height).await;
            screenshot(&c, &format!("offline-game-{scheme}-{device}")).await;
        }
    }
    assert_no_console_errors(&c, "the screenshots").await;
}
