import { createRequire } from "node:module";
import { eq, sql } from "drizzle-orm";
import type { FSRS } from "ts-fsrs";
import type { Database } from "../db/db.server";
import { log } from "../server/log.server";
import { runInWorker } from "../server/worker-task.server";
import { fitHistories, OPTIMIZER_MIN_ITEMS, type FitOutcome, type History } from "./fsrs-fit.worker";
import { fsrsParameters } from "./learning.schema";
import { RETENTION, schedulerFor } from "./stage";

/**
 * A learner's scheduler (ADR 062): FSRS-6 with the parameters fitted to their review log once there is one, aiming at
 * their desired retention. One lookup by primary key for both.
 */
export async function learnerScheduler(db: Database, userId: string): Promise<FSRS> {
  const { rows } = (await db.execute(sql`select
      (select desired_retention from learner_settings where user_id = ${userId}) as retention,
      (select parameters from fsrs_parameters where user_id = ${userId}) as parameters`)) as unknown as {
    rows: { retention: number | null; parameters: number[] | string | null }[];
  };
  const row = rows[0];
  return schedulerFor(parsedParameters(row?.parameters), row?.retention ?? RETENTION.default);
}

/** Stored FSRS parameters as a driver gives them (an array, or JSON text), or null. */
export function parsedParameters(value: unknown): number[] | null {
  if (typeof value === "string") return JSON.parse(value) as number[];
  return Array.isArray(value) ? (value as number[]) : null;
}

export type LearnerFit = typeof fsrsParameters.$inferSelect;

/** The learner's fit as stored (null before the first look at their log). */
export async function readFit(db: Database, userId: string): Promise<LearnerFit | null> {
  const [row] = await db.select().from(fsrsParameters).where(eq(fsrsParameters.userId, userId)).limit(1);
  return row ?? null;
}

/**
 * The learner's review histories, one per term since it was last new: a review given to a new card starts a term's
 * history again (a term set back to "to learn" starts over); reviews before the first such review (a history whose
 * start is unknown) are left out. Days are the learner's own (the day column, in their zone when they reviewed).
 */
