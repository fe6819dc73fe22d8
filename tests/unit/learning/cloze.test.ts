import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clozeOf, withoutArticle } from "#app/learning/cloze.ts";
import { stemmerFor } from "#app/learning/stemmers.server.ts";

const gap = (sentence: string, text: string, language: string) => {
  const cloze = clozeOf(sentence, text, language, stemmerFor(language));
  return cloze ? `${cloze.before}[${cloze.answer}]${cloze.after}` : null;
};

describe("cloze: finding a term in its example", () => {
  it("drops a stored article, also an elided one", () => {
    expect(withoutArticle("der Hund", "de")).toBe("Hund");
    expect(withoutArticle("l'eau", "fr")).toBe("eau");
    expect(withoutArticle("la casa", "es")).toBe("casa");
    expect(withoutArticle("to run", "en")).toBe("run");
    expect(withoutArticle("Tisch", "de")).toBe("Tisch");
    expect(withoutArticle("die", "de")).toBe("die"); // an article alone is the term itself
  });

  it.each([
    // German: article, capitalisation and inflection through the stemmer
    ["Der Tisch ist neu.", "der Tisch", "de", "[Der Tisch] ist neu."],
    ["Ich sehe den Tisch.", "der Tisch", "de", "Ich sehe den [Tisch]."],
    ["Die Hunde bellen laut.", "der Hund", "de", "Die [Hunde] bellen laut."],
    ["Wir gehen nach Hause.", "gehen", "de", "Wir [gehen] nach Hause."],
    ["HAUS und Garten", "das Haus", "de", "[HAUS] und Garten"],
    // Spanish
    ["Tengo dos casas en el campo.", "la casa", "es", "Tengo dos [casas] en el campo."],
    ["Hablamos mucho.", "hablar", "es", "[Hablamos] mucho."],
    // French
    ["J'ai deux chats noirs.", "le chat", "fr", "J'ai deux [chats] noirs."],
    ["L'eau est froide.", "l'eau", "fr", "[L'eau] est froide."],
    // Turkish: suffixes and dotted/dotless i
    ["Evlerimiz büyük.", "ev", "tr", "[Evlerimiz] büyük."],
    ["Kitaplar masada.", "kitap", "tr", "[Kitaplar] masada."],
    // Ukrainian: a Snowball-family stemmer too
    ["Я читаю книгу.", "книга", "uk", "Я читаю [книгу]."],
    // Italian, and English with "to"
    ["Le case sono belle.", "la casa", "it", "Le [case] sono belle."],
    ["She was running late.", "to run", "en", "She was [running] late."],
    // Multi-word terms, word by word
    ["Wir essen gern Eis am Stiel.", "Eis am Stiel", "de", "Wir essen gern [Eis am Stiel]."],
  ])("%s ← %s (%s)", (sentence, text, language, expected) => {
    expect(gap(sentence, text, language)).toBe(expected);
  });

  it("does not find a term inside another word or in an unrelated sentence", () => {
    expect(gap("Concatenate the strings.", "cat", "en")).toBeNull();
    expect(gap("Mind the step.", "puddle", "en")).toBeNull();
    expect(gap("Der Hund bellt.", "die Katze", "de")).toBeNull();
  });

  it("matches a language without a stemmer by article and case only, and scripts without spaces inside runs", () => {
    expect(stemmerFor("zh")).toBeUndefined();
    expect(gap("我喜欢喝咖啡。", "咖啡", "zh")).toBe("我喜欢喝[咖啡]。");
    expect(gap("Take an Umbrella, it rains.", "umbrella", "xx")).toBe("Take an [Umbrella], it rains.");
  });

  it("finds a whole word where a pattern with letter classes around the term finds it, after any text", () => {
    // The reference: the term between look-arounds for letters, marks and digits, any case.
    const reference = (sentence: string, text: string) => {
      const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const match = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escaped}(?![\\p{L}\\p{M}\\p{N}])`, "iu").exec(sentence);
      return match
        ? `${sentence.slice(0, match.index)}[${match[0]}]${sentence.slice(match.index + match[0].length)}`
        : null;
    };
    const piece = fc.constantFrom(
      "a",
      "A",
      "b",
      "ab",
      "Ab",
      " ",
      ".",
      "-",
      "1",
      "é",
      "\u0301",
      "𝒜",
      "𝒜a",
      "ß",
      "İ",
      "ı",
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
    const sentence = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(sentence, text, (s, t) => {
        if (t.trim() !== t.replace(/\s+/g, " ") || !t.trim()) return; // a term is stored trimmed, single-spaced
        const found = clozeOf(s, t, "xx");
        expect(found ? `${found.before}[${found.answer}]${found.after}` : null).toBe(reference(s, t));
      }),
      { numRuns: 1500 },
    );
  });
});
