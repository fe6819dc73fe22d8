import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { LEARNER_CHANNEL, type LearnerChanges } from "../../app/db/learner-changes";

/**
 * Waits until `changes` has heard every learner change committed on `db` so far. PostgreSQL announces to the listening
 * connection shortly after commit, in commit order, so once a marker announced now arrives, every change before it has
 * arrived too and cannot come later to forget what is read next. The embedded database announces at commit: nothing
 * to wait for.
 */
export async function everyAnnouncementHeard(
  db: { execute: (query: SQL) => PromiseLike<unknown> },
  changes: Pick<LearnerChanges, "atCommit" | "subscribe">,
): Promise<void> {
  if (changes.atCommit) return;
  const marker = randomUUID();
  const heard = new Promise<void>((resolve) => changes.subscribe((change) => change.learnerId === marker && resolve()));
  await db.execute(sql`select pg_notify(${LEARNER_CHANNEL}, ${marker})`);
  await heard;
}
