// The tournament pages' views: the list `/tournaments` (three sections and the creation
// form) and one tournament `/tournaments/{id}` (its header, countdown, buttons, standings
// table, games being played, byes, podium). They draw what tournaments-state.js makes of
// the server's answers; what the player does goes to the handlers tournaments.js gives.

import { h } from "./dom.js";
import { language, sizeText, t } from "./i18n.js";
import { sizeChoices } from "./start-state.js";
import { FORM_DEFAULTS, KINDS, actions, clockOf, countdownWords, gamesFor, groupName, groupsOf, hasTiebreaks, pager, pairings, playersText, relativeText, sections, standingsRows, titleOf } from "./tournaments-state.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** A small flame, drawn (emoji fonts are not on every system); hidden from screen readers. */
const flameIcon = () => svg("svg", { viewBox: "0 0 16 16", class: "icon flame-icon", "aria-hidden": "true" },
  svg("path", { d: "M8 1c.6 2.6 4 4.2 4 8.2a4 4 0 0 1-8 .1c0-1.8 1-3.1 2-3.9-.1 1.4.3 2.4 1.1 2.9C7.3 6.2 6.9 3.5 8 1z" }));

/** A cup in the colour of place `place` (1-3), drawn; its words are the caller's. */
export const trophyIcon = (place) => svg("svg", { viewBox: "0 0 16 16", class: `icon trophy-icon cup-${place}`, "aria-hidden": "true" },
  svg("path", { d: "M4 2h8v1h2.5v1.5c0 1.9-1.4 3.3-3.2 3.5A4 4 0 0 1 9 10.6V12h2v2H5v-2h2v-1.4A4 4 0 0 1 4.7 8C2.9 7.8 1.5 6.4 1.5 4.5V3H4zm0 2.5H3c0 1 .5 1.8 1.2 2A5 5 0 0 1 4 5zm8 0V5a5 5 0 0 1-.2 1.5c.7-.2 1.2-1 1.2-2z" }));

