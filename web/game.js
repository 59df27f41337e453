// The game screen `/game/{id}`: the board, clocks, move list, stepping through the game,
// the buttons around it, and the live socket. The server sends every position with its
// legal moves; this only shows them and sends the player's choice back.

import { api, live, remember, seatFor, tokenFor } from "./api.js";
import { Board, parsePosition, stoneOn } from "./board.js";
import { announce, h } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { play as sound } from "./sound.js";

const colorName = (c) => t(`color.${c}`);

/** What the side to move must do now. */
function instruction(state) {
  const vars = { color: colorName(state.turn) };
  if (state.phase === "black-removal") return t(state.opening === "center" ? "do.remove-center" : "do.remove-center-corner", vars);
  if (state.phase === "white-removal") return t("do.remove-adjacent", vars);
  return t("do.jump", vars);
}

/** Who won and why, in words. */
function endText(result) {
  if (!result.winner) return t(`end.${result.reason}`);
  const loser = result.winner === "black" ? "white" : "black";
  const why = t(`end.${result.reason}`, { color: colorName(loser) });
  return t("end.wins", { color: colorName(result.winner), why });
}

/** A move in words, for the live region: "White jumps c5 to e5, capturing d5." */
export function spoken(move, color) {
  const [from, to] = move.split("-");
  if (!to) return t("say.remove", { color: colorName(color), square: from });
  const captured = listText(capturedBy(move));
  return t("say.jump", { color: colorName(color), from, to, captured });
}

const listText = (items) => new Intl.ListFormat(language(), { type: "conjunction" }).format(items);

/** The string key of a refused move's reason code. */
function reasonKey(reason, p) {
  if (reason === "not_your_stone") return `illegal.not_your_stone.${p.found === "empty" ? "empty" : "stone"}`;
  if (reason === "first_removal_square") return `illegal.first_removal_square.${p.opening === "center" ? "center" : "center-or-corner"}`;
  if (["not_a_square", "off_board", "not_a_move", "not_a_jump"].includes(reason)) return `notation.${reason}`;
  return `illegal.${reason}`;
}

/** An error from the server in the page's language: a refused move says why. */
export function errorText(e) {
  if (e.reason) {
    const p = e.params;
    const key = reasonKey(e.reason, p);
    const vars = {
      ...p,
      color: p.color && colorName(p.color),
      opponent: p.opponent && colorName(p.opponent),
      allowed: p.allowed && listText(p.allowed),
    };
    if (has(key)) return t(key, vars);
  }
  return t(e.code && has(`error.${e.code}`) ? `error.${e.code}` : "error.internal");
}

/** How long an opponent must be away on their turn before the win can be claimed (the
 * server's default `--claim-after-secs`). */
const CLAIM_AFTER_MS = 30000;

function formatClock(ms) {
  const left = Math.max(0, ms);
  const m = Math.floor(left / 60000);
  const s = Math.floor((left % 60000) / 1000);
  const tenths = left < 10000 ? `.${Math.floor((left % 1000) / 100)}` : "";
  return `${m}:${String(s).padStart(2, "0")}${tenths}`;
}

