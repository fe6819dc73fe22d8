import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { preloadModule } from "react-dom";
import { CLIENT_NAMESPACES, type Locale } from "./locales";

/** The build names each translation chunk after its locale and namespace (vite.config.ts): `i18n-de-common-….js`. */
export const TRANSLATION_CHUNK = /^i18n-([a-z]+)-([a-z]+)-[\w-]+\.js$/;

/** `locale/namespace` to the chunk's URL, read once from the client build next to this server build. */
function translationChunks(): Map<string, string> {
  const chunks = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(fileURLToPath(new URL("../client/assets/", import.meta.url)));
  } catch {
    // In development Vite serves the sources: there are no chunks to name.
  }
  for (const name of names) {
    const match = TRANSLATION_CHUNK.exec(name);
    if (match) chunks.set(`${match[1]}/${match[2]}`, `/assets/${name}`);
  }
  return chunks;
}

const chunks = translationChunks();

/**
 * Module preloads (React puts them in the head) for the translations the browser loads before it hydrates: they travel
 * with the entry's scripts instead of being requested one after another once the entry has run.
 */
export function TranslationPreloads({ locale, nonce }: { locale: Locale; nonce: string }) {
  for (const namespace of CLIENT_NAMESPACES) {
    const href = chunks.get(`${locale}/${namespace}`);
    if (href) preloadModule(href, { as: "script", nonce });
  }
  return null;
}
