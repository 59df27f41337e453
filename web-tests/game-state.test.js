import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as state from "../web/game-state.js";

/** A 4 × 4 game in its jumps, White to move after two removals, as the server sends it. */
function game(extra = {}) {
  return {
    seq: 3,
    ply: 2,
    moves: ["a1", "a2"],
    position: "bwbw/wbwb/.wbw/w.wb w",
    legal_moves: ["c2-a2", "b3-b1"],
    status: "playing",
    turn: "white",
    phase: "jumping",
    opening: "center-or-corner",
    mode: "human",
    players: { black: { seated: true, name: "Ana" }, white: { seated: true, name: "Kai" } },
    clock: null,
    server_time: 1000,
    result: null,
    ...extra,
  };
}

/** The state of a viewer with `seats` who got `g`. */
function seen(g = game(), seats = ["white"]) {
  return state.received(state.withSeats(state.initial(), seats), g, 400);
}

describe("seats", () => {
  test("a stored seat plays its colour, both, or none without a token", () => {
    assert.deepEqual(state.seatsOf("white", true), ["white"]);
    assert.deepEqual(state.seatsOf("both", true), ["black", "white"]);
    assert.deepEqual(state.seatsOf("white", false), []);
    assert.deepEqual(state.seatsOf(null, true), []);
  });
  test("the viewer's side and the board's turn", () => {
    assert.equal(state.mySide(seen()), "white");
    assert.equal(state.mySide(seen(game(), ["black", "white"])), null);
    assert.equal(state.flipped(seen()), true, "White sits at the bottom for White");
    assert.equal(state.flipped(state.turned(seen())), false);
    assert.equal(state.flipped(seen(game(), ["black"])), false);
  });
});

describe("received", () => {
  test("keeps the game and the clocks' offset", () => {
    const s = seen();
    assert.equal(s.game.ply, 2);
    assert.equal(s.offset, 600);
  });
  test("never touches the old state", () => {
    const before = seen();
    const copy = structuredClone(before);
    state.received(before, game({ seq: 4, ply: 3, moves: ["a1", "a2", "c2-a2"] }), 0);
    assert.deepEqual(before, copy);
  });
  test("ignores an older or repeated game", () => {
    const s = seen();
    assert.equal(state.received(s, game({ seq: 3, ply: 9 }), 0), s);
    assert.equal(state.received(s, game({ seq: 1 }), 0), s);
  });
  test("a game going on keeps the positions and the viewed move; a new move drops the picked stone", () => {
    let s = state.showing(state.withPositions(seen(), ["p0", "p1", "p2"]), 1);
    s = { ...s, selected: "c2" };
    const next = state.received(s, game({ seq: 4, ply: 3, moves: ["a1", "a2", "c2-a2"] }), 0);
    assert.deepEqual(next.positions, ["p0", "p1", "p2"]);
    assert.equal(next.viewPly, 1);
    assert.equal(next.selected, null);
  });
  test("a take-back forgets the positions and shows the live game", () => {
    const s = state.showing(state.withPositions(seen(), ["p0", "p1", "p2"]), 1);
    const next = state.received(s, game({ seq: 4, ply: 1, moves: ["a1"] }), 0);
    assert.equal(next.positions, null);
    assert.equal(next.viewPly, null);
  });
  test("a question the game has moved past is dropped", () => {
    const s = state.asking(seen(), "resign");
    assert.equal(state.received(s, game({ seq: 4 }), 0).asking, "resign");
    assert.equal(state.received(s, game({ seq: 4, status: "finished" }), 0).asking, null);
    const waiting = state.asking(seen(game({ status: "waiting" })), "cancel");
    assert.equal(state.received(waiting, game({ seq: 4 }), 0).asking, null);
  });
});

