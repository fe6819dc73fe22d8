import { readdirSync } from "node:fs";

/** `i18n-de-common-[hash].js`: the name the client build gives each translation file (vite.config.ts). */
const TRANSLATION_FILE = /^i18n-([a-z]+)-([a-z]+)-[\w-]+\.js$/;

/** `de/common` → `/assets/i18n-de-common-[hash].js`, once the built files are known (production). */
let files: Map<string, string> | null = null;

/** Learns the translation files of the client build in this folder (its `assets`), once at start. */
export function learnTranslationFiles(assetsDir: string) {
  const found = new Map<string, string>();
  for (const name of readdirSync(assetsDir)) {
    const match = TRANSLATION_FILE.exec(name);
    if (match) found.set(`${match[1]}/${match[2]}`, `/assets/${name}`);
  }
  files = found;
}

/** The built files of these namespaces in this language, or null when one is not known (development, no build). */
export function translationFiles(locale: string, namespaces: readonly string[]): string[] | null {
  if (!files) return null;
  const found: string[] = [];
  for (const namespace of namespaces) {
    const file = files.get(`${locale}/${namespace}`);
    if (!file) return null;
    found.push(file);
  }
  return found;
}
