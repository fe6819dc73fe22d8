import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import type { Owner } from "../learning/terms.server";
import { ignoredWords } from "./reading.schema";
import { lowerFor } from "./segment";

/*
 * Known words (ADR 105): the words a learner knows in a language, the reader's "ignored" words. They are not terms: no
 * card, no stage, never in the review or the daily limits. The reader shows them as plain text and counts them known.
 */

const own = (owner: Owner) => and(eq(ignoredWords.userId, owner.userId), eq(ignoredWords.language, owner.language));

/**
 * Marks words as known in one statement, all at the moment `now`, which is how `undoKnownBatch` finds exactly them
 * again; words known already keep their own moment. Answers how many became known.
 */
export async function markKnown(
  db: Database,
  owner: Owner,
  words: readonly string[],
  now = new Date(),
): Promise<number> {
  const lowered = [...new Set(words.map((word) => lowerFor(owner.language, word)))];
  if (lowered.length === 0) return 0;
  // One array parameter rather than four per word: a page of 500 new words is one short statement.
  const result = await db.execute(sql`
    insert into ${ignoredWords} (user_id, language, word, created_at)
    select ${owner.userId}, ${owner.language}, w, ${now.toISOString()}::timestamptz
    from unnest(${sql.param(lowered)}::text[]) as w
    on conflict do nothing
    returning word`);
  return (result as unknown as { rows: { word: string }[] }).rows.length;
}

/** Undoes `markKnown` of the moment `at`: those words are new again. */
export async function undoKnownBatch(db: Database, owner: Owner, at: Date): Promise<number> {
  const rows = await db
    .delete(ignoredWords)
    .where(and(own(owner), eq(ignoredWords.createdAt, at)))
    .returning({ word: ignoredWords.word });
  return rows.length;
}

/** How many words the learner marked as known in the language. */
export async function knownWordCount(db: Database, owner: Owner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(ignoredWords).where(own(owner));
  return Number(row?.n ?? 0);
}
