/**
 * The text with its first letter upper-cased by the locale's rules (Turkish i → İ). For names that `Intl` gives in
 * lower case (“alemán”, “allemand”, “німецька”) where they start a heading or a list item.
 */
export function capitalize(text: string, locale: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(locale) + text.slice(head.length);
}

/**
 * The quotation marks of the interface language, around a quotation in any language: the marks belong to the sentence
 * they stand in, so a German sentence quoted on an English page gets “…” and an English one on a German page „…“.
 * French puts a narrow no-break space (U+202F) inside its guillemets (locales/GLOSSARY.md, Typography).
 */
const QUOTES: Record<string, readonly [open: string, close: string]> = {
  de: ["„", "“"],
  en: ["“", "”"],
  es: ["«", "»"],
  fr: ["«\u202f", "\u202f»"],
  tr: ["“", "”"],
  uk: ["«", "»"],
  zh: ["“", "”"],
};

export function quoteMarks(locale: string): readonly [open: string, close: string] {
  return QUOTES[locale] ?? QUOTES.en!;
}
