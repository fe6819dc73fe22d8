import type { RouterContextProvider } from "react-router";
import { getInstance } from "../i18n/i18n.server";
import { samplesPageData } from "./samples-page.server";
import { shippedLists } from "../learning/public-lists.server";
import { STUDY_LANGUAGES } from "../learning/vocabulary";

/**
 * The landing page's reader: a few English sentences of running text whose words stand in every stage a learner's
 * words can be in. `end` is what follows a word (a space unless given).
 */
const SENTENCE: { text: string; stage: DemoStage; meaning?: boolean; end?: string }[] = [
  { text: "I", stage: "ignored" },
  { text: "live", stage: "learned", meaning: true },
  { text: "on", stage: "ignored" },
  { text: "a", stage: "ignored" },
  { text: "quiet", stage: "inprogress", meaning: true },
  { text: "street", stage: "tolearn", meaning: true },
  { text: "near", stage: "needsreview", meaning: true },
  { text: "the", stage: "ignored" },
  { text: "river", stage: "new", meaning: true, end: ". " },
  { text: "Every", stage: "ignored" },
  { text: "morning", stage: "learned" },
  { text: "I", stage: "ignored" },
  { text: "walk", stage: "learned" },
  { text: "to", stage: "ignored" },
  { text: "the", stage: "ignored" },
  { text: "old", stage: "learned" },
  { text: "bridge", stage: "new" },
  { text: "and", stage: "ignored" },
  { text: "watch", stage: "inprogress" },
  { text: "the", stage: "ignored" },
  { text: "boats", stage: "tolearn", end: "." },
];
const STAGES = ["new", "tolearn", "inprogress", "needsreview", "learned", "ignored"] as const;
type DemoStage = (typeof STAGES)[number];
const DEFAULT_WORD = 4;

let languageCounts: { lists: number; study: number } | null = null;

/**
 * What the landing page promises, counted from what ships: the languages with a public word list (the list files)
 * and the languages one can study. Counted once per process: the files do not change while it runs.
 */
export function shippedLanguageCounts(): { lists: number; study: number } {
  languageCounts ??= {
    lists: new Set(shippedLists().map((list) => list.language)).size,
    study: new Set(STUDY_LANGUAGES).size,
  };
  return languageCounts;
}

/**
 * The demo's words with their stages, the open word's panel (`?word=N`, a link rendered by the server: it works
 * without JavaScript) and the sample texts as cards. Stage names, levels and lengths are translated here, so the page
 * carries no other namespace's translations.
 */
export function landingDemo(request: Request, context: Readonly<RouterContextProvider>) {
  const { t } = getInstance(context);
  const param = new URL(request.url).searchParams.get("word");
  const asked = param === null || param === "" ? Number.NaN : Number(param);
  const open = Number.isInteger(asked) && asked >= 0 && asked < SENTENCE.length ? asked : DEFAULT_WORD;
  const word = SENTENCE[open]!;
  const stageName = (stage: DemoStage) => t(`reading:stages.${stage}`);
  return {
    words: SENTENCE.map(({ text, stage, end }) => ({ text, stage, end: end ?? " " })),
    open: {
      index: open,
      text: word.text,
      stage: word.stage,
      stageName: stageName(word.stage),
      meaning: word.meaning ? t(`landing:demo.words.${word.text}`) : null,
    },
    languages: shippedLanguageCounts(),
    legend: STAGES.map((stage) => ({ stage, name: stageName(stage) })),
    // One text per language (its easiest), so that more texts in one language do not crowd out the others.
    samples: samplesPageData(context)
      .samples.filter(
        (sample, index, all) =>
          ["en", "de", "es", "fr"].includes(sample.language) &&
          all.findIndex((other) => other.language === sample.language) === index,
      )
      .slice(0, 4)
      .map((sample) => ({
        slug: sample.slug,
        title: sample.title,
        language: sample.language,
        languageName: sample.languageName,
        level: t(`lists:levels.${sample.level}`),
        length: t("reading:stats.words", { count: sample.words }),
      })),
  };
}
