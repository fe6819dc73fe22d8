// Relative imports carry `.ts`: server.ts runs this file with plain `node`, before the app's build is loaded.
import path from "node:path";
import { startPgliteWorker, type PgliteStart } from "./open.server.ts";

type Early = { dataDir: string; start: Promise<PgliteStart> };
/** On globalThis: server.ts starts it from the sources, the app (bundled in build/server) takes it. */
const store = globalThis as typeof globalThis & { polyglotPgliteEarly?: Early };

/**
 * Starts the embedded database's thread before the app is loaded (server.ts, production, no DATABASE_URL): PGlite
 * compiles, opens and checks its migrations on the other core while this one loads the app's code, instead of after.
 * The variables are read as the app reads them (app/config/env.server.ts); the app validates them when it loads.
 */
export function startPgliteEarly(environment: NodeJS.ProcessEnv = process.env): void {
  const dataDir = environment.DATA_DIR || "./data";
  const start = startPgliteWorker(
    dataDir,
    path.resolve(process.cwd(), "drizzle"),
    environment.DATA_TEMPLATE_DIR || undefined,
  );
  // A failure (the directory locked by another process) is the app's to report when it opens the database.
  start.catch(() => {});
  store.polyglotPgliteEarly = { dataDir, start };
}

/** The thread started early for this data directory, taken once; undefined when none was. */
export function takeEarlyPglite(dataDir: string): Promise<PgliteStart> | undefined {
  const early = store.polyglotPgliteEarly;
  store.polyglotPgliteEarly = undefined;
  if (!early) return undefined;
  if (path.resolve(early.dataDir) === path.resolve(dataDir)) return early.start;
  // Another directory after all: the early one is let go.
  void early.start.then(
    async ({ client, release }) => {
      await client.close().catch(() => {});
      release();
    },
    () => {},
  );
  return undefined;
}
