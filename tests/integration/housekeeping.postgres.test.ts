import { Client } from "pg";
import { inject } from "vitest";
import { HOUSEKEEPING_LOCK } from "../../app/server/housekeeping.server";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineHousekeepingSuite } from "./housekeeping-suite";

defineHousekeepingSuite(
  "PostgreSQL",
  async () => ({ DATABASE_URL: await createDatabase(inject("pgUrl"), `housekeeping_${Date.now()}`) }),
  // Another instance tidying up: its own connection holds the advisory lock until released.
  async (env) => {
    const other = new Client({ connectionString: env.DATABASE_URL });
    await other.connect();
    await other.query("select pg_advisory_lock($1)", [HOUSEKEEPING_LOCK]);
    return async () => {
      await other.query("select pg_advisory_unlock($1)", [HOUSEKEEPING_LOCK]);
      await other.end();
    };
  },
);
