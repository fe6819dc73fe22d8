import { count, eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { texts } from "../reading/reading.schema";
import { terms } from "./learning.schema";

/**
 * How much one learner can keep, in every language together: far above what anyone reads or learns (a text a day for
 * almost three years, fifty thousand words), low enough that no account makes the reader's pages or the database's
 * work per request grow without bound. Every path that adds texts or terms checks these first (ADR 032).
 */
export const TEXTS_PER_LEARNER = 1_000;
export const TERMS_PER_LEARNER = 50_000;

/** True when the learner can add `adding` more texts. */
export async function roomForTexts(db: Database, userId: string, adding = 1): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(texts).where(eq(texts.userId, userId));
  return Number(row?.n ?? 0) + adding <= TEXTS_PER_LEARNER;
}

/** True when the learner can add `adding` more terms. */
export async function roomForTerms(db: Database, userId: string, adding = 1): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(terms).where(eq(terms.userId, userId));
  return Number(row?.n ?? 0) + adding <= TERMS_PER_LEARNER;
}
