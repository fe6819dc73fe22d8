import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OFFERED_PARTS_OF_SPEECH, PARTS_OF_SPEECH } from "#app/learning/vocabulary.ts";

const LOCALES = ["de", "en", "es", "fr", "tr", "uk", "zh"] as const;
const labels = (lng: string): Record<string, string> =>
  JSON.parse(readFileSync(path.resolve("locales", lng, "lists.json"), "utf8")).partsOfSpeech;

/** The linguists' names the labels used, per locale: a learner reads school grammar's words instead. */
const LINGUISTS_WORDS: Record<(typeof LOCALES)[number], string[]> = {
  en: ["Adposition", "Coordinating conjunction", "Determiner", "Auxiliary verb"],
  de: ["Adposition", "Nebenordnende Konjunktion", "Determinativ", "Numerale"],
  es: ["Adposición", "Conjunción coordinante"],
  fr: ["Adposition", "Conjonction de coordination", "Numéral"],
  tr: ["Eşgüdüm bağlacı", "Sayı sözcüğü"],
  uk: ["Адпозиція", "Детермінатив", "Сурядний сполучник"],
  zh: ["附置词", "并列连词", "小品词"],
};

describe("part-of-speech labels", () => {
  it.each(LOCALES)("name the spec's 14 values in a learner's words in %s", (lng) => {
    const names = labels(lng);
    expect(Object.keys(names).sort()).toEqual([...PARTS_OF_SPEECH].sort());
    for (const word of LINGUISTS_WORDS[lng]) expect(Object.values(names)).not.toContain(word);
    expect(new Set(Object.values(names)).size).toBe(PARTS_OF_SPEECH.length);
  });

  it("offers every value but punctuation for a new term", () => {
    expect(OFFERED_PARTS_OF_SPEECH).toEqual(PARTS_OF_SPEECH.filter((pos) => pos !== "punctuation"));
  });
});
