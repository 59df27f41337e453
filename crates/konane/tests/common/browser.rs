//! The browser tests' rig: the real `konane serve`, chromedriver, fresh Chromium profiles,
//! and the small helpers every browser test uses (waiting for a status, clicking a move,
//! screenshots, the browser's console log).

#![allow(dead_code)]

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use super::common;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Chromedriver in a process group of its own, killed with every browser it started: killing
/// chromedriver alone leaves its Chromium processes running (hundreds of MB each) after the
/// test, and a test run of many rigs then slows down everything after it.
struct Group(Child);

impl Drop for Group {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

/// Everything one test needs: the server, chromedriver, and a folder for browser profiles.
pub struct Rig {
    pub base: String,
    driver: String,
    dir: std::path::PathBuf,
    _server: Killed,
    _chromedriver: Group,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn browsers_present() -> bool {
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

pub fn rig(tag: &str) -> Rig {
    rig_serving(tag, common::serve)
}

/// A rig whose server runs at the default pace of the engine playing itself (the tests'
/// servers are faster).
pub fn rig_at_default_pace(tag: &str) -> Rig {
    rig_serving(tag, common::serve_at_default_pace)
}

/// A rig whose server runs no engine (`--engine-threads 0`).
pub fn rig_without_engine(tag: &str) -> Rig {
    rig_serving(tag, common::serve_without_engine)
}

fn rig_serving(tag: &str, serve: fn(&std::path::Path) -> (Child, String)) -> Rig {
    let dir = std::env::temp_dir().join(format!("konane-browser-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (server, base) = serve(&dir);
    let port = free_port();
    let chromedriver = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
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
        _chromedriver: Group(chromedriver),
    }
}

impl Rig {
    /// The server's database, as a URL.
    pub fn database(&self) -> String {
        format!("sqlite://{}", self.dir.join("konane.db").display())
    }

    /// Stops the server for good (the site offline); the browsers stay.
    pub fn stop_server(&mut self) {
        let _ = self._server.0.kill();
        let _ = self._server.0.wait();
    }

    /// A fresh browser (its own profile, so its own seat tokens) at `width` x `height`.
    pub async fn browser(&self, name: &str, width: u32, height: u32) -> Client {
        self.browser_speaking(name, width, height, "en-US").await
    }

    /// A fresh browser whose preferred language is `language` (`navigator.languages`).
    pub async fn browser_speaking(
        &self,
        name: &str,
        width: u32,
        height: u32,
        language: &str,
    ) -> Client {
        let profile = self.dir.join(name);
        std::fs::create_dir_all(&profile).unwrap();
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", format!("--user-data-dir={}", profile.display()),
                         format!("--window-size={width},{height}"), format!("--lang={language}")],
                "prefs": { "intl.accept_languages": language }
            },
            "goog:loggingPrefs": { "browser": "ALL" }
        });
        let caps = caps.as_object().unwrap().clone().into_iter().collect();
        let c = ClientBuilder::rustls()
            .expect("a TLS setup")
            .capabilities(caps)
            .connect(&self.driver)
            .await
            .expect("chromedriver gives a session");
        // The window's size is not the page's (the window counts its frame, and is never
        // narrower than 500 px): the page's own viewport is set to exactly the size asked for.
        emulate_screen(&c, width, height).await;
        c
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    let e = c.find(Locator::Css(css)).await.ok()?;
    e.attr(name).await.ok().flatten()
}

pub async fn text(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

pub async fn moves(c: &Client) -> Vec<String> {
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
pub async fn wait_status(c: &Client, wanted: &[&str], secs: u64) -> String {
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
pub async fn click_a_move(c: &Client) {
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
pub async fn play_to_the_end(c: &Client, secs: u64) {
    loop {
        let before = moves(c).await.len();
        if wait_status(c, &["your-move", "finished"], secs).await == "finished" {
            return;
        }
        click_a_move(c).await;
        wait_more_moves(c, before, "the move did not register").await;
    }
}

/// Waits until the move list of `c` holds more than `before` moves; fails saying `what`.
pub async fn wait_more_moves(c: &Client, before: usize, what: &str) {
    let what = || what.to_string();
    eventually(5, what, || async {
        (moves(c).await.len() > before).then_some(())
    })
    .await;
}

/// Makes one move by clicking and waits until the move list has it.
pub async fn play_one(c: &Client) {
    let before = moves(c).await.len();
    click_a_move(c).await;
    wait_more_moves(c, before, "the move did not register").await;
}

/// Clicks the element `css` names. A click that lands on another element is tried again for
/// a while, as a player would: a page that is still thinking may move a button between
/// WebDriver's scroll and its click (CI saw that once); one that stays covered still fails.
pub async fn click(c: &Client, css: &str) {
    use fantoccini::error::{CmdError, ErrorStatus};
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        match wait_for(c, css, 10).await.click().await {
            Err(CmdError::Standard(e))
                if e.error == ErrorStatus::ElementClickIntercepted && Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            result => return result.unwrap(),
        }
    }
}

pub async fn screenshot(c: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    // A stone still sliding or fading would be caught halfway: the picture waits for the
    // page's finite animations (two seconds at most; a spinner never ends).
    let _ = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const finite = document.getAnimations()
                 .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime));
             Promise.race([
                 Promise.all(finite.map((a) => a.finished.catch(() => {}))),
                 new Promise((r) => setTimeout(r, 2000)),
             ]).then(() => done(null));",
            vec![],
        )
        .await;
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Chooses a setting of the start screen: its chip (a radio button) when it has one, else
/// the menu (`<select data-option=…>`) that holds it.
pub async fn set_option(c: &Client, name: &str, value: &str) {
    // The start screen draws itself once its strings have loaded.
    wait_for(c, "[data-start=engine]", 10).await;
    c.execute(
        "const [name, value] = arguments;
         const radio = document.querySelector(`input[type=radio][name='${name}'][value='${value}']`);
         const target = radio || document.querySelector(`select[data-option='${name}']`);
         if (radio) radio.checked = true; else target.value = value;
         target.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![json!(name), json!(value)],
    )
    .await
    .unwrap();
}

/// Follows a link of the header's pages, opening the phone's menu first when it is folded.
pub async fn nav_to(c: &Client, page: &str) {
    open_menu(c).await;
    click(c, &format!("[data-nav-link={page}]")).await;
}

/// Opens the header's menu when it is folded (on a phone); does nothing otherwise.
pub async fn open_menu(c: &Client) {
    wait_for(c, "[data-menu]", 10).await;
    let folded = c
        .execute(
            "const b = document.querySelector('[data-menu]'); return !!b && getComputedStyle(b).display !== 'none' && b.getAttribute('aria-expanded') !== 'true';",
            vec![],
        )
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if folded {
        click(c, "[data-menu]").await;
    }
}

/// Whether the element `css` is shown (laid out, not `hidden` or `display: none`).
pub async fn shown(c: &Client, css: &str) -> bool {
    c.execute(
        "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;",
        vec![json!(css)],
    )
    .await
    .ok()
    .and_then(|v| v.as_bool())
    .unwrap_or(false)
}

/// The box of the element `css` in the viewport: `[left, top, right, bottom]`.
pub async fn rect(c: &Client, css: &str) -> [f64; 4] {
    let v = c
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];",
            vec![json!(css)],
        )
        .await
        .unwrap_or_else(|e| panic!("no box for {css}: {e}"));
    let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    [n(0), n(1), n(2), n(3)]
}

