// The start screen's view: the settings as visible choices, the buttons to start a game,
// the small board and its caption, the lists of live and open games. start.js wires them.

import { h } from "./dom.js";
import { sizeText, t } from "./i18n.js";
import { clockText, playerName } from "./players.js";
import { CLOCKS, COMMON_SIZES, sizeChoices } from "./start-state.js";

function select(name, values, current, label) {
  return h("label", { class: "field" }, h("span", {}, label),
    h("select", { name, "data-option": name },
      values.map(([v, text]) => h("option", { value: v, selected: v === current }, text))));
}

/** A choice shown whole: one chip per value, a radio group underneath. */
function chips(name, values, current, label, extra = null) {
  return h("fieldset", { class: "chips", "data-choice": name },
    h("legend", {}, label),
    h("div", { class: "chip-row" },
      values.map(([v, text]) => h("label", { class: "chip" },
        h("input", { type: "radio", name, value: v, checked: v === current }), h("span", {}, text))),
      extra));
}

/** "Ana vs Kai" of a game's players. */
export const versus = (g) => t("live.versus", { black: playerName(g.players.black, "black"), white: playerName(g.players.white, "white") });

/** The start screen's elements for options `o`, with the pairing card and the player's
 * games (`yours`: its `challenges` and `card`): `{form, otherSize, tvHost, tvCaption,
 * count, liveList, lobby}`. */
export function startPage(o, pairing, yours) {
  const levels = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), `${n} · ${t(`level.${n}`)}`]);
  const otherSize = h("select", { name: "size-other", "data-option": "size", "aria-label": t("start.more-sizes") },
    sizeChoices(t("start.more-sizes")).map(([v, text]) => h("option", { value: v, selected: !COMMON_SIZES.includes(o.size) && v === o.size }, text)));
  const tvHost = h("div", { class: "tv-board" });
  const tvCaption = h("p", { class: "tv-caption", "data-tv-caption": "" });
  const count = h("p", { class: "live-count", "data-live-count": "" });
  const liveList = h("ul", { class: "game-list", "data-live": "" });
  const lobby = h("ul", { class: "game-list", "data-lobby": "" }, h("li", {}, t("lobby.loading")));
  const form = h("div", { class: "start" },
    h("section", { class: "intro" },
      h("h1", {}, t("start.title")),
      h("p", { class: "lead" }, t("start.lead"), " ", h("a", { href: "/learn", "data-learn-link": "" }, t("start.learn")))),
    h("section", { class: "tv", "aria-labelledby": "tv-title", "data-tv": "" },
      h("h2", { id: "tv-title", class: "visually-hidden" }, t("live.tv")),
      count, tvHost, tvCaption),
    h("section", { class: "settings card", "aria-labelledby": "settings-title" },
      h("h2", { id: "settings-title" }, t("start.settings")),
      chips("size", COMMON_SIZES.map((s) => [s, s.replace("x", " × ")]), o.size, t("start.size"), otherSize),
      chips("opening", [["center-or-corner", t("opening.center-or-corner")], ["center", t("opening.center")]], o.opening, t("start.opening")),
      chips("clock", Object.keys(CLOCKS).map((k) => [k, k === "untimed" ? t("start.untimed") : k]), o.clock, t("start.clock-choice")),
      chips("color", [["random", t("start.random")], ["black", t("start.black")], ["white", t("start.white")]], o.color, t("start.color"))),
    h("div", { class: "choices" },
      h("section", { class: "card", "aria-labelledby": "vs-engine" },
        h("h2", { id: "vs-engine" }, t("start.engine")),
        select("level", levels, o.level, t("start.level")),
        h("button", { type: "button", class: "primary", "data-start": "engine" }, t("start.engine"))),
      h("section", { class: "card", "aria-labelledby": "vs-person" },
        h("h2", { id: "vs-person" }, t("start.person")),
        h("button", { type: "button", class: "primary", "data-start": "friend" }, t("start.friend")),
        h("button", { type: "button", "data-start": "local" }, t("start.local")),
        h("button", { type: "button", "data-start": "open" }, t("start.open")),
        h("label", { class: "check", "data-rated-choice": "", hidden: true }, h("input", { type: "checkbox", "data-rated": "" }), t("start.rated"))),
      pairing.card),
    h("div", { class: "lists" },
      yours.challenges,
      yours.card,
      h("section", { class: "card", "aria-labelledby": "live-title" },
        h("h2", { id: "live-title" }, t("live.title")), liveList,
        h("button", { type: "button", "data-start": "watch" }, t("start.watch"))),
      h("section", { class: "card lobby", "aria-labelledby": "lobby-title" },
        h("h2", { id: "lobby-title" }, t("lobby.title")), lobby)),
    h("p", { class: "notice", "data-notice": "", role: "status" }));
  return { form, otherSize, tvHost, tvCaption, count, liveList, lobby };
}

/** The options chosen in `form` over `o`. */
export function chosen(form, otherSize, o) {
  const read = { ...o };
  for (const r of form.querySelectorAll("input[type=radio]:checked")) read[r.name] = r.value;
  read.level = form.querySelector("[data-option=level]").value;
  if (!form.querySelector("input[name=size]:checked") && otherSize.value) read.size = otherSize.value;
  return read;
}

/** The open games' list items; `go` opens an address. */
export function lobbyItems(games, go) {
  if (!games.length) return [h("li", {}, t("lobby.empty"))];
  return games.map((g) => h("li", {},
    h("span", {}, t("lobby.game", { size: sizeText(g.size), opening: t(`opening.${g.opening}`), clock: clockText(g.clock), color: t(`color.${g.free_seat}`) }),
      g.host ? h("small", { "data-lobby-host": g.host }, g.host_rating ? `${g.host} (${g.host_rating}${g.host_provisional ? "?" : ""})` : g.host) : "",
      g.rated ? h("small", { "data-lobby-rated": "" }, t("profile.rated")) : ""),
    h("button", { type: "button", onclick: () => go(`/game/${g.id}?join`) }, t("lobby.join"))));
}

/** The live games' list items. */
export function liveItems(games) {
  if (!games.length) return [h("li", {}, t("live.none"))];
  return games.map((g) => h("li", {},
    h("span", {}, versus(g), h("small", {}, `${sizeText(g.size)} · ${clockText(g.clock)} · ${t("live.moves", { n: g.ply })}`)),
    h("a", { href: `/game/${g.id}`, class: "button", "data-watch": g.id }, t("live.watch"))));
}

/** The small board's caption for live `game`: its players and the way to watch it. */
export const tvCaptionFor = (game) => [h("span", { "data-tv-players": "" }, versus(game)), " ",
  h("a", { href: `/game/${game.id}`, class: "button", "data-tv-watch": "" }, t("live.watch"))];
