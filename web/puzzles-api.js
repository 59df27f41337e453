// The puzzle screen's line to the server, and the rating of an anonymous player, which
// lives in this browser's storage (a logged-in player's is the server's, never kept here).

const RATING_KEY = "konane.puzzle-rating";
const NEWCOMER = { rating: 1500, deviation: 350, volatility: 0.06 };

/** This browser's puzzle rating (`{rating, deviation, volatility}`), a newcomer's at first. */
export function storedRating() {
  try {
    const r = JSON.parse(localStorage.getItem(RATING_KEY));
    if (r && [r.rating, r.deviation, r.volatility].every(Number.isFinite)) return r;
  } catch {
    // A damaged entry starts over.
  }
  return { ...NEWCOMER };
}

/** Keeps this browser's puzzle rating. */
export function keepRating(rating) {
  localStorage.setItem(RATING_KEY, JSON.stringify(rating));
}

async function request(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await r.json().catch(() => null);
  if (!r.ok) throw Object.assign(new Error(json?.message ?? r.statusText), { code: json?.error });
  return json;
}

/** The puzzle at API address `path` (see puzzles-state.js's `loadPath`). */
export const loadPuzzle = (path) => request("GET", path);

/** The server's verdict on the line `body` of puzzle `id`. */
export const judge = (id, body) => request("POST", `/api/puzzles/${id}/moves`, body);
