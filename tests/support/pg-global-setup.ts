/**
 * Vitest globalSetup: one throwaway PostgreSQL server for the whole run, and Debian's PgBouncer in transaction mode in
 * front of it. Tests read the server's URL with `inject("pgUrl")` and make their own database on it with
 * `createDatabase(inject("pgUrl"), name)` from scripts/support/postgres; `throughPooler(url)` (tests/support/pooler.ts)
 * is the same database through PgBouncer.
 */
import type { TestProject } from "vitest/node";
import { startPgBouncer } from "../../scripts/support/pgbouncer.ts";
import { startPostgres } from "../../scripts/support/postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** `postgres://postgres@127.0.0.1:<port>/postgres` of the server started for this run. */
    pgUrl: string;
    /** The port of the PgBouncer (transaction mode) in front of that server. */
    pgBouncerPort: number;
  }
}

export default async function setup({ provide }: TestProject) {
  const server = await startPostgres();
  const pooler = await startPgBouncer(server.port).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  provide("pgUrl", server.url);
  provide("pgBouncerPort", pooler.port);
  return async () => {
    await pooler.stop();
    await server.stop();
  };
}
