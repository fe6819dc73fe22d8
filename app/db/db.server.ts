import { env } from "../config/env.server";
import { log } from "../server/log.server";
import { noteConnectionLost, onHealthCheck, onShutdown } from "../server/lifecycle.server";
import { timeQueries, watchPool } from "../server/metrics.server";
import { openDatabase, type Database, type DatabaseHandle } from "./open.server";
import { takeEarlyPglite } from "./pglite-early";

export type { Database };

type Handle = DatabaseHandle;
const globalStore = globalThis as typeof globalThis & { polyglotDatabase?: Promise<Handle> };

function open(): Promise<Handle> {
  globalStore.polyglotDatabase ??= (async () => {
    const started = Date.now();
    const handle = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      directUrl: env.DATABASE_DIRECT_URL,
      dataDir: env.DATA_DIR,
      templateDir: env.DATA_TEMPLATE_DIR,
      // server.ts may have started the embedded database's thread before the app was loaded.
      started: env.DATABASE_URL ? undefined : takeEarlyPglite(env.DATA_DIR),
      // The embedded database answers from a thread of its own: its queries do not hold the event loop.
      worker: true,
      // PostgreSQL announces the learners each write changes, heard by every instance: their sessions are kept.
      listen: true,
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

type PoolLike = {
  connect: () => Promise<{
    query: (query: string | { text: string; query_timeout: number }) => Promise<{ rows: Record<string, unknown>[] }>;
    release: () => void;
  }>;
};
type PgliteLike = { query: (text: string) => Promise<{ rows: Record<string, unknown>[] }> };
/** Background work (an index built concurrently) may run for hours: no statement deadline, client or server side. */
const UNBOUNDED_MS = 24 * 60 * 60_000;

/**
 * Runs one statement outside any transaction and without the pool's deadlines, for background migrations
 * (app/server/background-migrations.server.ts); and which database this is.
 */
export async function backgroundStatements(): Promise<{
  kind: Handle["kind"];
  run: (statement: string) => Promise<{ rows: Record<string, unknown>[] }>;
}> {
  const handle = await open();
  if (handle.kind === "pglite") {
    const client = handle.client as unknown as PgliteLike;
    return { kind: handle.kind, run: (statement) => client.query(statement) };
  }
  // A session of its own (PostgreSQL itself, not a transaction pooler): the deadline is lifted for it alone.
  const pool = (handle.sessions ?? handle.client) as unknown as PoolLike;
  return {
    kind: handle.kind,
    run: async (statement) => {
      const client = await pool.connect();
      try {
        await client.query("set statement_timeout = 0");
        return await client.query({ text: statement, query_timeout: UNBOUNDED_MS });
      } finally {
        await client.query("reset statement_timeout").catch(() => {});
        client.release();
      }
    },
  };
}
