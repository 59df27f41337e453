// The game screen's line to the server: the live socket of one game, which reconnects by
// itself, and the requests the screen makes about that game (api.js sends them, with the
// seat's token).

import { api, tokenFor } from "./api.js";
import { reconnecting } from "./live-socket.js";

/** Game `id`'s socket: `onState` gets every state the server sends, `onLink` true when the
 * socket opens and false when it drops (it then tries again). Returns the function that
 * closes it for good. */
export function live(id, onState, onLink) {
  return reconnecting(`/api/games/${id}/ws`, {
    // Tells the server this player is here (it decides whether the opponent may claim).
    onOpen: (socket) => {
      const token = tokenFor(id);
      if (token) socket.send(JSON.stringify({ token }));
    },
    onMessage: (text) => onState(JSON.parse(text)),
    onLink,
  });
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
