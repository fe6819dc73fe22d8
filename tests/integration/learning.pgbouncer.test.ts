import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { pooledDatabaseEnv } from "../support/pooler.ts";
import { defineLearningSuite } from "./learning-suite";

// The review loop as managed hosts run PostgreSQL: requests through PgBouncer in transaction mode.
defineLearningSuite("PostgreSQL behind PgBouncer (transaction mode)", async () =>
  pooledDatabaseEnv(await createDatabase(inject("pgUrl"), `learning_pooled_${Date.now()}`)),
);
