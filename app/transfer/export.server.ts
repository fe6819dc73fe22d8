import { soundCountOf } from "../learning/sounds.server";
import { setImmediate as nextTurn } from "node:timers/promises";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { spreadsheetSafe } from "./csv-cells";
import { users } from "../auth/auth.schema";
import { pledges, subscriptions } from "../billing/billing.schema";
import type { Database } from "../db/db.server";
import { reviewLogs, termExamples, terms } from "../learning/learning.schema";
import { stageOf } from "../learning/stage";
import { EXPORT_FORMAT, EXPORT_VERSION } from "./export-document";
import { ignoredWords } from "../reading/reading.schema";

/** Terms per statement of an export (their examples and reviews follow in one statement each). */
const EXPORT_PAGE = 1000;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * The learner's plan (as Stripe last described it), the payments recorded here (the pledges' charges; a plan's
 * invoices are kept by Stripe) and the campaign pledges, made with the account or with its address before it existed.
 */
async function billingOf(db: Database, userId: string) {
  const [plan] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const address = sql`(select ${users.email} from ${users} where ${users.id} = ${userId})`;
  const pledged = await db
    .select()
    .from(pledges)
    .where(or(eq(pledges.userId, userId), eq(pledges.email, address)))
    .orderBy(asc(pledges.createdAt), asc(pledges.checkoutSessionId));
  return {
    plan: plan
      ? {
          plan: plan.plan,
          period: plan.period,
          status: plan.status,
          amount: plan.amount,
          currency: plan.currency,
          currentPeriodEnd: iso(plan.currentPeriodEnd),
          paymentFailed: plan.paymentFailed,
          stripeCustomer: plan.customerId,
          stripeSubscription: plan.subscriptionId,
          updatedAt: iso(plan.updatedAt),
        }
      : null,
    payments: pledged
      .filter((pledge) => pledge.paymentIntentId !== null)
      .map((pledge) => ({
        for: "pledge" as const,
        amount: pledge.amount,
        refunded: pledge.refunded,
        currency: pledge.currency,
        paidAt: iso(pledge.createdAt),
        stripePaymentIntent: pledge.paymentIntentId,
      })),
    pledges: pledged.map((pledge) => ({
      email: pledge.email,
      amount: pledge.amount,
      refunded: pledge.refunded,
      currency: pledge.currency,
      createdAt: iso(pledge.createdAt),
    })),
  };
}

/**
 * Everything the learner owns in the learning area, all study languages: terms, examples, FSRS cards, reviews; and
 * their plan, payments and pledges (which an import ignores: they describe payments, not learning).
 */
