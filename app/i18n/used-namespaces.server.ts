import type { i18n, PostProcessorModule, TOptions } from "i18next";
import { CLIENT_NAMESPACES } from "./locales";

/** Per i18next instance (one per request), the namespaces whose keys it resolved since recording started. */
const recorded = new WeakMap<object, Set<string>>();
/** While `noting` runs: every namespace resolved, whatever the instance (a translation is synchronous). */
let noted: Set<string> | null = null;
/** An instance's translator is what post-processors are handed (i18next's types leave it out of `i18n`). */
const translatorOf = (instance: i18n): object => (instance as i18n & { translator: object }).translator;

/**
 * An i18next post-processor that notes the namespace each translated key came from (the server's i18next options turn
 * it on, with `postProcessPassResolved` so the resolved namespace is known). It changes no value.
 */
export const namespaceRecorder: PostProcessorModule = {
  type: "postProcessor",
  name: "recordNamespace",
  process(value, _key, options: TOptions & { i18nResolved?: { usedNS?: string } }, translator: object) {
    const namespace = options.i18nResolved?.usedNS;
    if (namespace) {
      recorded.get(translator)?.add(namespace);
      noted?.add(namespace);
    }
    return value;
  },
};

/** Runs a translation and says which namespaces it resolved its keys from (for translation-memo.server.ts). */
export function noting<T>(translate: () => T): { value: T; namespaces: string[] } {
  const outer = noted;
  noted = new Set();
  try {
    const value = translate();
    return { value, namespaces: [...noted] };
  } finally {
    noted = outer;
  }
}

/**
 * Notes namespaces as resolved by the instance, as its own translation would have (a translation answered from
 * memory).
 */
export function noteNamespaces(instance: i18n, namespaces: readonly string[]) {
  const set = recorded.get(translatorOf(instance));
  if (set) for (const namespace of namespaces) set.add(namespace);
}

/** From now on, note what the request's instance translates (what loaders translated before does not count). */
export function startRecordingNamespaces(instance: i18n) {
  recorded.set(translatorOf(instance), new Set());
}

/**
 * Every browser namespace the render has used so far: what the browser needs to hydrate the same text. `common` always,
 * since every page's layout speaks it.
 */
export function usedNamespaces(instance: i18n): string[] {
  const used = recorded.get(translatorOf(instance)) ?? new Set<string>();
  return CLIENT_NAMESPACES.filter((namespace) => namespace === "common" || used.has(namespace));
}

/** The current locale's translations of the namespaces above. */
export function usedTranslations(instance: i18n): Record<string, unknown> {
  const namespaces = usedNamespaces(instance);
  // The server's translations never change while it runs: the same locale and namespaces give the same object, whose
  // JSON the document then writes once (document-translations.tsx).
  const key = `${instance.language}:${namespaces.join(",")}`;
  const kept = bundlesByKey.get(key);
  if (kept) return kept;
  const bundles: Record<string, unknown> = {};
  for (const namespace of namespaces) {
    const bundle = instance.getResourceBundle(instance.language, namespace);
    if (bundle) bundles[namespace] = bundle;
  }
  bundlesByKey.set(key, bundles);
  return bundles;
}
/** Bounded by the locales times the combinations of namespaces the pages use. */
const bundlesByKey = new Map<string, Record<string, unknown>>();
