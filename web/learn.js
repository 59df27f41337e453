// The tutorial `/learn`: short steps from `lessons.json`, each a board the learner acts on
// and a sentence that explains it. The server judges every move (`/api/position`); a step
// is done when the learner plays one of its goal moves.

import { api } from "./api.js";
import { Board, parsePosition, stoneOn } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { play as sound } from "./sound.js";
import { errorText, spoken } from "./words.js";
import { startGame } from "./start-api.js";

/** Shows the tutorial; returns nothing to clean up. */
export async function learnScreen(app, go) {
  document.title = `${t("learn.title")} · Kōnane`;
  const { steps } = await (await fetch("/lessons.json")).json();
  let index = 0;
  let view = null;
  let selected = null;
  let done = false;
  let shown = 0;

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

  // The feedback line is a live region: what it says is read out once.
  function tell(message, result) {
    feedback.textContent = message;
    feedback.dataset.result = result;
  }

  async function show(i, moveFocus = true) {
    const mine = ++shown;
    for (const b of [back, next, retry]) b.disabled = true;
    const s = steps[i];
    const judged = await api.position(s.position, s.opening);
    // A quicker click already asked for another step.
    if (mine !== shown) return;
    index = i;
    selected = null;
    done = !interactive();
    view = judged;
    // The step is in the address: a reload or a language switch stays on it.
    history.replaceState(null, "", i ? `/learn?step=${i + 1}` : "/learn");
    progress.textContent = t("learn.progress", { n: i + 1, of: steps.length });
    title.textContent = t(`learn.${s.id}.title`);
    text.textContent = t(`learn.${s.id}.text`);
    section.dataset.learnStep = s.id;
    feedback.textContent = "";
    delete feedback.dataset.result;
    back.disabled = i === 0;
    retry.disabled = false;
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
      const [from, to] = move.split("-");
      return tell(to === s.turn ? t("learn.no-turn.turn") : t("why.not-target", { square: to, from }), "wrong");
    }
    if (s.goal !== "any" && !s.goal.includes(move)) {
      selected = null;
      draw();
      return tell(t(`learn.${s.id}.wrong`, { move }), "wrong");
    }
    try {
      const before = view;
      view = await api.position(view.position, s.opening, move);
      done = true;
      selected = null;
      draw(move.split("-"));
      board.animate(move, before.position);
      sound(capturedBy(move).length);
      tell(`${spoken(move, before.turn)} ${t(`learn.${s.id}.done`, { move })}`, "done");
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
  const asked = Number(new URLSearchParams(location.search).get("step")) || 1;
  await show(Math.min(Math.max(asked, 1), steps.length) - 1, false);
  return () => {};
}
