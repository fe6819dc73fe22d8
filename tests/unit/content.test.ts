import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../app/i18n/locales";
import { parseListFile, type ListFile } from "../../app/learning/public-list-file";
import { isLevel, isStudyLanguage, LEVELS, type Level } from "../../app/learning/vocabulary";
import { POPULAR_STUDY_LANGUAGES } from "../../app/learning/welcome.server";

/**
 * The shipped content (decision 122): every list and sample text is well formed, and every language learners choose
 * most has its starter lists and graded texts. A language enters DELIVERED when its content is complete; from then on
 * this test holds it to the rules below.
 */
const listFolder = path.resolve(import.meta.dirname, "../../app/learning/public-lists");
const textFolder = path.resolve(import.meta.dirname, "../../app/reading/samples");

/** The most chosen study languages, English first; the first ten after English get a text at every level. */
const LANGUAGES = ["en", "es", "fr", "de", "it", "pt", "ja", "zh", "ko", "ru", "ar"] as const;
const MORE_LANGUAGES = ["tr", "uk", "nl", "pl", "sv", "el", "he", "hi", "vi", "id"] as const;
const EVERY_LEVEL = new Set<string>(LANGUAGES);
/** The languages whose starter lists and beginner and elementary texts are complete: the rules below hold for them. */
const DELIVERED = new Set<string>(POPULAR_STUDY_LANGUAGES);
/** Of EVERY_LEVEL, those whose texts at the higher levels are written too. */
const DELIVERED_EVERY_LEVEL = new Set<string>(["en", "es", "fr", "de", "it", "pt", "ja", "zh", "ko", "ru", "ar"]);

const STARTER_LEVELS: Level[] = ["beginner", "elementary"];
const MIN_STARTER_TERMS = 100;
const TEXT_WORDS = { min: 80, max: 200 };

const readJson = (folder: string, file: string) => JSON.parse(readFileSync(path.join(folder, file), "utf8")) as unknown;
const lists: ListFile[] = readdirSync(listFolder).map((file) => parseListFile(file, readJson(listFolder, file)));
const rawLists = new Map(
  readdirSync(listFolder).map((file) => [file, readJson(listFolder, file) as Record<string, unknown>]),
);

type Text = { slug: string; language: string; level: string; title: string; body: string; source?: unknown };
const texts = readdirSync(textFolder).map((file) => ({ file, text: readJson(textFolder, file) as Text }));

const ARTICLES = new Set(
  "the a an to der die das ein eine sich el la los las un una le l' les une il lo gli i o os as um uma de het en ett ο η το οι τα".split(
    " ",
  ),
);
const normal = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0591-\u05c7]/g, "")
    .normalize("NFC")
    .toLowerCase();

/** Verbs whose forms share no three letters with their infinitive, with the form their example uses. */
const SUPPLETIVE: Record<string, string | string[]> = {
  querer: "quiero",
  haber: "has",
  être: "est",
  bere: "beve",
  dovere: "devo",
  poder: ["posso", "puedo"],
  oír: "oyes",
  volver: "vuelvo",
  pensar: "pienso",
  ser: "es",
  essere: "è",
  avere: "ho",
  saber: ["sei", "sé"],
  savoir: "sais",
  pouvoir: "peux",
  идти: "иду",
  быть: "буду",
  ехать: "едем",
  хотеть: "хочу",
  хотіти: "хочу",
  іти: "йду",
  їхати: "їдемо",
  бути: "буду",
  mieć: "mam",
  kunna: "kan",
  können: "kann",
  wollen: "will",
  wissen: "weiß",
  mögen: "mag",
  potere: "posso",
  uscire: "esco",
  volere: "voglio",
  sapere: "so",
  לרצות: "רוצה",
  לאהוב: "אוהב",
};

/**
 * Whether a sentence holds its term or a form of it: a piece of the longest word of the term, past its articles, three
 * letters long (two of a three-letter word or of Chinese, Japanese, Korean and Hebrew, one of a shorter one) or its
 * first half, so that inflected and separated forms count
 * (sprechen → spricht, ankommen → kommt … an, учить → учу, 食べる → 食べます, kitap → kitabı).
 */
