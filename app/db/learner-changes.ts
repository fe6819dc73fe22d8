// Relative imports carry `.ts` (see open.server.ts).

/**
 * The channel of the announcements, and the setting a connection can turn them off with ('off'; drizzle/0026: every
 * connection announces otherwise).
 */
export const LEARNER_CHANNEL = "learner_changed";
export const LEARNER_NOTIFY_SETTING = "polyglot.learner_notify";

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

/** How many of the latest announcements are remembered (see LearnerChanges.changedSince). */
const RECENT_KEPT = 1024;

/**
 * The learners whose row (`users`) changed, as the database announces them: every write of a learner's data, a sign-in
 * and a sign-out move their row, so what a process keeps of a learner (their session's row) stays true while no
 * announcement names them. The embedded database, written by this process alone, announces at commit, before the
 * write returns (drizzle/0021, 0022). PostgreSQL, which other instances write too, announces through a listening
 * connection of each instance (postgres-listener.server.ts) shortly after commit; while that connection is away, no
 * announcement is sure to arrive and nothing may be kept.
 */
export class LearnerChanges {
  private announced = 0;
  /**
   * The latest announcements, the one counted n at n % RECENT_KEPT; null where the listener was lost or came back.
   * Enough to tell whether any named a learner while their row was read, however many learners write meanwhile.
   */
  private readonly recent: (LearnerChange | null)[] = new Array<LearnerChange | null>(RECENT_KEPT).fill(null);
  private listening: boolean;
  private readonly listeners = new Set<(change: LearnerChange) => void>();
  private readonly lostListeners = new Set<() => void>();

  /**
   * @param atCommit whether a write's announcements arrive before the write returns (the embedded database), rather
   *   than shortly after it (PostgreSQL, which starts without its listener)
   */
  readonly atCommit: boolean;

  constructor(atCommit = true) {
    this.atCommit = atCommit;
    this.listening = atCommit;
  }

  /** How many announcements came so far: a read that began at this count and ended at it missed none. */
  get count(): number {
    return this.announced;
  }

  /**
   * Whether a learner's row, read with `dataVersion` by a read that began when `count` announcements had come, may be
   * stale by now: since then an announcement named them with a change other than of their data version or with a newer
   * version than the read saw, the listener was lost or came back, or more came than are remembered. Announcements of
   * other learners leave it as it was read.
   */
  changedSince(count: number, learnerId: string, dataVersion: number): boolean {
    if (this.announced - count > RECENT_KEPT) return true;
    for (let n = count; n < this.announced; n++) {
      const change = this.recent[n % RECENT_KEPT];
      if (!change) return true;
      if (change.learnerId === learnerId && (change.dataVersion === null || change.dataVersion > dataVersion))
        return true;
    }
    return false;
  }

  private counted(change: LearnerChange | null): void {
    this.recent[this.announced % RECENT_KEPT] = change;
    this.announced++;
  }

  /** Whether announcements are heard now: what is read may be kept. */
  get keeping(): boolean {
    return this.listening;
  }

  /** Tells the listeners of an announcement's payload (see learnerChangeOf). */
  announce(payload: string): void {
    const change = learnerChangeOf(payload);
    this.counted(change);
    for (const listener of this.listeners) listener(change);
  }

  /** The announcements stopped (the listening connection is gone): whatever was kept may be stale from now on. */
  lost(): void {
    this.counted(null);
    this.listening = false;
    for (const listener of this.lostListeners) listener();
  }

  /** The announcements are heard again: a read that starts now may be kept. */
  resumed(): void {
    this.counted(null);
    this.listening = true;
  }

  subscribe(listener: (change: LearnerChange) => void, onLost?: () => void): void {
    this.listeners.add(listener);
    if (onLost) this.lostListeners.add(onLost);
  }
}

const announcing = new WeakMap<object, LearnerChanges>();

/** Marks a database (drizzle's handle) as one whose learners' changes `changes` announces. */
export function announcesLearnerChanges(db: object, changes: LearnerChanges): void {
  announcing.set(db, changes);
}

/** The announcements of a database's learner changes, or null when it makes none (a script's own connection). */
export function learnerChangesOf(db: object): LearnerChanges | null {
  return announcing.get(db) ?? null;
}
