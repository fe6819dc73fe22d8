/**
 * Vitest globalSetup: one throwaway PostgreSQL server for the whole run. Tests read its URL with `inject("pgUrl")`
 * and make their own database on it with `createDatabase(inject("pgUrl"), name)` from scripts/support/postgres.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "../../scripts/support/postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** `postgres://postgres@127.0.0.1:<port>/postgres` of the server started for this run. */
    pgUrl: string;
  }
}

export default async function setup({ provide }: TestProject) {
  const server = await startPostgres();
  provide("pgUrl", server.url);
  return async () => {
    await server.stop();
  };
}
