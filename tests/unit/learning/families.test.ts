import { describe, expect, it } from "vitest";
import { familyStage, linkRefusal, MAX_PROPOSALS, proposeParents, stemKey } from "#app/learning/families.ts";
import { stemmerFor } from "#app/learning/stemmers.server.ts";
import { STAGES } from "#app/learning/vocabulary.ts";

const term = (text: string, key = text.toLowerCase()) => ({ key, text, termId: `id-${text}` });
const propose = (language: string, word: string, terms: string[], textWords: string[] = [], lemmas: string[] = []) =>
  proposeParents({
    language,
    word,
    stem: stemmerFor(language),
    lemmas: lemmas.map((text) => ({ text, termId: null })),
    terms: terms.map((text) => term(text)),
    textWords,
  }).map((p) => p.text);

describe("word families: proposing a parent", () => {
  it.each([
    // language, opened word, the learner's terms, the expected proposal
    ["de", "Hunde", ["Katze", "Hund", "bellen"], "Hund"],
    ["de", "Häuser", ["Haus", "Garten"], "Haus"],
    ["es", "perros", ["perro", "gato"], "perro"],
    ["es", "casas", ["casa"], "casa"],
    ["fr", "chats", ["chien", "chat"], "chat"],
    ["tr", "evler", ["ev", "okul"], "ev"],
    ["tr", "kitaplar", ["kitap"], "kitap"],
    ["ru", "книги", ["книга", "стол"], "книга"],
    ["uk", "собаки", ["собака", "кіт"], "собака"],
  ])("%s: “%s” proposes the learner's term of the same stem", (language, word, terms, expected) => {
    expect(propose(language, word, terms)).toEqual([expected]);
  });

  it("proposes a shorter word of the text that shares the stem, after the learner's terms", () => {
    expect(propose("de", "Hunden", ["Hunde"], ["Die", "Hund", "Hunden", "Hundes", "bellt"])).toEqual(["Hunde", "Hund"]);
    // A longer word of the text is no lemma of this one.
    expect(propose("de", "Hund", [], ["Hunde", "Hunden"])).toEqual([]);
  });

  it("never proposes the word itself, twice the same word, or more than the panel shows", () => {
    expect(propose("de", "Hunde", ["Hunde", "hunde"])).toEqual([]);
    expect(propose("de", "Hunde", ["Hund"], ["hund", "Hund"])).toEqual(["Hund"]);
    const many = propose("de", "Hundes", ["Hund", "Hunde", "Hunden", "Hunds"]);
    expect(many).toHaveLength(MAX_PROPOSALS);
    expect(many[0]).toBe("Hund"); // shortest first
  });

  it("puts a dictionary's lemmas first: irregular forms no stemmer finds", () => {
    expect(propose("de", "ging", ["gehen"])).toEqual([]); // "ging" and "gehen" share no stem
    expect(propose("de", "ging", ["gehen"], [], ["gehen"])).toEqual(["gehen"]);
    expect(propose("de", "Hunde", ["Hund"], [], ["Hund"])).toEqual(["Hund"]);
  });

  it("finds nothing by stem in a language without a stemmer, only a dictionary's lemmas", () => {
    expect(propose("zh", "狗们", ["狗"])).toEqual([]);
    expect(propose("ja", "食べた", ["食べる"], [], ["食べる"])).toEqual(["食べる"]);
  });

  it("keys a family by the lower-cased stem, none for a one-letter stem", () => {
    const de = stemmerFor("de")!;
    expect(stemKey("de", "Hunde", de)).toBe("hund");
    expect(stemKey("de", " HUND ", de)).toBe("hund");
    expect(stemKey("tr", "İstanbul'da", stemmerFor("tr")!)).not.toContain("İ");
    expect(stemKey("de", "a", de)).toBeNull();
  });
});

describe("word families: the stage a word shows", () => {
  it("is the term's own once it has one", () => {
    for (const own of STAGES.filter((s) => s !== "tolearn"))
      for (const parent of STAGES) expect(familyStage(own, parent)).toBe(own);
  });

  it("is the parent's while the form has none of its own", () => {
    for (const parent of STAGES) expect(familyStage("tolearn", parent)).toBe(parent);
    expect(familyStage("tolearn", null)).toBe("tolearn");
    expect(familyStage("tolearn", undefined)).toBe("tolearn");
  });
});

describe("word families: no cycles", () => {
  it("refuses a term as its own form", () => {
    expect(linkRefusal({ id: "a", forms: 0 }, { id: "a" })).toBe("self");
  });

  it("refuses to make a parent a form (so no chain and no cycle)", () => {
    expect(linkRefusal({ id: "hund", forms: 2 }, { id: "tier" })).toBe("hasForms");
  });

  it("allows a term without forms under another", () => {
    expect(linkRefusal({ id: "hunde", forms: 0 }, { id: "hund" })).toBeNull();
  });
});
