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

/** Words a blocked board: "It is White's turn." */
const whyBlocked = (b) => t(b.key, b.color ? { color: colorName(b.color) } : {});

/** One game's screen: its state `s`, its view, its requests, and the effects of events. */
class GameScreen {
  constructor(app, id, wantsJoin, go) {
    this.app = app;
    this.id = id;
    this.go = go;
    this.server = gameRequests(id);
    this.s = state.initial(wantsJoin);
    this.view = new GameView(app, id, {
      onSquare: (name) => this.onSquare(name),
      onDrop: (from, to) => this.onDrop(from, to),
      onEscape: () => this.deselect(),
      onStep: (delta) => this.step(delta),
      onPick: (ply) => this.step(ply - (this.s.viewPly ?? this.s.game.ply)),
      onTyped: (text) => this.onTyped(text),
      onTyping: (open) => this.onTyping(open),
      onFlip: () => this.set(state.turned(this.s)),
      onTakeback: () => this.act(this.server.takeback),
      onAsk: (what) => this.onAsk(what),
      onAnswer: (yes) => this.onAnswer(yes),
      onClaim: () => this.act(this.server.claim),
      onCopyRecord: () => this.copyRecord(),
      onRematch: () => this.rematch(),
    });
    // In a game whose computer this browser plays, it moves from the states shown here;
    // when it cannot, the status says so until a move of its gets through.
    this.computer = new Computer(id, (game) => { this.s = state.stuck(this.s, false); this.update(game); }, () => this.set(state.stuck(this.s, true)));
  }

  /** The colours this browser holds a seat of, as stored with the game's token. */
  storedSeats() {
    return state.seatsOf(seatFor(this.id), Boolean(tokenFor(this.id)));
  }

  set(next) {
    this.s = next;
    this.view.draw(next, Date.now());
  }

  /** Lets go of a picked-up stone, if any. */
  deselect() {
    if (this.s.selected) this.set(state.deselect(this.s));
  }

  onSquare(name) {
    const r = state.click(this.s, name);
    if (r.blocked) return this.view.say(whyBlocked(r.blocked));
    if (r.move) return this.send(r.move);
    if (r.state !== this.s) {
      this.set(r.state);
      if (r.selected) announce(t("say.selected", { square: r.selected, targets: r.targets.join(", ") }));
      return;
    }
    if (r.why) this.view.say(t(r.why, { instruction: instruction(this.s.game), ...r.vars }));
  }

  onDrop(from, to) {
    const r = state.drop(this.s, from, to);
    if (r.move) return this.send(r.move);
    if (r.why) {
      this.set(r.state);
      this.view.say(t(r.why, r.vars));
    }
  }

  onTyped(text) {
    const r = state.typed(this.s, text);
    if (r.blocked) return this.view.say(whyBlocked(r.blocked));
    if (r.why) return this.view.say(t(r.why, r.vars));
    if (!r.move) return;
    this.view.clearCommand();
    this.send(r.move);
  }

  /** Opens or closes the move box (`open` null: toggles it). */
  onTyping(open) {
    const next = open === null ? !this.s.typing : open;
    this.set(state.typing(this.s, next));
    this.view.focusTyping(next);
  }

  // One move in flight at a time: a double click or a second Enter is not a second move.
  async send(move) {
    if (this.s.sending) return;
    this.set(state.sending(this.s, true));
    try {
      this.update(await this.server.move(move, this.s.game.ply));
    } catch (e) {
      this.view.say(errorText(e));
      try {
        this.update(await this.server.game());
      } catch {
        // The socket brings the state once the server answers again.
      }
    } finally {
      this.s = state.sending(this.s, false);
    }
  }

  async act(call) {
    try {
      this.update(await call());
    } catch (e) {
      this.view.say(errorText(e));
    }
  }

  /** Asks on the page before an action that cannot be undone. */
  onAsk(what) {
    this.set(state.asking(this.s, what));
    this.view.focusQuestion();
  }

  async onAnswer(yes) {
    const what = this.s.asking;
    this.set(state.asking(this.s, null));
    if (yes) await this.act(what === "resign" ? this.server.resign : this.server.cancel);
    this.view.focusActions();
  }

