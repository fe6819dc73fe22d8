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
  // event loop between statements: a learner with tens of thousands of terms and reviews never holds it in one piece.
  const rows: (typeof terms.$inferSelect)[] = [];
  const examples: { termId: string; sentence: string; translation: string | null; createdAt: Date }[] = [];
  const reviews: {
    termId: string;
    rating: number;
    state: number;
    reviewedAt: Date;
    scheduledDays: number;
  }[] = [];
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
    rows.push(...page);
    const ids = page.map((term) => term.id);
    await nextTurn();
    examples.push(
      ...(await db
        .select({
          termId: termExamples.termId,
          sentence: termExamples.sentence,
          translation: termExamples.translation,
          createdAt: termExamples.createdAt,
        })
        .from(termExamples)
        .where(inArray(termExamples.termId, ids))
        .orderBy(asc(termExamples.createdAt), asc(termExamples.id))),
    );
    await nextTurn();
    reviews.push(
      ...(await db
        .select({
          termId: reviewLogs.termId,
          rating: reviewLogs.rating,
          state: reviewLogs.state,
          reviewedAt: reviewLogs.reviewedAt,
          scheduledDays: reviewLogs.scheduledDays,
        })
        .from(reviewLogs)
        .where(inArray(reviewLogs.termId, ids))
        .orderBy(asc(reviewLogs.reviewedAt), asc(reviewLogs.id))),
    );
    await nextTurn();
    if (page.length < EXPORT_PAGE) break;
    const last: typeof terms.$inferSelect = page[page.length - 1]!;
    after = { language: last.language, createdAt: last.createdAt, id: last.id };
  }
  const byTerm = <T extends { termId: string }>(items: T[]) => {
    const map = new Map<string, Omit<T, "termId">[]>();
    for (const { termId, ...item } of items) {
      const list = map.get(termId) ?? [];
      list.push(item);
      map.set(termId, list);
    }
    return map;
  };
  const billing = await billingOf(db, userId);
  const examplesByTerm = byTerm(examples);
  const reviewsByTerm = byTerm(reviews);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    terms: rows.map((term) => ({
      language: term.language,
      text: term.text,
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
      examples: (examplesByTerm.get(term.id) ?? []).map((e) => ({ ...e, createdAt: iso(e.createdAt) })),
      reviews: (reviewsByTerm.get(term.id) ?? []).map((r) => ({ ...r, reviewedAt: iso(r.reviewedAt) })),
    })),
    ...billing,
  };
}

export type ExportDocument = Awaited<ReturnType<typeof exportDocument>>;

/** Text cells that a spreadsheet would run as a formula, made inert (numbers and dates are left as they are). */
const safeRow = (row: unknown[]) => row.map((cell) => (typeof cell === "string" ? spreadsheetSafe(cell) : cell));

/** Rows per call of the CSV writer: a turn of the event loop between slices keeps a long export from holding it. */
const CSV_ROWS_PER_TURN = 2000;

/** CSV of a header and rows, written a slice at a time (each record ends with a line break, so slices join as one). */
async function csvOf(header: string[], records: unknown[][]): Promise<string> {
  const parts = [stringify([header])];
  for (let start = 0; start < records.length; start += CSV_ROWS_PER_TURN) {
    await nextTurn();
    parts.push(stringify(records.slice(start, start + CSV_ROWS_PER_TURN).map(safeRow)));
  }
  return parts.join("");
}

/** The terms as CSV, one row a term; the examples column holds one example a line, its translation after " | ". */
export function termsCsv(document: ExportDocument): Promise<string> {
  const records = document.terms.map((term) => [
    term.language,
    term.text,
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
  ]);
  const header = [
    "language",
    "text",
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
  return csvOf(header, records);
}

/** The review history as CSV, one row a grade (rating 1 Again … 4 Easy; state before the review, as FSRS logs it). */
export function reviewsCsv(document: ExportDocument): Promise<string> {
  const records = document.terms.flatMap((term) =>
    term.reviews.map((r) => [term.language, term.text, r.reviewedAt, r.rating, r.state, r.scheduledDays]),
  );
  return csvOf(["language", "text", "reviewed_at", "rating", "state", "scheduled_days"], records);
}
