// A player's profile `/@/<name>`: ratings per category with their history drawn, the puzzle
// rating, the tournaments finished (trophies for the first three places), games won and lost
// by colour, and the archive of games with filters and pages. And the leaderboards `/players`.

import { sessionName } from "./account.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { language, sizeText, t } from "./i18n.js";
import { relationBar } from "./social.js";
import { titleOf } from "./tournaments-state.js";
import { trophyIcon } from "./tournaments-view.js";
import { errorText } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const CATEGORIES = ["bullet", "blitz", "rapid", "classical", "correspondence"];

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** A rating as players read it: "1523", or "1500?" while provisional. */
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

/** A day as the profile writes every date, "3 Dec", with the year when it is not this one
 * (or `withYear`), so the graph and the game list agree. */
function dayText(at, withYear = false) {
  const d = new Date(at);
  const year = withYear || d.getFullYear() !== new Date().getFullYear();
  return d.toLocaleDateString(language(), year ? { day: "numeric", month: "short", year: "numeric" } : { day: "numeric", month: "short" });
}

/** The dates under a rating graph: the first game's, the last's and, with enough games, the
 * middle one's, each under its point (`x` of its index); one date when all fall on one day. */
function dateTicks(points, x, y) {
  const thisYear = new Date().getFullYear();
  const years = new Set(points.map((p) => new Date(p.at).getFullYear()));
  const withYear = !(years.size === 1 && years.has(thisYear));
  const day = (i) => dayText(points[i - 1].at, withYear);
  const n = points.length;
  const picks = day(1) === day(n) ? [[n, "end"]] : [[1, "start"], ...(n >= 5 ? [[Math.ceil(n / 2), "middle"]] : []), [n, "end"]];
  return picks.filter(([i], k) => k === 0 || day(i) !== day(picks[k - 1][0]))
    .map(([i, anchor]) => svg("text", { x: x(i), y, class: "axis", "text-anchor": anchor, "data-graph-date": "" }, day(i)));
}

/** The rating after each rated game as a line, with the lowest and highest marked and the
 * dates of the games along the bottom. */
function graph(category, points) {
  const w = 320;
  const hgt = 138;
  const plot = 120;
  const pad = 28;
  const values = [1500, ...points.map((p) => p.rating)];
  const lo = Math.floor(Math.min(...values) / 50) * 50;
  const hi = Math.max(Math.ceil(Math.max(...values) / 50) * 50, lo + 50);
  const x = (i) => pad + (i * (w - pad - 6)) / Math.max(1, values.length - 1);
  const y = (v) => 6 + ((hi - v) * (plot - 18)) / (hi - lo);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = t("profile.graph", { category: t(`category.${category}`), games: points.length, rating: Math.round(values.at(-1)) });
  return svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "rating-graph", role: "img", "aria-label": label, "data-graph": category },
    svg("title", {}, label),
    svg("line", { x1: pad, y1: y(hi), x2: w, y2: y(hi), class: "grid" }),
    svg("line", { x1: pad, y1: y(lo), x2: w, y2: y(lo), class: "grid" }),
    svg("text", { x: 0, y: y(hi) + 4, class: "axis" }, String(hi)),
    svg("text", { x: 0, y: y(lo) + 4, class: "axis" }, String(lo)),
    ...dateTicks(points, x, hgt - 4),
    svg("polyline", { points: line, class: "curve" }),
    svg("circle", { cx: x(values.length - 1), cy: y(values.at(-1)), r: 3.5, class: "dot" }));
}

function opponentText(g) {
  if (g.opponent_level) return t("profile.engine", { level: g.opponent_level });
  return g.opponent ?? t("player.guest");
}

