// The puzzle screen's state as plain data, and its pure transitions: a puzzle begun, a
// click, a move sent, the server's verdict, an error. No DOM, no network, no storage:
// puzzles.js feeds the events, puzzles-view.js draws the result. `feedback` is what the
// player is told: a string key with its values, or a server error, and how it reads
// ("done" or "wrong").

import { parsePosition, stoneOn } from "./board.js";
import { actionsFor, clickOn } from "./picker.js";

/** The themes and sizes a player may ask for. */
export const THEMES = ["stop-early", "no-greed", "tempo", "endgame", "opening"];
export const SIZES = ["6x6", "8x8", "10x10"];

/** The state of address `path` with query `search` (theme, size, streak mode), before the
 * first puzzle; `localRating` is this browser's rating of an anonymous player. */
export function fromAddress(path, search, localRating) {
  const params = new URLSearchParams(search);
  return {
    path,
    theme: THEMES.includes(params.get("theme")) ? params.get("theme") : "",
    size: SIZES.includes(params.get("size")) ? params.get("size") : "",
    streak: params.get("mode") === "streak" ? 0 : null, // solved in a row, in streak mode
    localRating,
    puzzle: null,
    view: null, // what the board shows: position, legal moves, the side to move
    moves: [], // the line played so far, replies included
    selected: null,
    over: false,
    result: null, // "solved" or "failed" once over
    rated: true, // the first try of a puzzle is the rated one
    account: null, // a logged-in player's puzzle rating
    version: null, // its rated attempts when this puzzle began
    solution: null,
    busy: false,
    feedback: null,
    last: null, // the squares of the last move shown
    loadFailed: false, // the last puzzle asked for did not come
  };
}

/** The state with puzzle `p` begun, or begun `again` after a failure (not rated then). */
export function begin(s, p, again = false) {
  const next = {
    ...s,
    puzzle: p,
    view: { position: p.position, legal_moves: p.legal_moves, turn: p.turn },
    moves: [],
    selected: null,
    over: false,
    result: null,
    solution: null,
    feedback: again ? { key: "puzzle.again" } : null,
    last: null,
    loadFailed: false,
  };
  if (!again) {
    next.rated = true;
    next.account = p.player ?? null;
    next.version = next.account?.attempts ?? null;
  }
  return next;
}

/** The state once the puzzle could not be loaded (`error` from the server). */
export const failed = (s, error) => ({ ...s, loadFailed: true, feedback: error.code === "not_found" ? { key: "puzzle.none", result: "wrong" } : { error, result: "wrong" } });

/** The API address of the puzzle to load: the daily one, the one the address names (once),
 * or the next one for the player's rating, the streak, the filters. */
export function loadPath(s) {
  if (s.path === "/puzzles/daily") return "/api/puzzles/daily";
  if (s.path.startsWith("/puzzles/") && !s.puzzle) return `/api/puzzles/${encodeURIComponent(s.path.slice(9))}`;
  // The server knows a logged-in player's rating and the streak's difficulty.
  const q = new URLSearchParams();
  if (s.streak !== null) q.set("streak", String(s.streak));
  else if (!s.account) q.set("rating", String(s.localRating.rating));
  if (s.theme) q.set("theme", s.theme);
  if (s.size) q.set("size", s.size);
  if (s.puzzle) q.set("after", s.puzzle.id);
  return `/api/puzzles/next?${q}`;
}

/** The page address of the puzzles filtered by `theme` and `size`. */
export function filteredAddress(theme, size) {
  const q = new URLSearchParams();
  if (theme) q.set("theme", theme);
  if (size) q.set("size", size);
  return `/puzzles${q.size ? `?${q}` : ""}`;
}

/** Where "next" goes from a fixed puzzle's address (null: load the next one here). */
export function nextAddress(s) {
  if (s.path === "/puzzles") return null;
  return s.streak !== null ? "/puzzles?mode=streak" : "/puzzles";
}

/** Whether the board takes no move now. */
export const closed = (s) => s.over || s.busy;

/** The squares the player can act on now, as picker.js maps them. */
export const legalActions = (s) => (closed(s) ? new Map() : actionsFor(s.view.legal_moves, s.selected));

/** A click on square `name`: `{state}` (a stone picked up or put down, or picker.js's
 * explanation of a useless square as feedback), with `move` when it makes one to try. */
export function click(s, name) {
  if (closed(s)) return { state: s };
  const parsed = parsePosition(s.view.position);
  const r = clickOn(s.view.legal_moves, s.selected, name, (sq) => stoneOn(parsed, sq), s.view.turn, "jumping");
  if (r.move) return { state: s, move: r.move };
  if ("select" in r) return { state: { ...s, selected: r.select } };
  return { state: { ...s, feedback: { key: r.why, vars: { instruction: "", ...r.vars }, result: "wrong" } } };
}

/** Nothing picked up. */
export const deselect = (s) => ({ ...s, selected: null });

/** Trying `move`: `{state, body}` with the request to send, or `{state}` alone when the move
 * cannot be tried now (the picked stone is put down). */
export function attempt(s, move) {
  if (closed(s) || !s.view.legal_moves.includes(move)) return { state: { ...s, selected: null } };
  const moves = [...s.moves, move];
  const body = { moves };
  if (s.rated && s.account) body.version = s.version;
  else if (s.rated) body.rating = s.localRating;
  return { state: { ...s, busy: true, moves }, body };
}

/** The state after the server's verdict `v` on `move` (`correct`, `solved`, `reply`,
 * `position`, `legal_moves`, `solution`, and the rating: `account` or `player`). */
export function judged(s, move, v) {
  const before = s.view;
  const ended = v.solved || !v.correct;
  const next = { ...s, busy: false, selected: null };
  if (v.account) {
    next.account = v.account;
    if (ended) next.rated = false;
  } else if (ended && v.player) {
    next.localRating = v.player;
    next.rated = false;
  }
  next.view = v.reply ? { position: v.position, legal_moves: v.legal_moves, turn: before.turn } : { ...before, position: v.position, legal_moves: [] };
  if (v.reply) next.moves = [...next.moves, v.reply];
  if (v.solved) {
    next.over = true;
    next.result = "solved";
    next.feedback = { key: "puzzle.solved", result: "done" };
    if (s.streak !== null) next.streak = s.streak + 1;
  } else if (!v.correct) {
    next.over = true;
    next.result = "failed";
    next.solution = v.solution;
    next.feedback = s.streak !== null
      ? { key: "puzzle.streak-over", vars: { n: s.streak }, result: "wrong" }
      : { key: "puzzle.wrong", vars: { reply: v.reply ?? "" }, result: "wrong" };
    if (s.streak !== null) next.streak = 0;
  } else {
    next.feedback = { key: "puzzle.right", result: "done" };
  }
  // A finished puzzle keeps its last move marked; one going on is played on unmarked.
  next.last = next.over ? (v.reply ?? move).split("-") : null;
  return next;
}

/** The state once the server refused the last move tried (`error`): as before it. */
export const refused = (s, error) => ({ ...s, busy: false, moves: s.moves.slice(0, -1), feedback: { error, result: "wrong" } });

/** The state showing the solution of a failed puzzle (unchanged without one). */
export const revealed = (s) => (s.solution ? { ...s, feedback: { key: "puzzle.solution", vars: { line: s.solution.join(" ") }, result: "wrong" } } : s);

/** Which buttons show: try again and the solution after a failure; the next puzzle outside
 * a streak, or once this one is over. */
export const buttons = (s) => ({
  retry: s.result === "failed",
  solution: s.result === "failed",
  next: s.streak === null || s.result !== null,
});
