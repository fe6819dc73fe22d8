/**
 * Known words for the seed (scripts/seed-terms.ts `--known N`): the words a learner marked as known in the reader
 * (ADR 105), deterministic for a given --seed, so that the reader bench can write a text out of the same words. The
 * commonest words of the language come first, then generated ones; they are written straight into `ignored_words`,
 * marked on days spread over the past year, and the database's triggers count them in `known_days` as the reader's
 * marking does.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/open.server.ts";
import { DAY_MS } from "./histories.ts";
import { prng, wordFactory } from "./vocabulary.ts";

/** The commonest words of a text, which a learner with thousands of known words knows first. */
export const COMMON_WORDS = "the a of and to in is was it that with on for as at by from this they we".split(" ");

const DAYS_SPREAD = 365;
const ROWS_PER_STATEMENT = 500;

/** `count` distinct one-word known words for the seed (the common words, then generated ones, lower-case). */
export function knownWordList(count: number, seed: number): string[] {
  const nextWord = wordFactory(prng(seed ^ 0x2f6b7a31));
  const words = new Set(COMMON_WORDS.slice(0, count));
  while (words.size < count) {
    const word = nextWord();
    // Generated with a different start than the terms, and one word each: "der Hund" is a term, never a known word.
    if (!word.includes(" ")) words.add(`${word}s`);
  }
  return [...words];
}

/**
 * Writes the learner's known words in the language, a few thousand per statement; words known already, and words that
 * are one of the learner's terms, are left as they are. Answers how many went in.
 */
export async function insertKnownWords(
  db: Database,
  userId: string,
  language: string,
  words: readonly string[],
  now = new Date(),
): Promise<number> {
  const random = prng(words.length);
  const termRows = await db.execute(
    sql`select lower(text) as text from terms where user_id = ${userId}::uuid and language = ${language}::text`,
  );
  const termTexts = new Set((termRows as unknown as { rows: { text: string }[] }).rows.map((row) => row.text));
  let inserted = 0;
  for (let start = 0; start < words.length; start += ROWS_PER_STATEMENT) {
    const chunk = words.slice(start, start + ROWS_PER_STATEMENT).filter((word) => !termTexts.has(word));
    const times = chunk.map((_, i) => {
      // Older words are fewer: the learner marked more and more as their reading grew.
      const daysAgo = Math.floor(DAYS_SPREAD * (1 - Math.sqrt(random())) * ((words.length - start - i) / words.length));
      return new Date(now.getTime() - daysAgo * DAY_MS).toISOString();
    });
    const result = await db.execute(sql`
      insert into ignored_words (user_id, language, word, created_at)
      select ${userId}::uuid, ${language}::text, k.word, k.at::timestamptz
      from unnest(${sql.param(chunk)}::text[], ${sql.param(times)}::text[]) as k(word, at)
      on conflict do nothing
      returning word`);
    inserted += (result as unknown as { rows: unknown[] }).rows.length;
  }
  return inserted;
}
