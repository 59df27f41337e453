import assert from "node:assert/strict";
import { test } from "node:test";
import { afterPress, relationButtons } from "../web/social-state.js";

test("a profile offers follow and block, or only unblock once blocked", () => {
  assert.deepEqual(relationButtons(null), []);
  const none = relationButtons({ following: false, blocking: false });
  assert.deepEqual(none.map((b) => [b.action, b.method, b.label]), [["follow", "POST", "social.follow"], ["block", "POST", "social.block"]]);
  const following = relationButtons({ following: true, blocking: false });
  assert.equal(following[0].label, "social.unfollow");
  assert.equal(following[0].method, "DELETE");
  assert.deepEqual(relationButtons({ following: false, blocking: true }).map((b) => b.label), ["social.unblock"]);
});

test("pressing a button gives the relation the server now holds", () => {
  const [follow, block] = relationButtons({ following: false, blocking: false });
  assert.deepEqual(afterPress({ following: false, blocking: false }, follow), { following: true, blocking: false });
  // A block ends the follow, as on the server.
  assert.deepEqual(afterPress({ following: true, blocking: false }, block), { following: false, blocking: true });
  const [unblock] = relationButtons({ following: false, blocking: true });
  assert.deepEqual(afterPress({ following: false, blocking: true }, unblock), { following: false, blocking: false });
});