/** Shows game `id`; returns a function that stops its socket and timers. */
export async function gameScreen(app, id, wantsJoin, go) {
  let state = null;
  let selected = null;
  let viewPly = null;
  let positions = null;
  let flip = false;
  let offset = 0;
  let noticeTimer = null;
  let sending = false;

  const host = h("div", { class: "board-host" });
  const clocks = { top: h("div", { class: "clock", "data-clock": "top" }), bottom: h("div", { class: "clock", "data-clock": "bottom" }) };
  const status = h("p", { class: "status", "data-status": "" });
  const notice = h("p", { class: "notice", "data-notice": "", role: "status" });
  const invite = h("div", { class: "invite", hidden: true });
  const moveList = h("ol", { class: "moves", "data-movelist": "", "aria-label": t("game.moves") });
  const end = h("div", { class: "end", "data-end": "", hidden: true });
  const link = h("p", { class: "link", "data-link": "", role: "status" });
  const command = h("input", { type: "text", "data-command": "", autocomplete: "off", spellcheck: "false", placeholder: "c4-e4", "aria-describedby": "command-help" });
  const commandForm = h("form", { class: "command", onsubmit: (e) => { e.preventDefault(); typed(); } },
    h("label", {}, t("game.command"), " ", command),
    h("button", { type: "submit" }, t("game.command-go")),
    h("small", { id: "command-help" }, t("game.command-help")));
  const button = (label, attrs, handler) => h("button", { type: "button", ...attrs, onclick: handler }, label);
  const nav = h("div", { class: "nav" },
    button("«", { "aria-label": t("nav.first"), title: t("nav.first"), "data-nav": "first" }, () => step(-Infinity)),
    button("‹", { "aria-label": t("nav.back"), title: t("nav.back"), "data-nav": "back" }, () => step(-1)),
    button("›", { "aria-label": t("nav.forward"), title: t("nav.forward"), "data-nav": "forward" }, () => step(1)),
    button("»", { "aria-label": t("nav.last"), title: t("nav.last"), "data-nav": "last" }, () => step(Infinity)));
  const actions = h("div", { class: "actions" },
    button(t("act.flip"), { "data-act": "flip" }, () => { flip = !flip; render(); }),
    button(t("act.takeback"), { "data-act": "takeback" }, () => act(api.takeback)),
    button(t("act.resign"), { "data-act": "resign" }, () => { if (confirm(t("act.resign-confirm"))) act(api.resign); }),
    button(t("act.rematch"), { "data-act": "rematch" }, rematch),
    button(t("act.claim"), { "data-act": "claim", hidden: true }, () => act(api.claim)),
    button(t("act.copy"), { "data-act": "copy" }, copyRecord),
    h("a", { href: `/api/games/${id}/record`, download: `konane-${id}.txt`, class: "button", "data-act": "download" }, t("act.download")));
  app.replaceChildren(h("div", { class: "game" },
    h("div", { class: "board-wrap" }, clocks.top, host, clocks.bottom),
    h("aside", { class: "panel" }, status, notice, invite, end, commandForm, moveList, nav, actions, link)));

  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => onDrop(from, to),
    onEscape: () => { if (selected) { selected = null; render(); } },
  });

  const mySeats = () => {
    const seat = seatFor(id);
    if (!tokenFor(id) || !seat) return [];
    return seat === "both" ? ["black", "white"] : [seat];
  };
  const myTurn = () => state?.status === "playing" && mySeats().includes(state.turn);
  const isLive = () => viewPly === null || viewPly === state.ply;
  const flipped = () => flip !== (mySeats().length === 1 && mySeats()[0] === "white");

  function say(text) {
    notice.textContent = text;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { notice.textContent = ""; }, 5000);
  }

  function legalActions() {
    return isLive() && myTurn() ? actionsFor(state.legal_moves, selected) : new Map();
  }

  /** Why the player can't act on the board now, or null when they can. */
  function blocked() {
    if (!isLive()) return t("why.history");
    if (state.status === "finished") return t("why.over");
    if (state.status === "waiting") return t("why.waiting");
    if (myTurn()) return null;
    if (state.players[state.turn].engine) return t("why.engine");
    return mySeats().length ? t("why.their-turn", { color: colorName(state.turn) }) : t("why.watching");
  }

  function onSquare(name) {
    if (!state) return;
    const why = blocked();
    if (why) return say(why);
    const parsed = parsePosition(state.position);
    const r = clickOn(state.legal_moves, selected, name, (sq) => stoneOn(parsed, sq), state.turn, state.phase);
    if (r.move) return send(r.move);
    if ("select" in r) {
      selected = r.select;
      if (selected) {
        const targets = state.legal_moves.filter((m) => m.startsWith(`${selected}-`)).map((m) => m.split("-")[1]);
        announce(t("say.selected", { square: selected, targets: targets.join(", ") }));
      }
      return render();
    }
    say(t(r.why, { instruction: instruction(state), ...r.vars }));
  }

  function onDrop(from, to) {
    if (!state || blocked()) return;
    const move = `${from}-${to}`;
    if (state.legal_moves.includes(move)) return send(move);
    selected = from;
    render();
    say(t("why.not-target", { square: to, from }));
  }

  function typed() {
    const text = command.value.trim().toLowerCase().replace("x", "-");
    if (!text) return;
    const why = blocked();
    if (why) return say(why);
    if (!state.legal_moves.includes(text)) {
      return say(t("why.typed", { move: text, legal: state.legal_moves.join(", ") }));
    }
    command.value = "";
    send(text);
  }

  // One move in flight at a time: a double click or a second Enter is not a second move.
  async function send(move) {
    if (sending) return;
    sending = true;
    selected = null;
    render();
    try {
      update(await api.move(id, move, state.ply));
    } catch (e) {
      say(errorText(e));
      try {
        update(await api.game(id));
      } catch {
        // The socket brings the state once the server answers again.
      }
    } finally {
      sending = false;
    }
  }

  async function act(call) {
    try {
      update(await call(id));
    } catch (e) {
      say(errorText(e));
    }
  }

  async function rematch() {
    try {
      const r = await api.rematch(id);
      remember(r.id, tokenFor(id), r.seat);
      go(`/game/${r.id}`);
    } catch (e) {
      say(errorText(e));
    }
  }

  async function copyRecord() {
    try {
      await navigator.clipboard.writeText(await api.record(id));
      say(t("game.copied"));
    } catch {
      say(t("game.copy-refused"));
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
    if (viewPly !== null) announce(t("game.showing", { ply: viewPly, of: state.ply }));
  }

  function statusText(mine) {
    if (state.status === "waiting") return t("status.waiting");
    if (state.status === "finished") return t("status.over");
    if (state.players[state.turn].engine) return t("status.engine", { color: colorName(state.turn) });
    if (myTurn()) return mine.length === 1 ? t("status.yours", { instruction: instruction(state) }) : instruction(state);
    return t(mine.length ? "status.opponent" : "status.watching", { color: colorName(state.turn) });
  }

  function render() {
    if (!state) return;
    if (viewPly !== null && !positions?.[viewPly]) viewPly = null;
    const ply = viewPly ?? state.ply;
    const position = viewPly === null ? state.position : positions[ply];
    const mine = mySeats();
    const lastMove = ply > 0 ? state.moves[ply - 1].split("-") : null;
    board.draw({ position, flipped: flipped(), actions: legalActions(), selected, last: lastMove });

    status.textContent = statusText(mine) + (viewPly !== null ? ` ${t("game.showing", { ply: viewPly, of: state.ply })}` : "");
    status.dataset.status = state.status === "finished" ? "finished" : myTurn() ? "your-move" : state.status === "waiting" ? "waiting" : "their-move";

    invite.hidden = state.status !== "waiting" || !mine.length;
    if (!invite.hidden) {
      const url = `${location.origin}/game/${id}?join`;
      invite.replaceChildren(h("label", {}, t("game.invite"), " ", h("input", { readonly: true, value: url, "data-invite": "" })),
        h("button", { type: "button", onclick: () => navigator.clipboard.writeText(url).then(() => say(t("game.link-copied")), () => say(t("game.link-select"))) }, t("game.copy-link")));
    }
    end.hidden = state.status !== "finished";
    if (!end.hidden) {
      const you = mine.length === 1 ? t(mine[0] === state.result.winner ? "end.you-win" : "end.you-lose") : endText(state.result);
      const detail = `${mine.length === 1 ? `${endText(state.result)} ` : ""}${t("end.moves", { count: state.ply })}`;
      const next = state.rematch && mine.length
        ? h("a", { href: `/game/${state.rematch}`, onclick: (e) => { e.preventDefault(); rematch(); } }, t("end.rematch-waiting"))
        : mine.length ? button(t("act.rematch"), { class: "primary" }, rematch) : null;
      end.replaceChildren(h("strong", { class: "end-title" }, you), h("p", {}, detail), h("p", {}, next, " ", h("a", { href: "/" }, t("end.new-game"))),
        h("p", {}, h("a", { href: `/analysis?game=${id}`, class: "button", "data-analyse": "" }, t("end.analyse"))));
    }
    commandForm.hidden = !mine.length || state.status !== "playing";

    const focusedPly = document.activeElement?.closest?.("[data-movelist] [data-ply]")?.dataset.ply;
    moveList.replaceChildren(...state.moves.map((m, i) =>
      h("li", {}, h("button", { type: "button", class: i + 1 === ply ? "current" : null, "data-move": m, "data-ply": i + 1, "aria-current": i + 1 === ply ? "step" : null, onclick: () => step(i + 1 - (viewPly ?? state.ply)) }, m))));
    if (focusedPly) moveList.querySelector(`[data-ply="${focusedPly}"]`)?.focus();
    const engineGame = state.mode === "engine";
    actions.querySelector("[data-act=takeback]").hidden = !engineGame || !mine.length;
    actions.querySelector("[data-act=resign]").disabled = state.status !== "playing" || !mine.length;
    actions.querySelector("[data-act=rematch]").hidden = state.status !== "finished" || !mine.length;
    drawClocks();
  }

  function drawClocks() {
    const c = state?.clock;
    for (const el of Object.values(clocks)) el.hidden = !c;
    if (!c) return;
    const now = Date.now() + offset;
    const left = (side) => c[`${side}_ms`] - (c.running === side ? now - c.running_since : 0);
    const [top, bottom] = flipped() ? ["black", "white"] : ["white", "black"];
    for (const [slot, side] of [["top", top], ["bottom", bottom]]) {
      clocks[slot].textContent = `${colorName(side)} ${formatClock(left(side))}`;
      clocks[slot].classList.toggle("running", c.running === side);
    }
    // The opponent has long been on the move: offer the win in case they left (the server
    // knows whether they did, and says so when they have not).
    const mine = mySeats();
    const waiting = c.running && mine.length === 1 && c.running !== mine[0] && !state.players[c.running].engine;
    actions.querySelector("[data-act=claim]").hidden = !(waiting && now - c.running_since >= CLAIM_AFTER_MS);
  }

  function update(next) {
    if (state && next.seq <= state.seq) return;
    const before = state;
    // Earlier positions never change while the game goes on; a take-back or a new game
    // (fewer moves, or other ones) makes the kept list and the viewed move stale.
    const continues = before && next.ply >= before.ply && before.moves.every((m, i) => next.moves[i] === m);
    if (!continues) {
      positions = null;
      viewPly = null;
    }
    if (before && next.ply !== before.ply) selected = null;
    state = next;
    offset = state.server_time - Date.now();
    render();
    if (!before) return;
    const fresh = continues ? state.moves.slice(before.ply) : [];
    if (fresh.length && isLive()) {
      const last = fresh[fresh.length - 1];
      // Only the newest move is animated; the ones before it are only announced.
      if (fresh.length === 1) board.animate(last, before.position);
      sound(capturedBy(last).length);
    }
    const movers = fresh.map((m, i) => spoken(m, (before.ply + i) % 2 === 0 ? "black" : "white"));
    const result = state.status === "finished" && before.status !== "finished" ? [endText(state.result)] : [];
    if (movers.length || result.length) announce([...movers, ...result].join(" "));
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
    app.replaceChildren(h("div", { class: "start" }, h("h1", {}, t("game.not-found")), h("p", {}, errorText(e)), h("a", { href: "/" }, t("end.new-game"))));
    return () => {};
  }
  document.title = `Kōnane · ${state.size}`;
  const stop = live(id, update, (up) => { link.textContent = up ? "" : t("game.reconnecting"); link.dataset.link = up ? "up" : "down"; });
  const tick = setInterval(drawClocks, 100);
  const keys = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Escape" && selected) { selected = null; render(); }
  };
  document.addEventListener("keydown", keys);
  return () => { stop(); clearInterval(tick); document.removeEventListener("keydown", keys); };
}
