import { readdirSync } from "node:fs";

/** `i18n-de-common-[hash].js`: the name the client build gives each translation file (vite.config.ts). */
const TRANSLATION_FILE = /^i18n-([a-z]+)-([a-z]+)-[\w-]+\.js$/;
/** `translation-loaders-[hash].js`: the browser's list of those files (app/i18n/translation-loaders.client.ts). */
const TRANSLATION_LOADERS = /^translation-loaders-[\w-]+\.js$/;

/** `de/common` → `/assets/i18n-de-common-[hash].js`, and the list's file, once the built files are known (production). */
let files: { byNamespace: Map<string, string>; loaders: string } | null = null;

/** Learns the translation files of the client build in this folder (its `assets`), once at start. */
export function learnTranslationFiles(assetsDir: string) {
  const byNamespace = new Map<string, string>();
  let loaders: string | null = null;
  for (const name of readdirSync(assetsDir)) {
    const match = TRANSLATION_FILE.exec(name);
    if (match) byNamespace.set(`${match[1]}/${match[2]}`, `/assets/${name}`);
    else if (TRANSLATION_LOADERS.test(name)) loaders = `/assets/${name}`;
  }
  files = loaders ? { byNamespace, loaders } : null;
}

/**
 * The built files the browser loads these namespaces in this language from: the list of every translation file (the
 * browser finds each file through it), then each namespace's file; null when one is not known (development, no build).
 */
export function translationFiles(locale: string, namespaces: readonly string[]): string[] | null {
  if (!files) return null;
  const found = [files.loaders];
  for (const namespace of namespaces) {
    const file = files.byNamespace.get(`${locale}/${namespace}`);
    if (!file) return null;
    found.push(file);
  }
  return found;
}
