import { Rating } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { intervalLabel, nextIntervals } from "#app/learning/intervals.ts";
import { applyGrade, newCard } from "#app/learning/stage.ts";
import { LOCALES } from "#app/i18n/locales.ts";

const now = new Date("2026-03-01T09:00:00Z");
const MIN = 60_000;
const DAY = 86_400_000;

describe("next interval per grade", () => {
  it("previews what each grade would schedule, without changing the card", () => {
    const card = newCard(now);
    const intervals = nextIntervals(card, now);
    expect(intervals.again).toBeLessThan(intervals.hard);
    expect(intervals.hard).toBeLessThanOrEqual(intervals.good);
    expect(intervals.good).toBeLessThan(intervals.easy);
    for (const [grade, rating] of [
      ["again", Rating.Again],
      ["good", Rating.Good],
      ["easy", Rating.Easy],
    ] as const)
      expect(intervals[grade]).toBe(applyGrade(card, rating, now).due.getTime() - now.getTime());
    expect(card).toEqual(newCard(now));
  });
  it("grows for a card in review", () => {
    let card = applyGrade(newCard(now), Rating.Good, now);
    card = applyGrade(card, Rating.Good, card.due);
    const intervals = nextIntervals(card, card.due);
    expect(intervals.good).toBeGreaterThanOrEqual(DAY);
    expect(intervals.easy).toBeGreaterThan(intervals.good);
  });
});

describe("interval labels in every interface language", () => {
  const cases = [MIN, 10 * MIN, 3 * 60 * MIN, DAY, 3 * DAY, 61 * DAY, 400 * DAY];
  const expected: Record<string, string[]> = {
    en: ["1 min", "10 min", "3 hr", "1 day", "3 days", "2 mths", "1 yr"],
    de: ["1 Min.", "10 Min.", "3 Std.", "1 Tg.", "3 Tg.", "2 Mon.", "1 J"],
    es: ["1 min", "10 min", "3 h", "1 d", "3 d", "2 m.", "1 a"],
    fr: ["1 min", "10 min", "3 h", "1 j", "3 j", "2 m.", "1 an"],
    tr: ["1 dk.", "10 dk.", "3 sa.", "1 gün", "3 gün", "2 ay", "1 yıl"],
    uk: ["1 хв", "10 хв", "3 год", "1 дн.", "3 дн.", "2 міс.", "1 р."],
    zh: ["1分钟", "10分钟", "3小时", "1天", "3天", "2个月", "1年"],
  };
  it.each([...LOCALES])("%s", (locale) => {
    // Spaces in CLDR's units may be no-break spaces: compared as plain spaces.
    const labels = cases.map((ms) => intervalLabel(ms, locale).replace(/\s/g, " "));
    expect(labels).toEqual(expected[locale]);
  });
  it("never says zero: a card due at once shows 1 minute", () => {
    expect(intervalLabel(0, "en")).toBe("1 min");
  });
});
