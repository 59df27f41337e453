// The puzzle screen's view: the board, the puzzle's heading and facts, what the player is
// told, their rating and streak, the buttons, the filters. `PuzzlesView` builds them once
// and draws a state of puzzles-state.js into them; what the player does goes to the
// handlers puzzles.js gives it.

import { Board } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { ratingText } from "./profile.js";
import { SIZES, THEMES, buttons, legalActions } from "./puzzles-state.js";
import { colorName, errorText } from "./words.js";

/** What the player is told, in words. */
const feedbackText = (f) => (!f ? "" : f.error ? errorText(f.error) : t(f.key, f.vars));

/** The puzzle screen's elements in `app` for the first state `s`; `on` holds the handlers:
 * onSquare, onDrop(from, to), onEscape, onRetry, onSolution, onNext, onFilter(theme, size). */
export class PuzzlesView {
  constructor(app, s, on) {
    this.heading = h("h2", { tabindex: "-1", "data-puzzle-title": "" });
    this.info = h("p", { class: "puzzle-info", "data-puzzle-info": "" });
    this.feedback = h("p", { class: "feedback", role: "status", "data-puzzle-feedback": "" });
    this.mine = h("p", { class: "puzzle-rating", "data-player-rating": "" });
    this.streakLine = h("p", { class: "puzzle-streak", "data-streak": "" });
    this.host = h("div", { class: "board-host puzzle-board" });
    this.retry = h("button", { type: "button", "data-puzzle-retry": "" }, t("puzzle.retry"));
    this.show = h("button", { type: "button", "data-puzzle-solution": "" }, t("puzzle.show"));
    this.next = h("button", { type: "button", class: "primary", "data-puzzle-next": "" }, t("puzzle.next"));
    this.link = h("a", { "data-puzzle-link": "" }, t("puzzle.link"));
    const themeSelect = h("select", { "data-theme": "", "aria-label": t("puzzle.theme") },
      h("option", { value: "" }, t("puzzle.theme.any")),
      THEMES.map((k) => h("option", { value: k, selected: k === s.theme }, t(`puzzle.theme.${k}`))));
    const sizeSelect = h("select", { "data-size": "", "aria-label": t("puzzle.size") },
      h("option", { value: "" }, t("puzzle.size.any")),
      SIZES.map((size) => h("option", { value: size, selected: size === s.size }, size)));
    const modes = h("nav", { class: "puzzle-modes", "aria-label": t("puzzle.modes") },
      h("a", { href: "/puzzles", "data-mode": "rated", "aria-current": s.streak === null && s.path === "/puzzles" ? "page" : null }, t("puzzle.mode.rated")),
      h("a", { href: "/puzzles?mode=streak", "data-mode": "streak", "aria-current": s.streak !== null ? "page" : null }, t("puzzle.mode.streak")),
      h("a", { href: "/puzzles/daily", "data-mode": "daily", "aria-current": s.path === "/puzzles/daily" ? "page" : null }, t("puzzle.mode.daily")));
    const section = h("section", { class: "puzzle", "aria-labelledby": "puzzle-title" },
      h("div", { class: "lesson-board-wrap" }, this.host),
      h("div", { class: "panel" }, modes, this.heading, this.info, this.feedback, this.streakLine, this.mine,
        h("div", { class: "actions" }, this.retry, this.show, this.next),
        h("div", { class: "puzzle-filters" }, themeSelect, sizeSelect), this.link));
    this.heading.id = "puzzle-title";
    app.replaceChildren(h("div", { class: "learn" }, h("h1", {}, t("puzzle.title")), section));

    this.board = new Board(this.host, { onSquare: on.onSquare, onDrop: on.onDrop, onEscape: on.onEscape });
    this.retry.addEventListener("click", () => on.onRetry());
    this.show.addEventListener("click", () => on.onSolution());
    this.next.addEventListener("click", () => on.onNext());
    const refilter = () => on.onFilter(themeSelect.value, sizeSelect.value);
    themeSelect.addEventListener("change", refilter);
    sizeSelect.addEventListener("change", refilter);
  }

  /** Draws state `s`. */
  draw(s) {
    const p = s.puzzle;
    this.heading.textContent = p && !s.loadFailed ? t("puzzle.to-move", { color: colorName(p.turn) }) : t("puzzle.title");
    this.drawFeedback(s.feedback);
    // Until a puzzle came there is nothing more to draw.
    if (!p) return;
    this.host.dataset.puzzle = p.id;
    this.link.href = `/puzzles/${p.id}`;
    const themes = p.themes.map((k) => t(`puzzle.theme.${k}`)).join(", ");
    this.info.textContent = t("puzzle.about", { rating: p.rating, size: p.size, themes: themes || "–" });
    if (s.result) this.host.dataset.result = s.result;
    else delete this.host.dataset.result;
    const shown = buttons(s);
    this.retry.hidden = !shown.retry;
    this.show.hidden = !shown.solution;
    this.next.hidden = !shown.next;
    const rating = s.account ? ratingText(s.account.rating, s.account.provisional) : Math.round(s.localRating.rating);
    this.mine.textContent = t("puzzle.your-rating", { rating });
    this.streakLine.hidden = s.streak === null;
    if (s.streak !== null) this.streakLine.textContent = t("puzzle.streak", { n: s.streak });
    this.host.dataset.position = s.view.position;
    // Still a grid once over, so the refutation can be read square by square.
    this.board.draw({ position: s.view.position, actions: legalActions(s), selected: s.selected, last: s.last, interactive: true, label: t("puzzle.board") });
  }

  drawFeedback(f) {
    this.feedback.textContent = feedbackText(f);
    if (f?.result) this.feedback.dataset.result = f.result;
    else delete this.feedback.dataset.result;
  }

  /** What the player is told now, as read. */
  told() {
    return this.feedback.textContent;
  }

  /** Moves `move`'s stone on the board from `position`. */
  animate(move, position) {
    this.board.animate(move, position);
  }

  /** Focus on the heading, after a new puzzle. */
  focusHeading() {
    this.heading.focus();
  }

  /** Focus on the button that goes on from a finished puzzle (`result`). */
  focusAfter(result) {
    (result === "solved" ? this.next : this.retry).focus();
  }
}
