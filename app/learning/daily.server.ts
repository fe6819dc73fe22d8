import { and, asc, eq, gt, gte, inArray, lt, lte, min, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { builtOnce, preparedPerDatabase } from "../db/built-once";
import { memo } from "../util/memo";
import type { Database } from "../db/db.server";
import { fsrsParameters, learnerSettings, reviewLogs, terms } from "./learning.schema";
import { learnerLanguageDays } from "../progress/progress.schema";
import { settingsOf, type LearnerSettings, type SettingsRow } from "./settings.server";
import type { Owner, Term, TermExample } from "./terms.server";
import { dayBounds, DEFAULT_TIME_ZONE } from "./time-zone";
import { currentStreak } from "../progress/statistics.server";
import { parsedParameters } from "./fsrs-fit.server";
import { schedulerFor } from "./stage";
import type { FSRS } from "ts-fsrs";

// FSRS card states (ts-fsrs' State): new, learning, review, relearning.
const NEW = 0;
const REVIEW = 2;
const LEARNING_STEPS = [1, 3];

/**
 * What is done and left today, the learner's calendar day in their zone. New terms count when first graded; reviews
 * are grades of cards in the review state; the learning steps (learning, relearning) are never limited, so a term
 * graded "Again" comes back within the session. Counted over all the learner's study languages.
 */
export type Day = {
  start: Date;
  end: Date;
  /** The day's date in the learner's zone (`YYYY-MM-DD`), the day their grades of today are counted on. */
  date: string;
  newDone: number;
  reviewsDone: number;
  newLeft: number;
  reviewsLeft: number;
};

/**
 * Today's grades, by the state the card was in (new or review), over all the learner's study languages: from the day's
 * aggregates (learner_language_days, one row per language, kept by the database with every grade; drizzle/0027), so
 * however many grades the day holds, they are not counted again. A grade counts on the day of the zone the learner had
 * when they gave it, like the statistics.
 */
const gradeColumns = {
  newDone: sql<number>`coalesce(sum(${learnerLanguageDays.newGraded}), 0)`,
  reviewsDone: sql<number>`coalesce(sum(${learnerLanguageDays.reviewGraded}), 0)`,
};
const gradedOn = (userId: string | Placeholder, date: string | Placeholder) =>
  and(eq(learnerLanguageDays.userId, userId), eq(learnerLanguageDays.day, date));

/** The day between these bounds once these grades are counted. */
function dayFrom(
  { start, end, date }: { start: Date; end: Date; date: string },
  settings: LearnerSettings,
  graded: Partial<Record<keyof typeof gradeColumns, unknown>>,
) {
  const newDone = Number(graded.newDone ?? 0);
  const reviewsDone = Number(graded.reviewsDone ?? 0);
  return {
    start,
    end,
    date,
    newDone,
    reviewsDone,
    newLeft: Math.max(0, settings.newPerDay - newDone),
    reviewsLeft: Math.max(0, settings.reviewsPerDay - reviewsDone),
  };
}

export async function today(db: Database, userId: string, settings: LearnerSettings, now = new Date()): Promise<Day> {
  const bounds = dayBounds(now, settings.timeZone ?? DEFAULT_TIME_ZONE);
  const [row] = await db.select(gradeColumns).from(learnerLanguageDays).where(gradedOn(userId, bounds.date));
  return dayFrom(bounds, settings, row ?? {});
}

const owned = (owner: { userId: string | Placeholder; language: string | Placeholder }) =>
  and(eq(terms.userId, owner.userId), eq(terms.language, owner.language));

/** The states of the cards today's limits still let through: the learning steps always, reviews and new terms while
 * some are left. */
function allowedStates(day: Day): number[] {
  const states = [...LEARNING_STEPS];
  if (day.reviewsLeft > 0) states.push(REVIEW);
  if (day.newLeft > 0) states.push(NEW);
  return states;
}

/** The next card: the term, its examples, and the version of its row (`xmin`) a grade's write checks. */
export type NextCard = { term: Term; examples: TermExample[]; row: string };

/**
 * The read of the next card, prepared once per database for each set of states today's limits let through (four at
 * most, named by their states joined with "_"): read on every card of the review, it is built once, not at every call.
 */
const nextCardRead = memo(8, (key) => {
  const states = key.split("_").map(Number);
  const owner = { userId: sql.placeholder("userId"), language: sql.placeholder("language") };
  return preparedPerDatabase((db) =>
    db
      .select({ term: terms, examples: examplesJson, row: sql<string>`${terms}.xmin::text` })
      .from(terms)
      .where(and(owned(owner), lte(terms.due, sql.placeholder("now")), inArray(terms.state, states)))
      .orderBy(asc(terms.due), asc(terms.createdAt))
      .limit(1)
      .prepare(`next_card_${key}`),
  );
});

/** The next card to review now within today's limits, soonest due first. */
export async function nextInQueue(db: Database, owner: Owner, day: Day, now = new Date()): Promise<NextCard | null> {
  const read = nextCardRead(allowedStates(day).join("_"));
  // The card and its examples (oldest first) in one read: the review page shows both.
  const [row] = await read(db).execute({ userId: owner.userId, language: owner.language, now: now.toISOString() });
  if (!row) return null;
  // Both drivers parse JSON; its times stay text.
  return {
    term: row.term,
    examples: row.examples.map((e) => ({ ...e, createdAt: new Date(e.createdAt) })),
    row: row.row,
  };
}

type ExampleJson = Omit<TermExample, "createdAt"> & { createdAt: string };
/**
 * A term's examples as JSON, in the order examplesOf gives them. Written out in full: drizzle leaves the columns of a
 * one-table select unqualified, and in the subquery "id" would be the example's.
 */
const examplesJson = sql<ExampleJson[]>`coalesce((select json_agg(json_build_object('id', e.id,
  'termId', e.term_id, 'sentence', e.sentence, 'translation', e.translation, 'createdAt', e.created_at)
  order by e.created_at) from term_examples as e where e.term_id = "terms"."id"), '[]'::json)`;

export type Queue = {
  /** Cards to review now, within today's limits. */
  dueNow: number;
  /** Cards to review before the day ends (those due now included), within today's limits. */
  dueToday: number;
  /** When the next card of the learning steps (or a review, while some are left) is due later today; else null. */
  nextLaterToday: Date | null;
  /** When the next of the learner's cards in this language falls due, whatever its state or day: the counts above
   * stay the same until then (or until a write, or the day's end). */
  nextDue: Date | null;
};

const isNew = sql`${terms.state} = ${NEW}`;
const isReview = sql`${terms.state} = ${REVIEW}`;
const isStep = inArray(terms.state, LEARNING_STEPS)!;

/** The cards due now and due today, by state, among the learner's cards due before the day's end. */
function queueColumns(now: Date | Placeholder, end: Date | Placeholder) {
  const filtered = (state: SQL, until: SQL) => sql<number>`count(*) filter (where ${state} and ${until})`;
  const dueNow = lte(terms.due, now)!;
  const dueToday = lt(terms.due, end)!;
  return {
    newNow: filtered(isNew, dueNow),
    reviewNow: filtered(isReview, dueNow),
    stepNow: filtered(isStep, dueNow),
    newToday: filtered(isNew, dueToday),
    reviewToday: filtered(isReview, dueToday),
    stepToday: filtered(isStep, dueToday),
  };
}

/** The next card later today among the cards due after now: of the learning steps, or of reviews too while some are left. */
const laterToday = (end: Date | Placeholder, withReviews: boolean) =>
  sql<
    Date | string | null
  >`min(${terms.due}) filter (where ${and(lt(terms.due, end), withReviews ? or(isStep, isReview) : isStep)})`;

/** The queue from those counts within today's limits, and the next due times. */
function queueFrom(
  counts: Partial<Record<keyof ReturnType<typeof queueColumns>, unknown>>,
  day: Day,
  later: { at: unknown; next: unknown },
): Queue {
  const n = (value: unknown) => Number(value ?? 0);
  const at = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date));
  const capped = (news: unknown, reviews: unknown, steps: unknown) =>
    Math.min(n(news), day.newLeft) + Math.min(n(reviews), day.reviewsLeft) + n(steps);
  return {
    dueNow: capped(counts.newNow, counts.reviewNow, counts.stepNow),
    dueToday: capped(counts.newToday, counts.reviewToday, counts.stepToday),
    nextLaterToday: at(later.at),
    nextDue: at(later.next),
  };
}

