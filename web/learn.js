// The tutorial `/learn`: short steps from `lessons.json`, each a board the learner acts on
// and a sentence that explains it. The server judges every move (`/api/position`); a step
// is done when the learner plays one of its goal moves.

import { Board, parsePosition, stoneOn } from "./board.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { play as sound } from "./sound.js";
import { errorText, spoken } from "./game.js";
import { startGame } from "./start.js";

async function judge(position, opening, move) {
  const r = await fetch("/api/position", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ position, opening, move }),
  });
  const body = await r.json();
  if (!r.ok) throw Object.assign(new Error(body.message), { code: body.error });
  return body;
}

/** Shows the tutorial; returns nothing to clean up. */
export async function learnScreen(app, go) {
  document.title = `${t("learn.title")} · Kōnane`;
  const { steps } = await (await fetch("/lessons.json")).json();
  let index = 0;
  let view = null;
  let selected = null;
  let done = false;

  const title = h("h2", { "data-learn-title": "", tabindex: "-1" });
  const progress = h("p", { class: "progress", "data-learn-progress": "" });
  const text = h("p", { class: "lesson-text", "data-learn-text": "" });
  const feedback = h("p", { class: "feedback", "data-learn-feedback": "", role: "status" });
  const host = h("div", { class: "board-host lesson-board" });
  const back = h("button", { type: "button", "data-learn-back": "" }, t("learn.back"));
  const next = h("button", { type: "button", class: "primary", "data-learn-next": "" }, t("learn.next"));
  const retry = h("button", { type: "button", "data-learn-retry": "" }, t("learn.retry"));
  const section = h("section", { class: "lesson", "aria-labelledby": "lesson-title" },
    h("div", { class: "lesson-board-wrap" }, host),
    h("div", { class: "panel" }, progress, title, text, feedback, h("div", { class: "actions" }, back, retry, next)));
  title.id = "lesson-title";
  app.replaceChildren(h("div", { class: "learn" }, h("h1", {}, t("learn.title")), section));

  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => { selected = null; draw(); },
  });
  const step = () => steps[index];
  const interactive = () => step().id !== "board" && step().id !== "first-game";

  function draw(last = null) {
    const actions = done || !interactive() ? new Map() : actionsFor(view.legal_moves, selected);
    board.draw({ position: view.position, actions, selected, last, interactive: interactive() && !done, label: t("learn.board", { n: index + 1 }) });
  }

  function tell(message, result) {
    feedback.textContent = message;
    feedback.dataset.result = result;
    announce(message);
  }

  async function show(i, moveFocus = true) {
    index = i;
    selected = null;
    done = !interactive();
    const s = step();
    view = await judge(s.position, s.opening);
    progress.textContent = t("learn.progress", { n: i + 1, of: steps.length });
    title.textContent = t(`learn.${s.id}.title`);
    text.textContent = t(`learn.${s.id}.text`);
    section.dataset.learnStep = s.id;
    feedback.textContent = "";
    delete feedback.dataset.result;
    back.disabled = i === 0;
    retry.hidden = !interactive();
    next.textContent = s.id === "first-game" ? t("learn.play") : t("learn.next");
    next.disabled = !done;
    draw();
    if (moveFocus) title.focus();
  }

  function onSquare(name) {
    if (done) return;
    const parsed = parsePosition(view.position);
    const r = clickOn(view.legal_moves, selected, name, (sq) => stoneOn(parsed, sq), view.turn, view.phase);
    if (r.move) return tryMove(r.move);
    if ("select" in r) {
      selected = r.select;
      return draw();
    }
    const s = step();
    if (s.turn && selected && name === s.turn) return tell(t("learn.no-turn.turn"), "wrong");
    tell(t(s.id === "black-removal" || s.id === "white-removal" ? `learn.${s.id}.wrong` : r.why, { instruction: "", ...r.vars }), "wrong");
  }

  async function tryMove(move) {
    const s = step();
    if (!view.legal_moves.includes(move)) {
      selected = null;
      draw();
      return tell(s.turn ? t("learn.no-turn.turn") : t("why.not-target", { square: move.split("-")[1], from: move.split("-")[0] }), "wrong");
    }
    if (s.goal !== "any" && !s.goal.includes(move)) {
      selected = null;
      draw();
      return tell(t(`learn.${s.id}.wrong`, { move }), "wrong");
    }
    try {
      const before = view;
      view = await judge(view.position, s.opening, move);
      done = true;
      selected = null;
      draw(move.split("-"));
      board.animate(move, before.position);
      sound(capturedBy(move).length);
      announce(spoken(move, before.turn));
      tell(t(`learn.${s.id}.done`, { move }), "done");
      next.disabled = false;
      next.focus();
    } catch (e) {
      tell(errorText(e), "wrong");
    }
  }

  back.addEventListener("click", () => show(Math.max(0, index - 1)));
  retry.addEventListener("click", () => show(index));
  next.addEventListener("click", async () => {
    if (index + 1 < steps.length) return show(index + 1);
    try {
      await startGame({ mode: "engine", size: "8x8", opening: "center-or-corner", color: "black", level: 1, clock: null }, go);
    } catch (e) {
      tell(errorText(e), "wrong");
    }
  });
  await show(0, false);
  return () => {};
}
