import assert from "node:assert/strict";
import { before, test } from "node:test";
import * as state from "../web/notices-state.js";
import { useEnglish } from "./english.js";

before(useEnglish);

const n = (id, kind, more = {}) => ({ id, kind, at: 1, read: false, from: "Ana", game: "g1", ...more });

test("the first message lists the latest; each later one adds one, never twice", () => {
  let s = state.received(state.EMPTY, { type: "notifications", unread: 1, notifications: [n("a", "challenge")] });
  assert.deepEqual(s, { unread: 1, list: [n("a", "challenge")] });
  s = state.received(s, { type: "notification", unread: 2, notification: n("b", "your_turn") });
  assert.deepEqual(s.list.map((x) => x.id), ["b", "a"], "newest first");
  assert.equal(s.unread, 2);
  const again = state.received(s, { type: "notification", unread: 2, notification: n("b", "your_turn") });
  assert.equal(again.list.length, 2, "a notification heard twice is listed once");
  assert.equal(state.received(s, { type: "what" }), s);
  const read = state.allRead(s);
  assert.equal(read.unread, 0);
  assert.ok(read.list.every((x) => x.read));
});

test("each kind in words, the end of a game with its outcome and reason", () => {
  assert.equal(state.noticeText(n("a", "challenge")), "Ana challenges you");
  assert.equal(state.noticeText(n("a", "your_turn")), "Your move against Ana");
  assert.equal(state.noticeText(n("a", "challenge_declined")), "Ana declined your challenge");
  assert.equal(state.noticeText(n("a", "game_over", { won: true, reason: "timeout" })), "You won against Ana (on time)");
  assert.equal(state.noticeText(n("a", "game_over", { won: false, reason: "resignation" })), "You lost against Ana (resignation)");
  assert.equal(state.noticeLink(n("a", "your_turn")), "/game/g1");
  assert.equal(state.rings(n("a", "your_turn")), true);
  assert.equal(state.rings(n("a", "game_over")), false);
});

test("the tab's title carries the unread count, once", () => {
  assert.equal(state.titleWith("Kōnane", 2), "(2) Kōnane");
  assert.equal(state.titleWith("(2) Kōnane", 3), "(3) Kōnane");
  assert.equal(state.titleWith("(3) Kōnane", 0), "Kōnane");
});
