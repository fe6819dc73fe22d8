import {
  createContext,
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  type EntryContext,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
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
  /** A route shows which session asks: the page is kept apart per session. */
  perSession: boolean;
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
  holder.value = merged(
    matches.map((match) => ({
      staleness: stalenessOf(match.route.handle),
      hasLoader: router.manifest.routes[match.route.id]?.hasLoader === true,
      data: loaderData[match.route.id] as unknown,
    })),
  );
}

type RouteOfPage = { staleness: Staleness<unknown> | undefined; hasLoader: boolean; data: unknown };

const stalenessOf = (handle: unknown) => (handle as { staleness?: Staleness<unknown> } | undefined)?.staleness;

/** The declarations of a page's routes, outermost first, merged; the deepest one decides whether it is kept. */
function merged(routes: readonly RouteOfPage[]): DeclaredStaleness {
  let declared = true;
  const dependsOn = new Set<DataSet>();
  let changesAt = Number.POSITIVE_INFINITY;
  let keptForLearner = false;
  let perSession = false;
  routes.forEach(({ staleness, hasLoader, data }, index) => {
    if (!staleness) {
      if (hasLoader) declared = false;
      return;
    }
    for (const set of staleness.dependsOn) dependsOn.add(set);
    if (staleness.perSession) perSession = true;
    if (staleness.changesAt && data === undefined) declared = false;
    for (const at of (data !== undefined && staleness.changesAt?.(data)) || []) {
      if (at !== null && at !== undefined) changesAt = Math.min(changesAt, +at);
    }
    if (index === routes.length - 1) keptForLearner = staleness.keptForLearner === true;
  });
  return {
    declared,
    dependsOn: declared ? dependsOn : new Set(DATA_SETS),
    changesAt,
    keptForLearner: declared && keptForLearner,
    perSession,
  };
}

/** The build's routes (their handles and parents), for the data requests below; set by the edge at start. */
let buildRoutes: ServerBuild["routes"] = {};
export function knowRoutes(build: ServerBuild): void {
  buildRoutes = build.routes;
}

const depthOf = (id: string): number => {
  let depth = 0;
  for (let route = buildRoutes[id]; route?.parentId; route = buildRoutes[route.parentId]) depth++;
  return depth;
};

/**
 * What the routes whose data a data request (`.data`, client navigation) was answered with declare, merged as for a
 * document: read from the answer itself, decoded as the browser decodes it. Null when a route failed or the answer is
 * a redirect: such an answer is never kept.
 */
export async function declaredByData(body: string): Promise<DeclaredStaleness | null> {
  const decoded = await decodeViaTurboStream(new Response(body).body!, globalThis);
  await decoded.done;
  const results = decoded.value;
  if (!results || typeof results !== "object" || Object.getOwnPropertySymbols(results).length > 0) return null;
  const routes: (RouteOfPage & { depth: number })[] = [];
  for (const [id, result] of Object.entries(results as Record<string, unknown>)) {
    if (!result || typeof result !== "object" || !("data" in result) || !buildRoutes[id]) return null;
    const staleness = stalenessOf(buildRoutes[id].module.handle);
    routes.push({ staleness, hasLoader: true, data: result.data, depth: depthOf(id) });
  }
  return routes.length > 0 ? merged(routes.sort((a, b) => a.depth - b.depth)) : null;
}
