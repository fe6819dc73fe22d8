import type { FSRS } from "ts-fsrs";
import { GRADES, scheduler, toCard, type GradeName, type SeededCard } from "./stage";
import { memo } from "../util/memo";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long until the card comes back after each grade given now (FSRS-6, the same scheduler as the review). */
export function nextIntervals(fields: SeededCard, now: Date, by: FSRS = scheduler): Record<GradeName, number> {
  const preview = by.repeat(toCard(fields), now);
  const out = {} as Record<GradeName, number>;
  for (const [name, grade] of Object.entries(GRADES) as [GradeName, (typeof GRADES)[GradeName]][])
    out[name] = Math.max(0, preview[grade].card.due.getTime() - now.getTime());
  return out;
}

/**
 * An interval as one number with a unit, the way spaced-repetition tools show it ("10 min", "3 h", "1 day", "2 mths"),
 * in the interface language through `Intl.NumberFormat`'s unit style: minutes under an hour, hours under a day, days
 * under a month, months under a year, then years; whole numbers, at least 1.
 */
export function intervalLabel(ms: number, locale: string): string {
  const [unit, size] =
    ms < HOUR
      ? (["minute", MINUTE] as const)
      : ms < DAY
        ? (["hour", HOUR] as const)
        : ms < 30 * DAY
          ? (["day", DAY] as const)
          : ms < 365 * DAY
            ? (["month", 30 * DAY] as const)
            : (["year", 365 * DAY] as const);
  const value = Math.max(1, Math.round(ms / size));
  return unitFormat(`${locale}\n${unit}`).format(value);
}

/** One formatter per locale and unit, by `locale\nunit` (building one costs more than formatting a hundred numbers). */
const unitFormat = memo(256, (key) => {
  const [locale, unit] = key.split("\n") as [string, string];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" });
});
