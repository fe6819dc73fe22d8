/**
 * Backs up the whole database to one file, or restores one (app/db/backup.server.ts says what the file holds):
 *
 *   node scripts/db-backup.ts FILE                   (npm run db:backup -- FILE)
 *   node scripts/db-backup.ts --restore FILE [--force] (npm run db:restore -- FILE [--force])
 *
 * with DATABASE_URL=postgres://… (PostgreSQL: a backup runs while the app serves) or DATA_DIR=dir (the embedded
 * database, default ./data: the server must be stopped, since one process owns it). Runs inside the image as it is.
 * Exit status 0 when done, 1 when refused or failed (nothing changed), 2 for a wrong command line.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { backupDatabase, BadBackupError, restoreDatabase } from "../app/db/backup.server.ts";
import { openScriptDatabase } from "./support/script-database.ts";

const USAGE = `usage: node scripts/db-backup.ts FILE | node scripts/db-backup.ts --restore FILE [--force]
  with DATABASE_URL=postgres://… (PostgreSQL) or DATA_DIR=dir (embedded database; default ./data, server stopped)`;

function usage(message: string): never {
  console.error(`db-backup: ${message}\n${USAGE}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { restore: { type: "boolean", default: false }, force: { type: "boolean", default: false } },
  });
} catch (error) {
  usage(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
if (positionals.length !== 1) usage("name one backup file");
if (values.force && !values.restore) usage("--force only applies to --restore");
const file = path.resolve(positionals[0]!);
const { handle, databaseUrl, dataDir } = await openScriptDatabase("db-backup", {
  running: "; with PostgreSQL (DATABASE_URL) backups run while the app serves.",
  failed: "",
});

const where = databaseUrl ? "PostgreSQL" : `the embedded database in ${dataDir}`;
const started = Date.now();
try {
  const counts = values.restore
    ? await restoreDatabase(handle.db, file, { force: values.force })
    : await backupDatabase(handle.db, file);
  const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const tables = Object.keys(counts).length;
  console.log(
    values.restore
      ? `db-backup: restored ${rows} rows in ${tables} tables from ${file} into ${where} in ${Date.now() - started} ms`
      : `db-backup: wrote ${rows} rows of ${tables} tables from ${where} to ${file} in ${Date.now() - started} ms`,
  );
  await handle.close();
} catch (error) {
  await handle.close().catch(() => {});
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `db-backup: ${error instanceof BadBackupError ? message : `${values.restore ? "restore" : "backup"} failed, nothing changed: ${message}`}`,
  );
  process.exit(1);
}
