/** Calendar days ("YYYY-MM-DD") in a time zone, and the arithmetic the charts need on them. */
import { canonicalTimeZone } from "../learning/time-zone";

const QUARTER_HOUR = 15 * 60 * 1000;

/**
 * The local day of instants in one time zone. Every zone's midnight falls on a quarter hour, so the answer is cached
 * per quarter hour: thousands of review times cost a few Intl calls.
 */
export function dayFormatter(timeZone: string): (instant: Date) => string {
  const format = dayFormatOf(timeZone);
  const cache = new Map<number, string>();
  return (instant) => {
    const slot = Math.floor(instant.getTime() / QUARTER_HOUR);
    let day = cache.get(slot);
    if (day === undefined) {
      day = format.format(new Date(slot * QUARTER_HOUR));
      cache.set(slot, day);
    }
    return day;
  };
}

/** The day `offset` days after `day` (calendar arithmetic, independent of any zone). */
export function addDays(day: string, offset: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

/** `count` consecutive days ending with `last`, oldest first. */
export function daysUntil(last: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));
}

/** The Monday starting the ISO week of a day. */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * Building an Intl.DateTimeFormat costs more than formatting with it, and the zones are a few hundred names: each
 * zone's formatter and answer are made once per process.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormatOf(spelling: string): Intl.DateTimeFormat {
  const timeZone = safeTimeZone(spelling);
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** A valid IANA zone in its canonical spelling, else UTC (a stored zone could have been removed from the zone data). */
export function safeTimeZone(timeZone: string): string {
  return canonicalTimeZone(timeZone) ?? "UTC";
}
