// The game screen's move list: numbered in pairs as the rules' notation writes a game
// ("1. e4 e5 2. c4-e4 c5-e5"), the shown move marked, and always scrolled so that it is in
// view, a whole row at a time.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The number of the move a ply belongs to: Black's and White's moves share one. */
export const moveNumber = (ply) => Math.ceil(ply / 2);

/** A move as shown in running text: its hyphen never breaks the line. */
export const unbroken = (move) => move.replace(/-/g, "\u2011");

/** "(showing move 10 of 22: c4-e4)", counted as the list counts. */
export function showingText(ply, moves) {
  const of = moveNumber(moves.length);
  if (ply === 0) return t("game.showing-start", { of });
  return t("game.showing", { n: moveNumber(ply), of, move: unbroken(moves[ply - 1]) });
}

export class MoveList {
  /** `onPick(ply)` when a move is chosen. */
  constructor(onPick) {
    this.onPick = onPick;
    this.el = h("ol", { class: "moves", "data-movelist": "", "aria-label": t("game.moves") });
  }

  /** Shows `moves` with the one at `ply` (1-based; 0 for the start) as the current one. */
  draw(moves, ply) {
    const focused = document.activeElement?.closest?.("[data-movelist] [data-ply]")?.dataset.ply;
    const rows = [];
    for (let i = 0; i < moves.length; i += 2) {
      const cell = (k) => {
        const n = k + 1;
        if (k >= moves.length) return h("span", { class: "move-empty" });
        const current = n === ply;
        return h("button", { type: "button", class: current ? "current" : null, "data-move": moves[k], "data-ply": n, "aria-current": current ? "step" : null, onclick: () => this.onPick(n) }, moves[k]);
      };
      rows.push(h("li", {}, h("span", { class: "move-no", "aria-hidden": "true" }, `${moveNumber(i + 1)}.`), cell(i), cell(i + 1)));
    }
    if (!rows.length) rows.push(h("li", { class: "moves-none" }, t("game.no-moves")));
    this.el.replaceChildren(...rows);
    if (focused) this.el.querySelector(`[data-ply="${focused}"]`)?.focus();
    this.reveal(ply);
  }

  /** Scrolls the list, and only the list (never the page), so the row of `ply` shows whole. */
  reveal(ply) {
    const list = this.el;
    if (ply === 0) {
      list.scrollTop = 0;
      return;
    }
    const row = list.querySelector(`[data-ply="${ply}"]`)?.closest("li");
    if (!row) return;
    // The list is positioned (style.css), so a row's offsetTop counts from the list's top.
    const top = row.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + row.offsetHeight - list.clientHeight;
  }
}
