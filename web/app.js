// The page: a start screen at `/`, a game at `/game/{id}`. The server sends every position
// with its legal moves; the page only shows them and sends the player's choice back.

import { api, live, remember, seatFor, tokenFor } from "./api.js";
import { drawBoard, parsePosition } from "./board.js";

const app = document.getElementById("app");
const OPTIONS = "konane.options";
const LEVELS = ["", "1 · beginner", "2 · casual", "3 · learner", "4 · club", "5 · strong", "6 · expert", "7 · master", "8 · full strength"];
const CLOCKS = { untimed: null, "1+0": [1, 0], "3+2": [3, 2], "6+0": [6, 0], "10+5": [10, 5] };

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
};
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function options() {
  const saved = JSON.parse(localStorage.getItem(OPTIONS) || "{}");
  return { size: "8x8", opening: "center-or-corner", clock: "untimed", level: "3", color: "random", ...saved };
}

function saveOptions(o) {
  localStorage.setItem(OPTIONS, JSON.stringify(o));
}

function select(name, values, current, label) {
  return h("label", {}, label, " ",
    h("select", { name, "data-option": name },
      values.map(([v, text]) => h("option", { value: v, selected: v === current }, text))));
}

// ---------------------------------------------------------------- start screen

async function startScreen() {
  document.title = "Kōnane";
  const o = options();
  const sizes = [];
  for (let n = 4; n <= 16; n++) sizes.push([`${n}x${n}`, `${n} × ${n}`]);
  sizes.push(["6x8", "6 × 8"], ["8x10", "8 × 10"]);
  const form = h("div", { class: "start" },
    h("h1", {}, "Play Kōnane"),
    h("p", { class: "lead" }, "Jump your stones over your opponent's. Whoever cannot jump loses."),
    h("div", { class: "choices" },
      h("div", { class: "card" },
        h("h2", {}, "Play the computer"),
        select("level", LEVELS.slice(1).map((t, i) => [String(i + 1), t]), o.level, "Level"),
        select("color", [["random", "Random"], ["black", "Black (moves first)"], ["white", "White"]], o.color, "Your stones"),
        h("button", { class: "primary", "data-start": "engine" }, "Play the computer")),
      h("div", { class: "card" },
        h("h2", {}, "Play a person"),
        h("button", { "data-start": "friend" }, "Play a friend"),
        h("button", { "data-start": "local" }, "Two players on this device"),
        h("button", { "data-start": "open" }, "Open a game in the lobby"),
        h("button", { "data-start": "watch" }, "Watch the computer play itself"))),
    h("details", { class: "options" },
      h("summary", {}, "Options"),
      select("size", sizes, o.size, "Board"),
      select("opening", [["center-or-corner", "Centre or corner"], ["center", "Centre only"]], o.opening, "First removal"),
      select("clock", Object.keys(CLOCKS).map((k) => [k, k === "untimed" ? "Untimed" : `${k} (minutes + seconds)`]), o.clock, "Clock")),
    h("section", { class: "lobby" }, h("h2", {}, "Open games"), h("ul", { "data-lobby": "" }, h("li", {}, "Loading…"))),
    h("p", { class: "notice", "data-notice": "", role: "alert" }));
  app.replaceChildren(form);
  const read = () => {
    const o = options();
    for (const s of form.querySelectorAll("[data-option]")) o[s.name] = s.value;
    saveOptions(o);
    return o;
  };
  form.addEventListener("change", read);
  for (const b of form.querySelectorAll("[data-start]")) {
    b.addEventListener("click", async () => {
      const o = read();
      const kind = b.dataset.start;
      const clock = CLOCKS[o.clock];
      const body = {
        mode: kind === "watch" ? "engine" : kind,
        size: o.size,
        opening: o.opening,
        color: kind === "watch" ? "none" : kind === "engine" ? o.color : "random",
        level: Number(o.level),
        clock: clock ? { minutes: clock[0], increment: clock[1] } : null,
      };
      try {
        const created = await api.create(body);
        if (created.token) remember(created.id, created.token, created.seat);
        go(`/game/${created.id}`);
      } catch (e) {
        form.querySelector("[data-notice]").textContent = e.message;
      }
    });
  }
  try {
    const { games } = await api.lobby();
    const list = form.querySelector("[data-lobby]");
    list.replaceChildren(...(games.length ? games.map((g) =>
      h("li", {}, `${g.size} · ${g.opening} · ${g.clock ? `${g.clock.initial_ms / 60000}+${g.clock.increment_ms / 1000}` : "untimed"} · you play ${g.free_seat} `,
        h("button", { onclick: () => go(`/game/${g.id}?join`) }, "Join"))) : [h("li", {}, "No open games right now: open one yourself.")]));
  } catch {
    form.querySelector("[data-lobby]").replaceChildren(h("li", {}, "The lobby is not available."));
  }
}

