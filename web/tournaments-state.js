// The tournament pages' plain data and pure rules: the list cut into its three sections,
// what a countdown counts to and how it reads, the standings as rows, whether the player's
// own new game has been paired, whose rank changed, which buttons a player gets, and the
// creation form's checks and the server's refusals in words. No DOM, no network, no
// storage: tournaments.js feeds these, tournaments-view.js draws.

import { has, language, t } from "./i18n.js";

/** The kinds of tournament, as the API names them. */
export const KINDS = ["arena", "swiss", "round-robin"];
/** The list's sections in the order the page shows them. */
export const SECTIONS = ["running", "upcoming", "finished"];

/** The creation form's first values. */
export const FORM_DEFAULTS = {
  name: "", kind: "arena", minutes: "3", increment: "2", size: "8x8", opening: "center-or-corner",
  rated: true, startsIn: "5", arenaMinutes: "30", rounds: "5", double: false, entryCode: "",
};

/** "12 players", with the plural the language needs. */
export function playersText(n) {
  const form = new Intl.PluralRules(language()).select(n);
  return t(form === "one" || form === "few" ? `tournament.players.${form}` : "tournament.players.other", { n });
}

/** A clock as the lists write it: "3+2". */
export const clockLabel = (clock) => (clock ? `${clock.minutes}+${clock.increment}` : "");

/** A league's clock: "3 days a move", with the plural the language needs. */
export function daysText(days) {
  const form = new Intl.PluralRules(language()).select(days);
  return t(form === "one" || form === "few" ? `tournament.days-a-move.${form}` : "tournament.days-a-move.other", { days });
}

/** The clock of a tournament's games as its facts write it: "3+2", or a league's days. */
export const clockOf = (x) => (x.kind === "league" && x.days ? daysText(x.days) : clockLabel(x.clock));

/** A tournament's name as shown: the site's own events ("Hourly 3+2 Arena", sent with
 * `every`) worded in the page's language, any other as its creator named it. `clock` is
 * the `{minutes, increment}` of its games. */
export function titleOf(x, clock = x.clock) {
  const key = `tournament.site.${x.every}.${x.kind}`;
  // A league's name gives its board; where the board is not sent, the server's name stands.
  if (x.kind === "league" && !x.size) return x.name;
  const name = x.every && x.kind && has(key) ? t(key, { clock: clockLabel(clock), size: x.size }) : x.name;
  return x.season ? t("tournament.season-of", { name, season: x.season }) : name;
}

/** The list's sections `[[name, tournaments]]`, running first: each the site's events first,
 * then by start (upcoming soonest first, finished latest first, running as started). */
export function sections(list) {
  return SECTIONS.map((name) => {
    const later = name === "finished" ? -1 : 1;
    const sorted = [...(list?.[name] ?? [])].sort((a, b) =>
      Number(Boolean(b.by_site)) - Number(Boolean(a.by_site)) || later * ((a.starts_at ?? 0) - (b.starts_at ?? 0)));
    return [name, sorted];
  });
}

/** The key of the list: it changes when a tournament, its players or its status do. */
export const listKey = (list) => SECTIONS.map((name) => (list?.[name] ?? []).map((s) => `${s.id}:${s.players}:${s.status}:${s.winner ?? ""}`).join()).join("|");

/** How far the browser's clock is behind the server's, from a reply carrying `now`. */
export const clockOffset = (serverNow, localNow) => (Number.isFinite(serverNow) ? serverNow - localNow : 0);

/** What tournament `tour`'s countdown counts to: `{key, at}` (the moment, server time), or
 * `{key}` alone when nothing is awaited (`key` names the string that says it). */
export function countdownTarget(tour) {
  if (tour.status === "finished") return { key: "tournament.countdown.finished" };
  if (tour.status === "created") return { key: "tournament.countdown.starts", at: tour.starts_at };
  if (tour.kind === "arena" && tour.ends_at) return { key: "tournament.countdown.ends", at: tour.ends_at };
  if (tour.kind === "league") return { key: "tournament.countdown.league", round: pairings(tour).length };
  // While a round's games are played the next round is not yet due, whatever the time says.
  const playing = (tour.games ?? []).some((g) => g.status === "playing");
  if (tour.next_round_at && !playing) return { key: "tournament.countdown.next-round", at: tour.next_round_at };
  return { key: "tournament.countdown.round", round: tour.round, rounds: tour.rounds };
}

