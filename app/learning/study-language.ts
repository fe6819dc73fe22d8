import { LOCALES } from "../i18n/locales";
import { STUDY_LANGUAGES } from "./vocabulary";

// Language names never change while the process runs: one table of names and one sorted list per interface locale.
const nameTables = new Map<string, Map<string, string>>();
const sortedOptions = new Map<string, { code: string; name: string }[]>();

/**
 * The study languages' names in one interface language. Intl gives some codes the same name ("ak" and "tw" are both
 * "Akan"): those names get their code appended ("Akan (ak)", "Akan (tw)") so every option in a list reads differently.
 */
function nameTable(interfaceLocale: string): Map<string, string> {
  let table = nameTables.get(interfaceLocale);
  if (table) return table;
  const names = new Intl.DisplayNames([interfaceLocale], { type: "language", fallback: "code" });
  const plain = new Map<string, string>();
  for (const code of STUDY_LANGUAGES) plain.set(code, names.of(code) ?? code);
  const uses = new Map<string, number>();
  for (const name of plain.values()) uses.set(name, (uses.get(name) ?? 0) + 1);
  table = new Map([...plain].map(([code, name]) => [code, uses.get(name)! > 1 ? `${name} (${code})` : name]));
  nameTables.set(interfaceLocale, table);
  return table;
}

/**
 * The name of a study language in the interface language (Intl.DisplayNames), unique among the study languages. An
 * interface locale outside the supported seven shows the raw code (and warns); an empty code shows nothing.
 */
export function studyLanguageName(
  code: string,
  interfaceLocale: string,
  warn: (message: string) => void = console.warn,
): string {
  if (!code) return "";
  if (!(LOCALES as readonly string[]).includes(interfaceLocale)) {
    warn(`No language names for interface locale "${interfaceLocale}"; showing the code "${code}"`);
    return code;
  }
  const table = nameTable(interfaceLocale);
  return (
    table.get(code) ?? new Intl.DisplayNames([interfaceLocale], { type: "language", fallback: "code" }).of(code) ?? code
  );
}

/** All study languages with their names in the interface language, sorted by name. */
export function studyLanguageOptions(
  codes: readonly string[],
  interfaceLocale: string,
): { code: string; name: string }[] {
  const key = `${interfaceLocale}:${codes.join(",")}`;
  let options = sortedOptions.get(key);
  if (!options) {
    const collator = new Intl.Collator(interfaceLocale);
    options = codes
      .map((code) => ({ code, name: studyLanguageName(code, interfaceLocale) }))
      .sort((a, b) => collator.compare(a.name, b.name));
    sortedOptions.set(key, options);
  }
  return options;
}
