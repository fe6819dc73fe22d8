import { inject } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { definePublicListsSuite } from "./public-lists-suite";

definePublicListsSuite("PostgreSQL", async () => {
  const url = await createDatabase(inject("pgUrl"), `public_lists_${Date.now()}`);
  return { env: { DATABASE_URL: url }, dataDir: "", cleanup: () => {} };
});