export function holdsTerm(sentence: string, term: string): boolean {
  if ([SUPPLETIVE[term] ?? []].flat().some((form) => normal(sentence).includes(normal(form)))) return true;
  const cleaned = normal(term)
    .replace(/[()]/g, " ")
    .replace(/\b[ld]'/g, "")
    .trim();
  const words = cleaned.split(/[\s/]+/).filter((word) => word && !ARTICLES.has(word));
  const letters = [...(words.sort((a, b) => [...b].length - [...a].length)[0] ?? cleaned)];
  // A Korean verb or adjective: its stem, less the syllable that contracts with an ending (마시다 → 마셔요), and of a
  // one-syllable stem its consonant and vowel without the final consonant (덥다 → 더워요, 부르다 → 불러요).
  if (/\p{Script=Hangul}/u.test(term) && letters.length > 1 && letters.at(-1) === "다") {
    const stem = letters.slice(0, letters.length > 2 ? -2 : -1);
    if (stem.length > 1) return normal(sentence).includes(stem.join(""));
    const open = (syllable: string) => Math.floor((syllable.codePointAt(0)! - 0xac00) / 28);
    return [...sentence].some((syllable) => /\p{Script=Hangul}/u.test(syllable) && open(syllable) === open(stem[0]!));
  }
  // A Hindi infinitive: its stem before ना (आना → आओगे).
  if (/\p{Script=Devanagari}/u.test(term) && normal(term).endsWith("ना") && letters.length > 2)
    return normal(sentence).includes(letters.slice(0, -2).join(""));
  // A Hebrew infinitive: its root letters past the prefix ל (לשלוח → אשלח).
  if (/\p{Script=Hebrew}/u.test(term) && letters.length > 3 && letters[0] === "ל") letters.shift();
  const syllabic = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Hebrew}]/u.test(
    term,
  );
  const size = letters.length <= 2 ? 1 : letters.length === 3 || syllabic ? 2 : 3;
  const haystack = normal(sentence);
  const prefix = letters.slice(0, Math.max(2, Math.floor(letters.length / 2))).join("");
  if (letters.length >= 4 && haystack.includes(prefix)) return true;
  return letters.some((_, i) => i + size <= letters.length && haystack.includes(letters.slice(i, i + size).join("")));
}

const wordCount = (language: string, body: string) =>
  [...new Intl.Segmenter(language, { granularity: "word" }).segment(body)].filter((part) => part.isWordLike).length;

describe("every shipped list", () => {
  it.each(lists.map((list) => [`${list.language}-${list.level}`, list] as const))("%s is well formed", (_, list) => {
    for (const term of list.terms) {
      for (const locale of LOCALES) expect(term.meaning[locale], `${term.text}: meaning in ${locale}`).toBeTruthy();
      expect(holdsTerm(term.example.sentence, term.text), `${term.text}: ${term.example.sentence}`).toBe(true);
      expect(term.example.translation.en ?? (list.language === "en" ? "-" : ""), term.text).toBeTruthy();
    }
    const distinct = new Set(list.terms.map((term) => term.text.normalize("NFC").toLocaleLowerCase(list.language)));
    expect(distinct.size).toBe(list.terms.length);
  });
});

describe("every shipped sample text", () => {
  it.each(texts.map(({ file, text }) => [file, text] as const))("%s is well formed", (file, text) => {
    expect(file).toBe(`${text.slug}.json`);
    expect(text.slug).toMatch(new RegExp(`^${text.language}-[a-z0-9-]+$`));
    expect(isStudyLanguage(text.language)).toBe(true);
    expect(isLevel(text.level)).toBe(true);
    expect(text.title.trim()).not.toBe("");
    expect(text.body.trim()).not.toBe("");
  });
});

const listOf = (language: string, level: Level) =>
  lists.find((list) => list.language === language && list.level === level);
const textsOf = (language: string, level: Level) =>
  texts.filter(({ text }) => text.language === language && text.level === level).map(({ text }) => text);

