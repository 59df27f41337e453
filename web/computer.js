// The computer's side of a game whose computer this browser plays (`engine_host`
// "browser"): when it is the computer's turn and this page holds the game's seat token, the
// engine in the worker (engine.js) chooses the move with the seed the server sent and posts
// it like any move; the server checks, stores and times it. Another page of the same seat
// may post first: the late one is refused as stale and says nothing.

import { api, tokenFor } from "./api.js";
import { Engine } from "./engine.js";

/** The server's default pause between the moves of the computer playing itself
 * (`--self-play-pace-ms`), so that watchers can follow. */
const SELF_PLAY_PACE_MS = 1000;

/** Refusals that mean the game moved on meanwhile: another page was first, or a take-back. */
const LATE = new Set(["stale_ply", "game_over", "not_your_turn"]);

/** Tries of one move before the page says the computer cannot play. */
const TRIES = 3;

/** A position every board reads, to see that the worker runs at all. */
const PROBE = "bwbw/wbwb/bwbw/wbwb b";

let works = null;

/** Whether this browser runs the engine's worker: WebAssembly and Worker are there and a
 * first request is answered. Asked once per page. */
function workerRuns() {
  // `typeof` first: in a browser without WebAssembly the name itself is not defined.
  if (typeof Worker !== "function" || typeof WebAssembly !== "object" || typeof WebAssembly.compileStreaming !== "function") return Promise.resolve(false);
  works ??= (async () => {
    const engine = new Engine();
    try {
      await engine.position(PROBE);
      return true;
    } catch {
      return false;
    } finally {
      engine.stop();
    }
  })();
  return works;
}

/** Who should play the computer of a new game: this browser when it can, else the server. */
export async function engineHost() {
  return (await workerRuns()) ? "browser" : "server";
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays the computer's moves of game `id` from its states; `onMove` gets the state a
 * posted move answers, `onTrouble` hears once that the moves cannot be made. */
export class Computer {
  constructor(id, onMove, onTrouble) {
    this.id = id;
    this.onMove = onMove;
    this.onTrouble = onTrouble;
    this.engine = null;
    this.latest = null;
    this.working = false;
    this.failures = 0;
    this.stopped = false;
  }

  /** A new state of the game: moves when it is this browser's to move. */
  see(state) {
    this.latest = state;
    if (this.working || this.stopped || state.engine_seed == null || !tokenFor(this.id)) return;
    this.working = true;
    this.move(state).then((again) => {
      this.working = false;
      if (again || this.latest.seq !== state.seq) this.see(this.latest);
    });
  }

  /** Chooses and posts the move of `state`; true when it should be tried again. */
  async move(state) {
    const started = performance.now();
    try {
      this.engine ??= new Engine();
      await this.engine.newGame();
      const { move } = await this.engine.choose(state.position, state.opening, state.level, state.engine_seed);
      const selfPlay = state.players.black.engine && state.players.white.engine;
      if (selfPlay) await pause(SELF_PLAY_PACE_MS - (performance.now() - started));
      // A take-back or another page's move came meanwhile: this move is for a gone position.
      if (this.stopped || this.latest.seq !== state.seq) return false;
      this.onMove(await api.move(this.id, move, state.ply));
      this.failures = 0;
      return false;
    } catch (e) {
      if (this.stopped || LATE.has(e.code)) return false;
      this.failures += 1;
      if (this.failures >= TRIES) {
        this.onTrouble(e);
        return false;
      }
      // A crashed worker is started afresh by the next request, a lost connection tried again.
      await pause(500 * this.failures);
      return !this.stopped;
    }
  }

  /** Ends the worker: the screen closed. */
  stop() {
    this.stopped = true;
    this.engine?.stop();
  }
}
