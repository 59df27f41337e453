// The tournament pages: the list `/tournaments` with the creation form, and one tournament
// `/tournaments/{id}`, kept live by its socket; the player's own new game is opened for
// them with a sound. Wires the rules (tournaments-state.js), the views
// (tournaments-view.js) and the requests (tournaments-socket.js); here live the timers,
// the announcements, and the games already opened (kept for the tab's life).

import { sessionName } from "./account.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { play as sound } from "./sound.js";
import * as state from "./tournaments-state.js";
import { TournamentView, drawList, listPage, tickList } from "./tournaments-view.js";
import { createTournament, joinTournament, live, startEarly, togglePause, tournament, tournamentList, withdraw } from "./tournaments-socket.js";

/** How often the list is asked for again, and how often countdowns move. */
const REFRESH_MS = 15000;
const TICK_MS = 1000;
/** The most games a tab remembers having opened, per tournament. */
const SEEN_MAX = 100;

/** The creation form sends what passes its checks and shows the refusals by field. */
function wireForm({ form, read, showErrors, notice }, go) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    notice.textContent = "";
    const checked = state.checkForm(read());
    if (checked.errors) {
      showErrors(Object.fromEntries(Object.entries(checked.errors).map(([field, key]) => [field, t(key)])));
      return;
    }
    showErrors({});
    try {
      const created = await createTournament(checked.body);
      await go(`/tournaments/${encodeURIComponent(created.id)}`);
    } catch (err) {
      const field = state.formField(err.field);
      // A refusal without a field of the form (or of one not shown) reads under the button.
      if (!(field && showErrors({ [field]: state.refusalText(err) }))) notice.textContent = state.refusalText(err);
    }
  });
}

/** Shows the list of tournaments; returns the function that stops its updates. */
export async function tournamentsScreen(app, go) {
  document.title = `${t("tournament.title")} · Kōnane`;
  const me = await sessionName();
  const page = listPage(Boolean(me));
  app.replaceChildren(page.root);
  if (page.form) wireForm(page.form, go);
  let offset = 0;
  let shown = null;
  const refresh = async () => {
    try {
      const list = await tournamentList();
      offset = state.clockOffset(list.now, Date.now());
      // Redrawn only when it changes, so a focused link keeps its focus.
      if (state.listKey(list) !== shown) {
        shown = state.listKey(list);
        drawList(page.slots, list, Date.now() + offset);
      }
    } catch (e) {
      shown = null;
      for (const slot of Object.values(page.slots)) slot.replaceChildren(h("li", { class: "muted" }, state.refusalText(e)));
    }
  };
  await refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  const ticker = setInterval(() => tickList(page.root, Date.now() + offset), TICK_MS);
  return () => {
    clearInterval(timer);
    clearInterval(ticker);
  };
}

const seenKey = (id) => `konane.tournament-games.${id}`;

/** The games of tournament `id` this tab has opened already. */
function seenGames(id) {
  try {
    const seen = JSON.parse(sessionStorage.getItem(seenKey(id)) || "[]");
    return Array.isArray(seen) ? seen : [];
  } catch {
    return [];
  }
}

function keepSeen(id, seen) {
  try {
    sessionStorage.setItem(seenKey(id), JSON.stringify(seen.slice(-SEEN_MAX)));
  } catch {
    // No storage: a game may be opened again when the page is.
  }
}

/** Shows tournament `id`, live; returns the function that closes its socket and timers. */
export async function tournamentScreen(app, id, go) {
  document.title = `${t("tournament.title")} · Kōnane`;
  const me = await sessionName();
  let tour = null;
  let offset = 0;
  let stopped = false;
  // Set when the player's game is being opened: the screen is going away.
  let leaving = false;
  let seen = seenGames(id);
  const show = (next) => {
    if (stopped || !next) return;
    const news = tour ? state.rankNews(tour, next, me) : null;
    tour = next;
    offset = state.clockOffset(next.now, Date.now());
    view.draw(next, me, Date.now() + offset, Boolean(me), page);
    if (news) announce(news);
    const own = state.ownNewGame(seen, next);
    if (own.seen !== seen) keepSeen(id, (seen = own.seen));
    if (own.open) {
      leaving = true;
      sound(2);
      go(`/game/${own.open}`);
    }
  };
  // The page of the standings shown: the socket brings the first, any other is asked for
  // after each change, one request at a time.
  let page = 1;
  let asking = false;
  let askAgain = false;
  const askPage = async () => {
    if (asking) {
      askAgain = true;
      return;
    }
    asking = true;
    const wanted = page;
    try {
      const next = await tournament(id, wanted);
      if (page === wanted) show(next);
    } catch (e) {
      // The table has fewer pages now: back to the first.
      if (e.status === 422 && page !== 1) {
        page = 1;
        askAgain = true;
      } else view.say(state.refusalText(e));
    } finally {
      asking = false;
      if (askAgain && !stopped) {
        askAgain = false;
        askPage();
      }
    }
  };
  const act = (send) => async () => {
    view.say("");
    try {
      await send();
    } catch (e) {
      view.say(state.refusalText(e));
      return;
    }
    // The answer holds the whole table: the page shown is asked for.
    await askPage();
  };
  const view = new TournamentView(app, {
    onJoin: (code) => act(() => joinTournament(id, code))(),
    onWithdraw: act(() => withdraw(id)),
    onPause: act(() => togglePause(id)),
    onStart: act(() => startEarly(id)),
    onPage: (n) => {
      page = n;
      askPage();
    },
  });
  try {
    show(await tournament(id, page));
  } catch (e) {
    const words = e.status === 404 ? t("tournament.error.not_found") : state.refusalText(e);
    app.replaceChildren(h("div", { class: "tournament" }, h("h1", {}, t("tournament.title")), h("p", { role: "alert" }, words),
      h("p", {}, h("a", { href: "/tournaments" }, t("tournament.all")))));
    return null;
  }
  if (leaving) return null;
  const close = live(id, (next) => (page === 1 ? show(next) : askPage()), (up) => view.linked(up));
  const ticker = setInterval(() => tour && view.tick(tour, Date.now() + offset), TICK_MS);
  return () => {
    stopped = true;
    close();
    clearInterval(ticker);
  };
}
