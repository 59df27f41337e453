// The game screen `/game/{id}`: the board between its two players (names, clocks), the
// move list, stepping through the game, the buttons around it, the invitation, and the
// live socket. The server sends every position with its legal moves; this only shows them
// and sends the player's choice back. What the screen shows lives in one object, `ui`.

import { sessionName } from "./account.js";
import { api, live, remember, seatFor, takeDroppedName, tellGameEnded, tokenFor } from "./api.js";
import { Board, parsePosition, stoneOn } from "./board.js";
import { Computer, engineHost } from "./computer.js";
import { announce, h } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { MoveList, moveNumber, showingText, unbroken } from "./movelist.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { PlayerStrip, playerName } from "./players.js";
import { play as sound } from "./sound.js";

const colorName = (c) => t(`color.${c}`);

/** What the side to move must do now. */
export function instruction(state) {
  const vars = { color: colorName(state.turn) };
  if (state.phase === "black-removal") return t(state.opening === "center" ? "do.remove-center" : "do.remove-center-corner", vars);
  if (state.phase === "white-removal") return t("do.remove-adjacent", vars);
  return t("do.jump", vars);
}

/** Who won and why, in words. */
export function endText(result) {
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

/** Typed moves may hold the hyphens the page shows (U+2011) or other dashes. */
const normalised = (text) => text.trim().toLowerCase().replace(/[x\u2010-\u2015\u2212]/g, "-");

/** Shows game `id`; returns a function that stops its socket and timers. */
export async function gameScreen(app, id, wantsJoin, go) {
  const ui = {
    state: null,
    selected: null,
    viewPly: null, // null: the live position
    positions: null,
    flip: false,
    offset: 0, // the server's clock minus ours
    noticeTimer: null,
    sending: false,
    typing: false, // the move box is open
    asking: null, // the question being confirmed: "resign" or "cancel"
    cameByLink: wantsJoin, // came with an invitation link, which may be used up
    computerStuck: false, // this browser could not play the computer's move
  };

  const host = h("div", { class: "board-host" });
  const strips = { top: new PlayerStrip("top"), bottom: new PlayerStrip("bottom") };
  const status = h("p", { class: "status", "data-status": "" });
  const youPlay = h("p", { class: "you-play", "data-you-play": "" });
  const notice = h("p", { class: "notice", "data-notice": "", role: "status" });
  const confirmBox = h("div", { class: "confirm", "data-confirm": "", hidden: true });
  const invite = h("div", { class: "invite", "data-invite-box": "", hidden: true });
  const moveList = new MoveList((ply) => step(ply - (ui.viewPly ?? ui.state.ply)));
  const end = h("div", { class: "end", "data-end": "", hidden: true });
  const link = h("p", { class: "link", "data-link": "", role: "status" });
  const command = h("input", { type: "text", id: `command-${id}`, "data-command": "", autocomplete: "off", spellcheck: "false", placeholder: "c4-e4", "aria-describedby": "command-help" });
  const commandForm = h("form", { class: "command", id: "command-form", hidden: true, onsubmit: (e) => { e.preventDefault(); typed(); } },
    h("label", { for: `command-${id}` }, t("game.command")), command,
    h("button", { type: "submit" }, t("game.command-go")),
    h("small", { id: "command-help" }, t("game.command-help")));
  command.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      setTyping(false);
    }
  });
  const button = (label, attrs, handler) => h("button", { type: "button", ...attrs, onclick: handler }, label);
  const typeToggle = button(t("game.command-toggle"), { class: "type-toggle", "data-command-toggle": "", "aria-expanded": "false", "aria-controls": "command-form" }, () => setTyping(!ui.typing));
  const nav = h("div", { class: "nav" },
    button("«", { "aria-label": t("nav.first"), title: t("nav.first"), "data-nav": "first" }, () => step(-Infinity)),
    button("‹", { "aria-label": t("nav.back"), title: t("nav.back"), "data-nav": "back" }, () => step(-1)),
    button("›", { "aria-label": t("nav.forward"), title: t("nav.forward"), "data-nav": "forward" }, () => step(1)),
    button("»", { "aria-label": t("nav.last"), title: t("nav.last"), "data-nav": "last" }, () => step(Infinity)),
    typeToggle);
  const actions = h("div", { class: "actions" },
    button(t("act.flip"), { "data-act": "flip" }, () => { ui.flip = !ui.flip; render(); }),
    button(t("act.takeback"), { "data-act": "takeback" }, () => act(api.takeback)),
    button(t("act.resign"), { "data-act": "resign" }, () => ask("resign")),
    button(t("act.claim"), { "data-act": "claim", hidden: true }, () => act(api.claim)),
    button(t("act.copy"), { "data-act": "copy" }, copyRecord),
    h("a", { href: `/api/games/${id}/record`, download: `konane-${id}.txt`, class: "button", "data-act": "download" }, t("act.download")));
  app.replaceChildren(h("div", { class: "game" },
    h("div", { class: "board-wrap" }, strips.top.el, host, strips.bottom.el),
    h("aside", { class: "panel" }, status, youPlay, notice, confirmBox, invite, end, moveList.el, nav, commandForm, actions, link)));

  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => onDrop(from, to),
    onEscape: () => { if (ui.selected) { ui.selected = null; render(); } },
  });

  // In a game whose computer this browser plays, it moves from the states shown here; when
  // it cannot, the status says so until a move of its gets through.
  const computer = new Computer(id, (state) => { ui.computerStuck = false; update(state); }, () => { ui.computerStuck = true; render(); });

  const mySeats = () => {
    const seat = seatFor(id);
    if (!tokenFor(id) || !seat) return [];
    return seat === "both" ? ["black", "white"] : [seat];
  };
  const myTurn = () => ui.state?.status === "playing" && mySeats().includes(ui.state.turn);
  const isLive = () => ui.viewPly === null || ui.viewPly === ui.state.ply;
  const flipped = () => ui.flip !== (mySeats().length === 1 && mySeats()[0] === "white");

  function say(text) {
    notice.textContent = text;
    clearTimeout(ui.noticeTimer);
    ui.noticeTimer = setTimeout(() => { notice.textContent = ""; }, 5000);
  }

  function setTyping(open) {
    ui.typing = open;
    render();
    if (open) command.focus();
    else typeToggle.focus();
  }

  function legalActions() {
    return isLive() && myTurn() ? actionsFor(ui.state.legal_moves, ui.selected) : new Map();
  }

  /** Why the player can't act on the board now, or null when they can. */
  function blocked() {
    const state = ui.state;
    if (!isLive()) return t("why.history");
    if (state.status === "finished") return t("why.over");
    if (state.status === "waiting") return t("why.waiting");
    if (myTurn()) return null;
    if (state.players[state.turn].engine) return t("why.engine");
    return mySeats().length ? t("why.their-turn", { color: colorName(state.turn) }) : t("why.watching");
  }

  function onSquare(name) {
    const state = ui.state;
    if (!state) return;
    const why = blocked();
    if (why) return say(why);
    const parsed = parsePosition(state.position);
    const r = clickOn(state.legal_moves, ui.selected, name, (sq) => stoneOn(parsed, sq), state.turn, state.phase);
    if (r.move) return send(r.move);
    if ("select" in r) {
      ui.selected = r.select;
      if (ui.selected) {
        const targets = state.legal_moves.filter((m) => m.startsWith(`${ui.selected}-`)).map((m) => m.split("-")[1]);
        announce(t("say.selected", { square: ui.selected, targets: targets.join(", ") }));
      }
      return render();
    }
    say(t(r.why, { instruction: instruction(state), ...r.vars }));
  }

  function onDrop(from, to) {
    if (!ui.state || blocked()) return;
    const move = `${from}-${to}`;
    if (ui.state.legal_moves.includes(move)) return send(move);
    ui.selected = from;
    render();
    say(t("why.not-target", { square: to, from }));
  }

  function typed() {
    const text = normalised(command.value);
    if (!text) return;
    const why = blocked();
    if (why) return say(why);
    if (!ui.state.legal_moves.includes(text)) {
      return say(t("why.typed", { move: unbroken(text), legal: ui.state.legal_moves.map(unbroken).join(", ") }));
    }
    command.value = "";
    send(text);
  }

  // One move in flight at a time: a double click or a second Enter is not a second move.
  async function send(move) {
    if (ui.sending) return;
    ui.sending = true;
    ui.selected = null;
    render();
    try {
      update(await api.move(id, move, ui.state.ply));
    } catch (e) {
      say(errorText(e));
      try {
        update(await api.game(id));
      } catch {
        // The socket brings the state once the server answers again.
      }
    } finally {
      ui.sending = false;
    }
  }

  async function act(call) {
    try {
      update(await call(id));
    } catch (e) {
      say(errorText(e));
    }
  }

  /** Asks on the page, not in a browser dialog, before an action that cannot be undone. */
  function ask(what) {
    ui.asking = what;
    render();
    confirmBox.querySelector("[data-confirm-yes]")?.focus();
  }

  function drawConfirm() {
    const what = ui.asking;
    confirmBox.hidden = !what;
    // Drawn once per question: a move arriving meanwhile must not take the focus away.
    if (!what || confirmBox.dataset.what === what) return;
    confirmBox.dataset.what = what;
    const answer = (yes) => async () => {
      ui.asking = null;
      confirmBox.dataset.what = "";
      render();
      if (yes) await act(what === "resign" ? api.resign : api.cancel);
      actions.querySelector("[data-act=flip]").focus();
    };
    confirmBox.replaceChildren(
      h("p", { id: "confirm-question" }, t(`confirm.${what}`)),
      h("div", { class: "confirm-buttons", role: "group", "aria-labelledby": "confirm-question" },
        button(t(`confirm.${what}-yes`), { class: "primary", "data-confirm-yes": "" }, answer(true)),
        button(t("confirm.no"), { "data-confirm-no": "" }, answer(false))));
  }

  async function rematch() {
    try {
      const r = await api.rematch(id, ui.state.mode === "engine" ? { engine_host: await engineHost() } : undefined);
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
    const state = ui.state;
    if (!state) return;
    const current = ui.viewPly ?? state.ply;
    const target = Math.max(0, Math.min(state.ply, current + delta));
    if (target !== state.ply && (!ui.positions || ui.positions.length <= target)) {
      ui.positions = (await api.positions(id)).positions;
    }
    ui.viewPly = target === state.ply ? null : target;
    ui.selected = null;
    render();
    if (ui.viewPly !== null) announce(showingText(ui.viewPly, state.moves));
  }

  function statusText(mine) {
    const state = ui.state;
    if (state.status === "waiting") return t("status.waiting");
    if (state.status === "finished") return t("status.over");
    if (state.players[state.turn].engine) return ui.computerStuck ? t("computer.failed") : t("status.engine", { color: colorName(state.turn) });
    if (myTurn()) return mine.length === 1 ? t("status.yours", { instruction: instruction(state) }) : instruction(state);
    return t(mine.length ? "status.opponent" : "status.watching", { color: colorName(state.turn) });
  }

  /** Whom the viewer plays, or that they watch: "You play White against Ana." */
  function drawYouPlay(mine) {
    const state = ui.state;
    let text = "";
    let role = "";
    if (mine.length === 1) {
      const [me] = mine;
      const other = me === "black" ? "white" : "black";
      role = me;
      const waitingFor = state.challenge ? t("challenge.waiting", { name: state.challenge }) : t("you.waiting", { color: colorName(me) });
      text = state.status === "waiting"
        ? waitingFor
        : t("you.against", { color: colorName(me), opponent: playerName(state.players[other], other) });
    } else if (!mine.length) {
      role = "watching";
      const who = { black: playerName(state.players.black, "black"), white: playerName(state.players.white, "white") };
      if (ui.cameByLink && state.result?.reason === "aborted" && state.ply === 0) text = t("you.link-cancelled");
      else if (ui.cameByLink) text = t("you.link-used", who);
      else text = t("you.watching", who);
    }
    youPlay.hidden = !text;
    youPlay.textContent = text;
    youPlay.dataset.youPlay = role;
  }

  function drawInvite(mine) {
    const state = ui.state;
    invite.hidden = state.status !== "waiting" || !mine.length;
    if (invite.hidden) return;
    if (invite.dataset.for === id) return; // drawn once: a redraw would lose the copy feedback
    invite.dataset.for = id;
    const url = `${location.origin}/game/${id}?join`;
    const field = h("textarea", { id: "invite-link", readonly: true, rows: 2, "data-invite": "", onfocus: (e) => e.target.select() });
    field.value = url;
    const copy = button(t("game.copy-link"), { class: "primary", "data-copy-link": "" }, async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = t("game.link-copied");
        copy.dataset.copied = "";
        // The button says it; a screen reader hears it once.
        announce(t("game.link-copied"));
        setTimeout(() => { copy.textContent = t("game.copy-link"); delete copy.dataset.copied; }, 2500);
      } catch {
        field.focus();
        say(t("game.link-select"));
      }
    });
    const share = typeof navigator.share === "function"
      ? button(t("game.share-link"), { "data-share-link": "" }, () => navigator.share({ title: "Kōnane", text: t("game.share-text"), url }).catch(() => {}))
      : null;
    invite.replaceChildren(
      h("label", { for: "invite-link" }, t("game.invite")), field,
      h("div", { class: "invite-buttons" }, copy, share, button(t("game.cancel-invite"), { "data-cancel-invite": "" }, () => ask("cancel"))));
  }

  function drawEnd(mine) {
    const state = ui.state;
    end.hidden = state.status !== "finished";
    if (end.hidden) return;
    const aborted = state.result.reason === "aborted";
    const you = mine.length === 1 && !aborted ? t(mine[0] === state.result.winner ? "end.you-win" : "end.you-lose") : endText(state.result);
    const detail = `${mine.length === 1 && !aborted ? `${endText(state.result)} ` : ""}${t("end.moves", { count: moveNumber(state.ply) })}`;
    const next = aborted || !mine.length
      ? null
      : state.rematch
        ? h("a", { href: `/game/${state.rematch}`, onclick: (e) => { e.preventDefault(); rematch(); } }, t("end.rematch-waiting"))
        : button(t("act.rematch"), { class: "primary", "data-act": "rematch" }, rematch);
    end.replaceChildren(h("strong", { class: "end-title" }, you), h("p", {}, detail),
      h("p", { class: "end-buttons" }, next, h("a", { href: "/", class: "button" }, t("end.new-game")),
        state.ply ? h("a", { href: `/analysis?game=${id}`, class: "button", "data-analyse": "" }, t("end.analyse")) : null));
  }

  function render() {
    const state = ui.state;
    if (!state) return;
    if (ui.viewPly !== null && !ui.positions?.[ui.viewPly]) ui.viewPly = null;
    const ply = ui.viewPly ?? state.ply;
    const position = ui.viewPly === null ? state.position : ui.positions[ply];
    const mine = mySeats();
    const lastMove = ply > 0 ? state.moves[ply - 1].split("-") : null;
    board.draw({ position, flipped: flipped(), actions: legalActions(), selected: ui.selected, last: lastMove });

    status.textContent = statusText(mine) + (ui.viewPly !== null ? ` ${showingText(ui.viewPly, state.moves)}` : "");
    status.dataset.status = state.status === "finished" ? "finished" : myTurn() ? "your-move" : state.status === "waiting" ? "waiting" : "their-move";
    const [top, bottom] = flipped() ? ["black", "white"] : ["white", "black"];
    strips.top.draw(state, top, mine.length === 1 && mine[0] === top);
    strips.bottom.draw(state, bottom, mine.length === 1 && mine[0] === bottom);
    drawYouPlay(mine);
    drawInvite(mine);
    drawEnd(mine);
    if (state.status !== "waiting") invite.dataset.for = "";
    if ((ui.asking === "resign" && state.status !== "playing") || (ui.asking === "cancel" && state.status !== "waiting")) {
      ui.asking = null;
      confirmBox.dataset.what = "";
    }
    drawConfirm();

    const canType = mine.length > 0 && state.status === "playing";
    typeToggle.hidden = !canType;
    typeToggle.setAttribute("aria-expanded", String(canType && ui.typing));
    commandForm.hidden = !canType || !ui.typing;
    moveList.draw(state.moves, ply);
    const playing = state.status === "playing" && mine.length > 0;
    actions.querySelector("[data-act=takeback]").hidden = !playing || state.mode !== "engine";
    actions.querySelector("[data-act=resign]").hidden = !playing || Boolean(ui.asking);
    drawClocks();
  }

  function drawClocks() {
    const state = ui.state;
    const c = state?.clock;
    const now = Date.now() + ui.offset;
    const left = (side) => c[`${side}_ms`] - (c.running === side ? now - c.running_since : 0);
    for (const strip of Object.values(strips)) {
      const side = strip.el.dataset.side;
      strip.tick(c ? left(side) : null, Boolean(c) && c.running === side);
    }
    if (!c) return;
    // The opponent has long been on the move: offer the win in case they left (the server
    // knows whether they did, and says so when they have not).
    const mine = mySeats();
    const waiting = c.running && mine.length === 1 && c.running !== mine[0] && !state.players[c.running].engine;
    actions.querySelector("[data-act=claim]").hidden = !(waiting && now - c.running_since >= CLAIM_AFTER_MS);
  }

  function update(next) {
    if (ui.state && next.seq <= ui.state.seq) return;
    const before = ui.state;
    // Earlier positions never change while the game goes on; a take-back or a new game
    // (fewer moves, or other ones) makes the kept list and the viewed move stale.
    const continues = before && next.ply >= before.ply && before.moves.every((m, i) => next.moves[i] === m);
    if (!continues) {
      ui.positions = null;
      ui.viewPly = null;
    }
    if (before && next.ply !== before.ply) ui.selected = null;
    ui.state = next;
    ui.offset = next.server_time - Date.now();
    render();
    computer.see(next);
    if (!before) return;
    const fresh = continues ? next.moves.slice(before.ply) : [];
    if (fresh.length && isLive()) {
      const last = fresh[fresh.length - 1];
      // Only the newest move is animated; the ones before it are only announced.
      if (fresh.length === 1) board.animate(last, before.position);
      sound(capturedBy(last).length);
    }
    const movers = fresh.map((m, i) => spoken(m, (before.ply + i) % 2 === 0 ? "black" : "white"));
    const result = next.status === "finished" && before.status !== "finished" ? [endText(next.result)] : [];
    if (result.length && mySeats().length) tellGameEnded(id);
    if (movers.length || result.length) announce([...movers, ...result].join(" "));
  }

  /** A game of the logged-in account opened on a device without its token (a link, the
   * address typed in): the server lends the account's own seat, kept as the start page
   * keeps the seats it lends, so that logging out forgets it. Asked only when a seat shows
   * the account's name: a spectator's page asks nothing. */
  async function borrowSeat(state) {
    if (tokenFor(id)) return;
    const name = await sessionName();
    if (!name || !["black", "white"].some((c) => state.players[c].registered && state.players[c].name === name)) return;
    const mine = await api.accountSeat(id).catch(() => null);
    if (mine) remember(id, mine.token, mine.seat, true);
  }

  try {
    let first = await api.game(id);
    await borrowSeat(first);
    const free = ["black", "white"].some((c) => !first.players[c].seated);
    if (!tokenFor(id) && first.status === "waiting" && free && wantsJoin) {
      const joined = await api.join(id);
      remember(id, joined.token, joined.seat);
      first = joined.game;
      ui.cameByLink = false;
    }
    if (wantsJoin) history.replaceState(null, "", `/game/${id}`);
    if (tokenFor(id)) ui.cameByLink = false;
    update(first);
    const dropped = takeDroppedName();
    if (dropped) notice.textContent = t("name.dropped", { name: dropped });
  } catch (e) {
    app.replaceChildren(h("div", { class: "start" }, h("h1", {}, t("game.not-found")), h("p", {}, errorText(e)), h("a", { href: "/" }, t("end.new-game"))));
    return () => {};
  }
  document.title = `Kōnane · ${ui.state.size}`;
  const stop = live(id, update, (up) => { link.textContent = up ? "" : t("game.reconnecting"); link.dataset.link = up ? "up" : "down"; });
  const tick = setInterval(drawClocks, 100);
  const keys = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Escape" && ui.selected) { ui.selected = null; render(); }
  };
  document.addEventListener("keydown", keys);
  return () => { stop(); computer.stop(); clearInterval(tick); clearTimeout(ui.noticeTimer); document.removeEventListener("keydown", keys); };
}
