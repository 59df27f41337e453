// The game screen's view: the board between its two players (names, clocks), the move
// list, the status, the invitation, the end of the game, the confirmations, the buttons.
// `GameView` builds them once and draws a state of game-state.js into them; what the
// player does goes to the handlers game.js gives it.

import { Board } from "./board.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { MoveList, moveNumber, showingText } from "./movelist.js";
import { PlayerStrip, playerName } from "./players.js";
import { claimable, clockLeft, clockRuns, flipped, legalActions, mySide, myTurn, playing, shown, statusKind } from "./game-state.js";
import { titleOf } from "./tournaments-state.js";
import { colorName, endText, instruction, opponentOf } from "./words.js";

/** How long a notice stays. */
const NOTICE_MS = 5000;
/** How long the invitation's copy button says it copied. */
const COPIED_MS = 2500;

/** The status line's words for state `s`. */
function statusText(s) {
  const game = s.game;
  if (game.status === "waiting") return t("status.waiting");
  if (game.status === "finished") return t("status.over");
  if (game.players[game.turn].engine) return s.computerStuck ? t("computer.failed") : t("status.engine", { color: colorName(game.turn) });
  if (myTurn(s)) return s.seats.length === 1 ? t("status.yours", { instruction: instruction(game) }) : instruction(game);
  return t(s.seats.length ? "status.opponent" : "status.watching", { color: colorName(game.turn) });
}

/** Whom the viewer plays, or that they watch: "You play White against Ana", and the role
 * ("black", "white", "watching", or "" when they play both). */
function youPlay(s) {
  const game = s.game;
  const me = mySide(s);
  if (me) {
    const waitingFor = game.challenge ? t("challenge.waiting", { name: game.challenge }) : t("you.waiting", { color: colorName(me) });
    const other = opponentOf(me);
    const text = game.status === "waiting" ? waitingFor : t("you.against", { color: colorName(me), opponent: playerName(game.players[other], other) });
    return { text, role: me };
  }
  if (s.seats.length) return { text: "", role: "" };
  const who = { black: playerName(game.players.black, "black"), white: playerName(game.players.white, "white") };
  if (s.cameByLink && game.result?.reason === "aborted" && game.ply === 0) return { text: t("you.link-cancelled"), role: "watching" };
  return { text: s.cameByLink ? t("you.link-used", who) : t("you.watching", who), role: "watching" };
}

const button = (label, attrs, handler) => h("button", { type: "button", ...attrs, onclick: handler }, label);

/** The game screen's elements for game `id` in `app`; `on` holds the handlers: onSquare,
 * onDrop, onEscape, onStep(delta), onPick(ply), onTyped(text), onTyping(open), onFlip,
 * onTakeback, onAsk(what), onAnswer(yes), onClaim, onCopyRecord, onRematch. */
