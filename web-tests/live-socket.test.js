import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { nextDelay, reconnecting } from "../web/live-socket.js";

/** A stand-in for the browser's WebSocket: every socket made, openable and droppable. */
class FakeSocket {
  static CONNECTING = 0;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.closedByPage = false;
    FakeSocket.made.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
  close() {
    this.closedByPage = true;
  }
}

beforeEach(() => {
  FakeSocket.made = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "https:", host: "konane.test" };
  mock.timers.enable({ apis: ["setTimeout"] });
});
afterEach(() => mock.timers.reset());

test("waits twice as long after each failed try, five seconds at most", () => {
  assert.deepEqual([250, 500, 4000, 5000].map(nextDelay), [500, 1000, 5000, 5000]);
});

test("comes back after a drop, sooner again once it was open, and stops when closed", () => {
  const links = [];
  const messages = [];
  const opened = [];
  const close = reconnecting("/api/games/g/ws", {
    onOpen: (s) => opened.push(s.url),
    onMessage: (m) => messages.push(m),
    onLink: (up) => links.push(up),
  });
  assert.equal(FakeSocket.made[0].url, "wss://konane.test/api/games/g/ws");
  FakeSocket.made[0].open();
  FakeSocket.made[0].onmessage({ data: "one" });
  FakeSocket.made[0].drop();
  assert.deepEqual(links, [true, false]);
  mock.timers.tick(249);
  assert.equal(FakeSocket.made.length, 1, "not before the first wait");
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, 2);
  FakeSocket.made[1].drop();
  mock.timers.tick(499);
  assert.equal(FakeSocket.made.length, 2, "the second wait is longer");
  mock.timers.tick(1);
  assert.equal(FakeSocket.made.length, 3);
  FakeSocket.made[2].open();
  close();
  FakeSocket.made[2].onmessage({ data: "late" });
  FakeSocket.made[2].drop();
  mock.timers.tick(10_000);
  assert.equal(FakeSocket.made.length, 3, "closed for good");
  assert.equal(FakeSocket.made[2].closedByPage, true);
  assert.deepEqual(messages, ["one"], "nothing after closing");
  assert.equal(opened.length, 2);
});

test("a socket still connecting when closed is closed once it opens", () => {
  const close = reconnecting("/api/tournaments/t/ws", { onMessage: () => {}, onLink: () => {} });
  close();
  assert.equal(FakeSocket.made[0].closedByPage, false);
  FakeSocket.made[0].open();
  assert.equal(FakeSocket.made[0].closedByPage, true);
});
