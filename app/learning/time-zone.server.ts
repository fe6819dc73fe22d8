import type { Database } from "../db/db.server";
import { safeTimeZone } from "../progress/days";
import { readSettings } from "./settings.server";
import { DEFAULT_TIME_ZONE } from "./time-zone";

/** The IANA zone the learner's days are counted in: their choice, else their browser's once sent, else UTC. */
export async function learnerTimeZone(db: Database, userId: string): Promise<string> {
  return (await readSettings(db, userId)).timeZone ?? DEFAULT_TIME_ZONE;
}

const momentFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as the learner reads it: date, time and the zone's short name in their time zone and language, e.g.
 * "Nov 23, 2026, 1:05 PM GMT+1". Formatted on the server, so the page hydrates with the text it was drawn with.
 */
export function momentFormatter(locale: string, timeZone: string): (moment: Date) => string {
  const zone = safeTimeZone(timeZone);
  const key = `${locale} ${zone}`;
  let format = momentFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    });
    momentFormats.set(key, format);
  }
  return (moment) => format.format(moment);
}
