// The engine's Web Worker: runs engine.wasm (crates/konane-wasm) one request at a time, so
// the page never waits on a search. Messages in: {module} once (a compiled
// WebAssembly.Module), then {id, request} or {learn} (a board's book, an ArrayBuffer, learned
// before the requests after it). Messages out: {id, iteration} for each completed
// search iteration, then {id, answer} or {id, error: {code, message}}.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let instance = null;
let ready = null;
let current = null;

function read(ptr, len) {
  return decoder.decode(new Uint8Array(instance.exports.memory.buffer, ptr, len));
}

const imports = {
  konane: {
    now_ms: () => performance.now(),
    report: (ptr, len) => postMessage({ id: current, iteration: JSON.parse(read(ptr, len)) }),
  },
};

// Memory may grow during a call, which detaches old views: every view is made afresh.
function call(request) {
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = instance.exports.konane_input(bytes.length);
  new Uint8Array(instance.exports.memory.buffer, ptr, bytes.length).set(bytes);
  const len = instance.exports.konane_call();
  return JSON.parse(read(instance.exports.konane_output(), len));
}

// A book that cannot be read is left out: the engine searches without it.
function learn(bytes) {
  const data = new Uint8Array(bytes);
  const ptr = instance.exports.konane_input(data.length);
  new Uint8Array(instance.exports.memory.buffer, ptr, data.length).set(data);
  instance.exports.konane_learn();
}

function answer({ id, request }) {
  current = id;
  try {
    const reply = call(request);
    postMessage(reply.error ? { id, error: reply.error } : { id, answer: reply.ok });
  } catch (e) {
    // A trap leaves the module's state unknown: the page starts a fresh worker.
    postMessage({ id, error: { code: "crashed", message: String(e) }, fatal: true });
  }
}

onmessage = (e) => {
  if (e.data.module) {
    ready = WebAssembly.instantiate(e.data.module, imports).then((i) => { instance = i; });
    return;
  }
  if (e.data.learn) {
    ready.then(() => learn(e.data.learn), () => {});
    return;
  }
  ready.then(() => answer(e.data), (err) => postMessage({ id: e.data.id, error: { code: "crashed", message: String(err) }, fatal: true }));
};
