import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler, type ServerBuild } from "react-router";
import { env } from "../config/env.server";
import { preferredEncoding, type Encoding } from "./accept-encoding";
import { createLoadContext } from "../server/client-ip.server";
import { log } from "../server/log.server";
import { dataVersions, DATA_SETS, unchangedSince, type DataSet } from "../server/data-changes.server";
import { PERSONAL_CACHE_CONTROL } from "./headers.server";
import { keptDocument } from "./kept-document.server";
import { collectStaleness, declaredBy } from "./staleness.server";
import { OwnerBoundedCache } from "./owner-bounded-cache";
import {
  lookup,
  rootRedirectFor,
  rootRedirectKey,
  rootRedirectKnown,
  VARIANT_HEADERS,
  type Lookup,
} from "./public-page-keys.server";

/**
 * Anonymous public pages from memory. Each page is rendered once by the running app (its runtime configuration) for a
 * canonical request that carries only what may change an anonymous page: the path, whitelisted query parameters and
 * the cookies listed below. Visitors with a session or a toast, any other query and every other method go to React
 * Router. A response that sets a cookie, varies on anything else or is not a plain 200 is never stored. A page is
 * drawn again when data its routes declare they show changes (`handle.staleness`, app/edge/staleness.ts; a change
 * announced through app/server/data-changes.server.ts), and only then; a page whose routes declare nothing, on any.
 */

/** Response headers that vary only in ways the key already covers. */
const HANDLED_VARY = new Set(["accept-encoding", "cookie", "accept-language", ...Object.keys(VARIANT_HEADERS)]);

/** The owner of every public page in the store. */
const PUBLIC = "public";
const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Entries are renewed now and then, so the footer's year and similar clock-driven details stay right. */
const MAX_AGE_MS = 60 * 60 * 1000;

type Entry = {
  /** The sets the page shows, and how many changes of each were announced when its drawing began. */
  dependsOn: ReadonlySet<DataSet>;
  drawnFrom: Readonly<Record<DataSet, number>>;
  expires: number;
  bytes: number;
  /** Null: the page answered with something that must not be shared; requests for it go to React Router. */
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer } | null;
  etag: string;
  headers: Record<string, string>;
  /**
   * Per encoding, the 200's own headers but Cache-Control (which depends on the request) as names and values in turn:
   * what `writeHead` takes whole.
   */
  raw: Record<Encoding, readonly string[]> | null;
};

const ALL_SETS: ReadonlySet<DataSet> = new Set(DATA_SETS);

/** Still what its routes would draw: none of the data they declared changed since its drawing began. */
const fresh = (entry: Entry) => unchangedSince(entry.dependsOn, entry.drawnFrom);

