/**
 * On the embedded database's thread a statement kept prepared is planned once for any values (decision 076): each
 * later run executes that one plan instead of planning again for its own values. Counted by PostgreSQL itself
 * (`pg_prepared_statements`), on a real PGlite opened as the server opens it.
 */
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../app/db/open.server.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

describe("plans of the statements kept on the embedded database's thread", () => {
  let dataDir: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dataDir = tempDir("worker-plans-");
    handle = await openDatabase({ dataDir, migrationsFolder: `${PROJECT_ROOT}/drizzle`, worker: true });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs a statement sent again on one plan made once, never planned again for its values", async () => {
    const since = new Date("2026-01-01T00:00:00Z");
    for (let run = 0; run < 10; run++) {
      await handle.db.execute(
        sql`select count(*) from "review_logs" where "user_id" = ${crypto.randomUUID()} and "reviewed_at" >= ${since}`,
      );
    }
    const { rows } = (await handle.db.execute(
      sql`select "generic_plans", "custom_plans" from pg_prepared_statements where "statement" like '%"review_logs"%'`,
    )) as unknown as { rows: { generic_plans: number | string; custom_plans: number | string }[] };
    expect(rows).toHaveLength(1);
    // Kept from its second run: nine runs on the kept statement, none of them planned for its own values.
    expect(Number(rows[0]!.custom_plans)).toBe(0);
    expect(Number(rows[0]!.generic_plans)).toBe(9);
  });
});
