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
        // The small board shows a game or the demonstration.
        wait_for(&c, "[data-tv] svg[viewBox]", 10).await;
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

/// The box of every shown button that is shorter than `min` px: `["label: 30", …]`.
async fn short_buttons(c: &fantoccini::Client, min: f64) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('button, .button, select, [role=button]')].filter(e => e.getClientRects().length).map(e => [e.textContent.trim() || e.getAttribute('aria-label') || e.outerHTML.slice(0, 60), e.getBoundingClientRect().height]).filter(([, h]) => h < arguments[0]).map(([t, h]) => `${t}: ${h}`);",
            vec![serde_json::json!(min)],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Every shown element reaching past the right edge of the viewport, and the page's width.
async fn too_wide(c: &fantoccini::Client) -> (Vec<String>, f64) {
    let v = c
        .execute(
            "const w = innerWidth; const wide = [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 0.5).map(e => `${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className}: ${Math.round(e.getBoundingClientRect().right)}`); return [wide.slice(0, 10), document.documentElement.scrollWidth - w];",
            vec![],
        )
        .await
        .unwrap();
    (
        serde_json::from_value(v[0].clone()).unwrap(),
        v[1].as_f64().unwrap(),
    )
}

#[tokio::test]
async fn a_timed_game_shows_both_players_and_clocks_in_view() {
    if !browsers_present() {
        return;
    }
    let rig = rig("timed");
    for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        let c = rig.browser(&format!("timed-{label}"), w, h).await;
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        for (name, value) in [
            ("size", "8x8"),
            ("level", "1"),
            ("color", "black"),
            ("clock", "3+2"),
        ] {
            set_option(&c, name, value).await;
        }
        click(&c, "[data-start=engine]").await;
        wait_status(&c, &["your-move"], 10).await;
        play_one(&c).await;
        wait_status(&c, &["your-move"], 10).await;
        for css in ["[data-clock=top]", "[data-clock=bottom]", "[data-status]"] {
            assert_in_viewport(&c, css, label).await;
        }
        // Each clock beside its player: the computer above, the player below, running
        // clock marked.
        assert_eq!(
            text(&c, "[data-slot=top] [data-player=white]").await,
            "Computer · level 1"
        );
        assert_eq!(
            text(&c, "[data-slot=bottom] [data-player=black]").await,
            "Black (you)"
        );
        assert!(shown(&c, "[data-slot=bottom] [data-clock].running").await);
        assert!(text(&c, "[data-you-play]").await.contains("You play Black"));
        // A player with a rating (the accounts' players): the name, then "1500", or
        // "1500?" while provisional.
        let strips = c
            .execute_async(
                "const done = arguments[0];
                 import('/players.js').then(({ PlayerStrip }) => done([true, false].map((provisional) => {
                   const strip = new PlayerStrip('top');
                   const ana = { name: 'Ana', engine: false, level: null, seated: true, rating: 1500.4, provisional };
                   strip.draw({ status: 'playing', turn: 'black', players: { black: ana } }, 'black', false);
                   return [strip.name.textContent, strip.rating.textContent];
                 })));",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            strips,
            serde_json::json!([["Ana", "1500?"], ["Ana", "1500"]])
        );
        if label == "phone" {
            let short = short_buttons(&c, 44.0).await;
            assert!(
                short.is_empty(),
                "buttons under 44 px on a phone: {short:?}"
            );
        }
        let (wide, overflow) = too_wide(&c).await;
        assert!(wide.is_empty() && overflow <= 0.0, "{label}: {wide:?}");
        screenshot(&c, &format!("game-timed-{label}")).await;
        // Resigning asks on the page; after the end nothing offers what cannot be done.
        click(&c, "[data-act=resign]").await;
        wait_for(&c, "[data-confirm-yes]", 5).await;
        screenshot(&c, &format!("game-resign-confirm-{label}")).await;
        click(&c, "[data-confirm-no]").await;
        assert!(!shown(&c, "[data-confirm]").await);
        assert_eq!(
            attr(&c, "[data-status]", "data-status").await.as_deref(),
            Some("your-move")
        );
        click(&c, "[data-act=resign]").await;
        click(&c, "[data-confirm-yes]").await;
        wait_status(&c, &["finished"], 10).await;
        assert!(
            !shown(&c, "[data-act=takeback]").await,
            "Take back after the end"
        );
        assert!(
            !shown(&c, "[data-act=resign]").await,
            "Resign after the end"
        );
        let rematches = c
            .find_all(Locator::Css("[data-act=rematch]"))
            .await
            .unwrap()
            .len();
        assert_eq!(rematches, 1, "one Rematch button");
        assert!(text(&c, "[data-end]").await.contains("Black resigned"));
        screenshot(&c, &format!("game-resigned-{label}")).await;
        assert_no_console_errors(&c, label).await;
        c.close().await.unwrap();
    }
}

