// The page's shell: the header (pages, language, sound, the account) and the routes
// `/`, `/game/{id}`, `/learn`, `/rules`, `/history`, `/analysis`, `/puzzles` (and `/puzzles/{id}`),
// `/tournaments` (and `/tournaments/{id}`), `/account`, `/players` and `/@/{name}`, and `/play`
// (a game in this browser alone).
// Offline (offline.js) the screens that need the server say so instead.

import { accountScreen, sessionName } from "./account.js";
import { Board } from "./board.js";
import { h } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { gameScreen } from "./game.js";
import { learnScreen } from "./learn.js";
import { offlineGameScreen } from "./offline-game.js";
import { historyPage, rulesPage } from "./pages.js";
import { puzzlesScreen } from "./puzzles.js";
import { checkConnection, drawBanner, isOffline, keepForOffline, offlineScreen, onConnection } from "./offline.js";
import { bell, draw as drawBell, listen, stop } from "./notices.js";
import { muted, setMuted } from "./sound.js";
import { startScreen } from "./start.js";

const app = document.getElementById("app");
let cleanup = () => {};
let routes = 0;

/** The header's account link (the player's name, else "Log in") and, logged in, "My games". */
async function accountLink() {
  const name = await sessionName();
  const slot = document.querySelector("[data-account]");
  if (!slot) return;
  const here = location.pathname;
  slot.replaceChildren(name
    ? h("a", { href: "/account", "data-account-name": name, "aria-current": here === "/account" ? "page" : null }, name)
    : h("a", { href: "/account", "data-login-link": "", "aria-current": here === "/account" ? "page" : null }, t("account.login")));
  if (name) {
    listen();
    // Beside the menu, not in it: on a phone the bell stays in sight.
    document.getElementById("top")?.append(bell());
  } else {
    stop();
  }
  if (name) {
    const mine = `/@/${encodeURIComponent(name)}`;
    document.querySelector("#top nav")?.append(h("a", { href: mine, "data-nav-link": "my-games", "aria-current": here === mine ? "page" : null }, t("nav.my-games")));
  }
}

function header() {
  const here = location.pathname;
  const link = (path, key) => h("a", { href: path, "data-nav-link": key, "aria-current": here === path ? "page" : null }, t(`nav.${key}`));
  const sound = h("button", { type: "button", class: "mute", "data-mute": "", "aria-pressed": String(!muted()) }, t("sound.label"));
  sound.addEventListener("click", () => {
    setMuted(!muted());
    sound.setAttribute("aria-pressed", String(!muted()));
  });
  const choose = h("select", { "data-language": "", "aria-label": t("nav.language") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
  choose.addEventListener("change", async () => {
    await setLanguage(choose.value);
    await route();
    document.querySelector("[data-language]")?.focus();
  });
  // On a phone the pages and tools fold behind one button, so the header stays one row.
  const top = document.getElementById("top");
  const menu = h("div", { class: "menu", id: "site-menu" },
    h("nav", { "aria-label": t("nav.pages") }, link("/", "play"), link("/learn", "learn"), link("/puzzles", "puzzles"), link("/tournaments", "tournaments"), link("/analysis", "analysis"), link("/rules", "rules"), link("/history", "history")),
    h("div", { class: "tools" }, choose, sound, h("span", { class: "account-link", "data-account": "" })));
  const toggle = h("button", { type: "button", class: "menu-toggle", "data-menu": "", "aria-expanded": "false", "aria-controls": "site-menu" }, t("nav.menu"));
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    top.classList.toggle("menu-open", open);
  });
  top.classList.remove("menu-open");
  top.replaceChildren(
    h("a", { class: "skip", href: "#app" }, t("nav.skip")),
    h("a", { class: "brand", href: "/" }, "Kōnane"),
    toggle,
    menu);
  accountLink();
}

