import { createContext, type EntryContext, type RouterContextProvider } from "react-router";
import { DATA_SETS, type DataSet } from "../server/data-changes.server";
import type { Staleness } from "./staleness";

/**
 * What the routes a document matched declare about its staleness (`handle.staleness`, app/edge/staleness.ts), merged:
 * filled by the server entry once the loaders ran, read by the caches in front of React Router once it is drawn.
 */
export type DeclaredStaleness = {
  /** Every route with a loader declared its staleness; otherwise what the page depends on is unknown. */
  declared: boolean;
  /** The union of the sets the routes depend on (every set when not declared). */
  dependsOn: ReadonlySet<DataSet>;
  /** The earliest moment a route named for the page to change by itself (Infinity: none). */
  changesAt: number;
  /** The deepest route asks to keep the page for its learner. */
  keptForLearner: boolean;
};

type Holder = { value: DeclaredStaleness | null };
const stalenessContext = createContext<Holder | null>(null);

/** Makes the context of a request collect its page's declared staleness; what it collected is in `declaredBy`. */
export function collectStaleness(context: Readonly<RouterContextProvider>): void {
  if (!context.get(stalenessContext)) (context as RouterContextProvider).set(stalenessContext, { value: null });
}

/** What the drawn page's routes declared (null: no document was drawn, or the context did not collect it). */
export function declaredBy(context: Readonly<RouterContextProvider>): DeclaredStaleness | null {
  return context.get(stalenessContext)?.value ?? null;
}

/** Called by the server entry for every document it draws: merges the declarations of the routes it matched. */
export function declareStaleness(context: Readonly<RouterContextProvider>, router: EntryContext): void {
  const holder = context.get(stalenessContext);
  if (!holder) return;
  const { matches, loaderData, errors } = router.staticHandlerContext;
  // An error page is never kept: nothing to declare (and its routes' loaders may not have run).
  if (errors) return void (holder.value = null);
  let declared = true;
  const dependsOn = new Set<DataSet>();
  let changesAt = Number.POSITIVE_INFINITY;
  let keptForLearner = false;
  matches.forEach((match, index) => {
    const staleness = (match.route.handle as { staleness?: Staleness<unknown> } | undefined)?.staleness;
    if (!staleness) {
      if (router.manifest.routes[match.route.id]?.hasLoader) declared = false;
      return;
    }
    for (const set of staleness.dependsOn) dependsOn.add(set);
    const data: unknown = loaderData[match.route.id];
    if (staleness.changesAt && data === undefined) declared = false;
    for (const at of (data !== undefined && staleness.changesAt?.(data)) || []) {
      if (at !== null && at !== undefined) changesAt = Math.min(changesAt, +at);
    }
    if (index === matches.length - 1) keptForLearner = staleness.keptForLearner === true;
  });
  holder.value = {
    declared,
    dependsOn: declared ? dependsOn : new Set(DATA_SETS),
    changesAt,
    keptForLearner: declared && keptForLearner,
  };
}