/** What a language still lacks of the content the issue asks for (with `higher`, of its texts above elementary). */
function missing(language: string, higher = true): string[] {
  const gaps: string[] = [];
  for (const level of STARTER_LEVELS) {
    const terms = listOf(language, level)?.terms.length ?? 0;
    if (terms < MIN_STARTER_TERMS) gaps.push(`${level} list (${terms} of ${MIN_STARTER_TERMS} terms)`);
    const count = textsOf(language, level).length;
    if (count < 2) gaps.push(`${level} texts (${count} of 2)`);
  }
  if (higher && EVERY_LEVEL.has(language))
    for (const level of LEVELS.slice(2)) if (textsOf(language, level).length === 0) gaps.push(`${level} text`);
  return gaps;
}

/** Per starter list, the interface languages some of its examples lack a translation into, with how many lack it. */
function untranslatedExamples(language: string): string[] {
  const gaps: string[] = [];
  for (const level of STARTER_LEVELS)
    for (const locale of LOCALES.filter((other) => other !== language)) {
      const terms = listOf(language, level)?.terms ?? [];
      const lacking = terms.filter((term) => !term.example.translation[locale]?.trim()).length;
      if (lacking > 0) gaps.push(`${level} ${locale} (${lacking} of ${terms.length})`);
    }
  return gaps;
}

describe("the content of each language learners choose most", () => {
  for (const language of [...LANGUAGES, ...MORE_LANGUAGES]) {
    if (!DELIVERED.has(language) || (EVERY_LEVEL.has(language) && !DELIVERED_EVERY_LEVEL.has(language)))
      it.todo(`${language}: ${missing(language).join(", ") || "complete; add it to DELIVERED"}`);
    it(`${language}'s starter examples are translated into every other interface language`, () => {
      expect(untranslatedExamples(language)).toEqual([]);
    });
    if (!DELIVERED.has(language)) continue;
    it(`${language} has starter lists of at least ${MIN_STARTER_TERMS} terms and graded texts`, () => {
      expect(missing(language, DELIVERED_EVERY_LEVEL.has(language))).toEqual([]);
    });
    it(`${language}'s lists and texts say where they come from and how they were checked`, () => {
      for (const level of STARTER_LEVELS) {
        const source = rawLists.get(`${language}-${level}.json`)?.source as Record<string, string> | undefined;
        expect(source?.meanings, `${language}-${level}`).toBeTruthy();
        expect(source?.checked, `${language}-${level}`).toBeTruthy();
        expect(source?.licence, `${language}-${level}`).toBeTruthy();
      }
      for (const { text: sample } of texts.filter((entry) => entry.text.language === language)) {
        const source = sample.source as Record<string, string> | undefined;
        expect(source?.checked, sample.slug).toBeTruthy();
        expect(source?.licence, sample.slug).toBeTruthy();
      }
    });
    it(`${language}'s beginner and elementary texts are ${TEXT_WORDS.min}-${TEXT_WORDS.max} words long`, () => {
      for (const level of STARTER_LEVELS)
        for (const text of textsOf(language, level)) {
          const words = wordCount(language, text.body);
          expect(words, text.slug).toBeGreaterThanOrEqual(TEXT_WORDS.min);
          expect(words, text.slug).toBeLessThanOrEqual(TEXT_WORDS.max);
        }
    });
  }
});

describe("finding a term in its example", () => {
  it.each([
    ["Unser Haus hat einen kleinen Garten.", "das Haus", true],
    ["Я иду домой.", "идти", true],
    ["毎朝パンを食べます。", "食べる", true],
    ["Kitabı okudum.", "kitap", true],
    ["물을 많이 마셔요.", "마시다", true],
    ["여름은 정말 더워요.", "덥다", true],
    ["Meine Schwester spricht Englisch.", "sprechen", true],
    ["Der Zug kommt um sieben an.", "ankommen", true],
    ["אני אשלח לך את התמונות.", "לשלוח", true],
    ["Der Hund schläft.", "die Katze", false],
  ])("%s holds %s: %s", (sentence, term, holds) => {
    expect(holdsTerm(sentence, term)).toBe(holds);
  });
});
