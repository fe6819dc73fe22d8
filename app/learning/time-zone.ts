/** Time zones and calendar days in them, with Intl only (ICU's zone data, daylight saving included). */
import { currentZoneName } from "./renamed-zones";

export const DEFAULT_TIME_ZONE = "UTC";

/**
 * Zone names as Intl spells them, by their lower-case spelling. Intl takes any letter case ("europe/BERLIN"), so
 * everything keyed by a zone is keyed by this one spelling: the map holds at most the few hundred names Intl knows
 * (anything Intl refuses is never stored).
 */
const canonicalZones = new Map<string, string>();

/**
 * The zone's canonical spelling ("europe/berlin" → "Europe/Berlin"), IANA's current name where Intl gives an old one
 * ("Europe/Kiev" → "Europe/Kyiv"), or null when Intl does not know it.
 */
export function canonicalTimeZone(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return null;
  const lower = value.toLowerCase();
  let zone = canonicalZones.get(lower);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
    } catch {
      return null;
    }
    if (!zone) return null;
    zone = currentZoneName(zone);
    canonicalZones.set(lower, zone);
  }
  return zone;
}

/** Whether Intl knows the zone (an IANA name such as "Europe/Berlin", or "UTC"), in any letter case. */
export function isTimeZone(value: unknown): value is string {
  return canonicalTimeZone(value) !== null;
}

/** The zones a learner can pick without JavaScript; `current` stays in the list even when ICU names it otherwise. */
const byName = (a: string, b: string) => (a === "UTC" ? -1 : b === "UTC" ? 1 : a.localeCompare(b));
/** The zones this runtime knows, sorted once: they do not change while it runs. */
let knownZones: string[] | null = null;

export function timeZoneOptions(current: string | null): string[] {
  knownZones ??= [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone").map(currentZoneName)])].sort(byName);
  if (!current || knownZones.includes(current)) return knownZones;
  return [...knownZones, current].sort(byName);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(spelling: string): Intl.DateTimeFormat {
  const timeZone = canonicalTimeZone(spelling) ?? DEFAULT_TIME_ZONE;
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  );
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
}

/** The first instant of a local date: its midnight, or where a clock change skips midnight, the moment after the jump. */
function startOfLocalDate(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  const first = wall - offsetAt(wall, timeZone);
  // The offset at the first guess may differ from the one at midnight (a daylight-saving change in between).
  const second = wall - offsetAt(first, timeZone);
  const onThatDay = [first, second].filter((instant) => {
    const w = wallClock(instant, timeZone);
    return w.year === year && w.month === month && w.day === day;
  });
  return new Date(onThatDay.length > 0 ? Math.min(...onThatDay) : Math.max(first, second));
}

/**
 * The last day found per zone (at most one entry per zone the runtime knows): days partition time, so a day that
 * contains `now` is the day of `now`, and most requests of a day are answered without the Intl calls.
 */
const lastDays = new Map<string, { start: Date; end: Date; date: string }>();

/** The learner's calendar day around `now` in their zone: [start, end), and its date (`YYYY-MM-DD`). */
export function dayBounds(now: Date, timeZone: string): { start: Date; end: Date; date: string } {
  const at = now.getTime();
  const last = lastDays.get(timeZone);
  if (last && last.start.getTime() <= at && at < last.end.getTime())
    return { start: new Date(last.start), end: new Date(last.end), date: last.date };
  const w = wallClock(at, timeZone);
  const start = startOfLocalDate(w.year, w.month, w.day, timeZone);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  const end = startOfLocalDate(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
  const date = `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
  if (lastDays.size < 1_000 || lastDays.has(timeZone)) lastDays.set(timeZone, { start, end, date });
  return { start: new Date(start), end: new Date(end), date };
}