/** How many cards wait now and today, and when the next one comes later today, within today's limits. */
export async function queueOf(db: Database, owner: Owner, day: Day, now = new Date()): Promise<Queue> {
  const [[counts], [later]] = await Promise.all([
    db
      .select(queueColumns(now, day.end))
      .from(terms)
      .where(and(owned(owner), lt(terms.due, day.end))),
    db
      .select({ at: laterToday(day.end, day.reviewsLeft > 0), next: min(terms.due) })
      .from(terms)
      .where(and(owned(owner), gt(terms.due, now))),
  ]);
  return queueFrom(counts ?? {}, day, { at: later?.at, next: later?.next });
}

/** Of today's grades, those in this study language (the count `todaysReviews` gives as `reviewed`). */
const gradedIn = (language: string | Placeholder) =>
  sql<number>`coalesce(sum(${learnerLanguageDays.graded}) filter (where ${learnerLanguageDays.language} = ${language}), 0)`;

/** The columns of a raw select, named as in drizzle's (`"newNow"`). */
const columns = (fields: Record<string, SQL>) =>
  sql.join(
    Object.entries(fields).map(([name, value]) => sql`${value} as ${sql.identifier(name)}`),
    sql`, `,
  );

type DayAndQueue = { day: Day; gradedToday: number; queue: Queue; scheduler: FSRS };

