import type { DataSet } from "../server/data-changes.server";

/**
 * What a route's page goes stale by, declared once in its module's `handle` (`export const handle = { staleness }`):
 * the edge reads it from every route a page matched and keeps the page in memory only as long as all of it holds.
 * A route with a loader that declares nothing makes its pages stale on any change (public pages) or never kept (a
 * learner's pages).
 */
export type Staleness<Data = unknown> = {
  /** The data the route's loader shows (app/server/data-changes.server.ts): a change of any of it redraws the page. */
  dependsOn: readonly DataSet[];
  /**
   * The moments the page changes by itself, without a write (a term falls due, the learner's day ends), read from
   * the loader's data.
   */
  changesAt?: (data: Data) => readonly (Date | number | null | undefined)[];
  /** A learner's page worth keeping in memory for them between their writes (their busiest pages). */
  keptForLearner?: true;
  /** The page shows which of the learner's sessions asks (the profile's "this device"): kept apart per session. */
  perSession?: true;
};

export type StalenessHandle<Data = unknown> = { staleness?: Staleness<Data> };
