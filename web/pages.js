// The rules page (with diagrams drawn from real positions, the marks from the server's
// legal moves) and the history page.

import { api } from "./api.js";
import { Board } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const START = "bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb b";
// Reached by e4 e3 e6-e4 g5-e5 c6-e6 d4-d6: Black's b5 can stop on d5 or go on to f5.
const DOUBLE = "bwbwbwbw/wbwbwbwb/bw.wbwbw/wbw.w..b/bwb.bwbw/wbwb.bwb/bwbwbwbw/wbwbwbwb b";

let figures = 0;

async function legalMoves(position) {
  try {
    return (await api.position(position)).legal_moves;
  } catch {
    return [];
  }
}

function figure(caption, position, actions, selected = null) {
  const id = `figure-${++figures}`;
  const host = h("div", { class: "diagram" });
  const fig = h("figure", {}, host, h("figcaption", { id }, caption));
  const board = new Board(host, {});
  board.draw({ position, actions, selected, interactive: false, labelledBy: id });
  return fig;
}

const paragraphs = (...keys) => keys.map((k) => h("p", {}, t(k)));

/** The rules, with two diagrams, strategy hints and the FAQ. */
export async function rulesPage(app) {
  document.title = `${t("rules.title")} · Kōnane`;
  const [first, second] = await Promise.all([legalMoves(START), legalMoves(DOUBLE)]);
  const removals = new Map(first.map((m) => [m, "remove"]));
  const stops = new Map(second.filter((m) => m.startsWith("b5-")).map((m) => [m.split("-")[1], "target"]));
  const faq = [1, 2, 3, 4, 5, 6, 7].map((n) => h("details", {}, h("summary", {}, t(`faq.q${n}`)), h("p", {}, t(`faq.a${n}`))));
  app.replaceChildren(h("article", { class: "page", "data-page": "rules" },
    h("h1", {}, t("rules.title")),
    h("p", { class: "lead" }, t("rules.intro")),
    h("h2", {}, t("rules.board.h")), ...paragraphs("rules.board.p"),
    h("h2", {}, t("rules.opening.h")), ...paragraphs("rules.opening.p1"),
    figure(t("rules.opening.fig"), START, removals),
    ...paragraphs("rules.opening.p2"),
    h("h2", {}, t("rules.jump.h")), ...paragraphs("rules.jump.p1", "rules.jump.p2"),
    figure(t("rules.jump.fig"), DOUBLE, stops, "b5"),
    h("h2", {}, t("rules.end.h")), ...paragraphs("rules.end.p"),
    h("h2", {}, t("rules.notation.h")), ...paragraphs("rules.notation.p"),
    h("h2", {}, t("rules.strategy.h")), ...paragraphs("rules.strategy.p1", "rules.strategy.p2", "rules.strategy.p3"),
    h("h2", {}, t("faq.h")), h("div", { class: "faq" }, faq),
    h("p", {}, h("a", { href: "/learn", class: "button primary" }, t("start.learn")))));
}

/** Where the game comes from. */
export async function historyPage(app) {
  document.title = `${t("history.title")} · Kōnane`;
  app.replaceChildren(h("article", { class: "page", "data-page": "history" },
    h("h1", {}, t("history.title")),
    h("p", { class: "lead" }, t("history.intro")),
    ...paragraphs("history.p1"),
    figure(t("history.fig"), START, new Map()),
    ...paragraphs("history.p2", "history.p3", "history.p4")));
}