export class GameView {
  constructor(app, id, on) {
    this.id = id;
    this.on = on;
    this.noticeTimer = null;
    this.host = h("div", { class: "board-host" });
    this.strips = { top: new PlayerStrip("top"), bottom: new PlayerStrip("bottom") };
    this.status = h("p", { class: "status", "data-status": "" });
    this.youPlay = h("p", { class: "you-play", "data-you-play": "" });
    this.notice = h("p", { class: "notice", "data-notice": "", role: "status" });
    this.confirmBox = h("div", { class: "confirm", "data-confirm": "", hidden: true });
    this.invite = h("div", { class: "invite", "data-invite-box": "", hidden: true });
    this.moveList = new MoveList((ply) => on.onPick(ply));
    this.end = h("div", { class: "end", "data-end": "", hidden: true });
    this.link = h("p", { class: "link", "data-link": "", role: "status" });
    this.tournament = h("p", { class: "in-tournament", "data-in-tournament": "", hidden: true });
    this.command = h("input", { type: "text", id: `command-${id}`, "data-command": "", autocomplete: "off", spellcheck: "false", placeholder: "c4-e4", "aria-describedby": "command-help" });
    this.commandForm = h("form", { class: "command", id: "command-form", hidden: true, onsubmit: (e) => { e.preventDefault(); on.onTyped(this.command.value); } },
      h("label", { for: `command-${id}` }, t("game.command")), this.command,
      h("button", { type: "submit" }, t("game.command-go")),
      h("small", { id: "command-help" }, t("game.command-help")));
    this.command.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        on.onTyping(false);
      }
    });
    this.typeToggle = button(t("game.command-toggle"), { class: "type-toggle", "data-command-toggle": "", "aria-expanded": "false", "aria-controls": "command-form" }, () => on.onTyping(null));
    const nav = h("div", { class: "nav" },
      button("«", { "aria-label": t("nav.first"), title: t("nav.first"), "data-nav": "first" }, () => on.onStep(-Infinity)),
      button("‹", { "aria-label": t("nav.back"), title: t("nav.back"), "data-nav": "back" }, () => on.onStep(-1)),
      button("›", { "aria-label": t("nav.forward"), title: t("nav.forward"), "data-nav": "forward" }, () => on.onStep(1)),
      button("»", { "aria-label": t("nav.last"), title: t("nav.last"), "data-nav": "last" }, () => on.onStep(Infinity)),
      this.typeToggle);
    this.actions = h("div", { class: "actions" },
      button(t("act.flip"), { "data-act": "flip" }, () => on.onFlip()),
      button(t("act.takeback"), { "data-act": "takeback" }, () => on.onTakeback()),
      button(t("act.resign"), { "data-act": "resign" }, () => on.onAsk("resign")),
      button(t("act.claim"), { "data-act": "claim", hidden: true }, () => on.onClaim()),
      button(t("act.copy"), { "data-act": "copy" }, () => on.onCopyRecord()),
      h("a", { href: `/api/games/${id}/record`, download: `konane-${id}.txt`, class: "button", "data-act": "download" }, t("act.download")));
    app.replaceChildren(h("div", { class: "game" },
      h("div", { class: "board-wrap" }, this.strips.top.el, this.host, this.strips.bottom.el),
      h("aside", { class: "panel" }, this.tournament, this.status, this.youPlay, this.notice, this.confirmBox, this.invite, this.end, this.moveList.el, nav, this.commandForm, this.actions, this.link)));
    this.board = new Board(this.host, { onSquare: on.onSquare, onDrop: on.onDrop, onEscape: on.onEscape });
  }

  /** A notice for a few seconds. */
  say(text) {
    this.notice.textContent = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.notice.textContent = ""; }, NOTICE_MS);
  }

  /** A notice that stays until the next one. */
  tell(text) {
    this.notice.textContent = text;
  }

  /** Whether the live socket is up. */
  linked(up) {
    this.link.textContent = up ? "" : t("game.reconnecting");
    this.link.dataset.link = up ? "up" : "down";
  }

  /** The game could not be opened: says so, with `why`, in place of the screen. */
  missing(app, why) {
    app.replaceChildren(h("div", { class: "start" }, h("h1", {}, t("game.not-found")), h("p", {}, why), h("a", { href: "/" }, t("end.new-game"))));
  }

  /** Moves `move`'s stone on the board from `position`. */
  animate(move, position) {
    this.board.animate(move, position);
  }

  /** The typed move, emptied. */
  clearCommand() {
    this.command.value = "";
  }

  /** Focus after the move box opened (`open`) or closed. */
  focusTyping(open) {
    (open ? this.command : this.typeToggle).focus();
  }

  /** Focus on the question's yes. */
  focusQuestion() {
    this.confirmBox.querySelector("[data-confirm-yes]")?.focus();
  }

  /** Focus back on the buttons once a question is answered. */
  focusActions() {
    this.actions.querySelector("[data-act=flip]").focus();
  }

  /** Draws state `s` at our time `now`. */
  draw(s, now) {
    const game = s.game;
    if (!game) return;
    const { ply, position, last } = shown(s);
    this.board.draw({ position, flipped: flipped(s), actions: legalActions(s), selected: s.selected, last });
    this.status.textContent = statusText(s) + (s.viewPly !== null ? ` ${showingText(s.viewPly, game.moves)}` : "");
    this.status.dataset.status = statusKind(s);
    const [top, bottom] = flipped(s) ? ["black", "white"] : ["white", "black"];
    const me = mySide(s);
    this.strips.top.draw(game, top, me === top);
    this.strips.bottom.draw(game, bottom, me === bottom);
    const you = youPlay(s);
    this.youPlay.hidden = !you.text;
    this.youPlay.textContent = you.text;
    this.youPlay.dataset.youPlay = you.role;
    this.drawTournament(game.tournament, game.clock);
    this.drawInvite(s);
    this.drawEnd(s);
    this.drawQuestion(s.asking);
    const canType = playing(s);
    this.typeToggle.hidden = !canType;
    this.typeToggle.setAttribute("aria-expanded", String(canType && s.typing));
    this.commandForm.hidden = !canType || !s.typing;
    this.moveList.draw(game.moves, ply);
    this.actions.querySelector("[data-act=takeback]").hidden = !playing(s) || game.mode !== "engine";
    this.actions.querySelector("[data-act=resign]").hidden = !playing(s) || Boolean(s.asking);
    this.drawClocks(s, now);
  }

  /** The clocks and the claim button at our time `now` (drawn ten times a second). */
  drawClocks(s, now) {
    for (const strip of Object.values(this.strips)) {
      const side = strip.el.dataset.side;
      strip.tick(clockLeft(s, side, now), clockRuns(s, side));
    }
    if (!s.game?.clock) return;
    this.actions.querySelector("[data-act=claim]").hidden = !claimable(s, now);
  }

  /** Asks on the page, not in a browser dialog, before an action that cannot be undone. */
  drawQuestion(what) {
    const box = this.confirmBox;
    box.hidden = !what;
    if (!what) {
      box.dataset.what = "";
      return;
    }
    // Drawn once per question: a move arriving meanwhile must not take the focus away.
    if (box.dataset.what === what) return;
    box.dataset.what = what;
    box.replaceChildren(
      h("p", { id: "confirm-question" }, t(`confirm.${what}`)),
      h("div", { class: "confirm-buttons", role: "group", "aria-labelledby": "confirm-question" },
        button(t(`confirm.${what}-yes`), { class: "primary", "data-confirm-yes": "" }, () => this.on.onAnswer(true)),
        button(t("confirm.no"), { "data-confirm-no": "" }, () => this.on.onAnswer(false))));
  }

  /** The tournament the game belongs to, linked (drawn once). */
  drawTournament(tournament, clock) {
    this.tournament.hidden = !tournament;
    if (!tournament || this.tournament.dataset.inTournament === tournament.id) return;
    this.tournament.dataset.inTournament = tournament.id;
    const games = clock ? { minutes: clock.initial_ms / 60000, increment: clock.increment_ms / 1000 } : null;
    this.tournament.replaceChildren(h("a", { href: `/tournaments/${tournament.id}` }, t("game.in-tournament", { name: titleOf(tournament, games) })));
  }

  drawInvite(s) {
    const invite = this.invite;
    invite.hidden = s.game.status !== "waiting" || !s.seats.length;
    if (s.game.status !== "waiting") invite.dataset.for = "";
    if (invite.hidden) return;
    if (invite.dataset.for === this.id) return; // drawn once: a redraw would lose the copy feedback
    invite.dataset.for = this.id;
    const url = `${location.origin}/game/${this.id}?join`;
    const field = h("textarea", { id: "invite-link", readonly: true, rows: 2, "data-invite": "", onfocus: (e) => e.target.select() });
    field.value = url;
    const copy = button(t("game.copy-link"), { class: "primary", "data-copy-link": "" }, async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = t("game.link-copied");
        copy.dataset.copied = "";
        // The button says it; a screen reader hears it once.
        announce(t("game.link-copied"));
        setTimeout(() => { copy.textContent = t("game.copy-link"); delete copy.dataset.copied; }, COPIED_MS);
      } catch {
        field.focus();
        this.say(t("game.link-select"));
      }
    });
    const share = typeof navigator.share === "function"
      ? button(t("game.share-link"), { "data-share-link": "" }, () => navigator.share({ title: "Kōnane", text: t("game.share-text"), url }).catch(() => {}))
      : null;
    invite.replaceChildren(
      h("label", { for: "invite-link" }, t("game.invite")), field,
      h("div", { class: "invite-buttons" }, copy, share, button(t("game.cancel-invite"), { "data-cancel-invite": "" }, () => this.on.onAsk("cancel"))));
  }

  drawEnd(s) {
    const game = s.game;
    this.end.hidden = game.status !== "finished";
    if (this.end.hidden) return;
    const aborted = game.result.reason === "aborted";
    const me = aborted ? null : mySide(s);
    const you = me ? t(me === game.result.winner ? "end.you-win" : "end.you-lose") : endText(game.result);
    const detail = `${me ? `${endText(game.result)} ` : ""}${t("end.moves", { count: moveNumber(game.ply) })}`;
    const rematch = () => this.on.onRematch();
    // A tournament's player goes back to it (their next game comes from there), not to a rematch.
    const next = game.tournament
      ? h("a", { href: `/tournaments/${game.tournament.id}`, class: "button primary", "data-back-to-tournament": "" }, t("end.back-to-tournament"))
      : aborted || !s.seats.length
      ? null
      : game.rematch
        ? h("a", { href: `/game/${game.rematch}`, onclick: (e) => { e.preventDefault(); rematch(); } }, t("end.rematch-waiting"))
        : button(t("act.rematch"), { class: "primary", "data-act": "rematch" }, rematch);
    this.end.replaceChildren(h("strong", { class: "end-title" }, you), h("p", {}, detail),
      h("p", { class: "end-buttons" }, next, h("a", { href: "/", class: "button" }, t("end.new-game")),
        game.ply ? h("a", { href: `/analysis?game=${this.id}`, class: "button", "data-analyse": "" }, t("end.analyse")) : null));
  }

  /** Stops the notice's timer. */
  stop() {
    clearTimeout(this.noticeTimer);
  }
}
