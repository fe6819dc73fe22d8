import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inLocale, parseListFile } from "#app/learning/public-list-file.ts";
import { shippedLists } from "#app/learning/public-lists.server.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const folder = path.resolve(PROJECT_ROOT, "app/learning/public-lists");

const house = {
  text: "das Haus",
  partOfSpeech: "noun",
  meaning: { de: "Gebäude, in dem man wohnt", en: "house", es: "casa" },
  example: { sentence: "Unser Haus hat einen kleinen Garten.", translation: { en: "Our house has a small garden." } },
};
const list = (terms: unknown[], extra: Record<string, unknown> = {}) => ({
  language: "de",
  level: "beginner",
  terms,
  ...extra,
});

describe("the shipped public list files", () => {
  it.each(readdirSync(folder))("%s has the per-locale format", (file) => {
    const parsed = parseListFile(file, JSON.parse(readFileSync(path.join(folder, file), "utf8")));
    expect(parsed.terms.length).toBeGreaterThan(0);
    for (const term of parsed.terms) expect(term.meaning.en).toBeTruthy();
  });
});

describe("the lists a start loads", () => {
  it("are checked once per process: the list loader and the glosses' loader share them", () => {
    expect(shippedLists()).toBe(shippedLists());
  });
});

describe("checking a public list file", () => {
  it("accepts a good file and keeps the texts per locale", () => {
    const parsed = parseListFile("de-beginner.json", list([house]));
    expect(parsed.terms[0]!.meaning).toEqual(house.meaning);
    expect(parsed.terms[0]!.example.translation).toEqual({ en: "Our house has a small garden." });
  });

  it.each([
    [list([house], { level: "native" }), /de-beginner\.json: unknown level "native"/],
    [list([house], { language: "xx" }), /de-beginner\.json: unknown language "xx"/],
    [list([house], { level: "elementary" }), /holds de elementary, so it must be named de-elementary\.json/],
    [list([]), /de-beginner\.json: has no terms/],
    [list([{ ...house, text: " " }]), /de-beginner\.json: term 1 has no text/],
    [list([house, { ...house, text: "Das Haus" }]), /term 2 \(Das Haus\) appears twice/],
    [list([{ ...house, partOfSpeech: "gerund" }]), /term 1 \(das Haus\) has part of speech "gerund"/],
    [list([{ ...house, meaning: "house" }]), /term 1 \(das Haus\) meaning must be an object of texts per/],
    [list([{ ...house, meaning: { de: "Gebäude" } }]), /term 1 \(das Haus\) meaning lacks "en"/],
    [list([{ ...house, meaning: { en: "house", it: "casa" } }]), /meaning has "it", which is not an interface locale/],
    [list([{ ...house, meaning: { en: "house", fr: "" } }]), /term 1 \(das Haus\) meaning "fr" is empty/],
    [list([{ ...house, example: { translation: {} } }]), /term 1 \(das Haus\) has no example sentence/],
    [
      list([{ ...house, example: { sentence: "Ja.", translation: { de: "Ja." } } }]),
      /term 1 \(das Haus\) example translation is in the list's own language/,
    ],
  ])("refuses a bad file with an error naming the file and the term (%#)", (raw, message) => {
    expect(() => parseListFile("de-beginner.json", raw)).toThrow(message);
  });
});

describe("choosing the text for an interface locale", () => {
  it("takes the locale's text, else English, else nothing", () => {
    expect(inLocale({ en: "house", de: "Haus" }, "de")).toBe("Haus");
    expect(inLocale({ en: "house", de: "Haus" }, "tr")).toBe("house");
    expect(inLocale({ es: "casa" }, "tr")).toBe("");
  });
});
