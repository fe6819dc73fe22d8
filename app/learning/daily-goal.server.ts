import { and, eq, gte, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { addDays, dayFormatter, safeTimeZone } from "../progress/days";
import { reviewLogs } from "./learning.schema";

/**
 * The daily goal (ADR 119): minutes of review a day, measured from the review log. Each grade counts the time since the
 * learner's grade before it (the card it graded showed right after that one), capped at CARD_CAP_MS as Anki caps an
 * answer's time; a grade with none before it in the window read counts the cap.
 */
export const CARD_CAP_MS = 60_000;

/**
 * The first day (in the learner's zone) on which the streak counts only days that reached the goal; days before it
 * count as they did then, with any review.
 */
export const GOAL_STREAK_FROM = "2026-12-07";

/** Days read per query while walking back a streak. */
const CHUNK_DAYS = 60;

/** Review time (ms) per day of the learner (all their study languages), for the days `from` to `to` (inclusive). */
export async function reviewTimeByDay(
  db: Database,
  userId: string,
  from: string,
  to: string,
): Promise<Map<string, number>> {
  // A day in any zone starts at most 14 hours before its UTC midnight: the index on (user, reviewed_at) bounds the read,
  // from one cap earlier, so the first grade of the first day has the grade before it when that one counts.
  const since = new Date(Date.parse(`${from}T00:00:00Z`) - 14 * 3_600_000 - CARD_CAP_MS);
  const grades = db
    .select({
      day: reviewLogs.day,
      ms: sql<number>`least(${CARD_CAP_MS}, coalesce(extract(epoch from ${reviewLogs.reviewedAt} - lag(${reviewLogs.reviewedAt}) over (order by ${reviewLogs.reviewedAt})) * 1000, ${CARD_CAP_MS}))`.as(
        "ms",
      ),
    })
    .from(reviewLogs)
    .where(and(eq(reviewLogs.userId, userId), gte(reviewLogs.reviewedAt, since)))
    .as("grades");
  const rows = await db
    .select({ day: grades.day, ms: sql<number>`sum(${grades.ms})::float8` })
    .from(grades)
    .where(sql`${grades.day} between ${from} and ${to}`)
    .groupBy(grades.day);
  return new Map(rows.flatMap((row) => (row.day ? [[row.day, Math.round(Number(row.ms))] as const] : [])));
}

/** Today's review time (ms) toward the goal, in the learner's zone. */
export async function reviewTimeToday(db: Database, userId: string, timeZone: string, now = new Date()) {
  const today = dayFormatter(safeTimeZone(timeZone))(now);
  return (await reviewTimeByDay(db, userId, today, today)).get(today) ?? 0;
}

/** Progress toward the day's goal, as the review and My home show it. */
export type GoalProgress = { goalMinutes: number; minutes: number; met: boolean };

export function goalProgress(ms: number, goalMinutes: number): GoalProgress {
  const minutes = Math.floor(ms / 60_000);
  return { goalMinutes, minutes, met: ms >= goalMinutes * 60_000 };
}

/**
 * The days from `expected` back to GOAL_STREAK_FROM that reached the goal, in a row; `done` when the walk reached the
 * rule's first day with every day met (the days before it then count by the older rule).
 */
export async function goalDaysInARow(
  db: Database,
  userId: string,
  goalMinutes: number,
  today: string,
): Promise<{ streak: number; next: string; done: boolean }> {
  const goal = goalMinutes * 60_000;
  let streak = 0;
  let expected = today;
  let todayPending = true;
  for (let end = today; end >= GOAL_STREAK_FROM; end = addDays(end, -CHUNK_DAYS)) {
    const start = addDays(end, -CHUNK_DAYS + 1) < GOAL_STREAK_FROM ? GOAL_STREAK_FROM : addDays(end, -CHUNK_DAYS + 1);
    const times = await reviewTimeByDay(db, userId, start, end);
    for (let day = end; day >= start; day = addDays(day, -1)) {
      if ((times.get(day) ?? 0) >= goal) {
        streak++;
        expected = addDays(day, -1);
      } else if (day === today && todayPending) {
        // Today is not over: a streak may still end yesterday.
        expected = addDays(day, -1);
      } else return { streak, next: expected, done: false };
      todayPending = false;
    }
  }
  return { streak, next: expected, done: true };
}
