// The game screen's state as plain data, and its pure transitions: each takes a state and
// an event (a game from the server, a click, a step through the moves) and returns the
// next state, never touching the old one. No DOM, no network, no timers: game.js feeds
// these the events, game-view.js draws the result. `game` is the server's game as it sent
// it (position, legal moves, players, clock, `seq`); the rest is what the viewer did.

import { parsePosition, stoneOn } from "./board.js";
import { unbroken } from "./movelist.js";
import { actionsFor, clickOn } from "./picker.js";

/** How long an opponent must be away on their turn before the win can be claimed (the
 * server's default `--claim-after-secs`). */
export const CLAIM_AFTER_MS = 30000;

/** The state before the server's first answer; `cameByLink`: opened from an invitation
 * link, which may be used up. */
export function initial(cameByLink = false) {
  return {
    game: null,
    seats: [], // the colours this browser plays: none, one, or both
    selected: null,
    viewPly: null, // null: the live position
    positions: null, // every position of the game by ply, once asked for
    flip: false,
    offset: 0, // the server's clock minus ours
    sending: false,
    typing: false, // the move box is open
    asking: null, // the question being confirmed: "resign" or "cancel"
    cameByLink,
    computerStuck: false, // this browser could not play the computer's move
  };
}

/** The colours a stored seat plays: `seat` as kept with the game's token (`hasToken`). */
export function seatsOf(seat, hasToken) {
  if (!hasToken || !seat) return [];
  return seat === "both" ? ["black", "white"] : [seat];
}

/** Whether `next` continues `before`: earlier positions never change while a game goes on;
 * a take-back or a new game (fewer moves, or other ones) does not continue it. */
export function continues(before, next) {
  return Boolean(before) && next.ply >= before.ply && before.moves.every((m, i) => next.moves[i] === m);
}

/** The state once the server sent `game` at our time `now`: an older or repeated game
 * (by `seq`) changes nothing and returns `s` itself. */
export function received(s, game, now) {
  const before = s.game;
  if (before && game.seq <= before.seq) return s;
  const goesOn = continues(before, game);
  const next = { ...s, game, offset: game.server_time - now };
  if (!goesOn) {
    next.positions = null;
    next.viewPly = null;
  }
  if (before && game.ply !== before.ply) next.selected = null;
  // A question the game has moved past is not asked any more.
  if ((next.asking === "resign" && game.status !== "playing") || (next.asking === "cancel" && game.status !== "waiting")) next.asking = null;
  return next;
}

/** What `next` brings after `before` for the viewer to hear and see: the moves played since,
 * each with its colour, and whether the game just ended. */
export function news(before, next) {
  if (!before) return { moves: [], ended: false };
  const fresh = continues(before, next) ? next.moves.slice(before.ply) : [];
  return {
    moves: fresh.map((move, i) => ({ move, color: (before.ply + i) % 2 === 0 ? "black" : "white" })),
    ended: next.status === "finished" && before.status !== "finished",
  };
}

/** The state with the viewer's colours `seats`. */
export const withSeats = (s, seats) => ({ ...s, seats });

/** Whether the viewer is to move. */
export const myTurn = (s) => s.game?.status === "playing" && s.seats.includes(s.game.turn);

/** Whether the live position shows (not one stepped back to). */
export const isLive = (s) => s.viewPly === null || s.viewPly === s.game.ply;

/** Whether White sits at the bottom: the viewer playing White alone, unless turned. */
export const flipped = (s) => s.flip !== (s.seats.length === 1 && s.seats[0] === "white");

/** The viewer's one colour, or null when they play both or none. */
export const mySide = (s) => (s.seats.length === 1 ? s.seats[0] : null);

/** Why the player can't act on the board now, as a `why.*` string key and the colour it
 * names, or null when they can. */
export function blocked(s) {
  const game = s.game;
  if (!isLive(s)) return { key: "why.history" };
  if (game.status === "finished") return { key: "why.over" };
  if (game.status === "waiting") return { key: "why.waiting" };
  if (myTurn(s)) return null;
  if (game.players[game.turn].engine) return { key: "why.engine" };
  return s.seats.length ? { key: "why.their-turn", color: game.turn } : { key: "why.watching" };
}

/** The squares the player can act on now, as picker.js maps them. */
export const legalActions = (s) => (isLive(s) && myTurn(s) ? actionsFor(s.game.legal_moves, s.selected) : new Map());

/**
 * A click on square `name`: `{state}` with what it changed, and one of `move` (to send),
 * `selected` (a stone picked up, with the squares it can jump to: `targets`), `blocked`
 * (see [`blocked`]) or `why` and `vars` (picker.js's explanation of a useless square).
 */
