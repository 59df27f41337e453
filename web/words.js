// The page's wording of what the server and the rules say in codes: colours, what the side
// to move must do, how a game ended, a move read aloud, why a move was refused, every API
// error, a refused name or password, the clock's time. Every screen words these from here,
// so one code reads the same everywhere. The strings themselves live in i18n/.

import { has, language, t } from "./i18n.js";
import { capturedBy } from "./picker.js";

/** A colour's name: "Black". */
export const colorName = (c) => t(`color.${c}`);

/** The other colour. */
export const opponentOf = (c) => (c === "black" ? "white" : "black");

/** Items joined as the language lists them: "d5, f5 and h5". */
export const listText = (items) => new Intl.ListFormat(language(), { type: "conjunction" }).format(items);

/** What the side to move must do now (of a position with `turn`, `phase` and `opening`). */
export function instruction(state) {
  const vars = { color: colorName(state.turn) };
  if (state.phase === "black-removal") return t(state.opening === "center" ? "do.remove-center" : "do.remove-center-corner", vars);
  if (state.phase === "white-removal") return t("do.remove-adjacent", vars);
  return t("do.jump", vars);
}

/** Who won and why, in words. */
export function endText(result) {
  if (!result.winner) return t(`end.${result.reason}`);
  const why = t(`end.${result.reason}`, { color: colorName(opponentOf(result.winner)) });
  return t("end.wins", { color: colorName(result.winner), why });
}

/** A move in words, for the live region: "White jumps c5 to e5, capturing d5." */
export function spoken(move, color) {
  const [from, to] = move.split("-");
  if (!to) return t("say.remove", { color: colorName(color), square: from });
  const captured = listText(capturedBy(move));
  return t("say.jump", { color: colorName(color), from, to, captured });
}

/** The notation codes, which the server sends as the reason of a move it cannot read. */
const NOTATION = ["not_a_square", "off_board", "not_a_move", "not_a_jump"];

/** The string key of a refused move's reason code with its parameters `p`. */
export function reasonKey(reason, p) {
  if (reason === "not_your_stone") return `illegal.not_your_stone.${p.found === "empty" ? "empty" : "stone"}`;
  if (reason === "first_removal_square") return `illegal.first_removal_square.${p.opening === "center" ? "center" : "center-or-corner"}`;
  if (NOTATION.includes(reason)) return `notation.${reason}`;
  return `illegal.${reason}`;
}

/** An error from the server (`{code, reason, params}`) in the page's language: a refused
 * move says why; an unknown code reads as the server's failure. */
export function errorText(e) {
  if (e.reason) {
    const p = e.params ?? {};
    const key = reasonKey(e.reason, p);
    const vars = {
      ...p,
      color: p.color && colorName(p.color),
      opponent: p.opponent && colorName(p.opponent),
      allowed: p.allowed && listText(p.allowed),
    };
    if (has(key)) return t(key, vars);
  }
  return t(e.code && has(`error.${e.code}`) ? `error.${e.code}` : "error.internal");
}

/** A refusal of a name or a password says why; anything else as every screen words it. */
export function accountError(e) {
  const key = e.code === "bad_name" ? `name.${e.reason}` : e.code === "bad_password" ? `password.${e.reason}` : null;
  if (key && has(key)) return t(key, e.params);
  if (e.code === "wrong_credentials" || e.code === "name_taken" || e.code === "too_many_attempts") return t(`error.${e.code}`);
  return errorText(e);
}

const HOUR = 3600000;
const DAY = 24 * HOUR;

/** A clock's time left as it shows: "2:05", "0:09.4" under ten seconds, "1:02:03" past an
 * hour, whole days and hours past a day; never below zero. */
export function clockTime(ms) {
  const left = Math.max(0, ms);
  // Correspondence gives days a move: whole days and hours say enough.
  if (left >= DAY) return t("clock.days", { days: Math.floor(left / DAY), hours: Math.floor((left % DAY) / HOUR) });
  if (left >= HOUR) {
    const mm = String(Math.floor((left % HOUR) / 60000)).padStart(2, "0");
    const ss = String(Math.floor((left % 60000) / 1000)).padStart(2, "0");
    return `${Math.floor(left / HOUR)}:${mm}:${ss}`;
  }
  const m = Math.floor(left / 60000);
  const s = Math.floor((left % 60000) / 1000);
  const tenths = left < 10000 ? `.${Math.floor((left % 1000) / 100)}` : "";
  return `${m}:${String(s).padStart(2, "0")}${tenths}`;
}

/** "Black wins in 9 moves", with the plural the language needs. */
export function winsIn(color, moves) {
  const form = new Intl.PluralRules(language()).select(moves);
  const key = form === "one" || form === "few" ? `analysis.wins-in.${form}` : "analysis.wins-in.other";
  return t(key, { color: colorName(color), n: moves });
}

/** How many games are being played, with the plural the language needs. */
export function liveCountText(n) {
  if (n === 0) return t("live.count.none");
  const form = new Intl.PluralRules(language()).select(n);
  return t(form === "one" || form === "few" ? `live.count.${form}` : "live.count.other", { n });
}
