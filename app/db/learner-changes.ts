// Relative imports carry `.ts` (see open.server.ts).

/**
 * The learners whose row (`users`) changed, as a database written by this process alone announces them at commit: the
 * embedded one on its thread (drizzle/0021). Every write of a learner's data, a sign-in and a sign-out move their row,
 * so what this process keeps of a learner (their session's row) stays true while no announcement names them.
 * PostgreSQL, which other instances write too, has none: what is read from it is read again each time.
 */
export class LearnerChanges {
  private announced = 0;
  private readonly listeners = new Set<(learnerId: string) => void>();

  /** How many announcements came so far: a read that began at this count and ended at it missed none. */
  get count(): number {
    return this.announced;
  }

  announce(learnerId: string): void {
    this.announced++;
    for (const listener of this.listeners) listener(learnerId);
  }

  subscribe(listener: (learnerId: string) => void): void {
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
