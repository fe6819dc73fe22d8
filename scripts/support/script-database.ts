import path from "node:path";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";

/**
 * The database a command-line script works on: PostgreSQL when DATABASE_URL is set, else the embedded database in
 * DATA_DIR (./data), migrated. When it cannot be opened the script says why on stderr, prefixed with its name, and
 * exits 1; the embedded database held by a running server gets "stop the server first", followed by `instead` (what
 * PostgreSQL allows, and what was left unchanged).
 */
export async function openScriptDatabase(
  script: string,
  instead: { running: string; failed: string },
): Promise<{ handle: DatabaseHandle; databaseUrl: string | undefined; dataDir: string }> {
  // A script's statements need no pooler: PostgreSQL itself when DATABASE_URL is a pooler (DATABASE_DIRECT_URL).
  const databaseUrl = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || "./data";
  try {
    const handle = await openDatabase({
      databaseUrl,
      dataDir,
      migrationsFolder: path.resolve(import.meta.dirname, "../../drizzle"),
    });
    return { handle, databaseUrl, dataDir };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!databaseUrl && /in use by/.test(message)) {
      console.error(
        `${script}: the embedded database in ${dataDir} is open in a running server. Stop the server first ` +
          `(one process owns the embedded database)${instead.running}\n  ${message}`,
      );
    } else {
      console.error(`${script}: cannot open the database${instead.failed}: ${message}`);
    }
    process.exit(1);
  }
}