const GAME = /^\/game\/([a-z0-9]+)$/;
// The analysis board and its engine load only when opened: the other pages stay light.
const analysisScreen = async (app, go) => (await import("./analysis.js")).analysisScreen(app, go);
const profiles = () => import("./profile.js");
const playersScreen = async (app, go) => (await profiles()).leaderboardScreen(app, go);
const tournaments = () => import("./tournaments.js");
const tournamentsScreen = async (app, go) => (await tournaments()).tournamentsScreen(app, go);
const PAGES = { "/": startScreen, "/play": offlineGameScreen, "/learn": learnScreen, "/rules": rulesPage, "/history": historyPage, "/analysis": analysisScreen, "/account": accountScreen, "/players": playersScreen, "/tournaments": tournamentsScreen };
const PROFILE = /^\/@\/([^/]+)$/;
const PUZZLE = /^\/puzzles(\/[a-z0-9-]+)?$/;
const TOURNAMENT = /^\/tournaments\/([A-Za-z0-9_-]+)$/;
/** The pages that are only the server's: a game on it, puzzles, tournaments, players, the account. */
const needsServer = (path) => GAME.test(path) || PUZZLE.test(path) || PROFILE.test(path) || TOURNAMENT.test(path) || ["/players", "/account", "/tournaments"].includes(path);

function notFound() {
  document.title = `${t("page.not-found")} · Kōnane`;
  const picture = h("div", { class: "not-found-board" });
  app.replaceChildren(h("div", { class: "not-found", "data-not-found": "" },
    picture,
    h("div", {},
      h("p", { class: "code-404", "aria-hidden": "true" }, "404"),
      h("h1", {}, t("page.not-found")),
      h("p", { class: "lead" }, t("page.not-found-lead")),
      h("p", { class: "not-found-links" }, h("a", { href: "/", class: "button primary" }, t("end.new-game")), h("a", { href: "/learn", class: "button" }, t("nav.learn"))))));
  // A board with a stone gone: the page is missing like the stone.
  new Board(picture, {}).draw({ position: "bwbw/w.wb/bwbw/wbwb w", interactive: false, label: t("page.not-found-board") });
}

async function route() {
  cleanup();
  cleanup = () => {};
  const mine = ++routes;
  header();
  drawBanner();
  const path = location.pathname;
  const game = path.match(GAME);
  let stop = null;
  if (isOffline() && needsServer(path)) offlineScreen(app);
  else if (game) stop = await gameScreen(app, game[1], new URLSearchParams(location.search).has("join"), go);
  else if (path in PAGES) stop = await PAGES[path](app, go);
  else if (PUZZLE.test(path)) stop = await puzzlesScreen(app, path, go);
  else if (TOURNAMENT.test(path)) stop = await (await tournaments()).tournamentScreen(app, path.match(TOURNAMENT)[1], go);
  else if (PROFILE.test(path)) stop = await (await profiles()).profileScreen(app, decodeURIComponent(path.match(PROFILE)[1]), go);
  else notFound();
  // The new screen named the tab: the unread count goes back in front.
  drawBell();
  // A newer route started while this one loaded: this screen is already gone.
  if (mine !== routes) stop?.();
  else if (stop) cleanup = stop;
}

/** Opens `path` without reloading the page, and takes the focus to the new screen. */
async function go(path) {
  history.pushState(null, "", path);
  window.scrollTo(0, 0);
  await route();
  if (!app.contains(document.activeElement)) app.focus({ preventScroll: true });
}

// Links inside the page change screens without a reload.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest?.("a[href^='/']");
  const href = a?.getAttribute("href") ?? "";
  const path = href.split("?")[0];
  if (!a || a.target || a.hasAttribute("download") || !(path in PAGES || GAME.test(path) || PUZZLE.test(path) || PROFILE.test(path) || TOURNAMENT.test(path))) return;
  e.preventDefault();
  go(href);
});
window.addEventListener("popstate", route);
await Promise.all([setLanguage(), checkConnection()]);
// When the network comes or goes the start screen and the offline notice are drawn anew;
// every other screen keeps what the player did there.
onConnection(() => (location.pathname === "/" || app.querySelector("[data-offline-page]") ? route() : drawBanner()));
keepForOffline();
route();
