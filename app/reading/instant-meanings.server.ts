import type { Database } from "../db/db.server";
import { panelLookUp } from "../dictionary/entries.server";
import { DEFAULT_LOCALE } from "../i18n/locales";
import type { InstantMeaning } from "./instant-meanings";

/**
 * The glosses of a word of a text in the interface language, or in English when the dictionaries have none in it
 * (CC-CEDICT and JMdict gloss in English), and its dictionary lemmas for the family proposals: one statement of
 * indexed look-ups (`panelLookUp`).
 */
export async function meaningsFor(
  db: Database,
  language: string,
  locale: string,
  word: string,
): Promise<{ meanings: InstantMeaning[]; lemmas: string[] }> {
  const targets = locale === DEFAULT_LOCALE ? [locale] : [locale, DEFAULT_LOCALE];
  const found = await panelLookUp(db, language, targets, word);
  const meanings = found.glosses.map(({ headword, via, reading, partOfSpeech, glosses, language: glossLanguage }) => ({
    headword,
    via,
    reading,
    partOfSpeech,
    glosses,
    language: glossLanguage,
  }));
  return { meanings, lemmas: found.lemmas };
}
