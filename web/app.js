// The page's shell: the header (pages, language, sound) and the routes
// `/`, `/game/{id}`, `/learn`, `/rules`, `/history`.

import { h } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { gameScreen } from "./game.js";
import { learnScreen } from "./learn.js";
import { historyPage, rulesPage } from "./pages.js";
import { muted, setMuted } from "./sound.js";
import { startScreen } from "./start.js";

const app = document.getElementById("app");
let cleanup = () => {};

function header() {
  const here = location.pathname;
  const link = (path, key) => h("a", { href: path, "data-nav-link": key, "aria-current": here === path ? "page" : null }, t(`nav.${key}`));
  const sound = h("button", { type: "button", class: "mute", "data-mute": "", "aria-pressed": String(!muted()) }, t(muted() ? "sound.off" : "sound.on"));
  sound.addEventListener("click", () => {
    setMuted(!muted());
    sound.textContent = t(muted() ? "sound.off" : "sound.on");
    sound.setAttribute("aria-pressed", String(!muted()));
  });
  const choose = h("select", { "data-language": "", "aria-label": t("nav.language") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
  choose.addEventListener("change", async () => {
    await setLanguage(choose.value);
    route();
  });
  document.getElementById("top").replaceChildren(
    h("a", { class: "skip", href: "#app" }, t("nav.skip")),
    h("a", { class: "brand", href: "/" }, "Kōnane"),
    h("nav", { "aria-label": t("nav.pages") }, link("/", "play"), link("/learn", "learn"), link("/rules", "rules"), link("/history", "history")),
    h("div", { class: "tools" }, choose, sound));
}

async function route() {
  cleanup();
  cleanup = () => {};
  header();
  const path = location.pathname;
  const game = path.match(/^\/game\/([a-z0-9]+)$/);
  if (game) cleanup = await gameScreen(app, game[1], new URLSearchParams(location.search).has("join"), go);
  else if (path === "/learn") cleanup = await learnScreen(app, go);
  else if (path === "/rules") await rulesPage(app);
  else if (path === "/history") await historyPage(app);
  else await startScreen(app, go);
}

/** Opens `path` without reloading the page. */
export function go(path) {
  history.pushState(null, "", path);
  window.scrollTo(0, 0);
  route();
}

// Links inside the page change screens without a reload.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented) return;
  const a = e.target.closest?.("a[href^='/']");
  if (!a || a.hasAttribute("download") || a.getAttribute("href").startsWith("/api/") || e.ctrlKey || e.metaKey || e.shiftKey) return;
  e.preventDefault();
  go(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
await setLanguage();
route();