describe("news", () => {
  test("the moves since, with their colours, and the end", () => {
    const before = game();
    const after = game({ seq: 5, ply: 4, moves: ["a1", "a2", "c2-a2", "b4-b2"], status: "finished" });
    assert.deepEqual(state.news(before, after), {
      moves: [{ move: "c2-a2", color: "black" }, { move: "b4-b2", color: "white" }],
      ended: true,
    });
  });
  test("nothing new on the first game, and no moves after a take-back", () => {
    assert.deepEqual(state.news(null, game()), { moves: [], ended: false });
    assert.deepEqual(state.news(game(), game({ seq: 4, ply: 1, moves: ["a1"] })), { moves: [], ended: false });
  });
});

describe("blocked", () => {
  test("the player to move may act", () => {
    assert.equal(state.blocked(seen()), null);
    assert.equal(state.myTurn(seen()), true);
  });
  test("says why the board is closed", () => {
    assert.deepEqual(state.blocked(seen(game(), ["black"])), { key: "why.their-turn", color: "white" });
    assert.deepEqual(state.blocked(seen(game(), [])), { key: "why.watching" });
    assert.deepEqual(state.blocked(seen(game({ status: "finished" }))), { key: "why.over" });
    assert.deepEqual(state.blocked(seen(game({ status: "waiting" }))), { key: "why.waiting" });
    const engine = game({ players: { black: { seated: true }, white: { engine: true, seated: true } } });
    assert.deepEqual(state.blocked(seen(engine, ["black"])), { key: "why.engine" });
    const back = state.showing(state.withPositions(seen(), ["p0", "p1", "p2"]), 1);
    assert.deepEqual(state.blocked(back), { key: "why.history" });
  });
});

describe("click", () => {
  test("a stone that can jump is picked up, with where it lands", () => {
    const r = state.click(seen(), "c2");
    assert.equal(r.state.selected, "c2");
    assert.deepEqual(r.targets, ["a2"]);
  });
  test("its landing square makes the move; a second click puts it down", () => {
    const picked = state.click(seen(), "c2").state;
    assert.equal(state.click(picked, "a2").move, "c2-a2");
    assert.equal(state.click(picked, "c2").state.selected, null);
  });
  test("a useless square says why", () => {
    const picked = state.click(seen(), "c2").state;
    assert.deepEqual(state.click(picked, "d4"), { state: picked, why: "why.not-target", vars: { square: "d4", from: "c2" } });
    assert.equal(state.click(seen(), "b1").why, "why.empty");
    assert.deepEqual(state.click(seen(), "a1").vars, { square: "a1" });
    assert.equal(state.click(seen(), "a1").why, "why.no-jump");
    assert.equal(state.click(seen(), "a4").why, "why.not-yours");
  });
  test("a closed board says why", () => {
    assert.deepEqual(state.click(seen(game(), []), "c2").blocked, { key: "why.watching" });
  });
  test("the squares the player can act on", () => {
    const s = state.click(seen(), "c2").state;
    assert.deepEqual([...state.legalActions(s)], [["a2", "target"], ["c2", "select"], ["b3", "select"]]);
    assert.equal(state.legalActions(seen(game(), [])).size, 0);
  });
});

describe("drop and typed moves", () => {
  test("a drop on a landing square is the move", () => {
    assert.equal(state.drop(seen(), "c2", "a2").move, "c2-a2");
  });
  test("a drop elsewhere keeps the stone picked up", () => {
    const r = state.drop(seen(), "c2", "c4");
    assert.equal(r.state.selected, "c2");
    assert.equal(r.why, "why.not-target");
  });
  test("a drop on a closed board does nothing", () => {
    const s = seen(game(), []);
    assert.deepEqual(state.drop(s, "c2", "a2"), { state: s });
  });
  test("typed moves read any dash and case", () => {
    assert.equal(state.normalised(" C2\u2011A2 "), "c2-a2");
    assert.equal(state.normalised("c2xa2"), "c2-a2");
    assert.deepEqual(state.typed(seen(), "C2\u2013a2"), { move: "c2-a2" });
  });
  test("a typed move not legal now lists the legal ones", () => {
    assert.deepEqual(state.typed(seen(), "d4-b4"), { why: "why.typed", vars: { move: "d4\u2011b4", legal: "c2\u2011a2, b3\u2011b1" } });
    assert.deepEqual(state.typed(seen(), "  "), {});
  });
});