/// Fails unless the element `css` lies wholly inside the browser's viewport.
pub async fn assert_in_viewport(c: &Client, css: &str, what: &str) {
    let [left, top, right, bottom] = rect(c, css).await;
    let size = c
        .execute("return [innerWidth, innerHeight];", vec![])
        .await
        .unwrap();
    let (w, h) = (size[0].as_f64().unwrap(), size[1].as_f64().unwrap());
    assert!(
        left >= -0.5 && top >= -0.5 && right <= w + 0.5 && bottom <= h + 0.5,
        "{what}: {css} at [{left}, {top}, {right}, {bottom}] is not inside the {w}x{h} viewport"
    );
}

/// The browser console's log since the last call (chromedriver's `se/log`).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type": "browser"}"#.into()))
    }
}

/// Forgets the console's log so far: the refusals a test asked for on purpose show there
/// as failed loads.
pub async fn clear_console(c: &Client) {
    c.issue_cmd(BrowserLog)
        .await
        .expect("chromedriver gives the console log");
}

/// Fails when the page wrote an error to the console since the last call.
pub async fn assert_no_console_errors(c: &Client, what: &str) {
    assert_no_console_errors_but(c, what, &[]).await;
}

/// Fails when the page wrote an error to the console since the last call, other than
/// those whose text holds one of `expected`.
pub async fn assert_no_console_errors_but(c: &Client, what: &str, expected: &[&str]) {
    let log = c
        .issue_cmd(BrowserLog)
        .await
        .expect("chromedriver gives the console log");
    let errors: Vec<&Value> = log
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e["level"] == "SEVERE" || e["level"] == "WARNING")
                .filter(|e| {
                    let message = e["message"].as_str().unwrap_or_default();
                    !expected.iter().any(|x| message.contains(x))
                })
                .collect()
        })
        .unwrap_or_default();
    assert!(
        errors.is_empty(),
        "{what}: the console has errors: {errors:#?}"
    );
}

