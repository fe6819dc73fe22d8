import { createInstance, type BackendModule, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { namespacesToLoad, translationsFromDocument } from "./document-translations";
import { CLIENT_NAMESPACES, DEFAULT_LOCALE } from "./locales";
import { NUMBER_VARIABLES } from "./number-variables";

// Each locale file becomes its own hashed chunk, fetched only when that language is shown. `legal` reaches the page
// through loader data only and `mail` is the server's (CLIENT_NAMESPACES), so the browser has no use for their files.
const files = import.meta.glob<{ default: Record<string, unknown> }>(
  "/locales/*/{common,pages,landing,account,billing,learning,lists,reading}.json",
);

const bundledBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const load = files[`/locales/${language}/${namespace}.json`];
    if (!load) return callback(new Error(`No translations for ${language}/${namespace}`), false);
    load()
      .then((module) => {
        // A failed chunk whose error was handled resolves to nothing.
        if (!module) throw new Error(`Translations for ${language}/${namespace} did not load`);
        callback(null, module.default);
      })
      .catch((error: unknown) => callback(error as Error, false));
  },
};

/** The browser's one i18next instance. */
export const i18next = createInstance();

/**
 * Starts i18next in the browser in the language the server rendered (`<html lang>`), before hydration, with the
 * translations the document carries (the namespaces the page uses); or with those the document names, from their files
 * (preloaded by the document); without either, every namespace is fetched first. The other namespaces load with the
 * next navigation (root.tsx).
 */
export async function startI18n(): Promise<i18n> {
  const lng = document.documentElement.lang || DEFAULT_LOCALE;
  const inDocument = translationsFromDocument();
  const namespaces = Object.keys(inDocument);
  const toLoad = namespacesToLoad();
  await i18next
    .use(initReactI18next)
    .use(bundledBackend)
    .init({
      lng,
      fallbackLng: false,
      ...(namespaces.length > 0
        ? { ns: namespaces, resources: { [lng]: inDocument }, partialBundledLanguages: true }
        : { ns: toLoad.length > 0 ? toLoad : CLIENT_NAMESPACES }),
      defaultNS: "common",
      interpolation: { escapeValue: false, defaultVariables: NUMBER_VARIABLES },
      react: { useSuspense: false },
    });
  return i18next;
}
