import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { pooledDatabaseEnv } from "../support/pooler.ts";
import { defineAuthSuite } from "./auth-suite";

// Sign-in as managed hosts run PostgreSQL: requests through PgBouncer in transaction mode, migrations and LISTEN direct.
defineAuthSuite("PostgreSQL behind PgBouncer (transaction mode)", async () =>
  pooledDatabaseEnv(await createDatabase(inject("pgUrl"), `auth_pooled_${Date.now()}`)),
);
