import { describe, expect, it } from "vitest";
import { defaultDictionary, dictionaryUrl, parseDictionaryTemplate } from "#app/reading/dictionary.ts";

describe("dictionary links", () => {
  it.each([
    ["de", "Hund", "https://en.wiktionary.org/wiki/Hund#German"],
    ["es", "niño", "https://en.wiktionary.org/wiki/ni%C3%B1o#Spanish"],
    ["fr", "l'eau", "https://en.wiktionary.org/wiki/l'eau#French"],
    ["it", "casa", "https://en.wiktionary.org/wiki/casa#Italian"],
    ["en", "run", "https://en.wiktionary.org/wiki/run#English"],
    ["tr", "ağaç", "https://en.wiktionary.org/wiki/a%C4%9Fa%C3%A7#Turkish"],
    ["uk", "книга", "https://en.wiktionary.org/wiki/%D0%BA%D0%BD%D0%B8%D0%B3%D0%B0#Ukrainian"],
    ["zh", "咖啡", "https://en.wiktionary.org/wiki/%E5%92%96%E5%95%A1#Chinese"],
  ])("opens Wiktionary by default for %s", (language, word, url) => {
    expect(dictionaryUrl(defaultDictionary(language), word)).toBe(url);
  });

  it("takes an https template with {word}; empty means the default; anything else is refused", () => {
    expect(parseDictionaryTemplate("  https://www.dwds.de/wb/{word}  ")).toEqual({
      template: "https://www.dwds.de/wb/{word}",
      error: null,
    });
    expect(parseDictionaryTemplate("")).toEqual({ template: null, error: null });
    for (const bad of [
      "http://www.dwds.de/wb/{word}",
      "https://www.dwds.de/wb/",
      "javascript:alert(1)//{word}",
      "https://user:pw@example.com/{word}",
      "not a url {word}",
      `https://example.com/${"x".repeat(500)}{word}`,
    ])
      expect(parseDictionaryTemplate(bad).error, bad).toBe("settings.errors.dictionary");
    expect(dictionaryUrl("https://www.linguee.com/search?q={word}", "der Hund")).toBe(
      "https://www.linguee.com/search?q=der%20Hund",
    );
  });
});