/** A moment in the viewer's own time: "14:30", or "Tue 9 Dec, 14:30" when not today. */
function whenText(at) {
  const d = new Date(at);
  const today = d.toDateString() === new Date().toDateString();
  const options = today ? { hour: "numeric", minute: "2-digit" } : { weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit" };
  return d.toLocaleString(language(), options);
}

/** "Arena · 3+2 · 8 × 8 · Rated" of a tournament. */
export const factsText = (s) => [t(`tournament.kind.${s.kind}`), clockOf(s), sizeText(s.size), t(s.rated ? "tournament.rated" : "tournament.casual")].join(" · ");

/** A row of the list: name, marks, facts, players and the start (or the winner). */
function summaryItem(s, section, now) {
  let when;
  if (section === "finished") {
    when = s.winner ? h("span", { "data-winner": s.winner }, t("tournament.winner", { name: s.winner })) : h("span", {}, t("tournament.countdown.finished"));
  } else if (section === "upcoming") {
    when = h("span", {}, h("time", { datetime: new Date(s.starts_at).toISOString() }, whenText(s.starts_at)), " · ",
      h("span", { "data-relative": String(s.starts_at) }, relativeText(s.starts_at, now)));
  } else {
    when = s.ends_at ? h("span", {}, t("tournament.ends-at", { time: whenText(s.ends_at) })) : h("span", {}, t("tournament.started-at", { time: whenText(s.starts_at) }));
  }
  return h("li", { class: s.by_site ? "by-site" : null, "data-tournament": s.id, "data-section": section },
    h("span", { class: "tour-name" },
      h("a", { href: `/tournaments/${encodeURIComponent(s.id)}`, "data-tournament-link": s.id }, titleOf(s)),
      s.by_site ? h("small", { class: "badge site", "data-by-site": "" }, t("tournament.by-site")) : "",
      s.private ? h("small", { class: "badge", "data-private": "" }, t("tournament.private")) : ""),
    h("small", { class: "tour-facts" }, factsText(s), " · ", h("span", { "data-players": String(s.players) }, playersText(s.players))),
    h("small", { class: "tour-when" }, when));
}

/** The list's sections drawn into `slots` (by section name). */
export function drawList(slots, list, now) {
  for (const [name, items] of sections(list)) {
    slots[name].replaceChildren(...(items.length ? items.map((s) => summaryItem(s, name, now)) : [h("li", { class: "muted" }, t(`tournament.none.${name}`))]));
  }
}

/** Updates the "in 12 min" of the upcoming tournaments to server time `now`. */
export function tickList(root, now) {
  for (const e of root.querySelectorAll("[data-relative]")) e.textContent = relativeText(Number(e.dataset.relative), now);
}

/** A labelled input with its error line; `attrs` go to the input. */
function field(name, label, attrs, help = null) {
  const { tag = "input", options = [], ...rest } = attrs;
  const error = h("span", { class: "field-error", id: `tour-${name}-error`, "data-field-error": name });
  const input = h(tag, { ...rest, id: `tour-${name}`, name, "data-field": name, "aria-describedby": `tour-${name}-error` }, ...options);
  return h("div", { class: "tour-field", "data-field-wrap": name },
    h("label", { for: `tour-${name}` }, label), help ? h("small", { class: "muted" }, help) : "", input, error);
}

const option = ([value, text], current) => h("option", { value, selected: value === current }, text);

/** The creation form: `{form, read, showErrors, notice}`; `read` gives its values. */
export function createForm() {
  const d = FORM_DEFAULTS;
  const kinds = h("fieldset", { class: "chips", "data-field": "kind" },
    h("legend", {}, t("tournament.form.kind")),
    h("div", { class: "chip-row" }, KINDS.map((k) => h("label", { class: "chip" },
      h("input", { type: "radio", name: "kind", value: k, checked: k === d.kind }), h("span", {}, t(`tournament.kind.${k}`))))));
  const clockError = h("span", { class: "field-error", id: "tour-clock-error", "data-field-error": "clock" });
  const number = (name, value, min, max) => ({ type: "number", inputmode: "numeric", min, max, value, "aria-describedby": "tour-clock-error", "data-field": name });
  const clock = h("fieldset", { class: "tour-clock", "data-field-wrap": "clock" },
    h("legend", {}, t("tournament.form.clock")),
    h("label", {}, t("tournament.form.minutes"), " ", h("input", { ...number("minutes", d.minutes, 1, 180), name: "minutes" })),
    h("label", {}, t("tournament.form.increment"), " ", h("input", { ...number("increment", d.increment, 0, 60), name: "increment" })),
    clockError);
  const sizes = sizeChoices("").slice(1);
  const openings = [["center-or-corner", t("opening.center-or-corner")], ["center", t("opening.center")]];
  const perKind = {
    arena: field("minutes-arena", t("tournament.form.arena-minutes"), { type: "number", inputmode: "numeric", min: 10, max: 720, value: d.arenaMinutes }),
    swiss: field("rounds", t("tournament.form.rounds"), { type: "number", inputmode: "numeric", min: 1, max: 15, value: d.rounds }),
    "round-robin": h("label", { class: "check", "data-field-wrap": "double" }, h("input", { type: "checkbox", name: "double", "data-field": "double" }), t("tournament.form.double")),
  };
  const notice = h("p", { class: "notice", role: "status", "data-form-notice": "" });
  const form = h("form", { class: "card tour-form", "data-create-form": "", novalidate: true, "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, t("tournament.create")),
    field("name", t("tournament.form.name"), { type: "text", maxlength: 60, autocomplete: "off", value: d.name }),
    kinds, clock,
    field("size", t("start.size"), { tag: "select", options: sizes.map((s) => option(s, d.size)) }),
    field("opening", t("start.opening"), { tag: "select", options: openings.map((o) => option(o, d.opening)) }),
    h("div", { "data-field-wrap": "rated" },
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated", "data-field": "rated", checked: d.rated, "aria-describedby": "tour-rated-error" }), t("tournament.form.rated")),
      h("span", { class: "field-error", id: "tour-rated-error", "data-field-error": "rated" })),
    field("starts_in_s", t("tournament.form.starts-in"), { type: "number", inputmode: "numeric", min: 0, value: d.startsIn }),
    perKind.arena, perKind.swiss, perKind["round-robin"],
    field("entry_code", t("tournament.form.entry-code"), { type: "text", maxlength: 40, autocomplete: "off" }, t("tournament.form.entry-code-help")),
    h("button", { type: "submit", class: "primary", "data-create": "" }, t("tournament.create-button")),
    notice);
  const kindNow = () => form.querySelector("input[name=kind]:checked")?.value ?? d.kind;
  const showKind = () => {
    for (const [k, el] of Object.entries(perKind)) el.hidden = k !== kindNow();
  };
  kinds.addEventListener("change", showKind);
  showKind();
  const value = (name) => form.querySelector(`[data-field='${name}']`);
  const read = () => ({
    name: value("name").value, kind: kindNow(), minutes: value("minutes").value, increment: value("increment").value,
    size: value("size").value, opening: value("opening").value, rated: value("rated").checked,
    startsIn: value("starts_in_s").value, arenaMinutes: value("minutes-arena").value, rounds: value("rounds").value,
    double: value("double").checked, entryCode: value("entry_code").value,
  });
  /** Shows `errors` (field → words) beside their fields; the first one's field takes the focus. */
  const showErrors = (errors) => {
    for (const e of form.querySelectorAll("[data-field-error]")) e.textContent = "";
    for (const e of form.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
    let first = null;
    for (const [name, words] of Object.entries(errors)) {
      const slot = form.querySelector(`[data-field-error='${name === "minutes" ? "minutes-arena" : name}']`);
      // A field of another kind is hidden: its refusal reads under the button instead.
      if (!slot || slot.closest("[hidden]")) continue;
      slot.textContent = words;
      const input = slot.closest("[data-field-wrap]")?.querySelector("input, select");
      input?.setAttribute("aria-invalid", "true");
      first ??= input;
    }
    first?.focus();
    return Boolean(first);
  };
  return { form, read, showErrors, notice };
}

/** The list screen's elements: `{root, slots, form}` (`form` null when logged out). */
export function listPage(loggedIn) {
  const slots = {};
  const parts = sections({}).map(([name]) => {
    slots[name] = h("ul", { class: "game-list tour-list", "data-list": name }, h("li", { class: "muted" }, t("lobby.loading")));
    return h("section", { class: "card", "aria-labelledby": `tour-${name}-title` },
      h("h2", { id: `tour-${name}-title` }, t(`tournament.section.${name}`)), slots[name]);
  });
  const form = loggedIn ? createForm() : null;
  const root = h("div", { class: "tournaments", "data-tournaments": "" },
    h("h1", {}, t("tournament.title")),
    h("p", { class: "lead" }, t("tournament.lead")),
    h("div", { class: "tour-columns" },
      h("div", { class: "tour-sections" }, ...parts),
      form ? form.form : h("section", { class: "card", "data-create-login": "" },
        h("h2", {}, t("tournament.create")),
        h("p", {}, t("tournament.create-login")),
        h("a", { href: "/account", class: "button primary" }, t("account.login")))));
  return { root, slots, form };
}

/** An arrow up or down, drawn; its words are the caller's. */
const arrowIcon = (way) => svg("svg", { viewBox: "0 0 16 16", class: `icon arrow-icon ${way}`, "aria-hidden": "true" },
  svg("path", { d: way === "up" ? "M8 2l6 7h-4v5H6V9H2z" : "M8 14l6-7h-4V2H6v5H2z" }));

/** The small marks of a standings row: moving up or down (league), on fire, paused,
 * withdrawn. */
function marks(row) {
  return [
    row.movement ? h("span", { class: `movement ${row.movement}`, title: t(`tournament.move.${row.movement}`), "data-movement": row.movement },
      arrowIcon(row.movement), h("span", { class: "visually-hidden" }, t(`tournament.move.${row.movement}`))) : "",
    row.onFire ? h("span", { class: "flame", title: t("tournament.on-fire"), "data-on-fire": "" }, flameIcon(), h("span", { class: "visually-hidden" }, t("tournament.on-fire"))) : "",
    row.paused ? h("small", { class: "badge", "data-paused": "" }, t("tournament.paused")) : "",
    row.withdrawn ? h("small", { class: "badge", "data-withdrawn": "" }, t("tournament.withdrawn")) : "",
  ];
}

/** A row's results as small marks, with their words for screen readers. */
function resultMarks(results) {
  const key = (r) => (r === "." ? "playing" : r);
  return h("span", { class: "results", "data-results": results.join("") },
    h("span", { "aria-hidden": "true" }, ...results.map((r) => h("span", { class: `mark mark-${key(r)}` }, t(`tournament.mark.${key(r)}`)))),
    h("span", { class: "visually-hidden" }, results.map((r) => t(`tournament.result.${key(r)}`)).join(", ")));
}

/** The standings of `tour` for viewer `me`: one table, or a league's one per group. */
function standingsTable(tour, me) {
  const rows = standingsRows(tour, me);
  if (tour.kind !== "league" || !rows.length) {
    const caption = t(`tournament.scoring.${tour.kind === "arena" || tour.kind === "swiss" ? tour.kind : "round-robin"}`);
    return scrolling(table(tour, rows, caption), "standings-title");
  }
  return h("div", { class: "league-groups", "data-groups": "" },
    h("p", { class: "muted" }, t("tournament.scoring.league")),
    ...groupsOf(rows).map((g) => {
      const id = `group-${g.division}-${g.group}`;
      return h("section", { class: "league-group", "aria-labelledby": id, "data-group": `${g.division}-${g.group}` },
        h("h3", { id }, groupName(g)), scrolling(table(tour, g.rows, groupName(g), true), id));
    }));
}

/** A region of its own, reachable by keyboard, so a table wider than a phone scrolls. */
const scrolling = (inner, labelledBy) => h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": labelledBy }, inner);

/** One standings table of `rows` under `caption` (for screen readers alone when a heading
 * above says it already). */
function table(tour, rows, caption, captionHidden = false) {
  const tiebreaks = hasTiebreaks(tour);
  const col = (text, cls = null, title = null) => h("th", { scope: "col", class: cls }, title ? h("abbr", { title }, text) : text);
  const head = h("tr", {}, col(t("tournament.col.rank")), col(t("tournament.col.player")), col(t("tournament.col.score")),
    col(t("tournament.col.games"), "optional"),
    ...(tiebreaks ? [col(t("tournament.col.buchholz-short"), null, t("tournament.col.buchholz")), col(t("tournament.col.sb-short"), null, t("tournament.col.sb"))] : [col(t("tournament.col.performance"), "optional")]),
    col(t("tournament.col.results"), "optional"));
  const gap = h("tr", { class: "gap", "data-gap": "" }, h("td", { colspan: tiebreaks ? 7 : 6 }, h("span", { "aria-hidden": "true" }, "…"),
    h("span", { class: "visually-hidden" }, t("tournament.lines-between"))));
  const body = rows.flatMap((r) => [r.gap ? gap : null, h("tr", { class: [r.mine ? "mine" : "", r.withdrawn ? "withdrawn" : "", r.movement ?? ""].join(" ").trim() || null, "data-standing": r.name, "data-rank": String(r.rank) },
    h("td", {}, String(r.rank)),
    h("th", { scope: "row" }, h("a", { href: `/@/${encodeURIComponent(r.name)}` }, r.name), r.rating ? h("small", { class: "muted" }, ` ${Math.round(r.rating)}`) : "", ...marks(r)),
    h("td", { "data-score": String(r.score) }, String(r.score)),
    h("td", { class: "optional" }, String(r.games)),
    ...(tiebreaks
      ? [h("td", { "data-buchholz": String(r.buchholz ?? "") }, r.buchholz ?? "–"), h("td", { "data-sb": String(r.sb ?? "") }, r.sb ?? "–")]
      : [h("td", { class: "optional" }, r.performance ?? "–")]),
    h("td", { class: "optional" }, resultMarks(r.results)))].filter(Boolean));
  return h("table", { class: "standings", "data-standings": "" },
    h("caption", { class: captionHidden ? "visually-hidden" : null }, caption),
    h("thead", {}, head),
    h("tbody", {}, ...(body.length ? body : [h("tr", {}, h("td", { colspan: tiebreaks ? 7 : 6, class: "empty" }, t("tournament.no-players")))])));
}

/** Who plays a running league from its next season. */
function nextSeason(tour) {
  const names = tour.waiting ?? [];
  if (tour.kind !== "league" || !names.length) return "";
  return h("p", { class: "muted", "data-next-season": "" }, t("tournament.next-season", { names: names.join(", ") }));
}

/** The pager under the standings of `tour` at page `page`, or "" for a table of one page;
 * `go(n)` shows page n. */
function pagerNav(tour, page, go) {
  const p = pager(tour, page);
  if (!p) return "";
  const button = (to, label, name) => {
    const b = h("button", { type: "button", "data-standings-page": name, disabled: to === null }, label);
    if (to !== null) b.addEventListener("click", () => go(to));
    return b;
  };
  return h("nav", { class: "pager", "aria-label": t("tournament.standings"), "data-pager": "" },
    button(p.previous, t("tournament.page-previous"), "previous"),
    h("span", { "data-page": String(p.page) }, t("tournament.page", { page: p.page, pages: p.pages })),
    button(p.next, t("tournament.page-next"), "next"));
}

/** The games being played and the byes of `tour`. */
function gamesSection(tour, me) {
  const games = gamesFor(tour, me);
  // An arena's "rounds" are its pairing waves: no round a player would look for.
  const round = (g) => (g.round && tour.kind !== "arena" ? h("small", {}, t("tournament.round", { round: g.round })) : "");
  const list = h("ul", { class: "game-list", "data-pairings": "" },
    ...(games.length
      ? games.map((g) => h("li", { "data-pairing": g.id },
        h("span", {}, t("live.versus", { black: g.black, white: g.white }), round(g)),
        h("a", { href: `/game/${g.id}`, class: "button", "data-watch": g.id }, t("live.watch"))))
      : [h("li", { class: "muted" }, t("tournament.no-games"))]));
  const byes = tour.byes ?? [];
  return h("section", { class: "card", "aria-labelledby": "pairings-title" },
    h("h2", { id: "pairings-title" }, t("tournament.pairings")), list,
    byes.length ? h("div", { "data-byes": "" }, h("h3", {}, t("tournament.byes")),
      h("ul", {}, ...byes.map((b) => h("li", { "data-bye": b.name }, t("tournament.bye", { round: b.round, name: b.name }))))) : "");
}

/** The winners' podium of a finished `tour`. */
function podium(tour) {
  const places = (tour.podium ?? []).slice(0, 3);
  if (tour.status !== "finished" || !places.length) return "";
  return h("section", { class: "card podium", "aria-labelledby": "podium-title", "data-podium": "" },
    h("h2", { id: "podium-title" }, t("tournament.podium")),
    h("ol", {}, ...places.map((name, i) => h("li", { class: `place-${i + 1}`, "data-place": String(i + 1) },
      trophyIcon(i + 1), h("span", { class: "place" }, t(`tournament.place.${i + 1}`)), " ",
      h("a", { href: `/@/${encodeURIComponent(name)}` }, name)))));
}

/** One tournament's screen in `app`; `on` holds the handlers onJoin(code), onWithdraw,
 * onPause, onStart, onPage(n). */
export class TournamentView {
  constructor(app, on) {
    this.on = on;
    this.heading = h("h1", { tabindex: "-1", "data-tournament-name": "" });
    this.facts = h("p", { class: "lead", "data-facts": "" });
    this.countdown = h("p", { class: "countdown", "data-countdown": "" });
    this.buttons = h("div", { class: "actions tour-actions" });
    this.notice = h("p", { class: "notice", role: "status", "data-tour-notice": "" });
    this.link = h("p", { class: "notice link-lost", "data-link-lost": "", hidden: true }, t("tournament.reconnecting"));
    this.body = h("div", { class: "tour-body" });
    // Made once: a code being typed survives the redraws the socket brings.
    this.code = h("input", { type: "text", "data-entry-code": "", id: "entry-code", autocomplete: "off" });
    app.replaceChildren(h("div", { class: "tournament", "data-tournament-page": "" },
      h("p", {}, h("a", { href: "/tournaments", "data-back": "" }, t("tournament.all"))),
      this.heading, this.facts, this.countdown, this.link, this.buttons, this.notice, this.body));
  }

  /** Draws `tour` for viewer `me` (or null), at server time `now`, its standings at page
   * `page`; `loggedIn` decides the buttons. The focus stays on the button that had it. */
  draw(tour, me, now, loggedIn, page = 1) {
    document.title = `${titleOf(tour)} · Kōnane`;
    this.heading.textContent = titleOf(tour);
    const by = tour.by_site ? t("tournament.by-site") : tour.created_by ? t("tournament.created-by", { name: tour.created_by }) : "";
    this.facts.replaceChildren(factsText(tour), " · ", h("span", { "data-status": tour.status }, t(`tournament.status.${tour.status}`)),
      by ? ` · ${by}` : "", tour.private ? ` · ${t("tournament.private")}` : "");
    this.tick(tour, now);
    this.drawButtons(tour, loggedIn);
    const mine = tour.me;
    const inGame = Boolean(mine?.game) && pairings(tour).some((g) => g.id === mine.game);
    const waiting = tour.kind === "arena" && tour.status === "started" && mine?.joined && !mine.withdrawn && !mine.paused && !inGame;
    let playing = "";
    if (mine?.waiting) playing = h("p", { class: "notice your-game", "data-season-waiting": "" }, t("tournament.season-waiting"));
    else if (inGame) playing = h("p", { class: "notice your-game" }, h("a", { href: `/game/${mine.game}`, class: "button primary", "data-my-game": mine.game }, t(tour.kind === "league" ? "tournament.your-games" : "tournament.your-game")));
    else if (waiting) playing = h("p", { class: "notice your-game", "data-waiting": "" }, t("tournament.waiting"));
    const paging = document.activeElement?.dataset?.standingsPage ?? null;
    this.body.replaceChildren(podium(tour), playing,
      h("div", { class: "tour-standings" }, h("h2", { id: "standings-title" }, t("tournament.standings")), standingsTable(tour, me),
        pagerNav(tour, page, (n) => this.on.onPage(n)), nextSeason(tour)),
      gamesSection(tour, me));
    if (paging) this.body.querySelector(`[data-standings-page='${paging}']:not([disabled])`)?.focus();
  }

  /** The countdown at server time `now`. */
  tick(tour, now) {
    this.countdown.textContent = countdownWords(tour, now);
  }

  /** The socket's link: a line says so while it is down. */
  linked(up) {
    this.link.hidden = up;
  }

  drawButtons(tour, loggedIn) {
    const a = actions(tour, loggedIn);
    // Redrawn only when they change, so a focused button or a code being typed stays.
    const key = JSON.stringify(a);
    if (key === this.shownActions) return;
    this.shownActions = key;
    const focused = document.activeElement?.dataset?.tourAction ?? null;
    const button = (name, label, cls = null) => h("button", { type: "button", class: cls, "data-tour-action": name }, label);
    const items = [];
    const code = this.code;
    if (a.login) items.push(h("a", { href: "/account", class: "button primary", "data-tour-login": "" }, t("tournament.login-to-join")));
    if (a.code) items.push(h("label", { for: "entry-code" }, t("tournament.form.entry-code")), code);
    if (a.join) items.push(button("join", t(a.nextSeason ? "tournament.join-next" : "tournament.join"), "primary"));
    if (a.pause) items.push(button("pause", t(a.paused ? "tournament.resume" : "tournament.pause")));
    if (a.withdraw) items.push(button("withdraw", t("tournament.withdraw")));
    if (a.start) items.push(button("start", t("tournament.start-early")));
    this.buttons.replaceChildren(...items);
    const handlers = { join: () => this.on.onJoin(code.value.trim()), pause: this.on.onPause, withdraw: this.on.onWithdraw, start: this.on.onStart };
    for (const b of this.buttons.querySelectorAll("[data-tour-action]")) b.addEventListener("click", () => handlers[b.dataset.tourAction]());
    if (focused) this.buttons.querySelector(`[data-tour-action='${focused}']`)?.focus();
  }

  /** Says `words` in the notice line (empty clears it). */
  say(words) {
    this.notice.textContent = words;
  }
}
