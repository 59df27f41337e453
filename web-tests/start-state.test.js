import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as state from "../web/start-state.js";

const o = state.withDefaults({});

describe("options", () => {
  test("the defaults, under what was chosen last time", () => {
    assert.deepEqual(o, { size: "8x8", opening: "center-or-corner", clock: "untimed", level: "3", color: "random" });
    assert.equal(state.withDefaults({ size: "6x6" }).size, "6x6");
    assert.equal(state.withDefaults({ size: "6x6" }).level, "3");
  });
  test("every size the menu offers", () => {
    const sizes = state.sizeChoices("More sizes");
    assert.deepEqual(sizes[0], ["", "More sizes"]);
    assert.deepEqual(sizes[1], ["4x4", "4 × 4"]);
    assert.deepEqual(sizes.at(-1), ["8x10", "8 × 10"]);
    assert.equal(sizes.length, 1 + 13 + 2);
  });
});

describe("the game a button asks for", () => {
  test("against the computer, with its level and clock", () => {
    assert.deepEqual(state.gameSettings({ ...o, clock: "3+2", level: "5" }, "engine", true, null), {
      mode: "engine", size: "8x8", opening: "center-or-corner", color: "random", level: 5, clock: { minutes: 3, increment: 2 },
    });
  });
  test("rated only between people", () => {
    assert.equal(state.gameSettings(o, "friend", true, null).rated, true);
    assert.equal(state.gameSettings(o, "open", true, null).rated, true);
    assert.equal("rated" in state.gameSettings(o, "local", true, null), false);
    assert.equal("rated" in state.gameSettings(o, "friend", false, null), false);
  });
  test("a challenge is a friend's game for one player", () => {
    const s = state.gameSettings(o, "challenge", false, "kai");
    assert.equal(s.mode, "friend");
    assert.equal(s.challenge, "kai");
  });
  test("watching the computer play itself", () => {
    const s = state.gameSettings(o, "watch", false, null);
    assert.equal(s.mode, "engine");
    assert.equal(s.color, "none");
    assert.equal(s.clock, null);
  });
});

describe("the small board", () => {
  const game = (id, ply, last_move = "c4-e4") => ({ id, ply, position: `P${ply}`, last_move });
  test("a new game changes the caption, the next move of the same game is animated", () => {
    const first = state.tvShowing(state.noTv(), game("a", 5));
    assert.equal(first.another, true);
    assert.equal(first.moved, false);
    const next = state.tvShowing(first.tv, game("a", 6));
    assert.equal(next.another, false);
    assert.equal(next.moved, true);
    assert.equal(state.tvShowing(first.tv, game("a", 8)).moved, false, "moves missed are not animated");
    assert.equal(state.tvShowing(first.tv, game("b", 6)).moved, false);
  });
  test("the demonstration plays its moves, waits, and starts again", () => {
    const positions = ["S", "P1", "P2", "P3", "P4"];
    assert.deepEqual(state.demoStep(positions, 0, 100), { position: "S", move: null, before: null, next: 1, wait: 100 });
    assert.deepEqual(state.demoStep(positions, 3, 100), { position: "P3", move: "e4-c4", before: "P2", next: 4, wait: 100 });
    assert.deepEqual(state.demoStep(positions, 4, 100), { position: "P4", move: "d2-d4", before: "P3", next: 0, wait: 200 });
  });
});

describe("lists", () => {
  test("change with their games and moves", () => {
    assert.equal(state.lobbyKey([{ id: "a" }, { id: "b" }]), "a,b");
    assert.equal(state.liveKey([{ id: "a", ply: 3 }]), "a:3");
    assert.notEqual(state.liveKey([{ id: "a", ply: 3 }]), state.liveKey([{ id: "a", ply: 4 }]));
  });
});
