//! The computer played by the browser's engine (web/computer.js), in a real headless
//! Chromium against a real `konane serve --engine-threads 0`: whole games at level 2 and 8,
//! the computer playing itself, a page closed on the computer's turn, two pages of one seat,
//! and the fallback of a browser that cannot run the worker. The browser's choices are the
//! server engine's for the same seed.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;
#[path = "common/browser.rs"]
mod rig;

use fantoccini::Client;
use konane_core::{AnyPosition, Game, Opening};
use konane_engine::{Level, Rng};
use konane_server::games::engine_pool::EnginePool;
use rig::*;
use serde_json::{Value, json};

/// The game the page shows, from its address.
async fn shown_game(c: &Client) -> String {
    let what = || "the page never opened a game".to_string();
    eventually(10, what, || async {
        let url = c.current_url().await.ok()?;
        url.path().strip_prefix("/game/").map(str::to_string)
    })
    .await
}

async fn api_game(base: &str, id: &str) -> Value {
    reqwest::get(format!("{base}/api/games/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Starts a game against the computer from the start screen as Black.
async fn start_against(c: &Client, base: &str, size: &str, level: u8) -> String {
    c.goto(&format!("{base}/")).await.unwrap();
    set_option(c, "size", size).await;
    set_option(c, "level", &level.to_string()).await;
    set_option(c, "color", "black").await;
    click(c, "[data-start=engine]").await;
    wait_for(c, "[data-status]", 10).await;
    shown_game(c).await
}

/// The server's engine, as it would have played each of the computer's moves of a finished
/// game `g` (no take-backs, so the computer's move at ply `p` had sequence number `p + 1`).
async fn server_choices(g: &Value, computer: usize) -> Vec<(String, String)> {
    let id = g["id"].as_str().unwrap();
    let level = Level::new(g["level"].as_i64().unwrap()).unwrap();
    let pool = EnginePool::new(1);
    let mut game = Game::new(
        g["size"].as_str().unwrap().parse().unwrap(),
        g["opening"].as_str().unwrap().parse().unwrap(),
    );
    let mut out = Vec::new();
    for (ply, played) in g["moves"].as_array().unwrap().iter().enumerate() {
        let played = played.as_str().unwrap().to_string();
        if ply % 2 == computer {
            let pos = *game.position();
            let seed = konane_server::games::game::browser_seed(id, ply as i64 + 1);
            let m = pool.choose("test", pos, level, seed).await.unwrap();
            out.push((pos.move_text(m), played.clone()));
        }
        game.play_text(&played).unwrap();
    }
    out
}

#[tokio::test]
async fn a_whole_game_at_level_2_is_played_by_the_browser_as_the_server_would() {
    if !browsers_present() {
        return;
    }
    let rig = rig_without_engine("computer-level2");
    let c = rig.browser("player", 1280, 900).await;
    let id = start_against(&c, &rig.base, "8x8", 2).await;
    // A second page of the same seat: both think, the server takes one move, and the other
    // page's late refusal stays silent.
    let first = c.window().await.unwrap();
    let second = c.new_window(true).await.unwrap().handle;
    c.switch_to_window(second.clone()).await.unwrap();
    c.goto(&format!("{}/game/{id}", rig.base)).await.unwrap();
    wait_for(&c, "[data-status]", 10).await;
    c.switch_to_window(first).await.unwrap();
    play_to_the_end(&c, 30).await;
    let g = api_game(&rig.base, &id).await;
    assert_eq!(g["engine_host"], "browser");
    assert_eq!(g["result"]["reason"], "no_moves", "{g}");
    let choices = server_choices(&g, 1).await;
    assert!(choices.len() >= 5, "{g}");
    for (ply, (server, browser)) in choices.iter().enumerate() {
        assert_eq!(server, browser, "the computer's move {ply} of {g}");
    }
    screenshot(&c, "computer-browser-level2-desktop").await;
    assert_eq!(text(&c, "[data-notice]").await, "");
    assert_no_console_errors_but(&c, "a game the browser's computer plays", &["409"]).await;
    c.switch_to_window(second).await.unwrap();
    wait_status(&c, &["finished"], 10).await;
    assert_eq!(
        text(&c, "[data-notice]").await,
        "",
        "the late page says nothing"
    );
    assert_no_console_errors_but(&c, "the second page of the seat", &["409"]).await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn a_whole_game_at_level_8_waits_while_the_page_is_closed() {
    if !browsers_present() {
        return;
    }
    let rig = rig_without_engine("computer-level8");
    let c = rig.browser("player", 390, 844).await;
    emulate(&c, "dark", "no-preference").await;
    let id = start_against(&c, &rig.base, "6x6", 8).await;
    wait_status(&c, &["your-move"], 10).await;
    play_one(&c).await;
    // The page closes while the computer thinks (level 8 thinks about a second): nobody
    // plays its move, and the reopened page does.
    c.goto(&format!("{}/rules", rig.base)).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let g = api_game(&rig.base, &id).await;
    assert_eq!(g["ply"], 1, "{g}");
    assert!(g["engine_seed"].is_u64(), "{g}");
    c.goto(&format!("{}/game/{id}", rig.base)).await.unwrap();
    play_to_the_end(&c, 30).await;
    let g = api_game(&rig.base, &id).await;
    assert_eq!(g["result"]["reason"], "no_moves", "{g}");
    assert_eq!(g["players"]["white"]["level"], 8);
    screenshot(&c, "computer-browser-level8-phone-dark").await;
    assert_no_console_errors(&c, "level 8 in the browser").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn the_watching_page_plays_the_computer_against_itself() {
    if !browsers_present() {
        return;
    }
    let rig = rig_without_engine("computer-watch");
    let c = rig.browser("watcher", 390, 844).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    set_option(&c, "size", "6x6").await;
    set_option(&c, "level", "1").await;
    click(&c, "[data-start=watch]").await;
    let id = shown_game(&c).await;
    // A spectator in another browser holds no token: its page only watches.
    let spectator = rig.browser("spectator", 1280, 900).await;
    spectator
        .goto(&format!("{}/game/{id}", rig.base))
        .await
        .unwrap();
    wait_status(&c, &["finished"], 90).await;
    wait_status(&spectator, &["finished"], 10).await;
    assert_eq!(moves(&spectator).await, moves(&c).await);
    assert_no_console_errors(&spectator, "a spectator of the browser's computer").await;
    assert_eq!(
        attr(&c, "[data-you-play]", "data-you-play")
            .await
            .as_deref(),
        Some("watching")
    );
    assert!(moves(&c).await.len() >= 3);
    let g = api_game(&rig.base, &id).await;
    assert_eq!(g["engine_host"], "browser");
    assert_eq!(g["result"]["reason"], "no_moves");
    screenshot(&c, "computer-browser-watch-phone").await;
    assert_no_console_errors(&c, "watching the browser's computer").await;
    c.close().await.unwrap();
}

/// Makes the page look like an old browser, without `Worker` or `WebAssembly`: the name is
/// not even defined.
async fn without(c: &Client, name: &str) {
    c.execute("delete window[arguments[0]];", vec![json!(name)])
        .await
        .unwrap();
    let gone = c
        .execute("return typeof window[arguments[0]];", vec![json!(name)])
        .await
        .unwrap();
    assert_eq!(gone, "undefined", "{name} stayed");
}

#[tokio::test]
async fn a_browser_without_workers_falls_back_to_the_servers_engine_or_says_there_is_none() {
    if !browsers_present() {
        return;
    }
    let rig = rig("computer-fallback");
    let c = rig.browser("old", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    wait_for(&c, "[data-start=engine]", 10).await;
    without(&c, "Worker").await;
    set_option(&c, "size", "6x6").await;
    set_option(&c, "color", "white").await;
    click(&c, "[data-start=engine]").await;
    let id = shown_game(&c).await;
    wait_status(&c, &["your-move"], 20).await;
    let g = api_game(&rig.base, &id).await;
    assert_eq!(g["engine_host"], "server", "{g}");
    assert_eq!(g["ply"], 1);
    assert_no_console_errors(&c, "the server's engine for an old browser").await;
    drop(rig);

    let rig = rig_without_engine("computer-none");
    for (language, size, scheme, missing) in [
        ("en", (1280, 900), "light", "WebAssembly"),
        ("de", (390, 844), "dark", "Worker"),
        ("cs", (390, 844), "light", "Worker"),
    ] {
        let c = rig
            .browser(&format!("old-{language}"), size.0, size.1)
            .await;
        emulate(&c, scheme, "no-preference").await;
        c.goto(&format!("{}/", rig.base)).await.unwrap();
        choose_language(&c, language).await;
        wait_for(&c, "[data-start=engine]", 10).await;
        without(&c, missing).await;
        click(&c, "[data-start=engine]").await;
        let words = strings(language)["error.engine_unavailable"]
            .as_str()
            .unwrap()
            .to_string();
        let what = || format!("{language}: the start screen never said the computer is off");
        eventually(10, what, || async {
            text(&c, "[data-notice]")
                .await
                .contains(&words)
                .then_some(())
        })
        .await;
        screenshot(&c, &format!("computer-none-{language}-{scheme}")).await;
        assert_no_console_errors_but(&c, "no computer anywhere", &["503"]).await;
        c.close().await.unwrap();
    }
}

/// Levels 1 to 4 stop at a depth, so the seed alone decides their move: the browser's
/// engine, asked as web/computer.js asks it, chooses what the server's pool chooses.
/// (Levels 5 to 8 stop on the clock, and a seed cannot make two machines equally fast.)
#[tokio::test]
async fn the_browser_chooses_what_the_servers_pool_chooses_for_the_same_seed() {
    if !browsers_present() {
        return;
    }
    let rig = rig_without_engine("computer-seeds");
    let c = rig.browser("player", 1280, 900).await;
    c.goto(&format!("{}/", rig.base)).await.unwrap();
    let pool = EnginePool::new(1);
    let mut asked = Vec::new();
    let mut expected = Vec::new();
    for (size, plies) in [("6x6", 4usize), ("8x8", 2), ("8x8", 11), ("10x10", 7)] {
        let mut rng = Rng::new(plies as u64);
        let mut game = Game::new(size.parse().unwrap(), Opening::CenterOrCorner);
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        let pos: AnyPosition = *game.position();
        for seed in [3u64, 41, (1 << 53) - 1] {
            for level in 1..=4u8 {
                asked.push(json!({"position": pos.to_string(), "level": level, "seed": seed}));
                let m = pool
                    .choose("test", pos, Level::new(level.into()).unwrap(), seed)
                    .await
                    .unwrap();
                expected.push(json!(pos.move_text(m)));
            }
        }
    }
    let script = r#"
        const [asked, done] = arguments;
        import("/engine.js").then(async ({ Engine }) => {
            const engine = new Engine();
            const out = [];
            for (const a of asked) {
                await engine.newGame();
                out.push((await engine.choose(a.position, "center-or-corner", a.level, a.seed)).move);
            }
            done(out);
        }, (e) => done([String(e)]));
    "#;
    let browser = c.execute_async(script, vec![json!(asked)]).await.unwrap();
    assert_eq!(browser.as_array().map(Vec::len), Some(asked.len()));
    for ((a, b), n) in asked.iter().zip(browser.as_array().unwrap()).zip(&expected) {
        assert_eq!(b, n, "{a}");
    }
    assert_no_console_errors(&c, "choosing for the server's seeds").await;
}

#[tokio::test]
async fn a_worker_that_cannot_start_is_tried_again_and_then_worded() {
    if !browsers_present() {
        return;
    }
    let rig = rig_without_engine("computer-trouble");
    let c = rig.browser("player", 390, 844).await;
    let id = start_against(&c, &rig.base, "6x6", 1).await;
    wait_status(&c, &["your-move"], 10).await;
    // From now on no worker starts: the computer's move is tried three times, then the
    // page says plainly that this browser could not play it.
    c.execute(
        "window.Worker = function () { throw new Error('no worker today'); };",
        vec![],
    )
    .await
    .unwrap();
    play_one(&c).await;
    let words = strings("en")["computer.failed"]
        .as_str()
        .unwrap()
        .to_string();
    let what = || "the page never said the computer could not move".to_string();
    eventually(10, what, || async {
        (text(&c, "[data-status]").await == words).then_some(())
    })
    .await;
    screenshot(&c, "computer-failed-phone").await;
    // It stays said, not only for a moment.
    tokio::time::sleep(std::time::Duration::from_secs(6)).await;
    assert_eq!(text(&c, "[data-status]").await, words);
    assert_eq!(api_game(&rig.base, &id).await["ply"], 1);
    assert_no_console_errors(&c, "a worker that cannot start").await;
    // A reload starts afresh, with a worker that runs.
    c.refresh().await.unwrap();
    wait_status(&c, &["your-move"], 15).await;
    assert_eq!(api_game(&rig.base, &id).await["ply"], 2);
    c.close().await.unwrap();
}
