// The notification centre as plain data: the bell's state after each message of the
// account's socket, each notification in words, and the tab's title with the count. No
// DOM, no network: notices.js draws and listens.

import { t } from "./i18n.js";

/** Most notifications the bell's list keeps. */
const KEPT = 50;

/** The bell before the socket said anything. */
export const EMPTY = { unread: 0, list: [] };

/** The bell after message `m` of the account's socket: the first lists the latest, each
 * later one brings one new notification and the unread count. Unknown messages change
 * nothing. */
export function received(state, m) {
  if (m?.type === "notifications" && Array.isArray(m.notifications)) {
    return { unread: m.unread ?? 0, list: m.notifications.slice(0, KEPT) };
  }
  if (m?.type === "notification" && m.notification?.id) {
    if (state.list.some((n) => n.id === m.notification.id)) return { ...state, unread: m.unread ?? state.unread };
    return { unread: m.unread ?? state.unread + 1, list: [m.notification, ...state.list].slice(0, KEPT) };
  }
  return state;
}

/** The bell once everything was read. */
export const allRead = (state) => ({ unread: 0, list: state.list.map((n) => ({ ...n, read: true })) });

/** A notification in words: "Ana challenges you", "Your move against Ana"… */
export function noticeText(n) {
  const from = n.from ?? "?";
  if (n.kind === "game_over") {
    const outcome = n.won === true ? "won" : n.won === false ? "lost" : "ended";
    return t(`notice.game_over.${outcome}`, { name: from, reason: t(`notice.reason.${n.reason ?? "other"}`) });
  }
  return t(`notice.${n.kind}`, { name: from });
}

/** Where a notification leads: its game. */
export const noticeLink = (n) => (n.game ? `/game/${n.game}` : "/");

/** Whether a new notification calls for the sound: the player's move or a challenge. */
export const rings = (n) => n.kind === "your_turn" || n.kind === "challenge";

/** The tab's title with the unread count in front: "(2) Kōnane". */
export function titleWith(title, unread) {
  const bare = title.replace(/^\(\d+\) /, "");
  return unread > 0 ? `(${unread}) ${bare}` : bare;
}
