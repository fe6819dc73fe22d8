/**
 * Makes a template data directory: an embedded database (PGlite) initialised and migrated by the app's own code
 * (app/db/open.server.ts), then closed cleanly. A server started with DATA_TEMPLATE_DIR pointing at it copies it into
 * an empty DATA_DIR instead of running PGlite's initdb, which takes seconds. The image builds one (see Dockerfile).
 *
 *   node scripts/data-template.ts DIR [--migrations FOLDER]   (default: the project's drizzle/)
 *   node scripts/data-template.ts DIR --app build/server/index.js
 *
 * With --app the built app's own start opens the database, applies the migrations of ./drizzle and loads the shipped
 * data (the public lists), so a server starting on a copy finds that data loaded already and has nothing to write;
 * PostgreSQL's template databases are dropped, so a copy has a third of the files.
 *
 * The write-ahead log's spare segments (16 MB each) are removed once the database is shut down (support/spare-wal.ts).
 *
 * DIR must not hold a database yet. Use the same PGlite version as the server that will copy it.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import type { AppServer } from "../app/app-server.server.ts";
import { openDatabase } from "../app/db/open.server.ts";
import { holdsDatabase, PGLITE_FOLDER } from "../app/db/template.server.ts";
import { removeSpareWal } from "./support/spare-wal.ts";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { migrations: { type: "string" }, app: { type: "string" } },
});
const [dir] = positionals;
if (!dir || positionals.length > 1 || (values.app && values.migrations)) {
  console.error("usage: node scripts/data-template.ts DIR [--migrations FOLDER | --app build/server/index.js]");
  process.exit(2);
}
if (holdsDatabase(dir)) {
  console.error(`${dir} holds a database already: choose an empty or new directory`);
  process.exit(1);
}
const started = Date.now();
if (values.app) {
  // The app reads its settings when imported: this directory, embedded, and a key for this process only (no secret
  // file is written next to the database).
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATA_DIR: dir,
    SESSION_SECRET: randomBytes(32).toString("hex"),
  });
  delete process.env.DATABASE_URL;
  delete process.env.DATA_TEMPLATE_DIR;
  const build = (await import(pathToFileURL(path.resolve(values.app)).href)) as ServerBuild;
  const app = (build.entry.module as unknown as { appServer: AppServer }).appServer;
  const db = await app.start();
  // A first start copies the template file by file: PostgreSQL's own templates, only read by CREATE DATABASE (which
  // the app never runs), are two thirds of its files and 16 of its 40 MB. Dropped through the app's own database: a
  // second embedded database opened in this process after the app's thread ended crashed V8 once (a fatal check in
  // `UnregisterWasmAllocation`, the same WebAssembly module compiled on two threads).
  for (const name of ["template1", "template0"]) {
    await db.execute(sql.raw(`alter database ${name} is_template false`));
    await db.execute(sql.raw(`drop database ${name}`));
  }
  await app.shutdown();
} else {
  const migrationsFolder = path.resolve(values.migrations ?? path.join(import.meta.dirname, "..", "drizzle"));
  const handle = await openDatabase({ dataDir: dir, migrationsFolder });
  await handle.close();
}
// The shut-down database needs one segment of its write-ahead log; the recycled spares would only fill the image.
const spare = removeSpareWal(path.join(dir, PGLITE_FOLDER));
console.log(
  `template data directory ${dir} ready in ${Date.now() - started} ms (${spare.length} spare WAL segments removed)`,
);
