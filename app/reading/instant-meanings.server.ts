import type { Database } from "../db/db.server";
import { lookUp } from "../dictionary/entries.server";
import { DEFAULT_LOCALE } from "../i18n/locales";
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
