/**
 * FSRS parameters fitted to a learner (ADR 062): on a history drawn from known parameters the fitted ones predict it
 * better than the defaults; fitting 10,000 reviews runs in a worker thread while the event loop keeps turning; the job
 * picks learners at the optimizer's minimum, stores parameters with the date and the reviews used, and grading then
 * schedules with them and with the learner's desired retention. On PGlite and PostgreSQL, with the real native binding.
 */
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEmptyCard, Rating } from "ts-fsrs";
import type { Database } from "../../app/db/db.server";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import {
  fitDueLearners,
  fitInWorker,
  fitLearner,
  MAX_FIT_REVIEWS,
  MAX_HISTORY_REVIEWS,
  learnerScheduler,
  learnersToFit,
  readFit,
  reviewHistories,
  FSRS_NATIVE_BUILD,
} from "../../app/learning/fsrs-fit.server";
import { fitHistories, OPTIMIZER_MIN_ITEMS, type Binding } from "../../app/learning/fsrs-fit.worker";
import { TaskDeadline } from "../../app/server/worker-task.server";
import { DEFAULT_SETTINGS, saveSettings } from "../../app/learning/settings.server";
import { applyGrade, scheduler, schedulerFor } from "../../app/learning/stage";
import { createTerm, findTerm, gradeTerm } from "../../app/learning/terms.server";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { asHistories, syntheticHistory, TRUE_PARAMETERS, type SyntheticReview } from "../support/synthetic-reviews.ts";
import { tempDir } from "../support/temp.ts";

const MIGRATIONS = `${PROJECT_ROOT}/drizzle`;
const DAY = 86_400_000;

/**
 * What `work` cost this thread's event loop: the most CPU time this thread spent between two turns (a 1 ms timer marks
 * them), so that waiting for a core on a busy machine does not count, and the longest wall-clock gap for reference.
 */
async function loopDuring<T>(work: () => Promise<T>): Promise<{ result: T; heldMs: number; gapMs: number }> {
  let heldMs = 0;
  let gapMs = 0;
  let lastWall = performance.now();
  let lastCpu = process.threadCpuUsage();
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = process.threadCpuUsage(lastCpu);
    heldMs = Math.max(heldMs, (cpu.user + cpu.system) / 1000);
    gapMs = Math.max(gapMs, wall - lastWall);
    lastWall = wall;
    lastCpu = process.threadCpuUsage();
  }, 1);
  try {
    const result = await work();
    return { result, heldMs, gapMs };
  } finally {
    clearInterval(timer);
  }
}

describe("fitting FSRS parameters to a learner's history", () => {
  it("fits 10,000 reviews drawn from known parameters better than the defaults, off the event loop", async () => {
    const terms = syntheticHistory({ total: 10_000 });
    const histories = asHistories(terms);
    expect(histories.reduce((n, h) => n + h.length / 2, 0)).toBe(10_000);
    const started = performance.now();
    const { result: outcome, heldMs, gapMs } = await loopDuring(() => fitInWorker(histories));
    const wallMs = performance.now() - started;
    if (!outcome.fitted) throw new Error("not fitted");
    // The same fit on this thread, for contrast: what the worker spares the server's loop.
    const binding = createRequire(import.meta.url)(FSRS_NATIVE_BUILD) as Binding;
    const here = await loopDuring(() => fitHistories(binding, { histories, minItems: OPTIMIZER_MIN_ITEMS }));
    console.info(
      `fitting 10,000 reviews (${outcome.items} items): ${Math.round(wallMs)} ms in all, ${Math.round(outcome.ms)} ms ` +
        `in the worker; longest turn of the event loop meanwhile ${heldMs.toFixed(1)} ms of CPU ` +
        `(${gapMs.toFixed(1)} ms wall); on the server's own thread it would hold a turn ${here.heldMs.toFixed(0)} ms; ` +
        `log loss ${outcome.defaults.logLoss.toFixed(4)} → ${outcome.fit.logLoss.toFixed(4)}, RMSE ` +
        `${outcome.defaults.rmse.toFixed(4)} → ${outcome.fit.rmse.toFixed(4)}`,
    );
    expect(outcome.parameters).toHaveLength(21);
    expect(outcome.fit.logLoss).toBeLessThan(outcome.defaults.logLoss);
    expect(outcome.fit.rmse).toBeLessThan(outcome.defaults.rmse);
    // The fitted parameters moved towards the learner's: first-day stabilities far below the defaults (0.21, 1.29).
    expect(outcome.parameters[0]).toBeLessThan(0.5);
    expect(outcome.parameters[1]).toBeLessThan(1.2);
    expect(TRUE_PARAMETERS[1]).toBe(0.4);
    // The server's thread never waits for the fit: a turn stays far under what a request may take (LOOP_BOUND_MS),
    // and far under what the fit holds on the thread that runs it.
    expect(heldMs).toBeLessThan(20);
    expect(here.heldMs).toBeGreaterThan(heldMs);
    expect(wallMs).toBeLessThan(30_000);
  }, 60_000);

  it("does not fit below the optimizer's minimum of trainable items", async () => {
    const histories = asHistories(syntheticHistory({ total: 90, perTerm: 3, seed: 7 }));
    const outcome = await fitInWorker(histories);
    expect(outcome.fitted).toBe(false);
    expect(outcome.items).toBeLessThan(OPTIMIZER_MIN_ITEMS);
  });
});

