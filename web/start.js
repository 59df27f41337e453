// The start screen `/`: the game's settings as visible choices, play the computer, a friend,
// on one device or in the lobby; beside them the site's life: how many games are being
// played, the most watchable of them on a small board (or, when nobody plays, a short
// demonstration of the opening and a jump), the others to watch, and the open games.
// The chosen settings are remembered for next time.

import { api, onGameEnded, remember } from "./api.js";
import { Board } from "./board.js";
import { engineHost } from "./computer.js";
import { h } from "./dom.js";
import { language, sizeText, t } from "./i18n.js";
import { errorText } from "./words.js";
import { localGamePath } from "./offline-game.js";
import { isOffline } from "./offline.js";
import { clockText, playerName } from "./players.js";
import { sessionName } from "./account.js";
import { pairingCard } from "./pairing.js";
import { yourGamesCard } from "./mygames.js";

const OPTIONS = "konane.options";
const CLOCKS = { untimed: null, "1+0": [1, 0], "3+2": [3, 2], "6+0": [6, 0], "10+5": [10, 5] };
/** The sizes offered at a glance; every other size is in the menu beside them. */
const COMMON_SIZES = ["6x6", "8x8", "10x10"];
/** The demonstration when nobody plays: the two removals and a jump each, on 6x6. */
const DEMO = { start: "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b", moves: ["c4", "c3", "e4-c4", "d2-d4"] };
const REFRESH_MS = 5000;
const DEMO_STEP_MS = 1600;

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

/** Creates a game from `settings` and opens it; this browser plays the computer when it can.
 * Offline a game against the computer or on one device is played in this browser alone. */
export async function startGame(settings, go) {
  if (isOffline() && (settings.mode === "engine" || settings.mode === "local")) return go(localGamePath(settings));
  const host = settings.mode === "engine" ? { engine_host: await engineHost() } : {};
  const created = await api.create({ ...settings, ...host });
  if (created.token) remember(created.id, created.token, created.seat);
  go(`/game/${created.id}`);
}

const versus = (g) => t("live.versus", { black: playerName(g.players.black, "black"), white: playerName(g.players.white, "white") });

function countText(n) {
  if (n === 0) return t("live.count.none");
  const form = new Intl.PluralRules(language()).select(n);
  return t(form === "one" || form === "few" ? `live.count.${form}` : "live.count.other", { n });
}

