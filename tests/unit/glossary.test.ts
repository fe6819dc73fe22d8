import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capitalize, quoteMarks } from "../../app/i18n/format";
import { LOCALES, NAMESPACES } from "../../app/i18n/locales";
import { NUMBER_VARIABLES } from "../../app/i18n/number-variables";
import { TERMS_PER_LEARNER, TEXTS_PER_LEARNER } from "../../app/learning/limits.server";
import { LIMITS } from "../../app/learning/daily-limits";
import { DEFAULT_SETTINGS } from "../../app/learning/settings.server";
import { NOTES_MAX_LENGTH } from "../../app/learning/term-form";
import { TEXT_LIMIT_BYTES } from "../../app/reading/text-form";
import { MAX_FIELDS, MAX_PACKAGE_ENTRIES } from "../../app/transfer/anki-import.server";
import { MAX_ROWS } from "../../app/transfer/import.server";
import { MAX_SOUND_BYTES, SOUNDS_PER_LEARNER_BYTES } from "../../app/learning/sounds";

/**
 * Keeps `locales/GLOSSARY.md`: per locale, the variants the glossary rejects (formal address, the words not chosen)
 * appear in no string outside the exceptions below; no string hand-writes a grouped number; every page has a title.
 */
const root = path.resolve(import.meta.dirname, "../..");
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(name, value);
    else for (const [k, v] of flatten(value, name)) out.set(k, v);
  }
  return out;
}
/** Every string of a locale, keyed `namespace:key`. */
function strings(lng: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const ns of NAMESPACES) {
    const tree = JSON.parse(readFileSync(path.join(root, "locales", lng, `${ns}.json`), "utf8")) as Tree;
    for (const [key, text] of flatten(tree)) out.set(`${ns}:${key}`, text);
  }
  return out;
}

type Rule = { name: string; pattern: RegExp };
/** `\b` knows only ASCII letters; these bounds work for Cyrillic and accented Latin too. */
const word = (alternatives: string, flags = "iu") =>
  new RegExp(`(?<![\\p{L}\\p{M}])(?:${alternatives})(?![\\p{L}\\p{M}])`, flags);

