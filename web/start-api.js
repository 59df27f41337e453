// The start screen's line to the server and its memory: starting a game (in this browser
// alone when offline), the demonstration's positions, the options chosen last time.

import { api, remember } from "./api.js";
import { engineHost } from "./computer.js";
import { localGamePath } from "./offline-game.js";
import { isOffline } from "./offline.js";
import { DEMO, withDefaults } from "./start-state.js";

const OPTIONS = "konane.options";

/** The options the player chose last time, or the defaults. */
export function savedOptions() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(OPTIONS) || "{}");
  } catch {
    saved = {};
  }
  return withDefaults(saved);
}

/** Keeps the options `o` for next time. */
export function keepOptions(o) {
  localStorage.setItem(OPTIONS, JSON.stringify(o));
}

/** Creates a game from `settings` and opens it; this browser plays the computer when it can.
 * Offline a game against the computer or on one device is played in this browser alone. */
export async function startGame(settings, go) {
  if (isOffline() && (settings.mode === "engine" || settings.mode === "local")) return go(localGamePath(settings));
  const host = settings.mode === "engine" ? { engine_host: await engineHost() } : {};
  const created = await api.create({ ...settings, ...host });
  if (created.token) remember(created.id, created.token, created.seat);
  go(`/game/${created.id}`);
}

/** The demonstration's positions, its start's first (the server, or offline this browser,
 * plays its moves). */
export async function demoPositions() {
  const positions = [DEMO.start];
  for (const m of DEMO.moves) positions.push((await api.position(positions.at(-1), "center-or-corner", m)).position);
  return positions;
}

/** The open games. */
export const openGames = async () => (await api.lobby()).games;

/** The games being played: `{playing, games}`, the most watchable first. */
export const liveGames = () => api.live();