/** Shows the start screen; returns the function that stops its updates. */
export async function startScreen(app, go) {
  document.title = t("title");
  const o = options();
  const sizes = [["", t("start.more-sizes")]];
  for (let n = 4; n <= 16; n++) sizes.push([`${n}x${n}`, `${n} × ${n}`]);
  sizes.push(["6x8", "6 × 8"], ["8x10", "8 × 10"]);
  const levels = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), `${n} · ${t(`level.${n}`)}`]);
  const otherSize = h("select", { name: "size-other", "data-option": "size", "aria-label": t("start.more-sizes") },
    sizes.map(([v, text]) => h("option", { value: v, selected: !COMMON_SIZES.includes(o.size) && v === o.size }, text)));
  const tvHost = h("div", { class: "tv-board" });
  const tvCaption = h("p", { class: "tv-caption", "data-tv-caption": "" });
  const count = h("p", { class: "live-count", "data-live-count": "" });
  const liveList = h("ul", { class: "game-list", "data-live": "" });
  const pairing = pairingCard(go);
  const yours = yourGamesCard();
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
        h("h2", { id: "lobby-title" }, t("lobby.title")), h("ul", { class: "game-list", "data-lobby": "" }, h("li", {}, t("lobby.loading"))))),
    h("p", { class: "notice", "data-notice": "", role: "status" }));
  app.replaceChildren(form);
  // Offline only the games in this browser can be played, and they have no clock.
  if (isOffline()) {
    for (const el of form.querySelectorAll("[data-start=friend], [data-start=open], [data-choice=clock], .lists")) el.hidden = true;
    pairing.card.hidden = true;
  }
  // Rated games are for logged-in players; the server says why when the settings are not.
  const rated = form.querySelector("[data-rated]");
  const me = await sessionName();
  if (me) form.querySelector("[data-rated-choice]").hidden = false;
  // A challenge chosen on a player's profile: the usual settings, sent to that player only.
  const target = new URLSearchParams(location.search).get("challenge");
  if (me && target) {
    form.querySelector(".intro").append(h("p", { class: "notice challenge-banner", "data-challenge-banner": "" }, t("challenge.banner", { name: target })));
    form.querySelector("[data-start=friend]").before(h("button", { type: "button", class: "primary", "data-start": "challenge" }, t("challenge.send")));
  }
  otherSize.addEventListener("change", () => {
    if (!otherSize.value) return;
    for (const r of form.querySelectorAll("input[name=size]")) r.checked = false;
  });
  for (const r of form.querySelectorAll("input[name=size]")) r.addEventListener("change", () => { otherSize.value = ""; });
  const read = () => {
    const o = options();
    for (const r of form.querySelectorAll("input[type=radio]:checked")) o[r.name] = r.value;
    o.level = form.querySelector("[data-option=level]").value;
    if (!form.querySelector("input[name=size]:checked") && otherSize.value) o.size = otherSize.value;
    localStorage.setItem(OPTIONS, JSON.stringify(o));
    return o;
  };
  form.addEventListener("change", read);
  for (const b of form.querySelectorAll("[data-start]")) {
    b.addEventListener("click", async () => {
      const o = read();
      const kind = b.dataset.start;
      const clock = CLOCKS[o.clock];
      const friendly = kind === "friend" || kind === "open" || kind === "challenge";
      try {
        await startGame({
          mode: kind === "watch" ? "engine" : kind === "challenge" ? "friend" : kind,
          size: o.size,
          opening: o.opening,
          color: kind === "watch" ? "none" : o.color,
          level: Number(o.level),
          clock: clock ? { minutes: clock[0], increment: clock[1] } : null,
          ...(rated.checked && friendly ? { rated: true } : {}),
          ...(kind === "challenge" ? { challenge: target } : {}),
        }, go);
      } catch (e) {
        form.querySelector("[data-notice]").textContent = errorText(e);
      }
    });
  }

  // The small board: the most watchable game being played, else the demonstration.
  const tv = new Board(tvHost, {});
  const shown = { id: null, ply: -1, position: null, demo: null, demoFailed: false, stopped: false };
  const draw = (position, last, label) => tv.draw({ position, last, interactive: false, label });
  const stopDemo = () => {
    clearTimeout(shown.demo);
    shown.demo = null;
  };
  async function demo() {
    shown.id = null;
    tvCaption.replaceChildren(t("live.demo"));
    draw(DEMO.start, null, t("live.demo-board"));
    const positions = [DEMO.start];
    try {
      for (const m of DEMO.moves) positions.push((await api.position(positions.at(-1), "center-or-corner", m)).position);
    } catch {
      shown.demoFailed = true;
      draw(DEMO.start, null, t("live.demo-board"));
      return;
    }
    let i = 0;
    const next = () => {
      if (shown.stopped) return;
      if (i > DEMO.moves.length) i = 0;
      const move = DEMO.moves[i - 1];
      draw(positions[i], move ? move.split("-") : null, t("live.demo-board"));
      if (move) tv.animate(move, positions[i - 1]);
      i += 1;
      shown.demo = setTimeout(next, i > DEMO.moves.length ? DEMO_STEP_MS * 2 : DEMO_STEP_MS);
    };
    next();
  }
  function showLive(game) {
    stopDemo();
    const label = t("live.board", { players: versus(game) });
    const moved = shown.id === game.id && game.ply === shown.ply + 1 && game.last_move;
    draw(game.position, game.last_move ? game.last_move.split("-") : null, label);
    if (moved) tv.animate(game.last_move, shown.position);
    if (shown.id !== game.id) {
      tvCaption.replaceChildren(h("span", { "data-tv-players": "" }, versus(game)), " ",
        h("a", { href: `/game/${game.id}`, class: "button", "data-tv-watch": "" }, t("live.watch")));
    }
    Object.assign(shown, { id: game.id, ply: game.ply, position: game.position });
  }

  const lobby = form.querySelector("[data-lobby]");
  let lobbyShown = null;
  let liveShown = null;
  const refresh = async () => {
    try {
      const { games } = await api.lobby();
      // Redrawn only when the games change, so a focused Join button keeps its focus.
      const ids = games.map((g) => g.id).join();
      if (ids !== lobbyShown) {
        lobbyShown = ids;
        lobby.replaceChildren(...(games.length
          ? games.map((g) => h("li", {},
              h("span", {}, t("lobby.game", { size: sizeText(g.size), opening: t(`opening.${g.opening}`), clock: clockText(g.clock), color: t(`color.${g.free_seat}`) }),
                g.host ? h("small", { "data-lobby-host": g.host }, g.host_rating ? `${g.host} (${g.host_rating}${g.host_provisional ? "?" : ""})` : g.host) : "",
                g.rated ? h("small", { "data-lobby-rated": "" }, t("profile.rated")) : ""),
              h("button", { type: "button", onclick: () => go(`/game/${g.id}?join`) }, t("lobby.join"))))
          : [h("li", {}, t("lobby.empty"))]));
      }
    } catch {
      lobbyShown = null;
      lobby.replaceChildren(h("li", {}, t("lobby.unavailable")));
    }
    try {
      const live = await api.live();
      count.textContent = countText(live.playing);
      count.dataset.liveCount = String(live.playing);
      if (live.games.length) showLive(live.games[0]);
      else if (shown.id || (!shown.demo && !shown.demoFailed)) demo();
      const ids = live.games.map((g) => `${g.id}:${g.ply}`).join();
      if (ids !== liveShown) {
        liveShown = ids;
        liveList.replaceChildren(...(live.games.length
          ? live.games.map((g) => h("li", {},
              h("span", {}, versus(g), h("small", {}, `${sizeText(g.size)} · ${clockText(g.clock)} · ${t("live.moves", { n: g.ply })}`)),
              h("a", { href: `/game/${g.id}`, class: "button", "data-watch": g.id }, t("live.watch"))))
          : [h("li", {}, t("live.none"))]));
      }
    } catch {
      count.textContent = "";
      if (!shown.demo && !shown.demoFailed) demo();
    }
  };
  await Promise.all([refresh(), yours.refresh()]);
  const timer = setInterval(refresh, REFRESH_MS);
  // Up to fifty games each time: asked less often than the lists of the site's life, and
  // only while the tab is seen; asked at once when it is seen again, and when another tab
  // saw a game of the player's end.
  let yoursTimer = null;
  const pollYours = () => {
    clearInterval(yoursTimer);
    yoursTimer = document.hidden ? null : setInterval(yours.refresh, 6 * REFRESH_MS);
  };
  const seenAgain = () => {
    pollYours();
    if (!document.hidden) yours.refresh();
  };
  pollYours();
  document.addEventListener("visibilitychange", seenAgain);
  const stopEnded = onGameEnded(yours.refresh);
  return () => {
    pairing.stop();
    clearInterval(timer);
    clearInterval(yoursTimer);
    document.removeEventListener("visibilitychange", seenAgain);
    stopEnded();
    shown.stopped = true;
    stopDemo();
  };
}
