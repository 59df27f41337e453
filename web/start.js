// The start screen `/`: play the computer, a friend, on one device, the lobby, or watch.
// The chosen options are remembered for next time.

import { api, remember } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./game.js";
import { sessionName } from "./account.js";

const OPTIONS = "konane.options";
const CLOCKS = { untimed: null, "1+0": [1, 0], "3+2": [3, 2], "6+0": [6, 0], "10+5": [10, 5] };

/** The options the player chose last time, or the defaults. */
function options() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(OPTIONS) || "{}");
  } catch {
    saved = {};
  }
  return { size: "8x8", opening: "center-or-corner", clock: "untimed", level: "3", color: "random", ...saved };
}

function select(name, values, current, label) {
  return h("label", {}, label, " ",
    h("select", { name, "data-option": name },
      values.map(([v, text]) => h("option", { value: v, selected: v === current }, text))));
}

/** Creates a game from `settings` and opens it. */
export async function startGame(settings, go) {
  const created = await api.create(settings);
  if (created.token) remember(created.id, created.token, created.seat);
  go(`/game/${created.id}`);
}

/** Shows the start screen; returns the function that stops its lobby updates. */
export async function startScreen(app, go) {
  document.title = t("title");
  const o = options();
  const sizes = [];
  for (let n = 4; n <= 16; n++) sizes.push([`${n}x${n}`, `${n} × ${n}`]);
  sizes.push(["6x8", "6 × 8"], ["8x10", "8 × 10"]);
  const levels = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), `${n} · ${t(`level.${n}`)}`]);
  const form = h("div", { class: "start" },
    h("h1", {}, t("start.title")),
    h("p", { class: "lead" }, t("start.lead"), " ", h("a", { href: "/learn", "data-learn-link": "" }, t("start.learn"))),
    h("div", { class: "choices" },
      h("section", { class: "card", "aria-labelledby": "vs-engine" },
        h("h2", { id: "vs-engine" }, t("start.engine")),
        select("level", levels, o.level, t("start.level")),
        select("color", [["random", t("start.random")], ["black", t("start.black")], ["white", t("start.white")]], o.color, t("start.color")),
        h("button", { type: "button", class: "primary", "data-start": "engine" }, t("start.engine"))),
      h("section", { class: "card", "aria-labelledby": "vs-person" },
        h("h2", { id: "vs-person" }, t("start.person")),
        h("button", { type: "button", "data-start": "friend" }, t("start.friend")),
        h("button", { type: "button", "data-start": "local" }, t("start.local")),
        h("button", { type: "button", "data-start": "open" }, t("start.open")),
        h("label", { class: "check", "data-rated-choice": "", hidden: true }, h("input", { type: "checkbox", "data-rated": "" }), t("start.rated")),
        h("button", { type: "button", "data-start": "watch" }, t("start.watch")))),
    h("details", { class: "options" },
      h("summary", {}, t("start.options")),
      select("size", sizes, o.size, t("start.size")),
      select("opening", [["center-or-corner", t("opening.center-or-corner")], ["center", t("opening.center")]], o.opening, t("start.opening")),
      select("clock", Object.keys(CLOCKS).map((k) => [k, k === "untimed" ? t("start.untimed") : t("start.clock-value", { value: k })]), o.clock, t("start.clock"))),
    h("section", { class: "lobby", "aria-labelledby": "lobby-title" }, h("h2", { id: "lobby-title" }, t("lobby.title")), h("ul", { "data-lobby": "" }, h("li", {}, t("lobby.loading")))),
    h("p", { class: "notice", "data-notice": "", role: "status" }));
  app.replaceChildren(form);
  // Rated games are for logged-in players; the server says why when the settings are not.
  const rated = form.querySelector("[data-rated]");
  if (await sessionName()) form.querySelector("[data-rated-choice]").hidden = false;
  const read = () => {
    const o = options();
    for (const s of form.querySelectorAll("[data-option]")) o[s.name] = s.value;
    localStorage.setItem(OPTIONS, JSON.stringify(o));
    return o;
  };
  form.addEventListener("change", read);
  for (const b of form.querySelectorAll("[data-start]")) {
    b.addEventListener("click", async () => {
      const o = read();
      const kind = b.dataset.start;
      const clock = CLOCKS[o.clock];
      try {
        await startGame({
          mode: kind === "watch" ? "engine" : kind,
          size: o.size,
          opening: o.opening,
          color: kind === "watch" ? "none" : kind === "engine" ? o.color : "random",
          level: Number(o.level),
          clock: clock ? { minutes: clock[0], increment: clock[1] } : null,
          ...(rated.checked && (kind === "friend" || kind === "open") ? { rated: true } : {}),
        }, go);
      } catch (e) {
        form.querySelector("[data-notice]").textContent = errorText(e);
      }
    });
  }
  const list = form.querySelector("[data-lobby]");
  const clockText = (c) => (c ? `${c.initial_ms / 60000}+${c.increment_ms / 1000}` : t("start.untimed"));
  let shown = null;
  const refresh = async () => {
    try {
      const { games } = await api.lobby();
      // Redrawn only when the games change, so a focused Join button keeps its focus.
      const ids = games.map((g) => g.id).join();
      if (ids === shown) return;
      shown = ids;
      list.replaceChildren(...(games.length
        ? games.map((g) => h("li", {},
            t("lobby.game", { size: g.size, opening: t(`opening.${g.opening}`), clock: clockText(g.clock), color: t(`color.${g.free_seat}`) }), " ",
            g.host ? h("span", { class: "lobby-host", "data-lobby-host": g.host }, g.host_rating ? `${g.host} (${g.host_rating}${g.host_provisional ? "?" : ""})` : g.host) : "", g.host ? " " : "",
            g.rated ? h("b", { "data-lobby-rated": "" }, t("profile.rated")) : "", g.rated ? " " : "",
            h("button", { type: "button", onclick: () => go(`/game/${g.id}?join`) }, t("lobby.join"))))
        : [h("li", {}, t("lobby.empty"))]));
    } catch {
      shown = null;
      list.replaceChildren(h("li", {}, t("lobby.unavailable")));
    }
  };
  await refresh();
  const timer = setInterval(refresh, 5000);
  return () => clearInterval(timer);
}