export function click(s, name) {
  const game = s.game;
  if (!game) return { state: s };
  const why = blocked(s);
  if (why) return { state: s, blocked: why };
  const parsed = parsePosition(game.position);
  const r = clickOn(game.legal_moves, s.selected, name, (sq) => stoneOn(parsed, sq), game.turn, game.phase);
  if (r.move) return { state: s, move: r.move };
  if ("select" in r) {
    const state = { ...s, selected: r.select };
    if (!r.select) return { state };
    const targets = game.legal_moves.filter((m) => m.startsWith(`${r.select}-`)).map((m) => m.split("-")[1]);
    return { state, selected: r.select, targets };
  }
  return { state: s, why: r.why, vars: r.vars };
}

/** A stone dragged from `from` to `to`: `{state, move}` when that is a legal move, else the
 * stone stays picked up with a `why`; a blocked board ignores drags. */
export function drop(s, from, to) {
  if (!s.game || blocked(s)) return { state: s };
  const move = `${from}-${to}`;
  if (s.game.legal_moves.includes(move)) return { state: s, move };
  return { state: { ...s, selected: from }, why: "why.not-target", vars: { square: to, from } };
}

/** Typed moves may hold the hyphens the page shows (U+2011) or other dashes. */
export const normalised = (text) => text.trim().toLowerCase().replace(/[x\u2010-\u2015\u2212]/g, "-");

/** A move typed as `text`: `{move}` to send, `{blocked}` or `{why, vars}`; `{}` when empty. */
export function typed(s, text) {
  const move = normalised(text);
  if (!move) return {};
  const why = blocked(s);
  if (why) return { blocked: why };
  const legal = s.game.legal_moves;
  if (!legal.includes(move)) return { why: "why.typed", vars: { move: unbroken(move), legal: legal.map(unbroken).join(", ") } };
  return { move };
}

/** Nothing picked up. */
export const deselect = (s) => (s.selected ? { ...s, selected: null } : s);

/** The board turned around. */
export const turned = (s) => ({ ...s, flip: !s.flip });

/** The move box opened or closed. */
export const typing = (s, open) => ({ ...s, typing: open });

/** A question (`"resign"`, `"cancel"`) asked, or answered with null. */
export const asking = (s, what) => ({ ...s, asking: what });

/** A move on its way to the server (one at a time), or back (`on` false). */
export const sending = (s, on) => (on ? { ...s, sending: true, selected: null } : { ...s, sending: false });

/** Whether this browser could not play the computer's move. */
export const stuck = (s, on) => ({ ...s, computerStuck: on });

/** The ply a step of `delta` moves (±Infinity: to either end) goes to, within the game. */
export function stepTarget(s, delta) {
  const current = s.viewPly ?? s.game.ply;
  return Math.max(0, Math.min(s.game.ply, current + delta));
}

/** Whether showing ply `target` needs the game's positions asked for first. */
export const needsPositions = (s, target) => target !== s.game.ply && (!s.positions || s.positions.length <= target);

/** The state with the game's `positions` by ply. */
export const withPositions = (s, positions) => ({ ...s, positions });

/** The state showing ply `target` (the live position when it is the last, or when its
 * position is not known). */
export function showing(s, target) {
  const viewPly = target === s.game.ply || !s.positions?.[target] ? null : target;
  return { ...s, viewPly, selected: null };
}

/** What the board shows: the ply, its position, and the last move's squares (or null). */
export function shown(s) {
  const game = s.game;
  const ply = s.viewPly ?? game.ply;
  const position = s.viewPly === null ? game.position : s.positions[ply];
  return { ply, position, last: ply > 0 ? game.moves[ply - 1].split("-") : null };
}

/** The status line's kind: "finished", "your-move", "waiting" or "their-move". */
export function statusKind(s) {
  const status = s.game.status;
  if (status === "finished") return "finished";
  if (myTurn(s)) return "your-move";
  return status === "waiting" ? "waiting" : "their-move";
}

/** Whether the viewer plays in a game under way (moves may be typed, resigned). */
export const playing = (s) => s.game.status === "playing" && s.seats.length > 0;

/** The milliseconds `side` has left at our time `now`, or null in an untimed game. */
export function clockLeft(s, side, now) {
  const c = s.game?.clock;
  if (!c) return null;
  const serverNow = now + s.offset;
  return c[`${side}_ms`] - (c.running === side ? serverNow - c.running_since : 0);
}

/** Whether `side`'s clock runs. */
export const clockRuns = (s, side) => Boolean(s.game?.clock) && s.game.clock.running === side;

/** Whether the win may be claimed at our time `now`: the opponent, a person, has long been
 * on the move (the server knows whether they left, and says so when they have not). */
export function claimable(s, now) {
  const c = s.game?.clock;
  const me = mySide(s);
  if (!c || !c.running || !me || c.running === me || s.game.players[c.running].engine) return false;
  return now + s.offset - c.running_since >= CLAIM_AFTER_MS;
}
