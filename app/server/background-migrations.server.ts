import { sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { log } from "./log.server";
import { scheduleRounds } from "./scheduler.server";

/**
 * Background migrations (ADR 046): data changes and index builds too large for the start-up migrations, which the
 * HEALTHCHECK's start period bounds. A start-up migration inserts a job's row into `background_migrations`; after
 * start, whichever instance claims the row's lease runs the job (statements without the pool's 10 s deadline, outside
 * any transaction, so an index is built CONCURRENTLY without blocking writes) and sets `done_at`. A job is idempotent:
 * an instance killed halfway leaves the lease to expire, and the next one starts the job again where it makes sense.
 */

/** Runs one statement without the pool's deadlines (PostgreSQL) or as it is (PGlite, one process, no pool). */
export type Runner = (statement: string) => Promise<{ rows: Record<string, unknown>[] }>;
type Job = { name: string; run: (run: Runner, kind: "postgresql" | "pglite") => Promise<void> };

/** How long a claim holds; a job that runs longer keeps its lease renewed by… nothing: keep jobs under it. */
const LEASE = "6 hours";
/** First run after start: out of the start-up path, spread so instances started together do not all try at once. */
const FIRST_RUN_AFTER_MS = 5_000;
/** A job that failed (or that another instance holds) is looked at again after this long. */
const AGAIN_AFTER_MS = 15 * 60_000;

const INDEX = "review_logs_user_reviewed_idx";

export const JOBS: Job[] = [
  {
    // drizzle/0015: the index today's counts read (user_id, reviewed_at), then the NOT VALID check validated.
    name: "0015_review_logs_user_reviewed_idx",
    async run(run, kind) {
      const concurrently = kind === "postgresql" ? "concurrently " : "";
      // A build killed halfway leaves an invalid index of that name behind: it goes first.
      const invalid = await run(
        `select 1 from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = '${INDEX}' and not i.indisvalid`,
      );
      if (invalid.rows.length > 0) await run(`drop index ${concurrently}if exists "${INDEX}"`);
      await run(
        `create index ${concurrently}if not exists "${INDEX}" on "review_logs" using btree ("user_id", "reviewed_at")`,
      );
      // Scans the table under a lock that lets reads and writes go on; afterwards the check holds for every row.
      await run(`alter table "review_logs" validate constraint "review_logs_user_id_not_null"`);
    },
  },
];

/** Claims a pending job for this instance (one claim wins, on PostgreSQL as on PGlite); false if done or taken. */
async function claim(db: Database, name: string): Promise<boolean> {
  const result = (await db.execute(
    sql`update background_migrations set claimed_until = now() + ${LEASE}::interval
        where name = ${name} and done_at is null and (claimed_until is null or claimed_until < now()) returning name`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/**
 * Runs every pending job this instance can claim; returns the names of those it finished. A failed job is logged and
 * released, to be tried again at a later round.
 */
export async function runBackgroundMigrations(
  db: Database,
  run: Runner,
  kind: "postgresql" | "pglite",
  jobs: Job[] = JOBS,
): Promise<string[]> {
  const done: string[] = [];
  for (const job of jobs) {
    if (!(await claim(db, job.name))) continue;
    const started = Date.now();
    try {
      await job.run(run, kind);
      await db.execute(
        sql`update background_migrations set done_at = now(), claimed_until = null where name = ${job.name}`,
      );
      log.info("background migration done", { name: job.name, ms: Date.now() - started });
      done.push(job.name);
    } catch (error) {
      await db
        .execute(sql`update background_migrations set claimed_until = null where name = ${job.name}`)
        .catch(() => {});
      log.warn("background migration failed; it is tried again later", { name: job.name, error });
    }
  }
  return done;
}

/**
 * Runs the background migrations a few seconds after start, then every 15 minutes while some are pending (claimed by
 * another instance, or failed). The timers do not hold the process open and stop at shutdown.
 */
export function scheduleBackgroundMigrations(
  db: Database,
  run: Runner,
  kind: "postgresql" | "pglite",
  { firstAfterMs = FIRST_RUN_AFTER_MS * (0.5 + Math.random()), againAfterMs = AGAIN_AFTER_MS } = {},
): () => void {
  return scheduleRounds(
    async () => {
      let pending = true;
      try {
        await runBackgroundMigrations(db, run, kind);
        const { rows } = (await db.execute(
          sql`select count(*)::int as n from background_migrations where done_at is null`,
        )) as unknown as { rows: { n: number }[] };
        pending = (rows[0]?.n ?? 0) > 0;
      } catch (error) {
        log.warn("background migrations not looked at; tried again later", { error });
      }
      return pending;
    },
    { firstAfterMs, againAfterMs },
  );
}
