import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import * as state from "../web/tournaments-state.js";
import { useEnglish } from "./english.js";

before(useEnglish);

const summary = (id, more = {}) => ({ id, kind: "arena", name: id, clock: { minutes: 3, increment: 2 }, size: "8x8", rated: true, status: "created", starts_at: 0, players: 0, by_site: false, ...more });
const standing = (name, rank, more = {}) => ({ rank, name, rating: 1500, score: 0, games: 0, results: [], ...more });
const arena = (more = {}) => ({ ...summary("t"), standings: [], games: [], byes: [], podium: [], me: null, ...more });

describe("the list", () => {
  test("running first, then upcoming, then finished", () => {
    assert.deepEqual(state.sections({}).map(([name]) => name), ["running", "upcoming", "finished"]);
  });
  test("the site's events first, then the soonest upcoming and the latest finished", () => {
    const list = {
      upcoming: [summary("late", { starts_at: 300 }), summary("soon", { starts_at: 100 }), summary("site", { starts_at: 900, by_site: true })],
      finished: [summary("old", { starts_at: 100 }), summary("new", { starts_at: 200 }), summary("site-old", { starts_at: 50, by_site: true })],
    };
    const [, upcoming, finished] = state.sections(list);
    assert.deepEqual(upcoming[1].map((s) => s.id), ["site", "soon", "late"]);
    assert.deepEqual(finished[1].map((s) => s.id), ["site-old", "new", "old"]);
    assert.deepEqual(state.sections(list)[0], ["running", []]);
  });
  test("its key changes when players join or a tournament ends", () => {
    const list = { upcoming: [summary("a", { players: 1 })] };
    assert.equal(state.listKey(list), state.listKey({ upcoming: [summary("a", { players: 1 })] }));
    assert.notEqual(state.listKey(list), state.listKey({ upcoming: [summary("a", { players: 2 })] }));
    assert.notEqual(state.listKey(list), state.listKey({ finished: [summary("a", { players: 1 })] }));
  });
  test("a clock and the players, in words", () => {
    assert.equal(state.clockLabel({ minutes: 3, increment: 2 }), "3+2");
    assert.equal(state.playersText(1), "1 player");
    assert.equal(state.playersText(12), "12 players");
  });
  test("an upcoming start, relative to the server's time", () => {
    assert.deepEqual(state.relative(12 * 60000, 0), { value: 12, unit: "minute" });
    assert.deepEqual(state.relative(3 * 3600000, 0), { value: 3, unit: "hour" });
    assert.deepEqual(state.relative(3 * 86400000, 0), { value: 3, unit: "day" });
    assert.equal(state.relativeText(12 * 60000 + 1000, 1000), "in 12 min.");
  });
});

describe("the countdown", () => {
  test("counts to the start, the arena's end or the next round", () => {
    assert.deepEqual(state.countdownTarget(arena({ starts_at: 5 })), { key: "tournament.countdown.starts", at: 5 });
    assert.deepEqual(state.countdownTarget(arena({ status: "started", ends_at: 9 })), { key: "tournament.countdown.ends", at: 9 });
    assert.equal(state.countdownTarget(arena({ kind: "swiss", status: "started", next_round_at: 7 })).at, 7);
    assert.equal(state.countdownTarget(arena({ kind: "swiss", status: "started", next_round_at: null, round: 2, rounds: 3 })).at, undefined);
    const playing = arena({ kind: "swiss", status: "started", next_round_at: 9e18, round: 2, rounds: 3, games: [{ id: "g", status: "playing" }] });
    assert.deepEqual(state.countdownTarget(playing), { key: "tournament.countdown.round", round: 2, rounds: 3 }, "no next round while one is played");
    assert.equal(state.countdownTarget(arena({ status: "finished" })).key, "tournament.countdown.finished");
  });
  test("reads as a clock, never below zero", () => {
    assert.equal(state.countdownText(65000), "1:05");
    assert.equal(state.countdownText(64001), "1:05", "a part second still counts");
    assert.equal(state.countdownText(3723000), "1:02:03");
    assert.equal(state.countdownText(2 * 86400000 + 3 * 3600000), "2 d 3 h");
    assert.equal(state.countdownText(-5000), "0:00");
  });
  test("in words, from the server's clock", () => {
    const t = arena({ starts_at: 10000 + 4 * 60000 + 5000 });
    assert.equal(state.countdownWords(t, 10000), "Starts in 4:05");
    assert.equal(state.countdownWords(t, t.starts_at + 1), "Starting…");
    assert.equal(state.countdownWords(arena({ kind: "swiss", status: "started", round: 2, rounds: 3 }), 0), "Round 2 of 3");
    assert.equal(state.countdownWords(arena({ kind: "swiss", status: "started", next_round_at: 20000 }), 0), "Next round in 0:20");
  });
  test("the browser's clock set by the server's", () => {
    assert.equal(state.clockOffset(5000, 3000), 2000);
    assert.equal(state.clockOffset(undefined, 3000), 0);
  });
});