export async function reviewHistories(
  db: Database,
  userId: string,
): Promise<{ histories: History[]; reviews: number }> {
  const histories: History[] = [];
  let term = "";
  let current: History | null = null;
  let lastDay = 0;
  let reviews = 0;
  let kept = 0;
  // In pages, a turn of the event loop between them: on the embedded database a query runs on the server's thread.
  let after: { term: string; at: string; id: string } | null = null;
  for (;;) {
    const { rows } = (await db.execute(sql`select term_id, rating, state, id, reviewed_at::text as at,
        coalesce(day, (reviewed_at at time zone 'UTC')::date)::text as day
      from review_logs where user_id = ${userId} and rating between 1 and 4
      ${after ? sql`and (term_id, reviewed_at, id) > (${after.term}::uuid, ${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
      order by term_id, reviewed_at, id
      limit ${HISTORY_PAGE}`)) as unknown as {
      rows: { term_id: string; rating: number; state: number; id: string; at: string; day: string }[];
    };
    for (const row of rows) {
      if (row.term_id !== term) {
        term = row.term_id;
        current = null;
      }
      const day = Date.parse(`${row.day}T00:00:00Z`) / 86_400_000;
      if (Number(row.state) === 0) {
        current = [];
        histories.push(current);
      } else if (!current || current.length >= 2 * MAX_HISTORY_REVIEWS) continue;
      current.push(Number(row.rating), current.length === 0 ? 0 : Math.max(0, Math.round(day - lastDay)));
      lastDay = day;
      kept++;
    }
    reviews += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < HISTORY_PAGE) break;
    if (kept >= MAX_FIT_REVIEWS) {
      // Enough for a fit: the rest is only counted (the count says when to look again).
      const counted = (await db.execute(sql`select count(*)::int as n from review_logs
        where user_id = ${userId} and rating between 1 and 4`)) as unknown as { rows: { n: number }[] };
      reviews = Number(counted.rows[0]?.n ?? reviews);
      break;
    }
    after = { term: last.term_id, at: last.at, id: last.id };
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { histories: histories.filter((history) => history.length >= 4), reviews };
}

/** fsrs-rs built for linux-x64 (glibc), an optional dependency: elsewhere fitting is skipped with a warning. */
export const FSRS_NATIVE_BUILD = "@open-spaced-repetition/binding-linux-x64-gnu";

/** Where the fsrs-rs binding is, for the worker (resolved from here: the build's or the sources' node_modules). */
const bindingPath = () => createRequire(import.meta.url).resolve(FSRS_NATIVE_BUILD);

/**
 * Fits in a worker thread (app/server/worker-task.server.ts): the optimizer and the evaluation run there, so the
 * server's event loop goes on answering. The worker loads the native binding (linux-x64 in the image) itself.
 */
export function fitInWorker(
  histories: History[],
  minItems = OPTIMIZER_MIN_ITEMS,
  deadlineMs = FIT_DEADLINE_MS,
): Promise<FitOutcome> {
  return runInWorker({
    entry: fitHistories,
    module: bindingPath(),
    input: { histories, minItems },
    // The optimizer's tensors stay well inside this; a runaway fit ends the worker, not the server.
    heapMb: 256,
    deadlineMs,
  });
}

/** Review log rows read per query. */
const HISTORY_PAGE = 2_000;
/**
 * The reviews of one term's history a fit reads, from its start: the optimizer trains on every prefix of a history,
 * so its work grows with the square of a history's length.
 */
export const MAX_HISTORY_REVIEWS = 64;
/** The reviews a fit reads in all. */
export const MAX_FIT_REVIEWS = 200_000;
/** A fit that runs longer is ended (and recorded like one that failed). */
const FIT_DEADLINE_MS = 10 * 60_000;

/** A learner's log is looked at again once it grew by this share since the last look (and by the minimum at least). */
const REFIT_GROWTH = 0.1;
/** Learners fitted per round, one after another: a round stays a few seconds even with many learners waiting. */
const LEARNERS_PER_ROUND = 20;

/** Reads a learner's log, fits in a worker and stores the outcome; returns it. */
export async function fitLearner(
  db: Database,
  userId: string,
  now = new Date(),
  deadlineMs = FIT_DEADLINE_MS,
): Promise<FitOutcome> {
  const { histories, reviews } = await reviewHistories(db, userId);
  let outcome: FitOutcome;
  try {
    outcome = await fitInWorker(histories, OPTIMIZER_MIN_ITEMS, deadlineMs);
  } catch (error) {
    // A failed fit is recorded like one with too few reviews: tried again once the log has grown, not every round.
    outcome = { fitted: false, items: 0 };
    await storeFit(db, userId, outcome, reviews, now);
    throw error;
  }
  await storeFit(db, userId, outcome, reviews, now);
  return outcome;
}

async function storeFit(db: Database, userId: string, outcome: FitOutcome, reviews: number, now: Date) {
  const values = outcome.fitted
    ? {
        parameters: outcome.parameters,
        reviews,
        fittedAt: now,
        defaultLogLoss: outcome.defaults.logLoss,
        defaultRmse: outcome.defaults.rmse,
        fittedLogLoss: outcome.fit.logLoss,
        fittedRmse: outcome.fit.rmse,
      }
    : // Too few reviews yet: a fit found earlier stays; the count says when to look again.
      { reviews, fittedAt: now };
  await db
    .insert(fsrsParameters)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: fsrsParameters.userId, set: values });
}

/**
 * The learners whose log is worth a (new) fit: at least the optimizer's minimum of reviews and never looked at, or grown
 * by a tenth since; those with the most new reviews first.
 */
export async function learnersToFit(db: Database, limit = LEARNERS_PER_ROUND): Promise<string[]> {
  const { rows } = (await db.execute(sql`select r.user_id, count(*)::int as n, max(f.reviews) as used
    from review_logs r left join fsrs_parameters f on f.user_id = r.user_id
    where r.user_id is not null
    group by r.user_id
    having count(*) >= coalesce(max(f.reviews), 0)
      + greatest(${OPTIMIZER_MIN_ITEMS}::float8, coalesce(max(f.reviews), 0) * ${REFIT_GROWTH}::float8)
    order by count(*) - coalesce(max(f.reviews), 0) desc
    limit ${limit}`)) as unknown as { rows: { user_id: string }[] };
  return rows.map((row) => row.user_id);
}

let running: Promise<number> | null = null;

/**
 * One round of fitting: each learner due for it, one after another (a failure is logged and the next goes on). Rounds
 * never overlap within a process; the housekeeping's scheduler calls this (app/server/housekeeping.server.ts).
 */
export function fitDueLearners(db: Database): Promise<number> {
  running ??= (async () => {
    let fitted = 0;
    try {
      const due = await learnersToFit(db);
      if (due.length > 0) log.info("fsrs fit round", { learners: due.length });
      for (const userId of due) {
        const started = Date.now();
        try {
          const outcome = await fitLearner(db, userId);
          if (outcome.fitted) fitted++;
          log.info("fsrs fit", {
            fitted: outcome.fitted,
            items: outcome.items,
            ms: Date.now() - started,
          });
        } catch (error) {
          log.warn("fsrs fit failed; tried again at the next round", { error });
        }
      }
    } finally {
      running = null;
    }
    return fitted;
  })();
  return running;
}

/**
 * How soon after an import a round of fitting starts: a few seconds, so the learner's first pages after the import are
 * drawn before it (several imports in a row start one round).
 */
export const SOON_MS = 5_000;
let soon: NodeJS.Timeout | undefined;

/**
 * Asks for a round of fitting shortly, outside the request that asks (an import brought a review history): the request
 * only sets a timer; the round runs as the scheduled ones do.
 */
export function fitSoon(db: Database): void {
  if (soon) return;
  soon = setTimeout(() => {
    soon = undefined;
    fitDueLearners(db).catch((error: unknown) => log.warn("fsrs fit round failed", { error }));
  }, SOON_MS);
  soon.unref();
}
