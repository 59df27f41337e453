// The service worker: keeps this build's files (the page, its scripts, styles, strings,
// lessons and the engine) and the solved boards' books once fetched, so that the site
// opens without the network, and answers the page's question whether the server can be
// reached. The server serves this file as `/sw.js` with BUILD written in
// (crates/konane-server/src/web.rs): the build's version, which names the cache, and the
// files to keep. Any changed file changes the version, so the browser installs the new
// worker, which keeps the new files and deletes the old cache.

const BUILD = /* BUILD */ null;
const CACHE = `konane-${BUILD.version}`;
/** The address the page asks whether the server answers (see offline.js). */
const PROBE = "/offline-check";
/** How long the probe waits for the server before it calls the site offline. */
const PROBE_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Asked anew, past any copy the browser holds: the cache must be this build's files.
    await cache.addAll(BUILD.files.map((file) => new Request(file, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** Whether the server answers, as `{online}`: always a 200, so the page logs no failure. */
async function probe() {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PROBE_MS);
  let online = false;
  try {
    online = (await fetch("/favicon.svg", { method: "HEAD", cache: "no-store", signal: abort.signal })).ok;
  } catch {
    online = false;
  } finally {
    clearTimeout(timer);
  }
  return new Response(JSON.stringify({ online }), { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** A page address: the server's answer when it gives one, else the kept page (the page
 * reads its route from the address). */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match("/index.html", { cacheName: CACHE })) ?? Response.error();
  }
}

/** A file of the build: the kept copy, which is this version's by the cache's name. */
async function file(request) {
  return (await caches.match(request, { cacheName: CACHE })) ?? fetch(request);
}

/** A solved board's book or their list (`/api/books…`): the server's answer, kept for
 * offline use; offline, the kept copy, or 204 (no book) when none was kept, so the page
 * logs no failure and searches without it. */
async function book(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch {
    return (await cache.match(request)) ?? new Response(null, { status: 204 });
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (url.pathname === PROBE) return event.respondWith(probe());
  if (url.pathname === "/api/books" || url.pathname.startsWith("/api/books/")) return event.respondWith(book(request));
  // The server's other answers are never kept: offline they fail and the page says so.
  if (url.pathname.startsWith("/api/") || url.pathname === "/healthz") return;
  event.respondWith(request.mode === "navigate" ? page(request) : file(request));
});
