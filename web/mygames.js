// "Your games" on the start screen: the games this browser holds a seat in that are still
// being played, those waiting for the player's move first, with the time left for it. A
// logged-in player's games begun on other devices join them: the server lends this browser
// their seats' tokens.

import { sessionName } from "./account.js";
import { api, remember, seatedGames, tokenFor } from "./api.js";
import { h } from "./dom.js";
import { sizeText, t } from "./i18n.js";
import { clockText, playerName } from "./players.js";

/** How many of the latest seats are asked about. */
const LATEST = 50;

function timeLeft(game) {
  const c = game.clock;
  if (!c || c.running === null) return "";
  const left = c[`${c.running}_ms`] - (game.server_time - (c.running_since ?? game.server_time));
  const hours = Math.max(0, Math.floor(left / 3600000));
  if (hours >= 24) return t("mygames.days-left", { days: Math.floor(hours / 24) });
  if (hours >= 1) return t("mygames.hours-left", { hours });
  return t("mygames.minutes-left", { minutes: Math.max(0, Math.floor(left / 60000)) });
}

/** A challenge to the player: who sends it, its settings, accept or decline. */
function challengeItem(c, refresh) {
  const g = c.game;
  const decline = h("button", { type: "button", "data-decline": c.id }, t("challenge.decline"));
  decline.addEventListener("click", async () => {
    decline.disabled = true;
    await api.decline(c.id).catch(() => {});
    refresh();
  });
  const settings = [sizeText(g.size), clockText(g.clock), t(g.rated ? "profile.rated" : "profile.casual")].join(" · ");
  return h("li", { "data-challenge": c.id },
    h("span", {}, t("challenge.from", { name: c.from }), h("small", {}, settings)),
    h("span", { class: "actions" }, h("a", { href: `/game/${c.id}?join`, class: "button primary", "data-accept": c.id }, t("challenge.accept")), decline));
}

/** The cards (the player's games, the challenges waiting for their answer) and their
 * refresh; each stays hidden while there is nothing to show. */
export function yourGamesCard() {
  const list = h("ul", { class: "game-list", "data-your-games": "" });
  const card = h("section", { class: "card", "aria-labelledby": "your-games-title", hidden: true },
    h("h2", { id: "your-games-title" }, t("mygames.title")), list);
  const challengeList = h("ul", { class: "game-list", "data-challenges": "" });
  const challenges = h("section", { class: "card", "aria-labelledby": "challenges-title", hidden: true },
    h("h2", { id: "challenges-title" }, t("challenge.title")), challengeList);
  const refresh = async () => {
    if (await sessionName()) {
      const account = await api.accountGames().catch(() => ({ games: [], challenges: [] }));
      for (const g of account.games) if (!tokenFor(g.id)) remember(g.id, g.token, g.seat, true);
      challenges.hidden = !account.challenges.length;
      challengeList.replaceChildren(...account.challenges.map((c) => challengeItem(c, refresh)));
    }
    const seats = seatedGames().slice(0, LATEST);
    if (!seats.length) return;
    let games;
    try {
      ({ games } = await api.several(seats.map((s) => s.id)));
    } catch {
      return;
    }
    const seatOf = Object.fromEntries(seats.map((s) => [s.id, s.seat]));
    const mine = (g) => seatOf[g.id] === "both" || seatOf[g.id] === g.turn;
    const playing = games.filter((g) => g.status === "playing").sort((a, b) => Number(mine(b)) - Number(mine(a)));
    card.hidden = !playing.length;
    list.replaceChildren(...playing.map((g) => {
      const me = seatOf[g.id];
      const them = me === "black" ? "white" : "black";
      const against = me === "both" ? t("mygames.local") : t("mygames.against", { name: playerName(g.players[them], them) });
      return h("li", { "data-your-game": g.id, "data-your-turn": String(mine(g)) },
        h("span", {}, against, h("small", {}, [mine(g) ? t("mygames.your-turn") : t("mygames.their-turn"), timeLeft(g)].filter(Boolean).join(" · "))),
        h("a", { href: `/game/${g.id}`, class: mine(g) ? "button primary" : "button" }, t("mygames.open")));
    }));
  };
  return { card, challenges, refresh };
}
