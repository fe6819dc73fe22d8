import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { defineAuthSuite } from "./auth-suite";

// The same behaviour on a real PostgreSQL server (started by tests/support/pg-global-setup.ts), as hosted deployments use.
defineAuthSuite("PostgreSQL", async () => ({
  DATABASE_URL: await createDatabase(inject("pgUrl"), `auth_${Date.now()}`),
}));
