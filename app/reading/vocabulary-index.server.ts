import { and, asc, eq, gt, sql } from "drizzle-orm";
import { users } from "../auth/auth.schema";
import type { Database } from "../db/db.server";
import { inIndexOrder } from "../db/index-order.server";
import { terms } from "../learning/learning.schema";
import { stageSql, type Owner } from "../learning/terms.server";
import type { Stage } from "../learning/vocabulary";
import { analyserReady } from "./analysers.server";
import { addToIndex, emptyIndex, removeIgnoredFromIndex, type VocabularyIndex } from "./match";
import { ignoredWords } from "./reading.schema";

/**
 * What the reader matches texts against, kept in memory per learner and language (ADR 032):
 * - the index of the vocabulary's words (terms and ignored words, no stages), valid for one `users.vocabulary_version`,
 *   which database triggers move when terms are added, removed or renamed and words ignored, never on a grade;
 * - the learned terms now, valid for one `users.data_version` and until the first of them falls due; the exact stages
 *   of the terms on the page being read are asked for with the page.
 * Both are read from the database a few thousand rows at a time and built with pauses, so a learner with tens of
 * thousands of terms never holds up other requests for long.
 */

/** Rows per query: the embedded database hands over rows at tens of microseconds each, on the event loop. */
const ROWS_PER_QUERY = 500;
const SLICE_MS = 5;
/** Learners whose index and stages are kept: each is at most a few MB (TERMS_PER_LEARNER terms). */
const KEPT_LEARNERS = 64;

/** Lets other requests run when this one has used the event loop for SLICE_MS. */
export function pauser(sliceMs = SLICE_MS) {
  let started = performance.now();
  return async () => {
    if (performance.now() - started < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    started = performance.now();
  };
}

/** A bounded map: the least recently used entry goes first. */
export function keep<V>(map: Map<string, V>, key: string, value: V, max = KEPT_LEARNERS): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
  return value;
}

export type Versions = { vocabulary: number; data: number };

/** The learner's vocabulary and data versions, in one small query. */
export async function versionsOf(db: Database, userId: string): Promise<Versions> {
  const [row] = await db
    .select({ vocabulary: users.vocabularyVersion, data: users.dataVersion })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return { vocabulary: Number(row?.vocabulary ?? 0), data: Number(row?.data ?? 0) };
}

const keyOf = (owner: Owner) => `${owner.userId}:${owner.language}`;

/** A set of learned terms kept for a data version; `settled` once read with no write overtaking it. */
type Learned = { version: number; validUntil: number; ids: Promise<Set<string>>; settled?: boolean };
const learnedSets = new Map<string, Learned>();

/** An index kept for a vocabulary version; `built` once it is. */
type KeptIndex = { version: number; index: Promise<VocabularyIndex>; built?: VocabularyIndex };
const indexes = new Map<string, KeptIndex>();

/** The index of the learner's vocabulary in a language for this vocabulary version, built once per version. */
export function vocabularyIndex(db: Database, owner: Owner, version: number): Promise<VocabularyIndex> {
  const key = keyOf(owner);
  const kept = indexes.get(key);
  if (kept && kept.version === version) return kept.index;
  const entry: KeptIndex = { version, index: Promise.resolve(emptyIndex(owner.language)) };
  entry.index = buildIndex(db, owner).then(async (built) => {
    // Only an index that no write overtook while it was read is changed in place by writeKnownWords.
    if ((await versionsOf(db, owner.userId)).vocabulary === version) entry.built = built;
    return built;
  });
  keep(indexes, key, entry);
  entry.index.catch(() => {
    if (indexes.get(key) === entry) indexes.delete(key);
  });
  return entry.index;
}

/** Known words a write added and removed (lower-cased for the language, as stored). */
export type KnownWordsChange = { added: readonly string[]; removed: readonly string[] };

