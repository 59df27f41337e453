// The start screen `/`: the game's settings as visible choices, play the computer, a friend,
// on one device or in the lobby; beside them the site's life: how many games are being
// played, the most watchable of them on a small board (or, when nobody plays, a short
// demonstration of the opening and a jump), the others to watch, and the open games.
// The chosen settings are remembered for next time. Wires the rules (start-state.js), the
// view (start-view.js) and the requests (start-api.js); here live the timers.

import { onGameEnded } from "./api.js";
import { Board } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { isOffline } from "./offline.js";
import { sessionName } from "./account.js";
import { pairingCard } from "./pairing.js";
import { yourGamesCard } from "./mygames.js";
import { demoPositions, keepOptions, liveGames, openGames, savedOptions, startGame } from "./start-api.js";
import { DEMO, demoStep, gameSettings, liveKey, lobbyKey, noTv, tvShowing } from "./start-state.js";
import { chosen, liveItems, lobbyItems, startPage, tvCaptionFor, versus } from "./start-view.js";
import { errorText, liveCountText } from "./words.js";

const REFRESH_MS = 5000;
const DEMO_STEP_MS = 1600;

/** The small board: the most watchable game being played, else the demonstration. */
class Tv {
  constructor(host, caption) {
    this.board = new Board(host, {});
    this.caption = caption;
    this.shown = noTv();
    this.timer = null; // the demonstration's next step
    this.failed = false; // the demonstration's moves could not be played
    this.stopped = false;
  }

  draw(position, last, label) {
    this.board.draw({ position, last, interactive: false, label });
  }

  /** Whether the demonstration should start: nothing else shows, or a game did. */
  wantsDemo() {
    return Boolean(this.shown.id) || (!this.timer && !this.failed);
  }

  stopDemo() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  async demo() {
    this.shown = noTv();
    this.caption.replaceChildren(t("live.demo"));
    this.draw(DEMO.start, null, t("live.demo-board"));
    let positions;
    try {
      positions = await demoPositions();
    } catch {
      this.failed = true;
      this.draw(DEMO.start, null, t("live.demo-board"));
      return;
    }
    const step = (i) => {
      if (this.stopped) return;
      const s = demoStep(positions, i, DEMO_STEP_MS);
      this.draw(s.position, s.move ? s.move.split("-") : null, t("live.demo-board"));
      if (s.move) this.board.animate(s.move, s.before);
      this.timer = setTimeout(() => step(s.next), s.wait);
    };
    step(0);
  }

  /** Shows live `game`, its new move animated. */
  live(game) {
    this.stopDemo();
    const next = tvShowing(this.shown, game);
    this.draw(game.position, game.last_move ? game.last_move.split("-") : null, t("live.board", { players: versus(game) }));
    if (next.moved) this.board.animate(game.last_move, this.shown.position);
    if (next.another) this.caption.replaceChildren(...tvCaptionFor(game));
    this.shown = next.tv;
  }

  stop() {
    this.stopped = true;
    this.stopDemo();
  }
}

/** The function that asks for the open and the live games and shows them on `page` (the
 * lists redrawn only when they change) and the most watchable on `tv`. */
function lists(page, tv, go) {
  const { count, liveList, lobby } = page;
  let lobbyShown = null;
  let liveShown = null;
  return async () => {
    try {
      const games = await openGames();
      // Redrawn only when the games change, so a focused Join button keeps its focus.
      if (lobbyKey(games) !== lobbyShown) {
        lobbyShown = lobbyKey(games);
        lobby.replaceChildren(...lobbyItems(games, go));
      }
    } catch {
      lobbyShown = null;
      lobby.replaceChildren(h("li", {}, t("lobby.unavailable")));
    }
    try {
      const live = await liveGames();
      count.textContent = liveCountText(live.playing);
      count.dataset.liveCount = String(live.playing);
      if (live.games.length) tv.live(live.games[0]);
      else if (tv.wantsDemo()) tv.demo();
      if (liveKey(live.games) !== liveShown) {
        liveShown = liveKey(live.games);
        liveList.replaceChildren(...liveItems(live.games));
      }
    } catch {
      count.textContent = "";
      if (!tv.timer && !tv.failed) tv.demo();
    }
  };
}

/** Shows the start screen; returns the function that stops its updates. */
export async function startScreen(app, go) {
  document.title = t("title");
  const pairing = pairingCard(go);
  const yours = yourGamesCard();
  const page = startPage(savedOptions(), pairing, yours);
  const { form, otherSize, tvHost, tvCaption } = page;
  app.replaceChildren(form);
  // Offline only the games in this browser can be played, and they have no clock.
  if (isOffline()) {
    for (const el of form.querySelectorAll("[data-start=friend], [data-start=open], [data-choice=clock], .lists")) el.hidden = true;
    pairing.card.hidden = true;
  }
  // Rated games are for logged-in players; the server says why when the settings are not.
  const rated = form.querySelector("[data-rated]");
  const me = await sessionName();
  if (me) form.querySelector("[data-rated-choice]").hidden = false;
  // A challenge chosen on a player's profile: the usual settings, sent to that player only.
  const target = new URLSearchParams(location.search).get("challenge");
  if (me && target) {
    form.querySelector(".intro").append(h("p", { class: "notice challenge-banner", "data-challenge-banner": "" }, t("challenge.banner", { name: target })));
    form.querySelector("[data-start=friend]").before(h("button", { type: "button", class: "primary", "data-start": "challenge" }, t("challenge.send")));
  }
  otherSize.addEventListener("change", () => {
    if (!otherSize.value) return;
    for (const r of form.querySelectorAll("input[name=size]")) r.checked = false;
  });
  for (const r of form.querySelectorAll("input[name=size]")) r.addEventListener("change", () => { otherSize.value = ""; });
  const read = () => {
    const o = chosen(form, otherSize, savedOptions());
    keepOptions(o);
    return o;
  };
  form.addEventListener("change", read);
  for (const b of form.querySelectorAll("[data-start]")) {
    b.addEventListener("click", async () => {
      const o = read();
      try {
        await startGame(gameSettings(o, b.dataset.start, rated.checked, target), go);
      } catch (e) {
        form.querySelector("[data-notice]").textContent = errorText(e);
      }
    });
  }

  const tv = new Tv(tvHost, tvCaption);
  const refresh = lists(page, tv, go);
  await Promise.all([refresh(), yours.refresh()]);
  const timer = setInterval(refresh, REFRESH_MS);
  // Up to fifty games each time: asked less often than the lists of the site's life, and
  // only while the tab is seen; asked at once when it is seen again, and when another tab
  // saw a game of the player's end.
  let yoursTimer = null;
  const pollYours = () => {
    clearInterval(yoursTimer);
    yoursTimer = document.hidden ? null : setInterval(yours.refresh, 6 * REFRESH_MS);
  };
  const seenAgain = () => {
    pollYours();
    if (!document.hidden) yours.refresh();
  };
  pollYours();
  document.addEventListener("visibilitychange", seenAgain);
  const stopEnded = onGameEnded(yours.refresh);
  return () => {
    pairing.stop();
    clearInterval(timer);
    clearInterval(yoursTimer);
    document.removeEventListener("visibilitychange", seenAgain);
    stopEnded();
    tv.stop();
  };
}
