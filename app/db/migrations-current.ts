// Relative imports carry `.ts` (see open.server.ts); plain `node` runs this file inside the embedded database's thread.
import { readFileSync } from "node:fs";
import path from "node:path";

type Journal = { entries: { when: number }[] };
type Queryable = { query: <T>(sql: string) => Promise<{ rows: T[] }> };

/** The time drizzle-kit gave the newest migration of a folder (its journal's last `when`), or null without one. */
function newestMigration(migrationsFolder: string): number | null {
  try {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;
    const times = journal.entries.map((entry) => entry.when);
    return times.length > 0 ? Math.max(...times) : null;
  } catch {
    return null;
  }
}

/**
 * True when the database has applied every migration of the folder, as drizzle's migrator would find it: its newest
 * recorded migration (`drizzle.__drizzle_migrations.created_at`) is not older than the journal's newest. Then a start
 * skips loading drizzle's migrator, whose modules take longer to load than the check takes to run. Any doubt (no
 * journal, no table yet, an unreadable row) answers false, and the migrator runs as before.
 */
export async function migrationsCurrent(db: Queryable, migrationsFolder: string): Promise<boolean> {
  const newest = newestMigration(migrationsFolder);
  if (newest === null) return false;
  try {
    const { rows } = await db.query<{ newest: string | null }>(
      "select max(created_at)::text as newest from drizzle.__drizzle_migrations",
    );
    const applied = Number(rows[0]?.newest ?? Number.NaN);
    return Number.isFinite(applied) && applied >= newest;
  } catch {
    return false;
  }
}