async function toEntry(
  response: Response,
  page: string,
  drawnFrom: Entry["drawnFrom"],
  dependsOn: Entry["dependsOn"],
): Promise<Entry> {
  // A refusal is remembered briefly: it may come from a passing failure rather than from the page.
  const pass: Entry = {
    dependsOn,
    drawnFrom,
    expires: Date.now() + 60_000,
    bytes: 0,
    bodies: null,
    etag: "",
    headers: {},
    raw: null,
  };
  const vary = (response.headers.get("Vary") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const shareable =
    response.status === 200 &&
    response.headers.getSetCookie().length === 0 &&
    !/private|no-store/i.test(response.headers.get("Cache-Control") ?? "") &&
    vary.every((name) => HANDLED_VARY.has(name) && (name !== "accept-language" || page === "/"));
  if (!shareable) {
    await response.body?.cancel();
    return pass;
  }
  const { bodies, bytes, headers } = await keptDocument(response, await response.text(), { brotli: 11, gzip: 9 });
  const identity = bodies.identity;
  headers["cache-control"] = "public, max-age=0, must-revalidate";
  headers["vary"] = [
    "Accept-Encoding",
    "Cookie",
    ...(vary.includes("accept-language") ? ["Accept-Language"] : []),
    ...(vary.includes("save-data") ? ["Save-Data"] : []),
  ].join(", ");
  const etag = createHash("sha1").update(identity).digest("base64url").slice(0, 22);
  const { "cache-control": _byRequest, ...own } = headers;
  const raw = (encoding: Encoding) =>
    Object.freeze([
      ...Object.entries(own).flat(),
      "etag",
      etagOf(etag, encoding),
      "content-length",
      String(bodies[encoding].length),
      ...(encoding === "identity" ? [] : ["content-encoding", encoding]),
    ]);
  return {
    dependsOn,
    drawnFrom,
    expires: Date.now() + MAX_AGE_MS,
    bytes,
    bodies,
    etag,
    headers,
    raw: { identity: raw("identity"), br: raw("br"), gzip: raw("gzip") },
  };
}

/** A kept page's entity tag in one encoding. */
const etagOf = (etag: string, encoding: Encoding) => `"${etag}${encoding === "identity" ? "" : `-${encoding}`}"`;

/** Whether the request's If-None-Match names the page as kept (in any encoding). */
function matches(req: IncomingMessage, entry: Ready) {
  return req.headers["if-none-match"]?.split(",").some((tag) => {
    const clean = tag.trim().replace(/^W\//, "");
    return clean === "*" || clean.startsWith(`"${entry.etag}`);
  });
}

type Ready = Entry & { bodies: NonNullable<Entry["bodies"]>; raw: NonNullable<Entry["raw"]> };

/**
 * Writes a cached page (or 304) through Express: headers are set one by one, so the middlewares' wrappers of
 * `writeHead` may still amend them.
 */
function send(req: IncomingMessage, res: ServerResponse, entry: Ready) {
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  if (matches(req, entry)) {
    res.setHeader("etag", etagOf(entry.etag, encoding));
    res.setHeader("vary", entry.headers.vary!);
    res.setHeader("cache-control", entry.headers["cache-control"]!);
    res.writeHead(304);
    res.end();
    return;
  }
  const body = entry.bodies[encoding];
  for (const name in entry.headers) res.setHeader(name, entry.headers[name]!);
  res.setHeader("etag", etagOf(entry.etag, encoding));
  res.setHeader("content-length", body.length);
  if (encoding !== "identity") res.setHeader("content-encoding", encoding);
  res.writeHead(200);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** The server's part of an answer from memory: its headers (security, the request's id), and whether it is personal. */
export type Around = { headers: () => readonly string[]; personal: boolean };

/**
 * Writes a cached page (or 304) on a response nothing else has touched: its headers and the server's go to
 * `writeHead` whole, in one list made once per page and encoding, instead of a `setHeader` call each (which node:http
 * files by lower-cased name only to list them again).
 */
function sendWhole(req: IncomingMessage, res: ServerResponse, entry: Ready, around: Around) {
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const cacheControl = around.personal ? PERSONAL_CACHE_CONTROL : entry.headers["cache-control"]!;
  if (matches(req, entry)) {
    res.writeHead(304, [
      "etag",
      etagOf(entry.etag, encoding),
      "vary",
      entry.headers.vary!,
      "cache-control",
      cacheControl,
      ...around.headers(),
    ]);
    res.end();
    return;
  }
  res.writeHead(200, [...entry.raw[encoding], "cache-control", cacheControl, ...around.headers()]);
  res.end(req.method === "HEAD" ? undefined : entry.bodies[encoding]);
}

/** The cache in front of React Router: an Express-style middleware (`next` renders the request as usual). */
export function publicPageCache(build: ServerBuild) {
  const render = createRequestHandler(build, "production");
  /**
   * Anonymous pages are everyone's: one owner, whose share is never the bound (the store then pushes out its least
   * recently used page, past MAX_ENTRIES or MAX_BYTES).
   */
  const entries = new OwnerBoundedCache<Entry>({ entries: MAX_ENTRIES, bytes: MAX_BYTES, perOwner: MAX_ENTRIES + 1 });
  const pending = new Map<string, Promise<Entry>>();

  function store(key: string, entry: Entry) {
    if (!fresh(entry) || entry.bytes > MAX_BYTES / 4) return;
    entries.set(PUBLIC, key, entry);
  }

  async function fill(found: Lookup): Promise<Entry> {
    const drawnFrom = dataVersions();
    const headers = new Headers({ Accept: "text/html" });
    if (found.cookie) headers.set("Cookie", found.cookie);
    for (const [name, value] of found.headers) headers.set(name, value);
    const context = createLoadContext(null);
    collectStaleness(context);
    const response = await render(new Request(new URL(found.url, env.APP_URL), { headers }), context);
    const dependsOn = declaredBy(context)?.dependsOn ?? ALL_SETS;
    const entry = await toEntry(response, found.page, drawnFrom, dependsOn);
    store(found.key, entry);
    if (entry.bodies) log.debug("page cached", { path: found.url, bytes: entry.bytes, entries: entries.size });
    return entry;
  }

  async function serve(req: IncomingMessage, res: ServerResponse, next: () => void, found: Lookup): Promise<void> {
    // The bare root sends most visitors to their language: only those it would not redirect share its page.
    if (found.page === "/" && found.url === "/") {
      if (await rootRedirectFor(req)) return next();
    }
    let entry = entries.get(found.key);
    if (entry && (!fresh(entry) || entry.expires < Date.now())) {
      entries.delete(found.key);
      entry = undefined;
    }
    if (entry) {
      // Recently used entries move to the end, away from eviction.
      entries.touch(found.key);
    } else {
      let filling = pending.get(found.key);
      if (!filling) {
        filling = fill(found).finally(() => pending.delete(found.key));
        pending.set(found.key, filling);
      }
      entry = await filling;
    }
    if (!entry.bodies) return next();
    send(req, res, entry as Ready);
  }

  /** The entry ready for this request right now, or null (a miss, a stale entry, a page that is not shared). */
  function readyEntry(found: Lookup): Ready | null {
    const entry = entries.get(found.key);
    if (!entry?.bodies || !fresh(entry) || entry.expires < Date.now()) return null;
    entries.touch(found.key);
    return entry as Ready;
  }

  function pageCacheMiddleware(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const found = lookup(req);
    if (!found) return next();
    serve(req, res, next, found).catch((error: unknown) => {
      log.error("page cache failed", { path: found.url, error });
      if (!res.headersSent) next();
    });
  }

  /**
   * The same answers as the middleware, for a plain node:http request before any framework sees it: true when a page
   * ready in memory was written (synchronously), false when the request must take the usual way (a miss, a request
   * with a body, a visitor the bare root may redirect and whose redirect is not known yet, anything not cached).
   */
  function answerFromMemory(
    req: IncomingMessage,
    res: ServerResponse,
    around: Around,
    whenDrawn?: { sent: () => void; otherwise: () => void },
  ): boolean {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
    const found = lookup(req);
    if (!found) return false;
    if (found.page === "/" && found.url === "/") {
      const redirect = rootRedirectKnown.get(rootRedirectKey(req));
      if (redirect !== null) return false;
    }
    const entry = readyEntry(found);
    if (entry) {
      sendWhole(req, res, entry, around);
      return true;
    }
    // The page is being drawn for another visitor right now: wait for that drawing instead of queueing to draw it
    // again. A fresh instance under load (just restarted, its memory empty) then answers every visitor of a page from
    // its first drawing rather than refusing them while its queue stands.
    const drawing = whenDrawn && pending.get(found.key);
    if (!drawing) return false;
    drawing.then(
      (drawn) => {
        if (!drawn.bodies || !fresh(drawn)) return whenDrawn.otherwise();
        sendWhole(req, res, drawn as Ready, around);
        whenDrawn.sent();
      },
      () => whenDrawn.otherwise(),
    );
    return true;
  }

  return Object.assign(pageCacheMiddleware, { answerFromMemory });
}
