import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as state from "../web/puzzles-state.js";

const NEWCOMER = { rating: 1500, deviation: 350, volatility: 0.06 };

/** A puzzle on 4 × 4, Black to move, as the server sends it. */
const PUZZLE = {
  id: "p1",
  position: "bwbw/wbwb/.wbw/w.wb b",
  legal_moves: ["c2-a2", "b4-b2"],
  turn: "black",
  rating: 1400,
  size: "4x4",
  themes: ["tempo"],
};

const at = (path, search = "") => state.fromAddress(path, search, NEWCOMER);
const begun = (search = "") => state.begin(at("/puzzles", search), PUZZLE);

describe("the address", () => {
  test("reads the filters and the mode, ignoring unknown ones", () => {
    const s = at("/puzzles", "?theme=tempo&size=8x8&mode=streak");
    assert.equal(s.theme, "tempo");
    assert.equal(s.size, "8x8");
    assert.equal(s.streak, 0);
    const odd = at("/puzzles", "?theme=nope&size=3x3");
    assert.equal(odd.theme, "");
    assert.equal(odd.size, "");
    assert.equal(odd.streak, null);
  });
  test("the puzzle to load", () => {
    assert.equal(state.loadPath(at("/puzzles/daily")), "/api/puzzles/daily");
    assert.equal(state.loadPath(at("/puzzles/ab c")), "/api/puzzles/ab%20c");
    assert.equal(state.loadPath(at("/puzzles", "?theme=tempo")), "/api/puzzles/next?rating=1500&theme=tempo");
    assert.equal(state.loadPath(at("/puzzles", "?mode=streak&size=6x6")), "/api/puzzles/next?streak=0&size=6x6");
    // A named puzzle once seen, the next is the one after it.
    assert.equal(state.loadPath(state.begin(at("/puzzles/p1"), PUZZLE)), "/api/puzzles/next?rating=1500&after=p1");
    const account = state.begin(at("/puzzles"), { ...PUZZLE, player: { rating: 1600, attempts: 4 } });
    assert.equal(state.loadPath(account), "/api/puzzles/next?after=p1");
  });
  test("filters and next puzzles", () => {
    assert.equal(state.filteredAddress("", ""), "/puzzles");
    assert.equal(state.filteredAddress("tempo", "6x6"), "/puzzles?theme=tempo&size=6x6");
    assert.equal(state.nextAddress(at("/puzzles")), null);
    assert.equal(state.nextAddress(at("/puzzles/daily")), "/puzzles");
    assert.equal(state.nextAddress(at("/puzzles/p1", "?mode=streak")), "/puzzles?mode=streak");
  });
});

describe("begin", () => {
  test("shows the puzzle's position and takes the account's rating", () => {
    const s = state.begin(at("/puzzles"), { ...PUZZLE, player: { rating: 1600, attempts: 4 } });
    assert.deepEqual(s.view, { position: PUZZLE.position, legal_moves: PUZZLE.legal_moves, turn: "black" });
    assert.equal(s.version, 4);
    assert.equal(s.rated, true);
    assert.equal(s.feedback, null);
  });
  test("again keeps the rating as it was and says so", () => {
    const failed = { ...begun(), rated: false, result: "failed", over: true };
    const again = state.begin(failed, PUZZLE, true);
    assert.equal(again.rated, false);
    assert.equal(again.over, false);
    assert.equal(again.result, null);
    assert.deepEqual(again.feedback, { key: "puzzle.again" });
  });
  test("a failed load says why", () => {
    assert.deepEqual(state.failed(at("/puzzles"), { code: "not_found" }).feedback, { key: "puzzle.none", result: "wrong" });
    const error = { code: "internal" };
    assert.equal(state.failed(at("/puzzles"), error).feedback.error, error);
    assert.equal(state.failed(at("/puzzles"), error).loadFailed, true);
  });
});

