import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { LINK_LIFETIME_MS } from "../auth/providers/local.server";
import { LONGEST_RATE_LIMIT_WINDOW_MS } from "../auth/rate-limit.server";
import { fitDueLearners } from "../learning/fsrs-fit.server";
import { log } from "./log.server";
import { scheduleRounds } from "./scheduler.server";

/** How often an instance tries to tidy up; whichever instance takes the lock first does it, the others skip. */
export const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;
/** The first run after start: well after the start-up path, spread so instances started together do not all try. */
const FIRST_RUN_AFTER_MS = 2 * 60 * 1000;
/**
 * A sign-in link is kept this long after it expired, used or not, so a learner opening an old link is still told it
 * expired or was used rather than that it is unknown; then the address it was sent to is gone from the database.
 */
export const SIGN_IN_LINK_GRACE_MS = 24 * LINK_LIFETIME_MS;
/** Rows removed per statement: each statement stays far inside the pool's 10 s statement deadline. */
const BATCH = 5_000;
/** Statements per table per run: the rest of a large backlog waits for the next run (the transaction stays short). */
const MAX_BATCHES = 20;
/** The key of the PostgreSQL advisory lock held by the instance tidying up (any constant; "hk" in ASCII). */
export const HOUSEKEEPING_LOCK = 0x686b;

export type HousekeepingResult = { sessions: number; signInLinks: number; rateLimitEvents: number };

let runningHere = false;

/** Deletes what `where` selects by its primary key, in batches; returns how many rows went. */
async function deleteInBatches(tx: Database, table: string, key: string, where: SQL): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const result = await tx.execute(
      sql`delete from ${sql.identifier(table)} where ${sql.identifier(key)} in (select ${sql.identifier(key)} from ${sql.identifier(table)} where ${where} limit ${BATCH})`,
    );
    const count = Number(
      (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
        (result as unknown as { affectedRows?: number }).affectedRows ??
        0,
    );
    deleted += count;
    if (count < BATCH) break;
  }
  return deleted;
}

/**
 * Deletes expired sessions, sign-in links past their grace period and rate-limit events older than the longest
 * window any rule counts over. Exactly one instance at a time does it: the work runs in one transaction that first
 * takes a PostgreSQL advisory lock without waiting (`pg_try_advisory_xact_lock`), and an instance that does not get
 * it skips this round (null). Within a process (PGlite has one) a run never overlaps another either.
 */
export async function runHousekeeping(db: Database, now = new Date()): Promise<HousekeepingResult | null> {
  if (runningHere) return null;
  runningHere = true;
  try {
    return await db.transaction(async (tx) => {
      const { rows } = (await tx.execute(
        sql`select pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}) as locked`,
      )) as unknown as { rows: { locked: boolean }[] };
      if (!rows[0]?.locked) return null;
      const linksBefore = new Date(now.getTime() - SIGN_IN_LINK_GRACE_MS);
      const eventsBefore = new Date(now.getTime() - LONGEST_RATE_LIMIT_WINDOW_MS);
      return {
        sessions: await deleteInBatches(tx, "sessions", "id_hash", sql`expires_at < ${now}`),
        signInLinks: await deleteInBatches(tx, "login_tokens", "token_hash", sql`expires_at < ${linksBefore}`),
        rateLimitEvents: await deleteInBatches(tx, "rate_limit_events", "id", sql`created_at < ${eventsBefore}`),
      };
    });
  } finally {
    runningHere = false;
  }
}

/** One statement outside any transaction (db.server.ts `backgroundStatements`). */
export type RunStatement = (statement: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Vacuums and analyses one table, the one vacuumed longest ago (never vacuumed first), and names it; null when there is
 * none. For the embedded database only: PGlite runs no autovacuum (one connection, no background workers), so without
 * this the room of updated and deleted rows is reused only within their own pages, old row versions are never frozen
 * (PostgreSQL stops taking writes as transaction IDs near wraparound) and the planner never gathers statistics. One
 * table a round: the embedded database answers one statement at a time, so requests wait at most one table's vacuum
 * (0.3 s for the largest table of 20 learners with 20,000 reviews each; later vacuums skip the pages nothing changed
 * on). With a round an hour, each of the 24 tables is done about once a day, in turn.
 */
export async function vacuumOneTable(run: RunStatement): Promise<{ table: string; ms: number } | null> {
  // format's %I quotes a name where it needs quoting, as PostgreSQL's own quote_ident.
  const { rows } = await run(
    `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
      order by greatest(last_vacuum, last_autovacuum) asc nulls first, schemaname, relname limit 1`,
  );
  const table = rows[0]?.name;
  if (typeof table !== "string") return null;
  const started = Date.now();
  await run(`vacuum (analyze) ${table}`);
  return { table, ms: Date.now() - started };
}

/**
 * Runs the housekeeping (and then the fitting of learners' FSRS parameters, and with `vacuum`, the embedded database's
 * vacuum of one table) now and then, off the request path and never in the start-up path: first a few minutes after
 * start (at a random point, so instances started together spread out), then every `everyMs`. A database that does not
 * answer only delays it to the next round. The timers do not hold the process open and stop at shutdown.
 */
export function scheduleHousekeeping(
  db: Database,
  {
    firstAfterMs = FIRST_RUN_AFTER_MS * (0.5 + Math.random()),
    everyMs = HOUSEKEEPING_EVERY_MS,
    vacuum,
  }: { firstAfterMs?: number; everyMs?: number; vacuum?: RunStatement } = {},
): () => void {
  return scheduleRounds(
    async () => {
      const started = Date.now();
      try {
        const result = await runHousekeeping(db);
        if (!result) log.debug("housekeeping skipped: another instance holds the lock");
        else {
          log.info("housekeeping", { ...result, ms: Date.now() - started });
          // The instance that tidied up also fits learners' FSRS parameters, in a worker thread (ADR 062).
          const fitted = await fitDueLearners(db);
          if (fitted > 0) log.info("fsrs parameters fitted", { learners: fitted });
          if (vacuum) {
            const vacuumed = await vacuumOneTable(vacuum);
            if (vacuumed) log.info("table vacuumed", vacuumed);
          }
        }
      } catch (error) {
        log.warn("housekeeping failed; it is tried again at the next round", { error });
      }
      return true;
    },
    { firstAfterMs, againAfterMs: everyMs },
  );
}