function gameRow(g) {
  const date = dayText(g.ended_at);
  const change = g.rating_before != null && g.rating_after != null ? Math.round(g.rating_after) - Math.round(g.rating_before) : null;
  const opponent = g.opponent_registered && g.opponent
    ? h("a", { href: `/@/${encodeURIComponent(g.opponent)}` }, g.opponent)
    : opponentText(g);
  return h("li", { class: `archive-game ${g.outcome}`, "data-archive-game": g.id },
    h("a", { href: `/game/${g.id}`, class: "result", "data-outcome": g.outcome }, t(`outcome.${g.outcome}`)),
    h("span", {}, t("profile.as", { color: t(`color.${g.color}`) }), " · ", t("profile.against"), " ", opponent),
    h("span", { class: "muted" }, [g.category ? t(`category.${g.category}`) : sizeText(g.size), t(g.rated ? "profile.rated" : "profile.casual"), t(`end.short.${g.reason}`), date].join(" · ")),
    change === null ? "" : h("b", { class: change >= 0 ? "gain" : "loss" }, change >= 0 ? `+${change}` : String(change)));
}

/** The tournaments a player finished, newest first, a trophy for places 1-3; nothing when
 * the server sends none. */
function tournamentsPlayed(list) {
  if (!Array.isArray(list) || !list.length) return "";
  return h("section", { class: "card tour-results", "aria-labelledby": "tour-results-title", "data-profile-tournaments": "" },
    h("h2", { id: "tour-results-title" }, t("tournament.title")),
    h("ol", {}, ...list.map((r) => h("li", { "data-profile-tournament": r.id, "data-rank": String(r.rank) },
      r.rank >= 1 && r.rank <= 3 ? h("span", { class: "trophy", title: t(`tournament.place.${r.rank}`), "data-trophy": String(r.rank) },
        trophyIcon(r.rank), h("span", { class: "visually-hidden" }, t(`tournament.place.${r.rank}`))) : "",
      h("a", { href: `/tournaments/${encodeURIComponent(r.id)}` }, titleOf(r)), " ",
      h("span", { class: "muted" }, [t("tournament.rank-of", { rank: r.rank, players: r.players }), t(`tournament.kind.${r.kind}`), r.ended_at ? dayText(r.ended_at) : ""].filter(Boolean).join(" · "))))));
}

