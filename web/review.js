// Game review on the analysis board: every position of the main line judged by the engine
// in the browser, an evaluation graph (SVG) over the moves, each move marked where it threw
// away a proven win or lost much evaluation, the better move, and a summary per player.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
/** Thinking time per position, after the solver's try. */
const MS_PER_POSITION = 400;
/** Solver nodes tried on each position (a few tenths of a second). */
const SOLVE_NODES = 300_000;
/** The score of a win the solver proved without counting its moves. */
const PROVEN = 29_900;
/** Evaluation lost (centi-moves, for the mover) that makes a move a mistake or a blunder. */
const MISTAKE = 100;
const BLUNDER = 250;
/** The graph's range in centi-moves; proven results sit at its edges. */
const RANGE = 500;

const isProven = (score) => Math.abs(score) > 29_000;

/** Black's view of a score for the side to move, clamped to the graph's range. */
function forBlack(score, turn) {
  const s = turn === "black" ? score : -score;
  return Math.max(-RANGE, Math.min(RANGE, isProven(s) ? Math.sign(s) * RANGE : s));
}

/**
 * How a move changed the mover's prospects: `blunder` when it threw away a proven win or
 * lost at least BLUNDER, `mistake` at least MISTAKE, else null. `before` is the mover's
 * score before the move, `after` the opponent's score after it.
 */
export function judge(before, after) {
  const mine = -after;
  const won = (s) => isProven(s) && s > 0;
  const lost = (s) => isProven(s) && s < 0;
  if (won(before) && !won(mine)) return "blunder";
  if (lost(mine) && !lost(before)) return "blunder";
  if (isProven(before) || isProven(mine)) return null;
  const drop = before - mine;
  if (drop >= BLUNDER) return "blunder";
  if (drop >= MISTAKE) return "mistake";
  return null;
}

/**
 * Reviews a line: `views` are the positions (from the rules engine: position, turn, winner)
 * from the start to after the last move, `moves` the moves between them. Calls
 * `progress(done, total)`; resolves with one entry per position {score, best} and one
 * judgement per move.
 */
export async function review(engine, views, moves, opening, progress) {
  const scores = [];
  for (const [i, v] of views.entries()) {
    progress(i, views.length);
    if (v.winner) {
      scores.push({ score: -PROVEN, best: null });
      continue;
    }
    // The solver first: a proven result is what "threw away a win" is judged by.
    const solved = await engine.solve(v.position, opening, SOLVE_NODES);
    if (solved.result !== "unknown") {
      scores.push({ score: solved.result === "win" ? PROVEN : -PROVEN, best: solved.best });
      continue;
    }
    const r = await engine.think(v.position, opening, { time_ms: MS_PER_POSITION, solver: false });
    scores.push({ score: r.score, best: r.best });
  }
  progress(views.length, views.length);
  const judged = moves.map((move, i) => {
    const judgement = judge(scores[i].score, scores[i + 1].score);
    const better = judgement && scores[i].best !== move ? scores[i].best : null;
    return { move, color: views[i].turn, judgement, better };
  });
  return { scores, judged };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.append(e);
  return e;
}

/** The evaluation graph: Black above the middle line, White below; a dot on each bad move. */
export function graph(result, views) {
  const values = result.scores.map((s, i) => forBlack(s.score, views[i].turn));
  const w = 600;
  const hgt = 160;
  const x = (i) => (values.length < 2 ? 0 : (i / (values.length - 1)) * w);
  const y = (v) => hgt / 2 - (v / RANGE) * (hgt / 2 - 6);
  // Stretched to the card's width; strokes keep their width, and dots are round line caps.
  const svg = el("svg", { viewBox: `0 0 ${w} ${hgt}`, preserveAspectRatio: "none", class: "review-graph", role: "img", "aria-label": t("review.graph"), "data-graph": values.map(Math.round).join(",") });
  el("rect", { x: 0, y: 0, width: w, height: hgt / 2, class: "graph-black-half" }, svg);
  el("line", { x1: 0, y1: hgt / 2, x2: w, y2: hgt / 2, class: "graph-axis" }, svg);
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  el("polygon", { points: `0,${hgt / 2} ${points} ${w},${hgt / 2}`, class: "graph-area" }, svg);
  el("polyline", { points, class: "graph-line" }, svg);
  result.judged.forEach((j, i) => {
    const [cx, cy] = [x(i + 1), y(values[i + 1])];
    if (j.judgement) el("line", { x1: cx, y1: cy, x2: cx, y2: cy, class: `graph-dot graph-${j.judgement}` }, svg);
  });
  return svg;
}

/** The review's panel: the graph, the summary per player, the judged moves. */
export function reviewPanel(result, views, goTo) {
  const count = (color, kind) => result.judged.filter((j) => j.color === color && j.judgement === kind).length;
  const summary = h("table", { class: "review-summary", "data-review-summary": "" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, t("review.mistakes")), h("th", { scope: "col" }, t("review.blunders")))),
    h("tbody", {}, ...["black", "white"].map((c) => h("tr", {}, h("th", { scope: "row" }, t(`color.${c}`)), h("td", {}, String(count(c, "mistake"))), h("td", {}, String(count(c, "blunder")))))));
  const list = h("ol", { class: "review-moves", "aria-label": t("review.moves") },
    ...result.judged.map((j, i) => h("li", { "data-review-move": j.move, "data-judgement": j.judgement ?? "" },
      h("button", { type: "button", class: "tree-move", onclick: () => goTo(i + 1) }, j.move),
      j.judgement ? h("span", { class: `judgement ${j.judgement}` }, " ", t(`review.${j.judgement}`)) : null,
      j.better ? h("span", { class: "better", "data-better": j.better }, " ", t("review.better", { move: j.better })) : null)));
  return h("section", { class: "review", "data-review": "" }, h("h2", {}, t("review.title")), graph(result, views), summary, list);
}
