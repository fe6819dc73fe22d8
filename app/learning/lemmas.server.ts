import { sql } from "drizzle-orm";
import { getDatabase } from "../db/db.server";
import { dictionaryKey } from "../dictionary/entries.server";
import { LOCALES } from "../i18n/locales";

/** At most this many lemmas are proposed for one word. */
const MOST_LEMMAS = 3;

/**
 * The dictionary's lemmas of a word ("ging" → ["gehen"]), for the word panel's parent proposals (ADR 061): the
 * entries of the word as a headword in the study language (glossed in any interface language) that name a lemma other
 * than the word itself, and the dictionary forms a morphological source gives it (`dictionary_forms`), the lemma named
 * most often first. Index look-ups on (from, to, headword_key) and (language, form_key).
 */
export async function lemmaCandidates(language: string, word: string): Promise<string[]> {
  const key = dictionaryKey(language, word);
  if (!key || key.length > 200) return [];
  const db = await getDatabase();
  const result = await db.execute(sql`
    select lemma from (
      select lemma from dictionary_entries
      where from_language = ${language}
        and to_language in (${sql.join(
          LOCALES.map((locale) => sql`${locale}`),
          sql`, `,
        )})
        and headword_key = ${key} and lemma is not null and lemma_key <> ${key}
      union all
      select lemma from dictionary_forms where language = ${language} and form_key = ${key}
    ) found
    group by lemma order by count(*) desc, lemma limit ${MOST_LEMMAS}`);
  return (result as unknown as { rows: { lemma: string }[] }).rows.map((row) => row.lemma);
}
