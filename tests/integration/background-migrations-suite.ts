import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/db.server";
import { runBackgroundMigrations, type Runner } from "../../app/server/background-migrations.server";
import { startApp } from "../support/app";

/**
 * The background migrations on one database (ADR 046): drizzle/0015's job builds the index of today's grades and
 * validates the NOT VALID check after start, not in the start-up path; a job another instance holds is left alone;
 * a failing job is released for a later round and marked nothing.
 */
export function defineBackgroundMigrationsSuite(
  databaseName: string,
  databaseEnv: () => Promise<Record<string, string>>,
) {
  describe(`background migrations on ${databaseName}`, () => {
    let app: Awaited<ReturnType<typeof startApp>>;
    let db: Database;
    const rowsOf = async (query: ReturnType<typeof sql>) => (await app.db.execute(query)).rows;
    const run: Runner = (statement) => app.db.execute(sql.raw(statement));

    beforeAll(async () => {
      app = await startApp(await databaseEnv());
      db = app.db as unknown as Database;
    });
    afterAll(async () => {
      await app?.stop();
    });

    it("builds the index and validates the check after start, and marks the job done", async () => {
      // The start-up migration only queued the job and added the check NOT VALID.
      for (let waited = 0; ; waited += 100) {
        const [job] = await rowsOf(sql`select done_at from background_migrations`);
        if (job?.done_at) break;
        if (waited > 30_000) throw new Error("the job did not finish within 30 s of the start");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(
        await rowsOf(sql`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
                         where c.relname = 'review_logs_user_reviewed_idx'`),
      ).toEqual([{ valid: true }]);
      expect(
        await rowsOf(
          sql`select convalidated as valid from pg_constraint where conname = 'review_logs_user_id_not_null'`,
        ),
      ).toEqual([{ valid: true }]);
      // A review log without its learner is refused now.
      await expect(
        app.db.execute(sql`insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days)
                           values (gen_random_uuid(), 3, 0, now(), 1)`),
      ).rejects.toThrow();
      // Done is done: another round claims nothing.
      expect(await runBackgroundMigrations(db, run, "pglite")).toEqual([]);
    });

    it("leaves a job another instance holds, and releases a failed job without marking it done", async () => {
      await app.db.execute(sql`insert into background_migrations (name, claimed_until)
                               values ('held', now() + interval '1 hour'), ('failing', null)`);
      let ranHeld = false;
      const jobs = [
        { name: "held", run: async () => void (ranHeld = true) },
        {
          name: "failing",
          run: async () => {
            throw new Error("no space left");
          },
        },
      ];
      expect(await runBackgroundMigrations(db, run, "pglite", jobs)).toEqual([]);
      expect(ranHeld).toBe(false);
      expect(
        await rowsOf(sql`select name, claimed_until is null as free, done_at is null as pending from background_migrations
                         where name in ('held', 'failing') order by name`),
      ).toEqual([
        { name: "failing", free: true, pending: true },
        { name: "held", free: false, pending: true },
      ]);
      await app.db.execute(sql`delete from background_migrations where name in ('held', 'failing')`);
    });
  });
}
