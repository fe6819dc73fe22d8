import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineLearningSuite } from "./learning-suite";

defineLearningSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `learning_${Date.now()}`),
}));