/// Waits until `css` finds an element, and returns it.
pub async fn wait_for(c: &Client, css: &str, secs: u64) -> fantoccini::elements::Element {
    let what = || format!("{css} never appeared");
    eventually(secs, what, || async {
        c.find(Locator::Css(css)).await.ok()
    })
    .await
}

/// Presses keys (characters or `fantoccini::key::Key` codes) on whatever has the focus.
pub async fn press(c: &Client, keys: &str) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let mut actions = KeyActions::new("keyboard".into());
    for ch in keys.chars() {
        actions = actions
            .then(KeyAction::Down { value: ch })
            .then(KeyAction::Up { value: ch });
    }
    c.perform_actions(actions).await.expect("keys pressed");
}

/// Whether the focused element matches `css`.
pub async fn focused(c: &Client, css: &str) -> bool {
    c.execute(
        "return !!document.activeElement && document.activeElement.matches(arguments[0]);",
        vec![json!(css)],
    )
    .await
    .ok()
    .and_then(|v| v.as_bool())
    .unwrap_or(false)
}

/// Presses Tab (or Shift+Tab) until the focus is on `css`, as a keyboard user would.
pub async fn tab_to(c: &Client, css: &str, backwards: bool) {
    use fantoccini::key::Key;
    for _ in 0..80 {
        if focused(c, css).await {
            return;
        }
        if backwards {
            use fantoccini::actions::{InputSource, KeyAction, KeyActions};
            let shift = (*Key::Shift).chars().next().unwrap();
            let tab = (*Key::Tab).chars().next().unwrap();
            let keys = KeyActions::new("keyboard".into())
                .then(KeyAction::Down { value: shift })
                .then(KeyAction::Down { value: tab })
                .then(KeyAction::Up { value: tab })
                .then(KeyAction::Up { value: shift });
            c.perform_actions(keys).await.unwrap();
        } else {
            press(c, &Key::Tab).await;
        }
    }
    panic!("Tab never reached {css}");
}

/// Drags with the mouse from the middle of one square to the middle of another.
pub async fn drag(c: &Client, from: &str, to: &str) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let centre = |name: &str| {
        let name = name.to_string();
        async move {
            let v = c
                .execute(
                    "const r = document.querySelector(`[data-square=\"${arguments[0]}\"]`).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];",
                    vec![json!(name)],
                )
                .await
                .unwrap();
            (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
        }
    };
    let (x0, y0) = centre(from).await;
    let (x1, y1) = centre(to).await;
    let step = Some(Duration::from_millis(150));
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0,
            y: y0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveTo {
            duration: step,
            x: (x0 + x1) / 2.0,
            y: (y0 + y1) / 2.0,
        })
        .then(PointerAction::MoveTo {
            duration: step,
            x: x1,
            y: y1,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse)
        .await
        .expect("the drag is performed");
}

