import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as state from "../web/analysis-state.js";

const view = (position, turn = "black", extra = {}) => ({ position, turn, legal_moves: [], phase: "jumping", ...extra });

/** A tree: start → a (main) → b (main), start → c (branch), a → d (branch). */
function tree(turn = "black") {
  let s = state.rooted(state.initial(), view("P0", turn));
  const add = (parent, move) => {
    const r = state.grown(s, parent, view(`P-${move}`), move);
    s = r.state;
    return r.id;
  };
  const a = add(0, "d5");
  const b = add(a, "e5");
  const c = add(0, "a8");
  const d = add(a, "d4");
  const e = add(b, "c5-e5");
  return { s, a, b, c, d, e };
}

describe("the tree", () => {
  test("grows without touching the old tree", () => {
    const root = state.rooted(state.initial(), view("P0"));
    const { state: next, id } = state.grown(root, 0, view("P1"), "d5");
    assert.equal(id, 1);
    assert.deepEqual(root.nodes[0].children, []);
    assert.deepEqual(next.nodes[0].children, [1]);
    assert.deepEqual(next.nodes[1], { id: 1, view: view("P1"), move: "d5", parent: 0, children: [] });
  });
  test("the first branch is the main line", () => {
    const { s, a, b, e } = tree();
    assert.deepEqual(state.mainLine(s), [0, a, b, e]);
    assert.equal(state.lineEnd(s, 0), e);
    assert.equal(state.lineEnd(s, e), e);
    assert.equal(state.lineEnd(s, undefined), undefined);
    assert.equal(state.childBy(s, a, "d4"), 4);
    assert.equal(state.childBy(s, a, "h1"), undefined);
  });
  test("depths", () => {
    const { s, a, b, c } = tree();
    assert.equal(state.depthOf(s, 0), 0);
    assert.equal(state.depthOf(s, a), 1);
    assert.equal(state.depthOf(s, b), 2);
    assert.equal(state.depthOf(s, c), 1);
  });
});

describe("move numbers", () => {
  test("Black's moves are numbered, White's bare, a branch's White move with dots", () => {
    const { s, a, b, c, d, e } = tree();
    assert.equal(state.moveLabel(s, a), "1. d5");
    assert.equal(state.moveLabel(s, b), "e5");
    assert.equal(state.moveLabel(s, c), "1. a8");
    assert.equal(state.moveLabel(s, d), "1... d4");
    assert.equal(state.moveLabel(s, e), "2. c5-e5");
  });
  test("a line from a position with White to move starts with dots", () => {
    const { s, a, b } = tree("white");
    assert.equal(state.moveLabel(s, a), "1... d5");
    assert.equal(state.moveLabel(s, b), "2. e5");
  });
});

describe("the board", () => {
  test("showing a node drops the picked stone", () => {
    const { s, a } = tree();
    const shown = state.shown({ ...s, selected: "c3" }, a);
    assert.equal(shown.current, a);
    assert.equal(shown.selected, null);
    assert.equal(state.current(shown).move, "d5");
  });
  test("the address keeps the position and an opening other than the default", () => {
    const { s, a } = tree();
    assert.equal(state.address(state.shown(s, a)), "/analysis?position=P-d5");
    assert.equal(state.address(state.shown(state.withOpening(s, "center"), a)), "/analysis?position=P-d5&opening=center");
  });
  test("records and positions", () => {
    assert.equal(state.isRecord('[Opening "center"]\n1. d5 e5'), true);
    assert.equal(state.isRecord("  1. d5 e5"), true);
    assert.equal(state.isRecord(state.START), false);
  });
});

describe("readings", () => {
  test("the bar", () => {
    assert.equal(state.blackShare(0, "black"), 50);
    assert.equal(state.blackShare(30_000, "black"), 100);
    assert.equal(state.blackShare(30_000, "white"), 0);
    assert.ok(state.blackShare(200, "black") > 50);
    assert.ok(state.blackShare(200, "white") < 50);
  });
  test("a finished position", () => {
    assert.deepEqual(state.overReading(view("P", "white", { winner: "black" })), {
      data: { eval: "loss 0", proven: "loss", depth: "0" },
      bar: "100%",
      verdict: { key: "analysis.over", color: "white", winner: "black" },
    });
  });
  test("the solver's proof", () => {
    assert.deepEqual(state.solvedReading(view("P", "white"), { result: "loss", best: "c3-c5" }), {
      data: { proven: "loss", bestmove: "c3-c5" },
      bar: "100%",
      verdict: { key: "analysis.wins", color: "black" },
    });
  });
  const line = (move, evalText, score, extra = {}) => ({ move, eval: evalText, score, pv: [move, "x1"], ...extra });
  test("nothing before the first line", () => {
    assert.equal(state.reading({ depth: 1, nodes: 0, lines: [] }, "black", null), null);
  });
  test("a search's guess", () => {
    const r = state.reading({ depth: 7, nodes: 2_500_000, lines: [line("d5", "+0.4", 40), line("a8", "-0.2", -20)] }, "white", null);
    assert.deepEqual(r.data, { eval: "+0.4", bestmove: "d5", depth: "7", proven: null });
    assert.deepEqual(r.lines.map((l) => l.eval), [{ text: "+0.4" }, { text: "-0.2" }]);
    assert.deepEqual(r.depth, { depth: 7, nodes: "2.5" });
    assert.deepEqual(r.verdict, { key: "analysis.eval", eval: "+0.4", color: "white" });
  });
  test("a proven win counts its moves", () => {
    const r = state.reading({ depth: 9, nodes: 1, lines: [line("d5", "win 5", 29_995, { proven: "win" })] }, "black", null);
    assert.equal(r.data.proven, "win");
    assert.deepEqual(r.lines[0].eval, { key: "analysis.line-win", vars: { n: "5" } });
    assert.deepEqual(r.verdict, { winsIn: 5, color: "black" });
  });
  test("the solver's move leads before the search has proven it", () => {
    const solved = { result: "win", best: "a8" };
    const r = state.reading({ depth: 3, nodes: 1, lines: [line("d5", "+0.4", 40), line("a8", "+0.1", 10)] }, "black", solved);
    assert.deepEqual(r.data, { eval: "win", bestmove: "a8", depth: "3", proven: "win" });
    assert.equal(r.bar, "100%");
    assert.deepEqual(r.lines.map((l) => l.pv), ["a8 x1", "d5 x1"]);
    assert.deepEqual(r.lines[0].eval, { key: "analysis.line-won" });
    assert.deepEqual(r.verdict, { key: "analysis.wins", color: "black" });
  });
});
