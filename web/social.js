// Follows and blocks on the page: the profile's Follow and Block buttons, and the account
// screen's lists of the players followed (online, playing: a link to watch) and blocked.
// The pure part (which buttons, which words) is social-state.js; this draws and asks.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { afterPress, relationButtons } from "./social-state.js";
import { errorText } from "./words.js";

/** The profile's Follow and Block buttons for player `name`, redrawn after each press. */
export function relationBar(name, relation) {
  const bar = h("span", { class: "relation", "data-relation": "" });
  const notice = h("span", { class: "notice", role: "status" });
  let now = relation;
  const draw = () => {
    const buttons = relationButtons(now).map((b) => {
      const button = h("button", { type: "button", "data-relation-action": `${b.method === "POST" ? "" : "un"}${b.action}` }, t(b.label, { name }));
      button.addEventListener("click", async () => {
        try {
          await api.relate(name, b.action, b.method);
          now = afterPress(now, b);
          notice.textContent = "";
          draw();
          bar.querySelector("button")?.focus();
        } catch (e) {
          notice.textContent = errorText(e);
        }
      });
      return button;
    });
    bar.replaceChildren(...buttons, notice);
  };
  draw();
  return bar;
}

/** The account screen's cards: the players followed and the players blocked. */
export async function socialCards() {
  const following = h("ul", { class: "game-list", "data-following": "" }, h("li", { class: "muted" }, t("lobby.loading")));
  const blocked = h("ul", { class: "game-list", "data-blocked": "" });
  const cards = h("div", { class: "choices" },
    h("section", { class: "card", "aria-labelledby": "following-title" }, h("h2", { id: "following-title" }, t("social.following")), following),
    h("section", { class: "card", "aria-labelledby": "blocked-title" }, h("h2", { id: "blocked-title" }, t("social.blocked")), blocked));
  const link = (name) => h("a", { href: `/@/${encodeURIComponent(name)}` }, name);
  const fill = async () => {
    try {
      const [f, b] = await Promise.all([api.following(), api.blocked()]);
      following.replaceChildren(...(f.players.length
        ? f.players.map((p) => h("li", { "data-followed": p.name },
          h("span", {}, link(p.name), " ", h("small", { class: p.online ? "online" : "muted", "data-online": String(p.online) }, t(p.online ? "social.online" : "social.offline"))),
          p.playing ? h("a", { href: `/game/${p.playing}`, class: "button", "data-watch": p.playing }, t("live.watch")) : ""))
        : [h("li", { class: "muted" }, t("social.none-followed"))]));
      blocked.replaceChildren(...(b.players.length
        ? b.players.map((p) => {
          const lift = h("button", { type: "button", "data-unblock": p.name }, t("social.unblock", { name: p.name }));
          lift.addEventListener("click", async () => {
            await api.relate(p.name, "block", "DELETE").catch(() => {});
            await fill();
          });
          return h("li", { "data-blocked-player": p.name }, link(p.name), lift);
        })
        : [h("li", { class: "muted" }, t("social.none-blocked"))]));
    } catch (e) {
      following.replaceChildren(h("li", { role: "alert" }, errorText(e)));
    }
  };
  await fill();
  return cards;
}
