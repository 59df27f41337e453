import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { accountError, clockTime, colorName, endText, errorText, instruction, listText, opponentOf, liveCountText, reasonKey, spoken, winsIn } from "../web/words.js";
import { useEnglish } from "./english.js";

before(useEnglish);

describe("colours", () => {
  test("are named", () => {
    assert.equal(colorName("black"), "Black");
    assert.equal(colorName("white"), "White");
  });
  test("have their opponent", () => {
    assert.equal(opponentOf("black"), "white");
    assert.equal(opponentOf("white"), "black");
  });
  test("lists read as English writes them", () => {
    assert.equal(listText(["d5"]), "d5");
    assert.equal(listText(["d5", "f5", "h5"]), "d5, f5, and h5");
  });
});

describe("instruction", () => {
  test("the first removal depends on the opening", () => {
    assert.equal(instruction({ turn: "black", phase: "black-removal", opening: "center" }), "Black: remove one of your stones from the centre");
    assert.equal(instruction({ turn: "black", phase: "black-removal", opening: "center-or-corner" }), "Black: remove one of your stones from the centre or a corner");
  });
  test("the second removal and the jumps name the side to move", () => {
    assert.equal(instruction({ turn: "white", phase: "white-removal" }), "White: remove one of your stones next to the empty square");
    assert.equal(instruction({ turn: "white", phase: "jumping" }), "White: jump over one of your opponent's stones");
  });
});

describe("endText", () => {
  test("names the winner and the loser's reason", () => {
    assert.equal(endText({ winner: "white", reason: "no_moves" }), "White wins: Black has no move left.");
    assert.equal(endText({ winner: "black", reason: "timeout" }), "Black wins: White ran out of time.");
    assert.equal(endText({ winner: "black", reason: "resignation" }), "Black wins: White resigned.");
  });
  test("an aborted game has no winner", () => {
    assert.equal(endText({ winner: null, reason: "aborted" }), "The game was aborted: it never really started.");
  });
});

describe("spoken", () => {
  test("a removal names its square", () => {
    assert.equal(spoken("d5", "black"), "Black removes d5.");
  });
  test("a jump names its captures", () => {
    assert.equal(spoken("c1-e1", "white"), "White jumps c1 to e1, capturing d1.");
    assert.equal(spoken("c1-c5", "white"), "White jumps c1 to c5, capturing c2 and c4.");
  });
});

describe("refused moves", () => {
  test("each reason has its key", () => {
    assert.equal(reasonKey("not_your_stone", { found: "empty" }), "illegal.not_your_stone.empty");
    assert.equal(reasonKey("not_your_stone", { found: "white" }), "illegal.not_your_stone.stone");
    assert.equal(reasonKey("first_removal_square", { opening: "center" }), "illegal.first_removal_square.center");
    assert.equal(reasonKey("first_removal_square", { opening: "center-or-corner" }), "illegal.first_removal_square.center-or-corner");
    assert.equal(reasonKey("off_board", {}), "notation.off_board");
    assert.equal(reasonKey("not_a_jump", {}), "notation.not_a_jump");
    assert.equal(reasonKey("not_your_turn", {}), "illegal.not_your_turn");
  });
  test("a known reason is worded with its squares, not as the error code", () => {
    const refused = (found) => errorText({ code: "illegal_move", reason: "not_your_stone", params: { square: "c3", found, color: "black" } });
    assert.equal(refused("empty"), "c3 is empty: choose one of your own stones.");
    assert.equal(refused("white"), "The stone on c3 is your opponent's: choose one of your own.");
  });
  test("an unknown reason falls back to the error code", () => {
    assert.equal(errorText({ code: "illegal_move", reason: "no_such_reason", params: {} }), "That move is not allowed here.");
  });
});

describe("errors", () => {
  test("a known code says what happened", () => {
    assert.equal(errorText({ code: "not_your_turn" }), "It is not your turn.");
    assert.equal(errorText({ code: "offline" }), "You are offline: this needs the network.");
  });
  test("an unknown code or none reads as the server's failure", () => {
    assert.equal(errorText({ code: "no_such_code" }), "Something went wrong on the server.");
    assert.equal(errorText({}), "Something went wrong on the server.");
  });
  test("account errors word names and passwords", () => {
    assert.equal(accountError({ code: "wrong_credentials" }), "Wrong name or password.");
    assert.equal(accountError({ code: "name_taken" }), "That name belongs to an account: choose another, or log in.");
    assert.equal(accountError({ code: "not_found" }), errorText({ code: "not_found" }));
    assert.equal(accountError({ code: "bad_name", reason: "too_short", params: { min: 2 } }), "The name needs at least 2 characters.");
  });
});

describe("clockTime", () => {
  test("minutes and seconds", () => {
    assert.equal(clockTime(125000), "2:05");
    assert.equal(clockTime(60000), "1:00");
  });
  test("tenths under ten seconds", () => {
    assert.equal(clockTime(9400), "0:09.4");
    assert.equal(clockTime(10000), "0:10");
  });
  test("never below zero", () => {
    assert.equal(clockTime(-500), "0:00.0");
  });
  test("hours and days", () => {
    assert.equal(clockTime(3723000), "1:02:03");
    assert.equal(clockTime(2 * 86400000 + 5 * 3600000 + 1), "2 d 5 h");
  });
});

describe("winsIn", () => {
  test("counts the moves with the plural English needs", () => {
    assert.equal(winsIn("black", 1), "Black wins in 1 move");
    assert.equal(winsIn("white", 9), "White wins in 9 moves");
  });
});

describe("liveCountText", () => {
  test("none, one, many", () => {
    assert.equal(liveCountText(0), "No game is being played right now");
    assert.equal(liveCountText(1), "1 game being played now");
    assert.equal(liveCountText(12), "12 games being played now");
  });
});
