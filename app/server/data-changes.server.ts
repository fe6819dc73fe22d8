/**
 * What a page can show, named by the data it comes from, and the hook by which the capability that changes such data
 * announces it. Pages declare which of these they depend on (their route's `handle.staleness`, app/edge/staleness.ts);
 * the edge forgets exactly the pages kept in memory that declared a set when it changes. A capability announces its
 * own changes once, where it writes them, and never needs to know which pages show them or how they are kept.
 *
 * - `learner`: the signed-in learner's own rows. Database triggers move `users.data_version` on every such write,
 *   whichever instance makes it (drizzle/0007 and 0008); nothing announces it.
 * - `public-terms`: the shipped public lists (`public_terms`), loaded at start.
 * - `pledges`: the crowdfunding pledges whose totals the campaign page shows.
 */
export const DATA_SETS = ["learner", "public-terms", "pledges"] as const;
export type DataSet = (typeof DATA_SETS)[number];

/** The sets shared by every visitor: a change of one is announced here and, across instances, by their triggers. */
export const SHARED_DATA_SETS = ["public-terms", "pledges"] as const satisfies readonly DataSet[];

type Listener = (set: DataSet) => void;
const listeners = new Set<Listener>();
const versions = Object.fromEntries(DATA_SETS.map((set) => [set, 0])) as Record<DataSet, number>;

/**
 * Called by a capability once a change of `sets` is committed (a webhook recorded a pledge, the public lists were
 * loaded): everything kept from the old data is forgotten.
 */
export function announceDataChange(...sets: DataSet[]): void {
  for (const set of sets) {
    versions[set]++;
    for (const listener of listeners) listener(set);
  }
}

/** Registers what to drop when a set changes (an in-memory copy of shipped data, a cache of pages). */
export function onDataChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many changes of each set were announced in this process: what a page kept in memory was drawn from. */
export function dataVersions(): Readonly<Record<DataSet, number>> {
  return { ...versions };
}

/** True when none of `sets` changed since `drawnFrom` was taken. */
export function unchangedSince(sets: Iterable<DataSet>, drawnFrom: Readonly<Record<DataSet, number>>): boolean {
  for (const set of sets) if (versions[set] !== drawnFrom[set]) return false;
  return true;
}
