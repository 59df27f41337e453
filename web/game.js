// The game screen `/game/{id}`: wires the state (game-state.js), its view (game-view.js)
// and the line to the server (game-socket.js). The server sends every position with its
// legal moves; the screen only shows them and sends the player's choice back. Here live
// the effects: requests, the socket, the clock's tick, sounds, the live region, keys.

import { sessionName } from "./account.js";
import { remember, seatFor, takeDroppedName, tellGameEnded, tokenFor } from "./api.js";
import { Computer, engineHost } from "./computer.js";
import { announce } from "./dom.js";
import { t } from "./i18n.js";
import { showingText } from "./movelist.js";
import { capturedBy } from "./picker.js";
import { play as sound } from "./sound.js";
import * as state from "./game-state.js";
import { gameRequests, live } from "./game-socket.js";
import { GameView } from "./game-view.js";
import { colorName, endText, errorText, instruction, spoken } from "./words.js";

/** How often the clocks are drawn. */
const TICK_MS = 100;

/** Shows game `id`; returns a function that stops its socket and timers. */
export async function gameScreen(app, id, wantsJoin, go) {
  const server = gameRequests(id);
  let s = state.initial(wantsJoin);
  const storedSeats = () => state.seatsOf(seatFor(id), Boolean(tokenFor(id)));

  const render = () => view.draw(s, Date.now());
  const set = (next) => {
    s = next;
    render();
  };
  /** Lets go of a picked-up stone, if any. */
  const deselect = () => {
    if (s.selected) set(state.deselect(s));
  };

  /** Words a blocked board: "It is White's turn." */
  const whyBlocked = (b) => t(b.key, b.color ? { color: colorName(b.color) } : {});

  function onSquare(name) {
    const r = state.click(s, name);
    if (r.blocked) return view.say(whyBlocked(r.blocked));
    if (r.move) return send(r.move);
    if (r.state !== s) {
      set(r.state);
      if (r.selected) announce(t("say.selected", { square: r.selected, targets: r.targets.join(", ") }));
      return;
    }
    if (r.why) view.say(t(r.why, { instruction: instruction(s.game), ...r.vars }));
  }

  function onDrop(from, to) {
    const r = state.drop(s, from, to);
    if (r.move) return send(r.move);
    if (r.why) {
      set(r.state);
      view.say(t(r.why, r.vars));
    }
  }

  function onTyped(text) {
    const r = state.typed(s, text);
    if (r.blocked) return view.say(whyBlocked(r.blocked));
    if (r.why) return view.say(t(r.why, r.vars));
    if (!r.move) return;
    view.clearCommand();
    send(r.move);
  }

  function onTyping(open) {
    const next = open === null ? !s.typing : open;
    set(state.typing(s, next));
    view.focusTyping(next);
  }

  // One move in flight at a time: a double click or a second Enter is not a second move.
  async function send(move) {
    if (s.sending) return;
    set(state.sending(s, true));
    try {
      update(await server.move(move, s.game.ply));
    } catch (e) {
      view.say(errorText(e));
      try {
        update(await server.game());
      } catch {
        // The socket brings the state once the server answers again.
      }
    } finally {
      s = state.sending(s, false);
    }
  }

  async function act(call) {
    try {
      update(await call());
    } catch (e) {
      view.say(errorText(e));
    }
  }

  function onAsk(what) {
    set(state.asking(s, what));
    view.focusQuestion();
  }

  async function onAnswer(yes) {
    const what = s.asking;
    set(state.asking(s, null));
    if (yes) await act(what === "resign" ? server.resign : server.cancel);
    view.focusActions();
  }

  async function rematch() {
    try {
      const r = await server.rematch(s.game.mode === "engine" ? { engine_host: await engineHost() } : undefined);
      remember(r.id, tokenFor(id), r.seat);
      go(`/game/${r.id}`);
    } catch (e) {
      view.say(errorText(e));
    }
  }

  async function copyRecord() {
    try {
      await navigator.clipboard.writeText(await server.record());
      view.say(t("game.copied"));
    } catch {
      view.say(t("game.copy-refused"));
    }
  }

  async function step(delta) {
    if (!s.game) return;
    const moves = s.game.moves;
    const target = state.stepTarget(s, delta);
    if (state.needsPositions(s, target)) s = state.withPositions(s, (await server.positions()).positions);
    set(state.showing(s, target));
    if (s.viewPly !== null) announce(showingText(s.viewPly, moves));
  }

  const view = new GameView(app, id, {
    onSquare,
    onDrop,
    onEscape: deselect,
    onStep: step,
    onPick: (ply) => step(ply - (s.viewPly ?? s.game.ply)),
    onTyped,
    onTyping,
    onFlip: () => set(state.turned(s)),
    onTakeback: () => act(server.takeback),
    onAsk,
    onAnswer,
    onClaim: () => act(server.claim),
    onCopyRecord: copyRecord,
    onRematch: rematch,
  });

  // In a game whose computer this browser plays, it moves from the states shown here; when
  // it cannot, the status says so until a move of its gets through.
  const computer = new Computer(id, (game) => { s = state.stuck(s, false); update(game); }, () => set(state.stuck(s, true)));

  /** A game from the server: drawn, then its news played, animated and announced. */
  function update(game) {
    const before = s;
    const next = state.received(state.withSeats(s, storedSeats()), game, Date.now());
    if (next.game === before.game) return;
    set(next);
    computer.see(game);
    if (!before.game) return;
    const news = state.news(before.game, game);
    if (news.moves.length && state.isLive(s)) {
      const last = news.moves[news.moves.length - 1].move;
      // Only the newest move is animated; the ones before it are only announced.
      if (news.moves.length === 1) view.animate(last, before.game.position);
      sound(capturedBy(last).length);
    }
    const said = news.moves.map(({ move, color }) => spoken(move, color));
    if (news.ended) {
      said.push(endText(game.result));
      if (s.seats.length) tellGameEnded(id);
    }
    if (said.length) announce(said.join(" "));
  }

  /** A game of the logged-in account opened on a device without its token (a link, the
   * address typed in): the server lends the account's own seat, kept as the start page
   * keeps the seats it lends, so that logging out forgets it. Asked only when a seat shows
   * the account's name: a spectator's page asks nothing. */
  async function borrowSeat(game) {
    if (tokenFor(id)) return;
    const name = await sessionName();
    if (!name || !["black", "white"].some((c) => game.players[c].registered && game.players[c].name === name)) return;
    const mine = await server.accountSeat();
    if (mine) remember(id, mine.token, mine.seat, true);
  }

  try {
    let first = await server.game();
    await borrowSeat(first);
    const free = ["black", "white"].some((c) => !first.players[c].seated);
    let cameByLink = wantsJoin;
    if (!tokenFor(id) && first.status === "waiting" && free && wantsJoin) {
      const joined = await server.join();
      remember(id, joined.token, joined.seat);
      first = joined.game;
      cameByLink = false;
    }
    if (wantsJoin) history.replaceState(null, "", `/game/${id}`);
    if (tokenFor(id)) cameByLink = false;
    s = { ...s, cameByLink };
    update(first);
    const dropped = takeDroppedName();
    if (dropped) view.tell(t("name.dropped", { name: dropped }));
  } catch (e) {
    view.missing(app, errorText(e));
    return () => {};
  }
  document.title = `Kōnane · ${s.game.size}`;
  const stop = live(id, update, (up) => view.linked(up));
  const tick = setInterval(() => view.drawClocks(s, Date.now()), TICK_MS);
  const keys = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Escape") deselect();
  };
  document.addEventListener("keydown", keys);
  return () => { stop(); computer.stop(); clearInterval(tick); view.stop(); document.removeEventListener("keydown", keys); };
}
