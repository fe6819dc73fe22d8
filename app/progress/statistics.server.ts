import { and, desc, eq, gte, lt, lte, ne, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { terms } from "../learning/learning.schema";
import { STAGES, type Stage } from "../learning/vocabulary";
import { addDays, dayFormatter, daysUntil, safeTimeZone, weekOf } from "./days";
import { learnerDays } from "./progress.schema";
import type { Range } from "./range";
import { GOAL_STREAK_FROM, goalDaysInARow } from "../learning/daily-goal.server";
import { DAILY_GOAL } from "../learning/daily-limits";

export const FORECAST_DAYS = 30;
const DAY_MS = 86_400_000;

/*
 * Everything here reads the per-day aggregates of app/progress/progress.schema.ts (kept by database triggers in the
 * same transaction as each review, drizzle/0013), never the raw review log. A review counts on the learner's day in
 * their zone at the moment it was given; "today" is the day in their zone now.
 */

const reviewsOfDay = sql<number>`${learnerDays.again} + ${learnerDays.hard} + ${learnerDays.good} + ${learnerDays.easy}`;

/**
 * Days in a row that count, ending today, or yesterday while today does not count yet (the day is not over). From
 * GOAL_STREAK_FROM a day counts when its review time reached the learner's daily goal (ADR 119); before it, a day
 * with at least one review counts, as it did then.
 */
export async function currentStreak(
  db: Database,
  userId: string,
  timeZone: string,
  now = new Date(),
  goalMinutes: number = DAILY_GOAL.default,
): Promise<number> {
  const today = dayFormatter(safeTimeZone(timeZone))(now);
  let expected = today;
  let streak = 0;
  if (today >= GOAL_STREAK_FROM) {
    const goal = await goalDaysInARow(db, userId, goalMinutes, today);
    if (!goal.done) return goal.streak;
    streak = goal.streak;
    expected = goal.next;
  }
  const PAGE = 400;
  for (let before = addDays(expected, 1); ;) {
    const rows = await db
      .select({ day: learnerDays.day })
      .from(learnerDays)
      .where(and(eq(learnerDays.userId, userId), lt(learnerDays.day, before), sql`${reviewsOfDay} > 0`))
      .orderBy(desc(learnerDays.day))
      .limit(PAGE);
    for (const { day } of rows) {
      if (day === expected) {
        streak++;
        expected = addDays(expected, -1);
      } else if (streak === 0 && expected === today && day === addDays(today, -1)) {
        streak = 1;
        expected = addDays(day, -1);
      } else return streak;
    }
    if (rows.length < PAGE) return streak;
    before = rows.at(-1)!.day;
  }
}

type StageCounts = Record<Stage, number>;

/** Everything the statistics page draws, for the last `range` days in the learner's time zone. */
export async function learnerStatistics(
  db: Database,
  userId: string,
  timeZone: string,
  range: Range,
  now = new Date(),
  goalMinutes: number = DAILY_GOAL.default,
) {
  const zone = safeTimeZone(timeZone);
  const dayOf = dayFormatter(zone);
  const today = dayOf(now);
  const days = daysUntil(today, range);
  const first = days[0]!;
  const mine = eq(learnerDays.userId, userId);
  const [termRows, dayRows, [before], streak] = await Promise.all([
    // Only the terms the forecast can count: scheduled (not new), due before its last day ends in any zone; counted
    // per calendar day of the learner's zone by the database (a row a day, not a row a term).
    db
      .select({
        day: sql<string>`to_char(${terms.due} at time zone ${zone}, 'YYYY-MM-DD')`,
        due: sql<number>`count(*)::int`,
      })
      .from(terms)
      .where(
        and(
          eq(terms.userId, userId),
          ne(terms.state, 0),
          lt(terms.due, new Date(now.getTime() + (FORECAST_DAYS + 1) * DAY_MS)),
        ),
      )
      .groupBy(sql`1`),
    db
      .select({
        day: learnerDays.day,
        again: learnerDays.again,
        reviews: reviewsOfDay,
        tolearn: learnerDays.tolearn,
        inprogress: learnerDays.inprogress,
        needsreview: learnerDays.needsreview,
        learned: learnerDays.learned,
      })
      .from(learnerDays)
      .where(and(mine, gte(learnerDays.day, first), lte(learnerDays.day, today))),
    db
      .select({
        tolearn: sql<number>`coalesce(sum(${learnerDays.tolearn}), 0)::int`,
        inprogress: sql<number>`coalesce(sum(${learnerDays.inprogress}), 0)::int`,
        needsreview: sql<number>`coalesce(sum(${learnerDays.needsreview}), 0)::int`,
        learned: sql<number>`coalesce(sum(${learnerDays.learned}), 0)::int`,
      })
      .from(learnerDays)
      .where(and(mine, lt(learnerDays.day, first))),
    currentStreak(db, userId, zone, now, goalMinutes),
  ]);
  const byDay = new Map(dayRows.map((row) => [row.day, row]));

  const weeks = [...new Set(days.map(weekOf))];
  const perWeek = new Map(weeks.map((week) => [week, { reviews: 0, passed: 0 }]));
  for (const row of dayRows) {
    const week = perWeek.get(weekOf(row.day))!;
    week.reviews += Number(row.reviews);
    week.passed += Number(row.reviews) - row.again;
  }

  // Each stage's count at the end of each day: what came before the range, plus each day's changes.
  const running = Object.fromEntries(STAGES.map((stage) => [stage, Number(before?.[stage] ?? 0)])) as StageCounts;
  const stagesByDay = days.map((day) => {
    const row = byDay.get(day);
    if (row) for (const stage of STAGES) running[stage] += row[stage];
    return { day, ...running };
  });

  return {
    timeZone: zone,
    today,
    streak,
    reviewsPerDay: days.map((day) => ({ day, reviews: Number(byDay.get(day)?.reviews ?? 0) })),
    forecast: forecast(termRows, today),
    retention: weeks.map((week) => {
      const { reviews, passed } = perWeek.get(week)!;
      return { week, reviews, passed, percent: reviews ? Math.round((passed / reviews) * 100) : null };
    }),
    stages: range === 30 ? stagesByDay : stagesByDay.filter((_, i) => (range - 1 - i) % 3 === 0),
  };
}

/** Terms coming due on each of the next 30 days (overdue ones count today); new terms are not scheduled yet. */
function forecast(dueByDay: { day: string; due: number }[], today: string) {
  const days = daysUntil(addDays(today, FORECAST_DAYS - 1), FORECAST_DAYS);
  const last = days.at(-1)!;
  const counts = new Map(days.map((day) => [day, 0]));
  for (const { day, due } of dueByDay) {
    if (day > last) continue;
    const key = day < today ? today : day;
    counts.set(key, (counts.get(key) ?? 0) + Number(due));
  }
  return days.map((day) => ({ day, due: counts.get(day) ?? 0 }));
}

export type Statistics = Awaited<ReturnType<typeof learnerStatistics>>;
