import { Rating, State, type Grade } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import {
  applyGrade,
  cardForStage,
  LEARNED_INTERVAL_DAYS,
  newCard,
  stageOf,
  type CardFields,
} from "../../app/learning/stage";

const start = new Date("2026-03-01T09:00:00Z");
const days = (n: number) => new Date(start.getTime() + n * 86_400_000);

describe("stage of an FSRS card (fixed clock)", () => {
  it("follows a learner's grades: tolearn → inprogress → review → needsreview → learned, and a lapse back", () => {
    const seen: string[] = [];
    let card: CardFields = newCard(start);
    seen.push(stageOf(card, start));
    card = applyGrade(card, Rating.Good, start); // first look: a learning step
    seen.push(stageOf(card, start));
    expect(card.state).toBe(State.Learning);
    card = applyGrade(card, Rating.Good, card.due); // graduates to review
    expect(card.state).toBe(State.Review);
    seen.push(stageOf(card, card.due < days(0.5) ? days(0.5) : new Date(card.due.getTime() - 1)));
    seen.push(stageOf(card, card.due)); // the review comes due
    let now = card.due;
    while (card.scheduledDays < LEARNED_INTERVAL_DAYS) {
      card = applyGrade(card, Rating.Easy, now);
      now = card.due;
    }
    seen.push(stageOf(card, new Date(card.due.getTime() - 1)));
    card = applyGrade(card, Rating.Again, card.due); // forgotten: relearning
    seen.push(stageOf(card, card.lastReview!));
    expect(card.state).toBe(State.Relearning);
    expect(card.lapses).toBe(1);
    expect(seen).toEqual(["tolearn", "inprogress", "inprogress", "needsreview", "learned", "inprogress"]);
  });

  it("gives the same schedule for the same grades at the same times (no fuzz)", () => {
    const run = () =>
      ([Rating.Good, Rating.Good, Rating.Hard, Rating.Easy] as Grade[]).reduce(
        (card, grade) => applyGrade(card, grade, card.due),
        newCard(start),
      );
    expect(run()).toEqual(run());
  });
});

describe("a manual stage change keeps the schedule consistent", () => {
  const reviewed = applyGrade(applyGrade(newCard(start), Rating.Good, start), Rating.Good, days(0.1));
  it.each(["tolearn", "inprogress", "needsreview", "learned"] as const)("to %s from every other stage", (target) => {
    for (const from of [
      newCard(start),
      applyGrade(newCard(start), Rating.Again, start),
      reviewed,
      cardForStage(reviewed, "learned", days(1)),
    ]) {
      const now = days(2);
      const card = cardForStage(from, target, now);
      expect(stageOf(card, now)).toBe(target);
    }
  });
  it("to learned schedules the next review at least 21 days ahead", () => {
    const card = cardForStage(newCard(start), "learned", start);
    expect(card.state).toBe(State.Review);
    expect(card.due.getTime() - start.getTime()).toBeGreaterThanOrEqual(LEARNED_INTERVAL_DAYS * 86_400_000);
  });
  it("to tolearn resets the schedule but not the review count, and records the moment of the reset", () => {
    expect(cardForStage(reviewed, "tolearn", days(3))).toEqual({ ...newCard(days(3)), reps: 2, lastReview: days(3) });
  });
  it("is not a review: reps and lapses stay as they were, whatever the move", () => {
    const lapsed = applyGrade(reviewed, Rating.Again, days(5));
    for (const from of [newCard(start), reviewed, lapsed]) {
      for (const target of ["tolearn", "inprogress", "needsreview", "learned"] as const) {
        const card = cardForStage(from, target, days(9));
        expect([card.reps, card.lapses], `${from.reps} → ${target}`).toEqual([from.reps, from.lapses]);
      }
    }
  });
});
