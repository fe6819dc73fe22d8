/**
 * Makes a template data directory: an embedded database (PGlite) initialised and migrated by the app's own code
 * (app/db/open.server.ts), then closed cleanly. A server started with DATA_TEMPLATE_DIR pointing at it copies it into
 * an empty DATA_DIR instead of running PGlite's initdb, which takes seconds. The image builds one (see Dockerfile).
 *
 *   node scripts/data-template.ts DIR [--migrations FOLDER]   (default: the project's drizzle/)
 *
 * DIR must not hold a database yet. Use the same PGlite version as the server that will copy it.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../app/db/open.server.ts";
import { holdsDatabase } from "../app/db/template.server.ts";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { migrations: { type: "string" } } });
const [dir] = positionals;
if (!dir || positionals.length > 1) {
  console.error("usage: node scripts/data-template.ts DIR [--migrations FOLDER]");
  process.exit(2);
}
if (holdsDatabase(dir)) {
  console.error(`${dir} holds a database already: choose an empty or new directory`);
  process.exit(1);
}
const started = Date.now();
const migrationsFolder = path.resolve(values.migrations ?? path.join(import.meta.dirname, "..", "drizzle"));
const handle = await openDatabase({ dataDir: dir, migrationsFolder });
await handle.close();
console.log(`template data directory ${dir} ready in ${Date.now() - started} ms`);