const DATABASES: [string, () => Promise<DatabaseHandle & { cleanup?: () => void }>][] = [
  [
    "PGlite",
    async () => {
      const dataDir = tempDir("fsrs-fit");
      const handle = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS });
      return { ...handle, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const databaseUrl = await createDatabase(inject("pgUrl"), `fsrs_fit_${process.pid}_${Date.now()}`);
      return openDatabase({ databaseUrl, dataDir: "", migrationsFolder: MIGRATIONS });
    },
  ],
];

describe.each(DATABASES)("the fitting job and the learner's scheduler, on %s", (_name, open) => {
  let handle: DatabaseHandle & { cleanup?: () => void };
  let db: Database;
  let learners = 0;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  });
  afterAll(async () => {
    await handle?.close();
    handle?.cleanup?.();
  });

  async function learnerWith(terms: SyntheticReview[][], now = new Date()) {
    const { rows } = (await db.execute(
      sql`insert into users (email) values (${`fit${learners++}@example.test`}) returning id`,
    )) as unknown as { rows: { id: string }[] };
    const userId = rows[0]!.id;
    const lastDay = Math.max(0, ...terms.flatMap((reviews) => reviews.map((r) => r.day)));
    const at = (day: number) => new Date(now.getTime() - (lastDay - day + 1) * DAY + 12 * 3_600_000).toISOString();
    const termRows = terms.map((_, i) => ({
      user_id: userId,
      language: "de",
      text: `Wort${i}`,
      part_of_speech: "noun",
    }));
    const { rows: ids } = (await db.execute(sql`insert into terms (user_id, language, text, part_of_speech)
      select * from jsonb_to_recordset(${JSON.stringify(termRows)}::jsonb)
        as x(user_id uuid, language text, text text, part_of_speech text)
      returning id, text`)) as unknown as { rows: { id: string; text: string }[] };
    const idOf = new Map(ids.map((row) => [row.text, row.id]));
    const logs = terms.flatMap((reviews, i) =>
      reviews.map((r, j) => ({
        term_id: idOf.get(`Wort${i}`),
        user_id: userId,
        rating: r.rating,
        state: r.state,
        // A minute apart within a day, in the order given.
        reviewed_at: new Date(Date.parse(at(r.day)) + j * 60_000).toISOString(),
        scheduled_days: 1,
      })),
    );
    await db.execute(sql`insert into review_logs (term_id, user_id, rating, state, reviewed_at, scheduled_days)
      select * from jsonb_to_recordset(${JSON.stringify(logs)}::jsonb)
        as x(term_id uuid, user_id uuid, rating smallint, state smallint, reviewed_at timestamptz, scheduled_days int)`);
    return userId;
  }

  it("reads a term's history from its last new review, in the learner's days", async () => {
    const userId = await learnerWith([
      [
        { rating: 3, state: 1, day: 0 }, // no start known: left out
        { rating: 3, state: 0, day: 1 },
        { rating: 1, state: 2, day: 4 },
        { rating: 3, state: 3, day: 4 },
        { rating: 3, state: 0, day: 10 }, // set back to "to learn": starts again
        { rating: 4, state: 1, day: 12 },
      ],
    ]);
    const { histories, reviews } = await reviewHistories(db, userId);
    expect(reviews).toBe(6);
    expect(histories).toEqual([
      [3, 0, 1, 3, 3, 0], // Good, Again three days later, Good the same day
      [3, 0, 4, 2],
    ]);
  });

  it("reads at most MAX_HISTORY_REVIEWS of one term's history and MAX_FIT_REVIEWS in all, counting every review", async () => {
    const long = Array.from({ length: 15_000 }, (_, i) => ({
      rating: i % 7 === 3 ? 1 : 3,
      state: i === 0 ? 0 : 2,
      day: i,
    }));
    const userId = await learnerWith([long, ...syntheticHistory({ total: 200, seed: 5 })]);
    const { histories, reviews } = await reviewHistories(db, userId);
    expect(reviews).toBe(15_200);
    expect(Math.max(...histories.map((history) => history.length / 2))).toBe(MAX_HISTORY_REVIEWS);
    // The fit of that log is small: its items are the prefixes of 64 reviews, not of 15,000.
    const outcome = await fitLearner(db, userId);
    expect(outcome.items).toBeLessThan(1_000);
    expect(MAX_FIT_REVIEWS).toBeGreaterThanOrEqual(100_000);
  }, 60_000);

  it("records a fit that failed, so the next round does not try it again until the log has grown", async () => {
    const userId = await learnerWith(syntheticHistory({ total: 3_000, seed: 13 }));
    expect(await learnersToFit(db, 100)).toContain(userId);
    // A deadline no fit meets: the worker is ended, the failure recorded with the reviews it read.
    await expect(fitLearner(db, userId, new Date(), 1)).rejects.toBeInstanceOf(TaskDeadline);
    expect(await readFit(db, userId)).toMatchObject({ reviews: 3_000, parameters: null });
    expect(await learnersToFit(db, 100)).not.toContain(userId);
  }, 60_000);

  it("fits the learners at the minimum, stores parameters with date and reviews, and schedules with them", async () => {
    const few = await learnerWith(syntheticHistory({ total: 40, seed: 3 }));
    const many = await learnerWith(syntheticHistory({ total: 3_000, seed: 11 }));
    const due = await learnersToFit(db, 100);
    expect(due).toContain(many);
    expect(due).not.toContain(few);
    const before = Date.now();
    expect(await fitDueLearners(db)).toBeGreaterThanOrEqual(1);
    const fit = await readFit(db, many);
    expect(fit?.parameters).toHaveLength(21);
    expect(fit?.reviews).toBe(3_000);
    expect(fit!.fittedAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(fit!.fittedLogLoss!).toBeLessThan(fit!.defaultLogLoss!);
    expect(await readFit(db, few)).toBeNull();
    // Fitted once: not picked again until the log grows.
    expect(await learnersToFit(db, 100)).not.toContain(many);

    // The learner's grades now follow the fitted parameters (and a chosen retention), not the defaults.
    const owner = { userId: many, language: "de" };
    const fields = { text: "Haus", meaning: "house", partOfSpeech: "noun" as const, notes: "" };
    const term = await createTerm(db, owner, fields);
    const now = new Date();
    const graded = await gradeTerm(db, many, term.id, "good", now);
    if (!graded || graded === "stale") throw new Error("not graded");
    const fitted = schedulerFor(fit!.parameters, 0.9);
    const card = (await findTerm(db, many, term.id))!;
    const expected = applyGrade({ ...card, ...createEmptyCardFields(now) }, Rating.Good, now, fitted);
    const byDefault = applyGrade({ ...card, ...createEmptyCardFields(now) }, Rating.Good, now, scheduler);
    expect(graded.stability).toBeCloseTo(expected.stability, 6);
    expect(graded.stability).not.toBeCloseTo(byDefault.stability, 3);

    await saveSettings(db, many, { ...DEFAULT_SETTINGS, desiredRetention: 0.97 });
    const strict = await learnerScheduler(db, many);
    expect(strict.parameters.request_retention).toBe(0.97);
    expect(strict.parameters.w[0]).toBeCloseTo(fit!.parameters![0]!, 4);
    // A higher retention asks for earlier reviews: a shorter first interval after Easy.
    const empty = { ...card, ...createEmptyCardFields(now) };
    const relaxed = applyGrade(empty, Rating.Easy, now, await learnerScheduler(db, many));
    await saveSettings(db, many, { ...DEFAULT_SETTINGS, desiredRetention: 0.8 });
    const loose = applyGrade(empty, Rating.Easy, now, await learnerScheduler(db, many));
    expect(relaxed.scheduledDays).toBeLessThan(loose.scheduledDays);
  }, 60_000);
});

/** A new card's fields at `now`, in the shape of a term row. */
function createEmptyCardFields(now: Date) {
  const card = createEmptyCard(now);
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: null,
  };
}
