// The players beside the board: a strip per side with its stone, who plays it (a name, the
// computer and its level, or the colour), the rating when there is one, and the clock of a
// timed game; the side to move and the running clock stand out, low time turns red.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { clockTime } from "./words.js";

/** Below this a running clock shows tenths and turns red. */
const LOW_MS = 20000;

/** A clock setting in words: "6+0", days a move, or untimed. */
export const clockText = (c) => (!c ? t("start.untimed") : c.per_move ? t("pairing.days", { days: c.initial_ms / 86400000 }) : `${c.initial_ms / 60000}+${c.increment_ms / 1000}`);

/** Who plays a side, in words: "Computer · level 5", the name, or the colour. */
export function playerName(player, color) {
  if (player.engine) return player.level ? t("player.engine-level", { level: player.level }) : t("player.engine");
  if (!player.seated) return t("player.waiting");
  return player.name || t(`color.${color}`);
}

/** A rating as shown: "1500", or "1500?" while it is provisional; empty without one. */
function ratingText(player) {
  if (typeof player.rating !== "number") return "";
  const change = player.rating_change;
  const after = typeof change === "number" ? ` ${change >= 0 ? "+" : "−"}${Math.abs(change)}` : "";
  return `${Math.round(player.rating)}${player.provisional ? "?" : ""}${after}`;
}

export class PlayerStrip {
  /** `slot` is "top" or "bottom". */
  constructor(slot) {
    this.slot = slot;
    this.stone = h("span", { class: "player-stone", "aria-hidden": "true" });
    this.name = h("span", { class: "player-name", "data-player": "" });
    this.rating = h("span", { class: "player-rating" });
    this.clock = h("span", { class: "clock", "data-clock": slot, role: "timer", "aria-live": "off" });
    this.el = h("div", { class: "player", "data-slot": slot }, this.stone, h("span", { class: "player-who" }, this.name, this.rating), this.clock);
  }

  /** Shows `color`'s player of `state`; `you` marks the viewer's own side. */
  draw(state, color, you) {
    const player = state.players[color];
    this.el.dataset.side = color;
    this.stone.className = `player-stone ${color}`;
    this.name.dataset.player = color;
    const name = playerName(player, color);
    const shown = you ? t("player.you", { name }) : name;
    // A registered player's name opens their profile.
    this.name.replaceChildren(player.registered && player.name ? h("a", { href: `/@/${encodeURIComponent(player.name)}` }, shown) : shown);
    this.name.title = t(`color.${color}`);
    this.rating.textContent = ratingText(player);
    this.rating.hidden = !this.rating.textContent;
    this.el.classList.toggle("to-move", state.status === "playing" && state.turn === color);
  }

  /** The clock: `ms` left, or none (an untimed game). */
  tick(ms, running) {
    this.clock.hidden = ms === null;
    if (ms === null) return;
    this.clock.textContent = clockTime(ms);
    this.clock.classList.toggle("running", running);
    this.clock.classList.toggle("low", ms < LOW_MS);
  }
}
