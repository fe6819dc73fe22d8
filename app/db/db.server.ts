import { env } from "../config/env.server";
import { log } from "../server/log.server";
import { noteConnectionLost, onHealthCheck, onShutdown } from "../server/lifecycle.server";
import { timeQueries, watchPool } from "../server/metrics.server";
import { openDatabase, type Database, type DatabaseHandle } from "./open.server";

export type { Database };

type Handle = DatabaseHandle;
const globalStore = globalThis as typeof globalThis & { polyglotDatabase?: Promise<Handle> };

function open(): Promise<Handle> {
  globalStore.polyglotDatabase ??= (async () => {
    const started = Date.now();
    const handle = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      templateDir: env.DATA_TEMPLATE_DIR,
      // A restarted or unreachable PostgreSQL breaks connections: logged, the pool opens new ones, the process runs on.
      onConnectionError: (error) => {
        noteConnectionLost();
        log.warn("database connection lost", { error });
      },
    });
    log.info("database ready", { kind: handle.kind, ms: Date.now() - started });
    // Statements outside transactions are timed for /metrics (drizzle looks the client's query up on each call), and
    // the PostgreSQL pool's connections counted.
    timeQueries(handle.client, handle.kind);
    if (handle.kind === "postgresql") watchPool(handle.client as unknown as Parameters<typeof watchPool>[0]);
    onShutdown(handle.close);
    return handle;
  })();
  return globalStore.polyglotDatabase;
}

/** One database per process (PGlite's first open takes seconds), opened and migrated on first use. */
export async function getDatabase(): Promise<Database> {
  return (await open()).db;
}

// Healthy means the database is open, migrated and answering.
onHealthCheck(async () => (await open()).ping());