/// Plays `count` moves of this page's game from the page itself (the first legal move each
/// time), with the page's own seat token.
async fn play_from_the_page(c: &fantoccini::Client, count: usize) {
    let id = c
        .current_url()
        .await
        .unwrap()
        .path()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    c.execute_async(
        "const [id, count, done] = arguments;
         const token = JSON.parse(localStorage.getItem('konane.tokens'))[id].token;
         (async () => {
           for (let i = 0; i < count; i++) {
             const g = await (await fetch('/api/games/' + id)).json();
             if (g.status !== 'playing') break;
             await fetch('/api/games/' + id + '/moves', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify({ move: g.legal_moves[0], ply: g.ply }) });
           }
         })().then(done);",
        vec![serde_json::json!(id), serde_json::json!(count)],
    )
    .await
    .unwrap();
}

/// Fails unless the move list's current move, and with it its whole row, is in the
/// list's visible part.
async fn assert_current_move_visible(c: &fantoccini::Client, what: &str) {
    let list = rect(c, "[data-movelist]").await;
    let row = c
        .execute(
            "const r = document.querySelector('[data-movelist] [aria-current=step]').closest('li').getBoundingClientRect(); return [r.top, r.bottom];",
            vec![],
        )
        .await
        .unwrap();
    let (top, bottom) = (row[0].as_f64().unwrap(), row[1].as_f64().unwrap());
    assert!(
        top >= list[1] - 0.5 && bottom <= list[3] + 0.5,
        "{what}: the current move's row [{top}, {bottom}] is outside the list [{}, {}]",
        list[1],
        list[3]
    );
}

