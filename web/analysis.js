// The analysis board `/analysis`: a position or a whole game, the engine thinking live in
// the browser (engine.js), and a move tree the player can explore. Opened from a link
// (`?position=<position text>&opening=…`, `?game=<id>`), from a finished game, or from
// text pasted in. Everything is judged by the engine in the worker, so it works offline.

import { api } from "./api.js";
import { Board, parsePosition, stoneOn } from "./board.js";
import { h } from "./dom.js";
import { Engine } from "./engine.js";
import { colorName, errorText } from "./words.js";
import { language, t } from "./i18n.js";
import { actionsFor, clickOn } from "./picker.js";
import { review, reviewPanel } from "./review.js";

/** Seconds the engine keeps deepening on one position. */
const THINK_MS = 60_000;
/** Solver nodes tried before the search starts (one or two seconds). */
const SOLVE_NODES = 3_000_000;
const LINES = 3;
const START = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
const SVG = "http://www.w3.org/2000/svg";
const other = (c) => (c === "black" ? "white" : "black");

/** "Black wins in 9 moves", with the plural the language needs. */
export function winsIn(color, moves) {
  const form = new Intl.PluralRules(language()).select(moves);
  const key = form === "one" || form === "few" ? `analysis.wins-in.${form}` : "analysis.wins-in.other";
  return t(key, { color: colorName(color), n: moves });
}

/** Black's share of the evaluation bar, 0 to 100, from a score for the side to move. */
function blackShare(score, turn) {
  const black = turn === "black" ? score : -score;
  if (Math.abs(black) > 29_000) return black > 0 ? 100 : 0;
  return 50 + 50 * Math.tanh(black / 400);
}

