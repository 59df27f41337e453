// The analysis board `/analysis`: a position or a whole game, the engine thinking live in
// the browser (engine.js), and a move tree the player can explore. Opened from a link
// (`?position=<position text>&opening=…`, `?game=<id>`), from a finished game, or from
// text pasted in. Everything is judged by the engine in the worker, so it works offline.
// Wires the state (analysis-state.js), its view (analysis-view.js) and the sources
// (analysis-engine.js); here live the engines' runs and the review.

import { Engine } from "./engine.js";
import { t } from "./i18n.js";
import { review, reviewPanel } from "./review.js";
import { lineViews, readGame, readText } from "./analysis-engine.js";
import * as state from "./analysis-state.js";
import { AnalysisView } from "./analysis-view.js";
import { errorText } from "./words.js";

/** Seconds the engine keeps deepening on one position. */
const THINK_MS = 60_000;
/** Solver nodes tried before the search starts (one or two seconds). */
const SOLVE_NODES = 3_000_000;
const LINES = 3;

/** Shows the analysis board; returns a function that stops the engine. */
export async function analysisScreen(app) {
  document.title = `${t("analysis.title")} · Kōnane`;
  // Two workers: one judges moves and reads records at once, one thinks (and is stopped
  // and restarted whenever the position changes).
  const rules = new Engine();
  const engine = new Engine();
  const params = new URLSearchParams(location.search);
  let s = state.initial(params.get("opening") || state.DEFAULT_OPENING);
  let runs = 0;

  /** Opens a start position and a line of moves from it (the main line). */
  async function load(start, moves) {
    const [first, ...rest] = await lineViews(rules, start, s.opening, moves);
    s = state.rooted(s, first);
    let id = 0;
    for (const [i, view] of rest.entries()) ({ state: s, id } = state.grown(s, id, view, moves[i]));
    await goTo(0);
  }

  async function openText(text) {
    try {
      const read = await readText(rules, text);
      s = state.withOpening(s, read.opening);
      await load(read.start, read.moves);
      view.tell("");
    } catch (e) {
      view.tell(errorText(e));
    }
  }

  /** Reviews the main line; the live analysis rests meanwhile. */
  async function reviewLine() {
    const line = state.mainLine(s);
    runs++;
    engine.stop();
    view.reviewing(true);
    const reviewer = new Engine();
    try {
      const views = line.map((id) => s.nodes[id].view);
      const moves = line.slice(1).map((id) => s.nodes[id].move);
      const result = await review(reviewer, views, moves, s.opening, (done, total) => view.reviewed(done, total));
      view.showReview(reviewPanel(result, views, (i) => goTo(line[i])));
    } catch (e) {
      view.tell(errorText(e));
    } finally {
      reviewer.stop();
      view.reviewing(false);
      think(s.current);
    }
  }

  async function think(id) {
    engine.stop();
    const mine = ++runs;
    const position = s.nodes[id].view;
    view.clear(Boolean(position.winner));
    if (position.winner) {
      // The side to move has no move: the game is over, and proven.
      view.report(state.overReading(position));
      return;
    }
    view.thinking();
    try {
      const solved = await engine.solve(position.position, s.opening, SOLVE_NODES);
      if (mine !== runs) return;
      const known = solved.result === "unknown" ? null : solved;
      if (known) view.report(state.solvedReading(position, known));
      await engine.request({ op: "analyse", position: position.position, opening: s.opening, time_ms: THINK_MS, lines: LINES }, (a) => {
        const r = mine === runs ? state.reading(a, position.turn, known) : null;
        if (r) view.report(r);
      });
    } catch (e) {
      if (mine === runs && e.code !== "stopped") view.tell(errorText(e));
    }
  }

  async function goTo(id) {
    if (state.node(s, id) === undefined) return;
    s = state.shown(s, id);
    if (!params.has("game")) history.replaceState(null, "", state.address(s));
    view.show({ bestmove: null });
    view.draw(s);
    view.drawTree(s);
    think(id);
  }

  function onSquare(name) {
    const r = state.click(s, name);
    if (r.move) return tryMove(r.move);
    if (r.state !== s) {
      s = r.state;
      return view.draw(s);
    }
    view.tell(t(r.why, r.vars));
  }

  /** Plays `move` from the current position: into the tree's known branch, or a new one. */
  async function tryMove(move) {
    s = state.deselect(s);
    const known = state.childBy(s, s.current, move);
    if (known !== undefined) return goTo(known);
    const from = s.current;
    try {
      const next = await rules.position(s.nodes[from].view.position, s.opening, move);
      view.tell("");
      const grown = state.grown(s, from, next, move);
      s = grown.state;
      await goTo(grown.id);
    } catch (e) {
      view.tell(errorText(e));
      view.draw(s);
    }
  }

  const view = new AnalysisView(app, {
    onSquare,
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => {
      s = state.deselect(s);
      view.draw(s);
    },
    onOpen: openText,
    onReview: reviewLine,
    onGo: goTo,
    onFirst: () => goTo(0),
    onBack: () => goTo(state.current(s)?.parent),
    onForward: () => goTo(state.current(s)?.children[0]),
    onLast: () => goTo(state.lineEnd(s, s.current)),
  });

  try {
    if (params.has("game")) {
      const read = await readGame(rules, params.get("game"));
      s = state.withOpening(s, read.opening);
      await load(read.start, read.moves);
    } else {
      await load(params.get("position") || state.START, []);
    }
  } catch (e) {
    view.tell(errorText(e));
    if (!s.nodes.length) await load(state.START, []);
  }
  return () => {
    runs++;
    engine.stop();
    rules.stop();
  };
}
