// The game screen's line to the server: the live socket of one game, which reconnects by
// itself, and the requests the screen makes about that game (api.js sends them, with the
// seat's token).

import { api, tokenFor } from "./api.js";

/** The first wait before reconnecting, and the longest. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

/** The wait before the reconnection after one that waited `delay`: twice as long, at most
 * five seconds. */
export const nextDelay = (delay) => Math.min(delay * 2, MAX_DELAY_MS);

/** Game `id`'s socket: `onState` gets every state the server sends, `onLink` true when the
 * socket opens and false when it drops (it then tries again). Returns the function that
 * closes it for good. */
export function live(id, onState, onLink) {
  let socket = null;
  let closed = false;
  let delay = FIRST_DELAY_MS;
  let retry = null;
  const open = () => {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/ws`);
    socket.onopen = () => {
      delay = FIRST_DELAY_MS;
      // Tells the server this player is here (it decides whether the opponent may claim).
      const token = tokenFor(id);
      if (token) socket.send(JSON.stringify({ token }));
      onLink(true);
    };
    socket.onmessage = (e) => onState(JSON.parse(e.data));
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
    socket?.close();
  };
}

/** The requests about game `id`, each answering with the game's new state unless said. */
export function gameRequests(id) {
  return {
    game: () => api.game(id),
    join: () => api.join(id),
    move: (move, ply) => api.move(id, move, ply),
    takeback: () => api.takeback(id),
    resign: () => api.resign(id),
    cancel: () => api.cancel(id),
    claim: () => api.claim(id),
    /** The new game's `{id, seat}`. */
    rematch: (settings) => api.rematch(id, settings),
    /** `{positions}`: every position of the game by ply. */
    positions: () => api.positions(id),
    /** The game record as text. */
    record: () => api.record(id),
    /** The account's own seat in the game, or null. */
    accountSeat: () => api.accountSeat(id).catch(() => null),
  };
}
