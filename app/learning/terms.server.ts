import { and, asc, count, desc, eq, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { builtOnce, preparedPerDatabase } from "../db/built-once";
import type { Database } from "../db/db.server";
import { reviewLogs, termExamples, terms } from "./learning.schema";
import { learnerScheduler } from "./fsrs-fit.server";
import {
  applyGrade,
  cardForStage,
  GRADES,
  LEARNED_INTERVAL_DAYS,
  newCard,
  stageOf,
  type CardFields,
  type GradeName,
} from "./stage";
import type { FSRS, Grade } from "ts-fsrs";
import { STAGES, type OptionalPartOfSpeech, type PartOfSpeech, type Sort, type Stage } from "./vocabulary";

export type Term = typeof terms.$inferSelect;
export type TermExample = typeof termExamples.$inferSelect;
export type TermInput = {
  text: string;
  /** Left as it is when not given. */
  reading?: string;
  meaning: string;
  partOfSpeech: OptionalPartOfSpeech;
  notes: string;
};
export type Owner = { userId: string; language: string };
type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export const PAGE_SIZE = 50;

/** The stage as SQL, the same mapping as stageOf(). */
export function stageSql(now: Date): SQL<Stage> {
  return sql<Stage>`case when ${terms.state} = 0 then 'tolearn' when ${terms.state} in (1, 3) then 'inprogress' when ${terms.due} <= ${now} then 'needsreview' when ${terms.scheduledDays} >= ${LEARNED_INTERVAL_DAYS} then 'learned' else 'inprogress' end`;
}

const owned = (owner: Owner) => and(eq(terms.userId, owner.userId), eq(terms.language, owner.language));

/** Postgres' unique violation: the same text twice in one language. */
export function isDuplicate(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23505";
}

export async function createTerm(
  db: Database,
  owner: Owner,
  input: TermInput,
  example?: { sentence: string; translation: string },
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [term] = await tx
      .insert(terms)
      .values({ ...owner, ...input, ...newCard(now), createdAt: now, updatedAt: now })
      .returning();
    if (example?.sentence) await tx.insert(termExamples).values({ termId: term!.id, ...example });
    return term!;
  });
}

/** One term of one learner; another learner's id finds nothing, exactly like a missing one. */
export async function findTerm(db: Database, userId: string, id: string): Promise<Term | null> {
  const [term] = await db
    .select()
    .from(terms)
    .where(and(eq(terms.id, id), eq(terms.userId, userId)))
    .limit(1);
  return term ?? null;
}

/** The learner's term with this text in the language, whatever its case (the one a duplicate collides with). */
export async function termWithText(
  db: Database,
  owner: Owner,
  text: string,
): Promise<Pick<Term, "id" | "text"> | null> {
  const [term] = await db
    .select({ id: terms.id, text: terms.text })
    .from(terms)
    .where(and(owned(owner), sql`lower(${terms.text}) = lower(${text})`))
    .limit(1);
  return term ?? null;
}

export async function examplesOf(db: Database, termId: string): Promise<TermExample[]> {
  return db.select().from(termExamples).where(eq(termExamples.termId, termId)).orderBy(asc(termExamples.createdAt));
}

export async function updateTerm(db: Database, userId: string, id: string, input: TermInput): Promise<boolean> {
  const updated = await db
    .update(terms)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(terms.id, id), eq(terms.userId, userId)))
    .returning({ id: terms.id });
  return updated.length === 1;
}

export async function deleteTerm(db: Database, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(terms)
    .where(and(eq(terms.id, id), eq(terms.userId, userId)))
    .returning({ id: terms.id });
  return deleted.length === 1;
}

export async function addExample(
  db: Database,
  userId: string,
  termId: string,
  example: { sentence: string; translation: string },
): Promise<boolean> {
  if (!(await findTerm(db, userId, termId))) return false;
  await db.insert(termExamples).values({ termId, ...example });
  return true;
}

export async function removeExample(db: Database, userId: string, termId: string, exampleId: string): Promise<boolean> {
  if (!(await findTerm(db, userId, termId))) return false;
  const deleted = await db
    .delete(termExamples)
    .where(and(eq(termExamples.id, exampleId), eq(termExamples.termId, termId)))
    .returning({ id: termExamples.id });
  return deleted.length === 1;
}

