// The page's words in English, German and Czech: one JSON file per language under i18n/.
// The language comes from the player's choice, else the browser's, else English.

const CHOICE = "konane.lang";

/** The languages offered, by code, each named in itself. */
export const LANGUAGES = { en: "English", de: "Deutsch", cs: "Čeština" };

let strings = {};
let fallback = {};
let current = "en";

function saved() {
  try {
    return localStorage.getItem(CHOICE);
  } catch {
    return null;
  }
}

function preferred() {
  const saved_ = saved();
  if (saved_ && saved_ in LANGUAGES) return saved_;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

async function load(code) {
  const r = await fetch(`/i18n/${code}.json`);
  if (!r.ok) throw new Error(`the ${code} strings are missing (${r.status})`);
  return r.json();
}

/** Loads the language to use: `code` when given (and remembered), else the preferred one. */
export async function setLanguage(code = null) {
  if (code) {
    try {
      localStorage.setItem(CHOICE, code);
    } catch {
      // Storage is blocked: the choice holds until the page is closed.
    }
  }
  current = code || preferred();
  if (!Object.keys(fallback).length) fallback = await load("en");
  // Without its own strings a language falls back to English, word by word.
  strings = current === "en" ? fallback : await load(current).catch(() => fallback);
  document.documentElement.lang = current;
}

/** The language in use. */
export function language() {
  return current;
}

/** The string for `key`, with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = strings[key] ?? fallback[key];
  if (text === undefined) {
    console.warn(`missing string ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Whether a string exists for `key`. */
export function has(key) {
  return key in strings || key in fallback;
}

/** A board size as the page writes it: "8 × 8". */
export function sizeText(size) {
  return String(size).replace("x", " × ");
}
