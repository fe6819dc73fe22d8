// The embedded database on a thread of its own (started by open.server.ts): PGlite runs its queries here, on the
// second core, instead of on the event loop that reads sockets and renders pages. Relative paths and `.ts`: plain
// `node` runs this file (a worker is not bundled by the build).
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { LEARNER_CHANNEL, LEARNER_NOTIFY_SETTING } from "./learner-changes.ts";
import { migrationsCurrent } from "./migrations-current.ts";
import { preparedStatements } from "./pglite-statements.ts";
import type { PgliteRequest, PgliteReply, WireError, WireQueryOptions } from "./pglite-wire.ts";

type Transaction = Parameters<Parameters<PGlite["transaction"]>[0]>[0];
type Open = { tx: Transaction; finish: (commit: boolean) => void; done: Promise<void> };

const { dataDir, migrationsFolder } = workerData as { dataDir: string; migrationsFolder: string };
const port = parentPort!;

/** What the main thread gets of an error: its message and the fields PostgreSQL gives it (`code` for a duplicate…). */
function wireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || (typeof value === "object" && value !== null)) continue;
    fields[key] = value;
  }
  return { message: error.message, name: error.name, fields };
}

const reply = (message: PgliteReply) => port.postMessage(message);

/**
 * Drizzle's result parsers keep these types as PostgreSQL's text (it parses them itself): the same here. One options
 * object per kind of call (a few), so the statements can keep their parsers merged with PGlite's
 * (pglite-statements.ts).
 */
type Options = { rowMode: WireQueryOptions["rowMode"]; parsers: Record<number, (value: string) => string> };
const optionsByKind = new Map<string, Options>();
function queryOptions(options: WireQueryOptions | undefined) {
  if (!options) return undefined;
  const kind = `${options.rowMode ?? ""}:${(options.rawTypes ?? []).join(",")}`;
  let found = optionsByKind.get(kind);
  if (!found) {
    const parsers = Object.fromEntries((options.rawTypes ?? []).map((oid) => [oid, (value: string) => value]));
    found = { rowMode: options.rowMode, parsers };
    if (optionsByKind.size < 64) optionsByKind.set(kind, found);
  }
  return found;
}

const ROLLBACK = Symbol("rollback");

async function main() {
  const db = await PGlite.create(dataDir);
  // Drizzle's migrator is loaded only when a migration is due: a restart or a copy of a current template skips it.
  if (!(await migrationsCurrent(db, migrationsFolder))) {
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(drizzle(db), { migrationsFolder });
  }
  // This thread is the database's only writer: a learner's changed row is announced to the app at commit, before the
  // answer to the statement (or the transaction's end) that changed it (drizzle/0021).
  await db.exec(`SET ${LEARNER_NOTIFY_SETTING} = 'on'`);
  await db.listen(LEARNER_CHANNEL, (learnerId) => port.postMessage({ learnerChanged: learnerId }));
  // The statements kept prepared (pglite-statements.ts) and the queries of the triggers' functions run on one plan
  // each, made once for any values, instead of a plan made again for each run's values: PostgreSQL's own choice kept
  // planning the learner's day anew (2.0-2.7 ms a run, against 0.6-0.8 ms on the one plan; decision 076).
  await db.exec("SET plan_cache_mode = force_generic_plan");
  const open = new Map<number, Open>();
  const statements = preparedStatements(db);

  port.on("message", (message: PgliteRequest) => {
    switch (message.op) {
      case "query": {
        const tx = message.tx === null ? null : open.get(message.tx)?.tx;
        if (message.tx !== null && !tx) {
          reply({ id: message.id, ok: false, error: { message: "transaction is closed", fields: {} } });
          return;
        }
        statements.query(tx ?? null, message.sql, message.params, queryOptions(message.options)).then(
          (result) =>
            reply({
              id: message.id,
              ok: true,
              value: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows },
            }),
          (error: unknown) => reply({ id: message.id, ok: false, error: wireError(error) }),
        );
        return;
      }
      case "begin": {
        // PGlite runs one transaction at a time and holds other queries meanwhile: it stays open until "end".
        let begun = false;
        let finish!: (commit: boolean) => void;
        const ended = new Promise<boolean>((resolve) => (finish = resolve));
        const done = db.transaction(async (tx) => {
          begun = true;
          open.set(message.id, { tx, finish, done });
          reply({ id: message.id, ok: true, value: message.id });
          if (!(await ended)) throw ROLLBACK;
        });
        done.catch((error: unknown) => {
          if (!begun) reply({ id: message.id, ok: false, error: wireError(error) });
        });
        return;
      }
      case "end": {
        const transaction = open.get(message.tx);
        open.delete(message.tx);
        if (!transaction) {
          reply({ id: message.id, ok: false, error: { message: "transaction is closed", fields: {} } });
          return;
        }
        transaction.finish(message.commit);
        transaction.done.then(
          () => reply({ id: message.id, ok: true, value: null }),
          (error: unknown) =>
            error === ROLLBACK
              ? reply({ id: message.id, ok: true, value: null })
              : reply({ id: message.id, ok: false, error: wireError(error) }),
        );
        return;
      }
      case "close": {
        db.close().then(
          () => reply({ id: message.id, ok: true, value: null }),
          (error: unknown) => reply({ id: message.id, ok: false, error: wireError(error) }),
        );
        return;
      }
    }
  });
  port.postMessage({ ready: true });
}

main().catch((error: unknown) => port.postMessage({ ready: false, error: wireError(error) }));
