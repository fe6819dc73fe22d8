import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineBillingSuite } from "./billing-suite";

defineBillingSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `billing_${Date.now()}`),
}));