export async function exportDocument(db: Database, userId: string, now = new Date()) {
  // Read a page of terms at a time, and each page's examples and reviews through their term index, with a turn of the
  // event loop between statements and the page made into the document's terms in its own turn: a learner with tens of
  // thousands of terms and reviews never holds the loop in one piece.
  const documentTerms: ReturnType<typeof documentTerm>[] = [];
  let after: { language: string; createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: (typeof terms.$inferSelect)[] = await db
      .select()
      .from(terms)
      .where(
        and(
          eq(terms.userId, userId),
          after
            ? sql`(${terms.language}, ${terms.createdAt}, ${terms.id}) > (${after.language}, ${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(terms.language), asc(terms.createdAt), asc(terms.id))
      .limit(EXPORT_PAGE);
    if (page.length === 0) break;
    const ids = page.map((term) => term.id);
    await nextTurn();
    const examples = await db
      .select({
        termId: termExamples.termId,
        sentence: termExamples.sentence,
        translation: termExamples.translation,
        createdAt: termExamples.createdAt,
      })
      .from(termExamples)
      .where(inArray(termExamples.termId, ids))
      .orderBy(asc(termExamples.createdAt), asc(termExamples.id));
    await nextTurn();
    const reviews = await db
      .select({
        termId: reviewLogs.termId,
        rating: reviewLogs.rating,
        state: reviewLogs.state,
        reviewedAt: reviewLogs.reviewedAt,
        scheduledDays: reviewLogs.scheduledDays,
      })
      .from(reviewLogs)
      .where(inArray(reviewLogs.termId, ids))
      .orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id));
    await nextTurn();
    const examplesByTerm = byTerm(examples);
    const reviewsByTerm = byTerm(reviews);
    for (const term of page)
      documentTerms.push(documentTerm(term, examplesByTerm.get(term.id) ?? [], reviewsByTerm.get(term.id) ?? [], now));
    await nextTurn();
    if (page.length < EXPORT_PAGE) break;
    const last: typeof terms.$inferSelect = page[page.length - 1]!;
    after = { language: last.language, createdAt: last.createdAt, id: last.id };
  }
  const knownWords = await knownWordsOf(db, userId);
  // Sounds travel in the Anki package only (ADR 126); the other files say how many they leave out.
  const soundsLeftOut = await soundCountOf(db, userId);
  const billing = await billingOf(db, userId);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    terms: documentTerms,
    knownWords,
    soundsLeftOut,
    ...billing,
  };
}

/** The learner's known words (ADR 105), every study language, a page at a time with a turn of the event loop between. */
export async function knownWordsOf(db: Database, userId: string) {
  const words: { language: string; word: string; markedAt: string }[] = [];
  let after: { language: string; word: string } | null = null;
  for (;;) {
    const page: { language: string; word: string; createdAt: Date }[] = await db
      .select({ language: ignoredWords.language, word: ignoredWords.word, createdAt: ignoredWords.createdAt })
      .from(ignoredWords)
      .where(
        and(
          eq(ignoredWords.userId, userId),
          after
            ? sql`(${ignoredWords.language}, ${ignoredWords.word}) > (${after.language}, ${after.word})`
            : undefined,
        ),
      )
      .orderBy(asc(ignoredWords.language), asc(ignoredWords.word))
      .limit(EXPORT_PAGE * 5);
    for (const row of page)
      words.push({ language: row.language, word: row.word, markedAt: row.createdAt.toISOString() });
    if (page.length < EXPORT_PAGE * 5) return words;
    after = page.at(-1)!;
    await nextTurn();
  }
}

/** Rows of one term's examples or reviews, grouped by their term. */
function byTerm<T extends { termId: string }>(items: T[]) {
  const map = new Map<string, Omit<T, "termId">[]>();
  for (const { termId, ...item } of items) {
    const list = map.get(termId) ?? [];
    list.push(item);
    map.set(termId, list);
  }
  return map;
}

/** A term as the export document writes it: its card, examples and reviews inside it, dates as ISO strings. */
function documentTerm(
  term: typeof terms.$inferSelect,
  examples: { sentence: string; translation: string | null; createdAt: Date }[],
  reviews: { rating: number; state: number; reviewedAt: Date; scheduledDays: number }[],
  now: Date,
) {
  return {
    language: term.language,
    text: term.text,
    reading: term.reading,
    meaning: term.meaning,
    partOfSpeech: term.partOfSpeech,
    notes: term.notes,
    stage: stageOf(term, now),
    createdAt: iso(term.createdAt),
    updatedAt: iso(term.updatedAt),
    card: {
      due: iso(term.due),
      stability: term.stability,
      difficulty: term.difficulty,
      elapsedDays: term.elapsedDays,
      scheduledDays: term.scheduledDays,
      learningSteps: term.learningSteps,
      reps: term.reps,
      lapses: term.lapses,
      state: term.state,
      lastReview: iso(term.lastReview),
    },
    examples: examples.map((e) => ({ ...e, createdAt: iso(e.createdAt) })),
    reviews: reviews.map((r) => ({ ...r, reviewedAt: iso(r.reviewedAt) })),
  };
}

export type ExportDocument = Awaited<ReturnType<typeof exportDocument>>;

/** Text cells that a spreadsheet would run as a formula, made inert (numbers and dates are left as they are). */
const safeRow = (row: unknown[]) => row.map((cell) => (typeof cell === "string" ? spreadsheetSafe(cell) : cell));

/** Rows per call of the CSV writer, terms per call of the JSON writer: a turn of the event loop between slices. */
const ROWS_PER_TURN = 500;

/**
 * CSV of a header and rows, written a slice at a time (each record ends with a line break, so the parts follow one
 * another as one file). The rows are made as they are written, never all at once.
 */
async function csvOf(header: string[], records: Iterable<unknown[]>): Promise<string[]> {
  const parts = [stringify([header])];
  let slice: unknown[][] = [];
  for (const record of records) {
    slice.push(safeRow(record));
    if (slice.length < ROWS_PER_TURN) continue;
    parts.push(stringify(slice));
    slice = [];
    await nextTurn();
  }
  if (slice.length > 0) parts.push(stringify(slice));
  return parts;
}

/** The terms as CSV, one row a term; the examples column holds one example a line, its translation after " | ". */
export function termsCsv(document: ExportDocument): Promise<string[]> {
  const header = [
    "language",
    "text",
    "reading",
    "meaning",
    "part_of_speech",
    "notes",
    "examples",
    "stage",
    "created_at",
    "due",
    "stability",
    "difficulty",
    "elapsed_days",
    "scheduled_days",
    "learning_steps",
    "reps",
    "lapses",
    "state",
    "last_review",
  ];
  return csvOf(
    header,
    (function* () {
      for (const term of document.terms) yield termRecord(term);
    })(),
  );
}

type DocumentTerm = ExportDocument["terms"][number];

/** A term's row of the terms CSV, before its text cells are made safe for spreadsheets. */
export function termRecord(term: DocumentTerm): unknown[] {
  return [
    term.language,
    term.text,
    term.reading,
    term.meaning,
    term.partOfSpeech,
    term.notes,
    term.examples.map((e) => (e.translation ? `${e.sentence} | ${e.translation}` : e.sentence)).join("\n"),
    term.stage,
    term.createdAt,
    term.card.due,
    term.card.stability,
    term.card.difficulty,
    term.card.elapsedDays,
    term.card.scheduledDays,
    term.card.learningSteps,
    term.card.reps,
    term.card.lapses,
    term.card.state,
    term.card.lastReview ?? "",
  ];
}

/** A term's rows of the reviews CSV, one a grade, before their text cells are made safe for spreadsheets. */
export function reviewRecords(term: DocumentTerm): unknown[][] {
  return term.reviews.map((r) => [term.language, term.text, r.reviewedAt, r.rating, r.state, r.scheduledDays]);
}

/** The review history as CSV, one row a grade (rating 1 Again … 4 Easy; state before the review, as FSRS logs it). */
export function reviewsCsv(document: ExportDocument): Promise<string[]> {
  return csvOf(
    ["language", "text", "reviewed_at", "rating", "state", "scheduled_days"],
    (function* () {
      for (const term of document.terms) yield* reviewRecords(term);
    })(),
  );
}

/** The header of the known words' CSV; the import recognises such a file by it (ADR 105). */
export const KNOWN_CSV_HEADER = ["kind", "language", "word", "marked_at"];

/** The known words as CSV, one row a word, each of kind `known`: words the learner knows, no term, no card. */
export function knownWordsCsv(document: ExportDocument): Promise<string[]> {
  return csvOf(
    KNOWN_CSV_HEADER,
    (function* () {
      for (const known of document.knownWords) yield ["known", known.language, known.word, known.markedAt];
    })(),
  );
}

/**
 * The document as `JSON.stringify(document, null, 2)` writes it, character for character, in parts: the terms a slice
 * at a time with a turn of the event loop between slices (11 MB for 20,000 terms would hold the loop in one piece).
 */
export async function documentJson(document: ExportDocument): Promise<string[]> {
  const { format, version, exportedAt, terms: list, ...rest } = document;
  // The object's opening and the keys before the terms, without its closing "\n}"; the keys after, without "{\n".
  const before = JSON.stringify({ format, version, exportedAt }, null, 2).slice(0, -2);
  const after = JSON.stringify(rest, null, 2).slice(2);
  if (list.length === 0) return [`${before},\n  "terms": [],\n${after}`];
  const parts = [`${before},\n  "terms": [\n`];
  for (let start = 0; start < list.length; start += ROWS_PER_TURN) {
    if (start > 0) await nextTurn();
    // Each term two levels in: four spaces before each of its lines (a JSON string holds no raw line break).
    const text = list
      .slice(start, start + ROWS_PER_TURN)
      .map((term) => `    ${JSON.stringify(term, null, 2).replaceAll("\n", "\n    ")}`)
      .join(",\n");
    parts.push(start + ROWS_PER_TURN < list.length ? `${text},\n` : text);
  }
  parts.push(`\n  ],\n${after}`);
  return parts;
}