/** Per locale, what the glossary rejects. */
const FORBIDDEN: Partial<Record<string, Rule[]>> = {
  de: [
    { name: "Sie/Ihr (du throughout)", pattern: /(?<!^|[.!?:]\s)(?<![\p{L}])(?:Sie|Ihnen|Ihre?[mnrs]?)(?![\p{L}])/u },
    { name: "Begriff (Vokabel)", pattern: word("begriff\\p{L}*") },
    { name: "Leser (a person; Leseansicht)", pattern: word("lesers?") },
    { name: "In Arbeit (Wird gelernt)", pattern: word("in arbeit") },
    { name: "a gender mid-dot or colon (a neutral phrasing)", pattern: /\p{L}[·:*]in(?:nen)?(?!\p{L})/u },
    { name: "Mail alone (E-Mail)", pattern: word("mail\\p{L}*", "u") },
    { name: "straight quotes („…“)", pattern: /"/ },
  ],
  es: [
    { name: "usted (tú throughout)", pattern: word("usted|ustedes") },
    { name: "término (palabra, vocabulario)", pattern: word("términos?") },
    { name: "enlace de inicio de sesión (enlace de acceso)", pattern: word("enlaces? de inicio de sesión") },
    { name: "valoración (calificación)", pattern: word("valoracion(?:es)?|valoración") },
    { name: "pago pendiente for an overdue payment (pago vencido)", pattern: word("pago pendiente") },
    { name: "tú mismo/misma (gender of the learner)", pattern: word("tú mism[oa]s?|ti mism[oa]") },
    { name: "qué tan (peninsular: cuán, lo bien que)", pattern: word("qué tan") },
  ],
  fr: [
    { name: "vous (tu throughout)", pattern: word("vous|votre|vos") },
    {
      name: "imperative with vous",
      pattern: word("(?:choisiss|saisiss|collez|vérifi|connect|envoy|téléchargu?|essay|réessay|mett|modifi)ez"),
    },
    { name: "terme (mot, vocabulaire)", pattern: word("termes?") },
    { name: "courriel (e-mail)", pattern: word("courriels?") },
    { name: "Signification (Sens)", pattern: word("signification") },
    { name: "nature grammaticale (classe grammaticale)", pattern: word("natures? grammaticales?") },
    {
      name: "connecté·e of the learner (the session, not the person)",
      pattern: word("(?:rester|es|être|restes) connectée?"),
    },
    { name: "a straight apostrophe (’)", pattern: /'/ },
    { name: "a breaking space before : ; ? ! » (U+202F)", pattern: /[ \u00a0][:;?!»]|«[ \u00a0]/ },
  ],
  tr: [
    { name: "siz (sen throughout)", pattern: word("siz|size|sizin|\\p{L}+[iıuü]n[iıuü]z") },
    { name: "imperative with siz", pattern: word("(?:yap|ed|gir|dene|seç|yenile|güncelle|dön|kontrol ed)[iıuü]n") },
    { name: "terim (kelime)", pattern: word("terim\\p{L}*") },
    { name: "okuma ekranı (okuma görünümü)", pattern: word("okuma ekran\\p{L}*") },
    { name: "a suffix glued to {{language}} or {{plan}}", pattern: /\}\}(?:’|')?\p{Ll}/u },
    { name: "a straight apostrophe (’)", pattern: /'/ },
  ],
  uk: [
    { name: "ви (ти throughout)", pattern: word("ви|ваш\\p{L}*|вам|вас|вами") },
    { name: "imperative with ви", pattern: word("\\p{L}+(?:іть|йте|ьте)") },
    { name: "термін (слово)", pattern: word("термін\\p{L}*") },
    { name: "наголос (stress, not diacritics)", pattern: word("наголос\\p{L}*") },
    {
      name: "a gendered past tense next to ти",
      pattern: word("(?:\\p{L}+(?:в|ла) не ти)|(?:ти (?:\\p{L}+)(?:в|ла))(?=[ ,.])"),
    },
    { name: "e-mail in Latin letters (електронна пошта)", pattern: word("e-mail") },
    { name: "мовою {{language}} (inflects a nominative)", pattern: /мовою «?\{\{language/ },
  ],
  zh: [
    { name: "您 (你 throughout)", pattern: /您/ },
    { name: "词条 (单词, 生词本)", pattern: /词条/ },
    { name: "笔记 for the notes field (备注)", pattern: /笔记/ },
    { name: "重音符号 (变音符号)", pattern: /重音/ },
    { name: "卡组 (牌组, as Anki says)", pattern: /卡组/ },
    { name: "认识 for known words (已知)", pattern: /已认识|标为认识/ },
  ],
};

/** Keys allowed to carry a forbidden form, each with the reason. */
const EXCEPTIONS: Partial<Record<string, Record<string, string>>> = {
  zh: {
    "learning:import.kinds.anki": "Anki's own name of its export, “纯文本笔记”",
    "learning:import.intro": "Anki's own name of its export, “纯文本笔记”",
    "learning:import.packageErrors.tooManyFields":
      "Anki's own names of a note type and its menu, “笔记类型”, “笔记 › 更改笔记类型”",
  },
};

describe("glossary", () => {
  for (const lng of LOCALES) {
    const rules = FORBIDDEN[lng] ?? [];
    if (rules.length === 0) continue;
    it(`${lng} uses the glossary's words and register`, () => {
      const found: string[] = [];
      for (const [key, text] of strings(lng)) {
        if (EXCEPTIONS[lng]?.[key]) continue;
        for (const rule of rules) {
          const match = rule.pattern.exec(text);
          if (match) found.push(`${key}: ${rule.name} (“${match[0]}”)`);
        }
      }
      expect(found).toEqual([]);
    });
  }

  it("rejects what it should, so the rules above can fail", () => {
    expect(word("vous").test("Vous souvenez-vous ?")).toBe(true);
    expect(word("ви").test("Чи ви пам’ятаєте?")).toBe(true);
    expect(word("ви").test("Вивчено")).toBe(false);
  });
});

describe("numbers", () => {
  /** A date's year is the one long number a string may write (the legal pages' “last updated”). */
  const DATED = new Set(["legal:updated"]);
  for (const lng of LOCALES) {
    it(`${lng} writes no number of four digits or more, and no percent sign, by hand`, () => {
      const found: string[] = [];
      for (const [key, text] of strings(lng)) {
        const bare = text.replace(/\{\{[^}]*\}\}/g, "");
        if (!DATED.has(key) && /\d[.,\u00a0\u202f ]?\d{3}/.test(bare)) found.push(`${key}: ${text}`);
        if (/%/.test(bare)) found.push(`${key}: ${text}`);
      }
      expect(found).toEqual([]);
    });
  }

  /**
   * Variables whose values are words, names, dates or numbers the code has already formatted (money, shares and percents
   * through `Intl.NumberFormat`), and the two numbers that are not quantities (a year, an HTTP status). Every other
   * variable is a number and goes through the locale's `Intl.NumberFormat`: `{{count, number}}`.
   */
  const NOT_QUANTITIES = new Set([
    ...["language", "text", "date", "email", "title", "plan", "level", "answer", "word", "period", "path", "os"],
    ...["name", "value", "stage", "letter", "grade", "browser", "day"],
    ...["amount", "min", "max", "pledged", "goal", "share", "percent"],
    ...["year", "status", "kind", "parent", "time", "query"],
  ]);
  for (const lng of LOCALES) {
    it(`${lng} formats every number it interpolates ({{count, number}})`, () => {
      const found: string[] = [];
      for (const [key, text] of strings(lng)) {
        for (const [, name, format] of text.matchAll(/\{\{\s*([\w.]+)\s*(?:,\s*([^}]*))?\}\}/g)) {
          if (name === "count" ? format !== "number" : !format && !NOT_QUANTITIES.has(name!)) {
            found.push(`${key}: {{${name}${format ? `, ${format}` : ""}}}`);
          }
        }
      }
      expect(found).toEqual([]);
    });
  }

  it("a raw {{count}} or an unlisted variable would fail the check above", () => {
    const raw = [..."{{count}} terms, {{rows}} rows".matchAll(/\{\{\s*([\w.]+)\s*(?:,\s*([^}]*))?\}\}/g)];
    expect(
      raw.map(([, name, format]) => (name === "count" ? format !== "number" : !format && !NOT_QUANTITIES.has(name!))),
    ).toEqual([true, true]);
  });

  it("show a count in the locale's format and keep its plural form", async () => {
    const { createInstance } = await import("i18next");
    const i18n = createInstance();
    await i18n.init({
      lng: "en",
      resources: Object.fromEntries(
        LOCALES.map((lng) => [
          lng,
          { reading: JSON.parse(readFileSync(path.join(root, "locales", lng, "reading.json"), "utf8")) as Tree },
        ]),
      ),
      defaultNS: "reading",
      interpolation: { escapeValue: false, defaultVariables: NUMBER_VARIABLES },
    });
    const expected = {
      en: "1,234",
      de: "1.234",
      es: "1234",
      fr: "1\u202f234",
      tr: "1.234",
      uk: "1\u00a0234",
      zh: "1,234",
    };
    for (const lng of LOCALES) {
      const count = 1234;
      expect(new Intl.NumberFormat(lng).format(count), lng).toBe(expected[lng]);
      const form = new Intl.PluralRules(lng).select(count);
      const template = strings(lng).get(`reading:stats.unknown_${form}`)!;
      const text = i18n.t("stats.unknown", { lng, count, share: "5 %" });
      expect(text, lng).toBe(template.replace("{{count, number}}", expected[lng]).replace("{{share}}", "5 %"));
    }
    expect(i18n.t("stats.unknown", { lng: "en", count: 1, share: "1%" })).toBe("1 unknown (1%)");
  });

  it("name the limits the code enforces", () => {
    expect(NUMBER_VARIABLES.maxNewPerDay).toBe(LIMITS.newPerDay.max);
    expect(NUMBER_VARIABLES.maxReviewsPerDay).toBe(LIMITS.reviewsPerDay.max);
    expect(NUMBER_VARIABLES.defaultNewPerDay).toBe(DEFAULT_SETTINGS.newPerDay);
    expect(NUMBER_VARIABLES.defaultReviewsPerDay).toBe(DEFAULT_SETTINGS.reviewsPerDay);
    expect(NUMBER_VARIABLES.maxImportRows).toBe(MAX_ROWS);
    expect(NUMBER_VARIABLES.maxTextBytes).toBe(TEXT_LIMIT_BYTES);
    expect(NUMBER_VARIABLES.maxTexts).toBe(TEXTS_PER_LEARNER);
    expect(NUMBER_VARIABLES.maxTerms).toBe(TERMS_PER_LEARNER);
    expect(NUMBER_VARIABLES.maxNotes).toBe(NOTES_MAX_LENGTH);
    expect(NUMBER_VARIABLES.maxPackageEntries).toBe(MAX_PACKAGE_ENTRIES);
    expect(NUMBER_VARIABLES.maxAnkiFields).toBe(MAX_FIELDS);
    expect(NUMBER_VARIABLES.maxSoundMb * 1024 * 1024).toBe(MAX_SOUND_BYTES);
    expect(NUMBER_VARIABLES.soundsPerLearnerMb * 1024 * 1024).toBe(SOUNDS_PER_LEARNER_BYTES);
    expect(readFileSync(path.join(root, "app/transfer/import-rows.server.ts"), "utf8")).toContain(
      "notes.length > NOTES_MAX_LENGTH",
    );
  });

  it("are written in each locale's own format", async () => {
    const { createInstance } = await import("i18next");
    const i18n = createInstance();
    await i18n.init({
      lng: "de",
      resources: Object.fromEntries(
        LOCALES.map((lng) => [lng, { learning: { hint: strings(lng).get("learning:settings.reviewsPerDayHint")! } }]),
      ),
      defaultNS: "learning",
      interpolation: { escapeValue: false, defaultVariables: NUMBER_VARIABLES },
    });
    expect(i18n.t("hint", { lng: "en" })).toContain("10,000");
    expect(i18n.t("hint", { lng: "de" })).toContain("10.000");
    expect(i18n.t("hint", { lng: "fr" })).toContain("10\u202f000");
  });
});

describe("language names that start a heading", () => {
  it("are capitalised by the locale's rules", () => {
    const name = (code: string, lng: string) => new Intl.DisplayNames([lng], { type: "language" }).of(code)!;
    expect(capitalize(name("de", "es"), "es")).toBe("Alemán");
    expect(capitalize(name("de", "fr"), "fr")).toBe("Allemand");
    expect(capitalize(name("de", "uk"), "uk")).toBe("Німецька");
    expect(capitalize("italyanca", "tr")).toBe("İtalyanca");
    expect(capitalize("", "en")).toBe("");
  });
});

describe("quotation marks", () => {
  it("are each locale's own, as the glossary's Typography says", () => {
    const quote = (lng: string) => quoteMarks(lng).join("…");
    expect(Object.fromEntries(LOCALES.map((lng) => [lng, quote(lng)]))).toEqual({
      de: "„…“",
      en: "“…”",
      es: "«…»",
      fr: "«\u202f…\u202f»",
      tr: "“…”",
      uk: "«…»",
      zh: "“…”",
    });
    const glossary = readFileSync(path.join(root, "locales/GLOSSARY.md"), "utf8");
    expect(glossary).toContain("`quoteMarks()`");
  });
});

describe("page titles", () => {
  const routes = path.join(root, "app/routes");
  const en = strings("en");
  /** A module that renders a page: a default export that is neither a layout (an Outlet) nor an empty target. */
  const pages = readdirSync(routes)
    .filter((file) => file.endsWith(".tsx"))
    .map((file) => ({ file, source: readFileSync(path.join(routes, file), "utf8") }))
    .filter(({ source }) => /export default function/.test(source))
    .filter(({ source }) => !/<Outlet/.test(source))
    .filter(({ source }) => !/export default function \w+\(\) \{\s*return null;\s*\}/.test(source));

  it("are found", () => expect(pages.length).toBeGreaterThan(25));

  for (const { file, source } of pages) {
    it(`${file} declares a translated title`, () => {
      const key = /export const handle: PageHandle[^=]* = \{\s*title: "([^"]+)"/.exec(source)?.[1];
      expect(key, "handle.title").toBeDefined();
      const full = key!.includes(":") ? key! : `common:${key}`;
      expect(en.has(full), `${full} in en`).toBe(true);
      for (const lng of LOCALES) expect(strings(lng).get(full)?.trim(), `${full} in ${lng}`).toBeTruthy();
    });
  }
});