/** Shows a player's profile. */
export async function profileScreen(app, name, go) {
  document.title = `${name} · Kōnane`;
  let profile;
  try {
    profile = await api.player(name);
  } catch (e) {
    app.replaceChildren(h("div", { class: "start" }, h("h1", {}, name), h("p", { role: "alert" }, e.status === 404 ? t("profile.none") : errorText(e))));
    return null;
  }
  const played = CATEGORIES.filter((c) => profile.ratings[c]?.games > 0);
  const ratings = h("div", { class: "ratings" }, ...CATEGORIES.map((c) => {
    const r = profile.ratings[c];
    return h("section", { class: "card rating", "data-rating": c },
      h("h2", {}, t(`category.${c}`)),
      h("b", { class: "rating-value", "data-rating-value": "" }, ratingText(r.rating, r.provisional)),
      h("span", { class: "muted" }, t("profile.rated-games", { games: r.games })));
  }), h("section", { class: "card rating", "data-rating": "puzzles" },
    h("h2", {}, t("profile.puzzles")),
    h("b", { class: "rating-value", "data-rating-value": "" }, ratingText(profile.puzzles.rating, profile.puzzles.provisional)),
    h("span", { class: "muted" }, t("profile.puzzle-attempts", { attempts: profile.puzzles.attempts }))));
  // A graph for each category played in: the others have nothing to draw.
  const graphs = h("div", { class: "graphs" }, ...played.map((c) =>
    h("figure", { class: "card" }, h("figcaption", {}, t("profile.history", { category: t(`category.${c}`) })), graph(c, profile.ratings[c].history))));
  const tally = profile.tally;
  const counts = h("p", { class: "tally", "data-tally": "" },
    t("profile.tally", { games: tally.black_wins + tally.black_losses + tally.white_wins + tally.white_losses, wins: tally.black_wins + tally.white_wins, losses: tally.black_losses + tally.white_losses }), " · ",
    t("profile.by-color", { color: t("color.black"), wins: tally.black_wins, losses: tally.black_losses }), " · ",
    t("profile.by-color", { color: t("color.white"), wins: tally.white_wins, losses: tally.white_losses }));
  const choose = (key, values) => h("label", {}, t(`profile.filter.${key}`), " ",
    h("select", { "data-filter": key }, h("option", { value: "" }, t("profile.filter.all")), ...values.map(([v, text]) => h("option", { value: v }, text))));
  const filters = h("div", { class: "filters" },
    choose("rated", [["true", t("profile.rated")], ["false", t("profile.casual")]]),
    choose("category", CATEGORIES.map((c) => [c, t(`category.${c}`)])),
    choose("outcome", [["win", t("outcome.win")], ["loss", t("outcome.loss")]]),
    h("label", {}, t("profile.filter.opponent"), " ", h("input", { type: "search", "data-filter": "opponent", maxlength: 20, size: 10 })));
  const list = h("ol", { class: "archive", "data-archive": "" });
  const older = h("button", { type: "button", "data-page": "older" }, t("profile.older"));
  const newer = h("button", { type: "button", "data-page": "newer" }, t("profile.newer"));
  let page = 0;
  const show = async () => {
    const query = { page };
    for (const f of filters.querySelectorAll("[data-filter]")) if (f.value.trim()) query[f.dataset.filter] = f.value.trim();
    try {
      const r = await api.playerGames(profile.name, query);
      list.replaceChildren(...(r.games.length ? r.games.map(gameRow) : [h("li", { class: "muted" }, t("profile.no-games"))]));
      older.hidden = !r.more;
      newer.hidden = page === 0;
    } catch (e) {
      list.replaceChildren(h("li", { role: "alert" }, errorText(e)));
    }
  };
  filters.addEventListener("change", () => {
    page = 0;
    show();
  });
  older.addEventListener("click", () => {
    page++;
    show();
  });
  newer.addEventListener("click", () => {
    page = Math.max(0, page - 1);
    show();
  });
  // A logged-in visitor may challenge the player (never themselves).
  const me = await sessionName();
  const challenge = me && me.toLowerCase() !== profile.name.toLowerCase()
    ? h("a", { href: `/?challenge=${encodeURIComponent(profile.name)}`, class: "button primary", "data-challenge-link": "" }, t("challenge.button", { name: profile.name }))
    : "";
  // The challenge, follow and block side by side, for a logged-in visitor.
  const actions = challenge || profile.relation
    ? h("div", { class: "actions profile-actions" }, challenge, profile.relation ? relationBar(profile.name, profile.relation) : "")
    : "";
  app.replaceChildren(h("div", { class: "profile", "data-profile": profile.name },
    h("h1", {}, profile.name, " ", h("a", { href: "/players", class: "side-link" }, t("profile.leaderboards"))),
    actions,
    ratings,
    played.length ? graphs : h("p", { class: "muted" }, t("profile.new")),
    tournamentsPlayed(profile.tournaments),
    h("section", { class: "games", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, t("profile.games")), counts, filters, list,
      h("div", { class: "pages" }, newer, older,
        h("a", { href: `/api/players/${encodeURIComponent(profile.name)}/games.txt`, download: "", "data-export": "" }, t("profile.export"))))));
  await show();
  return null;
}

/** Shows the leaderboards, one per category. */
export async function leaderboardScreen(app) {
  document.title = `${t("leaderboard.title")} · Kōnane`;
  const boards = await Promise.all(CATEGORIES.map((c) => api.leaderboard(c).catch(() => null)));
  app.replaceChildren(h("div", { class: "leaderboards" },
    h("h1", {}, t("leaderboard.title")),
    h("p", { class: "lead" }, t("leaderboard.lead", { games: boards.find(Boolean)?.min_games ?? 10 })),
    h("div", { class: "ratings" }, ...boards.map((b, i) => h("section", { class: "card", "data-leaderboard": CATEGORIES[i] },
      h("h2", {}, t(`category.${CATEGORIES[i]}`)),
      b?.players.length
        ? h("ol", {}, ...b.players.map((p) => h("li", {}, h("a", { href: `/@/${encodeURIComponent(p.name)}` }, p.name), " ", h("b", {}, String(Math.round(p.rating))))))
        : h("p", { class: "muted" }, t("leaderboard.none")))))));
  return null;
}
