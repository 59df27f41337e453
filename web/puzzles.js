// The puzzle screen `/puzzles`, `/puzzles/daily` and `/puzzles/{id}`: a position where one
// move wins. The server judges every move and plays the reply; the page never holds the
// solution before the player has moved. Ratings of anonymous players live in localStorage;
// a logged-in player's is the server's (the puzzle's `player`), never the browser's.

import { Board, parsePosition, stoneOn } from "./board.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { actionsFor, capturedBy, clickOn } from "./picker.js";
import { play as sound } from "./sound.js";
import { errorText, spoken } from "./words.js";
import { ratingText } from "./profile.js";

const THEMES = ["stop-early", "no-greed", "tempo", "endgame", "opening"];
const SIZES = ["6x6", "8x8", "10x10"];
const RATING_KEY = "konane.puzzle-rating";
const NEWCOMER = { rating: 1500, deviation: 350, volatility: 0.06 };

function storedRating() {
  try {
    const r = JSON.parse(localStorage.getItem(RATING_KEY));
    if (r && [r.rating, r.deviation, r.volatility].every(Number.isFinite)) return r;
  } catch {
    // A damaged entry starts over.
  }
  return { ...NEWCOMER };
}

async function request(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await r.json().catch(() => null);
  if (!r.ok) throw Object.assign(new Error(json?.message ?? r.statusText), { code: json?.error });
  return json;
}

