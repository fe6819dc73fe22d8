import type { i18n, ThirdPartyModule } from "i18next";
import { noteNamespaces, noting } from "./used-namespaces.server";

/**
 * The server's translations of a plain key, or of a key with numbers only (a count), kept once translated.
 *
 * Every request has an i18next instance of its own (remix-i18next), and i18next translates a key anew at each call:
 * the options copied twice, the key split, the resources looked up, the text scanned for placeholders and passed
 * through the post-processors, a count through the plural rules and the number format. A page calls it some fifty
 * times, nine in ten with a plain key, whose text never changes while the server runs (the resources are loaded once).
 * So the text of a plain key, or of a key and its numbers, for the same language, namespaces and key prefix, is kept
 * here and shared by every request (a text with a string interpolated, a name, a word, is translated each time); the
 * namespaces it was resolved from are noted on each use, as the translation itself would have noted them (the document
 * carries the page's namespaces to the browser).
 *
 * Bounded: keys come from the code, but a key built from a value must not grow this without end; past the limit it
 * starts afresh.
 */
const LIMIT = 20_000;
type Kept = { value: string; namespaces: string[] };
/** By language, namespaces and key prefix, then by key (a key literal's hash is computed once). */
const kept = new Map<string, Map<string, Kept>>();
let keptCount = 0;
/** Moves when everything kept is dropped: a table found before is found again. */
let generation = 0;

/** Drops every kept translation (tests compare against i18next's own answers). */
export function forgetTranslations() {
  kept.clear();
  keptCount = 0;
  generation++;
}

function tableOf(scope: string): Map<string, Kept> {
  let table = kept.get(scope);
  if (!table) kept.set(scope, (table = new Map()));
  return table;
}

/** i18next's fixed `t` as this module handles it (its own types tie it to the resources' shape). */
type Translate = ((...args: unknown[]) => unknown) & { lng?: unknown; ns?: unknown; keyPrefix?: unknown };
type GetFixedT = (lng?: unknown, ns?: unknown, keyPrefix?: unknown, fixedOptions?: unknown) => Translate;

/**
 * What names a translation whose text depends on nothing else: a plain key, or a key with options that are all numbers
 * (a count, a limit) or flags; null for any other call (a value to interpolate, a default, an object of options).
 */
function memoKey(key: unknown, rest: unknown[]): string | null {
  if (typeof key !== "string") return null;
  const [options, ...more] = rest;
  if (more.some((value) => value !== undefined)) return null;
  if (options === undefined) return key;
  if (typeof options !== "object" || options === null || Object.getPrototypeOf(options) !== Object.prototype)
    return null;
  let id = key;
  for (const [name, value] of Object.entries(options)) {
    if (!(typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)))) return null;
    id += `\u0001${name}=${value}`;
  }
  return id;
}

/**
 * An i18next module whose instance's `getFixedT` (what `useTranslation` and the loaders use) answers plain keys and
 * counts from memory.
 */
export const translationMemo: ThirdPartyModule = {
  type: "3rdParty",
  init(instance: i18n) {
    const getFixedT = (instance.getFixedT as unknown as GetFixedT).bind(instance);
    const memoGetFixedT: GetFixedT = (lng, ns, keyPrefix, fixedOptions) => {
      const t = getFixedT(lng, ns, keyPrefix, fixedOptions);
      // A scope of namespaces of its own changes what a key means: translated by i18next every time.
      if (fixedOptions !== undefined || typeof keyPrefix === "function") return t;
      const scope = `\u0000${Array.isArray(ns) ? ns.join(",") : String(ns ?? "")}\u0000${String(keyPrefix ?? "")}`;
      const fixedLanguage = Array.isArray(lng) ? lng.join(",") : (lng as string | null | undefined);
      // The table of this language and scope, found again only when the instance's language changes.
      let table: Map<string, Kept> | null = null;
      let tableLanguage: string | undefined;
      let tableGeneration = generation;
      const memo = (key: unknown, ...rest: unknown[]) => {
        const named = memoKey(key, rest);
        if (named === null) return t(key, ...rest);
        const language = fixedLanguage ?? instance.language;
        if (table === null || language !== tableLanguage || tableGeneration !== generation) {
          table = tableOf(language + scope);
          tableLanguage = language;
          tableGeneration = generation;
        }
        const entry = table.get(named);
        if (entry !== undefined) {
          noteNamespaces(instance, entry.namespaces);
          return entry.value;
        }
        const translated = noting(() => t(key, ...rest));
        // Only text is shared: an object (`returnObjects`) is the caller's to change.
        if (typeof translated.value === "string") {
          if (keptCount >= LIMIT) forgetTranslations();
          if (tableGeneration !== generation) {
            table = tableOf(language + scope);
            tableGeneration = generation;
          }
          table.set(named, { value: translated.value, namespaces: translated.namespaces });
          keptCount++;
        }
        return translated.value;
      };
      return Object.assign(memo, { lng: t.lng, ns: t.ns, keyPrefix: t.keyPrefix });
    };
    instance.getFixedT = memoGetFixedT as unknown as i18n["getFixedT"];
  },
};
