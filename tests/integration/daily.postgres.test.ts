import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineDailySuite } from "./daily-suite";

defineDailySuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `daily_${Date.now()}`),
}));
