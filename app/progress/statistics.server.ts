import { and, asc, desc, eq, lte } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { reviewLogs, terms } from "../learning/learning.schema";
import { LEARNED_INTERVAL_DAYS } from "../learning/stage";
import { STAGES, type Stage } from "../learning/vocabulary";
import { addDays, dayFormatter, daysUntil, safeTimeZone, weekOf } from "./days";
import type { Range } from "./range";

export const FORECAST_DAYS = 30;
const DAY_MS = 86_400_000;
const AGAIN = 1;

const userReviews = (userId: string) => eq(terms.userId, userId);

/**
 * Days in a row with at least one review, ending today, or yesterday while today has none yet (the day is not over).
 * Days are the learner's, in their time zone.
 */
export async function currentStreak(db: Database, userId: string, timeZone: string, now = new Date()): Promise<number> {
  const dayOf = dayFormatter(safeTimeZone(timeZone));
  const today = dayOf(now);
  let expected = today;
  let streak = 0;
  const PAGE = 2000;
  for (let offset = 0; ; offset += PAGE) {
    const rows = await db
      .select({ at: reviewLogs.reviewedAt })
      .from(reviewLogs)
      .innerJoin(terms, eq(terms.id, reviewLogs.termId))
      .where(and(userReviews(userId), lte(reviewLogs.reviewedAt, now)))
      .orderBy(desc(reviewLogs.reviewedAt))
      .limit(PAGE)
      .offset(offset);
    for (const { at } of rows) {
      const day = dayOf(at);
      if (day === expected) {
        streak++;
        expected = addDays(expected, -1);
      } else if (day > expected) continue;
      else if (streak === 0 && expected === today && day === addDays(today, -1)) {
        streak = 1;
        expected = addDays(day, -1);
      } else return streak;
    }
    if (rows.length < PAGE) return streak;
  }
}

type Log = { termId: string; at: Date; rating: number; scheduledDays: number };
type TermRow = {
  id: string;
  createdAt: Date;
  state: number;
  due: Date;
  scheduledDays: number;
  lastReview: Date | null;
};

/** Everything the statistics page draws, for the last `range` days in the learner's time zone. */
export async function learnerStatistics(
  db: Database,
  userId: string,
  timeZone: string,
  range: Range,
  now = new Date(),
) {
  const zone = safeTimeZone(timeZone);
  const dayOf = dayFormatter(zone);
  const today = dayOf(now);
  const days = daysUntil(today, range);
  const [termRows, logs, streak] = await Promise.all([
    db
      .select({
        id: terms.id,
        createdAt: terms.createdAt,
        state: terms.state,
        due: terms.due,
        scheduledDays: terms.scheduledDays,
        lastReview: terms.lastReview,
      })
      .from(terms)
      .where(eq(terms.userId, userId)),
    db
      .select({
        termId: reviewLogs.termId,
        at: reviewLogs.reviewedAt,
        rating: reviewLogs.rating,
        scheduledDays: reviewLogs.scheduledDays,
      })
      .from(reviewLogs)
      .innerJoin(terms, eq(terms.id, reviewLogs.termId))
      .where(and(userReviews(userId), lte(reviewLogs.reviewedAt, now)))
      .orderBy(asc(reviewLogs.reviewedAt)),
    currentStreak(db, userId, zone, now),
  ]);
  const first = days[0]!;
  const inRange = logs.filter((log) => dayOf(log.at) >= first);

  const perDay = new Map(days.map((day) => [day, 0]));
  for (const log of inRange) {
    const day = dayOf(log.at);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }

  const weeks = [...new Set(days.map(weekOf))];
  const perWeek = new Map(weeks.map((week) => [week, { reviews: 0, passed: 0 }]));
  for (const log of inRange) {
    const week = perWeek.get(weekOf(dayOf(log.at)));
    if (!week) continue;
    week.reviews++;
    if (log.rating !== AGAIN) week.passed++;
  }

  return {
    timeZone: zone,
    today,
    streak,
    reviewsPerDay: days.map((day) => ({ day, reviews: perDay.get(day) ?? 0 })),
    forecast: forecast(termRows, dayOf, today),
    retention: weeks.map((week) => {
      const { reviews, passed } = perWeek.get(week)!;
      return { week, reviews, passed, percent: reviews ? Math.round((passed / reviews) * 100) : null };
    }),
    stages: stagesOverTime(
      termRows,
      logs,
      dayOf,
      range === 30 ? days : days.filter((_, i) => (range - 1 - i) % 3 === 0),
    ),
  };
}

/** Terms coming due on each of the next 30 days (overdue ones count today); new terms are not scheduled yet. */
function forecast(termRows: TermRow[], dayOf: (d: Date) => string, today: string) {
  const days = daysUntil(addDays(today, FORECAST_DAYS - 1), FORECAST_DAYS);
  const last = days.at(-1)!;
  const counts = new Map(days.map((day) => [day, 0]));
  for (const term of termRows) {
    if (term.state === 0) continue;
    const day = dayOf(term.due);
    if (day > last) continue;
    const key = day < today ? today : day;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return days.map((day) => ({ day, due: counts.get(day) ?? 0 }));
}

/**
 * The terms in each stage at the end of each sampled day, replayed from the review history: a term exists from its
 * creation day; before its first review it is to learn; after a review its interval says the rest (0 days: still in
 * the learning steps; due again by the end of the day: needs review; 21 days or more: learned). A term changed by hand
 * or imported with a card but no history counts with its current card from its last review on.
 */
function stagesOverTime(termRows: TermRow[], logs: Log[], dayOf: (d: Date) => string, samples: string[]) {
  const logsByTerm = new Map<string, { day: string; scheduledDays: number; at: number }[]>();
  for (const log of logs) {
    const list = logsByTerm.get(log.termId) ?? [];
    // Intervals past the scheduler's ceiling (stored before imports were checked) count as the ceiling.
    list.push({
      day: dayOf(log.at),
      scheduledDays: Math.min(log.scheduledDays, MAX_INTERVAL_DAYS),
      at: log.at.getTime(),
    });
    logsByTerm.set(log.termId, list);
  }
  const counts = samples.map(() => Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>);
  for (const term of termRows) {
    const created = dayOf(term.createdAt);
    const history = logsByTerm.get(term.id) ?? [];
    const lastReviewDay = term.lastReview ? dayOf(term.lastReview) : null;
    let next = 0;
    samples.forEach((day, i) => {
      if (created > day) return;
      while (next < history.length && history[next]!.day <= day) next++;
      const last = history[next - 1];
      let stage: Stage;
      if (last) stage = stageAfter(last.scheduledDays, dayOf(new Date(last.at + last.scheduledDays * DAY_MS)), day);
      else if (term.state !== 0 && lastReviewDay && lastReviewDay <= day)
        stage = stageAfter(term.scheduledDays, dayOf(term.due), day);
      else stage = "tolearn";
      counts[i]![stage]++;
    });
  }
  return samples.map((day, i) => ({ day, ...counts[i]! }));
}

/** The scheduler's longest interval (ts-fsrs' maximum, a hundred years). */
const MAX_INTERVAL_DAYS = 36_500;

function stageAfter(scheduledDays: number, dueDay: string, day: string): Stage {
  if (scheduledDays === 0) return "inprogress";
  if (dueDay <= day) return "needsreview";
  return scheduledDays >= LEARNED_INTERVAL_DAYS ? "learned" : "inprogress";
}

export type Statistics = Awaited<ReturnType<typeof learnerStatistics>>;