/** The grade's read of its term and the row's version (`xmin`), built once per database. */
const gradeRead = preparedPerDatabase((db) =>
  db
    .select({ term: terms, row: sql<string>`${terms}.xmin::text` })
    .from(terms)
    .where(and(eq(terms.id, sql.placeholder("id")), eq(terms.userId, sql.placeholder("userId"))))
    .limit(1)
    .prepare("grade_read"),
);

/** The columns a grade writes: the card's schedule (applyGrade) and the moment of the change. */
const GRADED_COLUMNS = [
  "due",
  "stability",
  "difficulty",
  "elapsedDays",
  "scheduledDays",
  "learningSteps",
  "reps",
  "lapses",
  "state",
  "lastReview",
  "updatedAt",
] as const satisfies readonly (keyof CardFields | "updatedAt")[];

/** A value as the driver receives it (builtOnce applies no column's encoding): a time as its ISO text. */
const driverValue = (value: Date | number | null) => (value instanceof Date ? value.toISOString() : value);

/**
 * The grade's write, built once: the term's new schedule, only while its row is still the version read (`xmin`), and
 * the review logged with it, in one statement (one transaction). The review is logged at the moment of the change, with
 * the state the card was shown in and the interval it now has.
 */
const gradeStatement = builtOnce(sql`
  with graded as (
    update ${terms} set ${sql.join(
      GRADED_COLUMNS.map((key) => sql`${sql.identifier(terms[key].name)} = ${sql.placeholder(key)}`),
      sql`, `,
    )}
    where ${terms.id} = ${sql.placeholder("id")} and ${terms}.xmin = ${sql.placeholder("row")}::xid
    returning ${terms.id}
  )
  insert into ${reviewLogs} (term_id, user_id, rating, state, reviewed_at, scheduled_days)
  select id, ${sql.placeholder("userId")}, ${sql.placeholder("rating")}, ${sql.placeholder("shownState")},
    ${sql.placeholder("updatedAt")}, ${sql.placeholder("scheduledDays")}
  from graded
  returning id`);

/** What a grade did: the graded term, `"stale"` for a version already graded (nothing changed), null for no such term. */
export type GradeResult = Term | "stale" | null;

/**
 * Grades a term with FSRS-6 and logs the review, in one transaction. `version` is the card's version when it was shown
 * (its review count, `reps`, which only a grade moves): a grade for a version already graded — the same POST sent
 * twice, a grade made offline for a card graded since — changes nothing and answers `"stale"`.
 *
 * Two round trips: the term is read, its next schedule computed, then one statement updates it and logs the review
 * (a statement is a transaction of its own), only if the row is still the one read: its `xmin`, which every write of
 * the row moves, is compared. Two grades of one version at once count once, on PostgreSQL as on PGlite; a term
 * changed in between (an edit, a stage set by hand) is read again. A form with a parent grades its family in the
 * transaction below, both rows locked.
 */
export async function gradeTerm(
  db: Database,
  userId: string,
  id: string,
  grade: GradeName,
  now = new Date(),
  version?: number,
  /** The learner's scheduler when the caller has it (keptForGrade); else it is read. */
  scheduler?: FSRS,
  /**
   * The term as the card showed it, with its row version, when the caller kept it (keptForGrade): taken instead of a
   * read when it is this term at the version graded; the write checks the row is still that one, else it is read.
   */
  asShown?: { term: Term; row: string } | null,
): Promise<GradeResult> {
  // The learner's own scheduler: their fitted parameters and desired retention (ADR 062).
  const by = scheduler ?? (await learnerScheduler(db, userId));
  let kept =
    asShown?.term.id === id && asShown.term.userId === userId && asShown.term.reps === version ? asShown : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const [read] = kept ? [kept] : await gradeRead(db).execute({ id, userId });
    kept = null;
    if (!read) return null;
    const { term } = read;
    if (changedSince(term, version ?? term.reps, now)) return "stale";
    if (term.parentId) break;
    const card = { ...applyGrade(term, GRADES[grade], now, by), updatedAt: now };
    const { rows } = await gradeStatement<{ id: string }>(db, {
      ...Object.fromEntries(GRADED_COLUMNS.map((key) => [key, driverValue(card[key])])),
      id,
      row: read.row,
      userId,
      rating: GRADES[grade],
      shownState: term.state,
    });
    if (rows.length === 1) return { ...term, ...card };
  }
  return gradeLocked(db, userId, id, grade, now, version, by);
}