/**
 * The learner's day in one call and one round trip: what is left today and what waits now (the home pages and the
 * review page), the same as `today` then `queueOf` (tests/integration/daily-suite.ts compares them), how many of
 * today's grades were in this study language (as `todaysReviews` counts them, for the review's progress), and the FSRS
 * parameters fitted to the learner (their scheduler, with the settings' retention). The next card later today is read
 * both with and without reviews, since whether reviews are left is known only from the same read, among the cards due
 * before the day's end only; the next due time of any card alone, so that the index gives it (the first after now).
 */
export async function dayAndQueue(
  db: Database,
  owner: Owner,
  settings: LearnerSettings,
  now = new Date(),
): Promise<DayAndQueue> {
  return dayAndQueueFrom(await readDayAndQueue(db, owner, settings.timeZone ?? DEFAULT_TIME_ZONE, now), settings);
}

/**
 * The learner's settings and, in the same round trip, their day and queue as `dayAndQueue` gives them: the day's bounds
 * are those of `expectedZone` (the zone of the settings read last), and read again in the zone the settings name when
 * that is another one.
 */
export async function settingsDayAndQueue(
  db: Database,
  owner: Owner,
  expectedZone: string,
  now = new Date(),
): Promise<DayAndQueue & { settings: LearnerSettings }> {
  let read = await readDayAndQueue(db, owner, expectedZone, now);
  const settings = settingsOf(
    read.row.newPerDay === null || read.row.newPerDay === undefined ? undefined : (read.row as SettingsRow),
  );
  const zone = settings.timeZone ?? DEFAULT_TIME_ZONE;
  if (zone !== expectedZone) read = await readDayAndQueue(db, owner, zone, now);
  return { settings, ...dayAndQueueFrom(read, settings) };
}

type DayAndQueueRead = { start: Date; end: Date; date: string; row: Record<string, unknown> };

/** The statement of dayAndQueue at `now`, the day's bounds in `timeZone`. */
async function readDayAndQueue(db: Database, owner: Owner, timeZone: string, now: Date): Promise<DayAndQueueRead> {
  const { start, end, date } = dayBounds(now, timeZone);
  const { rows } = await dayAndQueueStatement<Record<string, unknown>>(db, {
    userId: owner.userId,
    language: owner.language,
    date,
    end: end.toISOString(),
    now: now.toISOString(),
  });
  return { start, end, date, row: rows[0] ?? {} };
}

