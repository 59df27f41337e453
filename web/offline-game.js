// A game played in this browser alone, `/play?mode=…&size=…`: against the computer or for
// two on one device, without the server, so it works offline (the start screen opens it
// then). The engine's worker checks every move (the same rules as the server) and plays
// the computer's side at the chosen level. There is no clock, and the game is not kept:
// it lives as long as the page.

import { announce, h } from "./dom.js";
import { Engine } from "./engine.js";
import { endText, errorText, instruction, spoken } from "./words.js";
import { t } from "./i18n.js";
import { MoveList, moveNumber, showingText } from "./movelist.js";
import { Board, parsePosition, stoneOn } from "./board.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { PlayerStrip } from "./players.js";
import { play as sound } from "./sound.js";

/** How long the computer's move waits at least, so the player sees their own land first. */
const COMPUTER_PAUSE_MS = 400;
const COLORS = ["black", "white"];
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A fresh seed for one choice of the computer (below 2^53, as the worker asks). */
const seed = () => Math.floor(Math.random() * Number.MAX_SAFE_INTEGER);

/** The address of a local game with `settings` (as the start screen's). */
export function localGamePath({ mode, size, opening, color, level }) {
  return `/play?${new URLSearchParams({ mode: mode === "engine" ? "engine" : "local", size, opening, color, level })}`;
}

/** The settings of the address, each checked; the worker judges the size. */
function settingsOf(query) {
  const q = new URLSearchParams(query);
  const level = Number(q.get("level"));
  const color = q.get("color");
  return {
    mode: q.get("mode") === "engine" ? "engine" : "local",
    size: q.get("size") || "8x8",
    opening: q.get("opening") === "center" ? "center" : "center-or-corner",
    level: Number.isInteger(level) && level >= 1 && level <= 8 ? level : 3,
    color: COLORS.includes(color) ? color : COLORS[Math.floor(Math.random() * 2)],
  };
}