/**
 * Whether the card moved on since the learner saw it: graded since (another version), or its schedule started after
 * the grade's moment (a review or a stage change made later elsewhere, which keeps the version: ADR 095).
 */
const changedSince = (term: Term, version: number, at: Date) =>
  term.reps !== version || (term.lastReview !== null && term.lastReview.getTime() > at.getTime());

/** The grade above in a transaction with the term's row locked: a form with a parent, or a term written meanwhile. */
function gradeLocked(
  db: Database,
  userId: string,
  id: string,
  grade: GradeName,
  now: Date,
  version: number | undefined,
  by: FSRS,
): Promise<GradeResult> {
  return db.transaction(async (tx) => {
    const [term] = await tx
      .select()
      .from(terms)
      .where(and(eq(terms.id, id), eq(terms.userId, userId)))
      .for("update")
      .limit(1);
    if (!term) return null;
    const shown = version ?? term.reps;
    if (changedSince(term, shown, now)) return "stale";
    const card = applyGrade(term, GRADES[grade], now, by);
    const [updated] = await tx
      .update(terms)
      .set({ ...card, updatedAt: now })
      .where(and(eq(terms.id, id), eq(terms.reps, shown)))
      .returning();
    if (!updated) return "stale";
    await tx.insert(reviewLogs).values({
      termId: id,
      // Written by the code since drizzle/0015 (expand step of ADR 046); the database's trigger fills it for writers
      // that do not, until the contract step drops the trigger.
      userId,
      rating: GRADES[grade],
      state: term.state,
      reviewedAt: now,
      scheduledDays: card.scheduledDays,
    });
    if (term.parentId) await reviewParent(tx, term.parentId, GRADES[grade], now);
    return updated;
  });
}

/**
 * A review of a form counts for its family (ADR 061): when the form's parent is due now, it takes the same grade at
 * the same moment, so the family is not asked twice. A parent not due yet keeps its schedule (FSRS would gain little
 * from an early review), and one never studied stays new. The parent's grade is not logged: the log keeps what the
 * learner was shown, which is what FSRS parameters are fitted to and the daily limits count.
 */
async function reviewParent(tx: Transaction, parentId: string, grade: Grade, now: Date): Promise<void> {
  const [parent] = await tx.select().from(terms).where(eq(terms.id, parentId)).for("update").limit(1);
  if (!parent || parent.state === 0 || parent.due.getTime() > now.getTime()) return;
  await tx
    .update(terms)
    .set({ ...applyGrade(parent, grade, now), updatedAt: now })
    .where(eq(terms.id, parentId));
}

/** A manual stage change that keeps the FSRS schedule consistent with the stage. */
export async function setStage(
  db: Database,
  userId: string,
  id: string,
  stage: Stage,
  now = new Date(),
): Promise<boolean> {
  const [term, by] = await Promise.all([findTerm(db, userId, id), learnerScheduler(db, userId)]);
  if (!term) return false;
  await db
    .update(terms)
    .set({ ...cardForStage(term, stage, now, by), updatedAt: now })
    .where(eq(terms.id, id));
  return true;
}

/** The soonest due time after `now`: when a term's stage (needs review) and the due counts next change by themselves. */
const nextDueAfter = (now: Date) => sql<Date | string | null>`min(${terms.due}) filter (where ${terms.due} > ${now})`;
const soonest = (values: (Date | string | null)[]) =>
  values.reduce<Date | null>((min, value) => {
    const at = value === null ? null : new Date(value);
    return at && (!min || at < min) ? at : min;
  }, null);

/** The counts per stage, and when they next change without a write (the next due time). */
export async function stageCounts(
  db: Database,
  owner: Owner,
  now = new Date(),
): Promise<{ counts: Record<Stage, number>; nextDue: Date | null }> {
  const stage = stageSql(now);
  // Grouped by position: the stage expression carries its own parameters, which Postgres would not match otherwise.
  const rows = await db
    .select({ stage, n: count(), nextDue: nextDueAfter(now) })
    .from(terms)
    .where(owned(owner))
    .groupBy(sql`1`);
  const counts = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  for (const row of rows) counts[row.stage] = Number(row.n);
  return { counts, nextDue: soonest(rows.map((row) => row.nextDue)) };
}