function dayAndQueueFrom({ row, ...bounds }: DayAndQueueRead, settings: LearnerSettings): DayAndQueue {
  const day = dayFrom(bounds, settings, row);
  return {
    day,
    gradedToday: Number(row.gradedHere ?? 0),
    queue: queueFrom(row, day, { at: day.reviewsLeft > 0 ? row.anyLater : row.stepLater, next: row.next }),
    scheduler: schedulerFor(parsedParameters(row.parameters), settings.desiredRetention),
  };
}

/** The learner's settings row, read with the day (settingsDayAndQueue); null columns when they kept the defaults. */
const settingsColumns: Record<keyof SettingsRow, SQL> = {
  newPerDay: sql`${learnerSettings.newPerDay}`,
  reviewsPerDay: sql`${learnerSettings.reviewsPerDay}`,
  timeZone: sql`${learnerSettings.timeZone}`,
  reviewModes: sql`${learnerSettings.reviewModes}`,
  desiredRetention: sql`${learnerSettings.desiredRetention}`,
  autoplaySounds: sql`${learnerSettings.autoplaySounds}`,
};

/** The statement of dayAndQueue, built once (the values are placeholders). */
const dayAndQueueStatement = (() => {
  const [userId, language, date, end, now] = ["userId", "language", "date", "end", "now"].map((name) =>
    sql.placeholder(name),
  ) as [Placeholder, Placeholder, Placeholder, Placeholder, Placeholder];
  const owner = { userId, language };
  return builtOnce(sql`select * from
    (select ${columns({ ...gradeColumns, gradedHere: gradedIn(language) })} from ${learnerLanguageDays}
       where ${gradedOn(userId, date)}) as graded,
    (select ${columns(queueColumns(now, end))} from ${terms} where ${and(owned(owner), lt(terms.due, end))}) as counts,
    (select ${columns({ stepLater: laterToday(end, false), anyLater: laterToday(end, true) })}
       from ${terms} where ${and(owned(owner), gt(terms.due, now), lt(terms.due, end))}) as later,
    (select ${columns({ next: min(terms.due) })} from ${terms} where ${and(owned(owner), gt(terms.due, now))}) as next,
    (select (select ${fsrsParameters.parameters} from ${fsrsParameters}
              where ${eq(fsrsParameters.userId, userId)}) as parameters) as fit
    left join (select ${columns(settingsColumns)} from ${learnerSettings}
              where ${eq(learnerSettings.userId, userId)}) as settings on true`);
})();

/**
 * The learner's settings, day and queue at one moment of a request, and what else was read for them while these hold
 * (`memo`, see dayMemo).
 */
export type LearnerDay = {
  now: Date;
  /** When the day and queue were read (ms), and until when they hold (ms): the same counts at any moment between. */
  readAt: number;
  validUntil: number;
  settings: LearnerSettings;
  day: Day;
  /** Grades given today in this study language. */
  gradedToday: number;
  queue: Queue;
  /** The learner's FSRS scheduler: their fitted parameters and desired retention. */
  scheduler: FSRS;
  memo: Map<string, Promise<unknown>>;
};

/**
 * What `read` gives, read once for as long as the learner's day holds: kept with it (same data version, nothing fell
 * due, same day), so only what depends on nothing else may be kept here (the next card).
 */
export function dayMemo<T>(known: LearnerDay, key: string, read: () => Promise<T>): Promise<T> {
  let found = known.memo.get(key) as Promise<T> | undefined;
  if (!found) {
    found = read();
    known.memo.set(key, found);
    found.catch(() => {
      if (known.memo.get(key) === found) known.memo.delete(key);
    });
  }
  return found;
}
const perRequest = new WeakMap<object, { owner: Owner; day: Promise<LearnerDay> }>();

