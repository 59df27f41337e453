import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import * as state from "../web/tournaments-state.js";
import { useEnglish } from "./english.js";

before(useEnglish);

const line = (rank, more = {}) => ({ rank, name: `p${rank}`, rating: 1500, score: 0, games: 0, results: [], ...more });
const lines = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => line(from + i));
/** An arena of 60 players whose socket sent the first page and `me`'s own lines. */
const paged = (me = null) => ({ kind: "arena", status: "started", standings: lines(1, 25), standings_total: 60, standings_pages: 3, games: [], byes: [], me });

describe("a table in pages", () => {
  test("the player's own lines follow the page, after a gap", () => {
    const rows = state.standingsRows(paged({ joined: true, lines: lines(38, 42) }), "p40");
    assert.deepEqual(rows.map((r) => r.rank), [...lines(1, 25), ...lines(38, 42)].map((l) => l.rank));
    assert.deepEqual(rows.filter((r) => r.gap).map((r) => r.rank), [38]);
    assert.deepEqual(rows.filter((r) => r.mine).map((r) => r.rank), [40]);
  });
  test("lines on the page are not repeated, and lines right after it need no gap", () => {
    const rows = state.standingsRows(paged({ joined: true, lines: lines(24, 28) }), "p26");
    assert.deepEqual(rows.map((r) => r.rank), lines(1, 28).map((l) => l.rank));
    assert.equal(rows.some((r) => r.gap), false);
  });
  test("a whole table has no gap", () => {
    const rows = state.standingsRows({ kind: "swiss", standings: lines(1, 5), me: null }, "p2");
    assert.equal(rows.length, 5);
    assert.equal(rows.some((r) => r.gap), false);
  });
  test("the player's rank is read from their own lines, and the news counts the whole table", () => {
    const before = paged({ joined: true, lines: lines(38, 42) });
    const after = paged({ joined: true, lines: [line(35, { name: "p40" })] });
    assert.equal(state.myRank(before, "p40"), 40);
    assert.equal(state.myRank(after, "P40"), 35);
    assert.equal(state.rankNews(before, after, "p40"), "You are now in place 35 of 60.");
    assert.equal(state.myRank(paged(), "p40"), null);
  });
  test("the pager goes from page to page within the table", () => {
    assert.deepEqual(state.pager(paged(), 1), { page: 1, pages: 3, previous: null, next: 2 });
    assert.deepEqual(state.pager(paged(), 2), { page: 2, pages: 3, previous: 1, next: 3 });
    assert.deepEqual(state.pager(paged(), 9), { page: 3, pages: 3, previous: 2, next: null });
    assert.equal(state.pager({ standings_pages: 1 }, 1), null);
    assert.equal(state.pager({}, 1), null);
  });
});