/**
 * Writes known words (`write`, in a transaction) so that the index kept for the learner follows without being built
 * again: a learner with tens of thousands of known words marks them one page at a time, and each mark moves the
 * vocabulary version. The learner's row is locked first, so the versions read before and after the write differ by
 * this write alone; the index kept for the version before it, when built, takes the change and the version after it.
 * Any other case (an index being built, another version kept, another instance's write) builds it again as before.
 */
export async function writeKnownWords<T>(
  db: Database,
  owner: Owner,
  write: (tx: Database) => Promise<{ result: T; change: KnownWordsChange }>,
): Promise<T> {
  const { result, change, before, after } = await db.transaction(async (tx) => {
    const versions = async (): Promise<Versions> => {
      const { rows } = (await tx.execute(
        sql`select vocabulary_version::text as vocabulary, data_version::text as data from ${users}
            where id = ${owner.userId} for update`,
      )) as unknown as { rows: { vocabulary: string; data: string }[] };
      return { vocabulary: Number(rows[0]?.vocabulary ?? Number.NaN), data: Number(rows[0]?.data ?? Number.NaN) };
    };
    const first = await versions();
    const done = await write(tx);
    return { ...done, before: first, after: await versions() };
  });
  const key = keyOf(owner);
  const kept = indexes.get(key);
  if (kept?.built && kept.version === before.vocabulary && after.vocabulary !== before.vocabulary) {
    const index = kept.built;
    const removable = change.removed.every((word) => removeIgnoredFromIndex(index, word));
    if (removable) {
      for (const word of change.added) addToIndex(index, { text: word, stage: "ignored", termId: null });
      kept.version = after.vocabulary;
    } else indexes.delete(key);
  }
  // Known words are no terms: the learned terms read for the data version before the write are those after it.
  const learned = learnedSets.get(key);
  if (learned?.settled && learned.version === before.data) learned.version = after.data;
  return result;
}

async function buildIndex(db: Database, owner: Owner): Promise<VocabularyIndex> {
  // Terms are cut into words as the language's texts are: by its analyser, once loaded.
  await analyserReady(owner.language);
  const index = emptyIndex(owner.language);
  const pause = pauser();
  // Along the index of the terms' lower-cased texts (unique per learner and language): no sort, no full scan.
  let after: string | null = null;
  for (;;) {
    const from: string | null = after;
    const rows: { id: string; text: string; key: string }[] = await inIndexOrder(db, (tx) =>
      tx
        .select({ id: sql<string>`${terms.id}::text`, text: terms.text, key: sql<string>`lower(${terms.text})` })
        .from(terms)
        .where(
          and(
            eq(terms.userId, owner.userId),
            eq(terms.language, owner.language),
            from === null ? undefined : sql`lower(${terms.text}) > ${from}`,
          ),
        )
        .orderBy(sql`lower(${terms.text})`)
        .limit(ROWS_PER_QUERY),
    );
    for (const row of rows) {
      addToIndex(index, { text: row.text, stage: "tolearn", termId: row.id });
      await pause();
    }
    if (rows.length < ROWS_PER_QUERY) break;
    after = rows.at(-1)!.key;
  }
  let afterWord = "";
  for (;;) {
    const rows = await db
      .select({ word: ignoredWords.word })
      .from(ignoredWords)
      .where(
        and(
          eq(ignoredWords.userId, owner.userId),
          eq(ignoredWords.language, owner.language),
          afterWord ? gt(ignoredWords.word, afterWord) : undefined,
        ),
      )
      .orderBy(asc(ignoredWords.word))
      .limit(ROWS_PER_QUERY);
    for (const row of rows) {
      addToIndex(index, { text: row.word, stage: "ignored", termId: null });
      await pause();
    }
    if (rows.length < ROWS_PER_QUERY) break;
    afterWord = rows.at(-1)!.word;
  }
  return index;
}