describe("stepping through the game", () => {
  test("steps stay within the game", () => {
    const s = seen();
    assert.equal(state.stepTarget(s, -1), 1);
    assert.equal(state.stepTarget(s, -Infinity), 0);
    assert.equal(state.stepTarget(s, Infinity), 2);
    assert.equal(state.stepTarget(s, 1), 2);
  });
  test("earlier positions are asked for once", () => {
    const s = seen();
    assert.equal(state.needsPositions(s, 1), true);
    assert.equal(state.needsPositions(s, 2), false);
    assert.equal(state.needsPositions(state.withPositions(s, ["p0", "p1", "p2"]), 1), false);
  });
  test("shows the earlier position and its last move", () => {
    const s = state.showing(state.withPositions(seen(), ["p0", "p1", "p2"]), 1);
    assert.equal(s.viewPly, 1);
    assert.equal(state.isLive(s), false);
    assert.deepEqual(state.shown(s), { ply: 1, position: "p1", last: ["a1"] });
    assert.deepEqual(state.shown(state.showing(s, 0)), { ply: 0, position: "p0", last: null });
  });
  test("the last ply, or one without its position, is the live game", () => {
    const s = state.withPositions(seen(), ["p0", "p1", "p2"]);
    assert.equal(state.showing(s, 2).viewPly, null);
    assert.equal(state.showing(seen(), 1).viewPly, null);
    assert.deepEqual(state.shown(seen()), { ply: 2, position: game().position, last: ["a2"] });
  });
});

describe("status", () => {
  test("each kind", () => {
    assert.equal(state.statusKind(seen()), "your-move");
    assert.equal(state.statusKind(seen(game(), ["black"])), "their-move");
    assert.equal(state.statusKind(seen(game({ status: "waiting" }))), "waiting");
    assert.equal(state.statusKind(seen(game({ status: "finished" }))), "finished");
  });
  test("playing needs a seat and a game under way", () => {
    assert.equal(state.playing(seen()), true);
    assert.equal(state.playing(seen(game(), [])), false);
    assert.equal(state.playing(seen(game({ status: "waiting" }))), false);
  });
  test("sending drops the picked stone", () => {
    const s = state.sending(state.click(seen(), "c2").state, true);
    assert.equal(s.sending, true);
    assert.equal(s.selected, null);
    assert.equal(state.sending(s, false).sending, false);
  });
});

describe("clocks", () => {
  const clock = { black_ms: 60000, white_ms: 30000, running: "white", running_since: 10000 };
  // Our time 9000 is the server's 10000 (its clock runs 1000 ahead).
  const timed = (seats = ["white"]) => state.received(state.withSeats(state.initial(), seats), game({ clock, server_time: 10000 }), 9000);

  test("the running side's time goes down, the other's stands", () => {
    const s = timed();
    assert.equal(state.clockLeft(s, "white", 9000), 30000);
    assert.equal(state.clockLeft(s, "white", 14000), 25000);
    assert.equal(state.clockLeft(s, "black", 14000), 60000);
    assert.equal(state.clockRuns(s, "white"), true);
    assert.equal(state.clockRuns(s, "black"), false);
  });
  test("an untimed game has no clock", () => {
    assert.equal(state.clockLeft(seen(), "white", 0), null);
    assert.equal(state.clockRuns(seen(), "white"), false);
  });
  test("the win may be claimed once the opponent has long been on the move", () => {
    const black = timed(["black"]);
    assert.equal(state.claimable(black, 9000 + state.CLAIM_AFTER_MS - 1), false);
    assert.equal(state.claimable(black, 9000 + state.CLAIM_AFTER_MS), true);
    assert.equal(state.claimable(timed(["white"]), 9000 + state.CLAIM_AFTER_MS), false, "not on one's own move");
    assert.equal(state.claimable(timed([]), 9000 + state.CLAIM_AFTER_MS), false, "not by a spectator");
  });
});
