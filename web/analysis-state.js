// The analysis board's state as plain data, and its pure transitions and readings: the move
// tree (nodes by id, each with its position from the rules engine, its move, its parent and
// children, the first child the main line), the node shown, the stone picked up, and what
// the engine's reports mean. No DOM, no workers: analysis.js feeds the events,
// analysis-view.js draws the result.

import { parsePosition, stoneOn } from "./board.js";
import { clickOn } from "./picker.js";

/** The position the board opens on without another. */
export const START = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
/** The opening rule unless the address or a record says another. */
export const DEFAULT_OPENING = "center-or-corner";

const other = (c) => (c === "black" ? "white" : "black");

/** An empty board under opening rule `opening`. */
export const initial = (opening = DEFAULT_OPENING) => ({ nodes: [], current: null, selected: null, opening });

/** The state under opening rule `opening`. */
export const withOpening = (s, opening) => ({ ...s, opening });

/** A new tree of the one position `view` (from the rules engine), nothing shown yet. */
export const rooted = (s, view) => ({ ...s, nodes: [{ id: 0, view, move: null, parent: null, children: [] }], current: null, selected: null });

/** `{state, id}`: the tree with `move` from node `parent` leading to `view`, as its parent's
 * last branch (the first is the main line). */
export function grown(s, parent, view, move) {
  const id = s.nodes.length;
  const nodes = s.nodes.map((n) => (n.id === parent ? { ...n, children: [...n.children, id] } : n));
  nodes.push({ id, view, move, parent, children: [] });
  return { state: { ...s, nodes }, id };
}

/** The node `id` of the tree, or undefined. */
export const node = (s, id) => (id === null || id === undefined ? undefined : s.nodes[id]);

/** The node shown. */
export const current = (s) => node(s, s.current);

/** The state showing node `id`, nothing picked up. */
export const shown = (s, id) => ({ ...s, current: id, selected: null });

/** The branch of node `id` played with `move`, if the tree has it. */
export const childBy = (s, id, move) => s.nodes[id].children.find((c) => s.nodes[c].move === move);

/** The last node of the main line from node `id` on (undefined without `id`). */
export function lineEnd(s, id) {
  let n = node(s, id);
  while (n?.children.length) n = s.nodes[n.children[0]];
  return n?.id;
}

/** The main line's node ids, from the start. */
export function mainLine(s) {
  const line = [0];
  while (s.nodes[line.at(-1)].children.length) line.push(s.nodes[line.at(-1)].children[0]);
  return line;
}

/** How many moves node `id` lies from the start. */
export function depthOf(s, id) {
  let d = 0;
  for (let n = s.nodes[id]; n.parent !== null; n = s.nodes[n.parent]) d++;
  return d;
}

/** Node `id`'s move as the tree writes it, numbered as records are: Black's moves "N.",
 * a line that starts with White "N...", the other moves bare. */
export function moveLabel(s, id) {
  const n = s.nodes[id];
  const blackFirst = s.nodes[0].view.turn === "black";
  const ply = depthOf(s, id) + (blackFirst ? 0 : 1);
  const siblings = s.nodes[n.parent].children;
  const first = n.parent === 0 || siblings[0] !== id;
  const number = ply % 2 === 1 ? `${(ply + 1) / 2}. ` : first ? `${ply / 2}... ` : "";
  return `${number}${n.move}`;
}

/** A click on square `name` of the position shown: `{state}` (a stone picked up or put
 * down), `{move}` to play, or `{why, vars}` (picker.js's explanation). */
export function click(s, name) {
  const view = current(s).view;
  const parsed = parsePosition(view.position);
  const r = clickOn(view.legal_moves, s.selected, name, (sq) => stoneOn(parsed, sq), view.turn, view.phase);
  if (r.move) return { state: s, move: r.move };
  if ("select" in r) return { state: { ...s, selected: r.select } };
  return { state: s, why: r.why, vars: r.vars };
}

/** Nothing picked up. */
export const deselect = (s) => ({ ...s, selected: null });

/** The address that opens the position shown again (kept unless a game was opened). */
export function address(s) {
  const q = new URLSearchParams({ position: current(s).view.position });
  if (s.opening !== DEFAULT_OPENING) q.set("opening", s.opening);
  return `/analysis?${q}`;
}

/** Whether pasted `text` is a game record (else a position text). */
export const isRecord = (text) => /^\[|\d\./.test(text.trim());

/** Black's share of the evaluation bar, 0 to 100, from a score for the side to move. */
export function blackShare(score, turn) {
  const black = turn === "black" ? score : -score;
  if (Math.abs(black) > 29_000) return black > 0 ? 100 : 0;
  return 50 + 50 * Math.tanh(black / 400);
}

/** What a finished position shows: the side to move lost. */
export function overReading(view) {
  return {
    data: { eval: "loss 0", proven: "loss", depth: "0" },
    bar: view.winner === "black" ? "100%" : "0%",
    verdict: { key: "analysis.over", color: view.turn, winner: view.winner },
  };
}

/** What the solver's proof `solved` (`result` "win" or "loss", `best`) of `view` shows
 * before the search reports. */
export function solvedReading(view, solved) {
  const winner = solved.result === "win" ? view.turn : other(view.turn);
  return {
    data: { proven: solved.result, bestmove: solved.best ?? null },
    bar: winner === "black" ? "100%" : "0%",
    verdict: { key: "analysis.wins", color: winner },
  };
}

/**
 * What a search report `a` (`depth`, `nodes`, `lines` of `{move, eval, score, pv, proven}`)
 * of a position with `turn` to move shows, with the solver's proof `solved` when it has one:
 * the page's data attributes, the bar's height, the lines (each with its evaluation as a
 * string key and values, or the engine's own text), the depth and the verdict. Null
 * before the first line.
 */
export function reading(a, turn, solved) {
  const top = a.lines[0];
  if (!top) return null;
  // The solver may know the result before the search sees it: its move and word stand.
  const early = solved && !top.proven;
  const proven = top.proven ?? solved?.result ?? null;
  const bar = early ? ((proven === "win") === (turn === "black") ? "100%" : "0%") : `${blackShare(top.score, turn)}%`;
  // A line the solver has proven (its first move wins, or every move loses) says so, not
  // the search's guess.
  const lineEval = (l) => {
    const [word, n] = l.eval.split(" ");
    if (n) return { key: `analysis.line-${word}`, vars: { n } };
    if (early && solved.result === "loss") return { key: "analysis.line-lost" };
    if (early && l.pv[0] === solved.best) return { key: "analysis.line-won" };
    return { text: l.eval };
  };
  // The solver's winning move leads, whatever the search thinks of it so far.
  const ordered = early && solved.best ? [...a.lines].sort((x, y) => (y.pv[0] === solved.best) - (x.pv[0] === solved.best)) : a.lines;
  const moves = top.proven ? Number(top.eval.split(" ")[1]) : null;
  let verdict;
  if (proven) {
    const winner = proven === "win" ? turn : other(turn);
    verdict = moves ? { winsIn: moves, color: winner } : { key: "analysis.wins", color: winner };
  } else {
    verdict = { key: "analysis.eval", eval: top.eval, color: turn };
  }
  return {
    data: { eval: early ? solved.result : top.eval, bestmove: early && solved.best ? solved.best : top.move, depth: String(a.depth), proven },
    bar,
    lines: ordered.map((l) => ({ eval: lineEval(l), pv: l.pv.join(" ") })),
    depth: { depth: a.depth, nodes: (a.nodes / 1e6).toFixed(1) },
    verdict,
  };
}