describe("the standings", () => {
  test("an arena's rows: performance and the streak, no tiebreaks", () => {
    const t = arena({ status: "started", standings: [standing("Ana", 1, { score: 6, games: 3, streak: true, performance: 1702, results: ["w", "w", "w", "x"] }), standing("Kai", 2, { paused: true })] });
    const [ana, kai] = state.standingsRows(t, "ana");
    assert.equal(ana.onFire, true);
    assert.equal(ana.performance, 1702);
    assert.equal(ana.buchholz, null);
    assert.deepEqual(ana.results, ["w", "w", "w"], "unknown marks are left out");
    assert.equal(ana.mine, true, "names match whatever their case");
    assert.equal(kai.mine, false);
    assert.equal(kai.paused, true);
    assert.equal(state.hasTiebreaks(t), false);
  });
  test("a Swiss's rows: the tiebreaks, no streak", () => {
    const t = arena({ kind: "swiss", standings: [standing("Ana", 1, { streak: true, tiebreaks: { buchholz: 7, sonneborn_berger: 5 }, results: ["w", "b", "."] }), standing("Bo", 2, { withdrawn: true })] });
    const [ana, bo] = state.standingsRows(t, null);
    assert.equal(ana.onFire, false);
    assert.equal(ana.buchholz, 7);
    assert.equal(ana.sb, 5);
    assert.equal(ana.performance, null);
    assert.deepEqual(ana.results, ["w", "b", "."]);
    assert.equal(bo.withdrawn, true);
    assert.equal(bo.buchholz, null, "no tiebreaks sent: none shown");
    assert.equal(state.hasTiebreaks(t), true);
  });
  test("the current pairings are the games being played", () => {
    const t = arena({ games: [{ id: "a", status: "playing" }, { id: "b", status: "finished" }] });
    assert.deepEqual(state.pairings(t).map((g) => g.id), ["a"]);
  });
  test("only the viewer's own rank moving is announced", () => {
    const before = arena({ standings: [standing("Ana", 1), standing("Kai", 2), standing("Bo", 3)] });
    const swapped = arena({ standings: [standing("Kai", 1), standing("Ana", 2), standing("Bo", 3)] });
    assert.equal(state.rankNews(before, swapped, "Ana"), "You are now in place 2 of 3.");
    assert.equal(state.rankNews(before, swapped, "Bo"), null, "Bo's place is the same");
    assert.equal(state.rankNews(before, swapped, null), null);
    assert.equal(state.rankNews(arena(), swapped, "Ana"), null, "joining is not a move");
  });
});

describe("the player's own next game", () => {
  const paired = (game, status = "playing") => arena({ me: { joined: true, game }, games: [{ id: game, status }] });
  test("a new game is opened once", () => {
    const first = state.ownNewGame([], paired("g1"));
    assert.equal(first.open, "g1");
    assert.deepEqual(first.seen, ["g1"]);
    const again = state.ownNewGame(first.seen, paired("g1"));
    assert.equal(again.open, null);
    assert.equal(again.seen, first.seen, "nothing new: the same list");
    assert.equal(state.ownNewGame(first.seen, paired("g2")).open, "g2");
  });
  test("no game, or one already over, is not opened", () => {
    assert.equal(state.ownNewGame([], arena()).open, null);
    assert.equal(state.ownNewGame([], arena({ me: { joined: true, game: null } })).open, null);
    const over = state.ownNewGame([], paired("g3", "finished"));
    assert.equal(over.open, null);
    assert.deepEqual(over.seen, ["g3"]);
  });
});

