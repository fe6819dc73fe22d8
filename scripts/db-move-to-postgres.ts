/**
 * Moves the embedded database (PGlite in DATA_DIR, default ./data) into an empty PostgreSQL database (DATABASE_URL):
 *
 *   DATABASE_URL=postgres://… node scripts/db-move-to-postgres.ts   (npm run db:move-to-postgres)
 *
 * The server must be stopped (one process owns the embedded database). The target gets the app's migrations first and
 * must then hold no rows; every table is copied from one consistent read of the source, in one transaction on the
 * target, and the rows of each table are counted on both sides. Runs inside the image as it is (decision 018).
 * Exit status 0 when done, 1 when refused or failed (nothing written to the target), 2 for a wrong command line.
 */
import path from "node:path";
import { moveDatabase, BadBackupError, MoveRefusedError } from "../app/db/backup.server.ts";
import { openDatabase, type DatabaseHandle } from "../app/db/open.server.ts";

const USAGE = `usage: DATABASE_URL=postgres://… [DATA_DIR=dir] node scripts/db-move-to-postgres.ts
  copies the embedded database in DATA_DIR (default ./data; its server stopped) into the empty PostgreSQL database`;

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR || "./data";
if (process.argv.length > 2 || !databaseUrl) {
  console.error(`db-move-to-postgres: ${databaseUrl ? "no arguments expected" : "DATABASE_URL is not set"}\n${USAGE}`);
  process.exit(2);
}
const migrationsFolder = path.resolve(import.meta.dirname, "../drizzle");
const fail = (message: string): never => {
  console.error(`db-move-to-postgres: ${message}`);
  process.exit(1);
};
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

let source: DatabaseHandle;
try {
  source = await openDatabase({ dataDir, migrationsFolder });
} catch (error) {
  const message = messageOf(error);
  fail(
    /in use by/.test(message)
      ? `the embedded database in ${dataDir} is open in a running server. Stop the server first (one process owns ` +
          `the embedded database).\n  ${message}`
      : `cannot open the embedded database in ${dataDir}: ${message}`,
  );
}
let target: DatabaseHandle;
try {
  // The target gets this version's migrations first, so both sides hold the same schema.
  target = await openDatabase({ databaseUrl, dataDir, migrationsFolder });
} catch (error) {
  await source!.close();
  fail(`cannot open or migrate the PostgreSQL database: ${messageOf(error)}`);
}

const started = Date.now();
try {
  const moved = await moveDatabase(source!.db, target!.db, {
    onTable: ({ table, source: rows }) => console.log(`  ${table}: ${rows} rows copied, ${rows} counted in PostgreSQL`),
  });
  const rows = moved.reduce((sum, table) => sum + table.target, 0);
  console.log(
    `db-move-to-postgres: copied ${rows} rows in ${moved.length} tables from ${dataDir} into PostgreSQL in ` +
      `${Date.now() - started} ms; every table's row count matches. Set DATABASE_URL for the app and start it.`,
  );
} catch (error) {
  const known = error instanceof MoveRefusedError || error instanceof BadBackupError;
  process.exitCode = 1;
  console.error(`db-move-to-postgres: ${known ? "" : "move failed, nothing was copied: "}${messageOf(error)}`);
} finally {
  await source!.close().catch(() => {});
  await target!.close().catch(() => {});
}
