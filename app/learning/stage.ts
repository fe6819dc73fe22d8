import {
  createEmptyCard,
  fsrs,
  GenSeedStrategyWithCardId,
  generatorParameters,
  get_fuzz_range,
  Rating,
  State,
  StrategyMode,
  type Card,
  type FSRS,
  type FSRSParameters,
  type Grade,
} from "ts-fsrs";
import type { Stage } from "./vocabulary";
import { RETENTION } from "./retention.ts";

export { RETENTION };

/** A review interval from which a term counts as learned (ADR 005). */
export const LEARNED_INTERVAL_DAYS = 21;

export type CardFields = {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: number;
  lastReview: Date | null;
};

/**
 * A card's own key for the interval fuzz: its term's id, or before the term has one (an import's replayed history)
 * any text unique to it. With it, cards graded together spread over nearby days, the same way each time a card is
 * previewed or graded (ADR 089).
 */
export type SeededCard = CardFields & { id?: string };

/** FSRS-6 with interval fuzz seeded per card (ts-fsrs's default seed gives identical cards identical fuzz). */
const seededScheduler = (parameters: Partial<FSRSParameters>): FSRS =>
  fsrs(generatorParameters({ enable_fuzz: true, enable_short_term: true, ...parameters })).useStrategy(
    StrategyMode.SEED,
    GenSeedStrategyWithCardId(CARD_ID),
  );

/** The field of a ts-fsrs card that carries its seed key. */
const CARD_ID = "card_id";

/** FSRS-6 with its default parameters and a desired retention of 0.90: every learner's until one is fitted (ADR 062). */
export const scheduler = seededScheduler({});

const schedulers = new Map<string, FSRS>();
/** Schedulers kept for reuse; beyond this many the map starts again (building one is cheap). */
const MAX_SCHEDULERS = 1_000;

/**
 * The scheduler of a learner: FSRS-6 with their fitted parameters (or the defaults) aiming at their desired retention.
 * Parameters ts-fsrs would not accept (a wrong count, a value outside its bounds) fall back to the defaults.
 */
export function schedulerFor(parameters: readonly number[] | null, retention: number = RETENTION.default): FSRS {
  const w = parameters && parameters.length === 21 && parameters.every(Number.isFinite) ? parameters : null;
  const r = Math.min(
    RETENTION.max,
    Math.max(RETENTION.min, Number.isFinite(retention) ? retention : RETENTION.default),
  );
  if (!w && r === RETENTION.default) return scheduler;
  const key = `${r}|${w?.join(",") ?? ""}`;
  let found = schedulers.get(key);
  if (!found) {
    if (schedulers.size >= MAX_SCHEDULERS) schedulers.clear();
    found = seededScheduler({ request_retention: r, ...(w ? { w: [...w] } : {}) });
    schedulers.set(key, found);
  }
  return found;
}

export const GRADES = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy } as const;
export type GradeName = keyof typeof GRADES;

/**
 * The stage of a card at a moment: never reviewed → tolearn; learning or relearning → inprogress; in review and due →
 * needsreview; in review with an interval of at least 21 days → learned; in review with a shorter one → inprogress.
 */
export function stageOf(card: Pick<CardFields, "state" | "due" | "scheduledDays">, now: Date): Stage {
  if (card.state === State.New) return "tolearn";
  if (card.state === State.Learning || card.state === State.Relearning) return "inprogress";
  if (card.due.getTime() <= now.getTime()) return "needsreview";
  return card.scheduledDays >= LEARNED_INTERVAL_DAYS ? "learned" : "inprogress";
}

/** The FSRS card of a term's stored fields, with its seed key when it has one. */
export const toCard = (fields: SeededCard, seedKey: string | undefined = fields.id): Card => ({
  due: fields.due,
  stability: fields.stability,
  difficulty: fields.difficulty,
  elapsed_days: fields.elapsedDays,
  scheduled_days: fields.scheduledDays,
  learning_steps: fields.learningSteps,
  reps: fields.reps,
  lapses: fields.lapses,
  state: fields.state as State,
  last_review: fields.lastReview ?? undefined,
  ...(seedKey ? { [CARD_ID]: seedKey } : {}),
});

