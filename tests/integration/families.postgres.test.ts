import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineFamiliesSuite } from "./families-suite";

defineFamiliesSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `families_${Date.now()}`),
}));
