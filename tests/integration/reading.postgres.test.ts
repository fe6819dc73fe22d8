import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineReadingSuite } from "./reading-suite";

defineReadingSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `reading_${Date.now()}`),
}));