describe("the buttons", () => {
  test("a visitor is asked to log in; a player joins, with the code of a private event", () => {
    assert.equal(state.actions(arena(), false).login, true);
    assert.equal(state.actions(arena(), false).join, false);
    const a = state.actions(arena({ private: true }), true);
    assert.equal(a.join, true);
    assert.equal(a.code, true);
    assert.equal(a.withdraw, false);
  });
  test("an entrant withdraws, and pauses in a running arena", () => {
    const me = { joined: true, paused: true, withdrawn: false, game: null, creator: true };
    const started = state.actions(arena({ status: "started", me }), true);
    assert.equal(started.join, false);
    assert.equal(started.withdraw, true);
    assert.equal(started.pause, true);
    assert.equal(started.paused, true);
    assert.equal(started.start, false, "already started");
    assert.equal(state.actions(arena({ me }), true).start, true, "its creator starts it early");
    assert.equal(state.actions(arena({ me, kind: "swiss", status: "started" }), true).pause, false);
  });
  test("nobody joins a finished event, nor a Swiss once paired", () => {
    assert.equal(state.actions(arena({ status: "finished" }), true).join, false);
    assert.equal(state.actions(arena({ kind: "swiss", status: "started" }), true).join, false);
    assert.equal(state.actions(arena({ kind: "arena", status: "started" }), true).join, true, "an arena takes latecomers");
    assert.equal(state.actions(arena({ me: { joined: true, withdrawn: true } }), true).join, true, "withdrawn players may come back");
  });
});

describe("the creation form", () => {
  const values = { ...state.FORM_DEFAULTS, name: "Friday blitz" };
  test("sends what the API reads", () => {
    assert.deepEqual(state.checkForm(values).body, {
      kind: "arena", name: "Friday blitz", clock: { minutes: 3, increment: 2 }, size: "8x8", opening: "center-or-corner",
      rated: true, starts_in_s: 300, minutes: 30,
    });
    const swiss = state.checkForm({ ...values, kind: "swiss", rounds: "3", startsIn: "0", entryCode: " sesame " }).body;
    assert.equal(swiss.rounds, 3);
    assert.equal(swiss.starts_in_s, 0);
    assert.equal(swiss.entry_code, "sesame");
    assert.equal("minutes" in swiss, false);
    assert.equal(state.checkForm({ ...values, kind: "round-robin", double: true }).body.double, true);
  });
  test("refuses, by field, what cannot be right", () => {
    assert.deepEqual(state.checkForm({ ...values, name: " " }).errors, { name: "tournament.bad.name" });
    assert.deepEqual(state.checkForm({ ...values, name: "x".repeat(61) }).errors, { name: "tournament.bad.name" });
    assert.deepEqual(state.checkForm({ ...values, minutes: "0", increment: "2" }).errors, { clock: "tournament.bad.clock" });
    assert.deepEqual(state.checkForm({ ...values, increment: "61" }).errors, { clock: "tournament.bad.clock" });
    assert.deepEqual(state.checkForm({ ...values, size: "6x6" }).errors, { rated: "tournament.bad.rated" });
    assert.equal(state.checkForm({ ...values, size: "6x6", rated: false }).errors, undefined, "a casual event on any board");
    assert.deepEqual(state.checkForm({ ...values, minutes: "2.5" }).errors, { clock: "tournament.bad.clock" });
    assert.deepEqual(state.checkForm({ ...values, arenaMinutes: "5" }).errors, { minutes: "tournament.bad.minutes" });
    assert.deepEqual(state.checkForm({ ...values, kind: "swiss", rounds: "16" }).errors, { rounds: "tournament.bad.rounds" });
    assert.deepEqual(state.checkForm({ ...values, startsIn: "-1" }).errors, { starts_in_s: "tournament.bad.starts_in_s" });
    assert.equal(state.checkForm({ ...values, kind: "swiss", arenaMinutes: "5" }).errors, undefined, "an arena's length does not bind a Swiss");
  });
  test("words the server's refusals by their code, else by their field", () => {
    assert.equal(state.refusalText({ code: "login_required" }), "Log in or register to take part in tournaments.");
    assert.equal(state.refusalText({ code: "entry_code", field: "entry_code" }), "This tournament is private: enter its code.");
    assert.equal(state.refusalText({ code: "bad_field", field: "rounds" }), "A Swiss has 1 to 15 rounds.");
    assert.equal(state.refusalText({ code: "bad_field", field: "min_rating" }), "That value is not allowed.", "a field the page has no words of");
    assert.equal(state.refusalText({ code: "bad_request", field: "clock.minutes" }), "The clock needs 1 to 180 minutes and 0 to 60 seconds added per move.");
    assert.equal(state.refusalText({ code: "too_many_requests" }), "Too many requests: slow down a little.");
    assert.equal(state.refusalText({ code: "what_is_this" }), "Something went wrong on the server.");
    assert.equal(state.formField("clock.increment"), "clock");
    assert.equal(state.formField(null), null);
  });
});

