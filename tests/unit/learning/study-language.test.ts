import { readFileSync } from "node:fs";
import path from "node:path";
import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { LOCALES } from "#app/i18n/locales.ts";
import { studyLanguageName, studyLanguageOptions } from "#app/learning/study-language.ts";
import { STUDY_LANGUAGES } from "#app/learning/vocabulary.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const TEN = ["en", "es", "fr", "de", "it", "uk", "zh", "ja", "ar", "tr", "pt", "ko"];

describe("study language names", () => {
  it("cover about 184 ISO 639-1 codes", () => {
    expect(STUDY_LANGUAGES.length).toBe(184);
    expect(new Set(STUDY_LANGUAGES).size).toBe(184);
    for (const code of STUDY_LANGUAGES) expect(code).toMatch(/^[a-z]{2}$/);
  });

  it.each(LOCALES)("name at least 10 study languages in %s, not by their code", (locale) => {
    const names = TEN.map((code) => studyLanguageName(code, locale));
    names.forEach((name, i) => {
      expect(name).not.toBe(TEN[i]);
      expect(name.length).toBeGreaterThan(1);
    });
    expect(new Set(names).size).toBe(TEN.length);
  });

  it("change with the interface language", () => {
    expect(studyLanguageName("es", "en")).toBe("Spanish");
    expect(studyLanguageName("es", "de")).toBe("Spanisch");
    expect(studyLanguageName("es", "uk")).toBe("іспанська");
    expect(studyLanguageName("de", "fr")).toBe("allemand");
  });

  it("show the raw code and warn for an unsupported interface locale", () => {
    const warnings: string[] = [];
    expect(studyLanguageName("es", "pt", (message) => warnings.push(message))).toBe("es");
    expect(warnings).toHaveLength(1);
  });

  it("show nothing for an empty code", () => expect(studyLanguageName("", "en")).toBe(""));

  it.each(LOCALES)("label every one of the 184 options differently in %s", (locale) => {
    const labels = studyLanguageOptions(STUDY_LANGUAGES, locale).map((option) => option.name);
    expect(labels).toHaveLength(184);
    const repeated = labels.filter((label, i) => labels.indexOf(label) !== i);
    expect(repeated).toEqual([]);
  });

  it("tell Akan (ak) from Twi (tw), which Intl names alike, and name a single code the same way as the list", () => {
    expect(studyLanguageName("ak", "en")).toBe("Akan (ak)");
    expect(studyLanguageName("tw", "en")).toBe("Akan (tw)");
    expect(studyLanguageName("tw", "zh")).toBe("阿肯语 (tw)");
    expect(studyLanguageOptions(STUDY_LANGUAGES, "de").find((option) => option.code === "tw")?.name).toBe("Akan (tw)");
    expect(studyLanguageName("es", "en")).toBe("Spanish");
  });

  it("are sorted by name in the interface language", () => {
    const names = studyLanguageOptions(STUDY_LANGUAGES, "de").map((o) => o.name);
    expect(names).toEqual([...names].sort(new Intl.Collator("de").compare));
  });
});

describe("plural wording", () => {
  const load = (lng: string) =>
    JSON.parse(readFileSync(path.resolve(PROJECT_ROOT, `locales/${lng}/learning.json`), "utf8"));
  it.each(LOCALES)("counts examples in %s for 0, 1, 2, 5, 21 and 1.5", async (lng) => {
    const i18n = createInstance();
    await i18n.init({ lng, resources: { [lng]: { learning: load(lng) } }, defaultNS: "learning" });
    for (const count of [0, 1, 2, 5, 21, 1.5]) {
      const text = i18n.t("examples", { count });
      expect(text).not.toMatch(/examples_|\{\{/);
      expect(text).toContain(new Intl.NumberFormat(lng).format(count).replace(/\s/g, "\u00a0").slice(0, 1));
    }
  });
  it("uses three Ukrainian forms", async () => {
    const i18n = createInstance();
    await i18n.init({ lng: "uk", resources: { uk: { learning: load("uk") } }, defaultNS: "learning" });
    expect([1, 2, 5, 21, 22, 25].map((count) => i18n.t("examples", { count }))).toEqual([
      "1 приклад",
      "2 приклади",
      "5 прикладів",
      "21 приклад",
      "22 приклади",
      "25 прикладів",
    ]);
  });
  it("uses singular and plural in English", async () => {
    const i18n = createInstance();
    await i18n.init({ lng: "en", resources: { en: { learning: load("en") } }, defaultNS: "learning" });
    expect([1, 2].map((count) => i18n.t("examples", { count }))).toEqual(["1 example", "2 examples"]);
  });
});
