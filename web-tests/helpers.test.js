import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { parsePosition, stoneOn } from "../web/board.js";
import { moveNumber, showingText, unbroken } from "../web/movelist.js";
import { actionsFor, capturedBy, clickOn } from "../web/picker.js";
import { useEnglish } from "./english.js";

before(useEnglish);

describe("the move list", () => {
  test("Black's and White's moves share a number", () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(moveNumber), [1, 1, 2, 2, 3]);
    assert.equal(moveNumber(0), 0);
  });
  test("a move's hyphen never breaks the line", () => {
    assert.equal(unbroken("c4-e4"), "c4\u2011e4");
    assert.equal(unbroken("d5"), "d5");
  });
  test("the move shown, counted as the list counts", () => {
    const moves = ["d5", "e5", "c5-e5"];
    assert.equal(showingText(3, moves), "(showing move 2 of 2: c5\u2011e5)");
    assert.match(showingText(0, moves), /start/i);
  });
});

describe("positions", () => {
  test("are read rank by rank from the top", () => {
    const p = parsePosition("bw./w.b w");
    assert.equal(p.rows, 2);
    assert.equal(p.cols, 3);
    assert.equal(p.turn, "white");
    assert.equal(stoneOn(p, "a2"), "b");
    assert.equal(stoneOn(p, "c2"), ".");
    assert.equal(stoneOn(p, "a1"), "w");
    assert.equal(stoneOn(p, "z9"), ".");
  });
});

describe("the picker", () => {
  test("a jump captures every other square it passes", () => {
    assert.deepEqual(capturedBy("a1-a3"), ["a2"]);
    assert.deepEqual(capturedBy("a1-e1"), ["b1", "d1"]);
    assert.deepEqual(capturedBy("d5"), []);
  });
  test("the squares to act on", () => {
    assert.deepEqual([...actionsFor(["d5", "e4"], null)], [["d5", "remove"], ["e4", "remove"]]);
    assert.deepEqual([...actionsFor(["a1-a3", "a1-c1", "b2-b4"], "a1")], [["a3", "target"], ["c1", "target"], ["a1", "select"], ["b2", "select"]]);
  });
  test("a click's meaning", () => {
    const stone = () => "w";
    assert.deepEqual(clickOn(["d5"], null, "d5", stone, "black", "black-removal"), { move: "d5" });
    assert.deepEqual(clickOn(["d5"], null, "e5", stone, "black", "black-removal"), { why: "why.remove" });
    assert.deepEqual(clickOn(["a1-a3"], null, "a1", stone, "white", "jumping"), { select: "a1" });
    assert.deepEqual(clickOn(["a1-a3"], "a1", "a1", stone, "white", "jumping"), { select: null });
    assert.deepEqual(clickOn(["a1-a3"], "a1", "a3", stone, "white", "jumping"), { move: "a1-a3" });
    assert.deepEqual(clickOn(["a1-a3"], null, "b2", stone, "white", "jumping"), { why: "why.no-jump", vars: { square: "b2" } });
    assert.deepEqual(clickOn(["a1-a3"], null, "b2", stone, "black", "jumping"), { why: "why.not-yours" });
  });
});
