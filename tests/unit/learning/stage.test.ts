import { Rating, State, type Grade } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { nextIntervals } from "#app/learning/intervals.ts";
import {
  applyGrade,
  GRADES,
  cardForStage,
  LEARNED_INTERVAL_DAYS,
  newCard,
  stageOf,
  type CardFields,
} from "#app/learning/stage.ts";

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

  it("gives one card the same schedule for the same grades at the same times (its fuzz is seeded by its id)", () => {
    const run = () =>
      ([Rating.Good, Rating.Good, Rating.Hard, Rating.Easy] as Grade[]).reduce(
        (card, grade) => applyGrade({ ...card, id: "c0ffee00-0000-4000-8000-000000000001" }, grade, card.due),
        newCard(start),
      );
    expect(run()).toEqual(run());
  });
});

describe("interval fuzz (ADR 089)", () => {
  const ids = Array.from({ length: 50 }, (_, i) => `c0ffee00-0000-4000-8000-${String(i).padStart(12, "0")}`);
  /** A card in review with a month of stability, due now: what a batch of words marked learned together becomes. */
  const mature = (id: string): CardFields & { id: string } => ({
    ...cardForStage(newCard(days(-40)), "learned", days(-30)),
    id,
  });

  it("spreads 50 identical cards graded Good together over several days", () => {
    const dueDays = new Set(
      ids.map((id) => Math.floor(applyGrade(mature(id), Rating.Good, days(0)).due.getTime() / 86_400_000)),
    );
    expect(dueDays.size).toBeGreaterThanOrEqual(5);
  });

  it("spreads 50 new cards graded Easy together over more than one day", () => {
    const dueDays = new Set(
      ids.map((id) => Math.floor(applyGrade({ ...newCard(start), id }, Rating.Easy, start).due.getTime() / 86_400_000)),
    );
    expect(dueDays.size).toBeGreaterThanOrEqual(3);
  });

  it("spreads 50 words moved to learned together over several days", () => {
    const dueDays = new Set(
      ids.map((id) => Math.floor(cardForStage({ ...newCard(start), id }, "learned", start).due.getTime() / 86_400_000)),
    );
    expect(dueDays.size).toBeGreaterThanOrEqual(3);
  });

  it("previews for each grade exactly the interval the grade then gives", () => {
    for (const id of ids.slice(0, 10)) {
      const card = mature(id);
      const preview = nextIntervals(card, days(0));
      for (const [name, grade] of Object.entries(GRADES))
        expect(applyGrade(card, grade, days(0)).due.getTime() - days(0).getTime()).toBe(
          preview[name as keyof typeof GRADES],
        );
    }
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