// ---------------------------------------------------------------- game screen

function instruction(state) {
  const turn = cap(state.turn);
  if (state.phase === "black-removal") {
    return `Black: remove one of your stones from ${state.opening === "center" ? "the centre" : "the centre or a corner"}`;
  }
  if (state.phase === "white-removal") return "White: remove one of your stones next to the empty square";
  return `${turn}: jump over a ${state.turn === "black" ? "white" : "black"} stone`;
}

function endText(state) {
  const r = state.result;
  const reason = r.reason
    .replace(/^(black|white) has no move$/, (_, c) => `${cap(c)} has no move left`)
    .replace(/^(black|white) resigned$/, (_, c) => `${cap(c)} resigned`)
    .replace(/^(black|white) ran out of time$/, (_, c) => `${cap(c)} ran out of time`);
  return `${cap(r.winner)} wins: ${reason}.`;
}

function formatClock(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const s = Math.floor((t % 60000) / 1000);
  return t < 10000 ? `${m}:${String(s).padStart(2, "0")}.${Math.floor((t % 1000) / 100)}` : `${m}:${String(s).padStart(2, "0")}`;
}

async function gameScreen(id, wantsJoin) {
  let state = null;
  let selected = null;
  let viewPly = null;
  let positions = null;
  let flip = false;
  let offset = 0;
  let noticeTimer = null;

  const board = h("div", { class: "board-host" });
  const clocks = { top: h("div", { class: "clock", "data-clock": "top" }), bottom: h("div", { class: "clock", "data-clock": "bottom" }) };
  const status = h("p", { class: "status", "data-status": "" });
  const notice = h("p", { class: "notice", "data-notice": "", role: "alert" });
  const invite = h("div", { class: "invite", hidden: true });
  const moveList = h("ol", { class: "moves", "data-movelist": "" });
  const end = h("div", { class: "end", "data-end": "", hidden: true });
  const link = h("p", { class: "link", "data-link": "" });
  const button = (label, attrs, handler) => h("button", { ...attrs, onclick: handler }, label);
  const nav = h("div", { class: "nav" },
    button("«", { "aria-label": "First position", "data-nav": "first" }, () => step(-Infinity)),
    button("‹", { "aria-label": "Previous move", "data-nav": "back" }, () => step(-1)),
    button("›", { "aria-label": "Next move", "data-nav": "forward" }, () => step(1)),
    button("»", { "aria-label": "Current position", "data-nav": "last" }, () => step(Infinity)));
  const actions = h("div", { class: "actions" },
    button("Flip board", { "data-act": "flip" }, () => { flip = !flip; render(); }),
    button("Take back", { "data-act": "takeback" }, () => act(api.takeback)),
    button("Resign", { "data-act": "resign" }, () => { if (confirm("Resign this game?")) act(api.resign); }),
    button("Rematch", { "data-act": "rematch" }, rematch),
    button("Copy record", { "data-act": "copy" }, copyRecord),
    h("a", { href: `/api/games/${id}/record`, download: `konane-${id}.txt`, class: "button", "data-act": "download" }, "Download record"));
  app.replaceChildren(h("div", { class: "game" },
    h("div", { class: "board-wrap" }, clocks.top, board, clocks.bottom),
    h("aside", { class: "panel" }, status, notice, invite, end, moveList, nav, actions, link)));

  const mySeats = () => {
    const seat = seatFor(id);
    if (!tokenFor(id) || !seat) return [];
    return seat === "both" ? ["black", "white"] : [seat];
  };
  const myTurn = () => state?.status === "playing" && mySeats().includes(state.turn);
  const isLive = () => viewPly === null || viewPly === state.ply;

  function say(text) {
    notice.textContent = text;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { notice.textContent = ""; }, 4000);
  }

  function legalActions() {
    const map = new Map();
    if (!isLive() || !myTurn()) return map;
    for (const m of state.legal_moves) {
      const [from, to] = m.split("-");
      if (!to) map.set(from, "remove");
      else if (selected === from) map.set(to, "target");
    }
    for (const m of state.legal_moves) {
      const [from, to] = m.split("-");
      if (to && !map.has(from)) map.set(from, "select");
    }
    return map;
  }

  function onSquare(name) {
    if (!state) return;
    if (!isLive()) return say("You are looking at an earlier position: press » to return to the game.");
    if (state.status === "finished") return say("The game is over.");
    if (state.status === "waiting") return say("The game starts when your opponent joins.");
    if (!myTurn()) {
      const engine = state.players[state.turn].engine;
      return say(engine ? "The engine is thinking: wait for its move." : mySeats().length ? `It is ${cap(state.turn)}'s turn.` : "You are watching this game.");
    }
    const action = legalActions().get(name);
    if (action === "remove") return send(name);
    if (action === "target") return send(`${selected}-${name}`);
    if (action === "select") {
      selected = selected === name ? null : name;
      return render();
    }
    const { rows, cells } = parsePosition(state.position);
    const file = name.charCodeAt(0) - 97;
    const stone = cells[rows - Number(name.slice(1))][file];
    const mine = state.turn === "black" ? "b" : "w";
    if (state.phase !== "jumping") return say(`${instruction(state)}: the ringed stones can be removed.`);
    if (selected) return say(`${name} is not a square ${selected} can jump to.`);
    if (stone === mine) return say(`The stone on ${name} has no jump.`);
    if (stone === ".") return say("Choose one of your ringed stones, then where it lands.");
    return say(`That is a ${state.turn === "black" ? "white" : "black"} stone: choose one of your own.`);
  }

  async function send(move) {
    selected = null;
    try {
      update(await api.move(id, move, state.ply));
    } catch (e) {
      say(e.message);
      update(await api.game(id));
    }
  }

  async function act(call) {
    try {
      update(await call(id));
    } catch (e) {
      say(e.message);
    }
  }

  async function rematch() {
    try {
      const r = await api.rematch(id);
      remember(r.id, tokenFor(id), r.seat);
      go(`/game/${r.id}`);
    } catch (e) {
      say(e.message);
    }
  }

  async function copyRecord() {
    try {
      await navigator.clipboard.writeText(await api.record(id));
      say("The game record is copied.");
    } catch {
      say("Copying is not allowed here: use Download record.");
    }
  }

  async function step(delta) {
    if (!state) return;
    const current = viewPly ?? state.ply;
    const target = Math.max(0, Math.min(state.ply, current + delta));
    if (target !== state.ply && (!positions || positions.length <= target)) {
      positions = (await api.positions(id)).positions;
    }
    viewPly = target === state.ply ? null : target;
    selected = null;
    render();
  }

  function render() {
    if (!state) return;
    const ply = viewPly ?? state.ply;
    const position = viewPly === null ? state.position : positions[ply];
    const mine = mySeats();
    const flipped = flip !== (mine.length === 1 && mine[0] === "white");
    const lastMove = ply > 0 ? state.moves[ply - 1].split("-") : null;
    drawBoard(board, { position, flipped, actions: legalActions(), selected, last: lastMove, onSquare });

    if (state.status === "waiting") {
      status.textContent = "Waiting for an opponent: send them the invitation link.";
    } else if (state.status === "finished") {
      status.textContent = endText(state);
    } else if (state.players[state.turn].engine) {
      status.textContent = `${cap(state.turn)} to move: the engine is thinking…`;
    } else if (myTurn()) {
      status.textContent = instruction(state) + (mine.length === 1 ? " (your move)" : "");
    } else {
      status.textContent = `${cap(state.turn)} to move${mine.length ? ": waiting for your opponent" : ""}.`;
    }
    status.dataset.status = state.status === "finished" ? "finished" : myTurn() ? "your-move" : state.status === "waiting" ? "waiting" : "their-move";
    if (viewPly !== null) status.textContent += ` (showing move ${viewPly} of ${state.ply})`;

    invite.hidden = state.status !== "waiting" || !mine.length;
    if (!invite.hidden) {
      const url = `${location.origin}/game/${id}?join`;
      invite.replaceChildren(h("label", {}, "Invitation link ", h("input", { readonly: true, value: url, "data-invite": "" })),
        h("button", { onclick: () => navigator.clipboard.writeText(url).then(() => say("Link copied."), () => say("Select the link and copy it.")) }, "Copy link"));
    }
    end.hidden = state.status !== "finished";
    if (!end.hidden) {
      const won = mine.length === 1 ? (mine[0] === state.result.winner ? "You win! " : "You lose. ") : "";
      const offer = state.rematch && mine.length
        ? [h("p", {}, h("a", { href: `/game/${state.rematch}`, onclick: (e) => { e.preventDefault(); rematch(); } }, "A rematch is waiting: play it"))]
        : [];
      end.replaceChildren(h("strong", {}, won + endText(state)), ...offer);
    }

    moveList.replaceChildren(...state.moves.map((m, i) =>
      h("li", { "data-move": m, "data-ply": i + 1, class: i + 1 === ply ? "current" : null, onclick: () => step(i + 1 - (viewPly ?? state.ply)) }, m)));
    const engineGame = state.mode === "engine";
    actions.querySelector("[data-act=takeback]").hidden = !engineGame || !mine.length;
    actions.querySelector("[data-act=resign]").disabled = state.status !== "playing" || !mine.length;
    actions.querySelector("[data-act=rematch]").hidden = state.status !== "finished" || !mine.length;
    drawClocks(flipped);
  }

  function drawClocks(flipped) {
    const c = state?.clock;
    for (const el of Object.values(clocks)) el.hidden = !c;
    if (!c) return;
    const now = Date.now() + offset;
    const left = (side) => c[`${side}_ms`] - (c.running === side ? now - c.running_since : 0);
    const [top, bottom] = flipped ? ["black", "white"] : ["white", "black"];
    for (const [slot, side] of [["top", top], ["bottom", bottom]]) {
      clocks[slot].textContent = `${cap(side)} ${formatClock(left(side))}`;
      clocks[slot].classList.toggle("running", c.running === side);
    }
  }

  function update(next) {
    if (state && next.seq <= state.seq) return;
    if (!state || next.ply !== state.ply) positions = null;
    if (state && next.ply !== state.ply) selected = null;
    state = next;
    offset = state.server_time - Date.now();
    if (viewPly !== null && viewPly > state.ply) viewPly = null;
    render();
  }

  try {
    let first = await api.game(id);
    const free = ["black", "white"].some((c) => !first.players[c].seated);
    if (!tokenFor(id) && first.status === "waiting" && free && wantsJoin) {
      const joined = await api.join(id);
      remember(id, joined.token, joined.seat);
      first = joined.game;
      history.replaceState(null, "", `/game/${id}`);
    }
    update(first);
  } catch (e) {
    app.replaceChildren(h("div", { class: "start" }, h("h1", {}, "Game not found"), h("p", {}, e.message), h("a", { href: "/" }, "Start a new game")));
    return;
  }
  document.title = `Kōnane · ${state.size}`;
  const stop = live(id, update, (up) => { link.textContent = up ? "" : "Connection lost: reconnecting…"; link.dataset.link = up ? "up" : "down"; });
  const tick = setInterval(() => drawClocks(flip !== (mySeats().length === 1 && mySeats()[0] === "white")), 100);
  const keys = (e) => {
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Escape" && selected) { selected = null; render(); }
  };
  document.addEventListener("keydown", keys);
  cleanup = () => { stop(); clearInterval(tick); document.removeEventListener("keydown", keys); };
}

// ---------------------------------------------------------------- routing

let cleanup = () => {};

function route() {
  cleanup();
  cleanup = () => {};
  const m = location.pathname.match(/^\/game\/([a-z0-9]+)$/);
  if (m) gameScreen(m[1], new URLSearchParams(location.search).has("join"));
  else startScreen();
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", route);
route();
