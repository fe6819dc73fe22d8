import { getDatabase } from "../db/db.server";
import { dictionaryLemmas } from "../dictionary/entries.server";
import { LOCALES } from "../i18n/locales";

/** The dictionary's lemmas of a word in any interface language's dictionaries (`dictionaryLemmas`). */
export async function lemmaCandidates(language: string, word: string): Promise<string[]> {
  return dictionaryLemmas(await getDatabase(), language, LOCALES, word);
}
