import type { Database } from "../db/db.server";

/** The IANA time zone the learner's days are counted in. */
export async function learnerTimeZone(_db: Database, _userId: string): Promise<string> {
  return "UTC";
}