/** Shows a puzzle; `path` says which. Returns nothing to clean up. */
export async function puzzlesScreen(app, path, go) {
  document.title = `${t("puzzle.title")} · Kōnane`;
  const params = new URLSearchParams(location.search);
  let theme = THEMES.includes(params.get("theme")) ? params.get("theme") : "";
  let size = SIZES.includes(params.get("size")) ? params.get("size") : "";
  let streak = params.get("mode") === "streak" ? 0 : null;
  let puzzle = null;
  let view = null;
  let moves = [];
  let selected = null;
  let over = false;
  let rated = true;
  // Logged in: the account's puzzle rating, and its rated attempts when this one began.
  let account = null;
  let version = null;
  let solution = null;
  let busy = false;

  const heading = h("h2", { tabindex: "-1", "data-puzzle-title": "" });
  const info = h("p", { class: "puzzle-info", "data-puzzle-info": "" });
  const feedback = h("p", { class: "feedback", role: "status", "data-puzzle-feedback": "" });
  const mine = h("p", { class: "puzzle-rating", "data-player-rating": "" });
  const streakLine = h("p", { class: "puzzle-streak", "data-streak": "" });
  const host = h("div", { class: "board-host puzzle-board" });
  const retry = h("button", { type: "button", "data-puzzle-retry": "" }, t("puzzle.retry"));
  const show = h("button", { type: "button", "data-puzzle-solution": "" }, t("puzzle.show"));
  const next = h("button", { type: "button", class: "primary", "data-puzzle-next": "" }, t("puzzle.next"));
  const link = h("a", { "data-puzzle-link": "" }, t("puzzle.link"));
  const themeSelect = h("select", { "data-theme": "", "aria-label": t("puzzle.theme") },
    h("option", { value: "" }, t("puzzle.theme.any")),
    THEMES.map((k) => h("option", { value: k, selected: k === theme }, t(`puzzle.theme.${k}`))));
  const sizeSelect = h("select", { "data-size": "", "aria-label": t("puzzle.size") },
    h("option", { value: "" }, t("puzzle.size.any")),
    SIZES.map((s) => h("option", { value: s, selected: s === size }, s)));
  const modes = h("nav", { class: "puzzle-modes", "aria-label": t("puzzle.modes") },
    h("a", { href: "/puzzles", "data-mode": "rated", "aria-current": streak === null && path === "/puzzles" ? "page" : null }, t("puzzle.mode.rated")),
    h("a", { href: "/puzzles?mode=streak", "data-mode": "streak", "aria-current": streak !== null ? "page" : null }, t("puzzle.mode.streak")),
    h("a", { href: "/puzzles/daily", "data-mode": "daily", "aria-current": path === "/puzzles/daily" ? "page" : null }, t("puzzle.mode.daily")));
  const section = h("section", { class: "puzzle", "aria-labelledby": "puzzle-title" },
    h("div", { class: "lesson-board-wrap" }, host),
    h("div", { class: "panel" }, modes, heading, info, feedback, streakLine, mine,
      h("div", { class: "actions" }, retry, show, next),
      h("div", { class: "puzzle-filters" }, themeSelect, sizeSelect), link));
  heading.id = "puzzle-title";
  app.replaceChildren(h("div", { class: "learn" }, h("h1", {}, t("puzzle.title")), section));

  const board = new Board(host, {
    onSquare: (name) => onSquare(name),
    onDrop: (from, to) => tryMove(`${from}-${to}`),
    onEscape: () => { selected = null; draw(); },
  });

  function draw(last = null) {
    const actions = over || busy ? new Map() : actionsFor(view.legal_moves, selected);
    host.dataset.position = view.position;
    // Still a grid once over, so the refutation can be read square by square.
    board.draw({ position: view.position, actions, selected, last, interactive: true, label: t("puzzle.board") });
  }

  function tell(message, result) {
    feedback.textContent = message;
    if (result) feedback.dataset.result = result;
    else delete feedback.dataset.result;
  }

  function showRating() {
    const rating = account ? ratingText(account.rating, account.provisional) : Math.round(storedRating().rating);
    mine.textContent = t("puzzle.your-rating", { rating });
    streakLine.hidden = streak === null;
    if (streak !== null) streakLine.textContent = t("puzzle.streak", { n: streak });
  }

  function setResult(result) {
    if (result) host.dataset.result = result;
    else delete host.dataset.result;
  }

  function begin(p, again = false) {
    puzzle = p;
    view = { position: p.position, legal_moves: p.legal_moves, turn: p.turn };
    moves = [];
    selected = null;
    over = false;
    solution = null;
    if (!again) {
      rated = true;
      account = p.player ?? null;
      version = account?.attempts ?? null;
    }
    host.dataset.puzzle = p.id;
    setResult(null);
    link.href = `/puzzles/${p.id}`;
    heading.textContent = t("puzzle.to-move", { color: t(`color.${p.turn}`) });
    const themes = p.themes.map((k) => t(`puzzle.theme.${k}`)).join(", ");
    info.textContent = t("puzzle.about", { rating: p.rating, size: p.size, themes: themes || "–" });
    tell(again ? t("puzzle.again") : "", null);
    retry.hidden = true;
    show.hidden = true;
    next.hidden = streak !== null;
    showRating();
    draw();
  }

  async function load(moveFocus) {
    try {
      let p;
      if (path === "/puzzles/daily") p = await request("GET", "/api/puzzles/daily");
      else if (path.startsWith("/puzzles/") && !puzzle) p = await request("GET", `/api/puzzles/${encodeURIComponent(path.slice(9))}`);
      else {
        // The server knows a logged-in player's rating and the streak's difficulty.
        const q = new URLSearchParams();
        if (streak !== null) q.set("streak", String(streak));
        else if (!account) q.set("rating", String(storedRating().rating));
        if (theme) q.set("theme", theme);
        if (size) q.set("size", size);
        if (puzzle) q.set("after", puzzle.id);
        p = await request("GET", `/api/puzzles/next?${q}`);
      }
      begin(p);
      if (moveFocus) heading.focus();
    } catch (e) {
      heading.textContent = t("puzzle.title");
      tell(e.code === "not_found" ? t("puzzle.none") : errorText(e), "wrong");
    }
  }

  function onSquare(name) {
    if (over || busy) return;
    const parsed = parsePosition(view.position);
    const r = clickOn(view.legal_moves, selected, name, (sq) => stoneOn(parsed, sq), view.turn, "jumping");
    if (r.move) return tryMove(r.move);
    if ("select" in r) {
      selected = r.select;
      return draw();
    }
    tell(t(r.why, { instruction: "", ...r.vars }), "wrong");
  }

  async function tryMove(move) {
    if (over || busy || !view.legal_moves.includes(move)) {
      selected = null;
      return draw();
    }
    busy = true;
    const before = view;
    moves.push(move);
    try {
      const body = { moves };
      if (rated && account) body.version = version;
      else if (rated) body.rating = storedRating();
      const v = await request("POST", `/api/puzzles/${puzzle.id}/moves`, body);
      const ended = v.solved || !v.correct;
      // The first try of a puzzle is the rated one; a retry only practises.
      if (v.account) {
        account = v.account;
        if (ended) rated = false;
      } else if (ended && v.player) {
        localStorage.setItem(RATING_KEY, JSON.stringify(v.player));
        rated = false;
      }
      selected = null;
      const afterMove = { ...before, position: v.position };
      view = v.reply ? { position: v.position, legal_moves: v.legal_moves, turn: before.turn } : { ...afterMove, legal_moves: [] };
      board.animate(move, before.position);
      sound(capturedBy(move).length);
      if (v.reply) moves.push(v.reply);
      const said = spoken(move, before.turn) + (v.reply ? ` ${spoken(v.reply, before.turn === "black" ? "white" : "black")}` : "");
      if (v.solved) {
        over = true;
        setResult("solved");
        tell(t("puzzle.solved"), "done");
        if (streak !== null) streak += 1;
        next.hidden = false;
      } else if (!v.correct) {
        over = true;
        setResult("failed");
        solution = v.solution;
        tell(t("puzzle.wrong", { reply: v.reply ?? "" }), "wrong");
        retry.hidden = false;
        show.hidden = false;
        if (streak !== null) {
          tell(t("puzzle.streak-over", { n: streak }), "wrong");
          streak = 0;
          next.hidden = false;
        }
      } else {
        tell(t("puzzle.right"), "done");
      }
      announce(`${said} ${feedback.textContent}`);
      draw(v.reply ? v.reply.split("-") : move.split("-"));
      showRating();
      if (over) (v.solved ? next : retry).focus();
    } catch (e) {
      moves.pop();
      view = before;
      tell(errorText(e), "wrong");
      draw();
    } finally {
      busy = false;
      if (!over) draw();
    }
  }

  retry.addEventListener("click", () => {
    begin(puzzle, true);
    heading.focus();
  });
  show.addEventListener("click", () => {
    if (!solution) return;
    tell(t("puzzle.solution", { line: solution.join(" ") }), "wrong");
  });
  next.addEventListener("click", () => {
    if (path !== "/puzzles") return go(streak !== null ? "/puzzles?mode=streak" : "/puzzles");
    load(true);
  });
  const refilter = () => {
    theme = themeSelect.value;
    size = sizeSelect.value;
    const q = new URLSearchParams();
    if (theme) q.set("theme", theme);
    if (size) q.set("size", size);
    go(`/puzzles${q.size ? `?${q}` : ""}`);
  };
  themeSelect.addEventListener("change", refilter);
  sizeSelect.addEventListener("change", refilter);
  await load(false);
  return () => {};
}
