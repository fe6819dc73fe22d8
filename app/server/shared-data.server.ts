import { eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { log } from "./log.server";
import { onShutdown } from "./lifecycle.server";
import { publicDataVersion } from "./shared-data.schema";

/** How often an instance sharing PostgreSQL asks whether another one changed what the public pages show. */
export const SHARED_DATA_CHECK_MS = 2_000;

/** The version now, as seen by this connection or transaction (after its own writes: the triggers ran by then). */
export async function publicDataVersionNow(db: Pick<Database, "select">): Promise<number> {
  const [row] = await db
    .select({ version: publicDataVersion.version })
    .from(publicDataVersion)
    .where(eq(publicDataVersion.id, 1));
  return Number(row?.version ?? 0);
}

let running: { saw: (version: number) => void } | null = null;

/**
 * This instance committed a change of public data that moved the version to `version`, and has just forgotten its
 * kept pages: every change up to that version was committed before (the triggers' row lock orders them), so its
 * pages drawn from now on show them all, and the next check need not forget them again.
 */
export function publicDataChangedHere(version: number): void {
  running?.saw(version);
}

/**
 * Instances sharing a PostgreSQL database each keep public pages in memory; a webhook (a pledge, a refund) reaches
 * only one of them. Every few seconds, off the request path, each reads the version the database's triggers move on
 * such changes (drizzle/0009_public_data_version.sql) and calls `onChange` when it differs from the one it read last
 * (a restored backup with a lower number counts too). A database that does not answer changes nothing: the kept
 * pages keep being answered, and the next check after it is back finds any change made meanwhile. A change this
 * instance made and acted on itself (`publicDataChangedHere`) does not make it forget the pages drawn since. One check
 * at a time; the timer does not hold the process open, and stops at shutdown.
 */
export function watchSharedData(db: Database, onChange: () => void, everyMs = SHARED_DATA_CHECK_MS): () => void {
  let seen: number | null = null;
  let failing = false;
  let checking = false;
  let stopped = false;
  /** Moves with each change noted here: a check that overlapped one drops its reading (the next check decides). */
  let notes = 0;

  async function check() {
    if (checking || stopped) return;
    checking = true;
    const notesBefore = notes;
    try {
      const version = await publicDataVersionNow(db);
      if (notes !== notesBefore) return;
      if (failing) log.info("shared data check answers again");
      failing = false;
      if (seen !== null && version !== seen && !stopped) {
        log.info("public data changed: kept public pages are drawn again", { version });
        onChange();
      }
      seen = version;
    } catch (error) {
      if (!failing) log.warn("shared data check failed; kept pages are answered meanwhile", { error });
      failing = true;
    } finally {
      checking = false;
    }
  }

  running = {
    saw: (version) => {
      notes++;
      if (seen === null || version > seen) seen = version;
    },
  };
  void check();
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  const stop = () => {
    stopped = true;
    running = null;
    clearInterval(timer);
  };
  onShutdown(async () => stop());
  return stop;
}
