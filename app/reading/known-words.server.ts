import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { learnerSettings } from "../learning/learning.schema";
import type { Owner } from "../learning/terms.server";
import { matchIndexed } from "./match";
import { readerView } from "./reader.server";
import { ignoredWords } from "./reading.schema";
import { lowerFor } from "./segment";
import { segmentedOf } from "./text-summaries.server";
import type { Text } from "./texts.server";
import { versionsOf, vocabularyIndex, writeKnownWords } from "./vocabulary-index.server";

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
  return writeKnownWords(db, owner, async (tx) => {
    const result = await tx.execute(sql`
      insert into ${ignoredWords} (user_id, language, word, created_at)
      select ${owner.userId}, ${owner.language}, w, ${now.toISOString()}::timestamptz
      from unnest(${sql.param(lowered)}::text[]) as w
      on conflict do nothing
      returning word`);
    const added = (result as unknown as { rows: { word: string }[] }).rows.map((row) => row.word);
    return { result: added.length, change: { added, removed: [] } };
  });
}

/** Undoes `markKnown` of the moment `at`: those words are new again. */
export async function undoKnownBatch(db: Database, owner: Owner, at: Date): Promise<number> {
  return writeKnownWords(db, owner, async (tx) => {
    const rows = await tx
      .delete(ignoredWords)
      .where(and(own(owner), eq(ignoredWords.createdAt, at)))
      .returning({ word: ignoredWords.word });
    return { result: rows.length, change: { added: [], removed: rows.map((row) => row.word) } };
  });
}

/** How many words the learner marked as known in the language. */
export async function knownWordCount(db: Database, owner: Owner): Promise<number> {
  const [row] = await db.select({ n: count() }).from(ignoredWords).where(own(owner));
  return Number(row?.n ?? 0);
}

/** The words of one page of a text that are neither terms nor known, once each, as the text writes them. */
export async function newWordsOfPage(db: Database, owner: Owner, text: Text, page: number) {
  const words = await segmentedOf(db, text);
  const versions = await versionsOf(db, owner.userId);
  const matches = matchIndexed(await vocabularyIndex(db, owner, versions.vocabulary), words);
  const { view } = readerView(
    { title: text.title, language: text.language, text: words, vocabulary: [], matches },
    new URLSearchParams({ page: String(page) }),
  );
  const fresh = new Map<string, string>();
  for (const piece of view.paragraphs.flat())
    if (typeof piece !== "string" && piece.stage === "new") {
      const key = piece.text.toLocaleLowerCase(text.language);
      if (!fresh.has(key) && piece.text.length <= 200) fresh.set(key, piece.text);
    }
  return { page: view.page, pages: view.pages, words: [...fresh.values()] };
}

/** Whether turning a page in the reader marks its remaining new words as known: no by default. */
export async function readKnownOnPageTurn(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: learnerSettings.knownOnPageTurn })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  return row?.on ?? false;
}

export async function saveKnownOnPageTurn(db: Database, userId: string, on: boolean, now = new Date()) {
  await db
    .insert(learnerSettings)
    .values({ userId, knownOnPageTurn: on, updatedAt: now })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: { knownOnPageTurn: on, updatedAt: now } });
}
