/**
 * `npm run seed -- --bulk --learners N` on a real PostgreSQL (the run's server from tests/support/pg-global-setup):
 * a freshly migrated database gets N learners of 1,000 terms, each with its review log and the statistics' aggregates,
 * written by SQL inside PostgreSQL; a database that already has learners is refused and left as it was.
 */
import { spawnSync } from "node:child_process";
import { Client } from "pg";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT } from "../support/server-process.ts";

function seed(databaseUrl: string, learners: number) {
  const result = spawnSync(process.execPath, ["scripts/seed-terms.ts", "--bulk", "--learners", String(learners)], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

async function counts(databaseUrl: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const count = async (table: string) =>
      Number((await client.query(`select count(*)::int as n from ${table}`)).rows[0].n);
    return {
      users: await count("users"),
      terms: await count("terms"),
      reviewLogs: await count("review_logs"),
      learnerDays: await count("learner_days"),
      // Every review counted once in the day's grades per language, as the triggers would have counted it.
      languageDaysGraded: Number(
        (await client.query(`select coalesce(sum(graded), 0)::int as n from learner_language_days`)).rows[0].n,
      ),
      measured: await count("users where email = 'bench+1@example.com'"),
    };
  } finally {
    await client.end();
  }
}

describe("seeding many learners by SQL", () => {
  it("writes N learners of 1,000 terms with their review logs and aggregates, and refuses a database with learners", async () => {
    const url = await createDatabase(inject("pgUrl"), `seed_bulk_${process.pid}_${Date.now()}`);
    const first = seed(url, 3);
    expect(first.status, first.out).toBe(0);
    const seeded = await counts(url);
    expect(seeded).toMatchObject({ users: 3, terms: 3000, reviewLogs: 3000, languageDaysGraded: 3000, measured: 1 });
    expect(seeded.learnerDays).toBeGreaterThan(0);

    const again = seed(url, 2);
    expect(again.status).not.toBe(0);
    expect(again.out).toContain("--bulk needs an empty database");
    expect(await counts(url)).toEqual(seeded);
  }, 180_000);
});
