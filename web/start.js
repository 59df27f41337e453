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

/** Shows the start screen; returns the function that stops its updates. */
export async function startScreen(app, go) {
  document.title = t("title");
  const pairing = pairingCard(go);
  const yours = yourGamesCard();
  const { form, otherSize, tvHost, tvCaption, count, liveList, lobby } = startPage(savedOptions(), pairing, yours);
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

  // The small board: the most watchable game being played, else the demonstration.
  const board = new Board(tvHost, {});
  let tv = noTv();
  const demoState = { timer: null, failed: false, stopped: false };
  const draw = (position, last, label) => board.draw({ position, last, interactive: false, label });
  const stopDemo = () => {
    clearTimeout(demoState.timer);
    demoState.timer = null;
  };
  async function demo() {
    tv = noTv();
    tvCaption.replaceChildren(t("live.demo"));
    draw(DEMO.start, null, t("live.demo-board"));
    let positions;
    try {
      positions = await demoPositions();
    } catch {
      demoState.failed = true;
      draw(DEMO.start, null, t("live.demo-board"));
      return;
    }
    const step = (i) => {
      if (demoState.stopped) return;
      const s = demoStep(positions, i, DEMO_STEP_MS);
      draw(s.position, s.move ? s.move.split("-") : null, t("live.demo-board"));
      if (s.move) board.animate(s.move, s.before);
      demoState.timer = setTimeout(() => step(s.next), s.wait);
    };
    step(0);
  }
  function showLive(game) {
    stopDemo();
    const shown = tvShowing(tv, game);
    draw(game.position, game.last_move ? game.last_move.split("-") : null, t("live.board", { players: versus(game) }));
    if (shown.moved) board.animate(game.last_move, tv.position);
    if (shown.another) tvCaption.replaceChildren(...tvCaptionFor(game));
    tv = shown.tv;
  }

  let lobbyShown = null;
  let liveShown = null;
  const refresh = async () => {
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
      if (live.games.length) showLive(live.games[0]);
      else if (tv.id || (!demoState.timer && !demoState.failed)) demo();
      if (liveKey(live.games) !== liveShown) {
        liveShown = liveKey(live.games);
        liveList.replaceChildren(...liveItems(live.games));
      }
    } catch {
      count.textContent = "";
      if (!demoState.timer && !demoState.failed) demo();
    }
  };
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
    demoState.stopped = true;
    stopDemo();
  };
}