const fromCard = (card: Card): CardFields => ({
  due: card.due,
  stability: card.stability,
  difficulty: card.difficulty,
  elapsedDays: card.elapsed_days,
  scheduledDays: card.scheduled_days,
  learningSteps: card.learning_steps,
  reps: card.reps,
  lapses: card.lapses,
  state: card.state,
  lastReview: card.last_review ?? null,
});

export function newCard(now: Date): CardFields {
  return fromCard(createEmptyCard(now));
}

/** The scheduler refused a card or a grade (a memory state out of its range, a moment before the last review). */
export class SchedulerError extends Error {
  override name = "SchedulerError";
}

/**
 * FSRS-6 scheduling of one grade (by the learner's scheduler, or the default one), fuzzed by the card's seed key. What
 * ts-fsrs refuses throws a SchedulerError, so callers can tell it from a failing database.
 */
export function applyGrade(
  fields: SeededCard,
  grade: Grade,
  now: Date,
  by: FSRS = scheduler,
  seedKey: string | undefined = fields.id,
): CardFields {
  try {
    return fromCard(by.next(toCard(fields, seedKey), now, grade).card);
  } catch (error) {
    throw new SchedulerError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * The shortest interval a card moved to learned gets: 21 days, and with a seed key a day or a few more, so that
 * words moved together do not all come back at one instant (FSRS's own fuzz range for 21 days, taken upwards).
 */
function learnedFloor(seedKey: string | undefined): number {
  if (!seedKey) return LEARNED_INTERVAL_DAYS;
  const { max_ivl } = get_fuzz_range(LEARNED_INTERVAL_DAYS, 0, Number.MAX_SAFE_INTEGER);
  let hash = 2_166_136_261;
  for (let i = 0; i < seedKey.length; i++) hash = Math.imul(hash ^ seedKey.charCodeAt(i), 16_777_619);
  return LEARNED_INTERVAL_DAYS + ((hash >>> 0) % (max_ivl - LEARNED_INTERVAL_DAYS + 1));
}

/**
 * A manual stage change moves the card to a schedule that has that stage; it is not a review (ADR 035): the review
 * count and lapses stay as they were and nothing is logged. The memory state comes from what FSRS would make of the
 * card: tolearn resets the schedule; inprogress is the schedule after Again (a learning or relearning step);
 * needsreview brings a review card due now; learned is the schedule after Easy with the next review at least 21 days
 * ahead. `lastReview` becomes the moment the new schedule starts from.
 */
export function cardForStage(fields: SeededCard, stage: Stage, now: Date, by: FSRS = scheduler): CardFields {
  if (stageOf(fields, now) === stage) return fields;
  const seedKey = fields.id;
  const keep = { reps: fields.reps, lapses: fields.lapses };
  switch (stage) {
    case "tolearn":
      // FSRS reads no last review of a new card; it records the moment of the reset (ADR 095).
      return { ...newCard(now), ...keep, lastReview: now };
    case "inprogress":
      return { ...applyGrade(fields, Rating.Again, now, by, seedKey), ...keep };
    case "needsreview": {
      let card = fields;
      for (let i = 0; i < 5 && card.state !== State.Review; i++) card = applyGrade(card, Rating.Good, now, by, seedKey);
      return { ...card, ...keep, state: State.Review, due: now };
    }
    case "learned": {
      const graded = applyGrade(fields, Rating.Easy, now, by, seedKey);
      const days = Math.max(graded.scheduledDays, learnedFloor(seedKey));
      return {
        ...graded,
        ...keep,
        state: State.Review,
        stability: Math.max(graded.stability, days),
        scheduledDays: days,
        due: new Date(now.getTime() + days * 86_400_000),
      };
    }
  }
}
