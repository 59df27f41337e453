// Quick pairing on the start screen: pick a time control, rated or casual, and wait for an
// opponent of similar rating; the page asks the server every second and cancels the seek
// when the player cancels, leaves the screen or closes the page.

import { api, remember } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { sessionName } from "./account.js";
import { accountError } from "./words.js";

/** The time controls offered, as minutes + seconds of increment. */
const CONTROLS = [[3, 2], [6, 0], [10, 5], [15, 10]];
/** The days a correspondence game may give for a move. */
const DAYS = [1, 2, 3, 5, 7];

/** The quick-pairing card and the function that withdraws its seek. */
export function pairingCard(go) {
  let seek = null;
  let timer = null;
  const status = h("p", { class: "notice", role: "status", "data-pairing-status": "" });
  const cancel = h("button", { type: "button", hidden: true, "data-pairing-cancel": "" }, t("pairing.cancel"));
  const rated = h("input", { type: "checkbox", "data-pairing-rated": "" });
  const ratedChoice = h("label", { class: "check", hidden: true }, rated, t("pairing.rated"));
  const days = h("select", { "data-pairing-days": "", "aria-label": t("pairing.days-label") },
    ...DAYS.map((d) => h("option", { value: d, selected: d === 3 }, t("pairing.days", { days: d }))));
  const buttons = [
    ...CONTROLS.map(([m, i]) => h("button", { type: "button", class: "control", "data-pairing": `${m}+${i}` }, `${m}+${i}`)),
    h("button", { type: "button", class: "control", "data-pairing": "days" }, t("pairing.correspondence")),
  ];
  const card = h("section", { class: "card pairing", "aria-labelledby": "pairing-title" },
    h("h2", { id: "pairing-title" }, t("pairing.title")),
    h("div", { class: "controls" }, ...buttons, days),
    ratedChoice, status, cancel);
  sessionName().then((name) => {
    ratedChoice.hidden = !name;
  });

  const withdraw = () => {
    clearTimeout(timer);
    if (seek) {
      // keepalive: the request still goes when the page is closing.
      fetch(`/api/seeks/${seek}`, { method: "DELETE", keepalive: true }).catch(() => {});
    }
    seek = null;
  };
  const waiting = (on) => {
    cancel.hidden = !on;
    for (const b of buttons) b.disabled = on;
  };
  const follow = async (answer) => {
    if (answer.status === "paired") {
      seek = null;
      remember(answer.game, answer.token, answer.seat);
      await go(`/game/${answer.game}`);
      return;
    }
    status.textContent = t("pairing.waiting", { range: answer.range });
    timer = setTimeout(async () => {
      if (!seek) return;
      try {
        await follow(await api.seekStatus(seek));
      } catch (e) {
        seek = null;
        waiting(false);
        status.textContent = accountError(e);
      }
    }, 1000);
  };
  for (const b of buttons) {
    b.addEventListener("click", async () => {
      const [minutes, increment] = b.dataset.pairing.split("+").map(Number);
      const clock = b.dataset.pairing === "days" ? { days: Number(days.value) } : { minutes, increment };
      waiting(true);
      status.textContent = t("pairing.asking");
      try {
        const answer = await api.seek(clock, rated.checked && !ratedChoice.hidden);
        seek = answer.id;
        await follow(answer);
      } catch (e) {
        waiting(false);
        status.textContent = accountError(e);
      }
    });
  }
  cancel.addEventListener("click", () => {
    withdraw();
    waiting(false);
    status.textContent = t("pairing.cancelled");
  });
  window.addEventListener("pagehide", withdraw);
  const stop = () => {
    withdraw();
    window.removeEventListener("pagehide", withdraw);
  };
  return { card, stop };
}
