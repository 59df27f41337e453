//! Puzzles in a real headless Chromium against the real `konane serve`: one solved by
//! clicking, one failed with its refutation on the board, "Try again" and "Show the
//! solution", the streak advancing, the daily puzzle the same in two browsers, and
//! screenshots at phone and desktop size in the light and the dark theme
//! (target/screenshots/puzzle-*.png).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use fantoccini::Client;
use konane_engine::puzzle::Puzzle;
use rig::*;

const SET: &str = include_str!("../../../data/puzzles.txt");

fn set() -> Vec<Puzzle> {
    Puzzle::parse_set(SET).expect("the shipped set reads")
}

fn by_id(id: &str) -> Puzzle {
    set()
        .into_iter()
        .find(|p| p.id.as_str() == id)
        .unwrap_or_else(|| panic!("no puzzle {id}"))
}

fn text_of(p: &Puzzle, i: usize) -> String {
    p.position.size().move_text(p.line[i]).to_string()
}

async fn wait_attr(c: &Client, css: &str, name: &str, wanted: &str) {
    let what = || format!("{css} {name} never became {wanted}");
    eventually(10, what, || async {
        (attr(c, css, name).await.as_deref() == Some(wanted)).then_some(())
    })
    .await;
}

/// Clicks the stone of `mv`, then its landing square, once the board offers them.
async fn click_jump(c: &Client, mv: &str) {
    let (from, to) = mv.split_once('-').expect("a jump");
    click(c, &format!("[data-square={from}][data-action=select]")).await;
    click(c, &format!("[data-square={to}][data-action=target]")).await;
}

/// The puzzle the page shows.
async fn shown(c: &Client) -> Puzzle {
    let id = eventually(
        10,
        || "no puzzle shown".into(),
        || async { attr(c, "[data-puzzle]", "data-puzzle").await },
    )
    .await;
    by_id(&id)
}

/// Plays the whole line by clicking, waiting for each reply to be on the board.
async fn solve(c: &Client, p: &Puzzle) {
    for step in 0..p.steps() {
        click_jump(c, &text_of(p, 2 * step)).await;
        if step + 1 < p.steps() {
            let after = p.position_at(step + 1).unwrap().to_string();
            wait_attr(c, "[data-puzzle]", "data-position", &after).await;
        }
    }
    wait_attr(c, "[data-puzzle]", "data-result", "solved").await;
}

