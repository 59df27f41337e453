// The start screen's plain data and pure rules: the settings a player can choose and their
// defaults, the game a button asks for, what the small board shows next (a live game or
// the demonstration), and when the lists of games have changed. No DOM, no network, no
// storage: start.js feeds these, start-view.js draws.

/** The clocks offered: minutes and increment in seconds, or none. */
export const CLOCKS = { untimed: null, "1+0": [1, 0], "3+2": [3, 2], "6+0": [6, 0], "10+5": [10, 5] };
/** The sizes offered at a glance; every other size is in the menu beside them. */
export const COMMON_SIZES = ["6x6", "8x8", "10x10"];
/** The demonstration when nobody plays: the two removals and a jump each, on 6x6. */
export const DEMO = { start: "bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb b", moves: ["c4", "c3", "e4-c4", "d2-d4"] };

/** The options the player chose last time (`saved`), over the defaults. */
export const withDefaults = (saved) => ({ size: "8x8", opening: "center-or-corner", clock: "untimed", level: "3", color: "random", ...saved });

/** Every size the menu offers, as `[value, text]`, after its prompt `[“”, prompt]`. */
export function sizeChoices(prompt) {
  const sizes = [["", prompt]];
  for (let n = 4; n <= 16; n++) sizes.push([`${n}x${n}`, `${n} × ${n}`]);
  sizes.push(["6x8", "6 × 8"], ["8x10", "8 × 10"]);
  return sizes;
}

/** The game a start button `kind` (engine, friend, local, open, challenge, watch) asks for
 * with options `o`; `rated` when the player ticked it, `challenge` the player challenged. */
export function gameSettings(o, kind, rated, challenge) {
  const clock = CLOCKS[o.clock];
  const friendly = kind === "friend" || kind === "open" || kind === "challenge";
  return {
    mode: kind === "watch" ? "engine" : kind === "challenge" ? "friend" : kind,
    size: o.size,
    opening: o.opening,
    color: kind === "watch" ? "none" : o.color,
    level: Number(o.level),
    clock: clock ? { minutes: clock[0], increment: clock[1] } : null,
    ...(rated && friendly ? { rated: true } : {}),
    ...(kind === "challenge" ? { challenge } : {}),
  };
}

/** What the small board shows before anything: nothing. */
export const noTv = () => ({ id: null, ply: -1, position: null });

/** The small board showing live `game` after `tv`: the next `tv`, whether the game's last
 * move is the one after the position shown (to animate from it), and whether it is another
 * game than before (its caption changes). */
export function tvShowing(tv, game) {
  return {
    tv: { id: game.id, ply: game.ply, position: game.position },
    moved: Boolean(tv.id === game.id && game.ply === tv.ply + 1 && game.last_move),
    another: tv.id !== game.id,
  };
}

/** The demonstration's step `i` (0 to its number of moves) of `positions`: the position,
 * the move that led there (or null), and the step after it with how long it waits (the
 * last step waits twice as long, then it starts again). */
export function demoStep(positions, i, stepMs) {
  const move = DEMO.moves[i - 1] ?? null;
  const next = i + 1 > DEMO.moves.length ? 0 : i + 1;
  return { position: positions[i], move, before: move ? positions[i - 1] : null, next, wait: i + 1 > DEMO.moves.length ? stepMs * 2 : stepMs };
}

/** The key of a list of open games: it changes when the games do. */
export const lobbyKey = (games) => games.map((g) => g.id).join();

/** The key of a list of live games: it changes when the games or their moves do. */
export const liveKey = (games) => games.map((g) => `${g.id}:${g.ply}`).join();
