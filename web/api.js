// Talking to the server: JSON requests, seat tokens kept per game (a game's live socket is
// game-socket.js's).
// Offline (offline.js) no request goes out: each fails at once with the code `offline`, and
// the position questions are answered by the engine in this browser instead.

import { Engine } from "./engine.js";
import { isOffline, wentOffline } from "./offline.js";

const TOKENS = "konane.tokens";

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}");
  } catch {
    return {};
  }
}

export function tokenFor(id) {
  return tokens()[id]?.token ?? null;
}

export function seatFor(id) {
  return tokens()[id]?.seat ?? null;
}

/** The games this browser holds a seat in, the latest first: `[{id, seat}]`. The computer
 * playing itself in this browser holds a token but no seat, and is left out. */
export function seatedGames() {
  return Object.entries(tokens()).filter(([, t]) => t.seat).map(([id, t]) => ({ id, seat: t.seat })).reverse();
}

/** Keeps a seat's token; `lent` marks one the account handed over (a game begun on another
 * device), which logging out forgets again. */
export function remember(id, token, seat, lent = false) {
  const all = tokens();
  all[id] = lent ? { token, seat, lent } : { token, seat };
  localStorage.setItem(TOKENS, JSON.stringify(all));
}

/** Forgets the seats the account lent this browser: a shared computer keeps none after
 * logging out. */
export function forgetLent() {
  const kept = Object.fromEntries(Object.entries(tokens()).filter(([, t]) => !t.lent));
  localStorage.setItem(TOKENS, JSON.stringify(kept));
}

const ENDED = "konane.game-ended";

/** Tells this browser's other tabs that a game of a seat held here ended (their start page
 * asks about the player's games and challenges again). */
export function tellGameEnded(id) {
  try {
    localStorage.setItem(ENDED, JSON.stringify({ id, at: Date.now() }));
  } catch {
    // No storage: the other tabs find out at their next refresh.
  }
}

/** Calls `then` whenever another tab of this browser saw a game of a seat held here end;
 * returns the function that stops listening. */
export function onGameEnded(then) {
  const listen = (e) => { if (e.key === ENDED) then(); };
  addEventListener("storage", listen);
  return () => removeEventListener("storage", listen);
}

class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `request failed (${status})`);
    this.status = status;
    this.code = body?.error;
    // Why a move was refused, as a code with its squares and colours: the page words it.
    this.reason = body?.reason;
    this.params = body?.params || {};
  }
}

const offlineError = () => new ApiError(0, { error: "offline", message: "the server cannot be reached" });

async function request(method, path, body, token) {
  if (isOffline()) throw offlineError();
  const headers = {};
  // Every POST declares JSON, with or without a body: the server refuses any other.
  if (body !== undefined || method === "POST") headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    wentOffline();
    throw offlineError();
  }
  const text = await r.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}

const GUEST_NAME = "konane.name";

/** The name a guest chose to play under in this browser, if any. */
export function guestName() {
  try {
    return localStorage.getItem(GUEST_NAME) || null;
  } catch {
    return null;
  }
}

/** Keeps (or, empty, forgets) the guest's name in this browser. */
export function setGuestName(name) {
  if (name) localStorage.setItem(GUEST_NAME, name);
  else localStorage.removeItem(GUEST_NAME);
}

const DROPPED_NAME = "konane.name-dropped";

/** Sends `body` with the guest's name (a logged-in player's account name stands instead on
 * the server). A saved name someone has registered since is forgotten and the request sent
 * again without it: the guest plays nameless, and the next screen says why, once. */
async function named(send, body = {}) {
  const name = guestName();
  if (!name || "name" in body) return send(body);
  try {
    return await send({ ...body, name });
  } catch (e) {
    if (e.code !== "name_taken") throw e;
    setGuestName(null);
    sessionStorage.setItem(DROPPED_NAME, name);
    return send(body);
  }
}

/** The saved name the server refused because someone registered it, once; else null. */
export function takeDroppedName() {
  const name = sessionStorage.getItem(DROPPED_NAME);
  sessionStorage.removeItem(DROPPED_NAME);
  return name;
}

let rules = null;

/** The rules in this browser, for position questions while offline. */
function localRules() {
  rules ??= new Engine();
  return rules;
}

export const api = {
  create: (settings) => named((body) => request("POST", "/api/games", body), settings),
  game: (id) => request("GET", `/api/games/${id}`),
  join: (id, name) => named((body) => request("POST", `/api/games/${id}/join`, body), name ? { name } : {}),
  move: (id, move, ply) => request("POST", `/api/games/${id}/moves`, { move, ply }, tokenFor(id)),
  resign: (id) => request("POST", `/api/games/${id}/resign`, undefined, tokenFor(id)),
  rematch: (id, settings) => request("POST", `/api/games/${id}/rematch`, settings, tokenFor(id)),
  takeback: (id) => request("POST", `/api/games/${id}/takeback`, undefined, tokenFor(id)),
  claim: (id) => request("POST", `/api/games/${id}/claim`, undefined, tokenFor(id)),
  cancel: (id) => request("POST", `/api/games/${id}/cancel`, undefined, tokenFor(id)),
  decline: (id) => request("POST", `/api/games/${id}/decline`),
  positions: (id) => request("GET", `/api/games/${id}/positions`),
  lobby: () => request("GET", "/api/lobby"),
  live: () => request("GET", "/api/live"),
  position: (position, opening, move) => (isOffline()
    ? localRules().position(position, opening, move)
    : request("POST", "/api/position", { position, opening, move })),
  session: () => request("GET", "/api/session"),
  register: (name, password) => request("POST", "/api/accounts", { name, password }),
  login: (name, password) => request("POST", "/api/session", { name, password }),
  logout: () => request("DELETE", "/api/session"),
  changePassword: (current, next) => request("POST", "/api/account/password", { current, new: next }),
  deleteAccount: (password) => request("POST", "/api/account/delete", { password }),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  playerGames: (name, query) => request("GET", `/api/players/${encodeURIComponent(name)}/games?${new URLSearchParams(query)}`),
  claimSeats: (games) => request("POST", "/api/account/claim", { games }),
  accountGames: () => request("GET", "/api/account/games"),
  accountSeat: (id) => request("GET", `/api/account/games/${encodeURIComponent(id)}/seat`),
  several: (ids) => request("GET", `/api/games?ids=${ids.map(encodeURIComponent).join(",")}`),
  seek: (clock, rated) => named((body) => request("POST", "/api/seeks", body), { clock, rated }),
  seekStatus: (id) => request("GET", `/api/seeks/${id}`),
  leaderboard: (category) => request("GET", `/api/leaderboard/${category}`),
  /** Follows or blocks (`POST`) player `name`, or stops (`DELETE`); `action` is `follow` or `block`. */
  relate: (name, action, method) => request(method, `/api/players/${encodeURIComponent(name)}/${action}`, method === "POST" ? {} : undefined),
  following: () => request("GET", "/api/account/following"),
  blocked: () => request("GET", "/api/account/blocked"),
  readNotices: () => request("POST", "/api/account/notifications/read", { all: true }),
  record: async (id) => {
    if (isOffline()) throw offlineError();
    const r = await fetch(`/api/games/${id}/record`);
    if (!r.ok) throw new ApiError(r.status, null);
    return r.text();
  },
};
