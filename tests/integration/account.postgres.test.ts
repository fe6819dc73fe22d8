import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineAccountSuite } from "./account-suite";

defineAccountSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `account_${Date.now()}`),
}));
