// The notification centre on the page: one account socket for the page's life (it comes
// back by itself), the bell in the header with its unread count and list, the tab's title
// with the count, and a sound for the player's move or a challenge.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { reconnecting } from "./live-socket.js";
import { EMPTY, allRead, noticeLink, noticeText, received, rings, titleWith } from "./notices-state.js";
import { play as sound } from "./sound.js";

let state = EMPTY;
let close = null;

/** Opens the account's socket once (a logged-in page); later calls do nothing. */
export function listen() {
  if (close) return;
  let first = true;
  close = reconnecting("/api/account/ws", {
    onMessage: (text) => {
      let m = null;
      try {
        m = JSON.parse(text);
      } catch {
        return;
      }
      const before = state;
      state = received(state, m);
      if (m?.type === "notification" && !first && state !== before && rings(m.notification)) sound(2);
      if (m?.type === "notifications") first = false;
      draw();
    },
    onLink: () => {},
  });
}

/** Closes the socket (logging out). */
export function stop() {
  close?.();
  close = null;
  state = EMPTY;
}

/** A bell, drawn (emoji fonts are not on every system); hidden from screen readers. */
function bellIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "icon bell-icon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M8 1.5a1 1 0 0 1 1 1v.6A4.5 4.5 0 0 1 12.5 7.5v3l1.5 2H2l1.5-2v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 13.5h3.4a1.7 1.7 0 0 1-3.4 0z");
  svg.append(path);
  return svg;
}

/** The header's bell: a button with the unread count that opens the list. */
export function bell() {
  const count = h("span", { class: "bell-count", "data-bell-count": "" });
  const button = h("button", { type: "button", class: "bell", "data-bell": "", "aria-expanded": "false", "aria-controls": "bell-list" },
    bellIcon(), count);
  const list = h("div", { class: "bell-list card", id: "bell-list", "data-bell-list": "", hidden: true });
  button.addEventListener("click", async () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    list.hidden = !open;
    if (open && state.unread > 0) {
      state = allRead(state);
      draw();
      await api.readNotices().catch(() => {});
    }
  });
  const wrap = h("span", { class: "bell-wrap" }, button, list);
  queueMicrotask(draw);
  return wrap;
}

/** Draws the bell's count and list, and the tab's title, from the state (a new screen
 * names the tab afresh: the route calls this after it). */
export function draw() {
  document.title = titleWith(document.title, state.unread);
  const button = document.querySelector("[data-bell]");
  if (!button) return;
  button.querySelector("[data-bell-count]").textContent = state.unread > 0 ? String(state.unread) : "";
  button.setAttribute("aria-label", t("notice.bell", { n: state.unread }));
  const list = document.querySelector("[data-bell-list]");
  list.replaceChildren(h("h2", {}, t("notice.title")),
    state.list.length
      ? h("ul", {}, ...state.list.map((n) => h("li", { class: n.read ? "read" : "unread", "data-notice": n.kind },
        h("a", { href: noticeLink(n) }, noticeText(n)))))
      : h("p", { class: "muted" }, t("notice.none")));
}