  async rematch() {
    try {
      const r = await this.server.rematch(this.s.game.mode === "engine" ? { engine_host: await engineHost() } : undefined);
      remember(r.id, tokenFor(this.id), r.seat);
      this.go(`/game/${r.id}`);
    } catch (e) {
      this.view.say(errorText(e));
    }
  }

  async copyRecord() {
    try {
      await navigator.clipboard.writeText(await this.server.record());
      this.view.say(t("game.copied"));
    } catch {
      this.view.say(t("game.copy-refused"));
    }
  }

  async step(delta) {
    if (!this.s.game) return;
    const moves = this.s.game.moves;
    const target = state.stepTarget(this.s, delta);
    if (state.needsPositions(this.s, target)) this.s = state.withPositions(this.s, (await this.server.positions()).positions);
    this.set(state.showing(this.s, target));
    if (this.s.viewPly !== null) announce(showingText(this.s.viewPly, moves));
  }

  /** A game from the server: drawn, then its news played, animated and announced. */
  update(game) {
    const before = this.s;
    const next = state.received(state.withSeats(before, this.storedSeats()), game, Date.now());
    if (next.game === before.game) return;
    this.set(next);
    this.computer.see(game);
    if (!before.game) return;
    const news = state.news(before.game, game);
    if (news.moves.length && state.isLive(next)) {
      const last = news.moves[news.moves.length - 1].move;
      // Only the newest move is animated; the ones before it are only announced.
      if (news.moves.length === 1) this.view.animate(last, before.game.position);
      sound(capturedBy(last).length);
    }
    const said = news.moves.map(({ move, color }) => spoken(move, color));
    if (news.ended) {
      said.push(endText(game.result));
      if (next.seats.length) tellGameEnded(this.id);
    }
    if (said.length) announce(said.join(" "));
  }

  /** A game of the logged-in account opened on a device without its token (a link, the
   * address typed in): the server lends the account's own seat, kept as the start page
   * keeps the seats it lends, so that logging out forgets it. Asked only when a seat shows
   * the account's name: a spectator's page asks nothing. */
  async borrowSeat(game) {
    if (tokenFor(this.id)) return;
    const name = await sessionName();
    if (!name || !["black", "white"].some((c) => game.players[c].registered && game.players[c].name === name)) return;
    const mine = await this.server.accountSeat();
    if (mine) remember(this.id, mine.token, mine.seat, true);
  }

  /** Loads the game, joining it when the invitation link asks and a seat is free; false
   * when it cannot be shown. */
  async open(wantsJoin) {
    const id = this.id;
    try {
      let first = await this.server.game();
      await this.borrowSeat(first);
      const free = ["black", "white"].some((c) => !first.players[c].seated);
      let cameByLink = wantsJoin;
      if (!tokenFor(id) && first.status === "waiting" && free && wantsJoin) {
        const joined = await this.server.join();
        remember(id, joined.token, joined.seat);
        first = joined.game;
        cameByLink = false;
      }
      if (wantsJoin) history.replaceState(null, "", `/game/${id}`);
      if (tokenFor(id)) cameByLink = false;
      this.s = { ...this.s, cameByLink };
      this.update(first);
      const dropped = takeDroppedName();
      if (dropped) this.view.tell(t("name.dropped", { name: dropped }));
      return true;
    } catch (e) {
      this.view.missing(this.app, errorText(e));
      return false;
    }
  }

  /** Runs the screen: the socket, the clocks' tick, the keys; returns what stops them. */
  run() {
    document.title = `Kōnane · ${this.s.game.size}`;
    const stop = live(this.id, (game) => this.update(game), (up) => this.view.linked(up));
    const tick = setInterval(() => this.view.drawClocks(this.s, Date.now()), TICK_MS);
    const keys = (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, select, textarea")) return;
      if (e.key === "ArrowLeft") this.step(-1);
      else if (e.key === "ArrowRight") this.step(1);
      else if (e.key === "Escape") this.deselect();
    };
    document.addEventListener("keydown", keys);
    return () => { stop(); this.computer.stop(); clearInterval(tick); this.view.stop(); document.removeEventListener("keydown", keys); };
  }
}

/** Shows game `id`; returns a function that stops its socket and timers. */
export async function gameScreen(app, id, wantsJoin, go) {
  const screen = new GameScreen(app, id, wantsJoin, go);
  if (!(await screen.open(wantsJoin))) return () => {};
  return screen.run();
}
