// The board as SVG. It draws what the server sends (position text, legal moves), reports
// clicks, taps, drags and keys on squares, and animates a move; it knows nothing of the rules.

import { t } from "./i18n.js";
import { capturedBy } from "./picker.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnop";
const CELL = 60;
const MARGIN = 32;
let boards = 0;

/** The rows, columns, cells (`b`, `w`, `.`) and side to move of a position text. */
export function parsePosition(text) {
  const [board, side] = text.trim().split(/\s+/);
  const cells = board.split("/").map((row) => [...row]);
  return { rows: cells.length, cols: cells[0].length, cells, turn: side === "w" ? "white" : "black" };
}

/** The stone on `name` (`b`, `w` or `.`) in a parsed position. */
export function stoneOn(parsed, name) {
  const c = name.charCodeAt(0) - 97;
  const r = parsed.rows - Number(name.slice(1));
  return parsed.cells[r]?.[c] ?? ".";
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function describe(name, stone, action) {
  const what = t(stone === "b" ? "sq.black" : stone === "w" ? "sq.white" : "sq.empty");
  if (!action) return t("sq.label", { square: name, stone: what });
  return t("sq.label-action", { square: name, stone: what, action: t(`sq.${action}`) });
}

/**
 * One board on the page. `handlers`: `onSquare(name)` for a click, tap or Enter;
 * `onDrop(from, to)` for a stone dragged onto another square; `onEscape()`.
 */
export class Board {
  constructor(host, handlers) {
    this.id = `board${++boards}`;
    this.handlers = handlers;
    this.view = null;
    this.cursor = null;
    this.drag = null;
    this.dragged = false;
    this.svg = el("svg", { class: "board" });
    this.svg.addEventListener("keydown", (e) => this.key(e));
    this.svg.addEventListener("pointerdown", (e) => this.down(e));
    this.svg.addEventListener("pointermove", (e) => this.move(e));
    this.svg.addEventListener("pointerup", (e) => this.up(e));
    this.svg.addEventListener("pointercancel", () => this.endDrag());
    this.svg.addEventListener("click", (e) => {
      const g = e.target.closest("[data-square]");
      if (this.dragged) this.dragged = false;
      else if (g && this.view?.interactive !== false) {
        this.cursor = g.dataset.square;
        handlers.onSquare?.(g.dataset.square);
      }
    });
    host.replaceChildren(this.svg);
  }

  /** Screen (row, column) of a square, taking the flip into account. */
  screenOf(name) {
    const { rows, cols } = this.parsed;
    const r = rows - Number(name.slice(1));
    const c = name.charCodeAt(0) - 97;
    return this.view.flipped ? [rows - 1 - r, cols - 1 - c] : [r, c];
  }

  nameAt(sr, sc) {
    const { rows, cols } = this.parsed;
    const [r, c] = this.view.flipped ? [rows - 1 - sr, cols - 1 - sc] : [sr, sc];
    return `${FILES[c]}${rows - r}`;
  }

  xy(name) {
    const [sr, sc] = this.screenOf(name);
    return [MARGIN + sc * CELL + CELL / 2, MARGIN + sr * CELL + CELL / 2];
  }

  /**
   * Draws `view`: { position, flipped, actions: Map(name → action), selected, last: [from,
   * to], interactive, label, labelledBy (the id of a caption that names it) }.
   */
  draw(view) {
    this.view = view;
    this.parsed = parsePosition(view.position);
    const { rows, cols, cells } = this.parsed;
    const width = cols * CELL + 2 * MARGIN;
    const height = rows * CELL + 2 * MARGIN;
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    if (view.labelledBy) {
      svg.setAttribute("aria-labelledby", view.labelledBy);
      svg.removeAttribute("aria-label");
    } else {
      svg.setAttribute("aria-label", view.label ?? t("board.label", { rows, cols }));
    }
    // A picture (rules, history) is one image with its caption; a board to play is a grid.
    const picture = view.interactive === false;
    svg.setAttribute("role", picture ? "img" : "grid");
    if (picture) {
      svg.removeAttribute("tabindex");
      svg.removeAttribute("aria-activedescendant");
    } else {
      svg.setAttribute("tabindex", "0");
    }
    svg.replaceChildren();
    const defs = el("defs", {}, svg);
    const gradient = (id, stops) => {
      const g = el("radialGradient", { id: `${this.id}-${id}`, cx: "35%", cy: "30%", r: "75%" }, defs);
      for (const [offset, color] of stops) el("stop", { offset, "stop-color": color }, g);
    };
    gradient("lava", [["0%", "#6b6560"], ["55%", "#2b2724"], ["100%", "#0d0b0a"]]);
    gradient("coral", [["0%", "#ffffff"], ["60%", "#efe6d6"], ["100%", "#cbbba3"]]);
    // Inset by half the frame's stroke: a rect on the viewBox's edge loses the outer half
    // of its stroke, and its rounded corners look cut off.
    el("rect", { x: 2, y: 2, width: width - 4, height: height - 4, rx: 14, class: "papamu", "aria-hidden": "true" }, svg);
    // A large board is drawn smaller, so its letters grow with it, as far as the margin allows.
    const size = 20 * Math.min(1.3, Math.max(1, Math.max(rows, cols) / 10));
    const coord = { class: "coord", "text-anchor": "middle", "font-size": size };
    const baseline = size * 0.35;
    const coords = el("g", { "aria-hidden": "true" }, svg);
    for (let sc = 0; sc < cols; sc++) {
      const file = this.nameAt(0, sc).charAt(0);
      for (const y of [MARGIN / 2 + baseline, height - MARGIN / 2 + baseline]) {
        el("text", { ...coord, x: MARGIN + sc * CELL + CELL / 2, y }, coords).textContent = file;
      }
    }
    for (let sr = 0; sr < rows; sr++) {
      const rank = this.nameAt(sr, 0).slice(1);
      for (const x of [MARGIN / 2, width - MARGIN / 2]) {
        el("text", { ...coord, x, y: MARGIN + sr * CELL + CELL / 2 + baseline }, coords).textContent = rank;
      }
    }
    const names = [];
    for (let sr = 0; sr < rows; sr++) {
      const row = el("g", picture ? {} : { role: "row" }, svg);
      for (let sc = 0; sc < cols; sc++) {
        const name = this.nameAt(sr, sc);
        names.push(name);
        const [r, c] = this.view.flipped ? [rows - 1 - sr, cols - 1 - sc] : [sr, sc];
        const stone = cells[r][c];
        const action = view.selected === name ? "selected" : view.actions?.get(name);
        const x = MARGIN + sc * CELL;
        const y = MARGIN + sr * CELL;
        const g = el("g", { "data-square": name, id: `${this.id}-${name}` }, row);
        if (!picture) {
          g.setAttribute("role", "gridcell");
          g.setAttribute("aria-label", describe(name, stone, action));
        }
        if (action) g.setAttribute("data-action", action === "selected" ? "select" : action);
        if (action === "selected" && !picture) g.setAttribute("aria-selected", "true");
        const classes = ["square"];
        if (view.last?.includes(name)) classes.push("last");
        if (action) classes.push(`can-${action}`);
        el("rect", { x, y, width: CELL, height: CELL, class: classes.join(" ") }, g);
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, class: "pit" }, g);
        if (stone === "b" || stone === "w") this.stone(g, x + CELL / 2, y + CELL / 2, stone);
        if (action === "target") el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: "target-dot" }, g);
        if (action === "select" || action === "remove" || action === "selected") this.ring(g, x, y, action);
      }
    }
    if (!names.includes(this.cursor)) {
      const first = [...(view.actions?.keys() ?? [])][0];
      this.cursor = first ?? this.nameAt(Math.floor(rows / 2), Math.floor(cols / 2));
    }
    this.showCursor();
  }

  /** A ring in two strokes, dark under light, so it shows on wood and on both stones. */
  ring(parent, x, y, kind) {
    const g = el("g", { class: `ring ring-${kind}` }, parent);
    el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44, class: "ring-back" }, g);
    el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44, class: "ring-front" }, g);
  }

  stone(parent, cx, cy, stone) {
    const g = el("g", { class: `stone ${stone === "b" ? "lava" : "coral"}` }, parent);
    // Copies drawn for a drag or an animation sit outside the grid's cells: not content.
    if (parent === this.svg) g.setAttribute("aria-hidden", "true");
    el("circle", { cx, cy, r: CELL * 0.38, fill: `url(#${this.id}-${stone === "b" ? "lava" : "coral"})` }, g);
    // A second cue besides lightness: coral shows a ring, lava a glint.
    if (stone === "w") el("circle", { cx, cy, r: CELL * 0.2, class: "shell" }, g);
    else el("circle", { cx: cx - CELL * 0.12, cy: cy - CELL * 0.12, r: CELL * 0.06, class: "glint" }, g);
    return g;
  }

  showCursor() {
    this.svg.querySelector(".cursor")?.remove();
    if (!this.cursor || this.view?.interactive === false) return;
    const [sr, sc] = this.screenOf(this.cursor);
    const g = el("g", { class: "cursor", "aria-hidden": "true" }, this.svg);
    for (const part of ["cursor-back", "cursor-front"]) {
      el("rect", { x: MARGIN + sc * CELL + 4, y: MARGIN + sr * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: part }, g);
    }
    this.svg.setAttribute("aria-activedescendant", `${this.id}-${this.cursor}`);
  }

  key(e) {
    if (!this.view || this.view.interactive === false) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (e.key in moves) {
      const [dr, dc] = moves[e.key];
      const [sr, sc] = this.screenOf(this.cursor);
      const nr = Math.max(0, Math.min(this.parsed.rows - 1, sr + dr));
      const nc = Math.max(0, Math.min(this.parsed.cols - 1, sc + dc));
      this.cursor = this.nameAt(nr, nc);
      this.showCursor();
    } else if (e.key === "Enter" || e.key === " ") {
      this.handlers.onSquare?.(this.cursor);
    } else if (e.key === "Escape") {
      this.handlers.onEscape?.();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  point(e) {
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  down(e) {
    if (e.button !== 0 || this.drag) return;
    this.dragged = false;
    const g = e.target.closest("[data-square]");
    const action = g?.dataset.action;
    if (!g || action !== "select" || this.view?.interactive === false) return;
    this.drag = { from: g.dataset.square, x: e.clientX, y: e.clientY, ghost: null, id: e.pointerId };
  }

  move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
      this.svg.setPointerCapture(e.pointerId);
      if (this.view.selected !== d.from) this.handlers.onSquare?.(d.from);
      const stone = stoneOn(this.parsed, d.from);
      d.ghost = this.stone(this.svg, 0, 0, stone);
      d.ghost.classList.add("dragging");
    }
    if (!d.ghost.isConnected) this.svg.appendChild(d.ghost);
    this.svg.querySelector(`[data-square="${d.from}"] .stone`)?.classList.add("lifted");
    const [x, y] = this.point(e);
    d.ghost.setAttribute("transform", `translate(${x} ${y})`);
    e.preventDefault();
  }

  up(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (d.ghost) {
      this.dragged = true;
      const under = document.elementFromPoint(e.clientX, e.clientY)?.closest?.("[data-square]");
      this.endDrag();
      if (under && under.dataset.square !== d.from) this.handlers.onDrop?.(d.from, under.dataset.square);
    }
    this.drag = null;
  }

  endDrag() {
    this.drag?.ghost?.remove();
    this.svg.querySelector(".lifted")?.classList.remove("lifted");
    this.drag = null;
  }

  /** Shows `move` arriving: the stone travels from its start, captured stones fade. */
  animate(move, before) {
    if (reducedMotion() || !move) return;
    const old = parsePosition(before);
    const [from, to] = move.split("-");
    const fade = (name, delay) => {
      const stone = stoneOn(old, name);
      if (stone === ".") return;
      const [x, y] = this.xy(name);
      const ghost = this.stone(this.svg, x, y, stone);
      ghost.classList.add("fading");
      ghost.style.animationDelay = `${delay}ms`;
      ghost.addEventListener("animationend", () => ghost.remove());
    };
    if (!to) return fade(from, 0);
    const piece = this.svg.querySelector(`[data-square="${to}"] .stone`);
    if (!piece) return;
    const [x0, y0] = this.xy(from);
    const [x1, y1] = this.xy(to);
    const captured = capturedBy(move);
    const duration = 180 + 120 * captured.length;
    // A copy travels on top of every square; the stone itself shows once it has arrived.
    const traveller = this.stone(this.svg, x1, y1, stoneOn(old, from));
    traveller.classList.add("travelling");
    piece.style.visibility = "hidden";
    const trip = traveller.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0, 0)" }], { duration, easing: "ease-in-out" });
    trip.onfinish = () => {
      traveller.remove();
      piece.style.visibility = "";
    };
    captured.forEach((name, i) => fade(name, (duration * (2 * i + 1)) / (2 * captured.length)));
  }
}