/** The counts per stage and the number of terms due now, in one query (the account home shows both). */
export async function stageCountsAndDue(
  db: Database,
  owner: Owner,
  now = new Date(),
): Promise<{ counts: Record<Stage, number>; due: number; nextDue: Date | null }> {
  const stage = stageSql(now);
  const rows = await db
    .select({
      stage,
      n: count(),
      due: sql<number>`count(*) filter (where ${terms.due} <= ${now})`,
      nextDue: nextDueAfter(now),
    })
    .from(terms)
    .where(owned(owner))
    .groupBy(sql`1`);
  const counts = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  let due = 0;
  for (const row of rows) {
    counts[row.stage] = Number(row.n);
    due += Number(row.due);
  }
  return { counts, due, nextDue: soonest(rows.map((row) => row.nextDue)) };
}

/** Terms waiting for review now: new ones and those whose due time has come, soonest first. */
export function dueCondition(owner: Owner, now: Date) {
  return and(owned(owner), lte(terms.due, now));
}

export async function dueCount(db: Database, owner: Owner, now = new Date()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(terms).where(dueCondition(owner, now));
  return Number(row?.n ?? 0);
}

export async function nextDue(db: Database, owner: Owner, now = new Date()): Promise<Term | null> {
  const [term] = await db
    .select()
    .from(terms)
    .where(dueCondition(owner, now))
    .orderBy(asc(terms.due), asc(terms.createdAt))
    .limit(1);
  return term ?? null;
}

/** The latest terms, with what a list of them shows: the text, the meaning and what their stage is made of. */
export async function recentTerms(db: Database, owner: Owner, limit = 5) {
  return db
    .select({
      id: terms.id,
      text: terms.text,
      meaning: terms.meaning,
      state: terms.state,
      due: terms.due,
      scheduledDays: terms.scheduledDays,
    })
    .from(terms)
    .where(owned(owner))
    .orderBy(desc(terms.createdAt))
    .limit(limit);
}

export type TermQuery = { q: string; stage: Stage | null; pos: PartOfSpeech | null; sort: Sort; page: number };

/**
 * The member explore page: search, filters, sort and pages of 50, with the columns the page shows and the number of
 * examples of each term. A caller
 * that already knows how many terms match (the stage counts, when only the stage filters) passes it as `knownTotal`.
 */
export async function searchTerms(db: Database, owner: Owner, query: TermQuery, now = new Date(), knownTotal?: number) {
  const stage = stageSql(now);
  const conditions = [owned(owner)];
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(terms.text, pattern), ilike(terms.meaning, pattern), ilike(terms.notes, pattern))!);
  }
  if (query.stage) conditions.push(sql`${stage} = ${query.stage}`);
  if (query.pos) conditions.push(eq(terms.partOfSpeech, query.pos));
  const where = and(...conditions);
  const order = {
    newest: [desc(terms.createdAt), desc(terms.id)],
    oldest: [asc(terms.createdAt), asc(terms.id)],
    alphabetical: [asc(sql`lower(${terms.text})`), asc(terms.id)],
    due: [asc(terms.due), asc(terms.id)],
  }[query.sort];
  const total = knownTotal ?? Number((await db.select({ n: count() }).from(terms).where(where))[0]?.n ?? 0);
  const rows = await db
    .select({
      id: terms.id,
      text: terms.text,
      meaning: terms.meaning,
      partOfSpeech: terms.partOfSpeech,
      stage,
      // Spelled out: inside a subquery an unqualified "id" would name the example's own column.
      examples: sql<number>`(select count(*)::int from "term_examples" as "e" where "e"."term_id" = "terms"."id")`,
    })
    .from(terms)
    .where(where)
    .orderBy(...order)
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE);
  return {
    total,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    rows: rows.map((row) => ({ ...row, examples: Number(row.examples) })),
  };
}

/** Which of these texts the learner already has in a language (case-insensitive). */
export async function existingTexts(db: Database, owner: Owner, texts: string[]): Promise<Set<string>> {
  if (texts.length === 0) return new Set();
  const lowered = texts.map((t) => t.toLowerCase());
  const rows = await db
    .select({ text: terms.text })
    .from(terms)
    .where(and(owned(owner), inArray(sql`lower(${terms.text})`, lowered)));
  return new Set(rows.map((row) => row.text.toLowerCase()));
}

export { stageOf };
