import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineDataSuite } from "./data-suite";

defineDataSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `data_${Date.now()}`),
}));
