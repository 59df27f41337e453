// The board as SVG. It draws what the server sends (position text, legal moves) and
// reports clicks on squares; it knows nothing of the rules.

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghijklmnop";
const CELL = 60;
const MARGIN = 28;

export function parsePosition(text) {
  const [board, side] = text.trim().split(/\s+/);
  const cells = board.split("/").map((row) => [...row]);
  return { rows: cells.length, cols: cells[0].length, cells, turn: side === "w" ? "white" : "black" };
}

export function squareName(rows, r, c) {
  return `${FILES[c]}${rows - r}`;
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function describe(name, stone, action) {
  const what = stone === "b" ? "black stone" : stone === "w" ? "white stone" : "empty";
  const can = { remove: ", can be removed", select: ", can move", target: ", can be jumped to", selected: ", selected" }[action] || "";
  return `${name}, ${what}${can}`;
}

// Draws the board into `host`. `view`: { position, flipped, actions: Map(name → action),
// selected, last: [from, to], onSquare(name) }.
export function drawBoard(host, view) {
  const { rows, cols, cells } = parsePosition(view.position);
  const width = cols * CELL + 2 * MARGIN;
  const height = rows * CELL + 2 * MARGIN;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "board", role: "grid", "aria-label": `Kōnane board, ${rows} by ${cols}` });
  const defs = el("defs", {}, svg);
  const lava = el("radialGradient", { id: "lava", cx: "35%", cy: "30%", r: "75%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#6b6560" }, lava);
  el("stop", { offset: "55%", "stop-color": "#2b2724" }, lava);
  el("stop", { offset: "100%", "stop-color": "#0d0b0a" }, lava);
  const coral = el("radialGradient", { id: "coral", cx: "35%", cy: "30%", r: "75%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#ffffff" }, coral);
  el("stop", { offset: "60%", "stop-color": "#efe6d6" }, coral);
  el("stop", { offset: "100%", "stop-color": "#cbbba3" }, coral);
  el("rect", { x: 0, y: 0, width, height, rx: 14, class: "papamu" }, svg);
  const at = (r, c) => {
    const rr = view.flipped ? rows - 1 - r : r;
    const cc = view.flipped ? cols - 1 - c : c;
    return [MARGIN + cc * CELL, MARGIN + rr * CELL];
  };
  for (let c = 0; c < cols; c++) {
    const [x] = at(0, c);
    for (const y of [MARGIN / 2 + 5, height - MARGIN / 2 + 5]) {
      el("text", { x: x + CELL / 2, y, class: "coord", "text-anchor": "middle" }, svg).textContent = FILES[c];
    }
  }
  for (let r = 0; r < rows; r++) {
    const [, y] = at(r, 0);
    for (const x of [MARGIN / 2, width - MARGIN / 2]) {
      el("text", { x, y: y + CELL / 2 + 5, class: "coord", "text-anchor": "middle" }, svg).textContent = String(rows - r);
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const name = squareName(rows, r, c);
      const stone = cells[r][c];
      const action = view.selected === name ? "selected" : view.actions.get(name);
      const [x, y] = at(r, c);
      const g = el("g", { "data-square": name, role: "gridcell", "aria-label": describe(name, stone, action) }, svg);
      if (action && action !== "selected") g.setAttribute("data-action", action);
      if (action === "selected") g.setAttribute("data-action", "select");
      const classes = ["square"];
      if (view.last?.includes(name)) classes.push("last");
      if (action) classes.push(`can-${action}`);
      el("rect", { x, y, width: CELL, height: CELL, class: classes.join(" ") }, g);
      el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 5, class: "pit" }, g);
      if (stone === "b" || stone === "w") {
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38, class: `stone ${stone === "b" ? "lava" : "coral"}`, fill: stone === "b" ? "url(#lava)" : "url(#coral)" }, g);
      }
      if (action === "target") el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.14, class: "target-dot" }, g);
      if (action === "select" || action === "remove" || action === "selected") {
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.44, class: `ring ring-${action}` }, g);
      }
      g.addEventListener("click", () => view.onSquare(name));
    }
  }
  host.replaceChildren(svg);
  return svg;
}
