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
