import { inject } from "vitest";

/** The database at `databaseUrl` (on the run's PostgreSQL server) through the run's PgBouncer in transaction mode. */
export function throughPooler(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${inject("pgBouncerPort")}`;
  return url.toString();
}

/** The app's variables for a database reached as on a managed host: requests through the pooler, sessions direct. */
export function pooledDatabaseEnv(databaseUrl: string): { DATABASE_URL: string; DATABASE_DIRECT_URL: string } {
  return { DATABASE_URL: throughPooler(databaseUrl), DATABASE_DIRECT_URL: databaseUrl };
}