test("the site's own events are named in the page's language, a player's as given", () => {
  const hourly = { name: "Hourly 3+2 Arena", every: "hour", kind: "arena", clock: { minutes: 3, increment: 2 } };
  assert.equal(state.titleOf(hourly), "Hourly 3+2 Arena");
  assert.equal(state.titleOf({ ...hourly, every: "week", kind: "swiss", clock: { minutes: 10, increment: 5 } }), "Weekly 10+5 Swiss");
  assert.equal(state.titleOf({ ...hourly, every: null, name: "Friday Cup" }), "Friday Cup");
  assert.equal(state.titleOf({ ...hourly, every: "fortnight" }), "Hourly 3+2 Arena", "an unknown rhythm keeps the name");
});

describe("a league", () => {
  const league = (more = {}) => ({ ...arena(), kind: "league", days: 3, season: 2, every: "month", name: "Monthly 8x8 League", status: "started", ...more });
  test("its name carries its season; its clock is its days a move", () => {
    assert.equal(state.titleOf(league()), "Monthly 8x8 League, season 2");
    assert.equal(state.titleOf({ kind: "league", every: "month", name: "Monthly 8x8 League" }), "Monthly 8x8 League", "no board sent: the server's name");
    assert.equal(state.clockOf(league()), "3 days a move");
    assert.equal(state.clockOf(league({ days: 1 })), "1 day a move");
    assert.equal(state.clockOf(summary("a")), "3+2");
  });
  test("its table is cut into groups, top division first, with who moves", () => {
    const rows = state.standingsRows(league({
      standings: [
        standing("Ana", 1, { division: 0, group: 0 }),
        standing("Bo", 2, { division: 0, group: 0, movement: "down" }),
        standing("Cy", 1, { division: 1, group: 0, movement: "up" }),
        standing("Di", 1, { division: 1, group: 1, movement: "sideways" }),
      ],
    }), "bo");
    const groups = state.groupsOf(rows);
    assert.deepEqual(groups.map((g) => [g.division, g.group, g.rows.map((r) => r.name)]), [[1, 1, ["Ana", "Bo"]], [2, 1, ["Cy"]], [2, 2, ["Di"]]]);
    assert.deepEqual(rows.map((r) => r.movement), [null, "down", "up", null], "only up or down");
    assert.equal(rows[1].mine, true);
    assert.equal(state.groupName(groups[2]), "Division 2 · Group B");
  });
  test("its games are never thrown open; the player's come first in the list", () => {
    const games = [{ id: "g1", black: "X", white: "Y", status: "playing" }, { id: "g2", black: "Y", white: "Me", status: "playing" }];
    const tour = league({ games, me: { joined: true, game: "g2" } });
    assert.deepEqual(state.ownNewGame([], tour), { open: null, seen: [] });
    assert.deepEqual(state.gamesFor(tour, "me").map((g) => g.id), ["g2", "g1"]);
    assert.deepEqual(state.gamesFor(tour, null).map((g) => g.id), ["g1", "g2"]);
    const rounds = league({ games: [{ ...games[0], id: "r3", round: 3 }, { ...games[0], id: "r1", round: 1 }] });
    assert.deepEqual(state.gamesFor(rounds, null).map((g) => g.id), ["r1", "r3"], "by round");
    assert.equal(state.countdownWords(tour, 0), "Season under way: 2 games being played");
  });
  test("a running season takes players for the next; it has no pause", () => {
    const a = state.actions(league(), true);
    assert.equal(a.join, true);
    assert.equal(a.nextSeason, true);
    assert.equal(a.pause, false);
    const swiss = state.actions({ ...arena(), kind: "swiss", status: "started" }, true);
    assert.equal(swiss.join, false, "a Swiss under way takes nobody");
    assert.equal(state.actions(league({ status: "created" }), true).nextSeason, false);
  });
});
