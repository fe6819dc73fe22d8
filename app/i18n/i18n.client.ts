import { createInstance, type BackendModule, type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { namespacesToLoad, translationsFromDocument } from "./document-translations";
import { CLIENT_NAMESPACES, DEFAULT_LOCALE } from "./locales";
import { NUMBER_VARIABLES } from "./number-variables";

type Translations = { default: Record<string, unknown> };
type Loaders = Record<string, () => Promise<Translations>>;

let loaders: Promise<Loaders> | undefined;
/**
 * The loaders of every translation file (translation-loaders.client.ts), fetched once: when a namespace or language is
 * first missing, or before, at the learner's first move (entry.client.tsx). A failure is forgotten, so the next
 * navigation tries again.
 */
export function translationLoaders(): Promise<Loaders> {
  loaders ??= import("./translation-loaders.client")
    .then((module) => {
      // A failed chunk whose error was handled resolves to nothing.
      if (!module) throw new Error("The list of translation files did not load");
      return module.translationLoaders;
    })
    .catch((error: unknown) => {
      loaders = undefined;
      throw error;
    });
  return loaders;
}

const bundledBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    translationLoaders()
      .then((files) => {
        const load = files[`/locales/${language}/${namespace}.json`];
        if (!load) throw new Error(`No translations for ${language}/${namespace}`);
        return load();
      })
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
 * (preloaded by the document, with the list of every file); without either, every namespace is fetched first. The
 * other namespaces load with the next navigation (root.tsx).
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
