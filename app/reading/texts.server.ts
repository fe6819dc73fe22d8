import { and, desc, eq, or, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { terms } from "../learning/learning.schema";
import { stageSql, type Owner } from "../learning/terms.server";
import type { VocabularyEntry } from "./match";
import { ignoredWords, texts } from "./reading.schema";
import { NO_SPACES } from "./match";
import { lowerFor } from "./segment";
import { segmentsOf } from "./text-summaries.server";
import { writeKnownWords } from "./vocabulary-index.server";

export type Text = typeof texts.$inferSelect;
export type TextInput = { title: string; body: string };

/** Adds a text with its segmentation (worked out here, once, with pauses for other requests). */
export async function createText(db: Database, owner: Owner, input: TextInput, now = new Date()): Promise<Text> {
  const stored = await segmentsOf(owner.language, input.body);
  const [text] = await db
    .insert(texts)
    .values({ ...owner, ...input, ...stored, createdAt: now, updatedAt: now })
    .returning();
  return text!;
}

/** One text of one learner; another learner's id finds nothing, exactly like a missing one. */
export async function findText(db: Database, userId: string, id: string): Promise<Text | null> {
  const [text] = await db
    .select()
    .from(texts)
    .where(and(eq(texts.id, id), eq(texts.userId, userId)))
    .limit(1);
  return text ?? null;
}

export async function updateText(
  db: Database,
  userId: string,
  id: string,
  language: string,
  input: TextInput,
): Promise<boolean> {
  const stored = await segmentsOf(language, input.body);
  const updated = await db
    .update(texts)
    .set({ ...input, ...stored, updatedAt: new Date() })
    .where(and(eq(texts.id, id), eq(texts.userId, userId)))
    .returning({ id: texts.id });
  return updated.length === 1;
}

export async function deleteText(db: Database, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(texts)
    .where(and(eq(texts.id, id), eq(texts.userId, userId)))
    .returning({ id: texts.id });
  return deleted.length === 1;
}

/** The learner's texts in their study language, newest first, without their bodies. */
export async function textListOf(db: Database, owner: Owner) {
  return db
    .select({ id: texts.id, title: texts.title, updatedAt: texts.updatedAt })
    .from(texts)
    .where(and(eq(texts.userId, owner.userId), eq(texts.language, owner.language)))
    .orderBy(desc(texts.createdAt));
}

/**
 * Everything the reader matches words against, in one query: the learner's terms in the language with their stage, and
 * the words they ignore. With `words` (a text's distinct words, lower-cased for the language) only the terms that may
 * match come back: those whose text, or first word of several (term texts keep single spaces), is one of the words,
 * compared through the database's lower() in the few spellings that fold alike (Turkish İ/I, a C-locale database);
 * the exact match is matchWords'.
 */
export async function vocabularyOf(
  db: Database,
  owner: Owner,
  words: readonly string[] | null = null,
  now = new Date(),
): Promise<VocabularyEntry[]> {
  const ownTerms = and(eq(terms.userId, owner.userId), eq(terms.language, owner.language));
  const ownIgnored = and(eq(ignoredWords.userId, owner.userId), eq(ignoredWords.language, owner.language));
  let termsWhere = ownTerms;
  let ignoredWhere = ownIgnored;
  if (words && !NO_SPACES.has(owner.language)) {
    const spellings = [...new Set(words.flatMap((word) => spellingsOf(owner.language, word)))];
    const candidates = sql`(select lower(w) from unnest(${sql.param(spellings)}::text[]) as w)`;
    termsWhere = and(
      ownTerms,
      or(
        sql`lower(${terms.text}) in ${candidates}`,
        sql`(${terms.text} like '% %' and lower(split_part(${terms.text}, ' ', 1)) in ${candidates})`,
        // A term with its article ("der Hund") for the word alone ("Hund").
        sql`(${terms.text} like '% %' and lower(substr(${terms.text}, strpos(${terms.text}, ' ') + 1)) in ${candidates})`,
      ),
    );
    ignoredWhere = and(ownIgnored, sql`${ignoredWords.word} = any(${sql.param([...words])}::text[])`);
  }
  const rows = await db
    .select({ text: terms.text, stage: sql<string>`${stageSql(now)}`, termId: sql<string | null>`${terms.id}::text` })
    .from(terms)
    .where(termsWhere)
    .unionAll(
      db
        .select({ text: ignoredWords.word, stage: sql<string>`'ignored'`, termId: sql<string | null>`null::text` })
        .from(ignoredWords)
        .where(ignoredWhere),
    );
  return rows as VocabularyEntry[];
}

/** A lower-cased word as a term may be written: as it is, in capitals, capitalised. */
function spellingsOf(language: string, word: string): string[] {
  const upper = word.toLocaleUpperCase(language);
  return [word, upper, upper.slice(0, 1) + word.slice(1)];
}

/** Marks a word as known: the reader stops highlighting it. Marking it twice changes nothing. */
export async function ignoreWord(db: Database, owner: Owner, word: string): Promise<void> {
  await writeKnownWords(db, owner, async (tx) => {
    const added = await tx
      .insert(ignoredWords)
      .values({ ...owner, word: lowerFor(owner.language, word) })
      .onConflictDoNothing()
      .returning({ word: ignoredWords.word });
    return { result: undefined, change: { added: added.map((row) => row.word), removed: [] } };
  });
}

/** Whether the word was known (ignored) before. */
export async function unignoreWord(db: Database, owner: Owner, word: string): Promise<boolean> {
  return writeKnownWords(db, owner, async (tx) => {
    const removed = await tx
      .delete(ignoredWords)
      .where(
        and(
          eq(ignoredWords.userId, owner.userId),
          eq(ignoredWords.language, owner.language),
          eq(ignoredWords.word, lowerFor(owner.language, word)),
        ),
      )
      .returning({ word: ignoredWords.word });
    return { result: removed.length > 0, change: { added: [], removed: removed.map((row) => row.word) } };
  });
}
