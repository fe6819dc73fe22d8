import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineBackgroundMigrationsSuite } from "./background-migrations-suite";

defineBackgroundMigrationsSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `background_${Date.now()}`),
}));
