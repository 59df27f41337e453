// The tournament pages' line to the server: the list, one tournament, its creation and the
// player's actions on it (each answered with the tournament's new state), and its live
// socket, which reconnects by itself as a game's does.

import { nextDelay } from "./game-socket.js";
import { isOffline } from "./offline.js";

/** The first wait before reconnecting (the longest is game-socket.js's). */
const FIRST_DELAY_MS = 250;

/** A refused request: the server's code, the field it names, its status. */
class TournamentError extends Error {
  constructor(status, body) {
    super(body?.message || `request failed (${status})`);
    this.status = status;
    this.code = body?.error ?? null;
    this.field = body?.field ?? null;
  }
}

async function request(method, path, body) {
  if (isOffline()) throw new TournamentError(0, { error: "offline" });
  let r;
  try {
    r = await fetch(path, {
      method,
      // Every POST declares JSON, with or without a body: the server refuses any other.
      headers: method === "POST" ? { "content-type": "application/json" } : {},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new TournamentError(0, { error: "offline" });
  }
  const json = await r.json().catch(() => null);
  if (!r.ok) throw new TournamentError(r.status, json);
  return json;
}

const path = (id) => `/api/tournaments/${encodeURIComponent(id)}`;

/** The list: `{now, upcoming, running, finished}`. */
export const tournamentList = () => request("GET", "/api/tournaments");

/** Tournament `id` as the viewer sees it: the whole table, or its page `page` (from 1). */
export const tournament = (id, page) => request("GET", page ? `${path(id)}?page=${page}` : path(id));

/** Creates a tournament from the form's `body`; answers with it. */
export const createTournament = (body) => request("POST", "/api/tournaments", body);

/** Joins `id`, with the entry code of a private one. */
export const joinTournament = (id, code) => request("POST", `${path(id)}/join`, code ? { entry_code: code } : {});

/** Withdraws from `id`. */
export const withdraw = (id) => request("POST", `${path(id)}/withdraw`, {});

/** Pauses in arena `id`, or resumes when paused. */
export const togglePause = (id) => request("POST", `${path(id)}/pause`, {});

/** Starts `id` early (its creator only). */
export const startEarly = (id) => request("POST", `${path(id)}/start`, {});

/** Tournament `id`'s socket: `onState` gets every tournament the server sends, `onLink` true
 * when the socket opens and false when it drops (it then tries again, waiting longer each
 * time). Returns the function that closes it for good. */
export function live(id, onState, onLink) {
  let socket = null;
  let closed = false;
  let delay = FIRST_DELAY_MS;
  let retry = null;
  const open = () => {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path(id)}/ws`);
    socket.onopen = () => {
      delay = FIRST_DELAY_MS;
      onLink(true);
    };
    socket.onmessage = (e) => {
      if (closed) return;
      let message = null;
      try {
        message = JSON.parse(e.data);
      } catch {
        return;
      }
      if (message?.type === "tournament" && message.tournament) onState(message.tournament);
    };
    socket.onclose = () => {
      if (closed) return;
      onLink(false);
      retry = setTimeout(open, delay);
      delay = nextDelay(delay);
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(retry);
    // Closing a socket still connecting logs an error in the browser: it closes once open.
    if (socket?.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
    else socket?.close();
  };
}