/** A span of time as a countdown shows it: "4:05", "1:02:03", "2 d 3 h"; never below zero. */
export function countdownText(ms) {
  const left = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  if (days > 0) return t("tournament.days", { days, hours });
  const mm = Math.floor((left % 3600) / 60);
  const ss = String(left % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** The countdown's words for `tour` at server time `now`: "Starts in 4:05", "Round 2 of 3". */
export function countdownWords(tour, now) {
  const target = countdownTarget(tour);
  if (target.at === undefined) return t(target.key, { round: target.round ?? 0, rounds: target.rounds ?? 0, n: target.round ?? 0 });
  if (target.at - now <= 0) return t(tour.status === "created" ? "tournament.countdown.starting" : "tournament.countdown.soon");
  return t(target.key, { time: countdownText(target.at - now) });
}

/** How far off moment `at` is from `now`, as the largest whole unit: `{value, unit}` for
 * `Intl.RelativeTimeFormat` ("in 12 min", "in 3 h", "in 2 days"). */
export function relative(at, now) {
  const minutes = Math.round((at - now) / 60000);
  if (Math.abs(minutes) < 60) return { value: minutes, unit: "minute" };
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return { value: hours, unit: "hour" };
  return { value: Math.round(hours / 24), unit: "day" };
}

/** `relative` in the page's language: "in 12 min". */
export function relativeText(at, now) {
  const r = relative(at, now);
  return new Intl.RelativeTimeFormat(language(), { numeric: "auto", style: "short" }).format(r.value, r.unit);
}

/** Whether the tournament's standings have tiebreak columns (Swiss and round robin). */
export const hasTiebreaks = (tour) => tour.kind !== "arena";

/** The standings as the table's rows: the columns' values, the marks, and whether the row
 * is the viewer's (`me`, the viewer's name, or null). When `standings` is a page of the
 * table, the viewer's own lines (`me.lines`) not on it follow, the first marked `gap`
 * when lines lie between. */
export function standingsRows(tour, me) {
  const tiebreaks = hasTiebreaks(tour);
  const shown = tour.standings ?? [];
  const names = new Set(shown.map((s) => s.name));
  const own = (tour.me?.lines ?? []).filter((s) => !names.has(s.name));
  const lastRank = shown.length ? shown[shown.length - 1].rank : 0;
  return [...shown, ...own].map((s, i) => ({
    // A league's ranks start again in each group: its own lines always follow a gap.
    gap: i === shown.length && (tour.kind === "league" || s.rank > lastRank + 1),
    rank: s.rank,
    name: s.name,
    rating: s.rating ?? null,
    score: s.score,
    games: s.games,
    onFire: tour.kind === "arena" && Boolean(s.streak),
    buchholz: tiebreaks ? (s.tiebreaks?.buchholz ?? null) : null,
    sb: tiebreaks ? (s.tiebreaks?.sonneborn_berger ?? null) : null,
    performance: tour.kind === "arena" ? (s.performance ?? null) : null,
    results: (s.results ?? []).filter((r) => ["w", "l", "b", "."].includes(r)),
    paused: Boolean(s.paused),
    withdrawn: Boolean(s.withdrawn),
    mine: Boolean(me) && s.name.toLowerCase() === me.toLowerCase(),
    division: s.division ?? null,
    group: s.group ?? null,
    movement: s.movement === "up" || s.movement === "down" ? s.movement : null,
  }));
}

/** A league's rows cut into its groups, top division first: `[{division, group, rows}]`
 * (division and group counted from 1, as people count them); one group of all the rows
 * for any other kind. */
export function groupsOf(rows) {
  const groups = [];
  for (const row of rows) {
    const division = (row.division ?? 0) + 1;
    const group = (row.group ?? 0) + 1;
    let last = groups.at(-1);
    if (!last || last.division !== division || last.group !== group) {
      last = { division, group, rows: [] };
      groups.push(last);
    }
    last.rows.push(row);
  }
  return groups;
}

/** A group's name as people say it: "Division 1 · Group A". */
export const groupName = (g) => t("tournament.group-name", { division: g.division, group: String.fromCharCode(64 + Math.min(g.group, 26)) });

/** The games being played, the round's first (the current pairings). */
export const pairings = (tour) => (tour.games ?? []).filter((g) => g.status === "playing");

/** The games being played, the viewer's (`me`, a name or null) first; a league's by round,
 * as its table of rounds reads. */
export function gamesFor(tour, me) {
  const games = tour.kind === "league" ? [...pairings(tour)].sort((a, b) => (a.round ?? 0) - (b.round ?? 0)) : pairings(tour);
  if (!me) return games;
  const lower = me.toLowerCase();
  const mine = (g) => g.black.toLowerCase() === lower || g.white.toLowerCase() === lower;
  return [...games.filter(mine), ...games.filter((g) => !mine(g))];
}

/** Whether the viewer's own new game was paired in `tour`: the game to open (or null) and
 * the games seen so far, this one added. A game seen before is never opened again. */
export function ownNewGame(seen, tour) {
  // A league's games all start at once and last days: none is thrown open at the player.
  if (tour?.kind === "league") return { open: null, seen };
  const id = tour?.me?.game ?? null;
  if (!id || seen.includes(id)) return { open: null, seen };
  const game = (tour.games ?? []).find((g) => g.id === id);
  if (game && game.status !== "playing") return { open: null, seen: [...seen, id] };
  return { open: id, seen: [...seen, id] };
}

/** The viewer's rank in `tour`, or null when they are not in its standings (the page
 * sent, or their own lines). */
export function myRank(tour, me) {
  if (!me) return null;
  const lines = [...(tour?.standings ?? []), ...(tour?.me?.lines ?? [])];
  const row = lines.find((s) => s.name.toLowerCase() === me.toLowerCase());
  return row ? row.rank : null;
}

/** The pager under the table of `tour` showing page `page`: `{page, pages, previous, next}`
 * (the pages to go to, or null), or null when the table has one page. */
export function pager(tour, page) {
  const pages = tour?.standings_pages ?? 1;
  if (pages <= 1) return null;
  const at = Math.min(Math.max(1, page), pages);
  return { page: at, pages, previous: at > 1 ? at - 1 : null, next: at < pages ? at + 1 : null };
}

/** What to announce when `next` replaces `before`: only the viewer's own rank moving. */
export function rankNews(before, next, me) {
  const was = myRank(before, me);
  const now = myRank(next, me);
  if (now === null || was === null || now === was) return null;
  return t("tournament.rank-changed", { rank: now, players: next.standings_total ?? next.standings.length });
}

/** The buttons the viewer gets on `tour`: join (with the entry code's field when private;
 * a running league's for its next season), withdraw, pause or resume (arena), start early
 * (its creator, before the start); `login` when only logging in would let them join. */
export function actions(tour, loggedIn) {
  const me = tour.me;
  const open = tour.status !== "finished";
  const lateForRounds = !["arena", "league"].includes(tour.kind) && tour.status === "started";
  const inIt = Boolean(me?.joined) && !me?.withdrawn;
  return {
    login: !loggedIn && open && !lateForRounds,
    join: loggedIn && open && !inIt && !lateForRounds,
    code: loggedIn && open && !inIt && Boolean(tour.private),
    withdraw: loggedIn && open && inIt,
    pause: loggedIn && tour.kind === "arena" && tour.status === "started" && inIt,
    paused: Boolean(me?.paused),
    start: loggedIn && tour.status === "created" && Boolean(me?.creator),
    nextSeason: tour.kind === "league" && tour.status === "started",
  };
}

const whole = (text) => (/^\s*-?\d+\s*$/.test(String(text)) ? Number(text) : NaN);
const within = (n, lo, hi) => Number.isInteger(n) && n >= lo && n <= hi;

/** The creation form's `values` checked: `{body}` to send, or `{errors}` by field (each
 * the key of its words). The server checks again and has the last word. */
export function checkForm(values) {
  const errors = {};
  const name = String(values.name ?? "").trim();
  if (name.length < 1 || [...name].length > 60) errors.name = "tournament.bad.name";
  if (!KINDS.includes(values.kind)) errors.kind = "tournament.bad.kind";
  const minutes = whole(values.minutes);
  const increment = whole(values.increment);
  if (!within(minutes, 1, 180) || !within(increment, 0, 60)) errors.clock = "tournament.bad.clock";
  // The ratings compare like with like: rated events are played on the standard board.
  if (values.rated && (values.size !== "8x8" || values.opening !== "center-or-corner")) errors.rated = "tournament.bad.rated";
  const startsIn = whole(values.startsIn);
  if (!within(startsIn, 0, 7 * 24 * 60)) errors.starts_in_s = "tournament.bad.starts_in_s";
  const body = {
    kind: values.kind, name, clock: { minutes, increment }, size: values.size, opening: values.opening,
    rated: Boolean(values.rated), starts_in_s: startsIn * 60,
  };
  if (values.kind === "arena") {
    body.minutes = whole(values.arenaMinutes);
    if (!within(body.minutes, 10, 720)) errors.minutes = "tournament.bad.minutes";
  } else if (values.kind === "swiss") {
    body.rounds = whole(values.rounds);
    if (!within(body.rounds, 1, 15)) errors.rounds = "tournament.bad.rounds";
  } else {
    body.double = Boolean(values.double);
  }
  const code = String(values.entryCode ?? "").trim();
  if (code) body.entry_code = code;
  return Object.keys(errors).length ? { errors } : { body };
}

/** The form field a server's `field` names (the clock's parts are one field on the page). */
export const formField = (field) => (field?.startsWith("clock") ? "clock" : field ?? null);

/** The codes that only say a value was refused: the field it names says more. */
const GENERIC = ["bad_field", "bad_request"];

/** A refusal from the server (`{code, field}`) in words: the tournament's own wording of
 * the code, else the site's, else what the field needs, else the server's failure. */
export function refusalText(e) {
  const field = formField(e.field);
  if (e.code && has(`tournament.error.${e.code}`)) return t(`tournament.error.${e.code}`);
  if (e.code && has(`error.${e.code}`) && !GENERIC.includes(e.code)) return t(`error.${e.code}`);
  if (field && has(`tournament.bad.${field}`)) return t(`tournament.bad.${field}`);
  return t(e.code && has(`error.${e.code}`) ? `error.${e.code}` : "error.internal");
}