describe("moves", () => {
  test("a click picks up a stone and makes the move", () => {
    const picked = state.click(begun(), "c2").state;
    assert.equal(picked.selected, "c2");
    assert.equal(state.click(picked, "a2").move, "c2-a2");
  });
  test("a useless click says why", () => {
    assert.deepEqual(state.click(begun(), "b1").state.feedback, { key: "why.empty", vars: { instruction: "" }, result: "wrong" });
  });
  test("an anonymous player's first try sends the rating; the account's sends its version", () => {
    const tried = state.attempt(begun(), "c2-a2");
    assert.deepEqual(tried.body, { moves: ["c2-a2"], rating: NEWCOMER });
    assert.equal(tried.state.busy, true);
    const account = state.begin(at("/puzzles"), { ...PUZZLE, player: { rating: 1600, attempts: 4 } });
    assert.deepEqual(state.attempt(account, "c2-a2").body, { moves: ["c2-a2"], version: 4 });
    assert.deepEqual(state.attempt({ ...begun(), rated: false }, "c2-a2").body, { moves: ["c2-a2"] });
  });
  test("no move is tried while one is judged, nor an illegal one", () => {
    const busy = state.attempt(begun(), "c2-a2").state;
    assert.equal(state.attempt(busy, "b4-b2").body, undefined);
    assert.equal(state.attempt(begun(), "a4-a2").body, undefined);
    assert.equal(state.legalActions(busy).size, 0);
  });
  test("a right move goes on after the reply", () => {
    const tried = state.attempt(begun(), "c2-a2").state;
    const s = state.judged(tried, "c2-a2", { correct: true, solved: false, reply: "d3-b3", position: "P2", legal_moves: ["a4-a2"] });
    assert.deepEqual(s.moves, ["c2-a2", "d3-b3"]);
    assert.deepEqual(s.view, { position: "P2", legal_moves: ["a4-a2"], turn: "black" });
    assert.deepEqual(s.feedback, { key: "puzzle.right", result: "done" });
    assert.equal(s.over, false);
    assert.equal(s.last, null);
    assert.equal(s.busy, false);
  });
  test("the winning move solves it and keeps the new rating", () => {
    const tried = state.attempt(begun(), "c2-a2").state;
    const player = { rating: 1520, deviation: 300, volatility: 0.06 };
    const s = state.judged(tried, "c2-a2", { correct: true, solved: true, position: "P2", player });
    assert.equal(s.result, "solved");
    assert.deepEqual(s.view.legal_moves, []);
    assert.deepEqual(s.last, ["c2", "a2"]);
    assert.equal(s.localRating, player);
    assert.equal(s.rated, false);
    assert.deepEqual(state.buttons(s), { retry: false, solution: false, next: true });
  });
  test("a wrong move fails it, with the refutation and the solution", () => {
    const tried = state.attempt(begun(), "b4-b2").state;
    const s = state.judged(tried, "b4-b2", { correct: false, solved: false, reply: "a3-c3", position: "P2", legal_moves: [], solution: ["c2-a2"] });
    assert.equal(s.result, "failed");
    assert.deepEqual(s.feedback, { key: "puzzle.wrong", vars: { reply: "a3-c3" }, result: "wrong" });
    assert.deepEqual(s.last, ["a3", "c3"]);
    assert.deepEqual(state.buttons(s), { retry: true, solution: true, next: true });
    assert.deepEqual(state.revealed(s).feedback, { key: "puzzle.solution", vars: { line: "c2-a2" }, result: "wrong" });
  });
  test("a streak counts solved puzzles and ends at a wrong move", () => {
    const streak = state.begin(at("/puzzles", "?mode=streak"), PUZZLE);
    assert.equal(state.buttons(streak).next, false);
    const solved = state.judged(state.attempt(streak, "c2-a2").state, "c2-a2", { correct: true, solved: true, position: "P2" });
    assert.equal(solved.streak, 1);
    const again = state.begin(solved, PUZZLE);
    const lost = state.judged(state.attempt(again, "b4-b2").state, "b4-b2", { correct: false, solved: false, position: "P2", solution: [] });
    assert.equal(lost.streak, 0);
    assert.deepEqual(lost.feedback, { key: "puzzle.streak-over", vars: { n: 1 }, result: "wrong" });
  });
  test("a refused move is taken back", () => {
    const tried = state.attempt(begun(), "c2-a2").state;
    const error = { code: "not_in_line" };
    const s = state.refused(tried, error);
    assert.deepEqual(s.moves, []);
    assert.equal(s.busy, false);
    assert.deepEqual(s.feedback, { error, result: "wrong" });
  });
});
