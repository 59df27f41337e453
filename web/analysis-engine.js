// The analysis board's sources: the rules engine in this browser's worker, which reads
// records and judges moves (so the board works offline), and the server, which sends a
// finished game's record.

import { api } from "./api.js";
import { DEFAULT_OPENING, isRecord } from "./analysis-state.js";

/** A game record or position text, read by `rules`: `{start, opening, moves}`. */
export async function readText(rules, text) {
  const trimmed = text.trim();
  if (isRecord(trimmed)) {
    const r = await rules.request({ op: "record", text: trimmed });
    return { start: r.start, opening: r.opening, moves: r.moves };
  }
  return { start: trimmed, opening: DEFAULT_OPENING, moves: [] };
}

/** Game `id` read from its record on the server. */
export async function readGame(rules, id) {
  return readText(rules, await api.record(id));
}

/** The positions (from `rules`) of the line `moves` from `start`: the start's first. */
export async function lineViews(rules, start, opening, moves) {
  const views = [await rules.position(start, opening)];
  for (const m of moves) views.push(await rules.position(views.at(-1).position, opening, m));
  return views;
}
