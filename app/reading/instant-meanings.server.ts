import type { Database } from "../db/db.server";
import { lookUp } from "../dictionary/entries.server";
import { DEFAULT_LOCALE } from "../i18n/locales";
import { isPartOfSpeech } from "../learning/vocabulary";
import type { InstantMeaning } from "./instant-meanings";

/**
 * The glosses of a word of a text in the interface language, or in English when the dictionaries have none in it
 * (CC-CEDICT and JMdict gloss in English): one indexed look-up of the word and its lemma.
 */
export async function meaningsFor(
  db: Database,
  language: string,
  locale: string,
  word: string,
): Promise<InstantMeaning[]> {
  const targets = locale === DEFAULT_LOCALE ? [locale] : [locale, DEFAULT_LOCALE];
  const found = await lookUp(db, language, targets, word);
  return found.map(({ headword, via, reading, partOfSpeech, glosses, language: glossLanguage }) => ({
    headword,
    via,
    reading,
    partOfSpeech,
    glosses,
    language: glossLanguage,
  }));
}

/** The meaning (and part of speech) a gloss button sent without JavaScript, to prefill the "add term" form. */
export function prefillOf(query: URLSearchParams): { meaning?: string; partOfSpeech?: string } {
  const meaning = query.get("meaning")?.trim().slice(0, 500);
  const partOfSpeech = query.get("partOfSpeech") ?? "";
  return {
    ...(meaning ? { meaning } : {}),
    ...(meaning && isPartOfSpeech(partOfSpeech) ? { partOfSpeech } : {}),
  };
}
