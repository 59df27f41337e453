// The tournament pages' line to the server: the list, one tournament, its creation and the
// player's actions on it (each answered with the tournament's new state), and its live
// socket (live-socket.js), which reconnects by itself as a game's does.

import { reconnecting } from "./live-socket.js";
import { isOffline } from "./offline.js";

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
  return reconnecting(`${path(id)}/ws`, {
    onMessage: (text) => {
      let message = null;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (message?.type === "tournament" && message.tournament) onState(message.tournament);
    },
    onLink,
  });
}