/**
 * The ids of the learner's terms that are learned now, for this data version: what the text list needs of the stages
 * (a text's known words are its ignored words and learned terms'). Learned terms stop being learned by themselves only
 * when they fall due: the set is read again after the soonest due time in it. Read along the terms' due index.
 */
export function learnedNow(db: Database, owner: Owner, version: number, now = new Date()): Promise<Set<string>> {
  const key = keyOf(owner);
  const kept = learnedSets.get(key);
  if (kept && kept.version === version && now.getTime() < kept.validUntil) return kept.ids;
  const entry: Learned = { version, validUntil: Number.POSITIVE_INFINITY, ids: Promise.resolve(new Set()) };
  entry.ids = readLearned(db, owner, now, (at) => (entry.validUntil = Math.min(entry.validUntil, at))).then(
    async (ids) => {
      entry.settled = (await versionsOf(db, owner.userId)).data === version;
      return ids;
    },
  );
  keep(learnedSets, key, entry);
  entry.ids.catch(() => {
    if (learnedSets.get(key) === entry) learnedSets.delete(key);
  });
  return entry.ids;
}

/**
 * When the learned set read by `learnedNow` for this data version stops holding (a learned term falls due): 0 when
 * another version's set is kept, Infinity when none will.
 */
export function learnedUntil(owner: Owner, version: number): number {
  const kept = learnedSets.get(keyOf(owner));
  return kept && kept.version === version ? kept.validUntil : 0;
}

async function readLearned(db: Database, owner: Owner, now: Date, changesAt: (at: number) => void) {
  const ids = new Set<string>();
  const pause = pauser();
  let after: { due: Date; id: string } | null = null;
  for (;;) {
    const rows: { id: string; due: Date }[] = await db
      .select({ id: sql<string>`${terms.id}::text`, due: terms.due })
      .from(terms)
      .where(
        and(
          eq(terms.userId, owner.userId),
          eq(terms.language, owner.language),
          eq(stageSql(now), "learned"),
          after ? sql`(${terms.due}, ${terms.id}) > (${after.due}, ${after.id}::uuid)` : sql`${terms.due} > ${now}`,
        ),
      )
      .orderBy(asc(terms.due), asc(terms.id))
      .limit(ROWS_PER_QUERY);
    if (!after && rows[0]) changesAt(new Date(rows[0].due).getTime());
    for (const row of rows) ids.add(row.id);
    await pause();
    if (rows.length < ROWS_PER_QUERY) break;
    after = { due: new Date(rows.at(-1)!.due), id: rows.at(-1)!.id };
  }
  return ids;
}

/** The soonest moment a stage read at some moment changes by itself (a reviewed term falls due), Infinity if none. */
export type StageChange = { at: number };

/** A reviewed term's due time while it is ahead: the moment its stage turns to "needs review". */
export const stageChangeSql = (now: Date) =>
  sql<Date | string | null>`case when ${terms.state} = 2 and ${terms.due} > ${now} then ${terms.due} end`;

/**
 * The stages now of some of the learner's terms (the terms on the page being read), a few hundred per query; `change`,
 * when given, learns the soonest moment one of them changes.
 */
export async function stagesOf(db: Database, owner: Owner, ids: string[], now = new Date(), change?: StageChange) {
  const stages = new Map<string, Stage>();
  for (let at = 0; at < ids.length; at += ROWS_PER_QUERY) {
    const rows = await db
      .select({ id: sql<string>`${terms.id}::text`, stage: stageSql(now), changesAt: stageChangeSql(now) })
      .from(terms)
      .where(
        and(
          eq(terms.userId, owner.userId),
          sql`${terms.id} = any(${sql.param(ids.slice(at, at + ROWS_PER_QUERY))}::uuid[])`,
        ),
      );
    for (const row of rows) {
      stages.set(row.id, row.stage);
      if (change && row.changesAt !== null) change.at = Math.min(change.at, new Date(row.changesAt).getTime());
    }
  }
  return stages;
}
