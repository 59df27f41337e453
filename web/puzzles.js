// The puzzle screen `/puzzles`, `/puzzles/daily` and `/puzzles/{id}`: a position where one
// move wins. The server judges every move and plays the reply; the page never holds the
// solution before the player has moved. Wires the state (puzzles-state.js), its view
// (puzzles-view.js) and the requests (puzzles-api.js); here live the effects: sounds, the
// live region, focus, the anonymous player's rating kept in this browser.

import { announce } from "./dom.js";
import { t } from "./i18n.js";
import { capturedBy } from "./picker.js";
import { play as sound } from "./sound.js";
import { judge, keepRating, loadPuzzle, storedRating } from "./puzzles-api.js";
import * as state from "./puzzles-state.js";
import { PuzzlesView } from "./puzzles-view.js";
import { spoken } from "./words.js";

/** Shows a puzzle; `path` says which. Returns nothing to clean up. */
export async function puzzlesScreen(app, path, go) {
  document.title = `${t("puzzle.title")} · Kōnane`;
  let s = state.fromAddress(path, location.search, storedRating());
  const set = (next) => {
    s = next;
    view.draw(s);
  };

  async function load(moveFocus) {
    try {
      set(state.begin(s, await loadPuzzle(state.loadPath(s))));
      if (moveFocus) view.focusHeading();
    } catch (e) {
      set(state.failed(s, e));
    }
  }

  function onSquare(name) {
    const r = state.click(s, name);
    if (r.move) return tryMove(r.move);
    if (r.state !== s) set(r.state);
  }

  async function tryMove(move) {
    const tried = state.attempt(s, move);
    if (!tried.body) return set(tried.state);
    // Drawn only once judged: the board stays as it is while the server thinks.
    s = tried.state;
    const before = s.view;
    let v;
    try {
      v = await judge(s.puzzle.id, tried.body);
    } catch (e) {
      return set(state.refused(s, e));
    }
    const judgedState = state.judged(s, move, v);
    if (judgedState.localRating !== s.localRating) keepRating(judgedState.localRating);
    s = judgedState;
    view.animate(move, before.position);
    sound(capturedBy(move).length);
    const said = spoken(move, before.turn) + (v.reply ? ` ${spoken(v.reply, before.turn === "black" ? "white" : "black")}` : "");
    view.draw(s);
    announce(`${said} ${view.told()}`);
    if (s.over) view.focusAfter(s.result);
  }

  const view = new PuzzlesView(app, s, {
    onSquare,
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => set(state.deselect(s)),
    onRetry: () => {
      set(state.begin(s, s.puzzle, true));
      view.focusHeading();
    },
    onSolution: () => set(state.revealed(s)),
    onNext: () => {
      const address = state.nextAddress(s);
      if (address) return go(address);
      load(true);
    },
    onFilter: (theme, size) => go(state.filteredAddress(theme, size)),
  });
  await load(false);
  return () => {};
}
