// The engine in the browser: a client for engine-worker.js. Requests are queued in the
// worker and answered in order; `stop()` ends whatever is running by ending the worker (a
// search in WebAssembly cannot be interrupted), and the next request starts a fresh one.

let compiled = null;
let bookIndex = null;
const bookFetches = new Map();

// What `konane solve` or `konane lines` proved on a board (GET /api/books/{size}): fetched
// once a page, for the boards the server lists, and learned by every worker. Offline there
// is none.
function bookOf(size) {
  // 204: offline, and the service worker kept no copy (web/sw.js).
  bookIndex ??= fetch("/api/books").then((r) => (r.status === 200 ? r.json() : { boards: [] })).catch(() => ({ boards: [] }));
  if (!bookFetches.has(size)) {
    bookFetches.set(size, bookIndex.then(({ boards }) => (boards.includes(size)
      ? fetch(`/api/books/${size}`).then((r) => (r.status === 200 ? r.arrayBuffer() : null))
      : null)).catch(() => null));
  }
  return bookFetches.get(size);
}

// "6x8" for a position text's board.
function boardOf(position) {
  const rows = String(position).split(" ")[0].split("/");
  return `${rows.length}x${rows[0].length}`;
}

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
    this.learning = new Map();
  }

  // Requests sent at once must all wait for the module: a request the worker gets first is
  // lost. So the worker and the promise of its module are made together, synchronously.
  start() {
    if (this.worker) return this.ready;
    const worker = new Worker("/engine-worker.js");
    this.worker = worker;
    this.learning = new Map();
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

  // The worker learns the board's book before its first search there; a message sent
  // before the request's is handled before it.
  learn(worker, position) {
    const size = boardOf(position);
    if (!this.learning.has(size)) {
      this.learning.set(size, bookOf(size).then((bytes) => {
        if (bytes && this.worker === worker) worker.postMessage({ learn: bytes });
      }));
    }
    return this.learning.get(size);
  }

  /** Sends one request (see `Request` in crates/konane-wasm); resolves with its answer. */
  async request(request, onIteration) {
    const worker = await this.start();
    if (request.op !== "position" && request.position) {
      await this.learn(worker, request.position);
      // Stopped while the book came: this request ends with the others.
      if (this.worker !== worker) throw new EngineError({ code: "stopped" });
    }
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
