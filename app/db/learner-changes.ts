// Relative imports carry `.ts` (see open.server.ts).

/**
 * One announcement: the learner, and their new data version when nothing else of their row changed (a write of their
 * data; drizzle/0022); null when anything else may have (their e-mail, a session ended, the row deleted).
 */
export type LearnerChange = { learnerId: string; dataVersion: number | null };

/** An announcement's payload, "<id>" or "<id> <data version>", as the database sends it. */
export function learnerChangeOf(payload: string): LearnerChange {
  const [learnerId = "", version] = payload.split(" ");
  const dataVersion = version === undefined ? Number.NaN : Number(version);
  return { learnerId, dataVersion: Number.isSafeInteger(dataVersion) ? dataVersion : null };
}

/**
 * The learners whose row (`users`) changed, as a database written by this process alone announces them at commit: the
 * embedded one on its thread (drizzle/0021, 0022). Every write of a learner's data, a sign-in and a sign-out move
 * their row, so what this process keeps of a learner (their session's row) stays true while no announcement names
 * them. PostgreSQL, which other instances write too, has none: what is read from it is read again each time.
 */
export class LearnerChanges {
  private announced = 0;
  private readonly listeners = new Set<(change: LearnerChange) => void>();

  /** How many announcements came so far: a read that began at this count and ended at it missed none. */
  get count(): number {
    return this.announced;
  }

  /** Tells the listeners of an announcement's payload (see learnerChangeOf). */
  announce(payload: string): void {
    this.announced++;
    const change = learnerChangeOf(payload);
    for (const listener of this.listeners) listener(change);
  }

  subscribe(listener: (change: LearnerChange) => void): void {
    this.listeners.add(listener);
  }
}

const announcing = new WeakMap<object, LearnerChanges>();

/** Marks a database (drizzle's handle) as one whose learners' changes `changes` announces. */
export function announcesLearnerChanges(db: object, changes: LearnerChanges): void {
  announcing.set(db, changes);
}

/** The announcements of a database's learner changes, or null when it makes none (PostgreSQL). */
export function learnerChangesOf(db: object): LearnerChanges | null {
  return announcing.get(db) ?? null;
}
