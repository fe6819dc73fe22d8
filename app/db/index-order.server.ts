import { sql } from "drizzle-orm";
import type { Database } from "./open.server";

/**
 * Runs a paged read of many rows with sorting ruled out, so the rows come in the order of the index that matches the
 * statement's `order by`. PGlite keeps no planner statistics (no autovacuum, no ANALYZE): it takes a learner's tens of
 * thousands of terms for a handful of rows, reads them along another index of the same leading columns and sorts them
 * all for every page, tens of milliseconds of the event loop per page. PostgreSQL with statistics picks the index by
 * itself; ruling out the sort there changes nothing. Inside a transaction this is a savepoint, and the setting is put
 * back before it ends.
 */
export function inIndexOrder<T>(db: Database, read: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('enable_sort', 'off', true)`);
    const result = await read(tx);
    await tx.execute(sql`select set_config('enable_sort', 'on', true)`);
    return result;
  });
}
