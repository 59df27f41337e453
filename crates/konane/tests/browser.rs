//! The page in a real headless Chromium, driven through chromedriver, against the real
//! `konane serve`: whole games by clicking, a friend game across two browsers, a reload,
//! an illegal click, a move by dragging, no console errors, and screenshots at phone and desktop sizes (in `target/screenshots`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use std::time::Duration;

use fantoccini::Locator;
use rig::*;

#[tokio::test]
async fn a_whole_game_against_the_engine_by_clicking() {
    if !browsers_present() {
        return;
    }
    for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        let rig = rig(label);
        let c = rig.browser("player", w, h).await;
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        screenshot(&c, &format!("start-{label}")).await;
        set_option(&c, "size", "6x6").await;
        set_option(&c, "level", "1").await;
        set_option(&c, "color", "black").await;
        click(&c, "[data-start=engine]").await;
        wait_status(&c, &["your-move"], 10).await;
        assert!(c.current_url().await.unwrap().path().starts_with("/game/"));
        // The opening: only Black's allowed removals respond.
        let removable = c
            .find_all(Locator::Css("[data-action=remove]"))
            .await
            .unwrap();
        assert_eq!(
            removable.len(),
            4,
            "6x6 center-or-corner allows a6, c4, d3, f1"
        );
        click_a_move(&c).await;
        // Looking back while the computer answers: its move arrives in the background.
        click(&c, "[data-nav=back]").await;
        wait_status(&c, &["your-move"], 10).await;
        assert!(text(&c, "[data-status]").await.contains("(showing move"));
        assert_no_console_errors(&c, "a move arriving while looking back").await;
        click(&c, "[data-nav=last]").await;
        play_to_the_end(&c, 20).await;
        screenshot(&c, &format!("engine-game-over-{label}")).await;
        let end = text(&c, "[data-end]").await;
        assert!(end.contains("wins"), "{end}");
        assert!(end.contains("has no move left"), "{end}");
        assert_no_console_errors(&c, label).await;
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_friend_game_across_two_browsers() {
    if !browsers_present() {
        return;
    }
    let rig = rig("friend");
    let ana = rig.browser("ana", 1280, 900).await;
    let kai = rig.browser("kai", 390, 844).await;
    ana.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&ana, "size", "4x4").await;
    click(&ana, "[data-start=friend]").await;
    wait_status(&ana, &["waiting"], 10).await;
    let invite = ana
        .find(Locator::Css("[data-invite]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(invite.ends_with("?join"), "{invite}");
    kai.goto(&invite).await.unwrap();
    wait_status(&kai, &["your-move", "their-move"], 10).await;
    wait_status(&ana, &["your-move", "their-move"], 10).await;
    // Each move appears in the other browser without a reload.
    loop {
        let (mover, watcher) = if attr(&ana, "[data-status]", "data-status").await.as_deref()
            == Some("your-move")
        {
            (&ana, &kai)
        } else if attr(&kai, "[data-status]", "data-status").await.as_deref() == Some("your-move") {
            (&kai, &ana)
        } else if attr(&ana, "[data-status]", "data-status").await.as_deref() == Some("finished") {
            break;
        } else {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        };
        let before = moves(watcher).await.len();
        click_a_move(mover).await;
        wait_more_moves(watcher, before, "the other browser did not see the move").await;
    }
    wait_status(&kai, &["finished"], 5).await;
    assert_eq!(moves(&ana).await, moves(&kai).await);
    screenshot(&ana, "friend-desktop").await;
    screenshot(&kai, "friend-phone").await;
    assert_no_console_errors(&ana, "friend game, first browser").await;
    assert_no_console_errors(&kai, "friend game, second browser").await;
    ana.close().await.unwrap();
    kai.close().await.unwrap();
}

#[tokio::test]
async fn two_players_one_device_a_reload_and_an_illegal_click() {
    if !browsers_present() {
        return;
    }
    let rig = rig("local");
    let c = rig.browser("both", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&c, "size", "6x6").await;
    click(&c, "[data-start=local]").await;
    wait_status(&c, &["your-move"], 10).await;
    for i in 0..3 {
        let before = moves(&c).await.len();
        if i == 2 {
            // A jump by dragging the stone onto its landing square.
            click(&c, "[data-action=select]").await;
            let from = attr(&c, "[aria-selected=true]", "data-square")
                .await
                .unwrap();
            let to = attr(&c, "[data-action=target]", "data-square")
                .await
                .unwrap();
            press(&c, &fantoccini::key::Key::Escape).await;
            wait_gone(&c, "[data-action=target]").await;
            drag(&c, &from, &to).await;
            wait_more_moves(&c, before, "the drag did not make a move").await;
            assert_eq!(moves(&c).await.last(), Some(&format!("{from}-{to}")));
            continue;
        }
        click_a_move(&c).await;
        wait_more_moves(&c, before, "the move did not register").await;
    }
    // An illegal click: a square nobody can act on explains itself and changes nothing.
    // (First the last move's animation ends: its fading stones leave the board.)
    tokio::time::sleep(Duration::from_millis(800)).await;
    let before = moves(&c).await;
    let board_before = c
        .find(Locator::Css(".board"))
        .await
        .unwrap()
        .html(false)
        .await
        .unwrap();
    c.find(Locator::Css("[data-square]:not([data-action])"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let notice = text(&c, "[data-notice]").await;
    assert!(!notice.is_empty(), "no explanation for an illegal click");
    assert_eq!(moves(&c).await, before);
    assert_eq!(
        c.find(Locator::Css(".board"))
            .await
            .unwrap()
            .html(false)
            .await
            .unwrap(),
        board_before
    );
    // A reload restores the game and the seats.
    c.refresh().await.unwrap();
    wait_status(&c, &["your-move"], 10).await;
    assert_eq!(moves(&c).await, before);
    play_to_the_end(&c, 10).await;
    assert!(text(&c, "[data-end]").await.contains("wins"));
    assert_no_console_errors(&c, "two players on one device").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_lobby_and_watching_the_computer_play_to_the_end() {
    if !browsers_present() {
        return;
    }
    let rig = rig("lobby");
    // Watching: the computer plays both sides to the end, live, on a phone.
    let watcher = rig.browser("watcher", 390, 844).await;
    watcher.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&watcher, "size", "6x6").await;
    set_option(&watcher, "level", "1").await;
    click(&watcher, "[data-start=watch]").await;
    wait_status(&watcher, &["finished"], 60).await;
    assert!(moves(&watcher).await.len() >= 3);
    assert!(
        text(&watcher, "[data-end]")
            .await
            .contains("has no move left")
    );
    screenshot(&watcher, "watch-phone").await;
    assert_no_console_errors(&watcher, "watching").await;

    // The lobby: one player opens a game; another, already on the start screen, sees it
    // appear in the list without reloading, and joins.
    let guest = rig.browser("guest", 390, 844).await;
    guest.goto(&format!("{}/", rig.base)).await.unwrap();
    wait_for(&guest, "[data-lobby] li", 10).await;
    let host = rig.browser("host", 1280, 900).await;
    host.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&host, "size", "4x4").await;
    click(&host, "[data-start=open]").await;
    wait_status(&host, &["waiting"], 10).await;
    wait_for(&guest, "[data-lobby] button", 15)
        .await
        .click()
        .await
        .unwrap();
    wait_status(&guest, &["your-move", "their-move"], 10).await;
    loop {
        let a = attr(&host, "[data-status]", "data-status").await;
        let b = attr(&guest, "[data-status]", "data-status").await;
        match (a.as_deref(), b.as_deref()) {
            (Some("finished"), Some("finished")) => break,
            (Some("your-move"), _) => play_one(&host).await,
            (_, Some("your-move")) => play_one(&guest).await,
            _ => tokio::time::sleep(Duration::from_millis(30)).await,
        }
    }
    assert_eq!(moves(&host).await, moves(&guest).await);
    assert_no_console_errors(&host, "lobby host").await;
    assert_no_console_errors(&guest, "lobby guest").await;
    for c in [watcher, host, guest] {
        c.close().await.unwrap();
    }
}