/**
 * The learner's day as last read, per learner and study language, for the version of their data it was read from
 * (`users.data_version`, which every write of theirs moves, on any instance): settings, today's grades and the queue
 * stay the same until a write, the next due time of any of their cards, or the end of their day. Bounded: the least
 * recently used learner goes first.
 */
const KEPT_DAYS = 512;
type KeptDay = { version: number; validUntil: number; day: LearnerDay };
const keptDays = new Map<string, KeptDay>();

/** The next card of the learner's day, read once while the day holds (the front and the back show the same card). */
export const keptNextCard = (known: LearnerDay, read: () => Promise<NextCard | null>) =>
  dayMemo(known, NEXT_CARD, read);
const NEXT_CARD = "nextCard";

/**
 * What a grade may take from the learner's day kept for this data version instead of reading it (null: none is
 * kept): their scheduler, as the page it was given on showed it, and the card that page showed, if it was read (its
 * row version goes with it: the grade's write checks that the row is still the one read).
 */
export async function keptForGrade(
  owner: Owner,
  dataVersion: number,
): Promise<{ scheduler: FSRS; card: NextCard | null } | null> {
  const kept = keptDays.get(`${owner.userId}:${owner.language}`);
  if (!kept || kept.version !== dataVersion) return null;
  const card = kept.day.memo.get(NEXT_CARD) as Promise<NextCard | null> | undefined;
  return { scheduler: kept.day.scheduler, card: card ? await card.catch(() => null) : null };
}

/** Forgets a learner's kept days (their own write on this instance: the version moves too, this only frees memory). */
export function forgetLearnerDay(userId: string): void {
  for (const key of keptDays.keys()) if (key.startsWith(`${userId}:`)) keptDays.delete(key);
}

/** What a request knows of the learner for the day's memory: their data version as its session read it, and whether
 * it may use the memory (a GET: an action's write of this request comes after its session was read). */
export type DayMemory = { dataVersion: number; fresh: boolean };

/** The day's memory for a request of this learner (see DayMemory). */
export const dayMemory = (request: Request, user: { dataVersion: number }): DayMemory => ({
  dataVersion: user.dataVersion,
  fresh: request.method === "GET" || request.method === "HEAD",
});

async function readLearnerDay(db: Database, owner: Owner, memory: DayMemory | null): Promise<LearnerDay> {
  const key = `${owner.userId}:${owner.language}`;
  const kept = keptDays.get(key);
  const nowMs = Date.now();
  if (memory?.fresh && kept && kept.version === memory.dataVersion && nowMs < kept.validUntil) {
    keptDays.delete(key);
    keptDays.set(key, kept);
    // The same counts at this moment (nothing fell due since, the day has not ended): only the time is new.
    return { ...kept.day, now: new Date(nowMs) };
  }
  const now = new Date(nowMs);
  // The settings come with the day, whose bounds are those of the zone they named when last read (else the default).
  const read = await settingsDayAndQueue(db, owner, kept?.day.settings.timeZone ?? DEFAULT_TIME_ZONE, now);
  // Nothing falls due before the queue's next due time, and the limits hold until the day ends.
  const validUntil = Math.min(read.day.end.getTime(), read.queue.nextDue?.getTime() ?? Number.POSITIVE_INFINITY);
  const day: LearnerDay = { now, readAt: nowMs, validUntil, ...read, memo: new Map() };
  if (memory) {
    keptDays.delete(key);
    keptDays.set(key, { version: memory.dataVersion, validUntil, day });
    while (keptDays.size > KEPT_DAYS) keptDays.delete(keptDays.keys().next().value!);
  }
  return day;
}

/**
 * The learner's day for one request (`request` is its router context), read once however many of its loaders ask:
 * the header's review count and the review page share it, and from memory across requests while the learner's data
 * version is the one `memory` names (see keptDays). Loaders run after the request's action, so it is never read
 * before a write of the same request.
 */
