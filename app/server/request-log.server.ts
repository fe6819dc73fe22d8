import { createHmac, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createContext, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { env } from "../config/env.server";

/**
 * What a request's log line says beyond method, status and duration: its id (sent back as `X-Request-Id`) and the
 * signed-in learner as a keyed hash. Created by server.ts for each request; the session check fills in the learner.
 */
export type RequestLogFields = { requestId: string; learner?: string };

/** The request's log fields, for React Router's middlewares (the session check writes the learner into it). */
export const requestLogContext = createContext<RequestLogFields | null>(null);

const fieldsOfRequest = new WeakMap<IncomingMessage, RequestLogFields>();

/** A request id from the proxy is taken only when it is short and plain: no spaces, quotes or control characters. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/**
 * The request's log fields, made on first use: the proxy's `X-Request-Id` when TRUST_PROXY says a proxy is in front
 * and the value is acceptable, otherwise a new random id (a client could otherwise write anything into the logs).
 */
export function requestLogFields(req: IncomingMessage): RequestLogFields {
  let fields = fieldsOfRequest.get(req);
  if (!fields) {
    const offered = env.TRUST_PROXY === false ? undefined : req.headers["x-request-id"];
    const requestId = typeof offered === "string" && ACCEPTED_REQUEST_ID.test(offered) ? offered : randomUUID();
    fields = { requestId };
    fieldsOfRequest.set(req, fields);
  }
  return fields;
}

/** Derived once from the first session key: log lines of all instances name a learner alike, the log alone cannot. */
let learnerKey: Buffer | null = null;

/**
 * A learner as the logs name them: 16 hex characters of an HMAC-SHA-256 of their id under a key derived from the
 * session secret. The same learner gets the same tag in every line (and on every instance sharing the secret), but the
 * tag does not lead back to an account without the secret; a new first key gives new tags.
 */
export function learnerTag(userId: string): string {
  let tag = learnerTags.get(userId);
  if (tag !== undefined) return tag;
  learnerKey ??= createHmac("sha256", env.sessionSecrets[0]!).update("request log learner tag").digest();
  tag = createHmac("sha256", learnerKey).update(userId).digest("hex").slice(0, 16);
  // Bounded: forgotten whole when full (every signed-in request names its learner; an HMAC each time weighed more
  // than the lookup of the session).
  if (learnerTags.size >= LEARNER_TAGS_KEPT) learnerTags.clear();
  learnerTags.set(userId, tag);
  return tag;
}
const learnerTags = new Map<string, string>();
const LEARNER_TAGS_KEPT = 10_000;

type ManifestRoute = NonNullable<ServerBuild["routes"][string]>;

/**
 * The route pattern a path matches, as React Router writes it for loaders (`/:lang?/account/profile`), from the
 * build's route manifest: log lines and metrics group requests by it, never by the raw path (which can carry ids and
 * tokens). Data requests (`/explore.data`, `/_root.data`) count as their page; a path no route matches is `unmatched`.
 */
export function routePatterns(build: ServerBuild): (pathname: string) => string {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push(route);
    children.set(route.parentId, siblings);
  }
  const tree = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route: ManifestRoute) =>
      route.index
        ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
    );
  const routes = tree(undefined);
  // matchRoutes ranks every branch of the tree on each call (about 2 ms a request): a path's pattern is kept, with
  // its ids (UUIDs, which no static segment equals) written as one, so `/account/terms/<id>` is one entry.
  const known = new Map<string, string>();
  return (pathname) => {
    const key = pathname.replace(UUID, "00000000-0000-0000-0000-000000000000");
    let pattern = known.get(key);
    if (pattern === undefined) {
      pattern = patternOf(key);
      if (known.size >= 1_000) known.clear();
      known.set(key, pattern);
    }
    return pattern;
  };
  function patternOf(pathname: string): string {
    const page = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    // A malformed escape would make React Router warn on stdout once more: escapes only ever stand in parameters,
    // so they are blanked for matching.
    const matches = matchRoutes(routes, decodes(page) ? page : page.replace(/%[0-9A-Fa-f]{2}|%/g, "_"));
    if (!matches) return "unmatched";
    const pattern = matches
      .map((match) => match.route.path)
      .filter(Boolean)
      .join("/")
      .replace(/\/\/+/g, "/");
    return pattern.startsWith("/") ? pattern : `/${pattern}`;
  }
}

/** The ids in a path (terms, texts): a path's shape is the same whichever id it names. */
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
