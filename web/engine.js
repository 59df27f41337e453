// The engine in the browser: a client for engine-worker.js. Requests are queued in the
// worker and answered in order; `stop()` ends whatever is running by ending the worker (a
// search in WebAssembly cannot be interrupted), and the next request starts a fresh one.

let compiled = null;

// Compiled once per page; every worker gets the same module.
function module() {
  compiled ??= WebAssembly.compileStreaming(fetch("/engine.wasm"));
  return compiled;
}

/** A refused or failed request: `code` is a machine code (see crates/konane-wasm). */
export class EngineError extends Error {
  constructor({ code, message }) {
    super(message || code);
    this.code = code;
  }
}

/** One engine: one worker, its tables kept between requests. */
export class Engine {
  constructor() {
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.next = 1;
  }

  // Requests sent at once must all wait for the module: a request the worker gets first is
  // lost. So the worker and the promise of its module are made together, synchronously.
  start() {
    if (this.worker) return this.ready;
    const worker = new Worker("/engine-worker.js");
    this.worker = worker;
    worker.onmessage = (e) => this.receive(e.data);
    worker.onerror = (e) => this.fail({ code: "crashed", message: e.message });
    this.ready = module().then((compiled) => {
      worker.postMessage({ module: compiled });
      return worker;
    });
    return this.ready;
  }

  receive({ id, iteration, answer, error, fatal }) {
    const p = this.pending.get(id);
    if (!p) return;
    if (iteration) {
      p.onIteration?.(iteration);
      return;
    }
    this.pending.delete(id);
    if (error) p.reject(new EngineError(error));
    else p.resolve(answer);
    if (fatal) this.stop();
  }

  fail(error) {
    const all = [...this.pending.values()];
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    for (const p of all) p.reject(new EngineError(error));
  }

  /** Sends one request (see `Request` in crates/konane-wasm); resolves with its answer. */
  async request(request, onIteration) {
    const worker = await this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onIteration });
      worker.postMessage({ id, request });
    });
  }

  /** Ends every request at once; their promises reject with code `stopped`. */
  stop() {
    this.fail({ code: "stopped" });
  }

  /** The legal moves, turn, phase and winner of a position (as POST /api/position). */
  position(position, opening, move) {
    return this.request({ op: "position", position, opening, move });
  }

  /** The best move within `limits` ({time_ms, depth, nodes, solver}); `onIteration` hears each depth. */
  think(position, opening, limits, onIteration) {
    return this.request({ op: "think", position, opening, ...limits }, onIteration);
  }

  /** Who wins with perfect play: {result: "win"|"loss"|"unknown", best, nodes}. */
  solve(position, opening, nodes) {
    return this.request({ op: "solve", position, opening, nodes });
  }

  /** A move at a level, the same as the server's engine plays for the same seed. */
  choose(position, opening, level, seed) {
    return this.request({ op: "choose", position, opening, level, seed });
  }

  /** Forgets the search's table (its proofs stay), as the server's engine does before each move. */
  newGame() {
    return this.request({ op: "new_game" });
  }
}
