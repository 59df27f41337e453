// Turning clicks into moves from the server's list of legal moves: which squares can be
// acted on now, and what a click on any square means. No rules here, only the list.

/** Squares the player can act on: `remove`, `select` (a stone that can jump) or `target`. */
export function actionsFor(legal, selected) {
  const map = new Map();
  for (const m of legal) {
    const [from, to] = m.split("-");
    if (!to) map.set(from, "remove");
    else if (selected === from) map.set(to, "target");
  }
  for (const m of legal) {
    const [from, to] = m.split("-");
    if (to && !map.has(from)) map.set(from, "select");
  }
  return map;
}

/**
 * What a click on `name` does: `{ move }` to play, `{ select }` to (de)select a stone, or
 * `{ why }` with the key of the explanation when the square can't be used now.
 */
export function clickOn(legal, selected, name, stoneAt, turn, phase) {
  const action = actionsFor(legal, selected).get(name);
  if (action === "remove") return { move: name };
  if (action === "target") return { move: `${selected}-${name}` };
  if (action === "select") return { select: selected === name ? null : name };
  const mine = turn === "black" ? "b" : "w";
  const stone = stoneAt(name);
  if (phase !== "jumping") return { why: "why.remove" };
  if (selected) return { why: "why.not-target", vars: { square: name, from: selected } };
  if (stone === mine) return { why: "why.no-jump", vars: { square: name } };
  if (stone === ".") return { why: "why.empty" };
  return { why: "why.not-yours" };
}

/** The squares a jump passes over (its captures), from its start and end. */
export function capturedBy(move) {
  const [from, to] = move.split("-");
  if (!to) return [];
  const f = (s) => [s.charCodeAt(0) - 97, Number(s.slice(1))];
  const [c0, r0] = f(from);
  const [c1, r1] = f(to);
  const steps = Math.max(Math.abs(c1 - c0), Math.abs(r1 - r0));
  const dc = Math.sign(c1 - c0);
  const dr = Math.sign(r1 - r0);
  const out = [];
  for (let i = 1; i < steps; i += 2) out.push(`${String.fromCharCode(97 + c0 + dc * i)}${r0 + dr * i}`);
  return out;
}