/** A game record or position text: which one, and what it holds. */
async function readText(rules, text) {
  const trimmed = text.trim();
  if (/^\[|\d\./.test(trimmed)) {
    const r = await rules.request({ op: "record", text: trimmed });
    return { start: r.start, opening: r.opening, moves: r.moves };
  }
  return { start: trimmed, opening: "center-or-corner", moves: [] };
}

/** Shows the analysis board; returns a function that stops the engine. */
export async function analysisScreen(app) {
  document.title = `${t("analysis.title")} · Kōnane`;
  // Two workers: one judges moves and reads records at once, one thinks (and is stopped
  // and restarted whenever the position changes).
  const rules = new Engine();
  const engine = new Engine();
  const params = new URLSearchParams(location.search);
  let nodes = [];
  let current = null;
  let selected = null;
  let runs = 0;
  let opening = params.get("opening") || "center-or-corner";

  const root = h("div", { class: "analysis", "data-analysis": "" });
  const host = h("div", { class: "board-host" });
  const barFill = h("div", { class: "evalbar-black" });
  const bar = h("div", { class: "evalbar", "aria-hidden": "true", "data-evalbar": "" }, barFill);
  const verdict = h("p", { class: "verdict", "data-verdict": "", role: "status" });
  const lines = h("ol", { class: "lines", "data-lines": "", "aria-label": t("analysis.lines") });
  const depth = h("p", { class: "depth", "data-depth-text": "" });
  const tree = h("div", { class: "tree", "data-tree": "", "aria-label": t("analysis.moves"), role: "group" });
  const message = h("p", { class: "notice", "data-notice": "", role: "status" });
  const input = h("textarea", { rows: 3, "data-open-text": "", spellcheck: "false", "aria-describedby": "open-help" });
  const openForm = h("form", { class: "open", onsubmit: (e) => { e.preventDefault(); openText(input.value); } },
    h("label", {}, t("analysis.open"), input),
    h("small", { id: "open-help" }, t("analysis.open-help")),
    h("button", { type: "submit", "data-open": "" }, t("analysis.open-go")));
  const button = (label, attrs, handler) => h("button", { type: "button", ...attrs, onclick: handler }, label);
  const reviewButton = button(t("review.start"), { "data-review-start": "" }, () => reviewLine());
  const progress = h("progress", { class: "review-progress", "data-review-progress": "", hidden: true, "aria-label": t("review.progress") });
  const reviewHost = h("div", { class: "review-host" });
  const nav = h("div", { class: "nav" },
    button("«", { "aria-label": t("nav.first"), title: t("nav.first"), "data-nav": "first" }, () => goTo(nodes[0])),
    button("‹", { "aria-label": t("nav.back"), title: t("nav.back"), "data-nav": "back" }, () => goTo(current?.parent)),
    button("›", { "aria-label": t("nav.forward"), title: t("nav.forward"), "data-nav": "forward" }, () => goTo(current?.children[0])),
    button("»", { "aria-label": t("analysis.end"), title: t("analysis.end"), "data-nav": "last" }, () => goTo(lineEnd(current))));
  root.append(
    h("div", { class: "board-wrap analysis-board" }, bar, host),
    h("aside", { class: "panel" }, h("h1", {}, t("analysis.title")), verdict, lines, depth, message, tree, nav, reviewButton, progress, openForm),
    reviewHost);
  app.replaceChildren(root);

  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => { selected = null; draw(); },
  });

  function lineEnd(node) {
    let n = node;
    while (n?.children.length) n = n.children[0];
    return n;
  }

  function node(view, move, parent) {
    const n = { id: nodes.length, view, move, parent, children: [] };
    nodes.push(n);
    parent?.children.push(n);
    return n;
  }

  /** Opens a start position and a line of moves from it (the main line). */
  async function load(start, moves) {
    const first = await rules.position(start, opening);
    nodes = [];
    let n = node(first, null, null);
    for (const m of moves) n = node(await rules.position(n.view.position, opening, m), m, n);
    await goTo(nodes[0]);
  }

  async function openText(text) {
    try {
      const read = await readText(rules, text);
      opening = read.opening;
      await load(read.start, read.moves);
      message.textContent = "";
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  function draw() {
    const view = current.view;
    const actions = actionsFor(view.legal_moves, selected);
    board.draw({ position: view.position, actions, selected, last: current.move?.split("-"), label: t("analysis.board") });
    drawArrow();
  }

  /** Only the arrow changes with each depth: the board stays, and so do the player's clicks. */
  function drawArrow() {
    host.querySelector(".best-move")?.remove();
    const best = root.dataset.bestmove;
    if (best) arrow(best);
  }

  /** The engine's best move drawn on the board: an arrow for a jump, a ring for a removal. */
  function arrow(move) {
    const svg = host.querySelector("svg");
    const [from, to] = move.split("-");
    const [x0, y0] = board.xy(from);
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "best-move");
    g.setAttribute("aria-hidden", "true");
    g.dataset.bestArrow = move;
    if (!to) {
      const c = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: x0, cy: y0, r: 24 })) c.setAttribute(k, v);
      g.append(c);
    } else {
      const [x1, y1] = board.xy(to);
      const len = Math.hypot(x1 - x0, y1 - y0);
      const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
      const line = document.createElementNS(SVG, "line");
      for (const [k, v] of Object.entries({ x1: x0, y1: y0, x2: x1 - ux * 14, y2: y1 - uy * 14 })) line.setAttribute(k, v);
      const head = document.createElementNS(SVG, "polygon");
      const [px, py] = [-uy, ux];
      head.setAttribute("points", [[x1, y1], [x1 - ux * 20 + px * 11, y1 - uy * 20 + py * 11], [x1 - ux * 20 - px * 11, y1 - uy * 20 - py * 11]].map((p) => p.join(",")).join(" "));
      g.append(line, head);
    }
    svg.append(g);
  }

  function renderTree() {
    const moveButton = (n) => {
      // Numbered as in records: Black's moves "N.", a line that starts with White "N...".
      const blackFirst = nodes[0].view.turn === "black";
      const ply = depthOf(n) + (blackFirst ? 0 : 1);
      const first = n.parent === nodes[0] || n.parent?.children[0] !== n;
      const number = ply % 2 === 1 ? `${(ply + 1) / 2}. ` : first ? `${ply / 2}... ` : "";
      return h("button", { type: "button", class: "tree-move", "data-node": n.id, "data-move": n.move, "aria-current": n === current ? "true" : null, onclick: () => goTo(n) }, `${number}${n.move}`);
    };
    // A line: its moves in order; at each branching move the alternatives follow in brackets.
    const line = (first) => {
      const out = [];
      let n = first;
      while (n) {
        out.push(moveButton(n));
        const siblings = n.parent ? n.parent.children : [];
        if (n.parent && siblings[0] === n && siblings.length > 1) {
          for (const alt of siblings.slice(1)) out.push(h("span", { class: "variation", "data-variation": "" }, "(", ...line(alt), ")"));
        }
        n = n.children[0];
      }
      return out;
    };
    reviewButton.hidden = !nodes[0].children.length;
    tree.replaceChildren(...(nodes[0].children.length ? line(nodes[0].children[0]) : [h("span", { class: "muted" }, t("analysis.no-moves"))]));
  }

  /** Reviews the main line; the live analysis rests meanwhile. */
  async function reviewLine() {
    const line = [nodes[0]];
    while (line.at(-1).children.length) line.push(line.at(-1).children[0]);
    runs++;
    engine.stop();
    reviewButton.disabled = true;
    progress.hidden = false;
    reviewHost.replaceChildren();
    const reviewer = new Engine();
    try {
      const views = line.map((n) => n.view);
      const result = await review(reviewer, views, line.slice(1).map((n) => n.move), opening, (done, total) => {
        progress.max = total;
        progress.value = done;
      });
      reviewHost.replaceChildren(reviewPanel(result, views, (i) => goTo(line[i])));
      reviewHost.scrollIntoView({ block: "nearest" });
    } catch (e) {
      message.textContent = errorText(e);
    } finally {
      reviewer.stop();
      progress.hidden = true;
      reviewButton.disabled = false;
      think(current);
    }
  }

  function depthOf(n) {
    let d = 0;
    for (let p = n; p.parent; p = p.parent) d++;
    return d;
  }

  function show(data) {
    for (const [k, v] of Object.entries(data)) {
      if (v === null || v === undefined) delete root.dataset[k];
      else root.dataset[k] = v;
    }
  }

  /** What is known of the current position, in words and on the board. */
  function report(a, turn, solved) {
    const top = a.lines[0];
    if (!top) return;
    // The solver may know the result before the search sees it: its move and word stand.
    const early = solved && !top.proven;
    const proven = top.proven ?? solved?.result ?? null;
    show({ eval: early ? solved.result : top.eval, bestmove: early && solved.best ? solved.best : top.move, depth: String(a.depth), proven });
    barFill.style.height = early ? (proven === "win") === (turn === "black") ? "100%" : "0%" : `${blackShare(top.score, turn)}%`;
    // A line the solver has proven (its first move wins, or every move loses) says so,
    // not the search's guess.
    const lineEval = (l) => {
      const [word, n] = l.eval.split(" ");
      if (n) return t(`analysis.line-${word}`, { n });
      if (early && solved.result === "loss") return t("analysis.line-lost");
      if (early && l.pv[0] === solved.best) return t("analysis.line-won");
      return l.eval;
    };
    // The solver's winning move leads, whatever the search thinks of it so far.
    const ordered = early && solved.best ? [...a.lines].sort((x, y) => (y.pv[0] === solved.best) - (x.pv[0] === solved.best)) : a.lines;
    lines.replaceChildren(...ordered.map((l) => {
      const pv = l.pv.join(" ");
      return h("li", { "data-line": "", title: pv }, h("b", { class: "line-eval" }, lineEval(l)), " ", pv);
    }));
    depth.textContent = t("analysis.depth", { depth: a.depth, nodes: (a.nodes / 1e6).toFixed(1) });
    const moves = top.proven ? Number(top.eval.split(" ")[1]) : null;
    if (proven) {
      const winner = proven === "win" ? turn : other(turn);
      verdict.textContent = moves ? winsIn(winner, moves) : t("analysis.wins", { color: colorName(winner) });
    } else {
      verdict.textContent = t("analysis.eval", { eval: top.eval, color: colorName(turn) });
    }
    drawArrow();
  }

  async function think(n) {
    engine.stop();
    const mine = ++runs;
    const view = n.view;
    show({ eval: null, bestmove: null, proven: null, depth: null });
    lines.replaceChildren();
    lines.hidden = Boolean(view.winner);
    depth.textContent = "";
    barFill.style.height = "50%";
    if (view.winner) {
      // The side to move has no move: the game is over, and proven.
      show({ eval: "loss 0", proven: "loss", depth: "0" });
      barFill.style.height = view.winner === "black" ? "100%" : "0%";
      verdict.textContent = t("analysis.over", { color: colorName(view.turn), winner: colorName(view.winner) });
      return;
    }
    verdict.textContent = t("analysis.thinking");
    try {
      const solved = await engine.solve(view.position, opening, SOLVE_NODES);
      if (mine !== runs) return;
      const known = solved.result === "unknown" ? null : solved;
      if (known) {
        show({ proven: solved.result, bestmove: solved.best ?? null });
        const winner = solved.result === "win" ? view.turn : other(view.turn);
        verdict.textContent = t("analysis.wins", { color: colorName(winner) });
        barFill.style.height = winner === "black" ? "100%" : "0%";
        drawArrow();
      }
      await engine.request({ op: "analyse", position: view.position, opening, time_ms: THINK_MS, lines: LINES }, (a) => {
        if (mine === runs) report(a, view.turn, known);
      });
    } catch (e) {
      if (mine === runs && e.code !== "stopped") message.textContent = errorText(e);
    }
  }

  async function goTo(n) {
    if (!n) return;
    current = n;
    selected = null;
    if (!params.has("game")) {
      const q = new URLSearchParams({ position: n.view.position });
      if (opening !== "center-or-corner") q.set("opening", opening);
      history.replaceState(null, "", `/analysis?${q}`);
    }
    show({ bestmove: null });
    draw();
    renderTree();
    think(n);
  }

  function onSquare(name) {
    const view = current.view;
    const parsed = parsePosition(view.position);
    const r = clickOn(view.legal_moves, selected, name, (sq) => stoneOn(parsed, sq), view.turn, view.phase);
    if (r.move) return tryMove(r.move);
    if ("select" in r) {
      selected = r.select;
      return draw();
    }
    message.textContent = t(r.why, r.vars);
  }

  /** Plays `move` from the current position: into the tree's known branch, or a new one. */
  async function tryMove(move) {
    selected = null;
    const known = current.children.find((c) => c.move === move);
    if (known) return goTo(known);
    try {
      const view = await rules.position(current.view.position, opening, move);
      message.textContent = "";
      await goTo(node(view, move, current));
    } catch (e) {
      message.textContent = errorText(e);
      draw();
    }
  }

  try {
    if (params.has("game")) {
      const read = await readText(rules, await api.record(params.get("game")));
      opening = read.opening;
      await load(read.start, read.moves);
    } else {
      await load(params.get("position") || START, []);
    }
  } catch (e) {
    message.textContent = errorText(e);
    if (!nodes.length) await load(START, []);
  }
  return () => {
    runs++;
    engine.stop();
    rules.stop();
  };
}