#[tokio::test]
async fn solve_fail_retry_and_the_solution() {
    if !browsers_present() {
        return;
    }
    let rig = rig("puzzles");
    let p = set()
        .into_iter()
        .find(|p| p.position.size().to_string() == "6x6" && p.steps() == 2)
        .expect("a 6x6 puzzle of two steps");
    let c = rig.browser("solver", 1280, 900).await;
    c.goto(&format!("{}/puzzles/{}", rig.base, p.id))
        .await
        .unwrap();
    assert_eq!(shown(&c).await, p);
    solve(&c, &p).await;
    screenshot(&c, "puzzle-solved-desktop-light").await;

    // The same puzzle, a wrong first move: refuted on the board, then tried again.
    c.goto(&format!("{}/puzzles/{}", rig.base, p.id))
        .await
        .unwrap();
    shown(&c).await;
    let size = p.position.size();
    let (wrong, answer) = *p.refutations[0]
        .iter()
        .find(|(w, _)| w.jump_shape(size).is_some())
        .expect("a wrong jump");
    click_jump(&c, &size.move_text(wrong).to_string()).await;
    wait_attr(&c, "[data-puzzle]", "data-result", "failed").await;
    let answer = size.move_text(answer).to_string();
    let (_, to) = answer.split_once('-').expect("the answer is a jump");
    // The refutation is the last move drawn: its landing square holds the opponent's stone.
    let stone = if p.position.turn().name() == "black" {
        "white"
    } else {
        "black"
    };
    let label = attr(&c, &format!("[data-square={to}]"), "aria-label")
        .await
        .unwrap_or_default();
    assert!(label.to_lowercase().contains(stone), "{to}: {label}");
    assert!(text(&c, "[data-puzzle-feedback]").await.contains(&answer));
    screenshot(&c, "puzzle-failed-desktop-light").await;
    click(&c, "[data-puzzle-solution]").await;
    assert!(
        text(&c, "[data-puzzle-feedback]")
            .await
            .contains(&text_of(&p, 0))
    );
    click(&c, "[data-puzzle-retry]").await;
    wait_for(&c, "[data-puzzle]:not([data-result])", 10).await;
    solve(&c, &p).await;
    assert_no_console_errors(&c, "puzzles").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_streak_advances_and_the_daily_puzzle_is_shared() {
    if !browsers_present() {
        return;
    }
    let rig = rig("puzzle-streak");
    let c = rig.browser("streaker", 1280, 900).await;
    c.goto(&format!("{}/puzzles?mode=streak", rig.base))
        .await
        .unwrap();
    let first = shown(&c).await;
    solve(&c, &first).await;
    assert!(text(&c, "[data-streak]").await.contains('1'));
    click(&c, "[data-puzzle-next]").await;
    let what = || "the next puzzle never came".to_string();
    let second_id = eventually(10, what, || async {
        attr(&c, "[data-puzzle]:not([data-result])", "data-puzzle").await
    })
    .await;
    assert_ne!(second_id, first.id.to_string());
    let second = by_id(&second_id);
    solve(&c, &second).await;
    assert!(text(&c, "[data-streak]").await.contains('2'));

    let a = rig.browser("daily-a", 390, 844).await;
    let b = rig.browser("daily-b", 1280, 900).await;
    for x in [&a, &b] {
        x.goto(&format!("{}/puzzles/daily", rig.base))
            .await
            .unwrap();
    }
    assert_eq!(shown(&a).await, shown(&b).await);
    for (client, size) in [(&a, "phone"), (&b, "desktop")] {
        for scheme in ["light", "dark"] {
            emulate(client, scheme, "no-preference").await;
            screenshot(client, &format!("puzzle-daily-{size}-{scheme}")).await;
        }
    }
    for x in [c, a, b] {
        x.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_logged_in_player_is_rated_on_the_server_and_the_profile_shows_it() {
    if !browsers_present() {
        return;
    }
    let rig = rig("puzzle-account");
    let c = rig.browser("account", 1280, 900).await;
    c.goto(&format!("{}/account", rig.base)).await.unwrap();
    for (field, value) in [("name", "Pua"), ("password", "a good long password")] {
        let input = wait_for(
            &c,
            &format!("[data-form='register'] [data-field='{field}']"),
            10,
        )
        .await;
        input.send_keys(value).await.unwrap();
    }
    click(&c, "[data-form='register'] button[type='submit']").await;
    wait_for(&c, "[data-account-name='Pua']", 10).await;
    // A browser rating far from the newcomer's must not be what the page uses or sends.
    c.execute(
        "localStorage.setItem('konane.puzzle-rating', JSON.stringify({rating: 2900, deviation: 50, volatility: 0.06}));",
        vec![],
    )
    .await
    .unwrap();
    c.goto(&format!("{}/puzzles", rig.base)).await.unwrap();
    let p = shown(&c).await;
    assert!(text(&c, "[data-player-rating]").await.contains("1500?"));
    solve(&c, &p).await;
    let mine = text(&c, "[data-player-rating]").await;
    let css = "[data-rating='puzzles'] [data-rating-value]";
    c.goto(&format!("{}/@/Pua", rig.base)).await.unwrap();
    wait_for(&c, css, 10).await;
    let on_profile = text(&c, css).await;
    let rating: i64 = on_profile.trim_end_matches('?').parse().unwrap();
    assert!(rating > 1500 && rating < 2000, "{on_profile}");
    assert!(mine.contains(&on_profile), "{mine} / {on_profile}");
    assert_no_console_errors(&c, "a logged-in player's puzzle").await;
    for scheme in ["light", "dark"] {
        emulate(&c, scheme, "reduce").await;
        screenshot(&c, &format!("puzzle-profile-desktop-{scheme}")).await;
    }
    emulate_screen(&c, 390, 844).await;
    for scheme in ["light", "dark"] {
        emulate(&c, scheme, "reduce").await;
        screenshot(&c, &format!("puzzle-profile-phone-{scheme}")).await;
    }
    c.close().await.unwrap();
}
