import { and, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import type { Owner } from "../learning/terms.server";
import { dayFormatter, daysUntil, safeTimeZone } from "./days";
import { knownDays } from "./progress.schema";
import type { Range } from "./range";

/*
 * The number learners watch (ADR 105): the words they know in a study language, their known words plus their learned
 * terms, from the per-day aggregates of known_days (kept by database triggers, drizzle/0029), never from a scan of the
 * words or terms. A known word counts from the day it was marked; a term from the day it became learned until the day
 * it falls due again.
 */

export type KnownCount = { words: number; learned: number; total: number };

const ownDays = (owner: Owner) => and(eq(knownDays.userId, owner.userId), eq(knownDays.language, owner.language));
const sums = {
  words: sql<number>`coalesce(sum(${knownDays.words}), 0)::int`,
  learned: sql<number>`coalesce(sum(${knownDays.learned}), 0)::int`,
};
const counted = (row: { words: number; learned: number } | undefined): KnownCount => {
  const words = Number(row?.words ?? 0);
  const learned = Number(row?.learned ?? 0);
  return { words, learned, total: words + learned };
};

/** How many words the learner knows in the language at the end of today (their day in `timeZone`). */
export async function knownCount(db: Database, owner: Owner, timeZone: string, now = new Date()): Promise<KnownCount> {
  const today = dayFormatter(safeTimeZone(timeZone))(now);
  const [row] = await db
    .select(sums)
    .from(knownDays)
    .where(and(ownDays(owner), lte(knownDays.day, today)));
  return counted(row);
}

/** The number at the end of each of the last `range` days (every third over 90, like the stages chart). */
export async function knownByDay(db: Database, owner: Owner, timeZone: string, range: Range, now = new Date()) {
  const today = dayFormatter(safeTimeZone(timeZone))(now);
  const days = daysUntil(today, range);
  const first = days[0]!;
  const [[before], rows] = await Promise.all([
    db
      .select(sums)
      .from(knownDays)
      .where(and(ownDays(owner), lt(knownDays.day, first))),
    db
      .select({ day: knownDays.day, words: knownDays.words, learned: knownDays.learned })
      .from(knownDays)
      .where(and(ownDays(owner), gte(knownDays.day, first), lte(knownDays.day, today))),
  ]);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const running = counted(before);
  const series = days.map((day) => {
    const row = byDay.get(day);
    if (row) {
      running.words += row.words;
      running.learned += row.learned;
    }
    return { day, words: running.words, learned: running.learned, total: running.words + running.learned };
  });
  return range === 30 ? series : series.filter((_, i) => (range - 1 - i) % 3 === 0);
}
