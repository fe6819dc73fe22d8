import { createRequestHandler } from "@react-router/express";
import type { ServerBuild } from "react-router";
import { env } from "./config/env.server";
import { backgroundStatements, getDatabase, type Database } from "./db/db.server";
import { contentSecurityPolicy } from "./http/csp";
import { createEdge, type EdgeOptions } from "./edge/edge.server";
import { watchEventLoop } from "./edge/event-loop-watch.server";
import { referrerPolicyFor } from "./edge/headers.server";
import { publicPageCache } from "./edge/page-cache.server";
import { announceDataChange, SHARED_DATA_SETS } from "./server/data-changes.server";
import { BODY_LIMIT_BYTES, bodyLimitFor } from "./http/request-body.server";
import { prepareVariantCookies } from "./edge/variant-cookies.server";
import { loadPublicLists } from "./learning/public-lists.server";
import { loadListGlosses } from "./dictionary/builtin.server";
import { createLoadContext } from "./server/client-ip.server";
import { checkedUserContext, checkedUserOf } from "./auth/session.server";
import { learnerChangesOf } from "./db/learner-changes";
import { checkHealth, noteStarted, onHealthCheck, shutdown } from "./server/lifecycle.server";
import { log, setLogSink } from "./server/log.server";
import { holdsBearerToken, metrics, requestDuration, requestsInFlight } from "./server/metrics.server";
import { requestLogFields, routePatterns } from "./server/request-log.server";
import { scheduleBackgroundMigrations } from "./server/background-migrations.server";
import { scheduleHousekeeping } from "./server/housekeeping.server";
import { watchSharedData } from "./server/shared-data.server";

let started: Promise<Database> | null = null;

/**
 * Every set of data shared by all visitors changed (another instance changed some; a test changed the database
 * behind the app's back): what was kept from them is forgotten.
 */
const invalidatePublicPages = () => announceDataChange(...SHARED_DATA_SETS);

/**
 * Opens and migrates the database, then loads the shipped public lists and schedules the housekeeping (not run here:
 * it stays out of the start-up path); every later call returns the same promise. On
 * PostgreSQL, which other instances may share, changes they make to public data are then watched for (a webhook
 * reaches one instance only); PGlite has one process, which learns every change itself.
 */
function startApp(): Promise<Database> {
  started ??= (async () => {
    const db = await getDatabase();
    await loadPublicLists(db);
    await loadListGlosses(db);
    // The caches' table of valid cookie values, before the first request is answered.
    await prepareVariantCookies();
    if (env.DATABASE_URL) watchSharedData(db, invalidatePublicPages);
    const background = await backgroundStatements();
    // Expired sessions, old sign-in links and rate-limit events go on a schedule, by one instance at a time; the
    // embedded database, which has no autovacuum, gets one table vacuumed a round.
    scheduleHousekeeping(db, background.kind === "pglite" ? { vacuum: background.run } : {});
    // Data changes too large for the start-up migrations run after start, by one instance at a time (ADR 046).
    scheduleBackgroundMigrations(db, background.run, background.kind);
    noteStarted();
    return db;
  })();
  return started;
}

// Healthy means started: the database answers and the shipped data is in it.
onHealthCheck(async () => {
  if (!started) throw new Error("not started");
  await started;
});

/** The Express handler rendering the app; `build` is a function in development, so every request sees fresh code. */
function requestHandler(build: ServerBuild | (() => Promise<ServerBuild>)) {
  return createRequestHandler({
    build,
    getLoadContext: (req) => {
      const context = createLoadContext(req.ip ?? null, requestLogFields(req));
      context.set(checkedUserContext, checkedUserOf(req));
      return context;
    },
  });
}

/**
 * Everything `server.ts` needs from the app, in one typed object exported by the server entry. server.ts imports
 * only this type; the value comes from the build (production) or from Vite (development).
 */
export const appServer = {
  env,
  log,
  start: startApp,
  checkHealth,
  shutdown,
  contentSecurityPolicy,
  /** The Referrer-Policy of a path (app/edge/headers.server.ts). */
  referrerPolicyFor,
  /** The largest request body read; server.ts answers 413 before reading a larger one. */
  BODY_LIMIT_BYTES,
  /** The body limit of a path: BODY_LIMIT_BYTES except for the few pages that take files (the import). */
  bodyLimitFor,
  /** Where log lines go instead of stdout/stderr (tests capture them); null restores the default. */
  setLogSink,
  /** Per-request context for React Router: the client's address as Express sees it (trusting proxies per TRUST_PROXY). */
  createLoadContext,
  /** The Prometheus registry /metrics shows, and what server.ts counts into it. */
  metrics: { registry: metrics, requestDuration, requestsInFlight, holdsBearerToken },
  /** A request's id (the proxy's X-Request-Id when trusted and plain, else a new one) and learner tag, for its log line. */
  requestLogFields,
  /** The route pattern of a path (`/:lang?/account/profile`), by which log lines and metrics group requests. */
  routePatterns,
  /** Anonymous public pages from memory (production): an Express middleware in front of the request handler. */
  publicPageCache,
  /** Forgets the cached public pages and in-memory shipped data: every shared set of data changed. */
  invalidatePublicPages,
  /**
   * The announcements of learner changes the app hears on its database (null where it hears none): a test that changes
   * rows behind the app's back waits on these, the app's own, to know the app has heard of the change.
   */
  learnerChangesOf,
  /** The Express handler rendering the app; `build` is a function in development, so every request sees fresh code. */
  requestHandler,
  /**
   * The HTTP server's request handler (app/edge/edge.server.ts), with the event loop watched from now on: server.ts
   * only loads the app, listens and stops.
   */
  edge(options: Omit<EdgeOptions, "renderPage">) {
    watchEventLoop();
    return createEdge({ ...options, renderPage: requestHandler(options.build) });
  },
};

export type AppServer = typeof appServer;
