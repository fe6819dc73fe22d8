import { createEmptyCard, fsrs, generatorParameters, Rating, State, type Card, type Grade } from "ts-fsrs";
import type { Stage } from "./vocabulary";

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

export const scheduler = fsrs(generatorParameters({ enable_fuzz: false, enable_short_term: true }));

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

/** The FSRS card of a term's stored fields. */
export const toCard = (fields: CardFields): Card => ({
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

/** FSRS-6 scheduling of one grade. */
export function applyGrade(fields: CardFields, grade: Grade, now: Date): CardFields {
  return fromCard(scheduler.next(toCard(fields), now, grade).card);
}

/**
 * A manual stage change moves the card to a schedule that has that stage; it is not a review (ADR 035): the review
 * count and lapses stay as they were and nothing is logged. The memory state comes from what FSRS would make of the
 * card: tolearn resets the schedule; inprogress is the schedule after Again (a learning or relearning step);
 * needsreview brings a review card due now; learned is the schedule after Easy with the next review at least 21 days
 * ahead. `lastReview` becomes the moment the new schedule starts from.
 */
export function cardForStage(fields: CardFields, stage: Stage, now: Date): CardFields {
  if (stageOf(fields, now) === stage) return fields;
  const keep = { reps: fields.reps, lapses: fields.lapses };
  switch (stage) {
    case "tolearn":
      return { ...newCard(now), ...keep };
    case "inprogress":
      return { ...applyGrade(fields, Rating.Again, now), ...keep };
    case "needsreview": {
      let card = fields;
      for (let i = 0; i < 5 && card.state !== State.Review; i++) card = applyGrade(card, Rating.Good, now);
      return { ...card, ...keep, state: State.Review, due: now };
    }
    case "learned": {
      const graded = applyGrade(fields, Rating.Easy, now);
      const days = Math.max(graded.scheduledDays, LEARNED_INTERVAL_DAYS);
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
