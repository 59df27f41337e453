// Loads the page's English strings into i18n.js as the page does, with the file read from
// web/i18n/ instead of fetched, so that words come out as a player reads them.

import { readFile } from "node:fs/promises";
import { setLanguage } from "../web/i18n.js";

/** Makes English the page's language. */
export async function useEnglish() {
  const table = await readFile(new URL("../web/i18n/en.json", import.meta.url), "utf8");
  globalThis.fetch = async () => new Response(table, { status: 200 });
  // setLanguage marks the document's language.
  globalThis.document ??= { documentElement: {} };
  await setLanguage("en");
}
