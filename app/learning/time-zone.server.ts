import type { Database } from "../db/db.server";
import { readSettings } from "./settings.server";
import { DEFAULT_TIME_ZONE } from "./time-zone";

/** The IANA zone the learner's days are counted in: their choice, else their browser's once sent, else UTC. */
export async function learnerTimeZone(db: Database, userId: string): Promise<string> {
  return (await readSettings(db, userId)).timeZone ?? DEFAULT_TIME_ZONE;
}