/// The strings of one language, as the page has them.
pub fn strings(code: &str) -> serde_json::Map<String, Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../web/i18n/{code}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Chooses a language with the header's switch.
pub async fn choose_language(c: &Client, code: &str) {
    wait_for(c, "[data-language]", 10).await;
    c.execute(
        "const s = document.querySelector('[data-language]'); s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));",
        vec![json!(code)],
    )
    .await
    .unwrap();
    let what = || format!("the language never became {code}");
    eventually(5, what, || async {
        (attr(c, "html", "lang").await.as_deref() == Some(code)).then_some(())
    })
    .await;
}

/// Waits until nothing matches `css`.
pub async fn wait_gone(c: &Client, css: &str) {
    let what = || format!("{css} stayed");
    eventually(5, what, || async {
        c.find(Locator::Css(css)).await.is_err().then_some(())
    })
    .await;
}

/// Polls `check` every 30 ms until it gives `Some`, or fails after `secs` saying `what`.
pub async fn eventually<T, F, Fut>(secs: u64, what: impl Fn() -> String, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(found) = check().await {
            return found;
        }
        assert!(Instant::now() < deadline, "{}", what());
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// A Chrome DevTools command through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(Value);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// Makes the page see the given `prefers-color-scheme` and `prefers-reduced-motion`.
pub async fn emulate(c: &Client, scheme: &str, motion: &str) {
    let features = json!([
        { "name": "prefers-color-scheme", "value": scheme },
        { "name": "prefers-reduced-motion", "value": motion },
    ]);
    c.issue_cmd(Cdp(json!({
        "cmd": "Emulation.setEmulatedMedia",
        "params": { "features": features },
    })))
    .await
    .expect("chromedriver emulates media features");
}

/// Makes the page's viewport `width` x `height` CSS pixels; below 820 px wide, a phone's
/// (a touch screen that honours the page's viewport tag).
pub async fn emulate_screen(c: &Client, width: u32, height: u32) {
    let mobile = width < 820;
    c.issue_cmd(Cdp(json!({
        "cmd": "Emulation.setDeviceMetricsOverride",
        "params": { "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile },
    })))
    .await
    .expect("chromedriver emulates the screen");
}

/// axe-core's script, read once; none when it is not installed, which only a run outside
/// CI may allow (it says so).
pub fn axe_source() -> Option<&'static str> {
    static AXE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    AXE.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/axe/node_modules/axe-core/axe.min.js");
        let source = std::fs::read_to_string(&path).ok();
        if source.is_none() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{} is missing: CI must run `npm ci --prefix crates/konane/tests/axe`",
                path.display()
            );
            eprintln!(
                "SKIPPED: the axe check ({} is missing): run `npm ci --prefix crates/konane/tests/axe`",
                path.display()
            );
        }
        source
    })
    .as_deref()
}

/// Runs axe-core on the page, when it is installed; fails on any serious or critical
/// violation.
pub async fn check_accessibility(c: &Client, page: &str) {
    let Some(axe) = axe_source() else { return };
    c.execute(axe, vec![]).await.expect("axe loads");
    let result = c
        .execute_async(
            "axe.run(document, { resultTypes: ['violations'] }).then(r => arguments[0](r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary) }))));",
            vec![],
        )
        .await
        .expect("axe runs");
    let serious: Vec<&Value> = result
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .collect();
    assert!(serious.is_empty(), "{page}: {serious:#?}");
}

/// The password every test account uses.
pub const PASSWORD: &str = "a good long password";

/// Types `value` into the input at `css`, emptied first.
pub async fn fill(c: &Client, css: &str, value: &str) {
    let input = wait_for(c, css, 10).await;
    input.clear().await.unwrap();
    input.send_keys(value).await.unwrap();
}

/// Registers `name` on the account screen, which logs this browser in.
pub async fn register(c: &Client, base: &str, name: &str) {
    c.goto(&format!("{base}/account")).await.unwrap();
    fill(c, "[data-form='register'] [data-field='name']", name).await;
    fill(
        c,
        "[data-form='register'] [data-field='password']",
        PASSWORD,
    )
    .await;
    click(c, "[data-form='register'] button[type='submit']").await;
    wait_for(c, &format!("[data-account-name='{name}']"), 10).await;
}