/** Shows a local game from the address's settings; returns the function that ends it. */
export async function offlineGameScreen(app) {
  const settings = settingsOf(location.search);
  const engine = new Engine();
  const humans = settings.mode === "engine" ? [settings.color] : COLORS;
  const game = { moves: [], positions: [], view: null, viewPly: null, selected: null, flip: false, busy: false, stopped: false };

  const host = h("div", { class: "board-host" });
  const strips = { top: new PlayerStrip("top"), bottom: new PlayerStrip("bottom") };
  const status = h("p", { class: "status", "data-status": "" });
  const note = h("p", { class: "you-play", "data-local-note": "" }, t("local.note"));
  const notice = h("p", { class: "notice", "data-notice": "", role: "status" });
  const end = h("div", { class: "end", "data-end": "", hidden: true });
  const moveList = new MoveList((ply) => { game.viewPly = ply === game.moves.length ? null : ply; render(); announce(showingText(ply, game.moves)); });
  const flip = h("button", { type: "button", "data-act": "flip", onclick: () => { game.flip = !game.flip; render(); } }, t("act.flip"));
  app.replaceChildren(h("div", { class: "game", "data-local-game": settings.mode },
    h("div", { class: "board-wrap" }, strips.top.el, host, strips.bottom.el),
    h("aside", { class: "panel" }, status, note, notice, end, moveList.el, h("div", { class: "actions" }, flip))));
  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => { game.selected = null; render(); },
  });

  const over = () => Boolean(game.view?.winner);
  const humanToMove = () => !over() && humans.includes(game.view.turn);
  const live = () => game.viewPly === null;

  // The strips read the shape of the server's game state: who plays each side.
  function stateForStrips() {
    const player = (color) => (humans.includes(color) ? { seated: true } : { engine: true, level: settings.level });
    return { status: over() ? "finished" : "playing", turn: game.view.turn, players: { black: player("black"), white: player("white") } };
  }

  function statusText() {
    if (over()) return t("status.over");
    if (!humanToMove()) return t("status.engine", { color: t(`color.${game.view.turn}`) });
    return humans.length === 1 ? t("status.yours", { instruction: instruction(game.view) }) : instruction(game.view);
  }

  function drawEnd() {
    end.hidden = !over();
    if (end.hidden) return;
    const result = { winner: game.view.winner, reason: "no_moves" };
    const title = humans.length === 1 ? t(humans[0] === result.winner ? "end.you-win" : "end.you-lose") : endText(result);
    const detail = `${humans.length === 1 ? `${endText(result)} ` : ""}${t("end.moves", { count: moveNumber(game.moves.length) })}`;
    end.replaceChildren(h("strong", { class: "end-title" }, title), h("p", {}, detail),
      h("p", { class: "end-buttons" },
        h("button", { type: "button", class: "primary", "data-act": "again", onclick: () => begin() }, t("local.again")),
        h("a", { href: "/", class: "button" }, t("end.new-game"))));
  }

  function render() {
    const ply = game.viewPly ?? game.moves.length;
    // The player's move once the board takes it: not while a move is still being made.
    const yours = humanToMove() && !game.busy;
    const interactive = live() && yours;
    // Alone against the computer as White, the player's side is at the bottom.
    const flipped = game.flip !== (humans.length === 1 && humans[0] === "white");
    board.draw({
      position: game.positions[ply],
      flipped,
      actions: interactive ? actionsFor(game.view.legal_moves, game.selected) : new Map(),
      selected: game.selected,
      last: ply > 0 ? game.moves[ply - 1].split("-") : null,
    });
    status.textContent = statusText() + (live() ? "" : ` ${showingText(ply, game.moves)}`);
    status.dataset.status = over() ? "finished" : yours ? "your-move" : "their-move";
    const state = stateForStrips();
    const [top, bottom] = flipped ? ["black", "white"] : ["white", "black"];
    strips.top.draw(state, top, humans.length === 1 && humans[0] === top);
    strips.bottom.draw(state, bottom, humans.length === 1 && humans[0] === bottom);
    for (const strip of Object.values(strips)) strip.tick(null, false);
    drawEnd();
    moveList.draw(game.moves, ply);
  }

  function say(text) {
    notice.textContent = text;
  }

  /** Plays `move` (already known legal) and shows it; then the computer's turn, if it is. */
  async function play(move) {
    const before = game.view;
    const next = await engine.position(before.position, settings.opening, move);
    if (game.stopped) return;
    game.view = next;
    game.moves.push(move);
    game.positions.push(next.position);
    game.selected = null;
    game.viewPly = null;
    render();
    board.animate(move, before.position);
    sound(capturedBy(move).length);
    announce([spoken(move, before.turn), ...(over() ? [endText({ winner: next.winner, reason: "no_moves" })] : [])].join(" "));
  }

  async function computerMoves() {
    while (!game.stopped && !over() && !humanToMove()) {
      const started = performance.now();
      const { move } = await engine.choose(game.view.position, settings.opening, settings.level, seed());
      await pause(COMPUTER_PAUSE_MS - (performance.now() - started));
      if (game.stopped) return;
      await play(move);
    }
  }

  async function tryMove(move) {
    if (game.busy || !live() || !humanToMove()) return;
    if (!game.view.legal_moves.includes(move)) {
      game.selected = null;
      render();
      const [from, to] = move.split("-");
      return say(t("why.not-target", { square: to, from }));
    }
    say("");
    game.busy = true;
    try {
      await play(move);
      await computerMoves();
    } catch (e) {
      if (!game.stopped) say(errorText(e));
    } finally {
      game.busy = false;
      if (!game.stopped) render();
    }
  }

  function onSquare(name) {
    if (!live()) return say(t("why.history"));
    if (over()) return say(t("why.over"));
    if (game.busy || !humanToMove()) return say(t("why.engine"));
    const view = game.view;
    const r = clickOn(view.legal_moves, game.selected, name, (sq) => stoneOn(parsePosition(view.position), sq), view.turn, view.phase);
    if (r.move) return tryMove(r.move);
    if ("select" in r) {
      game.selected = r.select;
      return render();
    }
    say(t(r.why, { instruction: instruction(view), ...r.vars }));
  }

  /** A new game with the same settings (and, for a random colour, the same colour). */
  async function begin() {
    game.busy = true;
    say("");
    try {
      await engine.newGame();
      const record = await engine.request({ op: "record", text: `[Size "${settings.size}"]\n[Opening "${settings.opening}"]\n\n` });
      game.view = await engine.position(record.start, settings.opening);
      Object.assign(game, { moves: [], positions: [record.start], viewPly: null, selected: null });
      document.title = `Kōnane · ${game.view.size}`;
      render();
      await computerMoves();
    } catch (e) {
      if (!game.stopped) say(errorText(e));
    } finally {
      game.busy = false;
      if (!game.stopped && game.view) render();
    }
  }

  await begin();
  return () => {
    game.stopped = true;
    engine.stop();
  };
}
