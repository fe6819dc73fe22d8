import type { FSRS } from "ts-fsrs";
import { GRADES, scheduler, toCard, type CardFields, type GradeName } from "./stage";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long until the card comes back after each grade given now (FSRS-6, the same scheduler as the review). */
export function nextIntervals(fields: CardFields, now: Date, by: FSRS = scheduler): Record<GradeName, number> {
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
  return unitFormat(locale, unit).format(value);
}

/** One formatter per locale and unit (building one costs more than formatting a hundred numbers). */
const unitFormats = new Map<string, Intl.NumberFormat>();
function unitFormat(locale: string, unit: string): Intl.NumberFormat {
  const key = `${locale}\n${unit}`;
  let format = unitFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short" });
    // Interface locales times five units; a bound all the same for any locale string a caller passes.
    if (unitFormats.size >= 256) unitFormats.clear();
    unitFormats.set(key, format);
  }
  return format;
}
