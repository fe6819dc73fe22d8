import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/db.server";
import {
  runHousekeeping,
  scheduleHousekeeping,
  SIGN_IN_LINK_GRACE_MS,
  vacuumOneTable,
  type RunStatement,
} from "../../app/server/housekeeping.server";
import { startApp } from "../support/app";

type App = Awaited<ReturnType<typeof startApp>>;

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Housekeeping on one database: what goes and what stays, large backlogs in batches, the schedule, and one run at a
 * time. `holdLock` (PostgreSQL only) takes the advisory lock from another connection, as another instance would.
 * `embedded` (PGlite, which has no autovacuum): the rounds vacuum one table each, every table in turn.
 */
export function defineHousekeepingSuite(
  databaseName: string,
  databaseEnv: () => Promise<Record<string, string>>,
  holdLock?: (env: Record<string, string>) => Promise<() => Promise<void>>,
  { embedded = false } = {},
) {
  describe(`housekeeping on ${databaseName}`, () => {
    let app: App;
    let db: Database;
    let env: Record<string, string>;
    let userId: string;

    async function ids(table: string, key: string): Promise<string[]> {
      const { rows } = await app.db.execute(sql.raw(`select ${key} as id from ${table} order by ${key}`));
      return rows.map((row) => String(row.id));
    }

    beforeAll(async () => {
      env = await databaseEnv();
      app = await startApp(env);
      db = app.db as unknown as Database;
      const { rows } = await app.db.execute(sql`insert into users (email) values ('tidy@example.test') returning id`);
      userId = String(rows[0]!.id);
    });
    afterAll(async () => {
      await app?.stop();
    });
    beforeEach(async () => {
      await app.db.execute(sql`delete from sessions`);
      await app.db.execute(sql`delete from login_tokens`);
      await app.db.execute(sql`delete from rate_limit_events`);
    });

    async function seed() {
      await app.db.execute(sql`insert into sessions (id_hash, user_id, expires_at) values
        ('expired', ${userId}, ${ago(1_000)}), ('live', ${userId}, ${ago(-HOUR)})`);
      await app.db.execute(sql`insert into login_tokens (token_hash, email, expires_at, used_at) values
        ('long-expired', 'a@example.test', ${ago(SIGN_IN_LINK_GRACE_MS + HOUR)}, null),
        ('long-used', 'b@example.test', ${ago(SIGN_IN_LINK_GRACE_MS + HOUR)}, ${ago(SIGN_IN_LINK_GRACE_MS + 2 * HOUR)}),
        ('just-expired', 'c@example.test', ${ago(HOUR)}, null),
        ('fresh', 'd@example.test', ${ago(-HOUR)}, null)`);
      await app.db.execute(sql`insert into rate_limit_events (key, created_at) values
        ('signin:ip:198.51.100.1', ${ago(2 * HOUR)}), ('signin:ip:198.51.100.1', ${ago(10 * 60_000)})`);
    }

    it("deletes expired sessions, sign-in links a day past expiry and rate-limit events past every window", async () => {
      await seed();
      expect(await runHousekeeping(db)).toEqual({ sessions: 1, signInLinks: 2, rateLimitEvents: 1 });
      expect(await ids("sessions", "id_hash")).toEqual(["live"]);
      // A link that expired an hour ago still tells its learner that it expired; one past the grace is gone.
      expect(await ids("login_tokens", "token_hash")).toEqual(["fresh", "just-expired"]);
      const { rows } = await app.db.execute(sql`select created_at from rate_limit_events`);
      expect(rows).toHaveLength(1);
      expect(Date.now() - new Date(String(rows[0]!.created_at)).getTime()).toBeLessThan(HOUR);
      // Nothing left to do: the next run deletes nothing.
      expect(await runHousekeeping(db)).toEqual({ sessions: 0, signInLinks: 0, rateLimitEvents: 0 });
    });

    it("works through a large backlog in batches", { timeout: 60_000 }, async () => {
      await app.db.execute(sql`insert into sessions (id_hash, user_id, expires_at)
        select 'old-' || g, ${userId}, ${ago(HOUR)} from generate_series(1, 12000) g`);
      await app.db.execute(
        sql`insert into sessions (id_hash, user_id, expires_at) values ('live', ${userId}, ${ago(-HOUR)})`,
      );
      expect((await runHousekeeping(db))?.sessions).toBe(12_000);
      expect(await ids("sessions", "id_hash")).toEqual(["live"]);
    });

    it("never runs twice at once in one process", async () => {
      await seed();
      const results = await Promise.all([runHousekeeping(db), runHousekeeping(db)]);
      expect(results.filter((result) => result === null)).toHaveLength(1);
      expect(results.find((result) => result !== null)).toEqual({ sessions: 1, signInLinks: 2, rateLimitEvents: 1 });
    });

    if (holdLock) {
      it("skips while another instance holds the lock, and runs once it is released", async () => {
        await seed();
        const release = await holdLock(env);
        try {
          expect(await runHousekeeping(db)).toBeNull();
          expect(await ids("sessions", "id_hash")).toEqual(["expired", "live"]);
        } finally {
          await release();
        }
        expect(await runHousekeeping(db)).toEqual({ sessions: 1, signInLinks: 2, rateLimitEvents: 1 });
      });
    }

    if (embedded) {
      // Statements outside any transaction, as db.server.ts `backgroundStatements` runs them.
      const run: RunStatement = (statement) => app.db.execute(sql.raw(statement));
      const vacuumed = async () => {
        const { rows } = await run(
          `select schemaname || '.' || relname as name, last_vacuum, last_analyze from pg_stat_user_tables`,
        );
        return rows;
      };

      it("vacuums and analyses one table a round, the one vacuumed longest ago, until every table is done", async () => {
        const tables = (await vacuumed()).map((row) => String(row.name)).sort();
        expect(tables).toContain("public.terms");
        expect(tables).toContain("public.review_logs");
        // 12,001 rows the statistics have never seen: analysed, the table's estimate counts them.
        await app.db.execute(sql`insert into sessions (id_hash, user_id, expires_at)
          select 'many-' || g, ${userId}, ${ago(-HOUR)} from generate_series(1, 12001) g`);
        const named: string[] = [];
        for (let round = 0; round < tables.length; round++) named.push((await vacuumOneTable(run))!.table);
        // Each round took another table: after as many rounds as tables, each was done once.
        expect([...named].sort()).toEqual(tables);
        for (const row of await vacuumed()) {
          expect(row.last_vacuum, String(row.name)).not.toBeNull();
          expect(row.last_analyze, String(row.name)).not.toBeNull();
        }
        const { rows } = await run(`select reltuples from pg_class where oid = 'public.sessions'::regclass`);
        expect(Number(rows[0]!.reltuples)).toBe(12_001);
        // The next round starts again with the table done longest ago.
        expect((await vacuumOneTable(run))!.table).toBe(named[0]);
      });

      it("vacuums a table in each scheduled round", async () => {
        const started = Date.now();
        const vacuumedSince = async () => {
          const { rows } = await run(
            `select count(*)::int as n from pg_stat_user_tables where last_vacuum >= to_timestamp(${started / 1000})`,
          );
          return Number(rows[0]!.n);
        };
        const stop = scheduleHousekeeping(db, { firstAfterMs: 0, everyMs: 100, vacuum: run });
        try {
          const deadline = Date.now() + 10_000;
          // Two rounds, two tables.
          while ((await vacuumedSince()) < 2) {
            if (Date.now() > deadline) throw new Error("the scheduled rounds did not vacuum two tables within 10 s");
            await sleep(50);
          }
        } finally {
          stop();
        }
      });
    }

    it("runs on its schedule until stopped", async () => {
      await seed();
      const stop = scheduleHousekeeping(db, { firstAfterMs: 0, everyMs: 200 });
      try {
        const deadline = Date.now() + 10_000;
        while ((await ids("sessions", "id_hash")).includes("expired")) {
          if (Date.now() > deadline) throw new Error("the scheduled housekeeping did not run within 10 s");
          await sleep(50);
        }
        // A later round finds what expired since.
        await app.db.execute(
          sql`insert into sessions (id_hash, user_id, expires_at) values ('later', ${userId}, ${ago(1_000)})`,
        );
        while ((await ids("sessions", "id_hash")).includes("later")) {
          if (Date.now() > deadline) throw new Error("the next scheduled round did not run");
          await sleep(50);
        }
      } finally {
        stop();
      }
      // Stopped: nothing is deleted any more.
      await app.db.execute(
        sql`insert into sessions (id_hash, user_id, expires_at) values ('after-stop', ${userId}, ${ago(1_000)})`,
      );
      await sleep(600);
      expect(await ids("sessions", "id_hash")).toContain("after-stop");
    });
  });
}
