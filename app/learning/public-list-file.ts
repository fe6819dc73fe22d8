import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n/locales";
import { isLevel, isPartOfSpeech, isStudyLanguage, type Level, type PartOfSpeech } from "./vocabulary";

/** Text per interface locale; a missing locale falls back to English (see `inLocale`). */
export type PerLocale = Partial<Record<Locale, string>>;

export type ListTerm = {
  text: string;
  partOfSpeech: PartOfSpeech;
  meaning: PerLocale;
  example: { sentence: string; translation: PerLocale };
};
export type ListFile = { language: string; level: Level; terms: ListTerm[] };

/** The text for a locale, else the English one, else nothing. */
export function inLocale(texts: PerLocale, locale: Locale): string {
  return texts[locale] ?? texts[DEFAULT_LOCALE] ?? "";
}

/** An example's translation for a reader of `locale`: none when the example is already in their language. */
export function translationIn(texts: PerLocale, locale: Locale, listLanguage: string): string {
  return locale === listLanguage ? "" : inLocale(texts, locale);
}

const isText = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Checks one shipped list file (`{language}-{level}.json`) and returns it typed; a problem throws an error naming the
 * file and the term, so a bad list stops the server at start rather than showing half a list.
 */
export function parseListFile(fileName: string, raw: unknown): ListFile {
  const fail = (problem: string): never => {
    throw new Error(`public list ${fileName}: ${problem}`);
  };
  const list = (raw ?? {}) as Record<string, unknown>;
  if (!isStudyLanguage(list.language)) fail(`unknown language ${JSON.stringify(list.language)}`);
  if (!isLevel(list.level)) fail(`unknown level ${JSON.stringify(list.level)}`);
  const expectedName = `${String(list.language)}-${String(list.level)}.json`;
  if (fileName !== expectedName) fail(`holds ${list.language} ${list.level}, so it must be named ${expectedName}`);
  if (!Array.isArray(list.terms) || list.terms.length === 0) fail("has no terms");
  const seen = new Set<string>();
  const terms = (list.terms as unknown[]).map((value, index) => {
    const term = (value ?? {}) as Record<string, unknown>;
    const name = isText(term.text) ? `term ${index + 1} (${term.text})` : `term ${index + 1}`;
    const problem = (text: string) => fail(`${name} ${text}`);
    if (!isText(term.text)) problem("has no text");
    const text = term.text as string;
    if (seen.has(text.toLowerCase())) problem("appears twice");
    seen.add(text.toLowerCase());
    if (!isPartOfSpeech(term.partOfSpeech)) problem(`has part of speech ${JSON.stringify(term.partOfSpeech)}`);
    const meaning = perLocale(term.meaning, (issue) => problem(`meaning ${issue}`));
    if (!meaning[DEFAULT_LOCALE]) problem(`meaning lacks "${DEFAULT_LOCALE}" (the fallback of every locale)`);
    const example = (term.example ?? {}) as Record<string, unknown>;
    if (!isText(example.sentence)) problem("has no example sentence");
    const translation = perLocale(example.translation ?? {}, (issue) => problem(`example translation ${issue}`));
    if (translation[list.language as Locale]) problem(`example translation is in the list's own language`);
    return {
      text,
      partOfSpeech: term.partOfSpeech as PartOfSpeech,
      meaning,
      example: { sentence: example.sentence as string, translation },
    };
  });
  return { language: list.language as string, level: list.level as Level, terms };
}

function perLocale(value: unknown, problem: (text: string) => never): PerLocale {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    problem('must be an object of texts per interface locale, e.g. { "en": "house" }');
  const texts: PerLocale = {};
  for (const [locale, text] of Object.entries(value as object)) {
    if (!isLocale(locale)) problem(`has "${locale}", which is not an interface locale`);
    if (!isText(text)) problem(`"${locale}" is empty`);
    texts[locale as Locale] = (text as string).trim();
  }
  return texts;
}
