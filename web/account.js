// The account screen `/account`: a guest's name, logging in, registering; once logged in,
// the password, logging out and deleting the account. And who is logged in, for the header.

import { api, forgetLent, guestName, seatedGames, setGuestName, tokenFor } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { socialCards } from "./social.js";
import { accountError } from "./words.js";

let current;

/** The logged-in account's name, or null (asked once per page load, and after changes). */
export async function sessionName() {
  current ??= api.session().then((s) => s.name ?? null).catch(() => null);
  return current;
}

/** Puts the games this browser played as a guest on the account just logged in to. */
async function claimGuestGames() {
  const games = seatedGames().filter((s) => s.seat !== "both").slice(0, 200).map(({ id }) => ({ id, token: tokenFor(id) }));
  if (games.length) await api.claimSeats(games).catch(() => {});
}

function forget() {
  current = undefined;
}

/** The checks the server makes, so most mistakes are said before sending. */
const NAME = /^[\p{L}\p{N}_-]{2,20}$/u;

function field(name, type, label, autocomplete) {
  return h("label", { class: "field" }, h("span", {}, label),
    h("input", { name, type, autocomplete, required: true, "data-field": name, ...(name === "name" ? { maxlength: 20, spellcheck: "false", autocapitalize: "off" } : {}) }));
}

function form(key, fields, submit, onSubmit) {
  const notice = h("p", { class: "notice", role: "alert", "data-form-notice": "" });
  const f = h("form", { class: "card account-form", "data-form": key, novalidate: true },
    h("h2", {}, t(`account.${key}`)), ...fields, h("button", { type: "submit", class: "primary" }, submit), notice);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const values = Object.fromEntries(new FormData(f));
    notice.textContent = "";
    notice.classList.remove("done");
    try {
      await onSubmit(values);
    } catch (err) {
      notice.textContent = err.local ?? accountError(err);
    }
  });
  return f;
}

/** A form's notice that the change is done (worded as success, not as a refusal). */
function said(f, text) {
  const notice = f.querySelector("[data-form-notice]");
  notice.textContent = text;
  notice.classList.add("done");
}

function local(key) {
  const e = new Error(key);
  e.local = t(key);
  return e;
}

/** Shows the account screen. */
export async function accountScreen(app, go) {
  document.title = `${t("account.title")} · Kōnane`;
  const name = await sessionName();
  const done = async (path) => {
    forget();
    await go(path);
  };
  if (!name) {
    const guest = form("guest", [field("guest", "text", t("account.guest-name"), "nickname")], t("account.save"), async (values) => {
      const n = values.guest.trim();
      if (n && !NAME.test(n)) throw local("name.bad_character_local");
      setGuestName(n);
      said(guest, t(n ? "account.saved" : "account.forgotten"));
    });
    guest.querySelector("input").value = guestName() ?? "";
    guest.querySelector("input").required = false;
    const login = form("login", [field("name", "text", t("account.name"), "username"), field("password", "password", t("account.password"), "current-password")],
      t("account.login"), async ({ name, password }) => {
        await api.login(name.trim(), password);
        await claimGuestGames();
        await done("/");
      });
    const register = form("register", [field("name", "text", t("account.name"), "username"), field("password", "password", t("account.password"), "new-password")],
      t("account.register"), async ({ name, password }) => {
        if (!NAME.test(name.trim())) throw local("name.bad_character_local");
        await api.register(name.trim(), password);
        await claimGuestGames();
        await done(`/@/${encodeURIComponent(name.trim())}`);
      });
    register.append(h("p", { class: "muted" }, t("account.no-email")));
    app.replaceChildren(h("div", { class: "account" }, h("h1", {}, t("account.title")), h("p", { class: "lead" }, t("account.lead")),
      h("div", { class: "choices" }, login, register, guest)));
    return null;
  }
  const change = form("change-password", [field("current", "password", t("account.current-password"), "current-password"), field("next", "password", t("account.new-password"), "new-password")],
    t("account.change-password"), async ({ current, next }) => {
      await api.changePassword(current, next);
      said(change, t("account.password-changed"));
    });
  const remove = form("delete", [field("password", "password", t("account.password"), "current-password")], t("account.delete"), async ({ password }) => {
    const confirm = app.querySelector("[data-confirm-delete]");
    if (!confirm.checked) throw local("account.delete-unconfirmed");
    await api.deleteAccount(password);
    forgetLent();
    await done("/");
  });
  remove.querySelector("button").before(h("label", { class: "check" }, h("input", { type: "checkbox", "data-confirm-delete": "" }), t("account.delete-confirm")));
  remove.querySelector("button").classList.replace("primary", "danger");
  const logout = h("button", { type: "button", "data-logout": "" }, t("account.logout"));
  logout.addEventListener("click", async () => {
    await api.logout().catch(() => {});
    forgetLent();
    await done("/");
  });
  app.replaceChildren(h("div", { class: "account" },
    h("h1", {}, t("account.title")),
    h("p", { class: "lead" }, t("account.logged-in", { name }), " ", h("a", { href: `/@/${encodeURIComponent(name)}`, "data-profile-link": "" }, t("account.profile")), " ", logout),
    await socialCards(),
    h("div", { class: "choices" }, change, remove)));
  return null;
}
