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

/** The analysis board: its state `s`, its view, the two workers, the effects of events. */
class AnalysisScreen {
  constructor(app) {
    // Two workers: one judges moves and reads records at once, one thinks (and is stopped
    // and restarted whenever the position changes).
    this.rules = new Engine();
    this.engine = new Engine();
    this.params = new URLSearchParams(location.search);
    this.s = state.initial(this.params.get("opening") || state.DEFAULT_OPENING);
    this.runs = 0;
    this.view = new AnalysisView(app, {
      onSquare: (name) => this.onSquare(name),
      onDrop: (from, to) => this.tryMove(`${from}-${to}`),
      onEscape: () => {
        this.s = state.deselect(this.s);
        this.view.draw(this.s);
      },
      onOpen: (text) => this.openText(text),
      onReview: () => this.reviewLine(),
      onGo: (id) => this.goTo(id),
      onFirst: () => this.goTo(0),
      onBack: () => this.goTo(state.current(this.s)?.parent),
      onForward: () => this.goTo(state.current(this.s)?.children[0]),
      onLast: () => this.goTo(state.lineEnd(this.s, this.s.current)),
    });
  }

  /** Opens a start position and a line of moves from it (the main line). */
  async load(start, moves) {
    const [first, ...rest] = await lineViews(this.rules, start, this.s.opening, moves);
    let s = state.rooted(this.s, first);
    let id = 0;
    for (const [i, view] of rest.entries()) ({ state: s, id } = state.grown(s, id, view, moves[i]));
    this.s = s;
    await this.goTo(0);
  }

  /** Opens what the address names: a game, a position, or the start. */
  async open() {
    try {
      if (this.params.has("game")) {
        const read = await readGame(this.rules, this.params.get("game"));
        this.s = state.withOpening(this.s, read.opening);
        await this.load(read.start, read.moves);
      } else {
        await this.load(this.params.get("position") || state.START, []);
      }
    } catch (e) {
      this.view.tell(errorText(e));
      if (!this.s.nodes.length) await this.load(state.START, []);
    }
  }

  async openText(text) {
    try {
      const read = await readText(this.rules, text);
      this.s = state.withOpening(this.s, read.opening);
      await this.load(read.start, read.moves);
      this.view.tell("");
    } catch (e) {
      this.view.tell(errorText(e));
    }
  }

  /** Reviews the main line; the live analysis rests meanwhile. */
  async reviewLine() {
    const s = this.s;
    const line = state.mainLine(s);
    this.runs++;
    this.engine.stop();
    this.view.reviewing(true);
    const reviewer = new Engine();
    try {
      const views = line.map((id) => s.nodes[id].view);
      const moves = line.slice(1).map((id) => s.nodes[id].move);
      const result = await review(reviewer, views, moves, s.opening, (done, total) => this.view.reviewed(done, total));
      this.view.showReview(reviewPanel(result, views, (i) => this.goTo(line[i])));
    } catch (e) {
      this.view.tell(errorText(e));
    } finally {
      reviewer.stop();
      this.view.reviewing(false);
      this.think(this.s.current);
    }
  }

  /** The engine on node `id`: the solver first, then the search, each report shown while
   * no newer run has begun. */
  async think(id) {
    this.engine.stop();
    const mine = ++this.runs;
    const position = this.s.nodes[id].view;
    const opening = this.s.opening;
    this.view.clear(Boolean(position.winner));
    if (position.winner) {
      // The side to move has no move: the game is over, and proven.
      this.view.report(state.overReading(position));
      return;
    }
    this.view.thinking();
    try {
      const solved = await this.engine.solve(position.position, opening, SOLVE_NODES);
      if (mine !== this.runs) return;
      const known = solved.result === "unknown" ? null : solved;
      if (known) this.view.report(state.solvedReading(position, known));
      await this.engine.request({ op: "analyse", position: position.position, opening, time_ms: THINK_MS, lines: LINES }, (a) => {
        const r = mine === this.runs ? state.reading(a, position.turn, known) : null;
        if (r) this.view.report(r);
      });
    } catch (e) {
      if (mine === this.runs && e.code !== "stopped") this.view.tell(errorText(e));
    }
  }

  async goTo(id) {
    if (state.node(this.s, id) === undefined) return;
    this.s = state.shown(this.s, id);
    if (!this.params.has("game")) history.replaceState(null, "", state.address(this.s));
    this.view.show({ bestmove: null });
    this.view.draw(this.s);
    this.view.drawTree(this.s);
    this.think(id);
  }

  onSquare(name) {
    const r = state.click(this.s, name);
    if (r.move) return this.tryMove(r.move);
    if (r.state !== this.s) {
      this.s = r.state;
      return this.view.draw(this.s);
    }
    this.view.tell(t(r.why, r.vars));
  }

  /** Plays `move` from the current position: into the tree's known branch, or a new one. */
  async tryMove(move) {
    this.s = state.deselect(this.s);
    const from = this.s.current;
    const known = state.childBy(this.s, from, move);
    if (known !== undefined) return this.goTo(known);
    try {
      const next = await this.rules.position(this.s.nodes[from].view.position, this.s.opening, move);
      this.view.tell("");
      const grown = state.grown(this.s, from, next, move);
      this.s = grown.state;
      await this.goTo(grown.id);
    } catch (e) {
      this.view.tell(errorText(e));
      this.view.draw(this.s);
    }
  }

  /** Stops both workers. */
  stop() {
    this.runs++;
    this.engine.stop();
    this.rules.stop();
  }
}

/** Shows the analysis board; returns a function that stops the engine. */
export async function analysisScreen(app) {
  document.title = `${t("analysis.title")} · Kōnane`;
  const screen = new AnalysisScreen(app);
  await screen.open();
  return () => screen.stop();
}
