// The site without the network: registers the service worker (sw.js) that keeps the page,
// and knows whether the server can be reached. Offline, api.js asks the server nothing
// (a failed request would only fill the console), the local parts (a game against the
// computer or on one device, the tutorial, the rules, the analysis board) run in this
// browser, and a banner says what works.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The service worker's answer to "does the server answer?" (see sw.js). */
const PROBE = "/offline-check";

/** How often an offline page asks again whether the server is back. */
const RECHECK_MS = 5000;
let recheck = null;
let offline = navigator.onLine === false;
const listeners = new Set();

/** Whether the server cannot be reached now. */
export const isOffline = () => offline;

function set(value) {
  if (value === offline) return;
  offline = value;
  clearInterval(recheck);
  // The server may come back while the browser's network never went away.
  if (offline) recheck = setInterval(checkConnection, RECHECK_MS);
  for (const f of listeners) f(offline);
}

/** Calls `f(offline)` whenever the site goes offline or back online. */
export function onConnection(f) {
  listeners.add(f);
}

/** A request to the server failed for want of a connection: a blip of a restarting server
 * must not make the page offline, so the worker is asked. */
export const wentOffline = () => checkConnection();

/** Asks whether the server answers. A page the worker controls asks the worker, so a dead
 * server shows as an answer, not as a failed load in the console. */
export async function checkConnection() {
  if (navigator.onLine === false) return set(true);
  const controlled = Boolean(navigator.serviceWorker?.controller);
  try {
    const r = await fetch(controlled ? PROBE : "/favicon.svg", { method: controlled ? "GET" : "HEAD", cache: "no-store" });
    set(controlled ? !(await r.json()).online : !r.ok);
  } catch {
    set(true);
  }
}

/** Registers the service worker (when the browser has them and the server answers) and
 * follows the browser's own word on the network. */
export function keepForOffline() {
  addEventListener("online", checkConnection);
  addEventListener("offline", () => set(true));
  // Offline the registration could not fetch sw.js anyway; the one in place stays.
  if (!("serviceWorker" in navigator) || offline) return;
  // Refused (a private window, say): the site works, only not offline.
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

/** The banner under the header: shown while offline. */
export function drawBanner() {
  let banner = document.querySelector("[data-offline]");
  if (!banner) {
    banner = h("p", { class: "offline-banner", "data-offline": "", role: "status" });
    document.getElementById("top").after(banner);
  }
  banner.hidden = !offline;
  // Bold only the news, so the list of what still works reads as the aside it is.
  banner.replaceChildren(...(offline ? [h("strong", {}, `${t("offline.title")}.`), " ", t("offline.banner")] : []));
}

/** A screen that needs the server, offline: what to do instead. */
export function offlineScreen(app) {
  document.title = `${t("offline.title")} · Kōnane`;
  app.replaceChildren(h("div", { class: "page offline-page", "data-offline-page": "" },
    h("h1", {}, t("offline.title")),
    h("p", { class: "lead" }, t("offline.page")),
    h("p", { class: "end-buttons" }, h("a", { href: "/", class: "button primary" }, t("end.new-game")), h("a", { href: "/learn", class: "button" }, t("nav.learn")))));
}
