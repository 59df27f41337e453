// The analysis board's view: the board with the engine's best move drawn on it, the
// evaluation bar, the verdict, the engine's lines, the move tree, the review, the form to
// open a record or position. `AnalysisView` builds them once and draws the states and
// readings of analysis-state.js into them; what the player does goes to the handlers
// analysis.js gives it.

import { Board } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { actionsFor } from "./picker.js";
import { current, moveLabel } from "./analysis-state.js";
import { colorName, winsIn } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

/** A verdict of analysis-state.js in words. */
function verdictText(v) {
  if (v.winsIn) return winsIn(v.color, v.winsIn);
  if (v.key === "analysis.over") return t(v.key, { color: colorName(v.color), winner: colorName(v.winner) });
  return t(v.key, { eval: v.eval, color: colorName(v.color) });
}

const button = (label, attrs, handler) => h("button", { type: "button", ...attrs, onclick: handler }, label);

/** The analysis board's elements in `app`; `on` holds the handlers: onSquare, onDrop(from,
 * to), onEscape, onOpen(text), onReview, onGo(id), onFirst, onBack, onForward, onLast. */
export class AnalysisView {
  constructor(app, on) {
    this.on = on;
    this.root = h("div", { class: "analysis", "data-analysis": "" });
    this.host = h("div", { class: "board-host" });
    this.barFill = h("div", { class: "evalbar-black" });
    const bar = h("div", { class: "evalbar", "aria-hidden": "true", "data-evalbar": "" }, this.barFill);
    this.verdict = h("p", { class: "verdict", "data-verdict": "", role: "status" });
    this.lines = h("ol", { class: "lines", "data-lines": "", "aria-label": t("analysis.lines") });
    this.depth = h("p", { class: "depth", "data-depth-text": "" });
    this.tree = h("div", { class: "tree", "data-tree": "", "aria-label": t("analysis.moves"), role: "group" });
    this.message = h("p", { class: "notice", "data-notice": "", role: "status" });
    const input = h("textarea", { rows: 3, "data-open-text": "", spellcheck: "false", "aria-describedby": "open-help" });
    const openForm = h("form", { class: "open", onsubmit: (e) => { e.preventDefault(); on.onOpen(input.value); } },
      h("label", {}, t("analysis.open"), input),
      h("small", { id: "open-help" }, t("analysis.open-help")),
      h("button", { type: "submit", "data-open": "" }, t("analysis.open-go")));
    this.reviewButton = button(t("review.start"), { "data-review-start": "" }, () => on.onReview());
    this.progress = h("progress", { class: "review-progress", "data-review-progress": "", hidden: true, "aria-label": t("review.progress") });
    this.reviewHost = h("div", { class: "review-host" });
    const nav = h("div", { class: "nav" },
      button("«", { "aria-label": t("nav.first"), title: t("nav.first"), "data-nav": "first" }, () => on.onFirst()),
      button("‹", { "aria-label": t("nav.back"), title: t("nav.back"), "data-nav": "back" }, () => on.onBack()),
      button("›", { "aria-label": t("nav.forward"), title: t("nav.forward"), "data-nav": "forward" }, () => on.onForward()),
      button("»", { "aria-label": t("analysis.end"), title: t("analysis.end"), "data-nav": "last" }, () => on.onLast()));
    this.root.append(
      h("div", { class: "board-wrap analysis-board" }, bar, this.host),
      h("aside", { class: "panel" }, h("h1", {}, t("analysis.title")), this.verdict, this.lines, this.depth, this.message, this.tree, nav, this.reviewButton, this.progress, openForm),
      this.reviewHost);
    app.replaceChildren(this.root);
    this.board = new Board(this.host, { onSquare: on.onSquare, onDrop: on.onDrop, onEscape: on.onEscape });
  }

  /** The notice under the analysis (empty: none). */
  tell(text) {
    this.message.textContent = text;
  }

