/** Where the reader looks a word up: a URL template with `{word}` per study language, English Wiktionary by default. */

export const WORD_PLACEHOLDER = "{word}";
export const MAX_TEMPLATE_LENGTH = 500;

const englishNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });

/**
 * The default for a study language: the word's page on English Wiktionary, at the section of that language (Wiktionary
 * has entries for every language there, with English glosses), e.g. `https://en.wiktionary.org/wiki/{word}#German`.
 */
export function defaultDictionary(language: string): string {
  const name = (englishNames.of(language) ?? language).replace(/ /g, "_");
  return `https://en.wiktionary.org/wiki/${WORD_PLACEHOLDER}#${encodeURIComponent(name)}`;
}

/** The address of a word under a template: the word percent-encoded wherever `{word}` stands. */
export function dictionaryUrl(template: string, word: string): string {
  return template.replaceAll(WORD_PLACEHOLDER, encodeURIComponent(word.trim()));
}

/**
 * A template the learner typed: empty means the default (null); otherwise an https address of at most 500 characters
 * with `{word}` in it, or an error key in the `learning` namespace.
 */
export function parseDictionaryTemplate(value: unknown): { template: string | null; error: string | null } {
  const template = String(value ?? "").trim();
  if (!template) return { template: null, error: null };
  const error = "settings.errors.dictionary";
  if (template.length > MAX_TEMPLATE_LENGTH || !template.includes(WORD_PLACEHOLDER)) return { template: null, error };
  try {
    const url = new URL(dictionaryUrl(template, "word"));
    if (url.protocol !== "https:" || !url.hostname.includes(".") || url.username || url.password)
      return { template: null, error };
  } catch {
    return { template: null, error };
  }
  return { template, error: null };
}
