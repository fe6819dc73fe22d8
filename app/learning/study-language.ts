import { LOCALES } from "../i18n/locales";

// Language names never change while the process runs: one formatter and one sorted list per interface locale.
const displayNames = new Map<string, Intl.DisplayNames>();
const sortedOptions = new Map<string, { code: string; name: string }[]>();

/**
 * The name of a study language in the interface language (Intl.DisplayNames). An interface locale outside the
 * supported seven shows the raw code (and warns); an empty code shows nothing.
 */
export function studyLanguageName(code: string, interfaceLocale: string, warn: (message: string) => void = console.warn): string {
  if (!code) return "";
  if (!(LOCALES as readonly string[]).includes(interfaceLocale)) {
    warn(`No language names for interface locale "${interfaceLocale}"; showing the code "${code}"`);
    return code;
  }
  let names = displayNames.get(interfaceLocale);
  if (!names) {
    names = new Intl.DisplayNames([interfaceLocale], { type: "language", fallback: "code" });
    displayNames.set(interfaceLocale, names);
  }
  return names.of(code) ?? code;
}

/** All study languages with their names in the interface language, sorted by name. */
export function studyLanguageOptions(codes: readonly string[], interfaceLocale: string): { code: string; name: string }[] {
  const key = `${interfaceLocale}:${codes.join(",")}`;
  let options = sortedOptions.get(key);
  if (!options) {
    const collator = new Intl.Collator(interfaceLocale);
    options = codes.map((code) => ({ code, name: studyLanguageName(code, interfaceLocale) })).sort((a, b) => collator.compare(a.name, b.name));
    sortedOptions.set(key, options);
  }
  return options;
}
