//! The page in a real headless Chromium, driven through chromedriver, against the real
//! `konane serve`: whole games by clicking, a friend game across two browsers, a reload,
//! an illegal click, and screenshots at phone and desktop sizes (in `target/screenshots`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the tests say so and pass,
//! except under `CI=true`, where they must run.

mod common;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Everything one test needs: the server, chromedriver, and a folder for browser profiles.
struct Rig {
    base: String,
    driver: String,
    dir: std::path::PathBuf,
    _server: Killed,
    _chromedriver: Killed,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn browsers_present() -> bool {
    let present =
        std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists();
    if !present {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "chromium and chromedriver must be installed in CI: the browser tests may not be skipped"
        );
        eprintln!(
            "SKIPPED: browser tests need {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
        );
    }
    present
}

fn rig(tag: &str) -> Rig {
    let dir = std::env::temp_dir().join(format!("konane-browser-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (server, base) = common::serve(&dir);
    let port = free_port();
    let chromedriver = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Rig {
        base,
        driver: format!("http://127.0.0.1:{port}"),
        dir,
        _server: Killed(server),
        _chromedriver: Killed(chromedriver),
    }
}

impl Rig {
    /// A fresh browser (its own profile, so its own seat tokens) at `width` x `height`.
    async fn browser(&self, name: &str, width: u32, height: u32) -> Client {
        let profile = self.dir.join(name);
        std::fs::create_dir_all(&profile).unwrap();
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", format!("--user-data-dir={}", profile.display()),
                         format!("--window-size={width},{height}")]
            }
        });
        let caps = caps.as_object().unwrap().clone().into_iter().collect();
        ClientBuilder::rustls()
            .expect("a TLS setup")
            .capabilities(caps)
            .connect(&self.driver)
            .await
            .expect("chromedriver gives a session")
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    let e = c.find(Locator::Css(css)).await.ok()?;
    e.attr(name).await.ok().flatten()
}

async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn moves(c: &Client) -> Vec<String> {
    let mut out = Vec::new();
    for e in c
        .find_all(Locator::Css("[data-movelist] [data-move]"))
        .await
        .unwrap_or_default()
    {
        out.push(e.attr("data-move").await.ok().flatten().unwrap_or_default());
    }
    out
}

/// Waits until the status line says `wanted` (one of its `data-status` values).
async fn wait_status(c: &Client, wanted: &[&str], secs: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(s) = attr(c, "[data-status]", "data-status").await
            && wanted.contains(&s.as_str())
        {
            return s;
        }
        assert!(
            Instant::now() < deadline,
            "status never became {wanted:?}: {}",
            text(c, "[data-status]").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Makes one move by clicking: a removal, or a stone and then its first landing square.
async fn click_a_move(c: &Client) {
    if let Ok(e) = c.find(Locator::Css("[data-action=remove]")).await {
        e.click().await.unwrap();
        return;
    }
    c.find(Locator::Css("[data-action=select]"))
        .await
        .expect("a stone to move")
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("[data-action=target]"))
        .await
        .expect("a landing square")
        .click()
        .await
        .unwrap();
}

/// Clicks moves whenever it is this browser's turn, until the game ends.
async fn play_to_the_end(c: &Client, secs: u64) {
    loop {
        let before = moves(c).await.len();
        if wait_status(c, &["your-move", "finished"], secs).await == "finished" {
            return;
        }
        click_a_move(c).await;
        let deadline = Instant::now() + Duration::from_secs(secs);
        while moves(c).await.len() == before {
            assert!(Instant::now() < deadline, "the move did not register");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|_| panic!("no {css}"))
        .click()
        .await
        .unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Sets an option of the start screen's "Options" fold.
async fn set_option(c: &Client, name: &str, value: &str) {
    c.find(Locator::Css(".options summary"))
        .await
        .unwrap()
        .click()
        .await
        .ok();
    let js = format!(
        "const s = document.querySelector('[data-option={name}]'); s.value = '{value}'; s.dispatchEvent(new Event('change', {{bubbles: true}}));"
    );
    c.execute(&js, vec![]).await.unwrap();
}

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
        play_to_the_end(&c, 20).await;
        screenshot(&c, &format!("engine-game-over-{label}")).await;
        let end = text(&c, "[data-end]").await;
        assert!(end.contains("wins"), "{end}");
        assert!(end.contains("has no move left"), "{end}");
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
        let deadline = Instant::now() + Duration::from_secs(5);
        while moves(watcher).await.len() == before {
            assert!(
                Instant::now() < deadline,
                "the other browser did not see the move"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    wait_status(&kai, &["finished"], 5).await;
    assert_eq!(moves(&ana).await, moves(&kai).await);
    screenshot(&ana, "friend-desktop").await;
    screenshot(&kai, "friend-phone").await;
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
    for _ in 0..3 {
        let before = moves(&c).await.len();
        click_a_move(&c).await;
        let deadline = Instant::now() + Duration::from_secs(5);
        while moves(&c).await.len() == before {
            assert!(Instant::now() < deadline, "the move did not register");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    // An illegal click: a square nobody can act on explains itself and changes nothing.
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
    c.close().await.unwrap();
}