export function learnerDayOf(
  request: object,
  db: Database,
  owner: Owner,
  memory: DayMemory | null = null,
): Promise<LearnerDay> {
  const found = perRequest.get(request);
  if (found && found.owner.userId === owner.userId && found.owner.language === owner.language) return found.day;
  const day = readLearnerDay(db, owner, memory);
  perRequest.set(request, { owner, day });
  return day;
}

export type DaySummary = {
  dueNow: number;
  dueToday: number;
  newLeft: number;
  reviewsLeft: number;
  /** Days in a row with reviews, up to today (the statistics page's streak). */
  streak: number;
  /** False until the learner or their browser names a zone (the page then sends the browser's). */
  timeZoneChosen: boolean;
};

/**
 * What the home pages show of the learner's day (`known`: the request's learnerDayOf), and when that changes without a
 * write: the end of the learner's day (limits start again, the streak moves). Due times are the term counts' to name.
 */
export async function daySummary(
  db: Database,
  owner: Owner,
  known: LearnerDay,
): Promise<{ summary: DaySummary; dayEnds: Date }> {
  const { settings, day, queue } = known;
  const streak = await dayMemo(known, "streak", () =>
    currentStreak(db, owner.userId, settings.timeZone ?? DEFAULT_TIME_ZONE, known.now),
  );
  const summary: DaySummary = {
    streak,
    dueNow: queue.dueNow,
    dueToday: queue.dueToday,
    newLeft: day.newLeft,
    reviewsLeft: day.reviewsLeft,
    timeZoneChosen: settings.timeZone !== null,
  };
  return { summary, dayEnds: day.end };
}

export type TodaysReviews = {
  /** Grades given today in this study language. */
  reviewed: number;
  /** Of those, the ones that were not "Again". */
  correct: number;
};

/**
 * Today's grades in one study language, the review page's progress and its summary at the end: one row of the day's
 * aggregates (drizzle/0027 counts every grade as it is given).
 */
export async function todaysReviews(db: Database, owner: Owner, day: Day): Promise<TodaysReviews> {
  const [row] = await db
    .select({ reviewed: learnerLanguageDays.graded, correct: learnerLanguageDays.passed })
    .from(learnerLanguageDays)
    .where(and(gradedOn(owner.userId, day.date), eq(learnerLanguageDays.language, owner.language)));
  return { reviewed: Number(row?.reviewed ?? 0), correct: Number(row?.correct ?? 0) };
}

/** Pauses longer than this between two grades count as this much study time. */
const LONGEST_PAUSE_MS = 5 * 60_000;

/**
 * The time spent on today's grades in one study language (ms): from the first grade to the last, pauses over five
 * minutes counted as five. Read from the day's reviews, so only for the summary shown once the day's cards are done.
 */
export async function timeSpentToday(db: Database, owner: Owner, day: Day): Promise<number> {
  // Summed in the database (one row back): each grade with the pause since the one before (none before the first).
  const grades = db
    .select({
      pause:
        sql<number>`least(${LONGEST_PAUSE_MS}, extract(epoch from ${reviewLogs.reviewedAt} - coalesce(lag(${reviewLogs.reviewedAt}) over (order by ${reviewLogs.reviewedAt}), ${reviewLogs.reviewedAt})) * 1000)`.as(
          "pause",
        ),
    })
    .from(reviewLogs)
    .where(
      and(
        // The learner's grades of the day (an index), then those of this study language (every review names it, 0027).
        eq(reviewLogs.userId, owner.userId),
        gte(reviewLogs.reviewedAt, day.start),
        lt(reviewLogs.reviewedAt, day.end),
        eq(reviewLogs.language, owner.language),
      ),
    )
    .as("grades");
  const [row] = await db.select({ ms: sql<number>`coalesce(sum(${grades.pause}), 0)::float8` }).from(grades);
  return Math.round(Number(row?.ms ?? 0));
}

/** When the learner's next card in this study language is due after `now`, whatever the day. */
export async function nextDueAfter(db: Database, owner: Owner, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(terms.due) })
    .from(terms)
    .where(and(owned(owner), gt(terms.due, now)));
  return row?.at ? new Date(row.at) : null;
}