  /** The board of state `s`'s node shown. */
  draw(s) {
    const n = current(s);
    const actions = actionsFor(n.view.legal_moves, s.selected);
    this.board.draw({ position: n.view.position, actions, selected: s.selected, last: n.move?.split("-"), label: t("analysis.board") });
    this.drawArrow();
  }

  /** Sets (or, null, removes) the page's data attributes of the analysis: eval, bestmove,
   * depth, proven. */
  show(data) {
    for (const [k, v] of Object.entries(data)) {
      if (v === null || v === undefined) delete this.root.dataset[k];
      else this.root.dataset[k] = v;
    }
  }

  /** The analysis emptied for a new position; `over`: the game has ended there. */
  clear(over) {
    this.show({ eval: null, bestmove: null, proven: null, depth: null });
    this.lines.replaceChildren();
    this.lines.hidden = over;
    this.depth.textContent = "";
    this.barFill.style.height = "50%";
  }

  /** The verdict while the engine starts thinking. */
  thinking() {
    this.verdict.textContent = t("analysis.thinking");
  }

  /** A reading of analysis-state.js (`overReading`, `solvedReading` or `reading`). */
  report(r) {
    this.show(r.data);
    this.barFill.style.height = r.bar;
    if (r.lines) {
      this.lines.replaceChildren(...r.lines.map((l) => h("li", { "data-line": "", title: l.pv },
        h("b", { class: "line-eval" }, l.eval.text ?? t(l.eval.key, l.eval.vars)), " ", l.pv)));
      this.depth.textContent = t("analysis.depth", r.depth);
    }
    this.verdict.textContent = verdictText(r.verdict);
    this.drawArrow();
  }

  /** Only the arrow changes with each depth: the board stays, and so do the player's clicks. */
  drawArrow() {
    this.host.querySelector(".best-move")?.remove();
    const best = this.root.dataset.bestmove;
    if (best) this.arrow(best);
  }

  /** The engine's best move drawn on the board: an arrow for a jump, a ring for a removal. */
  arrow(move) {
    const svg = this.host.querySelector("svg");
    const [from, to] = move.split("-");
    const [x0, y0] = this.board.xy(from);
    const g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "best-move");
    g.setAttribute("aria-hidden", "true");
    g.dataset.bestArrow = move;
    if (!to) {
      const c = document.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: x0, cy: y0, r: 24 })) c.setAttribute(k, v);
      g.append(c);
    } else {
      const [x1, y1] = this.board.xy(to);
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

  /** The move tree of state `s`: the main line, each branching move's alternatives after it
   * in brackets. */
  drawTree(s) {
    const moveButton = (id) => h("button", { type: "button", class: "tree-move", "data-node": id, "data-move": s.nodes[id].move, "aria-current": id === s.current ? "true" : null, onclick: () => this.on.onGo(id) }, moveLabel(s, id));
    const line = (first) => {
      const out = [];
      let id = first;
      while (id !== undefined) {
        out.push(moveButton(id));
        const n = s.nodes[id];
        const siblings = s.nodes[n.parent].children;
        if (siblings[0] === id && siblings.length > 1) {
          for (const alt of siblings.slice(1)) out.push(h("span", { class: "variation", "data-variation": "" }, "(", ...line(alt), ")"));
        }
        id = n.children[0];
      }
      return out;
    };
    const start = s.nodes[0].children;
    this.reviewButton.hidden = !start.length;
    this.tree.replaceChildren(...(start.length ? line(start[0]) : [h("span", { class: "muted" }, t("analysis.no-moves"))]));
  }

  /** The review running (`on`) or done. */
  reviewing(on) {
    this.reviewButton.disabled = on;
    this.progress.hidden = !on;
    if (on) this.reviewHost.replaceChildren();
  }

  /** The review's progress: `done` of `total` positions. */
  reviewed(done, total) {
    this.progress.max = total;
    this.progress.value = done;
  }

  /** The review's panel, shown. */
  showReview(panel) {
    this.reviewHost.replaceChildren(panel);
    this.reviewHost.scrollIntoView({ block: "nearest" });
  }
}