#[tokio::test]
async fn the_move_list_follows_the_game() {
    if !browsers_present() {
        return;
    }
    let rig = rig("movelist");
    for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        let c = rig.browser(&format!("moves-{label}"), w, h).await;
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        set_option(&c, "size", "16x16").await;
        click(&c, "[data-start=local]").await;
        wait_status(&c, &["your-move"], 10).await;
        play_from_the_page(&c, 40).await;
        let what = || "the 40 moves never all arrived".to_string();
        eventually(10, what, || async {
            (moves(&c).await.len() == 40).then_some(())
        })
        .await;
        // Numbered in pairs as the notation writes them: 20 rows for 40 moves.
        let rows = c
            .find_all(Locator::Css("[data-movelist] li"))
            .await
            .unwrap();
        assert_eq!(rows.len(), 20);
        assert!(rows[19].text().await.unwrap().starts_with("20."));
        assert_eq!(
            attr(&c, "[data-movelist] [aria-current=step]", "data-ply")
                .await
                .as_deref(),
            Some("40")
        );
        assert_current_move_visible(&c, &format!("{label}, after 40 moves")).await;
        for _ in 0..20 {
            click(&c, "[data-nav=back]").await;
        }
        let what = || "stepping back never reached move 10".to_string();
        eventually(5, what, || async {
            (attr(&c, "[data-movelist] [aria-current=step]", "data-ply")
                .await
                .as_deref()
                == Some("20"))
            .then_some(())
        })
        .await;
        assert_current_move_visible(&c, &format!("{label}, back at move 10")).await;
        let status = text(&c, "[data-status]").await;
        assert!(status.contains("(showing move 10 of 20"), "{status}");
        screenshot(&c, &format!("movelist-{label}")).await;
        assert_no_console_errors(&c, label).await;
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn nothing_is_wider_than_a_small_phone() {
    if !browsers_present() {
        return;
    }
    let rig = rig("narrow");
    let c = rig.browser("narrow", 320, 700).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    wait_for(&c, "[data-start=engine]", 10).await;
    let width = c.execute("return innerWidth;", vec![]).await.unwrap();
    assert_eq!(width.as_f64(), Some(320.0), "the window is 320 px wide");
    let mut pages = Vec::new();
    for path in [
        "/",
        "/learn",
        "/rules",
        "/history",
        "/puzzles",
        "/analysis",
        "/no/such/page",
    ] {
        c.goto(&format!("{}{path}", rig.base)).await.unwrap();
        wait_for(&c, "main h1, main .board", 10).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        pages.push((path.to_string(), too_wide(&c).await));
    }
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&c, "size", "8x8").await;
    set_option(&c, "clock", "3+2").await;
    click(&c, "[data-start=friend]").await;
    wait_status(&c, &["waiting"], 10).await;
    pages.push(("invitation".into(), too_wide(&c).await));
    screenshot(&c, "invite-320").await;
    click(&c, "[data-menu]").await;
    pages.push(("the open menu".into(), too_wide(&c).await));
    screenshot(&c, "menu-320").await;
    for (page, (wide, overflow)) in pages {
        assert!(
            wide.is_empty() && overflow <= 0.0,
            "{page} at 320 px: {overflow} px too wide: {wide:?}"
        );
    }
    // The unknown address's 404 is logged by the browser itself.
    assert_no_console_errors_but(&c, "320 px", &["404 (Not Found)"]).await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn an_unknown_address_shows_the_site_with_404() {
    if !browsers_present() {
        return;
    }
    let rig = rig("missing");
    for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        let c = rig.browser(&format!("missing-{label}"), w, h).await;
        c.goto(&format!("{}/no/such/page", rig.base)).await.unwrap();
        wait_for(&c, "[data-not-found]", 10).await;
        assert!(shown(&c, "#top .brand").await, "the site's header");
        assert_eq!(text(&c, "main h1").await, "There is no such page.");
        let status = c
            .execute_async(
                "fetch(location.pathname).then(r => arguments[0](r.status));",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(status.as_u64(), Some(404));
        screenshot(&c, &format!("not-found-{label}")).await;
        emulate(&c, "dark", "no-preference").await;
        screenshot(&c, &format!("not-found-dark-{label}")).await;
        // The browser logs the 404 itself; nothing else may go wrong.
        assert_no_console_errors_but(&c, label, &["404 (Not Found)"]).await;
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn the_host_chooses_a_colour_and_everyone_is_told_their_part() {
    if !browsers_present() {
        return;
    }
    let rig = rig("invite");
    let ana = rig.browser("ana", 1280, 900).await;
    ana.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&ana, "size", "4x4").await;
    set_option(&ana, "color", "white").await;
    click(&ana, "[data-start=friend]").await;
    wait_status(&ana, &["waiting"], 10).await;
    assert_eq!(
        attr(&ana, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("white")
    );
    assert!(
        text(&ana, "[data-you-play]")
            .await
            .starts_with("You play White")
    );
    // The board is turned so the host's white stones are nearest.
    assert_eq!(
        text(&ana, "[data-slot=bottom] [data-player]").await,
        "White (you)"
    );
    click(&ana, "[data-copy-link]").await;
    // Copied (the button says so), or the browser refused and the notice says to copy by hand.
    let what = || "copying the link said nothing".to_string();
    eventually(5, what, || async {
        let copied = ana
            .find(Locator::Css("[data-copy-link][data-copied]"))
            .await
            .is_ok();
        (copied || !text(&ana, "[data-notice]").await.is_empty()).then_some(())
    })
    .await;
    screenshot(&ana, "invite-host-desktop").await;
    let invite = ana
        .find(Locator::Css("[data-invite]"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    let kai = rig.browser("kai", 390, 844).await;
    kai.goto(&invite).await.unwrap();
    wait_status(&kai, &["your-move", "their-move"], 10).await;
    assert_eq!(
        attr(&kai, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("black")
    );
    assert_eq!(
        text(&kai, "[data-you-play]").await,
        "You play Black against White."
    );
    wait_status(&ana, &["their-move"], 10).await;
    screenshot(&kai, "invite-guest-phone").await;
    // A third visitor with the same link watches, and is told so.
    let lea = rig.browser("lea", 390, 844).await;
    lea.goto(&invite).await.unwrap();
    wait_status(&lea, &["their-move"], 10).await;
    assert_eq!(
        attr(&lea, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("watching")
    );
    assert!(
        text(&lea, "[data-you-play]")
            .await
            .contains("already been accepted")
    );
    assert!(!shown(&lea, "[data-act=resign]").await);
    // Cancelling an invitation: asked on the page, and the game ends with no winner.
    ana.goto(&format!("{}/", rig.base)).await.unwrap();
    click(&ana, "[data-start=friend]").await;
    wait_status(&ana, &["waiting"], 10).await;
    click(&ana, "[data-cancel-invite]").await;
    click(&ana, "[data-confirm-yes]").await;
    wait_status(&ana, &["finished"], 10).await;
    assert!(text(&ana, "[data-end]").await.contains("aborted"));
    assert!(!shown(&ana, "[data-act=rematch]").await);
    for (c, who) in [(&ana, "host"), (&kai, "guest"), (&lea, "watcher")] {
        assert_no_console_errors(c, who).await;
    }
    for c in [ana, kai, lea] {
        c.close().await.unwrap();
    }
}

#[tokio::test]
async fn the_computer_playing_itself_moves_at_a_watchable_pace() {
    if !browsers_present() {
        return;
    }
    // The server's own default pace: the one a visitor gets.
    let rig = rig_at_default_pace("pace");
    let c = rig.browser("spectator", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&c, "size", "6x6").await;
    set_option(&c, "level", "1").await;
    click(&c, "[data-start=watch]").await;
    wait_status(&c, &["their-move", "finished"], 10).await;
    // A spectator sees who plays whom.
    assert_eq!(text(&c, "[data-player=black]").await, "Computer · level 1");
    assert_eq!(text(&c, "[data-player=white]").await, "Computer · level 1");
    assert_eq!(
        attr(&c, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("watching")
    );
    let mut seen = Vec::new();
    let mut last = moves(&c).await.len();
    let started = std::time::Instant::now();
    while seen.len() < 4 && started.elapsed() < Duration::from_secs(20) {
        let now = moves(&c).await.len();
        if now > last {
            seen.push((std::time::Instant::now(), now - last));
            last = now;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(seen.len() >= 4, "only {} moves arrived", seen.len());
    let plies: usize = seen[1..].iter().map(|(_, n)| n).sum();
    let spent = seen[seen.len() - 1].0 - seen[0].0;
    assert!(
        spent >= Duration::from_millis(500) * plies as u32,
        "{plies} moves in {spent:?}: faster than 0.5 s a move"
    );
    screenshot(&c, "watch-desktop").await;
    assert_no_console_errors(&c, "watching at the default pace").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_tutorial_fits_a_phone_screen() {
    if !browsers_present() {
        return;
    }
    let rig = rig("learn-phone");
    let c = rig.browser("learner", 390, 844).await;
    for scheme in ["light", "dark"] {
        // The longest step's words, on a step whose Next waits for the move.
        for step in [2, 7, 11] {
            c.goto(&format!("{}/learn?step={step}", rig.base))
                .await
                .unwrap();
            emulate(&c, scheme, "no-preference").await;
            wait_for(&c, "[data-learn-text]:not(:empty)", 10).await;
            wait_for(&c, ".board [data-square]", 10).await;
            for css in [
                "[data-learn-text]",
                "[data-learn-next]",
                "[data-learn-back]",
            ] {
                assert_in_viewport(&c, css, &format!("step {step}, {scheme}")).await;
            }
            // A Next that waits reads as such: plain text colour, not a faded button.
            let next = c
                .execute(
                    "const b = document.querySelector('[data-learn-next]'); const s = getComputedStyle(b); return [b.disabled, s.opacity, s.color];",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(next[0], serde_json::json!(true), "step {step}: {next}");
            assert_eq!(next[1], serde_json::json!("1"), "step {step}: {next}");
            screenshot(&c, &format!("learn-{step}-{scheme}-phone")).await;
        }
    }
    assert_no_console_errors(&c, "the tutorial on a phone").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_start_page_shows_the_games_being_played() {
    if !browsers_present() {
        return;
    }
    let rig = rig("live");
    let players = rig.browser("players", 1280, 900).await;
    players.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&players, "size", "6x6").await;
    set_option(&players, "clock", "10+5").await;
    click(&players, "[data-start=local]").await;
    wait_status(&players, &["your-move"], 10).await;
    play_one(&players).await;
    let visitor = rig.browser("visitor", 390, 844).await;
    visitor.goto(&format!("{}/", rig.base)).await.unwrap();
    wait_for(&visitor, "[data-live-count='1']", 10).await;
    assert_eq!(
        text(&visitor, "[data-live-count]").await,
        "1 game being played now"
    );
    // The game is on the small board, in the first view, with who plays it.
    wait_for(&visitor, "[data-tv-players]", 5).await;
    assert_eq!(text(&visitor, "[data-tv-players]").await, "Black vs White");
    assert_in_viewport(&visitor, "[data-tv] .board", "the live board").await;
    let listed = text(&visitor, "[data-live] li").await;
    assert!(listed.contains("6 × 6 · 10+5 · moves: 1"), "{listed}");
    screenshot(&visitor, "start-live-phone").await;
    click(&visitor, "[data-watch]").await;
    wait_status(&visitor, &["their-move"], 10).await;
    assert_eq!(
        attr(&visitor, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("watching")
    );
    play_one(&players).await;
    wait_more_moves(&visitor, 1, "the spectator did not see the move").await;
    assert_no_console_errors(&players, "players").await;
    assert_no_console_errors(&visitor, "visitor").await;
    for c in [players, visitor] {
        c.close().await.unwrap();
    }
}
